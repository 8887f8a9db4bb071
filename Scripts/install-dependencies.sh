#!/usr/bin/env bash
# Installs the Debian packages that building and testing Viewfinder needs, when any is missing.
# Usage: Scripts/install-dependencies.sh [build|test]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."

install_debian_packages() {
    echo "Installing Debian packages: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build_packages=(libyuv-dev libturbojpeg0-dev libzxing-dev libpng-dev libzbar-dev libmosquitto-dev pkg-config)
test_packages=(gphoto2 qemu-system-x86 busybox-static kmod v4l-utils iproute2 iperf3 ffmpeg chromium python3 binutils bsdutils
    python3-zeroconf python3-venv avahi-daemon avahi-utils dbus util-linux
    qrencode zint python3-segno dmtx-utils zbar-tools zxing-cpp-tools make gcc-12 libelf1
    zsh fish man-db dpkg-dev lintian mosquitto mosquitto-clients python3-paho-mqtt nftables openssl hostapd wpasupplicant)

packages=("${build_packages[@]}")
if [ "${1:-build}" = test ]; then
    packages+=("${test_packages[@]}")
fi

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    install_debian_packages
fi

# The SSDP tests' independent peers, async-upnp-client and ssdpy, the Olympus test's client, olympuswifi, and the Sony
# Camera Remote API test's client, libsonyapi, are on PyPI only: they go into a virtual environment of Debian's
# Python in .build-peers, which the tests run.
if [ "${1:-build}" = test ] \
    && ! .build-peers/bin/python3 -c "import async_upnp_client, ssdpy, olympuswifi, libsonyapi" 2>/dev/null; then
    echo "Installing the test peers (async-upnp-client, ssdpy, olympuswifi and libsonyapi from PyPI) into .build-peers"
    /usr/bin/python3 -m venv .build-peers
    .build-peers/bin/pip install -q --disable-pip-version-check "async-upnp-client==0.49.*" "ssdpy==0.4.1" \
        "olympuswifi==1.0.1" "libsonyapi==1.0"
fi

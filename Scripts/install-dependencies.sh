#!/usr/bin/env bash
# Installs the Debian packages that building and testing Viewfinder needs, when any is missing.
# Usage: Scripts/install-dependencies.sh [build|test]   (default: build)
set -euo pipefail

build_packages=(libyuv-dev libturbojpeg0-dev pkg-config)
test_packages=(gphoto2 qemu-system-x86 busybox-static kmod v4l-utils iproute2 iperf3 ffmpeg chromium python3 binutils bsdutils
    python3-zeroconf)

packages=("${build_packages[@]}")
if [ "${1:-build}" = test ]; then
    packages+=("${test_packages[@]}")
fi

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing Debian packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"

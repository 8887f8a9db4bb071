#!/usr/bin/env bash
# Runs the V4L2 checks and benchmark against the kernel's own virtual video driver, vivid, inside a qemu VM.
#
# Downloads the distribution's kernel package into .vm/ (not installed), builds an initramfs with busybox, the
# kernel's vivid modules, the static check and benchmark binaries, the static `viewfinder` tool and v4l2-ctl, boots
# it under qemu (software emulation) and reads the results from the serial console. The init script runs these
# phases in one boot:
#   1. hotplug: vivid-checks listens for devices while init loads vivid, then init unloads it again;
#   2. capture: vivid with two instances (/dev/video0 and /dev/video1 capture, /dev/video2 output), then every
#      capture check;
#   3. cli: the `viewfinder` tool's device commands and its preview server (over loopback) on the same devices;
#   4. barcode and webcam: frames written to the output node, read back on the capture node through vivid's loop;
#   5. webcam-loopback: `viewfinder webcam` to a v4l2loopback device (the device it writes to in real use; Debian ships
#      it as source, built here for the VM's kernel against Debian's header packages), read back from the same node,
#      with the built-in simulated camera and then with a simulated camera that speaks HTTP (Sony's Camera Remote API);
#   6. usb: dummy_hcd and FunctionFS gadgets on configfs; the PTP over USB transport against umtp-responder (an
#      independent MTP responder, from Debian's package), with an unplug mid-download; then `viewfinder simulate
#      --usb` as each identity, checked with gphoto2 and the tool;
#   7. wifi: the kernel's simulated radios (mac80211_hwsim), hostapd serving a Fujifilm's network on one and
#      wpa_supplicant joining it on the other; discovery finds `viewfinder simulate --identity fuji` by that network;
#   8. benchmark: on /dev/video1.
# Prints the check lines, the benchmark figures and a closing `vivid: N passed, N failed`; exits non-zero on any
# failure, or when the VM does not finish within VIVID_VM_TIMEOUT seconds.
#
# With `bench-webcam` it boots instead for one measurement: `viewfinder webcam` against the gphoto2 | ffmpeg recipe,
# both writing the same simulated camera's live view to the v4l2loopback device, as in real use, taking turns three
# times and compared by their medians (gphoto2, ffmpeg and their libraries are copied into the VM for it). With `bench-usb`, a 200 MB download over USB from `viewfinder
# simulate --usb`, by the PTP over USB transport and by `gphoto2 --get-file`.
#
# Usage: Scripts/vivid-vm.sh [bench-webcam|bench-usb]
#        (environment: VIVID_VM_TIMEOUT=600, SWIFT=swift, VIVID_BENCH_FRAMES=100, WEBCAM_BENCH_SECONDS=20,
#        USB_BENCH_MEGABYTES=200, VIVID_USB_IDENTITIES="generic nikon canon sony sony-stepping fuji", the simulator's
#        identities the USB phase checks)
set -euo pipefail
mode=${1:-checks}
case $mode in
    checks | bench-webcam | bench-usb) ;;
    *) echo "usage: $0 [bench-webcam|bench-usb]" >&2; exit 64 ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
cache="$root/.vm"
swift=${SWIFT:-swift}
timeout_seconds=${VIVID_VM_TIMEOUT:-600}
bench_frames=${VIVID_BENCH_FRAMES:-100}
usb_identities=${VIVID_USB_IDENTITIES:-generic nikon canon sony sony-stepping fuji}
mkdir -p "$cache"
cd "$cache"
started=$(date +%s)

step() { printf '[vivid-vm %3ss] %s\n' "$(($(date +%s) - started))" "$*"; }

# 1. The kernel package, downloaded and unpacked, with a module dependency table and vivid's load order.
kernel_package=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
if [ -z "$kernel_package" ]; then
    apt-get update -qq
    kernel_package=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
fi
kernel_version=${kernel_package#linux-image-}
if ! ls "$kernel_package"_*.deb >/dev/null 2>&1; then
    step "downloading $kernel_package"
    apt-get download -q "$kernel_package"
fi
kernel_dir="$cache/kernel-$kernel_version"
if [ ! -f "$kernel_dir/boot/vmlinuz-$kernel_version" ]; then
    step "unpacking $kernel_package"
    rm -rf "$kernel_dir"
    dpkg-deb -x "$kernel_package"_*.deb "$kernel_dir"
fi
[ -f "$kernel_dir/lib/modules/$kernel_version/modules.dep" ] || depmod -b "$kernel_dir" "$kernel_version"
mapfile -t modules < <(modprobe -d "$kernel_dir" -S "$kernel_version" --show-depends vivid | awk '$1 == "insmod" {print $2}')
# The USB phase's modules: dummy_hcd (a host controller and a device controller joined inside the kernel) and
# FunctionFS gadgets on configfs, in load order without repeats.
mapfile -t usb_modules < <(for module in dummy_hcd usb_f_fs; do
    modprobe -d "$kernel_dir" -S "$kernel_version" --show-depends "$module"
done | awk '$1 == "insmod" && !seen[$2]++ {print $2}')
# The WiFi phase's modules: cfg80211, mac80211 and the simulated radios, in load order.
mapfile -t wifi_modules < <(modprobe -d "$kernel_dir" -S "$kernel_version" --show-depends mac80211_hwsim \
    | awk '$1 == "insmod" {print $2}')

# 2. The check and benchmark programs, and the tool.
step "building vivid-checks, v4l2-benchmark and viewfinder (release, Swift runtime linked in)"
# The Swift runtime is linked into each program; the system libraries (zxing-cpp has no static library in Debian)
# are copied into the VM beside them.
SWIFT=$swift "$root/Scripts/build-static.sh" vivid-checks v4l2-benchmark viewfinder
binaries="$root/.build-static/release"

# 3. The initramfs.
step "building the initramfs"
rootfs="$cache/rootfs"
rm -rf "$rootfs"
mkdir -p "$rootfs"/{bin,dev,proc,sys,tmp,modules}
cp /bin/busybox "$rootfs/bin/busybox"
for applet in sh mount insmod rmmod ls cat echo poweroff sleep cut timeout test grep ip mkdir head kill killall seq sed chmod ln; do
    ln -s busybox "$rootfs/bin/$applet"
done
# Copies modules into the initramfs, uncompressed, and lists them in load order in /modules/ORDER.
add_modules() {
    local order=$1 module name
    shift
    for module in "$@"; do
        name=$(basename "$module")
        case $module in
            *.xz) xz -dc "$module" >"$rootfs/modules/${name%.xz}" ;;
            *.zst) zstd -dc "$module" >"$rootfs/modules/${name%.zst}" ;;
            *) cp "$module" "$rootfs/modules/$name" ;;
        esac
        name=${name%.xz}
        echo "${name%.zst}" >>"$rootfs/modules/$order"
    done
}
add_modules order "${modules[@]}"
add_modules usb-order "${usb_modules[@]}"
add_modules wifi-order "${wifi_modules[@]}"
strip -o "$rootfs/bin/vivid-checks" "$binaries/vivid-checks"
strip -o "$rootfs/bin/v4l2-benchmark" "$binaries/v4l2-benchmark"
strip -o "$rootfs/bin/viewfinder" "$binaries/viewfinder"
# The barcode loop check's picture, made by qrencode here: the VM shows it on vivid's output and reads it back.
barcode_text="Viewfinder vivid loop"
# The WiFi phase's network, named as a Fujifilm X-T4 names its own (vivid-checks' WiFiChecks.swift expects it).
fujifilm_network="FUJIFILM-X-T4-VF01"
qrencode -s 8 -m 4 -o "$rootfs/loop-qr.png" "$barcode_text"
v4l2_ctl=$(command -v v4l2-ctl)
cp "$v4l2_ctl" "$rootfs/bin/v4l2-ctl"
# Real cameras' logs, played back over USB.
mkdir -p "$rootfs/traces"
for trace in canon-eos60d nikon-z6 sony-a7sm3; do
    cp "$root/Tests/ViewfinderPTPTests/Traces/$trace-libgphoto2-cameras.log" "$rootfs/traces/"
done
programs=("$v4l2_ctl" "$binaries/vivid-checks" "$binaries/v4l2-benchmark" "$binaries/viewfinder")
# hostapd and wpa_supplicant (Debian's packages) for the WiFi phase.
for tool in hostapd wpa_supplicant; do
    cp "$(command -v "$tool")" "$rootfs/bin/$tool"
    programs+=("$(command -v "$tool")")
done
# v4l2loopback for the VM's kernel, built against that kernel's headers (Debian's packages, unpacked here).
loopback_module="$cache/v4l2loopback-$kernel_version.ko"
if [ ! -f "$loopback_module" ]; then
    step "building v4l2loopback for $kernel_version"
    build="$cache/v4l2loopback-build"
    rm -rf "$build"
    mkdir -p "$build/root"
    (cd "$build" && apt-get download -q v4l2loopback-dkms "linux-headers-$kernel_version" \
        "linux-headers-${kernel_version%-amd64}-common" "linux-kbuild-$(echo "$kernel_version" | cut -d. -f1,2)")
    for package in "$build"/*.deb; do dpkg-deb -x "$package" "$build/root"; done
    headers="$build/root/usr/src/linux-headers-$kernel_version"
    # The headers' Makefile names its common half by absolute path: point it at the unpacked one.
    sed -i "s#/usr/src/#$build/root/usr/src/#" "$headers/Makefile"
    cp -r "$build"/root/usr/src/v4l2loopback-* "$build/source"
    make -s -C "$headers" M="$build/source" modules >"$build/make.log" 2>&1 \
        || { tail -20 "$build/make.log"; exit 1; }
    cp "$build/source/v4l2loopback.ko" "$loopback_module"
fi
cp "$loopback_module" "$rootfs/modules/v4l2loopback.ko"
# umtp-responder, an independent MTP responder for the USB phase (it needs only the C library), and its settings:
# the VM's /tmp/umtp-store as a writable storage.
umtp_package="$cache/umtp-responder"
if [ ! -x "$umtp_package/usr/bin/umtprd" ]; then
    rm -rf "$umtp_package"
    mkdir -p "$umtp_package"
    (cd "$umtp_package" && apt-get download -q umtp-responder && dpkg-deb -x umtp-responder_*.deb .)
fi
cp "$umtp_package/usr/bin/umtprd" "$rootfs/bin/umtprd"
mkdir -p "$rootfs/etc/umtprd"
sed -e 's#^storage .*#storage "/tmp/umtp-store" "shared folder" "rw"#' \
    "$umtp_package/etc/umtprd/umtprd.conf" >"$rootfs/etc/umtprd/umtprd.conf"
# gphoto2, with the camera driver and the port drivers it loads for PTP/IP and USB cameras: the USB phase's
# independent client, and the webcam benchmark's recipe with ffmpeg.
tools=(gphoto2)
[ "$mode" = bench-webcam ] && tools+=(ffmpeg)
for tool in "${tools[@]}"; do
    cp "$(command -v "$tool")" "$rootfs/bin/$tool"
    programs+=("$(command -v "$tool")")
done
for driver in /usr/lib/x86_64-linux-gnu/libgphoto2/*/ptp2.so /usr/lib/x86_64-linux-gnu/libgphoto2_port/*/ptpip.so \
    /usr/lib/x86_64-linux-gnu/libgphoto2_port/*/usb1.so; do
    mkdir -p "$rootfs$(dirname "$driver")"
    cp "$driver" "$rootfs$driver"
    programs+=("$driver")
done
for program in "${programs[@]}"; do
    for library in $(ldd "$program" | grep -o '/[^ ]*'); do
        [ -e "$rootfs$library" ] && continue
        mkdir -p "$rootfs$(dirname "$library")"
        cp -L "$library" "$rootfs$library"
    done
done
# The USB modules (dummy_hcd, FunctionFS) and configfs.
cat >"$rootfs/bin/usb-setup" <<'SETUP'
#!/bin/sh
for module in $(cat /modules/usb-order); do
    grep -q "^${module%.ko} " /proc/modules || insmod /modules/$module || echo "VIVID FAIL insmod $module"
done
mkdir -p /sys/kernel/config
mount -t configfs none /sys/kernel/config
SETUP
# umtp-responder as a gadget serving /tmp/umtp-store, bound to dummy_hcd's device controller.
cat >"$rootfs/bin/umtp-gadget" <<'GADGET'
#!/bin/sh
/bin/usb-setup
mkdir -p /tmp/umtp-store /dev/ffs-mtp
gadget=/sys/kernel/config/usb_gadget/umtp
mkdir $gadget $gadget/configs/c.1 $gadget/functions/ffs.mtp $gadget/strings/0x409
echo 0x1D6B >$gadget/idVendor
echo 0x0100 >$gadget/idProduct
echo "Viveris Technologies" >$gadget/strings/0x409/manufacturer
echo "umtp-responder" >$gadget/strings/0x409/product
echo "01234567" >$gadget/strings/0x409/serialnumber
ln -s $gadget/functions/ffs.mtp $gadget/configs/c.1
mount -t functionfs mtp /dev/ffs-mtp
/bin/umtprd >/tmp/umtprd.log 2>&1 &
for i in $(seq 1 100); do test -e /dev/ffs-mtp/ep1 && break; sleep 0.1; done
ls /sys/class/udc >$gadget/UDC || echo "VIVID FAIL binding the umtp-responder gadget"
GADGET
# Two simulated radios: hostapd makes wlan0 a Fujifilm's access point (the camera at 192.168.0.1), wpa_supplicant joins
# it on wlan1 (192.168.0.2, the camera as gateway, as a camera's own network gives its clients).
cat >"$rootfs/bin/wifi-setup" <<WIFI
#!/bin/sh
for module in \$(cat /modules/wifi-order); do
    case \$module in
        mac80211_hwsim.ko) insmod /modules/\$module radios=2 || echo "VIVID FAIL insmod \$module" ;;
        *) grep -q "^\${module%.ko} " /proc/modules || insmod /modules/\$module || echo "VIVID FAIL insmod \$module" ;;
    esac
done
for i in \$(seq 1 100); do test -e /sys/class/net/wlan1 && break; sleep 0.1; done
printf 'interface=wlan0\\ndriver=nl80211\\nssid=$fujifilm_network\\nhw_mode=g\\nchannel=1\\n' >/tmp/hostapd.conf
hostapd -B /tmp/hostapd.conf >/tmp/hostapd.log 2>&1 || echo "VIVID FAIL hostapd: \$(cat /tmp/hostapd.log)"
ip addr add 192.168.0.1/24 dev wlan0
printf 'network={\\n ssid="$fujifilm_network"\\n key_mgmt=NONE\\n}\\n' >/tmp/wpa_supplicant.conf
wpa_supplicant -B -D nl80211 -i wlan1 -c /tmp/wpa_supplicant.conf >/tmp/wpa_supplicant.log 2>&1 \\
    || echo "VIVID FAIL wpa_supplicant: \$(cat /tmp/wpa_supplicant.log)"
ip link set wlan1 up
ip addr add 192.168.0.2/24 dev wlan1
ip route add default via 192.168.0.1 dev wlan1 || echo "VIVID FAIL the default route through wlan1"
WIFI
chmod +x "$rootfs/bin/usb-setup" "$rootfs/bin/umtp-gadget" "$rootfs/bin/wifi-setup"
if [ "$mode" = bench-usb ]; then
    cat >"$rootfs/init" <<INIT
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
/bin/usb-setup
echo "VIVID-INFO \$(/bin/gphoto2 --version 2>&1 | grep -m1 gphoto2)"
timeout 900 /bin/vivid-checks usb-benchmark /bin/viewfinder /bin/gphoto2 ${USB_BENCH_MEGABYTES:-200} \\
    || echo "VIVID FAIL usb benchmark"
echo "VIVID-END"
poweroff -f
INIT
elif [ "$mode" = bench-webcam ]; then
    cat >"$rootfs/init" <<INIT
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
/bin/busybox mkdir -p /root
export HOME=/root
for module in \$(cat /modules/order); do
    case \$module in vivid.ko) ;; *) insmod /modules/\$module || echo "VIVID FAIL insmod \$module" ;; esac
done
insmod /modules/v4l2loopback.ko video_nr=10 card_label=Viewfinder || echo "VIVID FAIL insmod v4l2loopback"
ip link set lo up || echo "VIVID FAIL ip link set lo up"
echo "VIVID-INFO \$(/bin/ffmpeg -hide_banner -version 2>&1 | grep -m1 version) / \$(/bin/gphoto2 --version 2>&1 | grep -m1 gphoto2)"
timeout 600 /bin/vivid-checks webcam-benchmark /bin/viewfinder /dev/video10 ${WEBCAM_BENCH_SECONDS:-20} || echo "VIVID FAIL webcam benchmark"
echo "VIVID-END"
poweroff -f
INIT
else
    cat >"$rootfs/init" <<INIT
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
uptime() { cut -d' ' -f1 /proc/uptime; }
for module in \$(cat /modules/order); do
    case \$module in vivid.ko) ;; *) insmod /modules/\$module || echo "VIVID FAIL insmod \$module" ;; esac
done
echo "VIVID-PHASE hotplug at \$(uptime)s"
/bin/vivid-checks hotplug /tmp/ready /tmp/added &
checks=\$!
for i in \$(seq 1 300); do test -e /tmp/ready && break; sleep 0.1; done
insmod /modules/vivid.ko n_devs=1 node_types=0x1 || echo "VIVID FAIL insmod vivid for hotplug"
for i in \$(seq 1 600); do test -e /tmp/added && break; sleep 0.1; done
rmmod vivid || echo "VIVID FAIL rmmod vivid"
wait \$checks
status=\$?
[ \$status -le 1 ] || echo "VIVID FAIL vivid-checks hotplug ended with status \$status"
echo "VIVID-PHASE capture at \$(uptime)s"
insmod /modules/vivid.ko n_devs=2 node_types=0x1,0x101 || echo "VIVID FAIL insmod vivid"
timeout 300 /bin/vivid-checks
status=\$?
# Status 1 means checks failed, and each printed its own line; anything else is a crash or a timeout.
[ \$status -le 1 ] || echo "VIVID FAIL vivid-checks ended with status \$status"
echo "VIVID-PHASE cli at \$(uptime)s"
ip link set lo up || echo "VIVID FAIL ip link set lo up"
timeout 240 /bin/vivid-checks cli /bin/viewfinder
status=\$?
[ \$status -le 1 ] || echo "VIVID FAIL vivid-checks cli ended with status \$status"
echo "VIVID-PHASE barcode at \$(uptime)s"
timeout 240 /bin/vivid-checks barcode /loop-qr.png "$barcode_text" /bin/viewfinder
status=\$?
[ \$status -le 1 ] || echo "VIVID FAIL vivid-checks barcode ended with status \$status"
echo "VIVID-PHASE webcam at \$(uptime)s"
timeout 180 /bin/vivid-checks webcam /bin/viewfinder
status=\$?
[ \$status -le 1 ] || echo "VIVID FAIL vivid-checks webcam ended with status \$status"
echo "VIVID-PHASE webcam-loopback at \$(uptime)s"
insmod /modules/v4l2loopback.ko video_nr=10 card_label=Viewfinder || echo "VIVID FAIL insmod v4l2loopback"
timeout 180 /bin/vivid-checks webcam-loopback /bin/viewfinder /dev/video10
status=\$?
[ \$status -le 1 ] || echo "VIVID FAIL vivid-checks webcam-loopback ended with status \$status"
echo "VIVID-PHASE webcam-http at \$(uptime)s"
timeout 180 /bin/vivid-checks webcam-http /bin/viewfinder /dev/video10
status=\$?
[ \$status -le 1 ] || echo "VIVID FAIL vivid-checks webcam-http ended with status \$status"
echo "VIVID-PHASE usb at \$(uptime)s"
mkdir -p /tmp/umtp-store
echo "Viewfinder over USB" >/tmp/umtp-store/small.txt
head -c 3000017 /dev/urandom >/tmp/umtp-store/large.bin
head -c 48000000 /dev/zero >/tmp/umtp-store/huge.bin
/bin/umtp-gadget
gadget=/sys/kernel/config/usb_gadget/umtp
timeout 180 /bin/vivid-checks usb-mtp /tmp/umtp-store \$gadget
status=\$?
[ \$status -le 1 ] || echo "VIVID FAIL vivid-checks usb-mtp ended with status \$status"
echo "" >\$gadget/UDC
killall umtprd
# The simulated camera as a USB device, with each identity, for gphoto2 and the tool; the generic camera's card has a
# 5 GB file made as it is sent, for a download killed in the middle.
for identity in $usb_identities; do
    extra=""
    [ \$identity = generic ] && extra="--generated-file BIG.BIN:5000000000"
    /bin/viewfinder simulate --identity \$identity --usb \$extra >/tmp/sim-usb.log 2>&1 &
    simulator=\$!
    timeout 420 /bin/vivid-checks usb-camera \$identity /bin/viewfinder /bin/gphoto2
    status=\$?
    [ \$status -le 1 ] || echo "VIVID FAIL vivid-checks usb-camera \$identity ended with status \$status"
    timeout 60 /bin/vivid-checks usb-privileges \$identity \$simulator
    status=\$?
    [ \$status -le 1 ] || echo "VIVID FAIL vivid-checks usb-privileges \$identity ended with status \$status"
    if [ \$identity = generic ]; then
        timeout 120 /bin/vivid-checks usb-permission /bin/viewfinder
        status=\$?
        [ \$status -le 1 ] || echo "VIVID FAIL vivid-checks usb-permission ended with status \$status"
    fi
    [ \$status -eq 0 ] || sed "s/^/VIVID-INFO simulate --usb: /" /tmp/sim-usb.log
    kill -INT \$simulator
    wait \$simulator
    # The simulator served as nobody: the process it left as root removed the gadget before the simulator ended.
    [ ! -e /sys/kernel/config/usb_gadget/viewfinder-\$identity ] \\
        || echo "VIVID FAIL the \$identity gadget outlived viewfinder simulate --usb"
done
# Real cameras played back from their gphoto2 logs, over USB.
for trace in canon-eos60d nikon-z6 sony-a7sm3; do
    /bin/viewfinder simulate --replay /traces/\$trace-libgphoto2-cameras.log --usb >/tmp/sim-replay.log 2>&1 &
    simulator=\$!
    timeout 180 /bin/vivid-checks usb-replay \$trace /bin/viewfinder
    status=\$?
    [ \$status -le 1 ] || echo "VIVID FAIL vivid-checks usb-replay \$trace ended with status \$status"
    [ \$status -eq 0 ] || sed "s/^/VIVID-INFO simulate --replay --usb: /" /tmp/sim-replay.log
    kill -INT \$simulator
    wait \$simulator
done
echo "VIVID-PHASE wifi at \$(uptime)s"
/bin/wifi-setup
/bin/viewfinder simulate --identity fuji --bind 192.168.0.1 >/tmp/sim-wifi.log 2>&1 &
simulator=\$!
timeout 240 /bin/vivid-checks wifi /bin/viewfinder
status=\$?
[ \$status -le 1 ] || echo "VIVID FAIL vivid-checks wifi ended with status \$status"
[ \$status -eq 0 ] || sed "s/^/VIVID-INFO simulate --identity fuji: /" /tmp/sim-wifi.log
kill -INT \$simulator
wait \$simulator
echo "VIVID-PHASE benchmark at \$(uptime)s"
timeout 300 /bin/v4l2-benchmark /dev/video1 /bin/v4l2-ctl $bench_frames || echo "VIVID FAIL benchmark ended with status \$?"
echo "VIVID-END at \$(uptime)s"
poweroff -f
INIT
fi
chmod +x "$rootfs/init"
(cd "$rootfs" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) >"$cache/initrd.gz"

# 4. Boot.
step "booting $kernel_version under qemu (TCG), timeout ${timeout_seconds}s"
log="$cache/serial.log"
boot_started=$(date +%s)
memory=1024
[ "$mode" != checks ] && memory=3072
timeout "$timeout_seconds" qemu-system-x86_64 -accel tcg -smp 1 -m "$memory" -nographic -no-reboot -monitor none \
    -kernel "$kernel_dir/boot/vmlinuz-$kernel_version" -initrd "$cache/initrd.gz" \
    -append "console=ttyS0 quiet panic=-1" >"$log" 2>&1 || true
step "VM ran for $(($(date +%s) - boot_started))s (serial log: $log)"

# 5. Report.
tr -d '\r' <"$log" | grep -E '^VIVID' | grep -v '^VIVID-END' || true
if [ "$mode" != checks ]; then
    ! tr -d '\r' <"$log" | grep -q '^VIVID FAIL' && grep -q '^VIVID-END' <(tr -d '\r' <"$log")
    exit
fi
passed=$(tr -d '\r' <"$log" | grep -c '^VIVID PASS' || true)
failed=$(tr -d '\r' <"$log" | grep -c '^VIVID FAIL' || true)
if ! grep -q '^VIVID-END' <(tr -d '\r' <"$log"); then
    echo "VIVID FAIL the VM did not finish within ${timeout_seconds}s; see $log"
    failed=$((failed + 1))
fi
expected=${VIVID_EXPECTED_CHECKS:-51}
if [ "$passed" -lt "$expected" ] && [ "$failed" -eq 0 ]; then
    echo "VIVID FAIL only $passed of $expected checks reported"
    failed=$((failed + 1))
fi
echo "vivid: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

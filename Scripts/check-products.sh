#!/usr/bin/env bash
# Checks that a program depending on the ViewfinderCameras product alone links what cameras need and nothing of the
# other jobs: a package made here (.build-products/cameras-only, depending on this checkout by path) builds a program
# that makes a camera, discovery and a live view decoder, and runs it; then the program must need none of libyuv,
# libpng, zxing-cpp or zbar (ldd), call none of their functions (its undefined symbols against the libraries' own
# exported ones, nm -D), and hold no code of ViewfinderImaging, ViewfinderBarcode, ViewfinderV4L2 or their C shims
# (nm). The same look at the `viewfinder` tool, which links them all, must find each, so that a check that finds
# nothing is known to look in the right places. Prints a line a check; exits non-zero on any failure.
# Usage: Scripts/check-products.sh   (environment: SWIFT=swift; run after `swift build`, which builds the tool)
set -euo pipefail
repository=$(cd "$(dirname "$0")/.." && pwd)
swift=${SWIFT:-swift}
work="$repository/.build-products"
package="$work/cameras-only"
failed=0

fail() {
    echo "products FAIL $*"
    failed=$((failed + 1))
}

pass() {
    echo "products PASS $*"
}

mkdir -p "$package/Sources/CamerasOnly"
cat >"$package/Package.swift" <<MANIFEST
// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "CamerasOnly",
    dependencies: [.package(path: "$repository")],
    targets: [
        .executableTarget(
            name: "CamerasOnly",
            dependencies: [.product(name: "ViewfinderCameras", package: "$(basename "$repository")")]
        )
    ]
)
MANIFEST
cat >"$package/Sources/CamerasOnly/main.swift" <<'PROGRAM'
import ViewfinderCameras

// A camera on the network and one by USB address, discovery over every transport, and live view's JPEG decoding.
let camera = PTPCamera(host: "192.0.2.1")
let decoder = JPEGLiveViewDecoder()
let settings = LiveViewSettings(options: [:])
let refused = (try? decoder.decode([0xFF, 0xD8, 0xFF, 0xD9], settings: settings)) == nil
print("camera at \(camera.host ?? "?"), \(camera.connectionState), discovery \(CameraDiscovery.shared.isSearching)")
print("a JPEG without a frame is refused: \(refused)")
PROGRAM

if ! "$swift" build --package-path "$package" --scratch-path "$work/build" >"$work/build.log" 2>&1; then
    fail "a package depending on ViewfinderCameras alone does not build:"
    tail -30 "$work/build.log" | sed 's/^/    /'
    exit 1
fi
program="$work/build/debug/CamerasOnly"
if output=$("$program" 2>&1) && grep -q "refused: true" <<<"$output"; then
    pass "a program on ViewfinderCameras alone builds and runs: $(head -1 <<<"$output")"
else
    fail "the program on ViewfinderCameras alone does not run as it should:"
    sed 's/^/    /' <<<"$output"
fi

# The shared libraries of the other jobs, by the names ldd shows and the files whose exported functions count.
libraries=(libyuv libpng16 libZXing libzbar)
library_file() {
    ldconfig -p | awk -v name="$1" '$1 ~ "^"name"\\.so" { print $NF; exit }'
}
# Code of the other jobs' modules, by the mangled module names Swift gives their symbols and the C shims' names.
modules=(17ViewfinderImaging 17ViewfinderBarcode 14ViewfinderV4L2 cv4l2_ vf_zxing_)

# What a binary links of the other jobs: one line per library it needs or calls, and per module whose code it holds.
# In a subshell without pipefail: `head` ends the listings early.
other_jobs() (
    set +o pipefail
    local binary=$1 library file undefined
    undefined=$(nm -D --undefined-only "$binary" 2>/dev/null | awk '{ print $NF }' | sed 's/@.*//' | sort -u)
    for library in "${libraries[@]}"; do
        if ldd "$binary" | grep -q "$library\\."; then
            echo "needs $library"
        fi
        file=$(library_file "$library")
        [ -n "$file" ] || continue
        local calls
        calls=$(comm -12 <(nm -D --defined-only "$file" | awk '{ print $NF }' | sed 's/@.*//' | sort -u) \
            <(echo "$undefined") | head -3 | tr '\n' ' ')
        [ -z "$calls" ] || echo "calls $library: $calls"
    done
    local symbols module
    symbols=$(nm "$binary" 2>/dev/null | awk '{ print $NF }')
    for module in "${modules[@]}"; do
        grep -q -- "$module" <<<"$symbols" && echo "holds $module: $(grep -m1 -- "$module" <<<"$symbols")"
    done
    true
)

found=$(other_jobs "$program")
if [ -z "$found" ]; then
    pass "the program needs no libyuv, libpng, zxing-cpp or zbar, calls none of them, and holds no imaging, barcode or V4L2 code"
else
    fail "the program on ViewfinderCameras alone links other jobs' code:"
    sed 's/^/    /' <<<"$found"
fi

tool="$repository/.build/debug/viewfinder"
if [ -x "$tool" ]; then
    seen=$(other_jobs "$tool")
    missing=()
    for expected in libyuv libpng16 libZXing "${modules[@]}"; do
        grep -q "$expected" <<<"$seen" || missing+=("$expected")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        pass "the same look at the viewfinder tool finds libyuv, libpng, zxing-cpp and the imaging, barcode and V4L2 code"
    else
        fail "the look at the viewfinder tool, which links them all, misses ${missing[*]}: the check looks in the wrong places"
    fi
else
    fail "no $tool to check the check against; run swift build first"
fi

[ "$failed" -eq 0 ] || { echo "products: $failed check(s) failed"; exit 1; }
echo "products: all checks passed"

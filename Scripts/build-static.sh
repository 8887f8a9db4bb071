#!/usr/bin/env bash
# Builds programs to run outside the build tree: release, with the Swift runtime linked in (the system libraries
# stay shared), into .build-static/release. `make install`, `make deb` and Scripts/vivid-vm.sh build through here,
# so they share one build.
# Usage: Scripts/build-static.sh PRODUCT...   (environment: SWIFT=swift)
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for product in "$@"; do
    # The linker's warning that dlopen in the linked-in runtime needs the C library it was linked with is left out:
    # the programs run where they were built, or on the same Debian release.
    if ! "$swift" build -c release -Xswiftc -static-stdlib --product "$product" --scratch-path .build-static \
        >"$log" 2>&1; then
        grep -vE 'Using .dlopen' "$log" >&2
        exit 1
    fi
    grep -vE 'Using .dlopen' "$log" | tail -1
done

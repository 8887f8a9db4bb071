#!/usr/bin/env bash
# Downloads a 5 GB movie from a simulated camera through `viewfinder remote` and checks that the remote's resident
# memory stays flat (under 128 MiB at its peak) while the file streams. Prints the time, rate and memory figures.
# A few seconds on loopback.
# Usage: Scripts/remote-download-check.sh [BYTES]   (SWIFT=... to use another toolchain)
set -euo pipefail
cd "$(dirname "$0")/.."

swift=${SWIFT:-swift}
command -v timeout >/dev/null || { echo "remote-download-check: timeout is missing" >&2; exit 1; }
"$swift" build --product viewfinder >/dev/null
viewfinder="$("$swift" build --show-bin-path)/viewfinder"

# The script bounds each wait; the timeout is a last resort.
timeout --kill-after=30 300 python3 Scripts/remote-download-check.py "$viewfinder" "$@"

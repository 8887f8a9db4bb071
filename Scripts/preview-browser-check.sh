#!/usr/bin/env bash
# Opens the page of `viewfinder preview --test-pattern` in Debian's headless Chromium and checks that it shows live
# frames: the test pattern's colour bars in two screenshots, and the page's frame counters advancing between them.
# Then the same for `viewfinder preview camera` on a simulated camera, and the preview's memory while a viewer stalls
# (it keeps no queue of frames). The screenshots stay in .build/preview-check/ for people to look at. Bounded: under
# three minutes on a busy machine.
# Usage: Scripts/preview-browser-check.sh   (SWIFT=... to use another toolchain)
set -euo pipefail
cd "$(dirname "$0")/.."

swift=${SWIFT:-swift}
for tool in chromium ffmpeg python3 timeout; do
    command -v "$tool" >/dev/null || { echo "preview-browser-check: $tool is missing; run make test-deps" >&2; exit 1; }
done
"$swift" build --product viewfinder >/dev/null
viewfinder="$("$swift" build --show-bin-path)/viewfinder"

# The script bounds each wait; the timeout is a last resort against a browser that hangs.
timeout --kill-after=30 240 python3 Scripts/preview-browser-check.py "$viewfinder" .build/preview-check

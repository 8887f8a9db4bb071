#!/usr/bin/env bash
# Uses the page of `viewfinder remote` in Debian's headless Chromium against a simulated camera: live view, a menu
# that sets the camera's ISO and follows its dial, the shutter and its new thumbnail and download, the camera going
# away and coming back, and on a simulated Canon the hold button (a three-second bulb exposure) and a focus step, and a click on the live view that moves the
# camera's autofocus area. The
# screenshots stay in .build/remote-check/ for people to look at. Bounded: under three minutes on a busy machine.
# Usage: Scripts/remote-browser-check.sh   (SWIFT=... to use another toolchain)
set -euo pipefail
cd "$(dirname "$0")/.."

swift=${SWIFT:-swift}
for tool in chromium ffmpeg python3 timeout; do
    command -v "$tool" >/dev/null || { echo "remote-browser-check: $tool is missing; run make test-deps" >&2; exit 1; }
done
"$swift" build --product viewfinder >/dev/null
viewfinder="$("$swift" build --show-bin-path)/viewfinder"

# The script bounds each wait; the timeout is a last resort against a browser that hangs.
timeout --kill-after=30 210 python3 Scripts/remote-browser-check.py "$viewfinder" .build/remote-check

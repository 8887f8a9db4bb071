#!/usr/bin/env python3
"""Opens the page of `viewfinder preview --test-pattern` in headless Chromium and checks that it shows live frames.

Drives Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages ending in a NUL byte,
commands on the browser's fd 3, replies and events on its fd 4), so that both screenshots and both readings of the
page's counters come from one page that stays open. Checks:

- the page's image has loaded a frame of the right size, and the screenshot shows the source's colour bars where
  the image is, in each of two screenshots taken a second or more apart;
- the page's counters advanced between the two: the source's frame count ("frame N") and the frames this page was
  shown ("shown here N").

Before them, the page opened without the token in its address must say it needs it (and it then works on the
cookie the address gives it). Then the same checks run on `viewfinder preview camera --host HOST:PORT`, the preview of a simulated camera
(`viewfinder simulate --identity nikon`).

Last, a viewer that stops reading its stream (`/stream.mjpeg` with a small receive buffer) while 300 frames of a
1920x1080 test pattern go by: the preview keeps no queue for it, so its resident memory grows by less than half of
what those frames would hold.

Screenshots go to the output directory (SOURCE-1.png, SOURCE-2.png) for people to look at. ffmpeg decodes them.
Every wait is bounded; the whole check takes under three minutes on a busy machine.

Usage: preview-browser-check.py VIEWFINDER OUTPUT_DIRECTORY
"""

import http.client
import json
import os
import re
import shutil
import socket
import sys
import tempfile
import time
import urllib.parse

from browser_check_support import (
    CAMERA_SCENE, CheckFailed, DevTools, check_bars, prepare, read_output, resident_memory, start, stop)

# What each source shows: its frame size, and its colour bars from left to right across the whole width, as RGB,
# with a row (as a fraction of the height) where nothing moves over them.
SCENES = {
    "test-pattern": {
        "size": (640, 480), "row": 0.25,
        "bars": [("white", (255, 255, 255)), ("yellow", (255, 255, 0)), ("cyan", (0, 255, 255)),
                 ("green", (0, 255, 0)), ("magenta", (255, 0, 255)), ("red", (255, 0, 0)), ("blue", (0, 0, 255)),
                 ("black", (0, 0, 0))],
    },
    "camera": CAMERA_SCENE,
}
# The page's state: whether its image shows a frame, where it is, and the counters in the header.
PAGE_STATE = """JSON.stringify((() => {
  const live = document.getElementById("live");
  const box = live.getBoundingClientRect();
  const text = (id) => document.getElementById(id).textContent;
  return {loaded: live.complete && live.naturalWidth > 0, naturalWidth: live.naturalWidth,
          naturalHeight: live.naturalHeight, left: box.left, top: box.top, width: box.width, height: box.height,
          frames: text("frames"), shown: text("shown"), state: text("state")};
})())"""


def main():
    viewfinder, output, chromium = prepare("preview-browser-check", __doc__.split("\n\n")[-1])

    processes = []
    profile = tempfile.mkdtemp(prefix="viewfinder-chromium-")
    browser = None
    try:
        browser = DevTools(chromium, profile)
        preview = start(processes, [viewfinder, "preview", "--test-pattern", "--format", "640x480@30"])
        url = read_output(preview, rb"Open (http://\S+) in a browser", "an address")
        # Without the token the page is served, but not its stream or figures: it says how to open it.
        bare = browser.open_page(url.split("?")[0])
        refused = browser.wait_for_state(bare, PAGE_STATE, lambda state: "needs its token" in state["state"],
                                         timeout=30, what="that the page needs its token")
        print(f"ok: test-pattern: the page opened without its token says \"{refused['state']}\"")
        browser.call("Page.navigate", {"url": "about:blank"}, bare)
        check(browser, "test-pattern", url, output)

        simulator = start(processes, [viewfinder, "simulate", "--identity", "nikon", "--port", "0"])
        port = read_output(simulator, rb"listening on 127\.0\.0\.1:(\d+) ", "its port")
        preview = start(processes, [viewfinder, "preview", "camera", "--host", f"127.0.0.1:{port}"])
        check(browser, "camera", read_output(preview, rb"Open (http://\S+) in a browser", "an address"), output)
        check_stalled_viewer(processes, viewfinder)
    except CheckFailed as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
    finally:
        if browser:
            browser.close()
        for process in reversed(processes):
            stop(process)
        shutil.rmtree(profile, ignore_errors=True)


def check(browser, source, url, output):
    """Opens the page in a new tab, takes two screenshots a second or more apart, and checks them and the counters."""
    print(f"{source}: the preview is at {url}")
    scene = SCENES[source]
    session = browser.open_page(url)
    # Wait for a frame on the page and for its counters to be read from /stats.
    first = browser.wait_for_state(
        session, PAGE_STATE, lambda state: state["loaded"] and number(state["frames"]) and number(state["shown"]),
        timeout=45)
    shots = [browser.screenshot(session, os.path.join(output, f"{source}-1.png"))]
    time.sleep(1.5)
    # The counters refresh twice a second; wait for a reading newer than the first.
    second = browser.wait_for_state(
        session, PAGE_STATE, lambda state: number(state["shown"]) > number(first["shown"]), timeout=30,
        allow_timeout=True)
    shots.append(browser.screenshot(session, os.path.join(output, f"{source}-2.png")))
    print(f"{source}: first screenshot:  frame {first['frames']}, shown here {first['shown']}, {first['state']}")
    print(f"{source}: second screenshot: frame {second['frames']}, shown here {second['shown']}, {second['state']}")

    size = (first["naturalWidth"], first["naturalHeight"])
    if size != scene["size"]:
        raise CheckFailed(f"{source}: the page's image is {size[0]}x{size[1]}, not {scene['size'][0]}x{scene['size'][1]}")
    if not number(second["frames"]) > number(first["frames"]):
        raise CheckFailed(f"{source}: the frame counter did not advance: {first['frames']}, then {second['frames']}")
    if not number(second["shown"]) > number(first["shown"]):
        raise CheckFailed(f"{source}: the page was shown no new frames: {first['shown']}, then {second['shown']}")
    for path, state in zip(shots, (first, second)):
        check_bars(path, state, scene)
    print(f"ok: {source}: the page showed live frames; screenshots in {shots[0]} and {shots[1]}")


def check_stalled_viewer(processes, viewfinder, published=300):
    """Opens the stream of a 1920x1080 preview, reads one frame and stops reading while `published` more frames go by;
    checks that the preview's resident memory grows by less than half of what a queue of those frames would hold."""
    preview = start(processes, [viewfinder, "preview", "--test-pattern", "--format", "1920x1080@60", "--quality", "95"])
    url = urllib.parse.urlparse(read_output(preview, rb"Open (http://\S+) in a browser", "an address"))
    token = urllib.parse.parse_qs(url.query)["token"][0]
    viewer = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    viewer.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)
    viewer.settimeout(30)
    viewer.connect((url.hostname, url.port))
    viewer.sendall(f"GET /stream.mjpeg?viewer=stalled HTTP/1.1\r\nHost: {url.netloc}\r\n"
                   f"X-Viewfinder-Token: {token}\r\n\r\n".encode())
    received = b""
    while not re.search(rb"\r\n\r\n--viewfinder-frame\r\n(.*?)\r\n\r\n", received, re.S):
        chunk = viewer.recv(65536)
        if not chunk:
            raise CheckFailed(f"the stream ended before its first frame: {received[:400]!r}")
        received += chunk
    fields = re.search(rb"\r\n\r\n--viewfinder-frame\r\n(.*?)\r\n\r\n", received, re.S).group(1)
    jpeg_bytes = int(re.search(rb"Content-Length: (\d+)", fields).group(1))

    def frames():
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        connection.request("GET", "/stats", headers={"X-Viewfinder-Token": token})
        body = connection.getresponse().read()
        connection.close()
        return json.loads(body)["frames"]

    def wait_for_frames(count, timeout):
        deadline = time.monotonic() + timeout
        while frames() < count:
            if time.monotonic() > deadline:
                raise CheckFailed(f"the preview published fewer than {count} frames in {timeout} s")
            time.sleep(0.1)

    # The source cycles through its buffers first, so that the memory read is the steady state.
    wait_for_frames(frames() + 60, 60)
    start_frames = frames()
    before = resident_memory(preview.pid)
    wait_for_frames(start_frames + published, 120)
    growth = resident_memory(preview.pid) - before
    queue = published * jpeg_bytes // 1024
    viewer.close()
    print(f"stalled viewer: {published} frames of {jpeg_bytes} bytes went by; the preview grew by {growth} KiB "
          f"(a queue of them would hold {queue} KiB)")
    if growth >= queue // 2:
        raise CheckFailed(f"the preview grew by {growth} KiB while a viewer stalled; a frame queue would hold {queue} KiB")
    print("ok: a stalled viewer holds no queue in the preview")
    stop(preview)


def number(text):
    """The integer in a counter's text, or 0 for "-"."""
    return int(text) if re.fullmatch(r"\d+", text or "") else 0


if __name__ == "__main__":
    main()

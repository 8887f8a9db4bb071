#!/usr/bin/env python3
"""Opens the page of `viewfinder preview --test-pattern` in headless Chromium and checks that it shows live frames.

Drives Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages ending in a NUL byte,
commands on the browser's fd 3, replies and events on its fd 4), so that both screenshots and both readings of the
page's counters come from one page that stays open. Checks:

- the page's image has loaded a frame and the screenshot shows the test pattern's colour bars where the image is,
  in each of two screenshots taken a second or more apart;
- the page's counters advanced between the two: the source's frame count ("frame N") and the frames this page was
  shown ("shown here N").

Screenshots go to the output directory (first.png, second.png) for people to look at. ffmpeg decodes them.
Every wait is bounded; the whole check takes well under two minutes on a busy machine.

Usage: preview-browser-check.py VIEWFINDER OUTPUT_DIRECTORY
"""

import base64
import json
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

WINDOW = (800, 600)
# The test pattern's bars from left to right, as RGB.
BARS = [
    ("white", (255, 255, 255)), ("yellow", (255, 255, 0)), ("cyan", (0, 255, 255)), ("green", (0, 255, 0)),
    ("magenta", (255, 0, 255)), ("red", (255, 0, 0)), ("blue", (0, 0, 255)), ("black", (0, 0, 0)),
]
# How far a bar's colour may be from the ideal in each channel, after JPEG, NV12 and the browser's scaling.
TOLERANCE = 64
# The page's state: whether its image shows a frame, where it is, and the counters in the header.
PAGE_STATE = """JSON.stringify((() => {
  const live = document.getElementById("live");
  const box = live.getBoundingClientRect();
  const text = (id) => document.getElementById(id).textContent;
  return {loaded: live.complete && live.naturalWidth > 0, naturalWidth: live.naturalWidth,
          naturalHeight: live.naturalHeight, left: box.left, top: box.top, width: box.width, height: box.height,
          frames: text("frames"), shown: text("shown"), state: text("state")};
})())"""


class CheckFailed(Exception):
    """A check that did not hold, with what was seen."""


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[-1])
    viewfinder, output = sys.argv[1], sys.argv[2]
    os.makedirs(output, exist_ok=True)
    for name in ("first.png", "second.png"):
        if os.path.exists(os.path.join(output, name)):
            os.remove(os.path.join(output, name))
    # `timeout` ends the check with SIGTERM: clean up as on any other failure.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("preview-browser-check: stopped by SIGTERM"))
    chromium = shutil.which("chromium")
    if not chromium or not shutil.which("ffmpeg"):
        sys.exit("preview-browser-check: chromium or ffmpeg is missing; run make test-deps")

    preview = subprocess.Popen(
        [viewfinder, "preview", "--test-pattern", "--format", "640x480@30"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    profile = tempfile.mkdtemp(prefix="viewfinder-chromium-")
    browser = None
    try:
        url = read_url(preview, timeout=30)
        print(f"preview of the test pattern at {url}")
        browser = DevTools(chromium, profile)
        check(browser, url, output)
        print(f"ok: the page showed live frames; screenshots in {output}/first.png and {output}/second.png")
    except CheckFailed as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
    finally:
        if browser:
            browser.close()
        stop(preview)
        shutil.rmtree(profile, ignore_errors=True)


def check(browser, url, output):
    """Opens the page, takes two screenshots a second or more apart, and checks them and the counters."""
    session = browser.open_page()
    browser.call("Page.navigate", {"url": url}, session)
    # Wait for a frame on the page and for its counters to be read from /stats.
    first = browser.wait_for_state(
        session, lambda state: state["loaded"] and number(state["frames"]) and number(state["shown"]), timeout=45)
    shots = [browser.screenshot(session, os.path.join(output, "first.png"))]
    time.sleep(1.5)
    # The counters refresh twice a second; wait for a reading newer than the first.
    second = browser.wait_for_state(
        session, lambda state: number(state["shown"]) > number(first["shown"]), timeout=30, allow_timeout=True)
    shots.append(browser.screenshot(session, os.path.join(output, "second.png")))
    print(f"first screenshot:  frame {first['frames']}, shown here {first['shown']}, {first['state']}")
    print(f"second screenshot: frame {second['frames']}, shown here {second['shown']}, {second['state']}")

    if (first["naturalWidth"], first["naturalHeight"]) != (640, 480):
        raise CheckFailed(f"the page's image is {first['naturalWidth']}x{first['naturalHeight']}, not 640x480")
    if not number(second["frames"]) > number(first["frames"]):
        raise CheckFailed(f"the frame counter did not advance: {first['frames']}, then {second['frames']}")
    if not number(second["shown"]) > number(first["shown"]):
        raise CheckFailed(f"the page was shown no new frames: {first['shown']}, then {second['shown']}")
    for path, state in zip(shots, (first, second)):
        check_bars(path, state)


def check_bars(path, state):
    """Checks that the screenshot shows the test pattern's bars where the page's image is."""
    pixel = decode_png(path)
    left, top, width, height = state["left"], state["top"], state["width"], state["height"]
    if width < 100 or height < 100:
        raise CheckFailed(f"the image on the page is only {width}x{height}")
    # A row a quarter of the way down, clear of the moving box in the middle band.
    y = int(top + height / 4)
    seen = []
    for index, (name, expected) in enumerate(BARS):
        x = int(left + width * (index + 0.5) / len(BARS))
        colour = pixel(x, y)
        seen.append(f"{name} {colour}")
        if any(abs(channel - ideal) > TOLERANCE for channel, ideal in zip(colour, expected)):
            raise CheckFailed(
                f"{os.path.basename(path)} does not show the test pattern: at ({x}, {y}) the {name} bar is "
                f"{colour}, expected about {expected}; the bars read {', '.join(seen)}")
    # The page's background is dark grey: a blank or failed image would not give eight distinct colours.
    print(f"{os.path.basename(path)}: the eight bars of the test pattern are where the image is")


def decode_png(path):
    """The screenshot's pixels, decoded by ffmpeg: a function of (x, y) that returns (R, G, B)."""
    with open(path, "rb") as file:
        head = file.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise CheckFailed(f"{path} is not a PNG image")
    width, height = struct.unpack(">II", head[16:24])
    raw = subprocess.run(
        ["ffmpeg", "-loglevel", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
        capture_output=True, check=True, timeout=30).stdout
    if len(raw) != width * height * 3:
        raise CheckFailed(f"ffmpeg decoded {len(raw)} bytes of {path}, not {width}x{height} RGB pixels")

    def pixel(x, y):
        if not (0 <= x < width and 0 <= y < height):
            raise CheckFailed(f"({x}, {y}) is outside the {width}x{height} screenshot {path}")
        offset = (y * width + x) * 3
        return tuple(raw[offset:offset + 3])

    return pixel


def number(text):
    """The integer in a counter's text, or 0 for "-"."""
    return int(text) if re.fullmatch(r"\d+", text or "") else 0


def read_url(preview, timeout):
    """Reads the preview's output until it prints the address to open."""
    deadline = time.monotonic() + timeout
    printed = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([preview.stdout], [], [], 0.5)
        if ready:
            chunk = os.read(preview.stdout.fileno(), 4096)
            if not chunk:
                break
            printed += chunk
            found = re.search(rb"Open (http://\S+/) ", printed)
            if found:
                return found.group(1).decode()
    raise CheckFailed("viewfinder preview printed no address:\n" + printed.decode(errors="replace"))


def stop(process):
    """Interrupts a process as Ctrl-C does, and kills it if it does not end soon."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class DevTools:
    """Headless Chromium driven over the DevTools protocol on a pipe."""

    def __init__(self, chromium, profile):
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def give_pipes():
            os.dup2(to_browser_read, 3)
            os.dup2(from_browser_write, 4)

        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             f"--window-size={WINDOW[0]},{WINDOW[1]}", "--hide-scrollbars", "--no-first-run",
             "--no-default-browser-check", f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            close_fds=False, preexec_fn=give_pipes, start_new_session=True)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0

    def call(self, method, params=None, session=None, timeout=30):
        """Sends a command and returns its result; events that arrive meanwhile are skipped."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self.receive(deadline, method)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise CheckFailed(f"Chromium refused {method}: {reply['error']}")
                return reply["result"]

    def receive(self, deadline, waiting_for):
        """The next message from the browser."""
        while b"\0" not in self.buffer:
            remaining = deadline - time.monotonic()
            ready, _, _ = select.select([self.from_browser], [], [], max(remaining, 0))
            if not ready:
                raise CheckFailed(f"Chromium did not answer {waiting_for} in time")
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise CheckFailed(f"Chromium ended while answering {waiting_for} (exit status {self.process.poll()})")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def open_page(self):
        """Attaches to the browser's page and returns the session to send page commands to."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            targets = self.call("Target.getTargets", timeout=60)["targetInfos"]
            pages = [target for target in targets if target["type"] == "page"]
            if pages:
                return self.call("Target.attachToTarget", {"targetId": pages[0]["targetId"], "flatten": True})[
                    "sessionId"]
            time.sleep(0.2)
        raise CheckFailed("Chromium opened no page")

    def state(self, session):
        """The page's state (see PAGE_STATE), or `None` while the page is not there yet."""
        result = self.call("Runtime.evaluate", {"expression": PAGE_STATE, "returnByValue": True}, session)
        if "exceptionDetails" in result or "value" not in result["result"]:
            return None
        return json.loads(result["result"]["value"])

    def wait_for_state(self, session, condition, timeout, allow_timeout=False):
        """Reads the page's state until `condition` holds for it; the last state read after `timeout` if allowed."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.state(session)
            if state and condition(state):
                return state
            if time.monotonic() > deadline:
                if allow_timeout and state:
                    return state
                raise CheckFailed(f"the page did not show a frame within {timeout} s: {state}")
            time.sleep(0.25)

    def screenshot(self, session, path):
        """Saves a PNG screenshot of the page."""
        result = self.call("Page.captureScreenshot", {"format": "png"}, session)
        with open(path, "wb") as file:
            file.write(base64.b64decode(result["data"]))
        return path

    def close(self):
        """Closes the browser, killing its processes if it does not end soon."""
        try:
            self.call("Browser.close", timeout=5)
        except (CheckFailed, OSError):
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            # The browser runs in a process group of its own, with its renderer and helper processes.
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)


if __name__ == "__main__":
    main()

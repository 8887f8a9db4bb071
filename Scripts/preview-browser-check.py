#!/usr/bin/env python3
"""Opens the page of `viewfinder preview --test-pattern` in headless Chromium and checks that it shows live frames.

Drives Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages ending in a NUL byte,
commands on the browser's fd 3, replies and events on its fd 4), so that both screenshots and both readings of the
page's counters come from one page that stays open. Checks:

- the page's image has loaded a frame of the right size, and the screenshot shows the source's colour bars where
  the image is, in each of two screenshots taken a second or more apart;
- the page's counters advanced between the two: the source's frame count ("frame N") and the frames this page was
  shown ("shown here N").

Then the same checks run on `viewfinder preview camera --host HOST:PORT`, the preview of a simulated camera
(`viewfinder simulate --identity nikon`).

Screenshots go to the output directory (SOURCE-1.png, SOURCE-2.png) for people to look at. ffmpeg decodes them.
Every wait is bounded; the whole check takes well under two minutes on a busy machine.

Usage: preview-browser-check.py VIEWFINDER OUTPUT_DIRECTORY
"""

import base64
import fcntl
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
# What each source shows: its frame size, and its colour bars from left to right across the whole width, as RGB,
# with a row (as a fraction of the height) where nothing moves over them.
SCENES = {
    "test-pattern": {
        "size": (640, 480), "row": 0.25,
        "bars": [("white", (255, 255, 255)), ("yellow", (255, 255, 0)), ("cyan", (0, 255, 255)),
                 ("green", (0, 255, 0)), ("magenta", (255, 0, 255)), ("red", (255, 0, 0)), ("blue", (0, 0, 255)),
                 ("black", (0, 0, 0))],
    },
    # The simulated camera's test scene: the bars of its upper half, above the box that moves on them.
    "camera": {
        "size": (640, 424), "row": 0.08,
        "bars": [("white", (230, 230, 230)), ("yellow", (230, 230, 0)), ("cyan", (0, 230, 230)),
                 ("green", (0, 230, 0)), ("magenta", (230, 0, 230)), ("red", (230, 0, 0)), ("blue", (0, 0, 230))],
    },
}
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
    for name in os.listdir(output):
        if name.endswith(".png"):
            os.remove(os.path.join(output, name))
    # `timeout` ends the check with SIGTERM: clean up as on any other failure.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("preview-browser-check: stopped by SIGTERM"))
    chromium = shutil.which("chromium")
    if not chromium or not shutil.which("ffmpeg"):
        sys.exit("preview-browser-check: chromium or ffmpeg is missing; run make test-deps")

    processes = []
    profile = tempfile.mkdtemp(prefix="viewfinder-chromium-")
    browser = None
    try:
        browser = DevTools(chromium, profile)
        preview = start(processes, [viewfinder, "preview", "--test-pattern", "--format", "640x480@30"])
        check(browser, "test-pattern", read_output(preview, rb"Open (http://\S+/) ", "an address"), output)

        simulator = start(processes, [viewfinder, "simulate", "--identity", "nikon", "--port", "0"])
        port = read_output(simulator, rb"listening on 127\.0\.0\.1:(\d+) ", "its port")
        preview = start(processes, [viewfinder, "preview", "camera", "--host", f"127.0.0.1:{port}"])
        check(browser, "camera", read_output(preview, rb"Open (http://\S+/) ", "an address"), output)
    except CheckFailed as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
    finally:
        if browser:
            browser.close()
        for process in reversed(processes):
            stop(process)
        shutil.rmtree(profile, ignore_errors=True)


def start(processes, command):
    """Starts a viewfinder command, its output on a pipe, and adds it to the processes to stop at the end."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    processes.append(process)
    return process


def check(browser, source, url, output):
    """Opens the page in a new tab, takes two screenshots a second or more apart, and checks them and the counters."""
    print(f"{source}: the preview is at {url}")
    scene = SCENES[source]
    session = browser.open_page(url)
    # Wait for a frame on the page and for its counters to be read from /stats.
    first = browser.wait_for_state(
        session, lambda state: state["loaded"] and number(state["frames"]) and number(state["shown"]), timeout=45)
    shots = [browser.screenshot(session, os.path.join(output, f"{source}-1.png"))]
    time.sleep(1.5)
    # The counters refresh twice a second; wait for a reading newer than the first.
    second = browser.wait_for_state(
        session, lambda state: number(state["shown"]) > number(first["shown"]), timeout=30, allow_timeout=True)
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


def check_bars(path, state, scene):
    """Checks that the screenshot shows the scene's colour bars where the page's image is."""
    pixel = decode_png(path)
    left, top, width, height = state["left"], state["top"], state["width"], state["height"]
    if width < 100 or height < 100:
        raise CheckFailed(f"the image on the page is only {width}x{height}")
    y = int(top + height * scene["row"])
    bars = scene["bars"]
    seen = []
    for index, (name, expected) in enumerate(bars):
        x = int(left + width * (index + 0.5) / len(bars))
        colour = pixel(x, y)
        seen.append(f"{name} {colour}")
        if any(abs(channel - ideal) > TOLERANCE for channel, ideal in zip(colour, expected)):
            raise CheckFailed(
                f"{os.path.basename(path)} does not show the expected picture: at ({x}, {y}) the {name} bar is "
                f"{colour}, expected about {expected}; the bars read {', '.join(seen)}")
    # The page's background is dark grey: a blank or failed image would not show these distinct colours.
    print(f"{os.path.basename(path)}: the {len(bars)} colour bars are where the image is")


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


def read_output(process, pattern, what, timeout=30):
    """Reads a process's output until `pattern` matches it; returns the pattern's first group."""
    deadline = time.monotonic() + timeout
    printed = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 0.5)
        if ready:
            chunk = os.read(process.stdout.fileno(), 4096)
            if not chunk:
                break
            printed += chunk
            found = re.search(pattern, printed)
            if found:
                return found.group(1).decode()
    raise CheckFailed(f"{' '.join(process.args[1:])} printed no {what}:\n" + printed.decode(errors="replace"))


def stop(process):
    """Interrupts a process as Ctrl-C does, and kills it if it does not end soon."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def above(descriptor, minimum):
    """A copy of a descriptor numbered `minimum` or more; the original is closed."""
    copy = fcntl.fcntl(descriptor, fcntl.F_DUPFD_CLOEXEC, minimum)
    os.close(descriptor)
    return copy


class DevTools:
    """Headless Chromium driven over the DevTools protocol on a pipe."""

    def __init__(self, chromium, profile):
        # Above 4, so that putting them at 3 and 4 in the browser never overwrites one with the other.
        to_browser_read, self.to_browser, self.from_browser, from_browser_write = (
            above(fd, 10) for fd in os.pipe() + os.pipe())

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

    def open_page(self, url):
        """Opens `url` in a new tab and returns the session to send the tab's commands to."""
        target = self.call("Target.createTarget", {"url": url}, timeout=60)["targetId"]
        return self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]

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

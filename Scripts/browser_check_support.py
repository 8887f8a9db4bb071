"""What the browser checks share: headless Chromium over the DevTools protocol, and the processes they start (which
the download check shares too).

Chromium is driven over a pipe (--remote-debugging-pipe: JSON messages ending in a NUL byte, commands on the
browser's fd 3, replies and events on its fd 4). Screenshots are decoded with ffmpeg. Every wait is bounded.
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
import time

WINDOW = (800, 600)
# The simulated camera's test scene: its size, and the bars of its upper half (left to right, as RGB) at a row (a
# fraction of the height) above the box that moves on them.
CAMERA_SCENE = {
    "size": (640, 424), "row": 0.08,
    "bars": [("white", (230, 230, 230)), ("yellow", (230, 230, 0)), ("cyan", (0, 230, 230)),
             ("green", (0, 230, 0)), ("magenta", (230, 0, 230)), ("red", (230, 0, 0)), ("blue", (0, 0, 230))],
}
# How far a bar's colour may be from the ideal in each channel, after JPEG, NV12 and the browser's scaling.
TOLERANCE = 64


class CheckFailed(Exception):
    """A check that did not hold, with what was seen."""


def prepare(name, usage):
    """Reads a check's command line (VIEWFINDER OUTPUT_DIRECTORY), clears the directory's old screenshots, makes
    SIGTERM (which `timeout` sends) clean up as any failure does, and checks for the tools; returns the tool's path,
    the directory and Chromium's path."""
    if len(sys.argv) != 3:
        sys.exit(usage)
    viewfinder, output = sys.argv[1], sys.argv[2]
    os.makedirs(output, exist_ok=True)
    for entry in os.listdir(output):
        if entry.endswith(".png"):
            os.remove(os.path.join(output, entry))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(f"{name}: stopped by SIGTERM"))
    chromium = shutil.which("chromium")
    if not chromium or not shutil.which("ffmpeg"):
        sys.exit(f"{name}: chromium or ffmpeg is missing; run make test-deps")
    return viewfinder, output, chromium


def start(processes, command):
    """Starts a viewfinder command, its output on a pipe, and adds it to the processes to stop at the end."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    processes.append(process)
    return process


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


def resident_memory(pid, field="VmRSS"):
    """A memory figure of a process from /proc/PID/status (VmRSS, VmHWM), in KiB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise CheckFailed(f"/proc/{pid}/status has no {field}")


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

    def state(self, session, expression):
        """The JSON value of a page's `expression`, or `None` while the page is not there yet."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
        if "exceptionDetails" in result or "value" not in result["result"]:
            return None
        return json.loads(result["result"]["value"])

    def wait_for_state(self, session, expression, condition, timeout, allow_timeout=False, what="a frame"):
        """Reads the page's state until `condition` holds for it; the last state read after `timeout` if allowed."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.state(session, expression)
            if state and condition(state):
                return state
            if time.monotonic() > deadline:
                if allow_timeout and state:
                    return state
                raise CheckFailed(f"the page did not show {what} within {timeout} s: {state}")
            time.sleep(0.25)

    def evaluate(self, session, expression):
        """Runs `expression` in the page and returns its value."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True}, session)
        if "exceptionDetails" in result:
            raise CheckFailed(f"the page failed to run {expression!r}: {result['exceptionDetails']}")
        return result["result"].get("value")

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

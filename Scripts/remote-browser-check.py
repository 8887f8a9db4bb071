#!/usr/bin/env python3
"""Uses the page of `viewfinder remote` in headless Chromium as a person would, against a simulated camera.

Starts `viewfinder simulate --identity nikon` (its dials turned and read through its standard input, which is the
camera's own side) and `viewfinder remote --host` on it, opens the page, and checks:

- the page opened without the token in its address says it needs it; opened with it, it works on its cookie;
- the page says the camera is connected, and its live view frames advance and show the camera's test scene;
- picking ISO 800 in the page's ISO menu makes the camera itself hold ISO 800;
- turning the camera's ISO dial to 1600 makes the page's menu show ISO 1600;
- pressing the page's shutter button adds a thumbnail to the gallery, and the file its link downloads has the
  same bytes as the picture the camera saved;
- the page draws the camera's autofocus area over the live view, and a click a quarter of the way across and down
  the live view moves the camera's autofocus area to that point of its 6000x4000 picture (as the camera logs
  ChangeAfArea), after which the page draws the area there;
- the page's histogram follows live view and counts the colour bars' few levels; a two-frame timelapse started from
  the page runs to its end with its progress shown and its pictures in the gallery, and a bracket asked for meanwhile
  is refused;
- killing the camera makes the page say it went away, and starting it again makes the page connected again;
- on a simulated Canon, holding the page's hold button down three seconds keeps the camera's shutter open three
  seconds (as the camera logs it: from 3.0 to 4.5 s, as the hold's and the release's requests and the browser's
  events on a loaded machine may add up to a second and a half) and adds the picture to the gallery, and the page's large focus step towards
  infinity moves the camera's lens 1000 motor steps.

Screenshots go to the output directory (remote-1.png ... remote-7.png) for people to look at.
Every wait is bounded; the whole check takes well under two minutes on a busy machine.

Usage: remote-browser-check.py VIEWFINDER OUTPUT_DIRECTORY
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

from browser_check_support import (
    CAMERA_SCENE, CheckFailed, DevTools, check_bars, prepare, read_output, start, stop)

# What the checks read of the page.
PAGE_STATE = """JSON.stringify((() => {
  const text = (id) => document.getElementById(id)?.textContent ?? null;
  const live = document.getElementById("live");
  const box = live.getBoundingClientRect();
  const figures = [...document.querySelectorAll("#gallery figure")];
  return {connection: text("connection"), model: text("model"), battery: text("battery"), shots: text("shots"),
          shown: Number(text("shown")), message: text("message"),
          iso: document.getElementById("prop-iso")?.value ?? null,
          isoOptions: document.getElementById("prop-iso")?.options.length ?? 0,
          holdDisabled: document.getElementById("hold").disabled,
          afAreas: [...document.querySelectorAll("#af-areas .af-area")].map((area) => {
            const frame = area.getBoundingClientRect();
            return {active: area.classList.contains("active"), left: frame.left, top: frame.top,
                    width: frame.width, height: frame.height};
          }),
          histogramDrawn: Number(document.getElementById("histogram")?.dataset.drawn ?? 0),
          histogramLuma: (document.getElementById("histogram")?.dataset.luma ?? "").split(",").filter(Boolean)
                         .map(Number),
          automationStatus: text("automation-status"),
          focusDisabled: document.getElementById("focus-infinity-large").disabled,
          loaded: live.complete && live.naturalWidth > 0, naturalWidth: live.naturalWidth,
          naturalHeight: live.naturalHeight, left: box.left, top: box.top, width: box.width, height: box.height,
          files: figures.map((figure) => ({name: figure.querySelector("a").textContent,
                                           href: figure.querySelector("a").href,
                                           thumbnail: figure.querySelector("img").complete
                                                      && figure.querySelector("img").naturalWidth > 0}))};
})())"""


def main():
    viewfinder, output, chromium = prepare("remote-browser-check", __doc__.split("\n\n")[-1])

    processes = []
    profile = tempfile.mkdtemp(prefix="viewfinder-chromium-")
    captures = tempfile.mkdtemp(prefix="viewfinder-captures-")
    browser = None
    try:
        simulator = start_camera(processes, viewfinder, "0", captures)
        port = read_output(simulator, rb"listening on 127\.0\.0\.1:(\d+) ", "its port")
        remote = start(processes, [viewfinder, "remote", "--host", f"127.0.0.1:{port}", "--family", "nikon"])
        url = read_output(remote, rb"Open (http://\S+) in a browser", "an address")
        print(f"the remote is at {url}, for the simulated camera on port {port}")
        browser = DevTools(chromium, profile)
        # Without the token the page is served, but nothing else: it says how to open it.
        bare = browser.open_page(url.split("?")[0])
        refused = browser.wait_for_state(bare, PAGE_STATE, lambda s: "needs its token" in s["connection"], timeout=30,
                                         what="that the page needs its token")
        print(f"ok: the page opened without its token says \"{refused['connection']}\"")
        browser.call("Page.navigate", {"url": "about:blank"}, bare)
        session = browser.open_page(url)
        wait = lambda condition, what, timeout=30: browser.wait_for_state(
            session, PAGE_STATE, condition, timeout=timeout, what=what)

        first = wait(lambda s: s["connection"] == "connected" and s["loaded"] and s["shown"] >= 2
                     and s["isoOptions"] > 0 and len(s["files"]) >= 2, "the camera connected, live view and files",
                     timeout=45)
        shot(browser, session, output, 1)
        second = wait(lambda s: s["shown"] > first["shown"] + 3, "live view frames advancing")
        check_bars(shot(browser, session, output, 2), second, CAMERA_SCENE)
        print(f"ok: connected to {first['model']}; live view frames advance ({first['shown']}, then "
              f"{second['shown']}) and show the camera's colour bars; battery {first['battery']}, shots left "
              f"{first['shots']}")

        choose(browser, session, "prop-iso", "ISO 800")
        deadline = time.monotonic() + 15
        held = None
        while held != "800" and time.monotonic() < deadline:
            time.sleep(0.2)
            held = ask_camera(simulator, "read iso", rb"read: iso is (\d+)")
        if held != "800":
            raise CheckFailed(f"the page chose ISO 800, but the camera holds ISO {held}: {state(browser, session)}")
        print("ok: choosing ISO 800 in the page's menu set the camera's ISO to 800")

        ask_camera(simulator, "dial iso 1600", rb"dial: iso is now (\d+)")
        wait(lambda s: s["iso"] == "ISO 1600", "the menu following the camera's dial to ISO 1600")
        print("ok: turning the camera's ISO dial to 1600 made the page's menu show ISO 1600")

        before = len(wait(lambda s: s["files"], "the files")["files"])
        browser.evaluate(session, 'document.getElementById("shutter").click()')
        after = wait(lambda s: len(s["files"]) == before + 1 and s["files"][0]["thumbnail"],
                     "a new thumbnail after pressing the shutter")
        newest = after["files"][0]
        shot(browser, session, output, 3)
        saved = sorted(os.listdir(captures))
        if not saved:
            raise CheckFailed(f"the camera saved no picture in {captures} after the shutter")
        with open(os.path.join(captures, saved[-1]), "rb") as file:
            expected = file.read()
        # The page's link goes with the page's cookie; a script sends the token from the address.
        token = urllib.parse.parse_qs(urllib.parse.urlparse(url).query)["token"][0]
        request = urllib.request.Request(newest["href"], headers={"X-Viewfinder-Token": token})
        downloaded = urllib.request.urlopen(request, timeout=30).read()
        if downloaded != expected:
            raise CheckFailed(f"{newest['href']} gave {len(downloaded)} bytes that differ from the camera's "
                              f"{saved[-1]} ({len(expected)} bytes)")
        print(f"ok: the shutter added {newest['name']} to the gallery with its thumbnail; its link downloads the "
              f"camera's {len(expected)} bytes exactly")

        check_touch_af(browser, session, simulator, output, wait)
        check_histogram_and_automation(browser, session, output, wait)

        simulator.send_signal(signal.SIGKILL)
        simulator.wait()
        lost = wait(lambda s: s["connection"] != "connected" and "went away" in s["connection"],
                    "that the camera went away", timeout=45)
        shot(browser, session, output, 4)
        print(f"ok: with the camera killed the page says \"{lost['connection']}\"")

        simulator = start_camera(processes, viewfinder, port, captures)
        read_output(simulator, rb"listening on 127\.0\.0\.1:(\d+) ", "its port")
        back = wait(lambda s: s["connection"] == "connected", "the camera connected again", timeout=45)
        more = wait(lambda s: s["shown"] > back["shown"] + 2, "live view frames after reconnecting")
        print(f"ok: with the camera back the page is connected again and live view goes on ({more['shown']} frames)")
        check_hold_and_focus(browser, processes, viewfinder, output)
        print(f"ok: the remote works in a browser; screenshots in {output}")
    except CheckFailed as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
    finally:
        if browser:
            browser.close()
        for process in reversed(processes):
            stop(process)
        shutil.rmtree(profile, ignore_errors=True)
        shutil.rmtree(captures, ignore_errors=True)


def shown_image(page):
    """Where the live view picture lies in its element, which shows it whole within its box."""
    ratio = page["naturalWidth"] / page["naturalHeight"]
    width = min(page["width"], page["height"] * ratio)
    height = width / ratio
    return (page["left"] + (page["width"] - width) / 2, page["top"] + (page["height"] - height) / 2, width, height)


def check_touch_af(browser, session, simulator, output, wait):
    """Clicks the live view a quarter of the way across and down: the Nikon's autofocus area moves there."""
    drawn = wait(lambda s: s["loaded"] and [area for area in s["afAreas"] if area["active"]],
                 "the autofocus area drawn over the live view")
    left, top, width, height = shown_image(drawn)
    mouse = {"x": left + width / 4, "y": top + height / 4, "button": "left", "clickCount": 1}
    browser.call("Input.dispatchMouseEvent", {"type": "mouseMoved", **mouse}, session)
    browser.call("Input.dispatchMouseEvent", {"type": "mousePressed", **mouse}, session)
    browser.call("Input.dispatchMouseEvent", {"type": "mouseReleased", **mouse}, session)
    moved = read_output(simulator, rb"autofocus area: moved to (\d+x\d+)", "move of its autofocus area")
    x, y = (int(value) for value in moved.split("x"))
    if abs(x - 1500) > 30 or abs(y - 1000) > 30:
        raise CheckFailed(f"a click a quarter of the way into the live view moved the area to {moved}, not 1500x1000")

    def around_click(page):
        active = [area for area in page["afAreas"] if area["active"]]
        return active and all(abs(area["left"] + area["width"] / 2 - mouse["x"]) < width / 50
                              and abs(area["top"] + area["height"] / 2 - mouse["y"]) < height / 50
                              for area in active)
    wait(around_click, "the page drawing the autofocus area where it was clicked")
    shot(browser, session, output, 6)
    print(f"ok: a click on the live view moved the camera's autofocus area to {moved} of 6000x4000, and the page "
          f"draws it there")
def check_histogram_and_automation(browser, session, output, wait):
    """Shows the live view's histogram, and runs a timelapse from the page while it refuses a bracket."""
    browser.evaluate(session, 'document.getElementById("histogram-on").click()')
    first = wait(lambda s: s["histogramDrawn"] >= 1, "the histogram drawn")
    drawn = wait(lambda s: s["histogramDrawn"] >= first["histogramDrawn"] + 3, "the histogram following live view")
    luma = drawn["histogramLuma"]
    # The page counts a 128 x 85 copy of each frame; the test scene's colour bars are a few flat levels.
    if len(luma) != 256 or sum(luma) != 128 * 85:
        raise CheckFailed(f"the histogram has {len(luma)} levels counting {sum(luma)} pixels, not 256 and {128 * 85}")
    levels = sum(1 for count in luma if count > 0.03 * 128 * 85)
    if levels < 4:
        raise CheckFailed(f"the histogram of the colour bars has {levels} strong levels, not at least 4: {luma}")
    print(f"ok: the histogram follows live view ({drawn['histogramDrawn']} drawn), counting {sum(luma)} pixels "
          f"with {levels} strong levels, as the colour bars have")

    before = len(wait(lambda s: s["files"], "the files")["files"])
    browser.evaluate(session, """(() => {
      document.getElementById("timelapse-frames").value = "2";
      document.getElementById("timelapse-interval").value = "2";
      document.getElementById("timelapse-start").click();
    })()""")
    wait(lambda s: (s["automationStatus"] or "").startswith("timelapse: "), "the page showing the timelapse running")
    browser.evaluate(session, """(() => {
      const button = document.getElementById("bracket-start");
      button.disabled = false;
      button.click();
    })()""")
    refused = wait(lambda s: "A timelapse runs" in (s["message"] or ""), "the bracket refused while the timelapse runs")
    done = wait(lambda s: s["automationStatus"] == "timelapse done: 2 of 2 frames", "the timelapse done", timeout=45)
    files = wait(lambda s: len(s["files"]) == before + 2, "the timelapse's two pictures in the gallery")
    shot(browser, session, output, 7)
    print(f"ok: the page ran a two-frame timelapse (\"{done['automationStatus']}\", {len(files['files'])} files), "
          f"and refused a bracket meanwhile: \"{refused['message']}\"")


def check_hold_and_focus(browser, processes, viewfinder, output):
    """Holds a simulated Canon's shutter from the page for three seconds, and steps its focus from the page."""
    captures = tempfile.mkdtemp(prefix="viewfinder-canon-captures-")
    try:
        canon = start_camera(processes, viewfinder, "0", captures, identity="canon")
        port = read_output(canon, rb"listening on 127\.0\.0\.1:(\d+) ", "its port")
        remote = start(processes, [viewfinder, "remote", "--host", f"127.0.0.1:{port}", "--family", "canon"])
        url = read_output(remote, rb"Open (http://\S+) in a browser", "an address")
        session = browser.open_page(url)
        wait = lambda condition, what, timeout=30: browser.wait_for_state(
            session, PAGE_STATE, condition, timeout=timeout, what=what)
        ready = wait(lambda s: s["connection"] == "connected" and s["shown"] >= 2 and not s["holdDisabled"]
                     and not s["focusDisabled"], "the Canon connected with live view, hold and focus", timeout=45)

        browser.evaluate(session, 'document.getElementById("focus-infinity-large").click()')
        moved, travel = (int(figure) for figure in read_output(
            canon, rb"focus drive: the lens is at (\d+ of \d+)", "focus drive").split(" of "))
        # The simulated lens starts halfway along its travel; a large step is 1000 motor steps.
        if moved != travel // 2 + 1000:
            raise CheckFailed(f"the page's large focus step left the lens at {moved}, not {travel // 2 + 1000}")
        print(f"ok: the page's large focus step towards infinity moved the Canon's lens to {moved}")

        before = len(ready["files"])
        box = browser.evaluate(session, """(() => {
          const box = document.getElementById("hold").getBoundingClientRect();
          return {x: box.left + box.width / 2, y: box.top + box.height / 2};
        })()""")
        mouse = {"x": box["x"], "y": box["y"], "button": "left", "clickCount": 1}
        browser.call("Input.dispatchMouseEvent", {"type": "mouseMoved", **mouse}, session)
        browser.call("Input.dispatchMouseEvent", {"type": "mousePressed", **mouse}, session)
        # The page says so once the camera holds the shutter: from then on it stays open until the release.
        wait(lambda s: s["message"] == "shutter held", "the page saying the shutter is held")
        time.sleep(3)
        browser.call("Input.dispatchMouseEvent", {"type": "mouseReleased", **mouse}, session)
        exposed = int(read_output(canon, rb"exposure: the shutter stayed open for (\d+) ms", "exposure"))
        if not 3000 <= exposed <= 4500:
            raise CheckFailed(f"the hold button pressed for 3 s kept the shutter open {exposed} ms")
        after = wait(lambda s: len(s["files"]) == before + 1, "the held exposure's picture in the gallery")
        shot(browser, session, output, 5)
        print(f"ok: the hold button pressed for 3 s kept the Canon's shutter open {exposed} ms, and "
              f"{after['files'][0]['name']} joined the gallery")
    finally:
        shutil.rmtree(captures, ignore_errors=True)


def start_camera(processes, viewfinder, port, captures, identity="nikon"):
    """Starts a simulated camera (the Nikon unless told) on `port`, its dials on a pipe to its standard input."""
    process = subprocess.Popen(
        [viewfinder, "simulate", "--identity", identity, "--port", str(port), "--save-captures", captures],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    processes.append(process)
    return process


def ask_camera(simulator, line, pattern):
    """Writes a line to the simulated camera's standard input and returns what its answer matched."""
    simulator.stdin.write(line.encode() + b"\n")
    simulator.stdin.flush()
    return read_output(simulator, pattern, f"answer to '{line}'")


def choose(browser, session, select, value):
    """Picks `value` in a menu of the page, as a person does, which fires the menu's change event."""
    chosen = browser.evaluate(session, f"""(() => {{
      const menu = document.getElementById({json.dumps(select)});
      if (![...menu.options].some((option) => option.value === {json.dumps(value)})) return false;
      menu.value = {json.dumps(value)};
      menu.dispatchEvent(new Event("change"));
      return true;
    }})()""")
    if not chosen:
        raise CheckFailed(f"the page's {select} menu does not offer {value}")


def state(browser, session):
    """What the page shows now, for messages."""
    return browser.state(session, PAGE_STATE)


def shot(browser, session, output, number):
    """Saves a screenshot of the page as remote-NUMBER.png."""
    return browser.screenshot(session, os.path.join(output, f"remote-{number}.png"))


if __name__ == "__main__":
    main()

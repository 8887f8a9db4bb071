/// The remote's web page: plain HTML, CSS and JavaScript served from the binary, with nothing fetched from elsewhere.
///
/// The page follows the camera through `/api/state` (each answer waits for the next change), starts live view
/// (`POST /api/live-view`) and shows it one frame at a time through `/live.jpg` (asking for the next frame once the
/// last one is drawn), offers each exposure property as a menu of the values the camera takes now, and lists the
/// card's files with their thumbnails. Its hold button keeps the shutter open for as long as it is pressed (a bulb
/// exposure, renewed twice a second while the button is down), and its focus buttons move the lens a step towards the
/// camera or towards infinity. Its zoom buttons step through the live view zoom levels the camera offers, and its
/// arrows move the magnified part by a tenth of the picture. It draws the camera's autofocus areas over the live view,
/// and a click on the live view focuses there (`POST /api/touch-af`) on a camera that offers touch AF. It draws a
/// histogram of the live view while asked to, and starts, follows and stops a timelapse or a bracket. Its requests
/// carry the token as the cookie the server set when the page was opened with it; a page opened without the token
/// says how to open it.
/// Element IDs the browser check reads: `connection`, `model`, `battery`, `shots`, `live`, `shown`, `prop-NAME`,
/// `shutter`, `shutter-af`, `hold`, `focus-camera-large`, `focus-camera-small`, `focus-infinity-small`,
/// `focus-infinity-large`, `zoom-in`, `zoom-out`, `zoom-level`, `pan-left`, `pan-up`, `pan-down`, `pan-right`,
/// `record`, `timer`, `message`, `gallery`, `af-areas` (holding an `.af-area` for each autofocus point, `.active` for
/// those in use), `histogram-on`, `histogram` (its `data-luma` the 256 luma counts last drawn, `data-drawn` how many
/// were), `timelapse-frames`, `timelapse-interval`, `timelapse-start`, `bracket-setting`, `bracket-shots`,
/// `bracket-step`, `bracket-start`, `automation-stop`, `automation-progress`, `automation-status`.
enum RemotePage {
    /// The page, as UTF-8 bytes.
    static let html = Array(text.utf8)

    private static let text = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Viewfinder remote</title>
        <style>
        :root { color-scheme: dark; }
        body { margin: 0; background: #111; color: #eee; font: 14px system-ui, sans-serif; }
        header { display: flex; flex-wrap: wrap; gap: 0.4em 1.4em; align-items: baseline; padding: 0.6em 1em;
                 background: #1d1d1d; }
        h1 { font-size: 1em; margin: 0; }
        .connected { color: #7d7; } .away { color: #f77; } .figure { font-variant-numeric: tabular-nums; }
        main { display: flex; flex-wrap: wrap; gap: 1em; padding: 1em; align-items: flex-start; }
        #view { flex: 3 1 480px; min-width: 0; }
        #live { display: block; width: 100%; aspect-ratio: 3 / 2; object-fit: contain; background: #000; }
        #controls { flex: 1 1 240px; display: grid; grid-template-columns: auto 1fr; gap: 0.5em 0.8em;
                    align-items: center; }
        #controls label { color: #aaa; }
        select, input, button { font: inherit; background: #222; color: #eee; border: 1px solid #444;
                                border-radius: 4px; padding: 0.3em 0.5em; }
        button { cursor: pointer; } button:disabled { opacity: 0.4; cursor: default; }
        .actions { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: 0.5em; margin-top: 0.5em; }
        #record.on, #hold.on { background: #a22; border-color: #f55; }
        #hold { touch-action: none; user-select: none; }
        #message { grid-column: 1 / -1; min-height: 1.4em; color: #fc6; }
        #gallery { display: flex; flex-wrap: wrap; gap: 0.8em; padding: 0 1em 1em; }
        figure { margin: 0; width: 160px; background: #1d1d1d; border-radius: 4px; overflow: hidden; }
        figure img { display: block; width: 160px; height: 107px; object-fit: cover; background: #000; }
        figcaption { padding: 0.3em 0.5em; font-size: 12px; display: flex; justify-content: space-between; }
        a { color: #8cf; }
        /* Autofocus areas over the live view. */
        #view { position: relative; }
        #af-areas { position: absolute; inset: 0; pointer-events: none; }
        .af-area { position: absolute; box-sizing: border-box; border: 1px solid rgba(255, 255, 255, 0.5); }
        .af-area.active { border: 2px solid #fc6; } .af-area.focused { border-color: #7d7; }
        #live.touch-af { cursor: crosshair; }
        .panel { margin: 0 1em 1em; padding: 0.6em 1em; background: #1d1d1d; border-radius: 4px; display: flex;
                 flex-wrap: wrap; gap: 0.5em 1em; align-items: center; }
        .panel input[type=number] { width: 5em; }
        #histogram { background: #000; width: 256px; height: 100px; }
        #automation-progress { width: 12em; }
        </style>
        </head>
        <body>
        <header>
          <h1 id="model">Viewfinder remote</h1>
          <span id="connection">connecting</span>
          <span class="figure">battery <span id="battery">-</span></span>
          <span class="figure">shots left <span id="shots">-</span></span>
          <span class="figure">frames shown <span id="shown">0</span></span>
        </header>
        <main>
          <div id="view"><img id="live" alt="the camera's live view"><div id="af-areas"></div></div>
          <div id="controls">
            <div id="properties" style="display: contents"></div>
            <div class="actions">
              <button id="shutter">Shutter</button>
              <button id="shutter-af">Focus and shutter</button>
              <button id="hold" title="Keeps the shutter open while pressed">Hold shutter</button>
              <button id="record">Record</button>
              <span id="timer" class="figure"></span>
            </div>
            <div class="actions" id="focus-drive">
              focus
              <button id="focus-camera-large" title="A large step towards the camera">&laquo;</button>
              <button id="focus-camera-small" title="A small step towards the camera">&lsaquo;</button>
              <button id="focus-infinity-small" title="A small step towards infinity">&rsaquo;</button>
              <button id="focus-infinity-large" title="A large step towards infinity">&raquo;</button>
            </div>
            <div class="actions" id="zoom">
              zoom
              <button id="zoom-out" title="Show more of the picture">&minus;</button>
              <span id="zoom-level" class="figure">-</span>
              <button id="zoom-in" title="Magnify the picture">+</button>
              <button id="pan-left" title="Move the magnified part left">&larr;</button>
              <button id="pan-up" title="Move the magnified part up">&uarr;</button>
              <button id="pan-down" title="Move the magnified part down">&darr;</button>
              <button id="pan-right" title="Move the magnified part right">&rarr;</button>
            </div>
            <div id="message"></div>
          </div>
        </main>
        <section class="panel" id="histogram-panel">
          <label><input type="checkbox" id="histogram-on"> Histogram</label>
          <canvas id="histogram" width="256" height="100" hidden></canvas>
        </section>
        <section class="panel" id="automation">
          <span>Timelapse: <input id="timelapse-frames" type="number" min="1" max="10000" value="10"> frames, one
            every <input id="timelapse-interval" type="number" min="1" max="3600" value="5"> s</span>
          <button id="timelapse-start">Start timelapse</button>
          <span>Bracket: <select id="bracket-setting"><option value="compensation">compensation</option>
            <option value="shutter">shutter speed</option></select>
            <input id="bracket-shots" type="number" min="3" max="15" step="2" value="3"> shots,
            <input id="bracket-step" value="1" size="4"> stops apart</span>
          <button id="bracket-start">Start bracket</button>
          <button id="automation-stop" disabled>Stop</button>
          <progress id="automation-progress" max="1" value="0"></progress>
          <span id="automation-status"></span>
        </section>
        <div id="gallery"></div>
        <script>
        "use strict";
        const $ = (id) => document.getElementById(id);
        const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
        const menus = ["mode", "iso", "shutter", "aperture", "ev", "white-balance", "focus", "drive"];
        let state = null;
        let filesVersion = -1;

        function say(text) { $("message").textContent = text; }

        const tokenNeeded = "open the address viewfinder printed, with its ?token=";

        async function post(path, fields) {
          const response = await fetch(path, { method: "POST", body: new URLSearchParams(fields) });
          if (!response.ok) throw new Error((await response.text()).trim() || response.statusText);
          return response.json();
        }

        function control(reading) {
          const id = "prop-" + reading.name;
          let element = $(id);
          const kind = reading.settableValues.length ? "select"
            : reading.settableRange ? "input" : reading.valueSetType === "stepping" ? "steps" : "text";
          if (!element || element.dataset.kind !== kind) {
            element?.previousElementSibling?.remove();
            element?.remove();
            const label = document.createElement("label");
            label.textContent = reading.displayName;
            if (kind === "select") {
              element = document.createElement("select");
              element.addEventListener("change", () => set(reading.name, element.value));
            } else if (kind === "input") {
              element = document.createElement("input");
              element.addEventListener("change", () => set(reading.name, element.value));
            } else if (kind === "steps") {
              element = document.createElement("span");
              for (const [text, step] of [["−", "down"], ["+", "up"]]) {
                const button = document.createElement("button");
                button.textContent = text;
                button.addEventListener("click", () => set(reading.name, step));
                element.append(button, " ");
              }
              element.append(document.createElement("output"));
            } else {
              element = document.createElement("span");
            }
            element.id = id;
            element.dataset.kind = kind;
            label.htmlFor = id;
            $("properties").append(label, element);
          }
          if (kind === "select") {
            const values = reading.settableValues.includes(reading.value) || reading.value == null
              ? reading.settableValues : [reading.value, ...reading.settableValues];
            if (element.options.length !== values.length || [...element.options].some((o, i) => o.value !== values[i])) {
              element.replaceChildren(...values.map((value) => new Option(value, value)));
            }
            element.value = reading.value ?? "";
          } else if (kind === "input") {
            const range = reading.settableRange;
            element.placeholder = range.first + " to " + range.last;
            if (document.activeElement !== element) element.value = reading.value ?? "";
          } else if (kind === "steps") {
            element.querySelector("output").textContent = reading.value ?? "-";
          } else {
            element.textContent = reading.value ?? "-";
          }
        }

        async function set(name, value) {
          say("");
          try {
            show(await post("/api/properties/" + encodeURIComponent(name), { value }));
          } catch (error) {
            say(error.message);
            if (state) show(state);
          }
        }

        function show(next) {
          state = next;
          const connected = next.connection === "connected";
          $("connection").textContent = connected ? "connected"
            : next.problem ? next.connection + ": " + next.problem : next.connection;
          $("connection").className = connected ? "connected" : "away";
          if (next.model) { $("model").textContent = next.model; document.title = next.model + " remote"; }
          const reading = (name) => next.properties.find((property) => property.name === name);
          $("battery").textContent = reading("battery")?.value ?? "-";
          $("shots").textContent = reading("shots")?.value ?? "-";
          for (const name of menus) {
            const found = reading(name);
            if (found) control(found);
          }
          for (const element of document.querySelectorAll("#controls select, #controls input, #controls button")) {
            element.disabled = !connected;
          }
          $("shutter").disabled = $("shutter-af").disabled = !connected || !next.abilities.includes("shutter");
          $("hold").disabled = !connected || !next.abilities.includes("heldShutter");
          for (const button of document.querySelectorAll("#focus-drive button")) {
            button.disabled = !connected || !next.abilities.includes("focusDrive");
          }
          showZoom(next, connected);
          $("record").disabled = !connected || !next.abilities.includes("video");
          $("record").textContent = next.recording ? "Stop recording" : "Record";
          $("record").classList.toggle("on", next.recording);
          $("timer").textContent = next.recording ? next.recordingTimer ?? "recording" : "";
          showFocus(next);
          if (connected && next.filesVersion !== filesVersion && next.abilities.includes("files")) {
            filesVersion = next.filesVersion;
            listFiles();
          }
        }

        async function followState() {
          let since = -1;
          while (true) {
            try {
              const response = await fetch("/api/state?since=" + since);
              if (response.status === 403) {
                $("connection").textContent = "this page needs its token: " + tokenNeeded;
                $("connection").className = "away";
                return;
              }
              if (response.status === 429) {
                await sleep(2000);
                continue;
              }
              if (!response.ok) throw new Error(response.statusText);
              const next = await response.json();
              since = next.version;
              show(next);
            } catch (error) {
              $("connection").textContent = "the remote is not answering";
              $("connection").className = "away";
              await sleep(2000);
            }
          }
        }

        async function followLiveView() {
          const image = $("live");
          let after = 0;
          let shown = 0;
          let started = false;
          while (true) {
            try {
              if (!started) {
                await post("/api/live-view", {});
                started = true;
              }
              const response = await fetch("/live.jpg?after=" + after);
              if (response.status === 409) {
                started = false;
                continue;
              }
              if (!response.ok) {
                const waiting = response.status === 504 || response.status === 429;
                if (!waiting) say("live view: " + (await response.text()).trim());
                started = waiting;
                await sleep(1000);
                continue;
              }
              const url = URL.createObjectURL(await response.blob());
              const previous = image.src;
              image.src = url;
              await image.decode().catch(() => {});
              if (previous.startsWith("blob:")) URL.revokeObjectURL(previous);
              after = Number(response.headers.get("X-Frame-Number"));
              $("shown").textContent = String(++shown);
            } catch (error) {
              await sleep(1000);
            }
          }
        }

        async function listFiles() {
          try {
            const response = await fetch("/api/files");
            if (!response.ok) throw new Error((await response.text()).trim());
            const files = await response.json();
            $("gallery").replaceChildren(...files.map((file) => {
              const figure = document.createElement("figure");
              figure.dataset.handle = file.handle;
              const image = new Image();
              image.loading = "lazy";
              image.alt = file.name;
              if (file.kind === "jpeg" || file.kind === "raw") image.src = "/files/" + file.handle + "/thumbnail.jpg";
              const caption = document.createElement("figcaption");
              const link = document.createElement("a");
              link.href = "/files/" + file.handle;
              link.download = file.name;
              link.textContent = file.name;
              const size = document.createElement("span");
              size.textContent = file.bytes != null ? (file.bytes / 1048576).toFixed(1) + " MB"
                : file.sizeKind === "4GiBOrMore" ? "4 GB or more" : "size unknown";
              caption.append(link, size);
              figure.append(image, caption);
              return figure;
            }));
          } catch (error) {
            say("files: " + error.message);
          }
        }

        async function shutter(focus) {
          say("");
          try {
            await post("/api/shutter", { af: focus ? "1" : "0" });
            say("picture taken");
          } catch (error) {
            say("shutter: " + error.message);
          }
        }

        // The hold request while the hold button is down: it settles to whether the camera holds the shutter.
        let holding = null;

        function hold(event) {
          event.preventDefault();
          if (holding || $("hold").disabled) return;
          $("hold").setPointerCapture?.(event.pointerId);
          $("hold").classList.add("on");
          say("");
          holding = post("/api/shutter-button", { action: "hold" }).then(() => {
            say("shutter held");
            keepHolding();
            return true;
          }, (error) => {
            say("hold: " + error.message);
            return false;
          });
        }

        // The server lets go of a hold the page stops renewing, so a page that is closed or cut off cannot leave
        // the shutter open; the page renews it twice a second while the button is down.
        let holdRenewal = null;

        function keepHolding() {
          clearInterval(holdRenewal);
          holdRenewal = setInterval(() => {
            post("/api/shutter-button", { action: "keep" }).catch((error) => say("hold: " + error.message));
          }, 500);
        }

        async function release() {
          clearInterval(holdRenewal);
          holdRenewal = null;
          if (!holding) return;
          const request = holding;
          holding = null;
          $("hold").classList.remove("on");
          if (!(await request)) return;
          try {
            await post("/api/shutter-button", { action: "release" });
            say("picture taken");
          } catch (error) {
            say("release: " + error.message);
          }
        }

        async function focus(size, towards) {
          say("");
          try {
            await post("/api/focus", { size, towards });
          } catch (error) {
            say("focus: " + error.message);
          }
        }

        // Autofocus: the camera's areas drawn over the live view, and touch AF where the live view is clicked.
        function shownImage() {
          const image = $("live");
          const width = image.clientWidth;
          const height = image.clientHeight;
          const ratio = image.naturalWidth && image.naturalHeight ? image.naturalWidth / image.naturalHeight
            : width / Math.max(height, 1);
          const shownWidth = Math.min(width, height * ratio);
          const shownHeight = shownWidth / ratio;
          return { left: (width - shownWidth) / 2, top: (height - shownHeight) / 2, width: shownWidth,
                   height: shownHeight };
        }

        function showFocus(next) {
          const layer = $("af-areas");
          layer.replaceChildren();
          $("live").classList.toggle("touch-af", next.abilities.includes("touchAF"));
          const info = next.focusInfo;
          if (!info || next.connection !== "connected") return;
          const box = shownImage();
          for (const point of info.points) {
            const area = document.createElement("div");
            area.className = "af-area" + (point.active ? " active" : "") + (point.focused ? " focused" : "");
            area.style.left = box.left + point.x / info.width * box.width + "px";
            area.style.top = box.top + point.y / info.height * box.height + "px";
            area.style.width = point.width / info.width * box.width + "px";
            area.style.height = point.height / info.height * box.height + "px";
            layer.append(area);
          }
        }

        async function touchAF(event) {
          if (!state || !state.abilities.includes("touchAF")) return;
          const bounds = $("live").getBoundingClientRect();
          const box = shownImage();
          const x = (event.clientX - bounds.left - box.left) / box.width;
          const y = (event.clientY - bounds.top - box.top) / box.height;
          if (!(x >= 0 && x <= 1 && y >= 0 && y <= 1)) return;
          say("");
          try {
            await post("/api/touch-af", { x: x.toFixed(4), y: y.toFixed(4) });
          } catch (error) {
            say("touch AF: " + error.message);
          }
        }

        $("live").addEventListener("click", touchAF);
        $("live").addEventListener("load", () => { if (state) showFocus(state); });
        new ResizeObserver(() => { if (state) showFocus(state); }).observe($("live"));
        // Zoom: a step through the levels the camera offers, and the magnified part moved by a tenth of the picture,
        // from its middle.
        let zoomCenter = null;

        function showZoom(next, connected) {
          $("zoom-level").textContent = next.zoomLevel ?? "-";
          const index = next.zoomLevels.indexOf(next.zoomLevel ?? next.zoomLevels[0]);
          const zoomable = connected && next.abilities.includes("zoom");
          $("zoom-in").disabled = !zoomable || index >= next.zoomLevels.length - 1;
          $("zoom-out").disabled = !zoomable || index <= 0;
          for (const direction of ["left", "up", "down", "right"]) {
            $("pan-" + direction).disabled = !connected || !next.abilities.includes("pan") || index <= 0;
          }
        }

        async function zoom(fields) {
          say("");
          try {
            show(await post("/api/zoom", fields));
          } catch (error) {
            say("zoom: " + error.message);
          }
        }

        function zoomBy(step) {
          const levels = state?.zoomLevels ?? [];
          const index = Math.max(levels.indexOf(state?.zoomLevel ?? levels[0]), 0);
          const next = levels[Math.min(Math.max(index + step, 0), levels.length - 1)];
          if (next) zoom({ level: next });
        }

        function pan(dx, dy) {
          const image = $("live");
          const width = image.naturalWidth, height = image.naturalHeight;
          if (!width || !height) return say("zoom: no live view picture to move in yet");
          zoomCenter ??= { x: width / 2, y: height / 2 };
          zoomCenter.x = Math.round(Math.min(Math.max(zoomCenter.x + dx * width / 10, 0), width - 1));
          zoomCenter.y = Math.round(Math.min(Math.max(zoomCenter.y + dy * height / 10, 0), height - 1));
          zoom({ x: String(zoomCenter.x), y: String(zoomCenter.y) });
        }

        $("zoom-in").addEventListener("click", () => zoomBy(1));
        $("zoom-out").addEventListener("click", () => zoomBy(-1));
        for (const [direction, dx, dy] of [["left", -1, 0], ["up", 0, -1], ["down", 0, 1], ["right", 1, 0]]) {
          $("pan-" + direction).addEventListener("click", () => pan(dx, dy));
        }

        $("hold").addEventListener("pointerdown", hold);
        for (const name of ["pointerup", "pointercancel", "lostpointercapture"]) {
          $("hold").addEventListener(name, release);
        }
        window.addEventListener("pagehide", () => {
          if (holding) navigator.sendBeacon("/api/shutter-button", new URLSearchParams({ action: "release" }));
        });
        for (const button of document.querySelectorAll("#focus-drive button")) {
          const [, towards, size] = button.id.split("-");
          button.addEventListener("click", () => focus(size, towards));
        }
        $("shutter").addEventListener("click", () => shutter(false));
        $("shutter-af").addEventListener("click", () => shutter(true));
        $("record").addEventListener("click", async () => {
          say("");
          try {
            show(await post("/api/recording", { action: state?.recording ? "stop" : "start" }));
          } catch (error) {
            say("recording: " + error.message);
          }
        });
        // The histogram of the live view, counted here from the frame the page has already decoded to show it: the
        // server relays the camera's JPEGs without decoding them, and counting a 128-pixel-wide copy costs the
        // browser far less than decoding every frame on the server would; it is counted only while it is shown.
        const histogramSize = { width: 128, height: 85 };
        const histogramSample = document.createElement("canvas");
        histogramSample.width = histogramSize.width;
        histogramSample.height = histogramSize.height;

        function drawHistogram() {
          const canvas = $("histogram");
          if (!$("histogram-on").checked || document.hidden || !$("live").naturalWidth) return;
          const sample = histogramSample.getContext("2d", { willReadFrequently: true });
          sample.drawImage($("live"), 0, 0, histogramSize.width, histogramSize.height);
          const pixels = sample.getImageData(0, 0, histogramSize.width, histogramSize.height).data;
          const counts = { luma: new Array(256).fill(0), red: new Array(256).fill(0),
                           green: new Array(256).fill(0), blue: new Array(256).fill(0) };
          for (let index = 0; index < pixels.length; index += 4) {
            const [red, green, blue] = [pixels[index], pixels[index + 1], pixels[index + 2]];
            counts.red[red]++;
            counts.green[green]++;
            counts.blue[blue]++;
            counts.luma[Math.round(0.299 * red + 0.587 * green + 0.114 * blue)]++;
          }
          const context = canvas.getContext("2d");
          context.clearRect(0, 0, canvas.width, canvas.height);
          const peak = Math.max(...counts.luma, ...counts.red, ...counts.green, ...counts.blue, 1);
          context.fillStyle = "#888";
          counts.luma.forEach((count, level) => {
            const height = canvas.height * count / peak;
            context.fillRect(level, canvas.height - height, 1, height);
          });
          for (const [name, colour] of [["red", "#f44"], ["green", "#4f4"], ["blue", "#48f"]]) {
            context.strokeStyle = colour;
            context.beginPath();
            counts[name].forEach((count, level) => context.lineTo(level + 0.5, canvas.height - canvas.height * count / peak));
            context.stroke();
          }
          canvas.dataset.luma = counts.luma.join(",");
          canvas.dataset.drawn = String(Number(canvas.dataset.drawn ?? 0) + 1);
        }

        $("live").addEventListener("load", drawHistogram);
        $("histogram-on").addEventListener("change", () => {
          $("histogram").hidden = !$("histogram-on").checked;
          drawHistogram();
        });

        // Automations run on the server, one at a time; the page follows the running one's progress.
        let followingAutomation = false;

        function showAutomation(progress) {
          const running = progress?.running === true;
          $("automation-stop").disabled = !running;
          $("timelapse-start").disabled = $("bracket-start").disabled = running;
          $("automation-progress").max = progress?.frames ?? 1;
          $("automation-progress").value = progress?.framesCaptured ?? 0;
          if (!progress) return;
          const frames = progress.framesCaptured + " of " + progress.frames + " frames";
          $("automation-status").textContent = running ? progress.kind + ": " + frames
            : progress.error ? progress.kind + " failed: " + progress.error
            : progress.kind + (progress.cancelled ? " stopped: " : " done: ") + frames;
        }

        async function followAutomation() {
          if (followingAutomation) return;
          followingAutomation = true;
          try {
            while (true) {
              const response = await fetch("/api/automation");
              if (!response.ok) break;
              const progress = await response.json();
              showAutomation(progress);
              if (!progress?.running) break;
              await sleep(500);
            }
          } catch (error) {
            say("automation: " + error.message);
          } finally {
            followingAutomation = false;
          }
        }

        async function startAutomation(fields) {
          say("");
          try {
            showAutomation(await post("/api/automation", { action: "start", ...fields }));
            followAutomation();
          } catch (error) {
            say("automation: " + error.message);
          }
        }

        $("timelapse-start").addEventListener("click", () => startAutomation({
          kind: "timelapse", frames: $("timelapse-frames").value, interval: $("timelapse-interval").value }));
        $("bracket-start").addEventListener("click", () => startAutomation({
          kind: "bracket", setting: $("bracket-setting").value, shots: $("bracket-shots").value,
          step: $("bracket-step").value }));
        $("automation-stop").addEventListener("click", async () => {
          try {
            showAutomation(await post("/api/automation", { action: "stop" }));
          } catch (error) {
            say("automation: " + error.message);
          }
        });

        followState();
        followLiveView();
        followAutomation();
        </script>
        </body>
        </html>

        """
}

/// The preview's web page: the live Motion JPEG stream with the source's frame rate, its frame count, and the
/// frames this page was shown, refreshed from `/stats` twice a second.
///
/// Its requests carry the token as the cookie the server set when the page was opened with it; a page opened without
/// the token says how to open it.
enum PreviewPage {
    /// The page for a source called `title` delivering `format`, as UTF-8 bytes.
    static func html(title: String, format: String) -> [UInt8] {
        let title = escape(title)
        let format = escape(format)
        let page = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Viewfinder preview: \(title)</title>
            <style>
            body { margin: 0; height: 100vh; display: flex; flex-direction: column; background: #111; color: #eee;
                   font: 14px system-ui, sans-serif; }
            header { display: flex; flex-wrap: wrap; gap: 0.4em 1.6em; align-items: baseline; padding: 0.6em 1em;
                     background: #1d1d1d; }
            h1 { font-size: 1em; margin: 0; }
            .figure { font-variant-numeric: tabular-nums; }
            .bad { color: #f77; }
            a { color: #8cf; }
            main { flex: 1; min-height: 0; display: flex; align-items: center; justify-content: center; }
            img { max-width: 100%; max-height: 100%; object-fit: contain; background: #000; }
            </style>
            </head>
            <body>
            <header>
              <h1>\(title)</h1>
              <span>\(format)</span>
              <span class="figure"><span id="fps">-</span> fps</span>
              <span class="figure">frame <span id="frames">-</span></span>
              <span class="figure">shown here <span id="shown">-</span> (<span id="shownFPS">-</span> fps,
                <span id="skipped">-</span> skipped)</span>
              <span id="state">connecting</span>
              <a href="/snapshot.jpg" download="snapshot.jpg">snapshot</a>
            </header>
            <main><img id="live" alt="live preview of \(title)"></main>
            <script>
            const viewer = "page-" + Math.random().toString(36).slice(2, 10);
            const live = document.getElementById("live");
            const field = (id, text) => { document.getElementById(id).textContent = text; };
            function showState(text, bad) {
              field("state", text);
              document.getElementById("state").className = bad ? "bad" : "";
            }
            function connect() {
              live.src = "/stream.mjpeg?viewer=" + viewer + "&t=" + Date.now();
            }
            live.onerror = () => {
              showState("stream lost, reconnecting", true);
              setTimeout(connect, 2000);
            };
            async function refresh() {
              try {
                const response = await fetch("/stats", { cache: "no-store" });
                if (response.status === 403) {
                  showState("this page needs its token: open the address viewfinder printed, with its ?token=", true);
                  live.onerror = null;
                  live.removeAttribute("src");
                  return;
                }
                const stats = await response.json();
                field("fps", stats.framesPerSecond.toFixed(1));
                field("frames", stats.frames);
                const mine = stats.streams.find((stream) => stream.viewer === viewer);
                if (mine) {
                  field("shown", mine.framesSent);
                  field("shownFPS", mine.framesPerSecond.toFixed(1));
                  field("skipped", mine.framesSkipped);
                }
                if (stats.failure) {
                  showState("source failed: " + stats.failure, true);
                } else {
                  showState(stats.framesPerSecond > 0 ? "live" : "waiting for frames", false);
                }
              } catch (error) {
                showState("the preview server stopped", true);
              }
              setTimeout(refresh, 500);
            }
            connect();
            refresh();
            </script>
            </body>
            </html>

            """
        return Array(page.utf8)
    }

    /// Escapes text for HTML.
    private static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

#!/usr/bin/env python3
"""Downloads a 5 GB movie from a simulated camera through `viewfinder remote` and checks that the remote's memory
stays flat while it streams.

Starts `viewfinder simulate --generated-file MVI_0001.MOV:BYTES` (a file made as it is sent) and `viewfinder remote
--host` on it, downloads the file from the remote's API with the token the remote printed, and reads the remote's
resident memory (VmRSS) every half second meanwhile, and its peak (VmHWM) at the end. Checks:

- the remote answers 200 with the whole file: every byte arrives, and sampled pages hold the simulator's content
  (each 4096-byte page starts with its number);
- the remote's peak resident memory stays under LIMIT MiB (a buffered download would need the whole file), and
  grows less than GROWTH MiB over what it held before the download.

Prints the time, the rate and the memory figures. Every wait is bounded.

Usage: remote-download-check.py VIEWFINDER [BYTES]
"""

import http.client
import json
import sys
import time
import urllib.parse

from browser_check_support import CheckFailed, read_output, resident_memory, start, stop

# The most the remote may hold at its peak, and the most it may grow by while streaming, in MiB.
LIMIT = 128
GROWTH = 64
# Pages whose first bytes are checked: one every this many bytes.
SAMPLE_EVERY = 64 << 20


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.split("\n\n")[-1])
    viewfinder = sys.argv[1]
    size = int(sys.argv[2]) if len(sys.argv) == 3 else 5_000_000_000
    processes = []
    try:
        simulator = start(processes, [viewfinder, "simulate", "--port", "0", "--generated-file",
                                      f"MVI_0001.MOV:{size}"])
        port = read_output(simulator, rb"listening on 127\.0\.0\.1:(\d+) ", "its port")
        remote = start(processes, [viewfinder, "remote", "--host", f"127.0.0.1:{port}"])
        url = urllib.parse.urlparse(read_output(remote, rb"Open (http://\S+) in a browser", "an address"))
        token = urllib.parse.parse_qs(url.query)["token"][0]
        headers = {"X-Viewfinder-Token": token}

        files = json.loads(request(url, "/api/files", headers))
        movie = next((file for file in files if file["name"] == "MVI_0001.MOV"), None)
        if not movie:
            fail(f"the remote lists no MVI_0001.MOV: {files}")
        before = resident_memory(remote.pid, "VmRSS")
        received, seconds, sampled, samples = download(url, f"/files/{movie['handle']}", headers, remote.pid)
        peak = resident_memory(remote.pid, "VmHWM")
        rate = received / seconds / 1e6
        print(f"downloaded {received} bytes in {seconds:.1f} s ({rate:.0f} MB/s); checked {sampled} pages")
        print(f"remote resident memory: {before / 1024:.1f} MiB before, at most {max(samples) / 1024:.1f} MiB in "
              f"{len(samples)} readings while streaming, peak (VmHWM) {peak / 1024:.1f} MiB")
        if received != size:
            fail(f"the remote sent {received} bytes of a {size}-byte file")
        if peak > LIMIT * 1024:
            fail(f"the remote's peak resident memory is {peak / 1024:.1f} MiB, over {LIMIT} MiB")
        if max(samples) - before > GROWTH * 1024:
            fail(f"the remote grew by {(max(samples) - before) / 1024:.1f} MiB while streaming, over {GROWTH} MiB")
        print(f"ok: a {size / 1e9:.1f} GB file streamed through the remote with flat memory")
    except CheckFailed as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
    finally:
        for process in reversed(processes):
            stop(process)


def download(url, path, headers, pid):
    """Reads the file from the remote, checking sampled pages and reading the remote's memory as it goes."""
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    started = time.monotonic()
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    if response.status != 200:
        fail(f"{path} answered {response.status}: {response.read(400)!r}")
    received = 0
    sampled = 0
    samples = []
    next_reading = started
    while True:
        chunk = response.read(1 << 20)
        if not chunk:
            break
        # A sampled page's number, if one starts in this chunk.
        boundary = -(-received // SAMPLE_EVERY) * SAMPLE_EVERY
        if boundary + 8 <= received + len(chunk):
            offset = boundary - received
            number = int.from_bytes(chunk[offset:offset + 8], "little")
            if number != boundary // 4096:
                fail(f"the page at byte {boundary} starts with {number}, not {boundary // 4096}")
            sampled += 1
        received += len(chunk)
        if time.monotonic() >= next_reading:
            samples.append(resident_memory(pid, "VmRSS"))
            next_reading = time.monotonic() + 0.5
    connection.close()
    return received, time.monotonic() - started, sampled, samples


def request(url, path, headers):
    """The body of a GET that must answer 200."""
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    if response.status != 200:
        fail(f"{path} answered {response.status}: {body[:400]!r}")
    return body


def fail(message):
    raise CheckFailed(message)


if __name__ == "__main__":
    main()

"""Reads a simulated Sony Camera Remote API camera's live view with libsonyapi, an independent client, and prints what
it got as JSON.

Usage: libsonyapi-liveview.py PORT FRAMES

libsonyapi finds the camera (its discover() pointed at the simulator's description on loopback, as in
libsonyapi-client.py), switches it to shooting and asks for startLiveview; the stream is read packet by packet as
pysony reads it: the 8-byte common header, the 128-byte payload header, the JPEG and its padding. It prints the
frames' count and checks, and the wall and CPU seconds from the first frame to the last.
"""

import json
import sys
import time

import requests
from libsonyapi.camera import Camera

port, wanted = int(sys.argv[1]), int(sys.argv[2])
Camera.discover = lambda self: f"http://127.0.0.1:{port}/dd.xml"

camera = Camera()
stream_url = camera.do("startLiveview")["result"][0]
jpegs = []
first = None
with requests.get(stream_url, stream=True, timeout=10) as stream:
    source = stream.raw
    while len(jpegs) < wanted:
        common = source.read(8)
        payload = source.read(128)
        size = int.from_bytes(payload[4:7], "big")
        jpeg = source.read(size)
        source.read(payload[7])
        if common[0] != 0xFF or payload[:4] != b"\x24\x35\x68\x79":
            break
        jpegs.append(jpeg)
        if first is None:
            first = (time.monotonic(), time.process_time())
    last = (time.monotonic(), time.process_time())
camera.do("stopLiveview")
print(json.dumps({
    "frames": len(jpegs),
    "jpeg": len(jpegs) == wanted and all(j[:2] == b"\xff\xd8" and j[-2:] == b"\xff\xd9" for j in jpegs),
    "secondsAfterFirst": last[0] - first[0] if first else 0,
    "cpuSecondsAfterFirst": last[1] - first[1] if first else 0,
}), flush=True)

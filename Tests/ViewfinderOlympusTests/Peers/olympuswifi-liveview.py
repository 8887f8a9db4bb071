"""Receives a simulated Olympus camera's live view with olympuswifi's own RTP receiver and prints what it got as JSON.

Usage: olympuswifi-liveview.py PORT FRAMES

It prints the frames' count and checks, and the wall and CPU seconds from the first frame to the last.

olympuswifi's live view module draws its frames with tkinter and Pillow, which it imports on loading; the receiver
itself (LiveViewReceiver: RTP decoding, reassembly, the JPEG and sequence checks) uses neither, so empty stand-ins
for those two let it load without a display. The camera's address is pointed at the simulator's loopback port, as in
olympuswifi-client.py; PORT 0 keeps olympuswifi's own, http://192.168.0.10/.
"""

import json
import queue
import sys
import threading
import time
import types



class StandIn(types.ModuleType):
    """A module whose every attribute is another stand-in: enough for the names the window's code mentions."""

    def __getattr__(self, name):
        return StandIn(name)


for name in ("tkinter", "PIL"):
    sys.modules.setdefault(name, StandIn(name))

from olympuswifi.camera import OlympusCamera  # noqa: E402
from olympuswifi.liveview import LiveViewReceiver  # noqa: E402

port, wanted = int(sys.argv[1]), int(sys.argv[2])
if port != 0:
    OlympusCamera.URL_PREFIX = f"http://127.0.0.1:{port}/"

camera = OlympusCamera()
frames: queue.SimpleQueue = queue.SimpleQueue()
receiver = LiveViewReceiver(frames)
# The receiver binds its port; the camera is asked to stream there once it listens.
import socket  # noqa: E402

with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
    probe.bind(("127.0.0.1", 0))
    udp_port = probe.getsockname()[1]
thread = threading.Thread(target=receiver.receive_packets, args=[udp_port])
thread.start()
funcids = camera.start_liveview(port=udp_port, lvqty="0640x0480")
received = []
# The wall and CPU time (the whole process's, every thread) from the first frame to the last, for the benchmark.
first = None
try:
    while len(received) < wanted:
        received.append(frames.get(timeout=60))
        if first is None:
            first = (time.monotonic(), time.process_time())
    last = (time.monotonic(), time.process_time())
finally:
    receiver.shut_down()
    camera.stop_liveview()
    thread.join()
print(json.dumps({
    "funcids": funcids,
    "frames": len(received),
    "jpeg": all(f.jpeg[:2] == b"\xff\xd8" and f.jpeg[-2:] == b"\xff\xd9" for f in received),
    "extension": received[0].extension.hex() if received else "",
    "secondsAfterFirst": last[0] - first[0],
    "cpuSecondsAfterFirst": last[1] - first[1],
}))

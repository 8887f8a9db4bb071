"""Opens a getEvent long poll on a simulated Sony Camera Remote API camera with libsonyapi, after an immediate
getEvent has taken the changes so far, and prints the shutter speed the long poll's answer holds, as JSON.

Usage: libsonyapi-longpoll.py PORT
"""

import json
import sys

from libsonyapi.camera import Camera

port = int(sys.argv[1])
Camera.discover = lambda self: f"http://127.0.0.1:{port}/dd.xml"

camera = Camera()
camera.do("getEvent", [False])
event = camera.do("getEvent", [True])["result"]
shutter = next(slot for slot in event if isinstance(slot, dict) and slot["type"] == "shutterSpeed")
print(json.dumps(shutter), flush=True)

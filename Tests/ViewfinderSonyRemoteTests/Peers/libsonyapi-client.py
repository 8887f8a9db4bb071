"""Drives a simulated Sony Camera Remote API camera with libsonyapi, an independent client, and prints what it read
as JSON.

Usage: libsonyapi-client.py [PORT]

libsonyapi finds the camera by an SSDP search on 239.255.255.250:1900 before anything else; given a PORT, its
discover() is pointed instead at the simulator's description on loopback. Everything after it (the description's
services, the API list, startRecMode, the calls) is the client's own. The live view stream is read as pysony reads
it.
"""

import json
import sys
import time

import requests
from libsonyapi.camera import Camera

if len(sys.argv) > 1:
    port = int(sys.argv[1])
    Camera.discover = lambda self: f"http://127.0.0.1:{port}/dd.xml"

camera = Camera()
report = {
    "location": camera.xml_url,
    "name": camera.name,
    "apiVersion": camera.api_version,
    "services": camera.services,
    "apis": camera.available_apis[0],
    "isoBefore": camera.do("getIsoSpeedRate")["result"][0],
}
camera.do("setIsoSpeedRate", "400")
camera.do("setFNumber", "8.0")
camera.do("setExposureCompensation", -3)
camera.do("setWhiteBalance", ["Daylight", False, -1])
report["isoAfter"] = camera.do("getIsoSpeedRate")["result"][0]
report["isoAvailable"] = camera.do("getAvailableIsoSpeedRate")["result"]
report["fNumberAfter"] = camera.do("getFNumber")["result"][0]
report["exposureCompensationAfter"] = camera.do("getExposureCompensation")["result"][0]
report["whiteBalanceAfter"] = camera.do("getWhiteBalance")["result"][0]
camera.do("setExposureMode", "Manual")
report["exposureModeAfter"] = camera.do("getExposureMode")["result"][0]
report["focusModes"] = camera.do("getAvailableFocusMode")["result"]


def raw(method, params, body=None, url=None, version="1.0"):
    call = {"method": method, "params": params, "id": 7, "version": version}
    return requests.post(url or camera.camera_endpoint_url, body or json.dumps(call), timeout=10).json()


report["refused"] = raw("setIsoSpeedRate", ["123"])
report["unknown"] = raw("actFlyAway", [])
report["notJSON"] = raw("", [], body="{not json")
report["deep"] = raw("", [], body="[" * 50000)

# An event at once, then a long poll that a change since answers at once.
event = camera.do("getEvent", [False])["result"]
report["eventIso"] = next(slot for slot in event if isinstance(slot, dict) and slot["type"] == "isoSpeedRate")
camera.do("setShutterSpeed", "1/1000")
event = camera.do("getEvent", [True])["result"]
report["eventShutter"] = next(slot for slot in event if isinstance(slot, dict) and slot["type"] == "shutterSpeed")

postview = camera.do("actTakePicture")["result"][0][0]
picture = requests.get(postview, timeout=10).content
report["postview"] = postview
report["pictureStart"] = picture[:2].hex()
report["pictureSize"] = len(picture)

stream_url = camera.do("startLiveview")["result"][0]
report["liveView"] = stream_url
frames = []
with requests.get(stream_url, stream=True, timeout=10) as stream:
    source = stream.raw
    for _ in range(3):
        common = source.read(8)
        payload = source.read(128)
        size = int.from_bytes(payload[4:7], "big")
        padding = payload[7]
        jpeg = source.read(size)
        source.read(padding)
        frames.append(
            {
                "start": common[0],
                "type": common[1],
                "sequence": int.from_bytes(common[2:4], "big"),
                "startCode": payload[:4].hex(),
                "size": size,
                "jpeg": jpeg[:2].hex() + jpeg[-2:].hex(),
            }
        )
report["frames"] = frames
camera.do("stopLiveview")

# The card: the camera function switched to Contents Transfer, then the avContent service's calls.
camera.do("setCameraFunction", "Contents Transfer")
for _ in range(200):
    status = next(slot for slot in camera.do("getEvent", [False])["result"] if slot and slot["type"] == "cameraStatus")
    if status["cameraStatus"] == "ContentsTransfer":
        break
    time.sleep(0.05)
report["status"] = status["cameraStatus"]
av = camera.services["avContent"] + "/avContent"
report["schemes"] = camera.post_request(av, "getSchemeList")["result"]
report["sources"] = camera.post_request(av, "getSourceList", [{"scheme": "storage"}])["result"]
card = {"uri": "storage:memoryCard1", "type": ["still"], "view": "flat"}
report["contentCount"] = raw("getContentCount", [card], url=av, version="1.2")["result"][0]["count"]
page = dict(card, stIdx=0, cnt=100, sort="ascending")
listing = raw("getContentList", [page], url=av, version="1.3")["result"][0]
report["contentNames"] = [entry["content"]["original"][0]["fileName"] for entry in listing]
report["originalStart"] = requests.get(listing[-1]["content"]["original"][0]["url"], timeout=10).content[:2].hex()
report["oldVersion"] = raw("getContentList", [page], url=av)
report["tooMany"] = raw("getContentList", [dict(page, cnt=101)], url=av, version="1.3")
report["shootingInTransfer"] = raw("actTakePicture", [])
camera.do("stopRecMode")
report["afterStop"] = raw("getIsoSpeedRate", [])
print(json.dumps(report), flush=True)

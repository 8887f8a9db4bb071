"""Drives a simulated Olympus camera with olympuswifi, an independent client, and prints what it read as JSON.

Usage: olympuswifi-client.py PORT DOWNLOAD-DIRECTORY

olympuswifi looks for the camera at http://192.168.0.10/; the address is its class attribute URL_PREFIX, pointed
here at the simulator's loopback port (the Host header stays 192.168.0.10, as the client sends it). PORT 0 keeps
olympuswifi's own address, for a simulator at 192.168.0.10 in a network namespace.
"""

import json
import sys

from olympuswifi.camera import OlympusCamera, RequestError, ResultError

port, directory = int(sys.argv[1]), sys.argv[2]
if port != 0:
    OlympusCamera.URL_PREFIX = f"http://127.0.0.1:{port}/"

camera = OlympusCamera()
report = {
    "model": camera.get_camera_model(),
    "versions": camera.get_versions(),
    "connectmode": camera.xml_query("get_connectmode"),
    "settable": camera.get_settable_propnames_and_values(),
    "isoBefore": camera.get_camprop("isospeedvalue"),
}
camera.set_camprop("isospeedvalue", "400")
camera.set_camprop("wbvalue", "18")
report["isoAfter"] = camera.get_camprop("isospeedvalue")
report["wbAfter"] = camera.get_camprop("wbvalue")
try:
    camera.set_camprop("isospeedvalue", "123")
    report["refused"] = None
except RequestError as error:
    report["refused"] = str(error)
try:
    camera.send_command("exec_shutter", com="1st2ndpush")
    report["wrongMode"] = None
except ResultError as error:
    report["wrongMode"] = error.response.status_code
camera.send_command("switch_cammode", mode="rec")
report["takeready"] = camera.send_command("exec_takemotion", com="takeready").status_code
camera.set_camprop("takemode", "movie")
report["starttake"] = camera.send_command("exec_takemotion", com="starttake").status_code
report["stoptake"] = camera.send_command("exec_takemotion", com="stoptake").status_code
camera.set_camprop("takemode", "P")
camera.take_picture()
camera.send_command("switch_cammode", mode="play")
images = camera.list_images()
report["images"] = [[image.file_name, image.file_size, image.date_time] for image in images]
downloads = []
for image in images:
    data = camera.download_image(image.file_name)
    with open(f"{directory}/{image.file_name.split('/')[-1]}", "wb") as file:
        file.write(data)
    downloads.append(len(data))
report["downloads"] = downloads
report["thumbnail"] = camera.download_thumbnail(images[0].file_name)[:2].hex()
print(json.dumps(report), flush=True)

#!/usr/bin/python3
"""An independent coordinator of a Viewfinder rig, written from the documented message format alone.

Uses Eclipse Paho (Debian's python3-paho-mqtt) over MQTT 5: reads the hosts' retained records, fires a take by itself
(sending the fire twice, as a QoS 1 redelivery would), gathers the answers by their correlation data, fetches every
listed file over HTTP with its host's token and checks its size and SHA-256. Prints one JSON object and exits 0 when
every host answered "ok" and every file checked out.

Usage: rig-peer.py BROKER_HOST BROKER_PORT RIG HOSTS OUT_DIR
"""

import hashlib
import json
import os
import sys
import threading
import time
import urllib.request

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties


def main():
    host, port, rig, wanted, out = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
    reply_topic = f"vf/{rig}/coord/paho/reply"
    lock = threading.Condition()
    records, replies = {}, {}
    raw_replies = []

    def on_message(client, userdata, message):
        with lock:
            if message.topic.startswith(f"vf/{rig}/host/"):
                record = json.loads(message.payload)
                records[record["host"]] = record
            elif message.topic == reply_topic:
                correlation = getattr(message.properties, "CorrelationData", b"")
                raw_replies.append((correlation, message.payload))
                reply = json.loads(message.payload)
                replies.setdefault(reply["id"], {})[reply["host"]] = reply
            lock.notify_all()

    client = mqtt.Client(client_id="vf-paho-peer", protocol=mqtt.MQTTv5)
    client.on_message = on_message
    client.connect(host, port, keepalive=5)
    client.subscribe([(f"vf/{rig}/host/+/state", 1), (reply_topic, 1)])
    client.loop_start()

    def wait_for(condition, seconds):
        deadline = time.monotonic() + seconds
        with lock:
            while not condition():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                lock.wait(left)
            return True

    def online():
        return sorted(name for name, record in records.items() if record.get("online"))

    if not wait_for(lambda: len(online()) >= wanted, 60):
        print(json.dumps({"error": f"only {online()} online"}))
        return 1
    hosts = online()

    command = {
        "v": 1, "op": "fire", "id": "paho-fire-1", "take": "paho-take", "hosts": hosts, "download": True,
        "at_ns": time.time_ns() + 1_500_000_000, "timeout_ms": 60000,
    }
    properties = Properties(PacketTypes.PUBLISH)
    properties.ResponseTopic = reply_topic
    properties.CorrelationData = command["id"].encode()
    properties.MessageExpiryInterval = 2
    for _ in range(2):
        client.publish(f"vf/{rig}/cmd", json.dumps(command), qos=1, properties=properties)

    if not wait_for(lambda: len(replies.get(command["id"], {})) >= len(hosts), 90):
        print(json.dumps({"error": "not every host answered", "replies": replies}))
        return 1
    time.sleep(0.5)  # a second answer to the copy would come by now
    with lock:
        answers = replies[command["id"]]
        copies = sum(1 for correlation, _ in raw_replies if correlation == command["id"].encode())

    verified, problems, requested = 0, [], []
    for name, reply in sorted(answers.items()):
        if reply["status"] != "ok":
            problems.append(f"{name}: {reply['status']} {reply.get('message')}")
            continue
        token = records[name]["files"]["token"]
        for camera in reply["cameras"]:
            if not camera["ok"]:
                problems.append(f"{name}/{camera['camera']}: {camera.get('error')}")
                continue
            requested.append(camera["requested_ns"])
            for entry in camera["files"]:
                request = urllib.request.Request(entry["url"], headers={"X-Viewfinder-Token": token})
                with urllib.request.urlopen(request, timeout=30) as response:
                    data = response.read()
                path = os.path.join(out, f"{name}-{entry['name']}")
                with open(path, "wb") as file:
                    file.write(data)
                if len(data) != entry["size"] or hashlib.sha256(data).hexdigest() != entry["sha256"]:
                    problems.append(f"{name}/{entry['name']}: {len(data)} bytes, not as listed")
                else:
                    verified += 1
    client.loop_stop()
    client.disconnect()
    print(json.dumps({
        "hosts": {name: {"cameras": [camera["name"] for camera in records[name].get("cameras", [])],
                         "clock": records[name].get("clock", {}).get("source"),
                         "agent": records[name].get("agent")} for name in hosts},
        "answers": {name: reply["status"] for name, reply in answers.items()},
        "answer_copies": copies,
        "verified_files": verified,
        "problems": problems,
        "request_spread_ms": (max(requested) - min(requested)) / 1e6 if requested else None,
        # Within 0.1 ms: the hosts turn their monotonic instants into wall-clock times.
        "fired_after_instant": all(value >= command["at_ns"] - 100_000 for value in requested),
    }, sort_keys=True))
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())

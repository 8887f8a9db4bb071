#!/usr/bin/env python3
# Finds a UPnP device with async-upnp-client, an independent UPnP stack: an M-SEARCH for TARGET from ADDRESS, then
# the description at the first answer's LOCATION, read by its own parser. Prints "found UDN MANUFACTURER|MODEL|NAME
# SERVICE..." or "none".
#   upnp-find.py ADDRESS TARGET
import asyncio
import sys

from async_upnp_client.aiohttp import AiohttpRequester
from async_upnp_client.client_factory import UpnpFactory
from async_upnp_client.search import async_search


async def main(address, target):
    answers = []

    async def on_answer(headers):
        answers.append(headers)

    await async_search(async_callback=on_answer, timeout=3, search_target=target, source=(address, 0))
    if not answers:
        print("none", flush=True)
        return
    device = await UpnpFactory(AiohttpRequester()).async_create_device(answers[0]["location"])
    services = " ".join(sorted(service.service_type for service in device.services.values()))
    print("found", device.udn, f"{device.manufacturer}|{device.model_name}|{device.name}", services, flush=True)


asyncio.run(main(sys.argv[1], sys.argv[2]))

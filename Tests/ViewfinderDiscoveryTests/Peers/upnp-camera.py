#!/usr/bin/env python3
# A Canon-style UPnP camera played by async-upnp-client, an independent UPnP stack: it serves its device
# description over HTTP, answers M-SEARCH, announces ssdp:alive on the SSDP group, and on a line on standard input
# sends ssdp:byebye and exits.
#   upnp-camera.py ADDRESS
import asyncio
import sys
import xml.etree.ElementTree as ET

from async_upnp_client.const import DeviceInfo, ServiceInfo
from async_upnp_client.server import UpnpServer, UpnpServerDevice, UpnpServerService

CANON_SERVICE = "urn:schemas-canon-com:service:ICPO-WFTEOSSystemService:1"


class CanonService(UpnpServerService):
    SERVICE_DEFINITION = ServiceInfo(
        service_id="urn:schemas-canon-com:serviceId:ICPO-WFTEOSSystemService",
        service_type=CANON_SERVICE,
        control_url="/upnp/control/WFTEOSSystemService",
        event_sub_url="/upnp/event/WFTEOSSystemService",
        scpd_url="/upnp/WFTEOSSystemService.xml",
        xml=ET.Element("server_service"),
    )
    STATE_VARIABLE_DEFINITIONS = {}


class CanonCamera(UpnpServerDevice):
    DEVICE_DEFINITION = DeviceInfo(
        device_type="urn:schemas-upnp-org:device:Basic:1",
        friendly_name="Canon EOS R6",
        manufacturer="Canon",
        manufacturer_url=None,
        model_description=None,
        model_name="Canon EOS R6",
        model_number=None,
        model_url=None,
        serial_number="012345678901",
        udn="uuid:00000000-0000-0000-0001-60128B7C39A2",
        upc=None,
        presentation_url=None,
        url="/upnp/CameraDevDesc.xml",
        icons=[],
        xml=ET.Element("server_device"),
    )
    EMBEDDED_DEVICES = []
    SERVICES = [CanonService]


async def main(address):
    server = UpnpServer(CanonCamera, (address, 0), http_port=49152)
    await server.async_start()
    print("announcing", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    await server.async_stop()
    print("gone", flush=True)


asyncio.run(main(sys.argv[1]))

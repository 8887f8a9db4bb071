#!/usr/bin/python3
# Registers a camera's _ptp._tcp service with python3-zeroconf, an independent mDNS stack, on ADDRESS until a line
# arrives on standard input, then unregisters it (zeroconf sends the goodbye) and exits.
#   zeroconf-register.py ADDRESS NAME
import socket
import sys

from zeroconf import IPVersion, ServiceInfo, Zeroconf

address, name = sys.argv[1], sys.argv[2]
zeroconf = Zeroconf(interfaces=[address], ip_version=IPVersion.V4Only)
info = ServiceInfo(
    "_ptp._tcp.local.",
    f"{name}._ptp._tcp.local.",
    addresses=[socket.inet_aton(address)],
    port=15740,
    properties={"guid": "0123456789ABCDEF", "vid": "04b0", "pid": "0442"},
    server="nikon-z6.local.",
)
zeroconf.register_service(info)
print("registered", flush=True)
sys.stdin.readline()
zeroconf.unregister_service(info)
print("unregistered", flush=True)
zeroconf.close()

#!/usr/bin/python3
# Registers a camera's _ptp._tcp service with python3-zeroconf, an independent mDNS stack, on ADDRESS (IPv4, or
# IPv6 over IPv6 multicast only) until a line arrives on standard input, then unregisters it (zeroconf sends the
# goodbye) and exits.
#   zeroconf-register.py ADDRESS NAME
import socket
import sys

from zeroconf import InterfaceChoice, IPVersion, ServiceInfo, Zeroconf

address, name = sys.argv[1], sys.argv[2]
if ":" in address:
    zeroconf = Zeroconf(interfaces=InterfaceChoice.All, ip_version=IPVersion.V6Only)
    packed = socket.inet_pton(socket.AF_INET6, address)
else:
    zeroconf = Zeroconf(interfaces=[address], ip_version=IPVersion.V4Only)
    packed = socket.inet_aton(address)
info = ServiceInfo(
    "_ptp._tcp.local.",
    f"{name}._ptp._tcp.local.",
    addresses=[packed],
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

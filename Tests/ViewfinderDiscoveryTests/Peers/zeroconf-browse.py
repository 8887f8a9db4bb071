#!/usr/bin/python3
# Browses _ptp._tcp with python3-zeroconf, an independent mDNS stack, on ADDRESS, printing a line for each service
# found ("found NAME ADDRESS PORT key=value...") and lost ("lost NAME"), until a line arrives on standard input.
#   zeroconf-browse.py ADDRESS
import socket
import sys

from zeroconf import IPVersion, ServiceBrowser, ServiceListener, Zeroconf


class Listener(ServiceListener):
    def add_service(self, zeroconf, service_type, name):
        info = zeroconf.get_service_info(service_type, name, 3000)
        if info is None:
            print("unresolved", name, flush=True)
            return
        text = " ".join(f"{k.decode()}={(v or b'').decode()}" for k, v in sorted(info.properties.items()))
        address = socket.inet_ntoa(info.addresses[0]) if info.addresses else "?"
        print("found", name, address, info.port, text, flush=True)

    def remove_service(self, zeroconf, service_type, name):
        print("lost", name, flush=True)

    def update_service(self, zeroconf, service_type, name):
        pass


zeroconf = Zeroconf(interfaces=[sys.argv[1]], ip_version=IPVersion.V4Only)
browser = ServiceBrowser(zeroconf, "_ptp._tcp.local.", Listener())
print("browsing", flush=True)
sys.stdin.readline()
zeroconf.close()

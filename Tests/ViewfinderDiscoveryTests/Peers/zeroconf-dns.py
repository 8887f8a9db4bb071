#!/usr/bin/python3
# python3-zeroconf as an independent DNS implementation for the DNS message tests.
#   zeroconf-dns.py make      prints, one per line as hex, the messages zeroconf makes: a PTR query for _ptp._tcp,
#                             a response announcing a camera (PTR, SRV, TXT, A, AAAA) and its goodbye (TTL 0)
#   zeroconf-dns.py read HEX  prints what zeroconf reads in a message: its flags, then a line per question and record
import socket
import sys

from zeroconf import DNSAddress, DNSIncoming, DNSOutgoing, DNSPointer, DNSQuestion, DNSService, DNSText, const

SERVICE = "_ptp._tcp.local."
INSTANCE = "Nikon Z 6 (Study)." + SERVICE
HOST = "nikon-z6.local."


def announcement(ttl):
    out = DNSOutgoing(const._FLAGS_QR_RESPONSE | const._FLAGS_AA)
    unique = const._CLASS_IN | const._CLASS_UNIQUE
    out.add_answer_at_time(DNSPointer(SERVICE, const._TYPE_PTR, const._CLASS_IN, ttl, INSTANCE), 0)
    out.add_answer_at_time(DNSService(INSTANCE, const._TYPE_SRV, unique, ttl, 0, 0, 15740, HOST), 0)
    text = b"".join(bytes([len(item)]) + item for item in [b"guid=0123456789abcdef", b"vid=04b0", b"pid=0442", b"apps"])
    out.add_answer_at_time(DNSText(INSTANCE, const._TYPE_TXT, unique, ttl, text), 0)
    out.add_answer_at_time(DNSAddress(HOST, const._TYPE_A, unique, ttl, socket.inet_aton("192.168.1.1")), 0)
    out.add_answer_at_time(
        DNSAddress(HOST, const._TYPE_AAAA, unique, ttl, socket.inet_pton(socket.AF_INET6, "fe80::1")), 0)
    return out.packets()[0]


if sys.argv[1] == "make":
    query = DNSOutgoing(const._FLAGS_QR_QUERY)
    query.add_question(DNSQuestion(SERVICE, const._TYPE_PTR, const._CLASS_IN))
    for packet in [query.packets()[0], announcement(4500), announcement(0)]:
        print(packet.hex())
elif sys.argv[1] == "read":
    message = DNSIncoming(bytes.fromhex(sys.argv[2]))
    print("valid" if message.valid else "invalid", hex(message.flags))
    for question in message.questions:
        print("question", question.name, question.type, question.unicast)
    answers = message.answers() if callable(message.answers) else message.answers
    for record in answers:
        data = {
            const._TYPE_PTR: lambda r: r.alias,
            const._TYPE_SRV: lambda r: f"{r.priority} {r.weight} {r.port} {r.server}",
            const._TYPE_TXT: lambda r: r.text.hex(),
            const._TYPE_A: lambda r: socket.inet_ntop(socket.AF_INET, r.address),
            const._TYPE_AAAA: lambda r: socket.inet_ntop(socket.AF_INET6, r.address),
        }.get(record.type, lambda r: "?")(record)
        print("record", record.name, record.type, record.unique, record.ttl, data)

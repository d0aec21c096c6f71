#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A DNS server of one name, for tests in a network namespace of their own.

dns-answer.py --listen ADDR --name NAME --address IPV4 --log FILE [--ready FILE]
              [--lifetime S]

Answers UDP queries on ADDR port 53: NAME's A record is IPV4 (TTL 0); an
AAAA query for NAME has no answer; any other name is NXDOMAIN. Every
question is appended to FILE, one line "NAME TYPE", so a test can tell
that a lookup reached this server and not /etc/hosts. Writes FILE given
by --ready once it listens. Serves until killed, or --lifetime seconds
(default 120) have passed.
"""

import argparse
import socket
import struct
import time


def question(msg):
    """(labels as text, qtype, end offset) of the first question."""
    i, labels = 12, []
    while msg[i]:
        n = msg[i]
        labels.append(msg[i + 1:i + 1 + n].decode("ascii", "replace"))
        i += 1 + n
    qtype, _qclass = struct.unpack("!HH", msg[i + 1:i + 5])
    return ".".join(labels).lower(), qtype, i + 5


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--listen", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--address", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--ready")
    ap.add_argument("--lifetime", type=float, default=120)
    a = ap.parse_args()
    until = time.monotonic() + a.lifetime
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((a.listen, 53))
    if a.ready:
        with open(a.ready, "w") as f:
            f.write("ready\n")
    want = a.name.lower().rstrip(".")
    while time.monotonic() < until:
        s.settimeout(max(0.1, until - time.monotonic()))
        try:
            msg, peer = s.recvfrom(512)
        except socket.timeout:
            continue
        if len(msg) < 17:
            continue
        qid, = struct.unpack("!H", msg[:2])
        name, qtype, end = question(msg)
        with open(a.log, "a") as f:
            f.write("%s %d\n" % (name, qtype))
        ours = name == want
        answers = b""
        if ours and qtype == 1:
            answers = struct.pack("!HHHIH", 0xC00C, 1, 1, 0, 4) + socket.inet_aton(a.address)
        rcode = 0 if ours else 3
        head = struct.pack("!HHHHHH", qid, 0x8180 | rcode, 1, 1 if answers else 0, 0, 0)
        s.sendto(head + msg[12:end] + answers, peer)


if __name__ == "__main__":
    main()

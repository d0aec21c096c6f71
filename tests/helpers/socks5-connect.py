#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""socks5-connect.py HOST PORT [PROXY_HOST PROXY_PORT]

What `nc -X 5 -x 127.0.0.1:1080 HOST PORT` does, for an ssh ProxyCommand or
a raw TCP client: a SOCKS5 CONNECT to HOST:PORT (sent as a domain name,
resolved by the proxy) through PROXY (default 127.0.0.1:1080), then stdin
to the connection and the connection to stdout until both ends close.
Exit 0 when the proxy connected; a refusal prints "socks5: reply N" on
stderr and exits 1 (2: no proxy at all).
"""

import os
import socket
import sys
import threading


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    ph = sys.argv[3] if len(sys.argv) > 3 else "127.0.0.1"
    pp = int(sys.argv[4]) if len(sys.argv) > 4 else 1080
    try:
        s = socket.create_connection((ph, pp), timeout=10)
    except OSError as e:
        print("socks5: no proxy: %s" % e, file=sys.stderr)
        return 2
    s.sendall(b"\x05\x01\x00")
    if s.recv(2) != b"\x05\x00":
        print("socks5: greeting refused", file=sys.stderr)
        return 1
    h = host.encode()
    s.sendall(b"\x05\x01\x00\x03" + bytes([len(h)]) + h + port.to_bytes(2, "big"))
    rep = s.recv(4)
    if len(rep) < 2 or rep[1] != 0:
        print("socks5: reply %d" % (rep[1] if len(rep) > 1 else -1), file=sys.stderr)
        return 1
    atyp = rep[3]
    s.recv({1: 4, 4: 16}.get(atyp, 0) + 2 if atyp != 3 else s.recv(1)[0] + 2)
    s.settimeout(None)

    def pump_in():
        while True:
            b = os.read(0, 65536)
            if not b:
                s.shutdown(socket.SHUT_WR)
                return
            s.sendall(b)
    threading.Thread(target=pump_in, daemon=True).start()
    while True:
        b = s.recv(65536)
        if not b:
            return 0
        os.write(1, b)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What curl cannot do for proxy-sni.test: TLS with no SNI at all, and a
client that waits for a server that speaks first.

sni-client.py tls HOST PORT [SNI]
    Connects to HOST:PORT (through $HTTPS_PROXY's CONNECT when it is
    set, as a client honouring it does), speaks TLS with SNI (none when
    omitted; the certificate is not checked: with no name there is
    nothing to check it against), sends GET / with Host: HOST and prints
    the body. Exit 1 on any failure, with why on stderr.
sni-client.py banner HOST PORT [connect]
    Connects (through $ALL_PROXY's SOCKS5 when it is set, or with
    "connect" through $HTTPS_PROXY's CONNECT), sends nothing, prints what
    the server says first within 3 s, then sends "ping" and prints the
    echo. Exit 1 when the server said nothing in time.
"""

import os
import socket
import ssl
import sys
from urllib.parse import urlsplit


def recv_exact(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise OSError("the proxy closed the connection")
        b += c
    return b


def via_connect(host, port):
    p = urlsplit(os.environ["HTTPS_PROXY"])
    s = socket.create_connection((p.hostname, p.port or 80), 10)
    s.sendall(b"CONNECT %s:%d HTTP/1.1\r\nHost: %s:%d\r\n\r\n"
              % (host.encode(), port, host.encode(), port))
    head = b""
    while b"\r\n\r\n" not in head:
        c = s.recv(1)
        if not c:
            raise OSError("the proxy closed the connection")
        head += c
    if not head.startswith(b"HTTP/1.1 200"):
        raise OSError("CONNECT: " + head.split(b"\r\n")[0].decode())
    return s


def via_socks(host, port):
    p = urlsplit(os.environ["ALL_PROXY"])
    s = socket.create_connection((p.hostname, p.port or 1080), 10)
    s.sendall(b"\x05\x01\x00")
    if recv_exact(s, 2) != b"\x05\x00":
        raise OSError("socks5: no method")
    s.sendall(b"\x05\x01\x00\x03" + bytes([len(host)]) + host.encode() + port.to_bytes(2, "big"))
    r = recv_exact(s, 4)
    if r[1] != 0:
        raise OSError("socks5: reply %d" % r[1])
    recv_exact(s, {1: 4, 4: 16}.get(r[3], 0) + 2)
    return s


def tls(host, port, sni):
    s = via_connect(host, port) if os.environ.get("HTTPS_PROXY") else \
        socket.create_connection((host, port), 10)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    t = ctx.wrap_socket(s, server_hostname=sni)
    t.sendall(b"GET / HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % host.encode())
    data = b""
    while True:
        c = t.recv(65536)
        if not c:
            break
        data += c
    head, _, body = data.partition(b"\r\n\r\n")
    sys.stdout.write(body.decode())


def banner(host, port, how):
    if how == "connect" and os.environ.get("HTTPS_PROXY"):
        s = via_connect(host, port)
    elif os.environ.get("ALL_PROXY"):
        s = via_socks(host, port)
    else:
        s = socket.create_connection((host, port), 10)
    s.settimeout(3)
    first = s.recv(1000)
    if not first:
        raise OSError("no banner")
    sys.stdout.write(first.decode())
    s.sendall(b"ping\n")
    sys.stdout.write(s.recv(1000).decode())


def main(a):
    try:
        if a[0] == "tls":
            tls(a[1], int(a[2]), a[3] if len(a) > 3 else None)
        elif a[0] == "banner":
            banner(a[1], int(a[2]), a[3] if len(a) > 3 else "socks")
        else:
            raise SystemExit("usage: sni-client.py tls|banner HOST PORT [SNI]")
    except (OSError, ssl.SSLError) as e:
        print("sni-client: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

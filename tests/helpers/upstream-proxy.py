#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A small upstream (company) proxy for kjail-upstream.test, on 127.0.0.1.

upstream-proxy.py --dir DIR [--auth USER:PASS] [--socks] [--lifetime S]

Listens on a free port of 127.0.0.1 and writes it to DIR/port (through a
rename). Without --socks it speaks HTTP CONNECT: each request is recorded
as one line in DIR/record, "CONNECT TARGET auth=AUTH" (AUTH: none, good,
bad: whether a Proxy-Authorization: Basic header carried USER:PASS), then
answered 407 when --auth is given and the credentials are not, 200 and
relayed both ways otherwise. With --socks it speaks SOCKS5 (RFC 1928,
user/password of RFC 1929 when --auth is given), recording
"SOCKS5 TARGET auth=AUTH". A target it cannot reach is 502 (SOCKS5
reply 5). Any other request is 405. It serves until --lifetime seconds
have passed (default 120) or SIGTERM.
"""

import argparse
import base64
import os
import socket
import socketserver
import struct
import threading
import time


def relay(a, b):
    def pump(src, dst):
        try:
            while True:
                d = src.recv(65536)
                if not d:
                    break
                dst.sendall(d)
        except OSError:
            pass
        try:
            dst.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    t = threading.Thread(target=pump, args=(b, a), daemon=True)
    t.start()
    pump(a, b)
    t.join(30)


def recv_exact(s, n):
    d = b""
    while len(d) < n:
        c = s.recv(n - len(d))
        if not c:
            raise EOFError
        d += c
    return d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--auth")
    ap.add_argument("--socks", action="store_true")
    ap.add_argument("--lifetime", type=float, default=120)
    a = ap.parse_args()
    lock = threading.Lock()

    def record(line):
        with lock, open(os.path.join(a.dir, "record"), "a") as f:
            f.write(line + "\n")

    def connect(target):
        host, _, port = target.rpartition(":")
        host = host.strip("[]")
        return socket.create_connection((host, int(port)), timeout=10)

    class HTTP(socketserver.BaseRequestHandler):
        def handle(self):
            s = self.request
            head = b""
            while b"\r\n\r\n" not in head:
                c = s.recv(4096)
                if not c:
                    return
                head += c
            lines = head.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
            parts = lines[0].split(" ")
            auth = "none"
            for h in lines[1:]:
                k, _, v = h.partition(":")
                if k.strip().lower() == "proxy-authorization":
                    v = v.strip()
                    good = "Basic " + base64.b64encode((a.auth or "").encode()).decode()
                    auth = "good" if a.auth and v == good else "bad"
            if len(parts) != 3 or parts[0] != "CONNECT":
                record("OTHER %s auth=%s" % (lines[0], auth))
                s.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
                return
            record("CONNECT %s auth=%s" % (parts[1], auth))
            if a.auth and auth != "good":
                s.sendall(b"HTTP/1.1 407 Proxy Authentication Required\r\n"
                          b"Proxy-Authenticate: Basic realm=\"test\"\r\nContent-Length: 0\r\n\r\n")
                return
            try:
                t = connect(parts[1])
            except OSError:
                s.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
                return
            s.sendall(b"HTTP/1.1 200 Connection established\r\nVia: upstream-test\r\n\r\n")
            with t:
                relay(s, t)

    class SOCKS(socketserver.BaseRequestHandler):
        def handle(self):
            s = self.request
            try:
                ver, n = recv_exact(s, 2)
                methods = recv_exact(s, n)
                want = 2 if a.auth else 0
                if ver != 5 or want not in methods:
                    s.sendall(b"\x05\xff")
                    return
                s.sendall(bytes([5, want]))
                auth = "none"
                if a.auth:
                    _, ul = recv_exact(s, 2)
                    user = recv_exact(s, ul)
                    (pl,) = recv_exact(s, 1)
                    pw = recv_exact(s, pl)
                    auth = "good" if (user + b":" + pw).decode() == a.auth else "bad"
                    s.sendall(b"\x01" + (b"\x00" if auth == "good" else b"\x01"))
                    if auth != "good":
                        record("SOCKS5 ? auth=bad")
                        return
                _, cmd, _, atyp = recv_exact(s, 4)
                if atyp == 1:
                    host = socket.inet_ntop(socket.AF_INET, recv_exact(s, 4))
                elif atyp == 4:
                    host = "[%s]" % socket.inet_ntop(socket.AF_INET6, recv_exact(s, 16))
                else:
                    host = recv_exact(s, recv_exact(s, 1)[0]).decode()
                (port,) = struct.unpack("!H", recv_exact(s, 2))
                target = "%s:%d" % (host, port)
                record("SOCKS5 %s auth=%s" % (target, auth))
                try:
                    t = connect(target)
                except OSError:
                    s.sendall(b"\x05\x05\x00\x01\x00\x00\x00\x00\x00\x00")
                    return
                s.sendall(b"\x05\x00\x00\x01\x7f\x00\x00\x01\x00\x00")
                with t:
                    relay(s, t)
            except (EOFError, OSError):
                return

    class Server(socketserver.ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True

    srv = Server(("127.0.0.1", 0), SOCKS if a.socks else HTTP)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    tmp = os.path.join(a.dir, "port.tmp")
    with open(tmp, "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(tmp, os.path.join(a.dir, "port"))
    time.sleep(a.lifetime)


if __name__ == "__main__":
    main()

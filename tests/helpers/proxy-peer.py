#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""proxy-peer: the far ends of tests/integration/proxy-engine.test, on
loopback only.

  proxy-peer.py serve PORTFILE     an HTTP server and a TCP echo server on
                                   127.0.0.1 (free ports), "HTTP ECHO" written
                                   to PORTFILE; runs until killed
  proxy-peer.py socks PROXYPORT HOST PORT TEXT
                                   SOCKS5 (no auth, CONNECT, a domain name)
                                   through 127.0.0.1:PROXYPORT, sends TEXT,
                                   prints "reply N" and what came back
  proxy-peer.py raw PORT HEX [hex] sends the bytes HEX to 127.0.0.1:PORT,
                                   prints what came back (until closed, 5 s),
                                   in hex if asked
  proxy-peer.py hold PORT SECONDS [FILE]
                                   connects, sends nothing, holds the
                                   connection SECONDS (FILE made once
                                   connected)
  proxy-peer.py tunnels PROXYPORT N KIB
                                   a server of its own on 127.0.0.1, and N
                                   CONNECT tunnels to it through
                                   127.0.0.1:PROXYPORT, all open (200 read)
                                   before any sends; then each sends KIB KiB
                                   that the server echoes and reads them back
                                   (every tunnel its own bytes), checks every
                                   byte and prints "intact K of N"
  proxy-peer.py hello PROXYPORT HOST SNI RECORD [early]
                                   an echo server of its own on 127.0.0.1,
                                   and a CONNECT tunnel to HOST:its port
                                   through 127.0.0.1:PROXYPORT carrying a
                                   ClientHello of the largest size the proxy
                                   reads (16 KiB, a padding extension; SNI,
                                   or none for "-") in RECORD-byte records,
                                   sent after the 200 or, "early", with the
                                   CONNECT; prints "echoed N" when its N
                                   bytes came back intact, "alert" for a
                                   fatal access_denied alert, else what
                                   came back
"""
import http.server
import socket
import socketserver
import sys
import threading
import time

BODY = b"hello from proxy-peer\n"


class Hello(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", str(len(BODY)))
        self.send_header("X-Seen-Host", self.headers.get("Host", ""))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, *args):
        pass


class Echo(socketserver.BaseRequestHandler):
    def handle(self):
        while True:
            b = self.request.recv(65536)
            if not b:
                return
            self.request.sendall(b)


class Threaded(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True


class Crowded(Threaded):
    request_queue_size = 4096  # every tunnel connects at once


def serve(portfile):
    h = Threaded(("127.0.0.1", 0), Hello)
    e = Threaded(("127.0.0.1", 0), Echo)
    for s in (h, e):
        threading.Thread(target=s.serve_forever, daemon=True).start()
    with open(portfile + ".tmp", "w") as f:
        f.write("%d %d\n" % (h.server_address[1], e.server_address[1]))
    import os
    os.rename(portfile + ".tmp", portfile)
    while True:
        time.sleep(3600)


def recv_exact(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            break
        b += c
    return b


def socks(pport, host, port, text):
    s = socket.create_connection(("127.0.0.1", int(pport)), timeout=10)
    s.sendall(b"\x05\x01\x00")
    g = recv_exact(s, 2)
    if g != b"\x05\x00":
        print("greeting %r" % g)
        return 1
    h = host.encode()
    s.sendall(b"\x05\x01\x00\x03" + bytes([len(h)]) + h + int(port).to_bytes(2, "big"))
    r = recv_exact(s, 4)
    if len(r) < 4:
        print("reply none")
        return 1
    print("reply %d" % r[1])
    if r[1] != 0:
        return 0
    recv_exact(s, {1: 6, 4: 18}.get(r[3], 6))
    s.sendall(text.encode())
    s.shutdown(socket.SHUT_WR)
    out = b""
    while True:
        c = s.recv(65536)
        if not c:
            break
        out += c
    print(out.decode(errors="replace"))
    return 0


def raw(port, hexdata, fmt="text"):
    s = socket.create_connection(("127.0.0.1", int(port)), timeout=5)
    s.sendall(bytes.fromhex(hexdata))
    out = b""
    try:
        while True:
            c = s.recv(65536)
            if not c:
                break
            out += c
    except socket.timeout:
        print("(timed out)")
    sys.stdout.write(out.hex() if fmt == "hex" else out.decode(errors="replace"))
    return 0


def hold(port, seconds, marker=None):
    s = socket.create_connection(("127.0.0.1", int(port)), timeout=5)
    if marker:
        open(marker, "w").close()
    time.sleep(float(seconds))
    s.close()
    return 0


def send_quietly(s, data):
    try:
        s.sendall(data)
    except OSError:
        pass  # the reading side says what went wrong


def tunnels(pport, n, kib):
    import os
    n, size = int(n), int(kib) * 1024
    # tunnel i carries base[i:i + size]: its own bytes, so a crossed
    # tunnel shows. No byte 22: a tunnel whose bytes began 16 03 would be
    # read as a TLS record by the proxy's gate (proxy/inspect.h) and
    # refused, once in about 256 runs of 256 tunnels.
    base = os.urandom(size + n).translate(bytes.maketrans(b"\x16", b"\x17"))
    srv = Crowded(("127.0.0.1", 0), Echo)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    port = srv.server_address[1]
    socks, good = [], [0]
    all_open = threading.Barrier(n)
    lock = threading.Lock()

    def one(i):
        s = None
        try:
            s = socket.create_connection(("127.0.0.1", int(pport)), timeout=60)
            s.sendall(b"CONNECT 127.0.0.1:%d HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % (port, port))
            head = b""
            while not head.endswith(b"\r\n\r\n"):
                c = s.recv(1)
                if not c:
                    break
                head += c
            if not head.startswith(b"HTTP/1.1 200 "):
                sys.stderr.write("tunnel %d: %r\n" % (i, head[:80]))
                s.close()
                s = None
        except OSError as e:
            sys.stderr.write("tunnel %d: %s\n" % (i, e))
            s = None
        all_open.wait()
        if s is None:
            return
        mine = base[i:i + size]
        # the sending thread, so that both directions are full at once
        t = threading.Thread(target=send_quietly, args=(s, mine), daemon=True)
        t.start()
        got = bytearray()
        try:
            while len(got) < size:
                c = s.recv(65536)
                if not c:
                    break
                got += c
        except OSError as e:
            sys.stderr.write("tunnel %d: %s after %d bytes\n" % (i, e, len(got)))
        t.join()
        s.close()
        if bytes(got) == mine:
            with lock:
                good[0] += 1
        else:
            sys.stderr.write("tunnel %d: %d bytes back, differing\n" % (i, len(got)))

    ts = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    print("intact %d of %d" % (good[0], n))
    return 0


def client_hello(sni, record):
    """A ClientHello the proxy reads (not one a server could finish): its
    message is TLS_HELLO_MAX (16384) bytes, padded (RFC 7685), and split
    in records of `record` bytes, whose headers make it longer still."""
    ext = b""
    if sni:
        n = sni.encode()
        names = b"\x00" + len(n).to_bytes(2, "big") + n
        ext += b"\x00\x00" + (len(names) + 2).to_bytes(2, "big") + len(names).to_bytes(2, "big") + names
    import os
    body = b"\x03\x03" + os.urandom(32) + b"\x00" + b"\x00\x02\x13\x01" + b"\x01\x00"
    pad = 16384 - len(body) - 2 - len(ext) - 4
    ext += b"\x00\x15" + pad.to_bytes(2, "big") + bytes(pad)
    body += len(ext).to_bytes(2, "big") + ext
    msg = b"\x01" + len(body).to_bytes(3, "big") + body
    return b"".join(b"\x16\x03\x01" + len(c).to_bytes(2, "big") + c
                    for c in (msg[i:i + record] for i in range(0, len(msg), record)))


ALERT = b"\x15\x03\x03\x00\x02\x02\x31"  # fatal, access_denied


def hello(pport, host, sni, record, how="after"):
    data = client_hello(None if sni == "-" else sni, int(record))
    srv = Threaded(("127.0.0.1", 0), Echo)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    port = srv.server_address[1]
    s = socket.create_connection(("127.0.0.1", int(pport)), timeout=10)
    req = b"CONNECT %s:%d HTTP/1.1\r\nHost: %s:%d\r\n\r\n" % (host.encode(), port, host.encode(), port)
    s.sendall(req + data if how == "early" else req)
    got = b""
    try:
        while b"\r\n\r\n" not in got:
            c = s.recv(65536)
            if not c:
                break
            got += c
        head, _, got = got.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200 "):
            print("connect: %r" % head[:80])
            return 0
        if how != "early":
            s.sendall(data)
        while len(got) < len(data):
            c = s.recv(65536)
            if not c:
                break
            got += c
    except OSError as e:
        print("(%s)" % e)
    if got == data:
        print("echoed %d" % len(data))
    elif got == ALERT:
        print("alert")
    else:
        print("%d bytes back, differing: %s" % (len(got), got[:16].hex()))
    return 0


def main(a):
    if a[:1] == ["serve"] and len(a) == 2:
        return serve(a[1])
    if a[:1] == ["socks"] and len(a) == 5:
        return socks(*a[1:])
    if a[:1] == ["raw"] and len(a) in (3, 4):
        return raw(*a[1:])
    if a[:1] == ["hold"] and len(a) in (3, 4):
        return hold(*a[1:])
    if a[:1] == ["tunnels"] and len(a) == 4:
        return tunnels(*a[1:])
    if a[:1] == ["hello"] and len(a) in (5, 6):
        return hello(*a[1:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

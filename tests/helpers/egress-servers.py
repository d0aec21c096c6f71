#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The host-side servers of kjail-allow-host.test, all on 127.0.0.1.

egress-servers.py --dir DIR --mark MARK [--cert PEM --key PEM] [--lifetime S]

Starts, each on a free port of 127.0.0.1:
  http   GET answers 200 "MARK http PATH"
  tls    the same over TLS (with --cert and --key), "MARK tls PATH"
  echo   raw TCP: every byte sent comes back
  other  a second HTTP server, "MARK other PATH"
  udp    UDP: every datagram comes back
then writes "NAME PORT" lines to DIR/ports (through a rename) and serves
until --lifetime seconds have passed (default 120) or SIGTERM. Every
connection it accepts is appended, one line "NAME", to DIR/accepted, so a
test can tell that a refused connection never reached a server.
"""

import argparse
import http.server
import os
import signal
import socket
import socketserver
import ssl
import sys
import threading
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--mark", required=True)
    ap.add_argument("--cert")
    ap.add_argument("--key")
    ap.add_argument("--lifetime", type=float, default=120)
    a = ap.parse_args()
    lock = threading.Lock()

    def note(name):
        with lock, open(os.path.join(a.dir, "accepted"), "a") as f:
            f.write(name + "\n")

    def http_handler(name):
        class H(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                note(name)
                body = ("%s %s %s\n" % (a.mark, name, self.path)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass
        return H

    class Echo(socketserver.BaseRequestHandler):
        def handle(self):
            note("echo")
            while True:
                b = self.request.recv(65536)
                if not b:
                    return
                self.request.sendall(b)

    class TS(socketserver.ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True

    servers = {
        "http": TS(("127.0.0.1", 0), http_handler("http")),
        "echo": TS(("127.0.0.1", 0), Echo),
        "other": TS(("127.0.0.1", 0), http_handler("other")),
    }
    if a.cert:
        tls = TS(("127.0.0.1", 0), http_handler("tls"))
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(a.cert, a.key)
        tls.socket = ctx.wrap_socket(tls.socket, server_side=True)
        servers["tls"] = tls
    for s in servers.values():
        threading.Thread(target=s.serve_forever, daemon=True).start()

    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))

    def udp_loop():
        while True:
            b, peer = udp.recvfrom(65536)
            note("udp")
            udp.sendto(b, peer)
    threading.Thread(target=udp_loop, daemon=True).start()

    tmp = os.path.join(a.dir, "ports.tmp")
    with open(tmp, "w") as f:
        for name, s in servers.items():
            f.write("%s %d\n" % (name, s.server_address[1]))
        f.write("udp %d\n" % udp.getsockname()[1])
    os.rename(tmp, os.path.join(a.dir, "ports"))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    time.sleep(a.lifetime)


if __name__ == "__main__":
    main()

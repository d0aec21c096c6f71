#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A CDN's front for proxy-sni.test: one address, many sites, the site
picked by the TLS SNI or the HTTP Host, as a shared front does.

sni-front.py --addr ADDR --dir DIR --ca-dir CADIR SITE... [--lifetime S]

For each SITE (a DNS name) CADIR holds SITE.pem and SITE.key; the first
SITE is the default, served when a hello names none. Listens on ADDR:
  443  TLS; the certificate and the site by the SNI
  80   HTTP/1.1 with keep-alive; the site by an absolute-form URL's host,
       else the Host header (RFC 9112 3.2.2)
  22   a server that speaks first ("SSH-2.0-kjail-front"), then echoes
       each line it gets
Every request answers 200 "front: site SITE (sni S, host H)" and is
appended to DIR/seen as "tls|http SITE sni=S host=H"; a banner
connection as "banner". DIR/ready appears once all listen.
"""

import argparse
import os
import signal
import socket
import socketserver
import ssl
import sys
import threading
import time
from urllib.parse import urlsplit


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--addr", required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--ca-dir", required=True)
    ap.add_argument("--lifetime", type=float, default=300)
    ap.add_argument("sites", nargs="+")
    a = ap.parse_args()
    lock = threading.Lock()

    def note(line):
        with lock, open(os.path.join(a.dir, "seen"), "a") as f:
            f.write(line + "\n")

    ctxs = {}
    for site in a.sites:
        c = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        c.load_cert_chain(os.path.join(a.ca_dir, site + ".pem"),
                          os.path.join(a.ca_dir, site + ".key"))
        ctxs[site] = c
    default = a.sites[0]

    def pick(name):
        name = (name or "").lower().rstrip(".")
        return name if name in ctxs else default

    def sni_cb(sock, name, ctx):
        sock.kj_sni = name or ""
        sock.context = ctxs[pick(name)]

    front_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    front_ctx.load_cert_chain(os.path.join(a.ca_dir, default + ".pem"),
                              os.path.join(a.ca_dir, default + ".key"))
    front_ctx.sni_callback = sni_cb

    def serve_http(f, w, kind, sni):
        """Requests on one connection until it ends."""
        while True:
            line = f.readline(65537)
            if not line:
                return
            if line in (b"\r\n", b"\n"):
                continue
            parts = line.split()
            if len(parts) != 3:
                return
            headers = {}
            while True:
                h = f.readline(65537)
                if h in (b"\r\n", b"\n", b""):
                    break
                k, _, v = h.decode("latin-1").partition(":")
                headers[k.strip().lower()] = v.strip()
            host = headers.get("host", "")
            target = parts[1].decode("latin-1")
            by = host
            if "://" in target:
                by = urlsplit(target).hostname or ""
            by = by.rsplit(":", 1)[0] if by.count(":") == 1 else by
            site = pick(sni) if kind == "tls" else pick(by)
            note("%s %s sni=%s host=%s" % (kind, site, sni, host))
            n = int(headers.get("content-length", "0") or "0")
            if n:
                f.read(n)
            body = ("front: site %s (sni %s, host %s)\n" % (site, sni or "-", host or "-")).encode()
            w.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n"
                    % len(body) + body)
            w.flush()

    class TLS(socketserver.BaseRequestHandler):
        def handle(self):
            s = front_ctx.wrap_socket(self.request, server_side=True,
                                      do_handshake_on_connect=False)
            s.settimeout(10)
            try:
                s.do_handshake()
            except (ssl.SSLError, OSError):
                note("tls-failed")
                return
            sni = getattr(s, "kj_sni", "")
            with s.makefile("rb") as f, s.makefile("wb") as w:
                try:
                    serve_http(f, w, "tls", sni)
                except (ssl.SSLError, OSError):
                    pass

    class HTTP(socketserver.BaseRequestHandler):
        def handle(self):
            self.request.settimeout(10)
            with self.request.makefile("rb") as f, self.request.makefile("wb") as w:
                try:
                    serve_http(f, w, "http", "")
                except OSError:
                    pass

    class Banner(socketserver.BaseRequestHandler):
        def handle(self):
            note("banner")
            self.request.settimeout(10)
            self.request.sendall(b"SSH-2.0-kjail-front\r\n")
            with self.request.makefile("rb") as f:
                try:
                    for line in f:
                        self.request.sendall(b"echo " + line)
                except OSError:
                    pass

    class TS(socketserver.ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True

    servers = [TS((a.addr, 443), TLS), TS((a.addr, 80), HTTP), TS((a.addr, 22), Banner)]
    for s in servers:
        threading.Thread(target=s.serve_forever, daemon=True).start()
    open(os.path.join(a.dir, "ready"), "w").close()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    time.sleep(a.lifetime)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A scripted chat-completions server for kli's tests.

It speaks just enough of the OpenAI-compatible protocol
(POST .../chat/completions) on 127.0.0.1 and/or a Unix socket, and answers
each request with the next turn of a script (a JSON list). Every request
body it receives is recorded, one JSON object a line, so a test can assert
what kli sent (the tool results, the tools offered). The Authorization
header is compared with --key when given, and recorded only as
"ok"/"wrong"/"none": the key itself is never written anywhere.

A turn is an object:
  {"tool_calls": [{"name": N, "arguments": {...} or "text", "id": I}],
   "content": optional text}                 a turn calling tools (with
                                             "finish": "length", one cut
                                             at the output limit)
  {"final": TEXT}                            a final answer
  {"final": TEXT, "finish": "length"}        one cut at the output limit
  {"status": 500, "body": ..., "headers": {"Retry-After": "1"}}
                                             an HTTP error
  {"raw": TEXT}                              200 with TEXT as the body
  {"truncate": TEXT}                         200 whose body stops after TEXT
                                             (Content-Length promises more)
  {"close": true}                            close without any answer
  {"hang": true}                             never answer
  {"parts": [PART...]}                       a final answer whose content is a
                                             list of parts
  {"function_call": {"name": N, "arguments": A}}
                                             the legacy function_call message
Any turn may carry "usage": {...}, sent as the reply's "usage" (in a
stream, as a last chunk with no choices), "delay": SECONDS, slept before
answering, and:
  "bom": true           a UTF-8 BOM before the JSON
  "gzip": true          the body gzip-compressed (Content-Encoding: gzip),
                        though kli never asks for it
  "sse": true           answer as a stream even when none was asked for
  "ignore_stream": true answer whole even when a stream was asked for
  "split": K            a stream's text and arguments in pieces of K
                        characters (default 2), one event each
  "interval": SECONDS   a stream's events written one at a time, SECONDS
                        apart (no Content-Length: the stream ends when the
                        connection closes); with --sent, the time each was
                        written
A request with "stream": true gets its answer as server-sent events (one
chunk a delta, tool calls split over many deltas, then [DONE]). A stream
may be sent as it goes, event by event, the body ending when the
connection closes (no Content-Length), with:
  "pace": SECONDS       a pause after each event
  "stall": [K, SECONDS] silence for SECONDS after the first K events
  "cut": K              the connection closed after K events (no [DONE])
  "error_frame": K      after K events, {"error":{"message":"scripted error
                        frame"}}, then the end
  "garbage": K          after K events, a data line that is not JSON, then
                        the end

The server exits after --lifetime seconds (default 60), on SIGTERM, or on
POST /quit. It only ever binds loopback addresses.
"""

import argparse
import gzip
import http.server
import json
import os
import signal
import socket
import socketserver
import sys
import threading
import time


class Script:
    def __init__(self, turns, record, key):
        self.turns = turns
        self.record = record
        self.key = key
        self.n = 0
        self.lock = threading.Lock()

    def next(self, path, auth, raw):
        with self.lock:
            n = self.n
            self.n += 1
            try:
                body = json.loads(raw)
            except ValueError:
                body = raw.decode("utf-8", "replace")
            if self.key is None:
                seen = "unchecked"
            elif auth is None:
                seen = "none"
            else:
                seen = "ok" if auth == "Bearer " + self.key else "wrong"
            line = json.dumps({"n": n + 1, "path": path, "auth": seen, "body": body})
            if self.record:
                with open(self.record, "a") as f:
                    f.write(line + "\n")
            return n, self.turns[n] if n < len(self.turns) else None


def completion(turn, n):
    msg = {"role": "assistant", "content": None}
    if "tool_calls" in turn:
        calls = []
        for i, c in enumerate(turn["tool_calls"]):
            args = c.get("arguments", {})
            if not isinstance(args, str):
                args = json.dumps(args)
            calls.append({"id": c.get("id", "call_%d_%d" % (n + 1, i + 1)),
                          "type": "function",
                          "function": {"name": c["name"], "arguments": args}})
        msg["tool_calls"] = calls
        msg["content"] = turn.get("content")
        reason = turn.get("finish", "tool_calls")
    elif "function_call" in turn:
        fc = dict(turn["function_call"])
        if not isinstance(fc.get("arguments", ""), str):
            fc["arguments"] = json.dumps(fc["arguments"])
        msg["function_call"] = fc
        reason = "function_call"
    elif "parts" in turn:
        msg["content"] = turn["parts"]
        reason = turn.get("finish", "stop")
    else:
        msg["content"] = turn.get("final", turn.get("content", ""))
        reason = turn.get("finish", "stop")
    out = {"id": "fake-%d" % (n + 1), "object": "chat.completion",
           "created": int(time.time()), "model": "fake",
           "choices": [{"index": 0, "message": msg, "finish_reason": reason}]}
    if "usage" in turn:
        out["usage"] = turn["usage"]
    return out


def pieces(text, k):
    return [text[i:i + k] for i in range(0, len(text), k)] or [""]


def chunks(completion, k):
    """The completion as the deltas of a stream, one SSE event a string."""
    msg = completion["choices"][0]["message"]
    reason = completion["choices"][0]["finish_reason"]
    out = [{"role": "assistant"}]
    content = msg.get("content")
    if isinstance(content, list):
        out.append({"content": content})
    elif content:
        out += [{"content": p} for p in pieces(content, k)]
    for i, c in enumerate(msg.get("tool_calls") or []):
        out.append({"tool_calls": [{"index": i, "id": c["id"], "type": "function",
                                    "function": {"name": c["function"]["name"],
                                                 "arguments": ""}}]})
        out += [{"tool_calls": [{"index": i, "function": {"arguments": p}}]}
                for p in pieces(c["function"]["arguments"], k)]
    if "function_call" in msg:
        fc = msg["function_call"]
        out.append({"function_call": {"name": fc["name"], "arguments": ""}})
        out += [{"function_call": {"arguments": p}} for p in pieces(fc.get("arguments", ""), k)]
    events = [{"id": completion["id"], "object": "chat.completion.chunk",
               "choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in out]
    events.append({"id": completion["id"], "object": "chat.completion.chunk",
                   "choices": [{"index": 0, "delta": {}, "finish_reason": reason}]})
    if "usage" in completion:
        events.append({"id": completion["id"], "object": "chat.completion.chunk",
                       "choices": [], "usage": completion["usage"]})
    return ["data: %s\n\n" % json.dumps(e) for e in events] + ["data: [DONE]\n\n"]


PACED = ("pace", "stall", "cut", "error_frame", "garbage")
ERROR_FRAME = 'data: {"error": {"message": "scripted error frame"}}\n\n'
GARBAGE = 'data: {"choices": [oops\n\n'



class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    script = None
    sent = None

    def log_message(self, fmt, *args):
        pass

    def address_string(self):
        return "local"

    def send(self, status, body, headers=None, length=None, ctype="application/json"):
        data = body if isinstance(body, bytes) else body.encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data) if length is None else length))
        self.send_header("Connection", "close")
        for k, v in (headers or {}).items():
            self.send_header(k, str(v))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()
        self.close_connection = True

    def do_GET(self):
        self.send(404, json.dumps({"error": {"message": "fake-model: POST only"}}))

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.path == "/quit":
            self.send(200, "{}")
            os._exit(0)
        n, turn = self.script.next(self.path, self.headers.get("Authorization"), raw)
        if turn is None:
            self.send(400, json.dumps({"error": {
                "message": "fake-model: the script has no turn %d" % (n + 1)}}))
            return
        time.sleep(float(turn.get("delay", 0)))
        if turn.get("hang"):
            time.sleep(3600)
            return
        if turn.get("close"):
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if "status" in turn:
            body = turn.get("body", {"error": {"message": "scripted status %d" % turn["status"]}})
            if not isinstance(body, str):
                body = json.dumps(body)
            self.send(turn["status"], body, turn.get("headers"))
        elif "raw" in turn:
            self.send(200, turn["raw"])
        elif "truncate" in turn:
            part = turn["truncate"].encode()
            self.send(200, part, length=len(part) + 1000)
            self.connection.shutdown(socket.SHUT_RDWR)
        else:
            self.answer(turn, n, raw)

    def answer(self, turn, n, raw):
        c = completion(turn, n)
        try:
            asked = json.loads(raw).get("stream") is True
        except (ValueError, AttributeError):
            asked = False
        headers = {}
        streamed = (asked and not turn.get("ignore_stream")) or turn.get("sse")
        if streamed and turn.get("interval"):
            self.trickle(chunks(c, int(turn.get("split", 2))), float(turn["interval"]))
            return
        if streamed and any(k in turn for k in PACED):
            self.paced(turn, chunks(c, int(turn.get("split", 2))))
            return
        if streamed:
            body = "".join(chunks(c, int(turn.get("split", 2)))).encode()
            ctype = "text/event-stream"
        else:
            body, ctype = json.dumps(c).encode(), "application/json"
        if turn.get("bom"):
            body = b"\xef\xbb\xbf" + body
        if turn.get("gzip"):
            body = gzip.compress(body)
            headers["Content-Encoding"] = "gzip"
        self.send(200, body, headers, ctype=ctype)

    def trickle(self, events, interval):
        """A stream written an event at a time, INTERVAL seconds apart."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.flush()
        for i, e in enumerate(events):
            if i:
                time.sleep(interval)
            self.wfile.write(e.encode())
            self.wfile.flush()
            if self.sent:
                with open(self.sent, "a") as f:
                    f.write("%.6f %s\n" % (time.time(), e.strip()))
        self.close_connection = True

    def paced(self, turn, events):
        """A stream written as it goes; its end is the connection's."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.flush()
        self.close_connection = True
        stall = turn.get("stall")
        for key, last in (("cut", None), ("error_frame", ERROR_FRAME), ("garbage", GARBAGE)):
            if key in turn:
                events = events[:int(turn[key])] + ([last] if last else [])
        for i, e in enumerate(events):
            if stall and i == int(stall[0]):
                time.sleep(float(stall[1]))
            try:
                self.wfile.write(e.encode())
                self.wfile.flush()
            except OSError:
                return  # kli hung up
            time.sleep(float(turn.get("pace", 0)))

class TCPServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


class UnixServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True

    def get_request(self):
        conn, _ = self.socket.accept()
        return conn, ("local", 0)


def backlog_full():
    """A listening socket that never accepts, its queue filled by connections
    of its own: the kernel drops any further SYN, so a client's connect
    waits (for its connect timeout) as it would for an unreachable host."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(0)
    fillers = []
    for _ in range(3):
        c = socket.socket()
        c.setblocking(False)
        try:
            c.connect(s.getsockname())
        except BlockingIOError:
            pass
        fillers.append(c)
    time.sleep(0.2)
    return s, fillers  # all kept open for the server's life


def main():
    ap = argparse.ArgumentParser(description="scripted chat-completions server for tests")
    ap.add_argument("--script", required=True, help="JSON list of turns")
    ap.add_argument("--record", help="append each request body here, one JSON a line")
    ap.add_argument("--tcp", metavar="PORT_FILE", help="listen on 127.0.0.1, port to PORT_FILE")
    ap.add_argument("--unix", metavar="PATH", help="listen on the Unix socket PATH")
    ap.add_argument("--ready", metavar="FILE", help="create FILE once listening")
    ap.add_argument("--key", help="expected API key (compared, never recorded)")
    ap.add_argument("--lifetime", type=float, default=60.0, help="exit after SECONDS")
    ap.add_argument("--sent", metavar="FILE",
                    help="append the time (epoch seconds) and text of each event "
                         "of an \"interval\" stream, once written")
    ap.add_argument("--backlog-full", metavar="PORT_FILE",
                    help="also listen on another loopback port whose queue is kept full, so "
                         "a connection to it never completes; its port to PORT_FILE")
    a = ap.parse_args()
    if not a.tcp and not a.unix:
        ap.error("give --tcp, --unix or both")
    with open(a.script) as f:
        turns = json.load(f)
    if not isinstance(turns, list):
        ap.error("the script must be a JSON list of turns")
    Handler.script = Script(turns, a.record, a.key)
    Handler.sent = a.sent

    servers = []
    if a.tcp:
        s = TCPServer(("127.0.0.1", 0), Handler)
        servers.append(s)
        tmp = a.tcp + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % s.server_address[1])
        os.rename(tmp, a.tcp)
    if a.unix:
        if os.path.exists(a.unix):
            os.unlink(a.unix)
        servers.append(UnixServer(a.unix, Handler))
    if a.backlog_full:
        stuck = backlog_full()
        tmp = a.backlog_full + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % stuck[0].getsockname()[1])
        os.rename(tmp, a.backlog_full)
    for s in servers:
        threading.Thread(target=s.serve_forever, daemon=True).start()
    if a.ready:
        open(a.ready, "w").close()
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    time.sleep(a.lifetime)
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())

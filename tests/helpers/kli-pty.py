#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Drive a program on a pseudo-terminal, step by step, for kli's tests.

  kli-pty.py STEPS LOG CMD [ARG...]

STEPS is a JSON list; each step is one of
  ["wait", TEXT, SECONDS]     until TEXT shows on the terminal (after
                              what earlier waits consumed)
  ["send", TEXT]              type TEXT
  ["intr"]                    type Ctrl-C (the terminal sends SIGINT),
                              and start a clock
  ["within", TEXT, SECONDS]   TEXT shows within SECONDS of the last intr
  ["present", MARKER, SECONDS] a process whose command line holds MARKER
                              runs, within SECONDS
  ["gone", MARKER, SECONDS]   no such process is left, within SECONDS
  ["eof"]                     type Ctrl-D
  ["exit", SECONDS]           the program ends within SECONDS
Each step prints one line: "ok STEP" or "FAIL STEP: why", then the
program's end as "status exited N" or "status signal N". LOG gets all the
terminal showed. The program is killed at the end if still running.
"""
import json
import os
import pty
import select
import signal
import sys
import time


def procs_with(marker):
    me = os.getpid()
    found = []
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == me:
            continue
        try:
            with open("/proc/%s/cmdline" % d, "rb") as f:
                cmd = f.read()
            with open("/proc/%s/stat" % d) as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmd and state != "Z":
            found.append(int(d))
    return found


def main():
    steps = json.loads(open(sys.argv[1]).read())
    log = open(sys.argv[2], "wb")
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(sys.argv[3], sys.argv[3:])
    seen = b""
    pos = 0
    status = None
    t_intr = time.monotonic()

    def pump(timeout):
        nonlocal seen, status
        r, _, _ = select.select([fd], [], [], timeout)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            seen += data
            log.write(data)
            log.flush()
            return bool(data)
        return True

    def wait_text(text, until):
        nonlocal pos
        t = text.encode()
        while True:
            i = seen.find(t, pos)
            if i >= 0:
                pos = i + len(t)
                return True
            left = until - time.monotonic()
            if left <= 0 or not pump(min(left, 0.05)):
                return False

    for st in steps:
        name = json.dumps(st)
        ok, why = True, ""
        if st[0] == "wait":
            ok = wait_text(st[1], time.monotonic() + st[2])
            why = "not seen"
        elif st[0] == "send":
            os.write(fd, st[1].encode())
        elif st[0] == "eof":
            os.write(fd, b"\x04")
        elif st[0] == "intr":
            t_intr = time.monotonic()
            os.write(fd, b"\x03")
        elif st[0] == "within":
            ok = wait_text(st[1], t_intr + st[2])
            why = "not seen within %.2f s of Ctrl-C" % st[2]
        elif st[0] in ("present", "gone"):
            until = time.monotonic() + st[2]
            while True:
                have = procs_with(st[1])
                ok = bool(have) if st[0] == "present" else not have
                if ok or time.monotonic() > until:
                    break
                pump(0.05)
            why = "processes: %s" % procs_with(st[1])
        elif st[0] == "exit":
            until = time.monotonic() + st[1]
            while status is None and time.monotonic() < until:
                pump(0.05)
                p, s = os.waitpid(pid, os.WNOHANG)
                if p == pid:
                    status = s
            ok = status is not None
            why = "still running"
        print(("ok %s" if ok else "FAIL %s: " + why) % name, flush=True)
    if status is None:
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    while pump(0.05) and select.select([fd], [], [], 0)[0]:
        pass
    if os.WIFSIGNALED(status):
        print("status signal %d" % os.WTERMSIG(status))
    else:
        print("status exited %d" % os.WEXITSTATUS(status))


main()

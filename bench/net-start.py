#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What --allow-host costs at start and stop (issue 38, acceptance 6).

net-start.py --kjail KJAIL [--rounds N] [--out FILE]

Times, interleaved (one run of each per round, the order turned every
round), from a scratch workspace with an empty config:
  kjail -- /bin/true                              the host's network
  kjail -n -- /bin/true                           own namespace, kjail's proxy with no rule
  kjail --allow-host example.org -- /bin/true     the proxy with a rule
  the same with HTTPS_PROXY naming an upstream    (never connected to)
and prints a Markdown table: each one's median and interquartile range,
the load average, and the median of the paired differences
--allow-host minus -n (acceptance 6: within 20 ms). Interleaving is what
makes a difference measurable on a shared, loaded machine: a round's two
runs see the same load.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kjail", required=True)
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--out")
    a = ap.parse_args()
    base = os.path.dirname(os.path.abspath(a.out)) if a.out else os.getcwd()
    with tempfile.TemporaryDirectory(prefix="net-start.", dir=base) as d:
        ini = os.path.join(d, "empty.ini")
        with open(ini, "w") as f:
            f.write("[sandbox]\ncache = false\n")
        ws = os.path.join(d, "ws")
        os.mkdir(ws)
        k = [a.kjail, "--config", ini]
        cmds = [
            ("`kjail -- /bin/true` (host network)", {}, k + ["--", "/bin/true"]),
            ("`kjail -n -- /bin/true`", {}, k + ["-n", "--", "/bin/true"]),
            ("`kjail --allow-host example.org -- /bin/true`", {},
             k + ["--allow-host", "example.org", "--", "/bin/true"]),
            ("the same with `HTTPS_PROXY=http://u:p@127.0.0.1:9` (upstream)",
             {"HTTPS_PROXY": "http://u:p@127.0.0.1:9"},
             k + ["--allow-host", "example.org", "--", "/bin/true"]),
        ]
        env0 = {x: y for x, y in os.environ.items() if not x.lower().endswith("_proxy")}

        failed = []

        def run(extra, argv):
            s = time.perf_counter()
            p = subprocess.run(argv, cwd=ws, env=dict(env0, **extra), stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            ms = (time.perf_counter() - s) * 1000
            if p.returncode != 0:
                failed.append("exit %d: %s" % (p.returncode,
                                               p.stderr.decode(errors="replace").strip()))
                return None
            return ms

        for _, e, c in cmds:
            run(e, c)
        times = [[] for _ in cmds]
        load0 = os.getloadavg()
        for r in range(a.rounds):
            order = range(len(cmds)) if r % 2 == 0 else reversed(range(len(cmds)))
            got = {i: run(cmds[i][1], cmds[i][2]) for i in order}
            if None not in got.values():  # a round counts whole or not at all
                for i, t in got.items():
                    times[i].append(t)
        load1 = os.getloadavg()
    q = lambda v: statistics.quantiles(v, n=4)
    out = ["| command | median ms | interquartile ms | runs |", "|---|---:|---:|---:|"]
    for (name, _, _), t in zip(cmds, times):
        out.append("| %s | %.1f | %.1f–%.1f | %d |" % (name, statistics.median(t), q(t)[0],
                                                        q(t)[2], len(t)))
    d = [b - a_ for a_, b in zip(times[1], times[2])]
    verdict = "PASS" if statistics.median(d) <= 20 else "FAIL"
    out.append("| `--allow-host` minus `-n`, paired by round | %+.1f | %+.1f..%+.1f | %d | "
               % (statistics.median(d), q(d)[0], q(d)[2], len(d)))
    out.append("")
    out.append("%d CPUs; load average %.2f %.2f %.2f at the start, %.2f at the end; "
               "%s (<= 20 ms)" % (os.cpu_count(), *load0, load1[0], verdict))
    if failed:
        out.append("")
        out.append("%d runs failed, their rounds left out; the first: %s" % (len(failed),
                                                                            failed[0]))
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()

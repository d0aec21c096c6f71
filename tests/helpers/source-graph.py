#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The project's source files as nm sees their objects (for source-graph.test).

  source-graph.py loops SRCDIR BUILDDIR OBJECT...
      prints each loop between source files, one a line:
      "a.c -> b.c -> a.c (via sym_a_uses_from_b; sym_b_uses_from_a)"
  source-graph.py names SRCDIR BUILDDIR LIBNAMES OBJECT...
      prints "file: name" for each function (global T or static t) an
      object defines under a name listed in the file LIBNAMES
  source-graph.py includes SRCDIR BUILDDIR OBJECT...
      prints each loop of includes between source files, one a line:
      a.c -> b.c when a.c includes (#include "...") a header that declares
      a function b.c defines; "a.c -> b.c -> a.c (via h.h; g.h)". Files
      that include each other's declarations in a circle are one file
      split in name only, even where no call closes the loop yet.
  source-graph.py private SRCDIR FILE...
      prints "file: includes DIR/internal.h, private to DIR" for each FILE
      (a source or header) that includes a folder's internal.h from
      outside that folder
  An OBJECT @FILE stands for the objects FILE lists, one a line.

Both exit 1 when they print anything, 2 on an error (an object nm cannot
read, no objects), 0 otherwise. OBJECTs lie under BUILDDIR; each is mapped
to its source (path relative to BUILDDIR, looked for under SRCDIR, then
BUILDDIR for generated sources), so the two objects automake makes of a
source built into two programs (src/common/util.o and
src/common/kjail_entry-util.o) count as one file. An object whose source is
gone (left over from an older tree) is skipped with a note on stderr.
"""
import os
import re
import subprocess
import sys
from collections import deque

NM = os.environ.get("NM", "nm")
# automake's "per-target" object name: <canonical target name>-<source>.o
PREFIXED = re.compile(r"^[A-Za-z0-9_]+-(.+)$")
# defined by the compiler or a sanitizer's instrumentation, not by our code
COMPILER = re.compile(r"^(_start|main|_init|_fini|__(asan|ubsan|odr_asan|lsan|sanitizer|gcov|llvm)\w*|___asan\w*)$")


def die(msg):
    print(f"source-graph: {msg}", file=sys.stderr)
    sys.exit(2)


def source_of(obj, srcdir, builddir):
    """The source file OBJ was compiled from, relative to the top, or None."""
    rel = os.path.relpath(obj, builddir)
    d, base = os.path.split(rel)
    stem = base[:-2] if base.endswith(".o") else base
    m = PREFIXED.match(stem)
    for name in ([m.group(1)] if m else []) + [stem]:
        for top in (srcdir, builddir):
            if os.path.isfile(os.path.join(top, d, name + ".c")):
                return os.path.join(d, name + ".c")
    return None


def symbols(obj):
    """[(type, name)] of OBJ as nm prints them."""
    out = subprocess.run([NM, "--no-sort", obj], capture_output=True, text=True)
    if out.returncode != 0:
        die(f"{NM} {obj}: {out.stderr.strip()}")
    syms = []
    for line in out.stdout.splitlines():
        f = line.split()
        if len(f) >= 2 and len(f[-2]) == 1:
            syms.append((f[-2], f[-1]))
    return syms


def load(srcdir, builddir, args):
    """{source: [(type, name)]}, the symbols of all its objects together.
    An argument @FILE stands for the objects FILE lists, one a line."""
    objects = []
    for arg in args:
        if arg.startswith("@"):
            with open(arg[1:]) as f:
                objects += [line.rstrip("\n") for line in f if line.strip()]
        else:
            objects.append(arg)
    files = {}
    for obj in objects:
        src = source_of(obj, srcdir, builddir)
        if src is None:
            print(f"source-graph: {obj}: no source for it, skipped", file=sys.stderr)
            continue
        files.setdefault(src, []).extend(symbols(obj))
    if not files:
        die("no objects to check")
    return files


def edges_of(files):
    """{a: {b: sorted symbols a uses that b defines}} for distinct a, b.
    The C run time's and the compiler's names (_start, main, __asan_...)
    make no edge: they tie no two of our files together."""
    definers = {}
    for src, syms in files.items():
        for t, name in syms:
            if t != "U" and t.isupper() and not COMPILER.match(name):
                definers.setdefault(name, set()).add(src)
    edges = {}
    for a, syms in files.items():
        for t, name in syms:
            if t == "U":
                for b in definers.get(name, ()):
                    if b != a:
                        edges.setdefault(a, {}).setdefault(b, set()).add(name)
    return {a: {b: sorted(s) for b, s in out.items()} for a, out in edges.items()}


def shortest_path(edges, start, goal):
    """The shortest path start .. goal as a list of files, or None (BFS)."""
    prev = {start: None}
    queue = deque([start])
    while queue:
        n = queue.popleft()
        if n == goal:
            path = []
            while n is not None:
                path.append(n)
                n = prev[n]
            return path[::-1]
        for m in sorted(edges.get(n, {})):
            if m not in prev:
                prev[m] = n
                queue.append(m)
    return None


def loops(files, edges=None):
    """For every edge a -> b on a loop, the shortest loop through it; each
    loop once, starting at its smallest file. So every edge of every loop
    is printed at least once, however many loops the files make."""
    if edges is None:
        edges = edges_of(files)
    found = {}
    for a in sorted(edges):
        for b in sorted(edges[a]):
            back = shortest_path(edges, b, a)
            if back is None:
                continue
            cycle = [a] + back  # a, b, ..., a
            ring = cycle[:-1]
            i = ring.index(min(ring))
            ring = ring[i:] + ring[:i]
            found[tuple(ring)] = ring
    lines = []
    for ring in sorted(found.values()):
        hops = list(zip(ring, ring[1:] + ring[:1]))
        via = "; ".join(", ".join(edges[x][y]) for x, y in hops)
        lines.append(" -> ".join(ring + ring[:1]) + f" (via {via})")
    return lines


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
IDENT_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
# where a quoted include is looked for, after the including file's folder
INCLUDE_DIRS = ("src/common", "src/kjail", "src/kli", "src")


def resolve(srcdir, including, name):
    """The header a quoted #include names, relative to the top, or None
    (config.h and other generated headers are not ours to judge)."""
    for d in (os.path.dirname(including),) + INCLUDE_DIRS:
        cand = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(os.path.join(srcdir, cand)):
            return cand
    return None


def included(srcdir, rel):
    """The headers FILE includes directly, resolved."""
    path = os.path.join(srcdir, rel)
    if not os.path.isfile(path):
        return []  # generated in the build tree (seccomp-bpf.c): includes none of ours
    try:
        with open(path, errors="replace") as f:
            text = f.read()
    except OSError as e:
        die(f"{rel}: {e.strerror}")
    out = []
    for name in INCLUDE.findall(text):
        h = resolve(srcdir, rel, name)
        if h is not None:
            out.append(h)
    return out


def include_edges(srcdir, files):
    """{a: {b: [headers]}}: a includes a header declaring what b defines."""
    definers = {}
    for src, syms in files.items():
        for t, name in syms:
            if t == "T" and not COMPILER.match(name):
                definers.setdefault(name, set()).add(src)
    owners = {}
    edges = {}
    for a in files:
        for h in included(srcdir, a):
            if h not in owners:
                with open(os.path.join(srcdir, h), errors="replace") as f:
                    text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
                owners[h] = set()
                for name in IDENT_CALL.findall(text):
                    owners[h] |= definers.get(name, set())
            for b in owners[h]:
                if b != a:
                    edges.setdefault(a, {}).setdefault(b, set()).add(h)
    return {a: {b: sorted(s) for b, s in out.items()} for a, out in edges.items()}


def private(srcdir, rels):
    lines = []
    for rel in rels:
        for h in included(srcdir, rel):
            if os.path.basename(h) == "internal.h" and os.path.dirname(h) != os.path.dirname(rel):
                d = os.path.dirname(h)
                lines.append(f"{rel}: includes {h}, private to {d}")
    return sorted(set(lines))


def names(files, libnames):
    lines = set()
    for src, syms in files.items():
        for t, name in syms:
            if t not in "Tt" or COMPILER.match(name):
                continue
            base = name.split(".")[0]  # execvp.isra.0 is still our execvp
            if base in libnames:
                lines.add(f"{src}: {base}")
    return sorted(lines)


def main(argv):
    if len(argv) >= 4 and argv[1] == "loops":
        out = loops(load(argv[2], argv[3], argv[4:]))
    elif len(argv) >= 4 and argv[1] == "includes":
        files = load(argv[2], argv[3], argv[4:])
        out = loops(files, include_edges(argv[2], files))
    elif len(argv) >= 3 and argv[1] == "private":
        rels = []
        for arg in argv[3:]:
            if arg.startswith("@"):
                with open(arg[1:]) as f:
                    rels += [line.rstrip("\n") for line in f if line.strip()]
            else:
                rels.append(arg)
        if not rels:
            die("no files to check")
        out = private(argv[2], rels)
    elif len(argv) >= 5 and argv[1] == "names":
        with open(argv[4]) as f:
            libnames = set(f.read().split())
        if not libnames:
            die(f"{argv[4]}: no names")
        out = names(load(argv[2], argv[3], argv[5:]), libnames)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for line in out:
        print(line)
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

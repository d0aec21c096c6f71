# SPDX-License-Identifier: MIT
"""differential.py CFGFILTER-RUN NPM-INI SEED N

A differential fuzz run of kjail's config filters against their
consumers' own readers: N random edits (quotes, escapes, blanks, line
breaks, comment characters, Unicode spaces) of seed files that hold the
word SECRET as a credential; for each edit the consumer reads as a
credential, the filter's copy (tests/helpers/cfgfilter-run) must read as
none. A credential is what the filter's rule calls one, judged on what the
consumer decoded: a key matching the table's patterns (cfgfilter-run
--patterns), or a URL with a password or an http(s) URL with a user.
Consumers: npm's ini module (skipped without node or NPM-INI "-"),
Python's configparser, PyYAML, git config --list. Prints each leak, then
"leaks: N"; exit 1 when there was one."""
import configparser
import fnmatch
import io
import json
import os
import random
import re
import subprocess
import sys
import tempfile

import yaml

RUN, NPM_INI, SEED, N = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
URL = re.compile(r'([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)@')


def patterns(fmt):
    out = subprocess.run([RUN, '--patterns', fmt], capture_output=True, check=True)
    return out.stdout.decode().split()


def url_secret(v):
    for m in URL.finditer(v):
        if 'SECRET' in m.group(2) and (':' in m.group(2) or
                                       m.group(1).lower() in ('http', 'https')):
            return True
    return False


def walk(o, path=''):
    if isinstance(o, dict):
        for k, v in o.items():
            yield from walk(v, f'{path}.{k}' if path else str(k))
    elif isinstance(o, list):
        for v in o:
            yield from walk(v, path)
    else:
        yield path, str(o)


def npm(b):
    p = subprocess.run(['node', '-e', 'const ini = require(process.argv[1]); let s = "";'
                        'process.stdin.on("data", d => s += d);'
                        'process.stdin.on("end", () => console.log(JSON.stringify(ini.parse(s))))',
                        NPM_INI], input=b, capture_output=True)
    try:
        # npm reads the top level; a key is the last part of the path
        return [(k.rsplit('.', 1)[-1], v) for k, v in walk(json.loads(p.stdout))]
    except ValueError:
        return []


def cp(b):
    c = configparser.RawConfigParser()
    try:
        c.read_file(io.StringIO(b.decode('utf-8', 'replace'), newline=None))
    except configparser.Error:
        return []
    return [(k, v) for s in c.sections() for k, v in c.items(s)]


def ym(b):
    try:
        return list(walk(yaml.safe_load(b)))
    except yaml.YAMLError:
        return []


def git(b):
    with tempfile.NamedTemporaryFile(dir='.', suffix='.cfg') as f:
        f.write(b)
        f.flush()
        p = subprocess.run(['git', 'config', '--file', f.name, '--list'], capture_output=True)
    return [tuple(l.split('=', 1)) if '=' in l else (l, '')
            for l in p.stdout.decode('utf-8', 'replace').splitlines()]


SEEDS = {
    'npmrc': (npm, [b'//r/:_authToken=SECRET\n', b'_auth = "SECRET"\nx=1\n',
                    b'registry=https://u:SECRET@r/\n']),
    'ini': (cp, [b'[pypi]\npassword = SECRET\n', b'[g]\nindex-url = https://u:SECRET@h/\n']),
    'yaml': (ym, [b'npmAuthToken: SECRET\n', b'npmRegistryServer: "https://u:SECRET@r"\n',
                  b'npmScopes:\n  a:\n    npmAuthToken: SECRET\n']),
    'gitconfig': (git, [b'[imap]\n\tpass = SECRET\n', b'[remote "o"]\n\turl = https://u:SECRET@h/r\n',
                        b'[http]\n\textraHeader = SECRET\n']),
}
if NPM_INI == '-':
    del SEEDS['npmrc']
PIECES = [b'"', b"'", b'\\', b'\r', b'\n', b' ', b'\t', b';', b'#', b'=', b':', b'[', b']',
          b'\xc2\xa0', b'\\x40', b'\\u0040', b'""', b'\\\n', b'\x0c', b'-', b'@', b'{', b'}']
PAT = {f: patterns(f) for f in SEEDS}


def leaks(fmt, pairs):
    for k, v in pairs:
        if 'SECRET' not in v:
            continue
        if url_secret(v) or any(fnmatch.fnmatch(k.lower(), p) for p in PAT[fmt]):
            return True
    return False


random.seed(SEED)
found = 0
for _ in range(N):
    fmt = random.choice(sorted(SEEDS))
    reader, seeds = SEEDS[fmt]
    d = bytearray(random.choice(seeds))
    for _ in range(random.randint(1, 4)):
        at = random.randint(0, len(d))
        if random.random() < 0.3 and len(d) > 1:
            del d[at:at + 1]
        else:
            d[at:at] = random.choice(PIECES)
    d = bytes(d)
    if not leaks(fmt, reader(d)):
        continue
    p = subprocess.run([RUN, fmt], input=d, capture_output=True)
    out = p.stdout if p.returncode == 0 else b''
    if leaks(fmt, reader(out)):
        found += 1
        print(f'leak: {fmt}: {d!r} -> {out!r}')
print(f'leaks: {found}')
sys.exit(1 if found else 0)

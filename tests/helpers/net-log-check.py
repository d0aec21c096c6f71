#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""net-log-check.py SCHEMA LOG: every line of kjail's proxy log (kept by
--net-log) validates alone against doc/kjail-net-log.schema.json, the
summary (when there is one) is the last line and its counts add up.
With python3-jsonschema the schema is applied whole; without it, a small
checker applies the parts the log's shape rests on (each kind's required
members and no others, the verdicts, the counts). Prints "N lines
(KIND)"; exit 1 with one line per fault."""
import json
import sys


def small_check(schema, line):
    """The schema's required/additionalProperties/enum/const of the two
    kinds, without jsonschema."""
    defs = schema["$defs"]
    kind = defs["summary"] if line.get("type") == "summary" else defs["connection"]
    props = kind["properties"]
    faults = []
    missing = [k for k in kind["required"] if k not in line]
    extra = [k for k in line if k not in props]
    if missing:
        faults.append("missing " + ", ".join(missing))
    if extra:
        faults.append("unknown " + ", ".join(extra))
    for k, p in props.items():
        if k not in line:
            continue
        v = line[k]
        if "enum" in p and v not in p["enum"]:
            faults.append(f"{k}: {v!r} not one of {p['enum']}")
        if "const" in p and v != p["const"]:
            faults.append(f"{k}: {v!r} is not {p['const']!r}")
        if p.get("$ref") == "#/$defs/count" and (not isinstance(v, int) or v < 0):
            faults.append(f"{k}: not a count")
    return faults


def main():
    schema = json.load(open(sys.argv[1]))
    try:
        import jsonschema
        validator = jsonschema.Draft202012Validator(schema)
        check = lambda o: [e.message for e in validator.iter_errors(o)]
        how = "jsonschema"
    except ImportError:
        check = lambda o: small_check(schema, o)
        how = "small checker"
    faults = []
    lines = open(sys.argv[2], encoding="utf-8").read().splitlines()
    if not lines:
        faults.append("the log is empty")
    for n, text in enumerate(lines, 1):
        try:
            o = json.loads(text)
        except ValueError as e:
            faults.append(f"line {n}: not JSON: {e}")
            continue
        for f in check(o):
            faults.append(f"line {n}: {f}")
        if isinstance(o, dict) and o.get("type") == "summary":
            if n != len(lines):
                faults.append(f"line {n}: a summary before the last line")
            for what in ("refused", "failed"):
                top = sum(t.get("count", 0) for t in o.get(what + "_top", []))
                bad = o.get("bad_requests", 0) if what == "failed" else 0
                if top + o.get(what + "_other", 0) + bad != o.get(what):
                    faults.append(f"line {n}: {what}_top and {what}_other do not add up to {what}")
    for f in faults:
        print(f)
    if not faults:
        print(f"{len(lines)} lines ({how})")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())

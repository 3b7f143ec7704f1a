#!/usr/bin/env python3
"""Check scenario folders against their expected findings.

Usage: scripts/check_scenarios.py ARBITER_BINARY DIR...

Each DIR (or any folder below it) holding case.json and expected.json is
audited with `ARBITER_BINARY audit --format json DIR` (plus --syzygy
$ARBITER_SYZYGY when that is set). The findings must be exactly those in
expected.json: the same multiset of (code, file, line), where file is the
base name of the finding's first evidence and line its line (null when the
evidence has no span). Prints one line per difference and a last line
`scenarios: N passed, M failed`; exits 1 if any failed.
"""
import json, os, subprocess, sys
from collections import Counter

def key(f):
    ev = f["evidence"][0] if f["evidence"] else {}
    span = ev.get("span")
    return (f["code"], os.path.basename(ev.get("path", "")), span["line"] if span else None)

def main():
    binary, roots = sys.argv[1], sys.argv[2:]
    cases = []
    for r in roots:
        for d, _, files in os.walk(r):
            if "case.json" in files and "expected.json" in files:
                cases.append(d)
    cases.sort()
    passed = failed = 0
    for d in cases:
        args = [binary, "audit", "--format", "json", d]
        if os.environ.get("ARBITER_SYZYGY"):
            args[2:2] = ["--syzygy", os.environ["ARBITER_SYZYGY"]]
        out = subprocess.run(args, capture_output=True, text=True)
        if out.returncode == 2:
            print(f"FAIL {d}: arbiter could not run: {out.stderr.strip()}")
            failed += 1
            continue
        games = [json.loads(l) for l in out.stdout.splitlines() if json.loads(l)["type"] == "game"]
        got = Counter(key(f) for g in games for f in g["findings"])
        exp = json.load(open(os.path.join(d, "expected.json")))
        want = Counter((e["code"], e["file"], e.get("line")) for e in exp["findings"])
        if got == want:
            passed += 1
        else:
            failed += 1
            for k in sorted((want - got).elements(), key=str):
                print(f"FAIL {d}: expected but missing: {k}")
            for k in sorted((got - want).elements(), key=str):
                print(f"FAIL {d}: found but not expected: {k}")
    print(f"scenarios: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)

main()

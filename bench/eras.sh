#!/bin/sh
# Findings per code per file, under one ruleset (file or folder of rulesets).
#   bench/eras.sh RULES OUTDIR FILE...
# Writes OUTDIR/<file>.jsonl (the audit's JSON) and prints one line per file:
#   file  games  ruleset  terminations-under-fit  counters-under-fit  code=count ...
# e.g. bench/eras.sh rulesets/tcec-s15.rules /tmp/before ../shared/corpora/tcec-other/*.pgn
set -e
bin=${ARBITER:-target/release/arbiter}
syzygy=${SYZYGY:-../shared/syzygy}
rules=$1; out=$2; shift 2
mkdir -p "$out"
for f in "$@"; do
  b=$(basename "$f" .pgn)
  "$bin" audit --fit --syzygy "$syzygy" --rules "$rules" --format json "$f" > "$out/$b.jsonl" 2>"$out/$b.err" || true
done
python3 - "$out" "$@" <<'PY'
import json, os, re, sys
out = sys.argv[1]
for f in sys.argv[2:]:
    b = os.path.basename(f)[:-4]
    lines = [json.loads(l) for l in open(os.path.join(out, b + ".jsonl")) if l.strip()]
    if not lines:
        print(f"{b}\t-\tERROR"); continue
    s = lines[-1]
    rs = "-"
    for i in s.get("inputs", []):
        r = i.get("ruleset")
        if isinstance(r, dict):
            rs = os.path.basename(r.get("path") or r.get("id") or "?")
        elif r:
            rs = str(r)
    if rs == "-":
        rs = os.path.basename(s["ruleset"]["path"]) if s.get("ruleset") else "-"
    term = cnt = "text"
    for g in lines[:-1]:
        for x in g.get("findings", []):
            if x["code"] == "rules-fit":
                m = re.search(r"under the fit: counters (\d+) of (\d+), terminations (\d+) of (\d+)", x["message"])
                if m:
                    cnt = f"{m[1]}/{m[2]}"; term = f"{m[3]}/{m[4]}"
    codes = {k: v for k, v in sorted(s["findings_by_code"].items())
             if k not in ("rules-fit",)}
    print(b, s["games"], rs, "T=" + term, "C=" + cnt,
          " ".join(f"{k}={v}" for k, v in codes.items()), sep="\t")
PY

#!/bin/sh
# Findings per code per file, under one ruleset (file or folder of rulesets).
#   bench/eras.sh RULES OUTDIR FILE...
# Writes OUTDIR/<file>.jsonl (the audit's JSON) and prints one line per file:
#   file  games  ruleset  T=terminations C=counters (as the fit reports them
#   agreeing; "text" where the fit kept the text's values)  E=endings the
#   audit reproduces (ply and text) of the games it could decide  code=count ...
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
RULE_WORDS = ("draw rule", "win rule", "syzygy", "tb position", "repetition", "fifty", "stalemate", "insufficient", "mates")
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
    agree = decid = 0
    for g in lines[:-1]:
        if g.get("type") != "game":
            continue
        t = g.get("termination") or {}
        rec = (t.get("recorded") or {}).get("details")
        comp = t.get("computed")
        if any(x["code"] == "rule-undecided" for x in g.get("findings", [])):
            continue
        # a rule ending: one the rules computed, or a recorded ending that
        # some adjudication of the rules would write (not a resignation,
        # a disconnection or a loss on time, which no rule computes)
        # (a record that names no ending is not counted: nothing to compare)
        if rec is None or (comp is None and not any(w in rec.lower() for w in RULE_WORDS)):
            continue
        decid += 1
        if comp and comp.get("records") == rec and comp.get("ply") == g.get("plies"):
            agree += 1
    codes = {k: v for k, v in sorted(s["findings_by_code"].items())
             if k not in ("rules-fit",)}
    print(b, s["games"], rs, "T=" + term, "C=" + cnt, f"E={agree}/{decid}",
          " ".join(f"{k}={v}" for k, v in codes.items()), sep="\t")
PY

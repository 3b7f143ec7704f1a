#!/usr/bin/env python3
"""Compare two bench/eras.sh outputs (before, after): a Markdown row per file.

    python3 bench/eras-compare.py before.tsv after.tsv
Findings a game count every finding but rules-fit, rules-fit-undescribed and
rule-undecided (those say how the file was judged, not what happened)."""
import sys

SKIP = {"rules-fit", "rules-fit-undescribed", "rule-undecided", "variant-is-opening"}

def load(p):
    rows = {}
    for line in open(p):
        f = line.rstrip("\n").split("\t")
        if len(f) < 5:
            continue
        codes = {}
        for kv in (f[6].split() if len(f) > 6 else []):
            k, v = kv.split("=")
            codes[k] = int(v)
        rows[f[0]] = dict(games=int(f[1]), rules=f[2], T=f[3][2:], C=f[4][2:], E=f[5][2:], codes=codes)
    return rows

def per_game(r):
    return sum(v for k, v in r["codes"].items() if k not in SKIP) / max(r["games"], 1)

def top(r, n=3):
    c = sorted(((v, k) for k, v in r["codes"].items() if k not in SKIP), reverse=True)[:n]
    return ", ".join(f"{k} {v}" for v, k in c) or "-"

b, a = load(sys.argv[1]), load(sys.argv[2])
print("| file | games | ruleset chosen | endings reproduced (before → after) | findings a game (before → after) | what remains (after) |")
print("|---|---|---|---|---|---|")
for name in a:
    if name not in b:
        continue
    x, y = b[name], a[name]
    print(f"| {name} | {y['games']} | {y['rules']} | {x['E']} → {y['E']} | {per_game(x):.1f} → {per_game(y):.1f} | {top(y)} |")

print()
print("| era (ruleset chosen) | files | games | endings reproduced before | after | findings a game before | after |")
print("|---|---|---|---|---|---|---|")
eras = {}
for name, y in a.items():
    if name in b:
        eras.setdefault(y["rules"], []).append(name)
def frac(rows, key):
    n = d = 0
    for r in rows:
        x, z = r[key].split("/")
        n += int(x); d += int(z)
    return f"{n}/{d} ({100 * n / d:.1f}%)" if d else "-"
for era in sorted(eras):
    names = eras[era]
    xs = [b[n] for n in names]; ys = [a[n] for n in names]
    games = sum(r["games"] for r in ys)
    fb = sum(per_game(r) * r["games"] for r in xs) / games
    fa = sum(per_game(r) * r["games"] for r in ys) / games
    print(f"| {era} | {len(names)} | {games} | {frac(xs, 'E')} | {frac(ys, 'E')} | {fb:.1f} | {fa:.1f} |")

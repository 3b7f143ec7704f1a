#!/usr/bin/env python3
"""How the TCEC software counted the draw rule at a move recorded without
a search (d=1 or 0, n=0, not book), read from the records alone.

For each such move made while the draw count was running (the previous
ply's Rd between 1 and the rule's plies), it prints, per file, whether the
count went on (Rd one less) or restarted (Rd negative), beside whether the
mover's last evaluation before that move (its last move with a search)
was inside the draw band. docs/tcec-eras.md ("A move without a search,
scored") quotes its output.

Usage: bench/searchless-eval.py FILE.pgn...
The band: 0.25 for Seasons 24 on and Cups 11 on, 0.08 for Seasons 6 to 17
and Season 15's files, else 0.15 (the fitted values of docs/tcec-eras.md).
"""
import re
import sys


def band(path):
    if re.search(r"Season_2[4-9]|Cup_1[1-9]", path):
        return 0.25
    if re.search(r"Season_(1[0-7]|[6-9])_|s15", path):
        return 0.08
    return 0.15


def main(paths):
    if not paths:
        print(__doc__.strip())
        return 2
    for path in paths:
        text = open(path, encoding="utf-8", errors="replace").read()
        limit = band(path)
        stats = {}
        for game in text.split("[Event ")[1:]:
            last = [None, None]
            k = 0
            prev = None
            for c in re.findall(r"\{([^}]*)\}", game):
                items = [x.strip() for x in c.split(",")]
                d = dict(i.split("=", 1) for i in items if "=" in i)
                if "Rd" not in d or "book" in items:
                    continue
                side = k % 2
                k += 1
                try:
                    rd = int(d["Rd"])
                except ValueError:
                    continue
                searchless = d.get("d") in ("0", "1") and d.get("n") == "0"
                if searchless and prev is not None and prev > 0:
                    try:
                        inside = last[side] is not None and abs(float(last[side])) <= limit
                    except ValueError:
                        inside = False
                    went = "restarted" if rd < 0 else ("went on" if rd == prev - 1 else f"other ({prev} then {rd})")
                    key = ("last eval in band" if inside else "last eval out of band", went)
                    stats[key] = stats.get(key, 0) + 1
                if not searchless:
                    last[side] = d.get("wv")
                prev = rd
        for (where, went), n in sorted(stats.items()):
            print(f"{path}\t{limit}\t{where}\t{went}\t{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

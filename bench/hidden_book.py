#!/usr/bin/env python3
"""Planted hidden books: measure arbiter's hidden_book detector on real engines.

Usage: bench/hidden_book.py ARBITER_BINARY OUT_DIR [--depth N] [--plies N]

For each engine pair and each of the ten official openings in
bench/hidden-book/openings.pgn (the first 8 plies of ten Season 15
Division 1 games), it records with `arbiter record`:

1. a clean game: the engine (White) against the opponent, both searching to
   a fixed depth after the official opening;
2. a planted game: the same engine behind Debian's PolyGlot adapter with an
   opening book (`-pg Book=true`, never announced over UCI), built with
   `polyglot make-book` from the clean games' next 16 plies: the hidden
   lines the engine "prepared". The opponent searches to the same fixed
   depth, so it tends to follow the same line and the book keeps answering.

The truth comes from the planted engine's own log: a move PolyGlot answered
from its book is preceded by `info depth 1 time 0 nodes 0` (its book
signature) instead of a search. Then `arbiter hidden-book` screens every game
with its engine log, and the script prints:

- per planted game, the book moves (truth) and the flagged moves;
- for min_run 4 and 6: recall (book moves flagged / book moves; games with
  a flag / games whose book answered at least min_run moves in a row);
- false positives (flagged moves and games among the clean games, and
  flagged non-book moves in the planted games).

Everything is rerun from scratch; nothing is cached between runs. Needs
Debian's stockfish, toga2, glaurung and polyglot (apt-get install stockfish
toga2 glaurung polyglot).
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OPENINGS = os.path.join(HERE, "hidden-book", "openings.pgn")
PAIRS = [
    ("stockfish", "/usr/games/stockfish", "/usr/games/glaurung"),
    ("toga2", "/usr/games/toga2", "/usr/games/glaurung"),
]
MIN_RUNS = (4, 6)


def run(args, **kw):
    r = subprocess.run(args, capture_output=True, text=True, **kw)
    if r.returncode not in (0, 1):
        sys.exit(f"{' '.join(args)}: exit {r.returncode}\n{r.stderr}")
    return r


def split_openings(out):
    games = re.split(r"\n(?=\[Event )", open(OPENINGS).read().strip())
    paths = []
    for i, g in enumerate(games, 1):
        p = os.path.join(out, f"opening-{i}.pgn")
        open(p, "w").write(g.strip() + "\n")
        paths.append(p)
    return paths


def san_moves(pgn_text):
    body = pgn_text.split("\n\n", 1)[1]
    body = re.sub(r"\{[^}]*\}", " ", body)
    toks = [t for t in body.split() if not re.match(r"^\d+\.+$", t)]
    return [t for t in toks if t not in ("1-0", "0-1", "1/2-1/2", "*")]


def book_plies(engine_log, first_ply):
    """Plies the planted engine answered from its book (its log's signature)."""
    plies, k, last_info = [], 0, None
    for line in open(engine_log):
        m = re.match(r"^\S+ ([<>!]) (.*)$", line.rstrip("\n"))
        if not m:
            continue
        d, text = m.groups()
        if d == ">" and text.startswith("go "):
            last_info = None
        elif d == "<" and text.startswith("info "):
            last_info = text
        elif d == "<" and text.startswith("bestmove"):
            if last_info is not None and re.search(r"\bdepth 1 time 0 nodes 0\b", last_info):
                plies.append(first_ply + 2 * k)
            k += 1
    return plies


def screen(binary, folder, min_run):
    r = run([binary, "hidden-book", "--json", "--min-run", str(min_run),
             os.path.join(folder, "game.pgn"),
             "--engine-log", os.path.join(folder, "engine.log")])
    d = json.loads(r.stdout)
    return [f["ply"] for f in d["flagged"]], d


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    depth = "9"
    if "--depth" in sys.argv:
        depth = sys.argv[sys.argv.index("--depth") + 1]
    os.makedirs(out, exist_ok=True)
    openings = split_openings(out)
    games = []  # (name, i, planted folder, clean folder, truth)
    for name, engine, opponent in PAIRS:
        lines = []
        for i, op in enumerate(openings, 1):
            d = os.path.join(out, "clean", f"{name}-{i}")
            run([binary, "record", "--engine", engine, "--opponent", opponent,
                 "--side", "white", "--depth", depth, "--opening", op,
                 "--max-plies", "48", "--round", str(i),
                 "--event", "TCEC Season 15 - Division 4a", "--out", d])
            moves = san_moves(open(os.path.join(d, "game.pgn")).read())
            lines.append(moves[:8 + 16])
        book_pgn = os.path.join(out, f"book-{name}.pgn")
        with open(book_pgn, "w") as fh:
            for j, mv in enumerate(lines, 1):
                mt = " ".join((f"{k // 2 + 1}. " if k % 2 == 0 else "") + m for k, m in enumerate(mv))
                fh.write(f'[Event "hidden lines"]\n[Round "{j}"]\n[Result "*"]\n\n{mt} *\n\n')
        book = os.path.join(out, f"book-{name}.bin")
        run(["/usr/games/polyglot", "make-book", "-pgn", book_pgn, "-bin", book,
             "-min-game", "1", "-only-white"])
        planted_cmd = (f"/usr/games/polyglot -noini -ec {engine} -pg Book=true "
                       f"-pg BookFile={book} -pg BookRandom=false")
        for i, op in enumerate(openings, 1):
            d = os.path.join(out, "planted", f"{name}-{i}")
            run([binary, "record", "--engine", planted_cmd, "--opponent", opponent,
                 "--side", "white", "--depth", depth, "--opening", op,
                 "--max-plies", "48", "--round", str(i),
                 "--event", "TCEC Season 15 - Division 4a", "--out", d])
            truth = book_plies(os.path.join(d, "engine.log"), 9)
            games.append((name, i, d, os.path.join(out, "clean", f"{name}-{i}"), truth))
    for min_run in MIN_RUNS:
        t = dict(book=0, book_flagged=0, planted_other_flagged=0, planted_games=0,
                 planted_games_with_run=0, planted_games_flagged=0,
                 clean_games=0, clean_games_flagged=0, clean_moves=0, clean_flagged=0)
        print(f"min_run {min_run}:")
        for name, i, d, c, truth in games:
            flagged, _ = screen(binary, d, min_run)
            tp = len(set(truth) & set(flagged))
            t["book"] += len(truth)
            t["book_flagged"] += tp
            t["planted_other_flagged"] += len(set(flagged) - set(truth))
            t["planted_games"] += 1
            # the longest run of consecutive book answers
            run_len, best = 0, 0
            for k, p in enumerate(truth):
                run_len = run_len + 1 if k and truth[k - 1] == p - 2 else 1
                best = max(best, run_len)
            t["planted_games_with_run"] += best >= min_run
            t["planted_games_flagged"] += bool(flagged)
            print(f"  planted {name}-{i}: book moves {len(truth)} (longest run {best}), "
                  f"flagged {len(flagged)}, of them book moves {tp}")
            cflag, cd = screen(binary, c, min_run)
            t["clean_games"] += 1
            t["clean_games_flagged"] += bool(cflag)
            t["clean_flagged"] += len(cflag)
            t["clean_moves"] += sum(e["moves"] for e in cd["engines"])
            if cflag:
                print(f"  clean {name}-{i}: flagged plies {cflag}")
        print(f"  book moves flagged: {t['book_flagged']} of {t['book']}"
              f" ({100 * t['book_flagged'] / max(1, t['book']):.1f}%)")
        print(f"  planted games flagged: {t['planted_games_flagged']} of {t['planted_games']}"
              f" ({t['planted_games_with_run']} had a book run of {min_run} or more)")
        print(f"  non-book moves flagged in planted games: {t['planted_other_flagged']}")
        print(f"  clean games flagged: {t['clean_games_flagged']} of {t['clean_games']};"
              f" clean moves flagged: {t['clean_flagged']} of {t['clean_moves']}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Cross-check arbiter's JSON output against python-chess.

Usage:
    python3 scripts/crosscheck_python_chess.py ARBITER_JSONL PGN_FILE...

ARBITER_JSONL is the output of ``arbiter audit --format json PGN_FILE...``:
JSON Lines, one ``{"type": "game", ...}`` object per game plus a summary line.
Lines whose "type" is not "game" are ignored.

For every game of every PGN file, python-chess (an independent implementation)
replays the mainline and computes the number of plies and ``board.fen()`` of
the final position (python-chess's default en-passant convention: the ep square
is shown only when an ep capture is legal).  These are compared with arbiter's
"plies" and "final_fen" for the same (source.path, source.index), where path is
the PGN path exactly as given on the command line and index is the 0-based
game index within that file.

Prints one line per mismatch and finally ``crosscheck: N passed, M failed``.
A game counts as failed if the values differ, if it is missing on either side,
or if python-chess reports errors while reading it.  Exit status is 1 if any
game failed, else 0.  Requires only the ``chess`` package.
"""

import json
import logging
import sys

try:
    import chess
    import chess.pgn
except ImportError:  # pragma: no cover
    sys.stderr.write("crosscheck: the python-chess package is required (pip install chess)\n")
    sys.exit(2)

# python-chess also logs parse errors; they are reported from game.errors instead.
logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)


def load_arbiter(jsonl_path, report):
    """Return ({(path, index): record}, number of malformed/duplicate entries)."""
    games = {}
    bad = 0
    with open(jsonl_path, encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, 1):
            raw = raw.strip()
            if not raw:
                continue
            try:
                obj = json.loads(raw)
            except ValueError as exc:
                report("%s:%d: invalid JSON in arbiter output: %s" % (jsonl_path, lineno, exc))
                bad += 1
                continue
            if not isinstance(obj, dict) or obj.get("type") != "game":
                continue
            src = obj.get("source")
            if not isinstance(src, dict) or not isinstance(src.get("path"), str) \
                    or not isinstance(src.get("index"), int) or isinstance(src.get("index"), bool):
                report("%s:%d: arbiter game line without a usable source.path/source.index"
                       % (jsonl_path, lineno))
                bad += 1
                continue
            key = (src["path"], src["index"])
            if key in games:
                report("%s#%d: duplicate game line in arbiter output (%s:%d)"
                       % (key[0], key[1], jsonl_path, lineno))
                bad += 1
                continue
            games[key] = obj
    return games, bad


def describe(path, index, game=None, record=None):
    where = "%s#%d" % (path, index)
    if record is not None:
        line = (record.get("source") or {}).get("line")
        if line is not None:
            where += " (line %s)" % line
    if game is not None:
        white = game.headers.get("White", "?")
        black = game.headers.get("Black", "?")
        where += " [%s - %s]" % (white, black)
    return where


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: %s ARBITER_JSONL PGN_FILE...\n" % argv[0])
        return 2

    def report(msg):
        print(msg)

    jsonl_path = argv[1]
    pgn_paths = []
    for p in argv[2:]:
        if p not in pgn_paths:
            pgn_paths.append(p)

    try:
        arbiter, failed = load_arbiter(jsonl_path, report)
    except OSError as exc:
        report("crosscheck: cannot read %s: %s" % (jsonl_path, exc))
        print("crosscheck: 0 passed, 1 failed")
        return 1

    passed = 0
    seen = set()

    for path in pgn_paths:
        try:
            fh = open(path, encoding="utf-8-sig", errors="replace")
        except OSError as exc:
            report("%s: cannot open: %s" % (path, exc))
            failed += 1
            continue
        with fh:
            index = 0
            while True:
                try:
                    game = chess.pgn.read_game(fh)
                except Exception as exc:  # python-chess should not raise, but be safe
                    report("%s#%d: python-chess raised %s: %s"
                           % (path, index, type(exc).__name__, exc))
                    failed += 1
                    break
                if game is None:
                    break
                key = (path, index)
                record = arbiter.get(key)
                if record is not None:
                    seen.add(key)
                where = describe(path, index, game, record)
                index += 1

                if game.errors:
                    for err in game.errors:
                        report("%s: python-chess error: %s" % (where, err))
                    failed += 1
                    continue

                board = game.board()
                plies = 0
                for move in game.mainline_moves():
                    board.push(move)
                    plies += 1
                fen = board.fen()

                if record is None:
                    report("%s: missing from arbiter output (python-chess: plies=%d fen=%s)"
                           % (where, plies, fen))
                    failed += 1
                    continue

                problems = []
                a_plies = record.get("plies")
                if not isinstance(a_plies, int) or isinstance(a_plies, bool) or a_plies != plies:
                    problems.append("plies arbiter=%r python-chess=%d" % (a_plies, plies))
                a_fen = record.get("final_fen")
                if a_fen != fen:
                    problems.append("final_fen arbiter=%r python-chess=%r" % (a_fen, fen))
                if problems:
                    report("%s: %s" % (where, "; ".join(problems)))
                    failed += 1
                else:
                    passed += 1

    for key in sorted(set(arbiter) - seen, key=lambda k: (k[0], k[1])):
        report("%s: in arbiter output but not found by python-chess"
               % describe(key[0], key[1], record=arbiter[key]))
        failed += 1

    print("crosscheck: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

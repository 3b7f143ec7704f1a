#!/usr/bin/env python3
"""Each game of a PGN file cut after its first N plies (default 3): its tags
(Result made "*" and TerminationDetails dropped, as the game no longer ends
there), then its movetext up to the end of its Nth move and that move's
comment, then "*". A game with fewer plies, or whose moves carry no
comment, is left out. For timing what a game costs before its moves: the
stages bench over the cut games gives each stage's cost per game.

Usage: bench/cut_games.py IN.pgn [PLIES] > OUT.pgn

It counts a ply as a move followed by its {comment}, as TCEC writes them
(one comment a ply, from the first move number on): it is not a PGN
reader, and other forms are not cut right.
"""
import re
import sys


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    plies = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    text = open(sys.argv[1], encoding="latin-1").read()
    out = []
    for game in re.split(r"\n(?=\[Event )", text):
        head, sep, moves = game.partition("\n\n")
        if not sep:
            continue
        # a comment before the first move (TCEC's engine options) is no ply
        first = re.search(r"(^|\s)\d+\.", moves)
        end = first.start() - 1 if first else -1
        for _ in range(plies):
            end = moves.find("}", end + 1)
            if end < 0:
                break
        if end < 0:
            continue
        head = re.sub(r'\[Result "[^"]*"\]', '[Result "*"]', head)
        head = re.sub(r'\[TerminationDetails "[^"]*"\]\n?', "", head)
        out.append(head + "\n\n" + moves[: end + 1] + " *\n")
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Build the similarity position suite from real games.

Usage: scripts/make_positions.py TCEC_S15_DIR > bench/similarity/positions.epd

From every game of the TCEC Season 15 archive (files in name order, games in
file order) it takes one position after the official opening: the position
before the engine move at ply (first out-of-book ply + 10 + game number mod
30), moving on by one ply while that position is in check, has fewer than
6 legal moves, or fewer than 10 pieces. Games without such a position are
skipped; the first 300 positions are written as EPD with the game named in
`id` and the move the TCEC engine played there in `c0` (SAN).
"""
import glob, os, sys

import chess
import chess.pgn


def main():
    root = sys.argv[1]
    out = []
    n = 0
    for path in sorted(glob.glob(os.path.join(root, "*.pgn"))):
        with open(path, encoding="utf-8", errors="replace") as fh:
            while True:
                game = chess.pgn.read_game(fh)
                if game is None:
                    break
                n += 1
                board = game.board()
                nodes = list(game.mainline())
                first = next((i for i, nd in enumerate(nodes) if not nd.comment.strip().startswith("book")), None)
                if first is None:
                    continue
                target = first + 10 + n % 30
                for i, nd in enumerate(nodes):
                    if i >= target and not board.is_check() and board.legal_moves.count() >= 6 \
                            and len(board.piece_map()) >= 10:
                        div = os.path.basename(path).replace("tcec-s15-", "").replace(".pgn", "")
                        rnd = game.headers.get("Round", "?")
                        out.append('%s id "S15 %s round %s ply %d"; c0 "%s";' % (
                            board.epd(), div, rnd, i + 1, board.san(nd.move)))
                        break
                    board.push(nd.move)
                if len(out) == 300:
                    break
        if len(out) == 300:
            break
    sys.stdout.write("\n".join(out) + "\n")
    print(f"{len(out)} positions from {n} games", file=sys.stderr)


if __name__ == "__main__":
    main()

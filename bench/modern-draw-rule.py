#!/usr/bin/env python3
"""Replay TCEC's modern draw rule (Season 24 and Cup 11 on) against the
recorded Rd counters and "TCEC draw rule" endings (docs/tcec-eras.md).

    python3 bench/modern-draw-rule.py [--plies 8] [--band 0.25] [--pieces 4] [--pawns 16] FILE.pgn...

The 2022 form (Cup 10, Seasons 22 and 23): --plies 10 --band 0.2 --pieces 6 --pawns 8.

The rule, as the records show it: a ply counts when the mover's eval (wv) is
within +-band and at most `pieces` pieces other than kings and pawns, and at
most `pawns` pawns, remain after it; any other ply resets the count (a capture or pawn move does not);
the game is drawn when the count reaches `plies`. Rd reads -(plies+1) after
a capture, a pawn move or an eval out of the band, else plies - max(count, 1).
Needs python-chess (measurement only; arbiter does not use it)."""
import argparse, re
import chess

def games(path):
    text = open(path, errors="replace").read()
    for chunk in text.split("\n[Event ")[0:]:
        if not chunk.strip():
            continue
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', chunk))
        body = chunk.split("\n\n", 1)[1] if "\n\n" in chunk else ""
        body = re.sub(r"^\s*\{[^}]*\}", "", body.strip(), count=1)  # engine options
        moves = []
        for san, comment in re.findall(r"(?:\d+\.(?:\.\.)?\s*)?([^\s{}]+)\s*\{([^}]*)\}", body):
            keys = {k: v.strip() for k, v in re.findall(r"(\w+)=([^,]*)", comment)}
            keys["san"], keys["book"] = san, "book" in comment
            moves.append(keys)
        yield tags, moves

def replay(path, plies, band, pieces, pawns=16):
    agree = total = ends_agree = ends = 0
    for tags, moves in games(path):
        fen = tags.get("FEN")
        try:
            board = chess.Board(fen, chess960=True) if fen else chess.Board()
        except ValueError:
            continue
        count, fired = 0, None
        for i, m in enumerate(moves):
            try:
                move = board.parse_san(m["san"])
            except ValueError:
                break
            zeroing = board.is_zeroing(move)
            board.push(move)
            if m["book"] or m.get("wv") is None:
                count = 0
                continue
            try:
                in_band = abs(float(m["wv"])) <= band
            except ValueError:
                in_band = False  # a mate score
            kinds = [p.piece_type for p in board.piece_map().values()]
            others = sum(1 for k in kinds if k not in (chess.PAWN, chess.KING))
            count = count + 1 if in_band and others <= pieces and kinds.count(chess.PAWN) <= pawns else 0
            if count >= plies and fired is None:
                fired = i + 1
            shown = -(plies + 1) if zeroing or not in_band else max(0, plies - max(count, 1))
            rd = m.get("Rd")
            if rd is None or not re.fullmatch(r"-?\d+", rd) or int(rd) == -1000:
                continue
            total += 1
            agree += int(rd) == shown
        if tags.get("TerminationDetails") == "TCEC draw rule":
            ends += 1
            ends_agree += fired == len(moves)
    return agree, total, ends_agree, ends

if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--band", type=float, default=0.25)
    ap.add_argument("--pieces", type=int, default=4)
    ap.add_argument("--pawns", type=int, default=16)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    for f in a.files:
        agree, total, ends_agree, ends = replay(f, a.plies, a.band, a.pieces, a.pawns)
        print(f"{f}\tRd {agree}/{total}\tdraw-rule endings {ends_agree}/{ends}")

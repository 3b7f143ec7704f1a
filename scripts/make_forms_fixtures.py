#!/usr/bin/env python3
"""Write tests/fixtures/forms/: one short game per comment form arbiter reads.

The games are made here, move by move, and checked with python-chess
(`pip install chess`); the comment values are drawn from a seeded generator,
so the files are the same on every run. Run from the project's root:

    python3 scripts/make_forms_fixtures.py
"""

import random
from pathlib import Path

import chess

OUT = Path("tests/fixtures/forms")

RUY = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7".split()
QGD = "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7 e3 O-O Nf3 h6 Bh4 b6 cxd5 Nxd5 Bxe7 Qxe7 Nxd5 exd5".split()
SICILIAN = "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5 Nb3 Be6 f3 Be7 Qd2 O-O O-O-O Nbd7".split()
MATE = "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#".split()
FOOLS_MATE = "f3 e5 g4 Qh4#".split()


def checked(sans, fen=None, chess960=False):
    """The moves, replayed: each must be legal."""
    board = chess.Board(fen, chess960=chess960) if fen else chess.Board(chess960=chess960)
    for san in sans:
        board.push_san(san)
    return board


def pawns(cp):
    """A centipawn score as the GUIs write pawns: +0.35, -1.20."""
    return f"{cp / 100:+.2f}"


def movetext(sans, comments, first_move=1, black_first=False):
    """SAN moves with one comment each, numbered, wrapped at about 80 columns."""
    words = []
    n = first_move
    for i, (san, com) in enumerate(zip(sans, comments)):
        white = (i % 2 == 0) != black_first
        if white:
            words.append(f"{n}.")
        elif i == 0:
            words.append(f"{n}...")
        words.append(san)
        if com is not None:
            words.append("{" + com + "}")
        if not white:
            n += 1
    lines, line = [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > 79:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    lines.append(line)
    return lines


def header(tags):
    return [f'[{k} "{v}"]' for k, v in tags]


def game(tags, sans, comments, result, **kw):
    lines = header(tags) + [""] + movetext(sans, comments, **kw)
    lines[-1] += f" {result}"
    return "\n".join(lines) + "\n"


def tags(event, white, black, result, extra=()):
    return [
        ("Event", event),
        ("Site", "arbiter test corpus"),
        ("Date", "2026.11.25"),
        ("Round", "1"),
        ("White", white),
        ("Black", black),
        ("Result", result),
        *extra,
    ]


def evals(rng, n, start=20):
    """A plausible walk of White-view evaluations, centipawns."""
    out, v = [], start
    for _ in range(n):
        v += rng.randint(-25, 25)
        out.append(v)
    return out


def tcec_modern(rng):
    sans = RUY
    checked(sans)
    wv = evals(rng, len(sans))
    left = [7_200_000, 7_200_000]
    coms = []
    for i, san in enumerate(sans):
        side = i % 2
        if i < 6:
            coms.append("book, mb=+0+0+0+0+0,")
            continue
        mt = rng.randint(5_000, 120_000)
        left[side] -= mt
        left[side] += 10_000
        d = rng.randint(25, 45)
        n = rng.randint(10**8, 9 * 10**9)
        coms.append(
            f"d={d}, sd={d + rng.randint(5, 20)}, mt={mt}, tl={left[side]}, "
            f"s={n * 1000 // mt}, n={n}, pv={san}, tb=null, h={rng.randint(0, 999) / 10}, "
            f"ph={rng.randint(0, 1000) / 10}, wv={wv[i] / 100:.2f}, R50={50 - (i % 10) // 2}, "
            f"Rd=-{11 - i % 3}, Rr=-{1000 - i}, mb=+0+0+0+0+0,"
        )
    return game(tags("TCEC modern form", "EngineA", "EngineB", "*"), sans, coms, "*")


def hms(ms):
    s = ms // 1000
    return f"{s // 3600:02}:{s % 3600 // 60:02}:{s % 60:02}"


def tcec_early(rng):
    sans = QGD
    checked(sans)
    wv = evals(rng, len(sans))
    left = [7_200_000, 7_200_000]
    coms = []
    for i, _ in enumerate(sans):
        side = i % 2
        mt = rng.randint(5, 200) * 1000
        left[side] -= mt
        d = rng.randint(15, 25)
        knps = rng.randint(2000, 16000)
        # early seasons: H:MM:SS times, speeds in kN/s, counters in plies
        coms.append(
            f"d={d}, sd={d + rng.randint(5, 20)}, mt={hms(mt)}, tl={hms(left[side])}, "
            f"s={knps} kN/s, n={knps * mt}, pv=Nf3, tb=0, R50={100 - i % 20}, "
            f"wv={wv[i] / 100:.2f}, Rd={i % 7}, Rr={i % 5},"
        )
    return game(tags("TCEC early-season form", "EngineA", "EngineB", "*"), sans, coms, "*")


def cutechess(rng):
    sans = MATE
    checked(sans)
    coms = ["book", "book"]
    for i in range(2, len(sans) - 1):
        coms.append(f"{pawns(rng.randint(-90, 90))}/{rng.randint(8, 30)} {rng.randint(1, 9999) / 1000:.3f}s")
    coms.append(f"+M1/{rng.randint(1, 5)} {rng.randint(1, 999) / 1000:.3f}s, White mates")
    first = game(tags("cutechess-cli form", "EngineA", "EngineB", "1-0"), sans, coms, "1-0")
    # a second game, which Black mates: the mate is written from Black's view
    sans = FOOLS_MATE
    checked(sans)
    coms = [
        f"{pawns(rng.randint(-90, 90))}/{rng.randint(8, 30)} {rng.randint(1, 9999) / 1000:.3f}s"
        for _ in sans[:-2]
    ]
    coms.append(f"-M2/{rng.randint(2, 9)} {rng.randint(1, 999) / 1000:.3f}s")
    coms.append(f"+M1/{rng.randint(1, 5)} {rng.randint(1, 999) / 1000:.3f}s, Black mates")
    second = game(tags("cutechess-cli form", "EngineB", "EngineA", "0-1"), sans, coms, "0-1")
    return first + "\n" + second


def fastchess(rng):
    sans = SICILIAN
    checked(sans)
    coms = []
    for i in range(len(sans)):
        d = rng.randint(10, 30)
        items = [
            f"{pawns(rng.randint(-150, 150))}/{d}",
            f"{rng.randint(1, 20000) / 1000:.3f}s",
            f"n={rng.randint(10**4, 10**8)}",
            f"sd={d + rng.randint(0, 15)}",
            f"nps={rng.randint(10**5, 10**7)}",
        ]
        if i == len(sans) - 1:
            items.append("Draw by adjudication")
        coms.append(", ".join(items))
    return game(tags("fastchess form", "EngineA", "EngineB", "1/2-1/2"), sans, coms, "1/2-1/2")


def arena(rng):
    sans = QGD
    board = chess.Board()
    coms = []
    for i, san in enumerate(sans):
        move = board.parse_san(san)
        board.push(move)
        score = pawns(rng.randint(-80, 80))
        depth = rng.randint(10, 25)
        if i % 3 == 0:
            # the expected reply in parentheses, whole seconds
            reply = next(iter(board.legal_moves))
            coms.append(f"({board.san(reply)}) {score}/{depth} {rng.randint(0, 60)}")
        elif i % 3 == 1:
            coms.append(f"{score}/{depth} {rng.randint(0, 60)}")
        else:
            coms.append(f"{score}/{depth} {rng.randint(0, 600) / 10:.1f}")
    return game(tags("Arena form", "EngineA", "EngineB", "*"), sans, coms, "*")


def banksia(rng):
    sans = RUY
    checked(sans)
    coms = []
    for i in range(len(sans)):
        c = f"{rng.randint(-20, 20) / 10:+.1f}/{rng.randint(10, 30)} {rng.randint(0, 999) / 10:.1f}"
        if i == 3:
            c += "; End of opening"
        coms.append(c)
    # Banksia writes the opening's variation in the Variant tag, after ECO
    # and Opening, and a tab between a tag's name and its value
    t = tags("Banksia form", "EngineA", "EngineB", "*", [("ECO", "C84"), ("Opening", "Ruy Lopez"), ("Variant", "Closed")])
    text = game(t, sans, coms, "*")
    return "\n".join(
        line.replace(' "', ' \t"', 1) if line.startswith("[") else line for line in text.split("\n")
    )


def ccrl(rng):
    sans = SICILIAN
    checked(sans)
    coms = [f"{pawns(rng.randint(-120, 120))}/{rng.randint(12, 40)} {rng.randint(1, 300)}s" for _ in sans]
    return game(tags("CCRL form", "EngineA", "EngineB", "*"), sans, coms, "*")


def clk(ms):
    s = ms // 1000
    return f"{s // 3600}:{s % 3600 // 60:02}:{s % 60:02}"


def lichess(rng):
    sans = MATE
    checked(sans)
    left = [180_000, 180_000]
    coms = []
    for i in range(len(sans)):
        left[i % 2] -= rng.randint(1, 9) * 1000
        left[i % 2] += 2000
        if i == len(sans) - 1:
            coms.append(f"[%clk {clk(left[i % 2])}]")
        elif i == len(sans) - 2:
            coms.append(f"[%eval #1] [%clk {clk(left[i % 2])}]")
        elif i == len(sans) - 3:
            coms.append(f"[%eval #-3] [%clk {clk(left[i % 2])}]")
        else:
            coms.append(f"[%eval {rng.randint(-60, 60) / 100:.2f}] [%clk {clk(left[i % 2])}]")
    coms = [" " + c + " " for c in coms]
    return game(
        tags("lichess export form", "PlayerA", "PlayerB", "1-0", [("TimeControl", "180+2")]),
        sans,
        coms,
        "1-0",
    )


def bom_crlf(rng):
    sans = RUY
    checked(sans)
    coms = [f"{pawns(rng.randint(-50, 50))}/{rng.randint(5, 20)} {rng.randint(1, 5000) / 1000:.3f}s" for _ in sans]
    text = game(tags("byte-order mark and mixed line ends", "EngineA", "EngineB", "*"), sans, coms, "*")
    lines = text.split("\n")
    # CRLF, LF and a lone CR (old Mac) in turn
    out = []
    for i, line in enumerate(lines[:-1]):
        out.append(line + ["\r\n", "\r\n", "\n", "\r"][i % 4] if i > 7 else line + ("\n" if i % 3 == 2 else "\r\n"))
    return "\ufeff" + "".join(out)


def latin1(rng):
    sans = QGD[:12]
    checked(sans)
    coms = [f"{pawns(rng.randint(-50, 50))}/{rng.randint(5, 20)} {rng.randint(1, 5000) / 1000:.3f}s" for _ in sans]
    coms[3] += ", Zugzwang? Müller’s idea"
    t = tags("Latin-1 file: Großmeister-Turnier", "Müller", "Señor Ñandú", "*", [("Annotator", "Jürgen")])
    return game(t, sans, coms, "*")


def frc_game(rng, fen, want):
    """A seeded random Chess960 game from `fen` in which the castlings in
    `want` (e.g. {"O-O", "O-O-O"}) are played, short."""
    for seed in range(1, 20000):
        r = random.Random(seed)
        board = chess.Board(fen, chess960=True)
        sans, seen = [], set()
        for _ in range(40):
            moves = list(board.legal_moves)
            if not moves:
                break
            castles = [m for m in moves if board.is_castling(m)]
            m = r.choice(castles) if castles and r.random() < 0.9 else r.choice(moves)
            san = board.san(m)
            if board.is_castling(m):
                seen.add(san.rstrip("+#"))
            sans.append(san)
            board.push(m)
            if want <= seen:
                return sans
    raise SystemExit(f"no game from {fen} castles {want}")


def frc(rng):
    # Shredder-FEN castling rights (files of the rooks)
    fen = "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1"
    sans = frc_game(rng, fen, {"O-O", "O-O-O"})
    checked(sans, fen, chess960=True)
    coms = [f"{pawns(rng.randint(-60, 60))}/{rng.randint(8, 24)} {rng.randint(1, 3000) / 1000:.3f}s" for _ in sans]
    t = tags("Fischer Random", "EngineA", "EngineB", "*", [("Variant", "fischerandom"), ("SetUp", "1"), ("FEN", fen)])
    return game(t, sans, coms, "*")


def frc_fen_only(rng):
    # X-FEN castling rights (KQkq) of a Chess960 start, no Variant tag
    fen = "rkbbnnqr/pppppppp/8/8/8/8/PPPPPPPP/RKBBNNQR w KQkq - 0 1"
    sans = frc_game(rng, fen, {"O-O-O"})
    checked(sans, fen, chess960=True)
    coms = [f"{pawns(rng.randint(-60, 60))}/{rng.randint(8, 24)} {rng.randint(1, 3000) / 1000:.3f}s" for _ in sans]
    t = tags("Chess960 start by its FEN alone", "EngineA", "EngineB", "*", [("SetUp", "1"), ("FEN", fen)])
    return game(t, sans, coms, "*")


FILES = {
    "tcec-modern.pgn": (tcec_modern, "utf-8"),
    "tcec-early.pgn": (tcec_early, "utf-8"),
    "cutechess.pgn": (cutechess, "utf-8"),
    "fastchess.pgn": (fastchess, "utf-8"),
    "arena.pgn": (arena, "utf-8"),
    "banksia.pgn": (banksia, "utf-8"),
    "ccrl.pgn": (ccrl, "utf-8"),
    "lichess.pgn": (lichess, "utf-8"),
    "bom-crlf.pgn": (bom_crlf, "utf-8"),
    "latin1.pgn": (latin1, "cp1252"),
    "frc.pgn": (frc, "utf-8"),
    "frc-fen-only.pgn": (frc_fen_only, "utf-8"),
}


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for i, (name, (make, enc)) in enumerate(sorted(FILES.items())):
        text = make(random.Random(1000 + i))
        (OUT / name).write_bytes(text.encode(enc))
        print(name)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Synthetic TCEC-style archives with planted adjudication parameters.

Fixtures for `arbiter rules fit`: every engine move carries the counters the
TCEC software records (R50, Rd, Rr) and every game the termination it
writes, computed here by a plain Python reading of the counters of
rulesets/tcec-s15.rules under the planted parameters. Nothing here calls
arbiter or mirrors its code: the counting below is written from the rules
file's `let`s and adjudications (see Counters).

The evaluation trajectories are built so that each planted value is the
only one on the fit's grid that reproduces the archive:

  draw_eval       moves at |wv| = draw_eval inside draw streaks (they count
                  only if draw_eval is at least that) and quiet moves at
                  |wv| = draw_eval + 0.01 (they break a streak only if
                  draw_eval is below that);
  draw_plies      Rd itself (-draw_plies-1 with no window), streaks after
                  the gate that stop one ply short of firing, and streaks
                  that fire;
  draw_from_move  streaks that fire exactly at the gate (ply 2*draw_from_move)
                  and streaks complete before the gate broken by a pawn move
                  at ply 2*draw_from_move-1;
  win_eval        winning evals at exactly win_eval and, as breaks, at
                  win_eval - 0.1 ... - 0.4; ramp evals between 5 pawns and
                  win_eval - 0.5;
  win_plies       Rr itself (-win_plies-1 with no window), windows broken
                  one ply short of firing, and windows that fire;
  rook_castling_resets  non-capturing rook moves that give up a castling
                  right, inside draw streaks and in fifty-move games;
  searchless_resets     moves recorded without a search (d=1, n=0, empty
                  PV) inside draw streaks and win windows, with an eval
                  that counts when the switch is off.
  shallow_resets  with --shallow-moves those moves are written as an engine
                  that moved at once from the tree it kept writes them (d=1
                  with nodes and a PV), which only a software that resets
                  at any move of depth 1 or less (--shallow-resets true)
                  treats as moves without a search.

`--flat` removes the evidence of a parameter (no searchless move, no rook
move that loses a castling right, or no eval of 5 pawns or more), so that
the fit must report it undecided.

`--self-check` scans the fit's grids one parameter at a time (and a sample
of joint points) with the same counting and prints the mismatches per
value: the planted value must be the unique zero of every decidable
parameter.

Usage:
  make_fit_archive.py --out FILE --seed N --games N --draw-eval X
      --draw-plies N --draw-from-move N --win-eval X --win-plies N
      --rook-castling-resets true|false --searchless-resets true|false
      [--shallow-moves --shallow-resets true|false]
      [--event NAME] [--flat searchless_resets,rook_castling_resets,win_eval]
      [--self-check]
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field, replace

try:
    import chess
except ImportError:  # pragma: no cover
    sys.exit("make_fit_archive.py needs python-chess: pip install chess")

# --------------------------------------------------------------------- params


@dataclass(frozen=True)
class Params:
    draw_eval: int  # centipawns
    draw_plies: int
    draw_from_move: int
    win_eval: int  # centipawns
    win_plies: int
    rook_castling_resets: bool
    searchless_resets: bool
    # whether the draw and the win rule are in effect (off: the counter
    # reads -1000 on every move and the rule never fires)
    draw_rule: bool = True
    win_rule: bool = True
    # how the software shows R50 (the rules file's r50_* constants): the
    # count after the move or before it, and half moves rounded down or up
    r50_after_move: bool = True
    r50_round_up: bool = False
    # whether the software saw no search at any move of depth 1 or less,
    # whatever nodes and PV its comment carries (the rules file's
    # shallow_resets), and whether the moves planted without a search are
    # written so (d=1 with nodes and a PV: an engine that moved at once
    # from the tree it kept) rather than with d=1, n=0 and no PV
    shallow_resets: bool = False
    shallow_moves: bool = False

    def show(self) -> str:
        return (
            f"draw_eval={self.draw_eval / 100:.2f} draw_plies={self.draw_plies} "
            f"draw_from_move={self.draw_from_move} win_eval={self.win_eval / 100:g} "
            f"win_plies={self.win_plies} rook_castling_resets={str(self.rook_castling_resets).lower()} "
            f"searchless_resets={str(self.searchless_resets).lower()} "
            f"draw_rule={str(self.draw_rule).lower()} win_rule={str(self.win_rule).lower()}"
        )


# The fit's grids (centipawns for the evals).
GRIDS = {
    "draw_eval": list(range(0, 21)),
    "draw_plies": list(range(2, 21, 2)),
    "draw_from_move": list(range(20, 61)),
    "win_eval": list(range(500, 1201, 50)),
    "win_plies": list(range(2, 21, 2)),
    "rook_castling_resets": [False, True],
    "searchless_resets": [False, True],
    "draw_rule": [False, True],
    "win_rule": [False, True],
}

# The values a rule that is off makes undecidable.
RULE_VALUES = {
    "draw_rule": ("draw_eval", "draw_plies", "draw_from_move"),
    "win_rule": ("win_eval", "win_plies"),
}

# --------------------------------------------------------------------- counters


@dataclass
class MoveRec:
    """What the counters read of one move."""

    ply: int
    white: bool
    capture: bool
    pawn: bool
    rook_castling_lost: bool
    book: bool
    depth: int | None = None
    nodes: int | None = None
    wv: int | None = None  # centipawns, White's view
    recorded: tuple[int, int, int] | None = None  # R50, Rd, Rr


@dataclass
class Counters:
    """The counters of tcec-s15.rules, one move at a time.

    zeroing    = capture or pawn move or (rook_castling_resets and a rook
                 move that gives up a castling right)
    reversible = plies since the last zeroing move (0 at it)
    R50        = floor((100 - reversible) / 2); with --r50-before-move the
                 count before the move (reversible at the previous ply),
                 with --r50-round-up ceil in place of floor
    searchless = a commented engine move with depth <= 1 and 0 nodes
    shallow    = a commented engine move with depth <= 1
    no_eval    = book move, no comment, (searchless_resets and searchless),
                 or (shallow_resets and shallow)
    draw_count = consecutive plies with |mover's eval| <= draw_eval; 0 at a
                 zeroing or no_eval move
    Rd         = plies left (draw_plies - draw_count, at least 0) while a
                 window is open whose end reaches the move-`draw_from_move`
                 gate, else -(left) - 1
    winning/losing: per side, consecutive own evaluated moves with
                 eval >= win_eval / <= -win_eval; a side's no_eval move
                 leaves its winning count alone and zeroes its losing count
    Rr         = plies left of the pairing of the mover's and the opponent's
                 counts, as the rules file builds it
    Adjudications after each move, in order: fifty moves (reversible >= 100),
    the draw rule (floor(ply/2) >= draw_from_move and draw_count >=
    draw_plies), the win rule (a side's winning count and the other's
    losing count both >= win_plies / 2).
    """

    p: Params
    rev: int = 0
    rev_fide: int = 0  # pawn moves and captures only: the larger count
    dc: int = 0
    ww: int = 0
    wl: int = 0
    bw: int = 0
    bl: int = 0

    def copy(self) -> "Counters":
        return replace(self)

    def step(self, m: MoveRec):
        p = self.p
        zeroing = m.capture or m.pawn or (p.rook_castling_resets and m.rook_castling_lost)
        before = self.rev
        self.rev = 0 if zeroing else self.rev + 1
        self.rev_fide = 0 if (m.capture or m.pawn) else self.rev_fide + 1
        shown = self.rev if p.r50_after_move else before
        r50 = -((shown - 100) // 2) if p.r50_round_up else (100 - shown) // 2
        commented = True  # every move we write carries a comment
        searchless = commented and not m.book and m.depth is not None and m.depth <= 1 and m.nodes == 0
        shallow = commented and not m.book and m.depth is not None and m.depth <= 1
        no_eval = m.book or not commented or (p.searchless_resets and searchless) or (p.shallow_resets and shallow)
        score = None
        if m.wv is not None:
            score = m.wv if m.white else -m.wv
        # draw_count: streak with reset
        if zeroing or no_eval:
            self.dc = 0
        elif score is not None and abs(score) <= p.draw_eval:
            self.dc += 1
        else:
            self.dc = 0
        draw_left = 0 if self.dc >= p.draw_plies else p.draw_plies - self.dc
        if draw_left >= p.draw_plies or (m.ply + draw_left) // 2 < p.draw_from_move:
            rd = -draw_left - 1
        else:
            rd = draw_left
        # win counters
        if m.white:
            if not no_eval:
                self.ww = self.ww + 1 if score >= p.win_eval else 0
                self.wl = self.wl + 1 if score <= -p.win_eval else 0
            else:
                self.wl = 0
        else:
            if not no_eval:
                self.bw = self.bw + 1 if score >= p.win_eval else 0
                self.bl = self.bl + 1 if score <= -p.win_eval else 0
            else:
                self.bl = 0
        if m.white:
            my_w, my_l, th_w, th_l = self.ww, self.wl, self.bw, self.bl
        else:
            my_w, my_l, th_w, th_l = self.bw, self.bl, self.ww, self.wl
        lose_progress = 2 * min(my_l, th_w) + (1 if my_l > th_w else 0)
        win_progress = 2 * min(my_w, th_l) + (1 if my_w > th_l else 0)
        win_count = max(lose_progress, win_progress)
        win_left = 0 if win_count >= p.win_plies else p.win_plies - win_count
        rr = -win_left - 1 if win_left >= p.win_plies else win_left
        if not p.draw_rule:
            rd = -1000
        if not p.win_rule:
            rr = -1000
        # adjudications (board rules are kept out of the games by construction)
        fired = None
        half = p.win_plies  # compare 2*count >= win_plies: win_plies / 2 exactly
        if self.rev >= 100:
            fired = ("fifty", "1/2-1/2")
        elif p.draw_rule and m.ply // 2 >= p.draw_from_move and self.dc >= p.draw_plies:
            fired = ("draw", "1/2-1/2")
        elif p.win_rule and ((2 * self.ww >= half and 2 * self.bl >= half) or (2 * self.bw >= half and 2 * self.wl >= half)):
            fired = ("win", "1-0" if 2 * self.ww >= half else "0-1")
        return (r50, rd, rr), fired


DETAILS = {"fifty": "Fifty moves rule", "draw": "TCEC draw rule", "win": "TCEC win rule"}
# The clocks' base, increment and start credit (ms), and the TimeControl tag
# written (--base, --increment, --start-credit, --tag).
CLOCK = (1_800_000, 5_000, 0)
TAG = ["1800+5"]

# --------------------------------------------------------------------- openings

OPENINGS = [
    "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6",
    "d4 Nf6 c4 e6 Nc3 Bb4 Qc2 d5",
    "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6",
    "Nf3 Nf6 c4 g6 Nc3 d5 cxd5 Nxd5",
    "e4 e6 d4 d5 Nc3 Nf6 Bg5 Be7",
    "c4 e5 Nc3 Nf6 Nf3 Nc6 g3 Bb4",
    "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5",
    "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6",
    "e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4",
    "d4 Nf6 Nf3 e6 c4 b6 g3 Ba6",
    "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6",
    "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7",
    "Nf3 d5 g3 Nf6 Bg2 c6 d3 Bg4",
    "e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7",
]

ENGINES = [
    "Synthetica 1.4",
    "Plantwise 2.3",
    "Gridfish 11",
    "Countermate 0.9",
    "Streakbot 4.1",
    "Windowpane 3.2",
]

# --------------------------------------------------------------------- directives


class Retry(Exception):
    """The game could not follow its plan: start it again."""


@dataclass
class D:
    kind: str  # free | quiet | zero | rookloss
    wv: int
    searchless: bool = False
    end: str | None = None  # draw | win | fifty | plain: the game ends here
    allow_fifty: bool = False


@dataclass
class Ctx:
    p: Params
    rng: random.Random
    board: chess.Board
    counters: Counters
    allow_searchless: bool
    allow_rookloss: bool
    win_evidence: bool
    ply: int = 1  # of the next move
    last_searchless: dict = field(default_factory=lambda: {True: -99, False: -99})
    rookloss_done: bool = False

    @property
    def gate(self) -> int:
        return 2 * self.p.draw_from_move

    @property
    def white(self) -> bool:
        return self.board.turn == chess.WHITE

    def fires(self, d: D):
        """The rule that would fire if the next move followed `d` (quiet for
        free and rookloss directives, a pawn move for zero). A rule that is
        off is asked where it would fire if it were on: the games are planned
        the same, and the rule's planned end becomes a plain one."""
        c = self.counters.copy()
        c.p = replace(c.p, draw_rule=True, win_rule=True)
        rec = MoveRec(
            ply=self.ply,
            white=self.white,
            capture=False,
            pawn=d.kind == "zero",
            rook_castling_lost=d.kind == "rookloss",
            book=False,
            depth=1 if d.searchless else 30,
            nodes=0 if d.searchless and not self.p.shallow_moves else 10**8,
            wv=d.wv,
        )
        return c.step(rec)[1]

    # evals -----------------------------------------------------------------
    def band(self, exact_p=0.35) -> int:
        de = self.p.draw_eval
        if de == 0:
            return 0
        if self.rng.random() < exact_p:
            return self.rng.choice((de, -de))
        return self.rng.randint(-de, de)

    def over(self) -> int:
        return self.rng.choice((1, -1)) * (self.p.draw_eval + 1)

    def neutral(self, sign=None) -> int:
        sign = sign or self.rng.choice((1, -1))
        return sign * self.rng.randint(25, 160)

    def winning(self, sign, exact_p=0.35) -> int:
        if self.rng.random() < exact_p:
            return sign * self.p.win_eval
        return sign * (self.p.win_eval + self.rng.randint(1, 260))

    def near_win(self, sign) -> int:
        return sign * (self.p.win_eval - self.rng.choice((10, 20, 30, 40)))

    def ramp(self, sign) -> int:
        lo, hi = 200, 480
        if self.win_evidence and self.p.win_eval - 50 >= 500 and self.rng.random() < 0.5:
            lo, hi = 500, self.p.win_eval - 50
        return sign * self.rng.randint(lo, hi)

    def may_searchless(self, prob) -> bool:
        if not self.allow_searchless or self.rng.random() >= prob:
            return False
        if self.ply - self.last_searchless[self.white] < 8:
            return False
        return True

    def has_rookloss(self) -> bool:
        if not self.allow_rookloss:
            return False
        return any(classify(self.board, m)[2] and not self.board.is_capture(m) for m in self.board.legal_moves)


# --------------------------------------------------------------------- phases


def ph_neutral(ctx: Ctx, n: int, sign=None):
    sign = sign or ctx.rng.choice((1, -1))
    for _ in range(n):
        yield D("free", ctx.neutral(sign))


def ph_zero(ctx: Ctx, wv=None):
    yield D("zero", ctx.neutral() if wv is None else wv)


def band_directive(ctx: Ctx, special_p=0.12) -> D:
    """A quiet move in the draw band, sometimes a searchless one or a rook
    move that gives up a castling right (both with a band eval)."""
    if ctx.may_searchless(special_p):
        return D("quiet", ctx.band(), searchless=True)
    if ctx.allow_rookloss and ctx.rng.random() < special_p and ctx.has_rookloss():
        return D("rookloss", ctx.band())
    return D("quiet", ctx.band())


def ph_band(ctx: Ctx, n: int, over_at=None, specials=True):
    """n quiet plies in the band (before the gate: they never fire);
    over_at: offsets of quiet moves just outside it (|wv| = draw_eval+0.01)."""
    over_at = set(over_at or ())
    for i in range(n):
        if i in over_at:
            yield D("quiet", ctx.over())
        else:
            yield band_directive(ctx, 0.12 if specials else 0.0)


def ph_draw_one_short(ctx: Ctx, brk: str):
    """Band moves until the next one would fire the draw rule, then a break:
    `over` (a quiet move at |wv| = draw_eval + 0.01) or `zero` (a pawn move
    in the band)."""
    for _ in range(60):
        d = band_directive(ctx)
        if ctx.fires(d) is not None:
            break
        yield d
    else:
        raise Retry("draw window never opened")
    if brk == "over":
        yield D("quiet", ctx.over())
    else:
        yield D("zero", ctx.band())


def ph_draw_fire(ctx: Ctx, specials_until=None):
    """Band moves until the draw rule fires; specials only up to ply
    `specials_until`."""
    for _ in range(200):
        allow = specials_until is None or ctx.ply <= specials_until
        d = band_directive(ctx, 0.12 if allow else 0.0)
        f = ctx.fires(d)
        if f is not None:
            if f[0] != "draw":
                raise Retry("another rule fires in a draw window")
            d.end = "draw"
            yield d
            return
        yield d
    raise Retry("draw rule never fired")


def ph_win(ctx: Ctx, sign: int, mode: str, searchless_p=0.15):
    """A win window for the side of `sign`: winning evals (a share exactly
    at win_eval) until the next one would fire the win rule; then either a
    break just under win_eval (mode one_short) or the firing move (fire)."""
    for _ in range(80):
        sl = ctx.may_searchless(searchless_p)
        d = D("free", ctx.winning(sign), searchless=sl)
        f = ctx.fires(d)
        if f is not None:
            if f[0] != "win":
                raise Retry("another rule fires in a win window")
            if mode == "fire":
                d.end = "win"
                yield d
                return
            yield D("free", ctx.near_win(sign))
            return
        yield d
    raise Retry("win window never closed")


def ph_ramp(ctx: Ctx, sign: int, n: int):
    for _ in range(n):
        yield D("free", ctx.ramp(sign))


def ph_fifty(ctx: Ctx):
    """A pawn move, then quiet moves (evals outside every draw band and
    under every win eval) until the fifty-move rule fires; a rook move that
    gives up a castling right early in the run where one is available."""
    yield D("zero", ctx.neutral())
    sign = ctx.rng.choice((1, -1))
    tried = 0
    for _ in range(140):
        d = D("quiet", ctx.neutral(sign), allow_fifty=True)
        if ctx.allow_rookloss and tried < 30 and not ctx.rookloss_done:
            tried += 1
            if ctx.has_rookloss():
                d = D("rookloss", d.wv, allow_fifty=True)
        f = ctx.fires(d)
        if f is not None:
            if f[0] != "fifty":
                raise Retry("another rule fires in a fifty-move run")
            d.end = "fifty"
            yield d
            return
        yield d
    raise Retry("fifty never fired")


def plan(ctx: Ctx, gtype: str):
    """The phases of a game of type `gtype`, after the book."""
    rng, p, G = ctx.rng, ctx.p, ctx.gate
    DP = p.draw_plies
    sgn = 1 if gtype.endswith("_w") else -1
    win_ok = ctx.win_evidence

    def to_ply(target, sign=None):
        """Neutral moves up to ply target-1, then a pawn move at target: a
        clean start for a streak at target+1."""
        n = target - ctx.ply
        if n < 0:
            raise Retry("plan overran its schedule")
        yield from ph_neutral(ctx, n, sign)
        yield from ph_zero(ctx)

    def pre_gate_band(max_end):
        """A band streak before the gate with a break just outside the band."""
        n = rng.randint(5, 9)
        if ctx.ply + n + 2 >= max_end:
            return
        yield from ph_zero(ctx)
        yield from ph_band(ctx, n, over_at={rng.randint(2, n - 2)})

    def gate_break():
        """A streak complete before the gate, broken by a pawn move at ply
        gate-1 (the draw rule would fire at gate-2 one move earlier)."""
        start = G - 2 - DP - rng.randint(2, 6)
        yield from to_ply(start - 1)
        yield from ph_band(ctx, G - 1 - ctx.ply, specials=False)
        assert ctx.ply == G - 1
        yield D("zero", ctx.band())

    if gtype == "draw_gate":
        # a streak that fires at ply G: either complete well before the gate
        # (Rd -1 until ply G-1, 0 at G), or one that completes exactly at G
        # (its Rd counts down to the gate from the first ply)
        if rng.random() < 0.5:
            start = G - DP - rng.randint(3, 8)
            yield from pre_gate_band(start - 12)
            yield from to_ply(start - 1)
            yield from ph_draw_fire(ctx, specials_until=start + 2)
        else:
            start = G - DP + 1
            yield from pre_gate_band(start - 12)
            yield from to_ply(start - 1)
            yield from ph_draw_fire(ctx, specials_until=0)
        return
    if gtype == "draw_late":
        yield from pre_gate_band(G - DP - 20)
        yield from gate_break()
        yield from ph_neutral(ctx, rng.randint(1, 3))
        yield from ph_draw_one_short(ctx, "over")
        yield from ph_neutral(ctx, rng.randint(1, 2))
        yield from ph_draw_one_short(ctx, rng.choice(("zero", "over")))
        yield from ph_draw_fire(ctx)
        return
    if gtype in ("win_short_w", "win_short_b"):
        yield from ph_neutral(ctx, rng.randint(2, 6))
        yield from pre_gate_band(G - 30)
        yield from ph_neutral(ctx, rng.randint(1, 3))
        yield from ph_ramp(ctx, sgn, rng.randint(2, 4))
        yield from ph_win(ctx, sgn, "one_short")
        yield from ph_ramp(ctx, sgn, rng.randint(1, 3))
        yield from ph_win(ctx, sgn, "fire")
        return
    if gtype in ("win_long_w", "win_long_b"):
        yield from gate_break()
        yield from ph_neutral(ctx, rng.randint(1, 2))
        yield from ph_draw_one_short(ctx, rng.choice(("zero", "over")))
        yield from ph_ramp(ctx, sgn, rng.randint(2, 3))
        yield from ph_win(ctx, sgn, "one_short")
        yield from ph_ramp(ctx, sgn, rng.randint(1, 2))
        yield from ph_win(ctx, sgn, "fire")
        return
    if gtype == "plain_short":
        yield from ph_neutral(ctx, rng.randint(2, 5))
        yield from pre_gate_band(G - 30)
        if win_ok:
            s = rng.choice((1, -1))
            yield from ph_ramp(ctx, s, rng.randint(2, 3))
            yield from ph_win(ctx, s, "one_short")
            if rng.random() < 0.5:
                yield from ph_ramp(ctx, -s, 2)
                yield from ph_win(ctx, -s, "one_short")
        else:
            yield from ph_ramp(ctx, rng.choice((1, -1)), rng.randint(3, 6))
            yield from ph_neutral(ctx, rng.randint(1, 3))
            yield from pre_gate_band(G - 12)
        yield D("free", ctx.neutral(), end="plain")
        return
    if gtype == "plain_long":
        yield from gate_break()
        yield from ph_neutral(ctx, rng.randint(1, 2))
        yield from ph_draw_one_short(ctx, "over")
        yield from ph_neutral(ctx, rng.randint(1, 3))
        yield D("free", ctx.neutral(), end="plain")
        return
    if gtype == "fifty":
        yield from ph_neutral(ctx, rng.randint(1, 3))
        yield from ph_fifty(ctx)
        return
    raise ValueError(gtype)


# --------------------------------------------------------------------- moves


def classify(board: chess.Board, m: chess.Move):
    piece = board.piece_type_at(m.from_square)
    cap = board.is_capture(m)
    pawn = piece == chess.PAWN
    rcl = piece == chess.ROOK and bool(board.clean_castling_rights() & chess.BB_SQUARES[m.from_square])
    return cap, pawn, rcl


def pos_key(board: chess.Board):
    # coarser than any repetition key: pieces and side to move only
    return (board.board_fen(), board.turn)


def playable(board: chess.Board, m: chess.Move, seen: dict) -> bool:
    """After m: no mate, stalemate or draw by material, more than 8 pieces,
    no third occurrence, and the opponent has a quiet move and a pawn move
    or capture that keep all that."""
    board.push(m)
    try:
        if chess.popcount(board.occupied) <= 8:
            return False
        if board.is_checkmate() or board.is_stalemate() or board.is_insufficient_material():
            return False
        if seen.get(pos_key(board), 0) >= 2:
            return False
        quiet = zero = False
        for m2 in board.legal_moves:
            cap, pawn, rcl = classify(board, m2)
            if cap or pawn:
                if not zero and not (cap and chess.popcount(board.occupied) <= 10):
                    zero = True
            elif not rcl and not quiet:
                board.push(m2)
                ok = (
                    not board.is_checkmate()
                    and not board.is_stalemate()
                    and seen.get(pos_key(board), 0) < 2
                )
                board.pop()
                quiet = ok
            if quiet and zero:
                return True
        return False
    finally:
        board.pop()


def choose(ctx: Ctx, d: D, seen: dict) -> chess.Move | None:
    board, rng = ctx.board, ctx.rng
    moves = list(board.legal_moves)
    rng.shuffle(moves)
    has_rights = bool(board.clean_castling_rights() & (chess.BB_RANK_1 if board.turn else chess.BB_RANK_8))
    pieces = chess.popcount(board.occupied)
    groups: list[list[chess.Move]] = []
    quiet, pawns, caps, rookloss = [], [], [], []
    for m in moves:
        cap, pawn, rcl = classify(board, m)
        if cap:
            caps.append(m)
        elif pawn:
            pawns.append(m)
        elif rcl:
            rookloss.append(m)
        else:
            quiet.append(m)
    # keep castling rights (rook moves that give one up are planned moves)
    if ctx.allow_rookloss and has_rights:
        quiet.sort(key=lambda m: board.piece_type_at(m.from_square) == chess.KING)
    # prefer moves that do not give check
    quiet.sort(key=lambda m: board.gives_check(m) and rng.random() < 0.85)
    pawns = [m for m in pawns if m.promotion is None] + [m for m in pawns if m.promotion is not None]
    caps = caps if pieces > 16 else []
    if d.kind == "quiet":
        groups = [quiet]
    elif d.kind == "rookloss":
        groups = [rookloss, quiet]
    elif d.kind == "zero":
        groups = [pawns, caps]
    else:  # free: mostly pawn moves and piece moves, some captures
        r = rng.random()
        if r < 0.42:
            groups = [pawns, quiet, caps]
        elif r < 0.88:
            groups = [quiet, pawns, caps]
        else:
            groups = [caps, pawns, quiet]
    for g in groups:
        for m in g[:12]:
            if playable(board, m, seen):
                return m
    return None


# --------------------------------------------------------------------- games


@dataclass
class Game:
    moves: list  # (san, comment)
    recs: list  # MoveRec
    result: str
    termination: str
    details: str
    gtype: str
    searchless: int
    rookloss: int


class Clock:
    """Both clocks: `base` ms and `increment` ms per move, each clock
    starting `credit` ms above the base (as some software credits the first
    move)."""

    def __init__(self, rng: random.Random, base: int = 1_800_000, increment: int = 5_000, credit: int = 0):
        self.rng = rng
        self.increment = increment
        self.left = {True: base + credit, False: base + credit}

    def move(self, white: bool, searchless: bool) -> tuple[int, int]:
        if searchless:
            mt = self.rng.randint(3, 60)
        elif self.left[white] > 900_000:
            mt = self.rng.randint(6_000, 42_000)
        elif self.left[white] > 300_000:
            mt = self.rng.randint(3_000, 15_000)
        else:
            mt = self.rng.randint(1_000, 5_500)
        self.left[white] = self.left[white] - mt + self.increment
        return mt, self.left[white]


def material(board: chess.Board) -> str:
    out = "mb="
    for pt in (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
        d = len(board.pieces(pt, chess.WHITE)) - len(board.pieces(pt, chess.BLACK))
        out += f"{d:+d}"
    return out + ","


def pv_text(board: chess.Board, m: chess.Move, rng: random.Random) -> str:
    b = board.copy(stack=False)
    sans = [b.san(m)]
    b.push(m)
    for _ in range(rng.randint(0, 2)):
        legal = list(b.legal_moves)
        if not legal:
            break
        m2 = rng.choice(legal)
        sans.append(b.san(m2))
        b.push(m2)
    return " ".join(sans)


def wv_text(cp: int) -> str:
    return f"{cp / 100:.2f}" if cp != 0 else "0.00"


def play_game(p: Params, rng: random.Random, gtype: str, opts) -> Game:
    for _attempt in range(300):
        try:
            return try_game(p, rng, gtype, opts)
        except Retry:
            continue
    raise SystemExit(f"could not build a game of type {gtype}")


def try_game(p: Params, rng: random.Random, gtype: str, opts) -> Game:
    board = chess.Board()
    counters = Counters(p)
    ctx = Ctx(
        p=p,
        rng=rng,
        board=board,
        counters=counters,
        allow_searchless=opts.allow_searchless,
        allow_rookloss=opts.allow_rookloss,
        win_evidence=opts.win_evidence,
    )
    seen: dict = {pos_key(board): 1}
    moves, recs = [], []
    clock = Clock(rng, *CLOCK)
    n_sl = n_rl = 0
    line = rng.choice(OPENINGS).split()
    book = rng.randint(4, 8)
    for san in line[:book]:
        m = board.parse_san(san)
        cap, pawn, rcl = classify(board, m)
        rec = MoveRec(ctx.ply, board.turn == chess.WHITE, cap, pawn, rcl, book=True)
        board.push(m)
        seen[pos_key(board)] = seen.get(pos_key(board), 0) + 1
        _, fired = counters.step(rec)
        assert fired is None
        moves.append((san, "book, mb=+0+0+0+0+0,".replace("mb=+0+0+0+0+0,", material(board))))
        recs.append(rec)
        ctx.ply += 1
    end = None
    for d in plan(ctx, gtype):
        if ctx.ply > 400:
            raise Retry("too long")
        if d.kind == "free" and counters.rev_fide >= 60:
            d.kind = "zero"
        if d.kind in ("quiet", "rookloss") and counters.rev_fide >= 90 and not d.allow_fifty:
            raise Retry("a quiet run would reach the fifty-move count")
        m = choose(ctx, d, seen)
        if m is None:
            raise Retry(f"no move for {d.kind} at ply {ctx.ply}")
        white = board.turn == chess.WHITE
        cap, pawn, rcl = classify(board, m)
        if rcl and not ctx.allow_rookloss:
            raise Retry("rook move that gives up a castling right")
        if d.searchless and p.shallow_moves:
            # moved at once from the tree it kept: the comment repeats the
            # figures of the engine's previous search
            depth, sd = 1, 1
            nps = rng.randint(8_000_000, 62_000_000)
            nodes = rng.randint(10**6, 10**8)
            ctx.last_searchless[white] = ctx.ply
        elif d.searchless:
            depth, sd, nodes, nps = 1, 0, 0, 0
            ctx.last_searchless[white] = ctx.ply
        else:
            depth = rng.randint(22, 44)
            sd = depth + rng.randint(0, 22)
            nps = rng.randint(8_000_000, 62_000_000)
            nodes = None
        mt, tl = clock.move(white, d.searchless)
        if nodes is None:
            nodes = max(nps * mt // 1000, 1001)
        pv = "" if d.searchless and not p.shallow_moves else pv_text(board, m, rng)
        san = board.san(m)
        rec = MoveRec(ctx.ply, white, cap, pawn, rcl, book=False, depth=depth, nodes=nodes, wv=d.wv)
        board.push(m)
        seen[pos_key(board)] = seen.get(pos_key(board), 0) + 1
        (r50, rd, rr), fired = counters.step(rec)
        rec.recorded = (r50, rd, rr)
        if d.searchless:
            n_sl += 1
        if rcl and not cap:
            n_rl += 1
            ctx.rookloss_done = True
        h = 0.0 if white and rng.random() < 0.5 else round(rng.uniform(0, 100), 1)
        comment = (
            f"d={depth}, sd={sd}, mt={mt}, tl={tl}, s={nps}, n={nodes}, pv={pv}, tb=0, "
            f"h={h:.1f}, ph=0.0, wv={wv_text(d.wv)}, R50={r50}, Rd={rd}, Rr={rr}, {material(board)}"
        )
        moves.append((san, comment))
        recs.append(rec)
        ctx.ply += 1
        if fired is not None:
            if d.end != fired[0]:
                raise Retry(f"{fired[0]} fired at ply {ctx.ply - 1} against the plan")
            end = fired
            break
        if d.end is not None:
            if d.end in ("draw", "win") and not getattr(p, d.end + "_rule"):
                # the rule is off: the game goes on past the point where it
                # would have fired, and the record ends it otherwise
                end = ("plain", None)
                break
            if d.end != "plain":
                raise Retry("planned end did not fire")
            end = ("plain", None)
            break
    if end is None:
        raise Retry("plan ran out without an end")
    if end[0] == "plain":
        loser_white = board.turn == chess.WHITE  # the side to move disconnects
        result = "0-1" if loser_white else "1-0"
        details = ("White" if loser_white else "Black") + " disconnects"
        termination = "abandoned"
    else:
        result = end[1]
        details = DETAILS[end[0]]
        termination = "adjudication"
    san, comment = moves[-1]
    moves[-1] = (san, comment + " " + details)
    if opts.allow_searchless is False:
        assert n_sl == 0
    return Game(moves, recs, result, termination, details, gtype, n_sl, n_rl)


# --------------------------------------------------------------------- pgn


def write_pgn(path, games, args, rng):
    out = []
    for i, g in enumerate(games):
        w, b = ENGINES[(i * 2) % len(ENGINES)], ENGINES[(i * 2 + 1 + i // len(ENGINES)) % len(ENGINES)]
        if w == b:
            b = ENGINES[(ENGINES.index(b) + 1) % len(ENGINES)]
        tags = [
            ("Event", args.event),
            ("Site", "https://tcec-chess.com"),
            ("Date", f"2019.05.{1 + i // 8:02d}"),
            ("Round", f"{1 + i // 4}.{1 + i % 4}"),
            ("White", w),
            ("Black", b),
            ("Result", g.result),
            ("BlackElo", str(3100 + 7 * ENGINES.index(b))),
            ("PlyCount", str(len(g.moves))),
            ("Termination", g.termination),
            ("TerminationDetails", g.details),
            ("TimeControl", TAG[0]),
            ("WhiteElo", str(3100 + 7 * ENGINES.index(w))),
        ]
        for k, v in tags:
            out.append(f'[{k} "{v}"]')
        out.append("")
        lines = []
        for j, (san, comment) in enumerate(g.moves):
            if j % 2 == 0:
                lines.append(f"{j // 2 + 1}. {san} {{{comment}}}")
            else:
                lines[-1] += f" {san} {{{comment}}}"
        lines[-1] += f" {g.result}"
        out.extend(lines)
        out.append("")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(out))


# --------------------------------------------------------------------- self-check


def replay_mismatches(games, p: Params):
    """Counter mismatches and termination mismatches of the archive under p."""
    counters_bad = term_bad = 0
    for g in games:
        c = Counters(p)
        computed = None
        for rec in g.recs:
            vals, fired = c.step(rec)
            if rec.recorded is not None and vals != rec.recorded:
                counters_bad += sum(1 for a, b in zip(vals, rec.recorded) if a != b)
            if fired is not None and computed is None:
                computed = (rec.ply, fired)  # the counters are still compared after it
        last = g.recs[-1].ply
        if computed is not None:
            ply, (rule, result) = computed
            if ply < last:
                term_bad += 1  # adjudication-missed
            else:
                if result != g.result:
                    term_bad += 1  # wrong result
                if DETAILS[rule] != g.details:
                    term_bad += 1  # mislabelled
        elif g.details in DETAILS.values():
            term_bad += 1  # unsupported
    return counters_bad, term_bad


def self_check(games, p: Params, flat: set, rng: random.Random) -> bool:
    ok = True
    base = replay_mismatches(games, p)
    print(f"planted {p.show()}: counter mismatches {base[0]}, termination mismatches {base[1]}")
    if base != (0, 0):
        ok = False
    grids = dict(GRIDS)
    if p.shallow_moves:
        grids["shallow_resets"] = [False, True]
    for name, grid in grids.items():
        row = []
        for v in grid:
            q = replace(p, **{name: v})
            cb, tb = replay_mismatches(games, q)
            row.append((v, cb, tb))
        zeros = [v for v, cb, tb in row if cb + tb == 0]
        planted = getattr(p, name)
        fmt = lambda v: (f"{v / 100:g}" if name in ("draw_eval", "win_eval") else str(v).lower())
        desc = " ".join(f"{fmt(v)}:{cb}+{tb}" for v, cb, tb in row)
        if name in flat:
            verdict = "flat (undecidable)" if len(zeros) == len(grid) else "NOT FLAT"
            ok &= len(zeros) == len(grid)
        else:
            verdict = "unique" if zeros == [planted] else f"NOT UNIQUE {zeros}"
            ok &= zeros == [planted]
        print(f"  {name}: {verdict}\n    {desc}")
    # a sample of joint points: none but the planted one may reproduce it
    joint_zero = 0
    names = [n for n in grids if n not in flat]
    for _ in range(400):
        q = p
        k = rng.randint(2, len(names))
        for n in rng.sample(names, k):
            q = replace(q, **{n: rng.choice(grids[n])})
        if q == p:
            continue
        if replay_mismatches(games, q) == (0, 0):
            joint_zero += 1
            print(f"  joint point with no mismatch: {q.show()}")
    ok &= joint_zero == 0
    print(f"  joint sample: {joint_zero} other points reproduce the archive")
    return ok


# --------------------------------------------------------------------- main


def parse_bool(s: str) -> bool:
    if s.lower() in ("true", "1", "yes"):
        return True
    if s.lower() in ("false", "0", "no"):
        return False
    raise argparse.ArgumentTypeError("true or false")


def mix(n: int, opts) -> list[str]:
    if opts.win_evidence:
        weights = {
            "draw_gate": 2.0,
            "draw_late": 1.2,
            "win_short_w": 3.0,
            "win_short_b": 3.0,
            "win_long_w": 0.5,
            "win_long_b": 0.5,
            "plain_short": 4.5,
            "plain_long": 1.0,
            "fifty": 0.5,
        }
    else:
        weights = {"draw_gate": 3.0, "draw_late": 2.0, "plain_short": 4.0, "plain_long": 2.0, "fifty": 1.0}
    total = sum(weights.values())
    exact = {k: n * w / total for k, w in weights.items()}
    counts = {k: max(1, int(v)) for k, v in exact.items()}
    rest = sorted(exact, key=lambda k: exact[k] - int(exact[k]), reverse=True)
    i = 0
    while sum(counts.values()) < n:
        counts[rest[i % len(rest)]] += 1
        i += 1
    while sum(counts.values()) > n:
        k = max(counts, key=counts.get)
        counts[k] -= 1
    return [k for k in weights for _ in range(counts[k])]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--games", type=int, required=True)
    ap.add_argument("--draw-eval", type=float, default=0.08)
    ap.add_argument("--draw-plies", type=int, default=10)
    ap.add_argument("--draw-from-move", type=int, default=35)
    ap.add_argument("--win-eval", type=float, default=10.0)
    ap.add_argument("--win-plies", type=int, default=10)
    ap.add_argument("--rook-castling-resets", type=parse_bool, default=True)
    ap.add_argument("--searchless-resets", type=parse_bool, default=True)
    ap.add_argument(
        "--shallow-moves",
        action="store_true",
        help="write the moves planted without a search as d=1 with nodes and a PV (a move from a kept tree)",
    )
    ap.add_argument(
        "--shallow-resets",
        type=parse_bool,
        default=False,
        help="whether the software resets the counters at any move of depth 1 or less",
    )
    ap.add_argument("--draw-rule", type=parse_bool, default=True, help="false: the draw rule is off (Rd=-1000)")
    ap.add_argument("--win-rule", type=parse_bool, default=True, help="false: the win rule is off (Rr=-1000)")
    ap.add_argument("--r50-before-move", action="store_true", help="R50 shows the count before the move")
    ap.add_argument("--r50-round-up", action="store_true", help="R50 rounds half moves up")
    ap.add_argument(
        "--details",
        default="",
        help="comma-separated END=TEXT: the TerminationDetails the software writes (END: fifty, draw, win)",
    )
    ap.add_argument("--base", type=float, default=1800, help="the clocks' base time, seconds")
    ap.add_argument("--increment", type=float, default=5, help="seconds added per move")
    ap.add_argument("--start-credit", type=float, default=0, help="seconds each clock starts with beyond the base")
    ap.add_argument("--tag", default=None, help="the TimeControl tag (default: BASE+INCREMENT)")
    ap.add_argument("--event", default="Synthetic Fit Event")
    ap.add_argument(
        "--flat",
        default="",
        help="comma-separated: searchless_resets, rook_castling_resets, win_eval: leave no evidence of these",
    )
    ap.add_argument("--self-check", action="store_true", help="scan the fit's grids and report")
    args = ap.parse_args(argv)

    p = Params(
        draw_eval=round(args.draw_eval * 100),
        draw_plies=args.draw_plies,
        draw_from_move=args.draw_from_move,
        win_eval=round(args.win_eval * 100),
        win_plies=args.win_plies,
        rook_castling_resets=args.rook_castling_resets,
        searchless_resets=args.searchless_resets,
        draw_rule=args.draw_rule,
        win_rule=args.win_rule,
        r50_after_move=not args.r50_before_move,
        r50_round_up=args.r50_round_up,
        shallow_resets=args.shallow_resets,
        shallow_moves=args.shallow_moves,
    )
    global CLOCK
    CLOCK = (round(args.base * 1000), round(args.increment * 1000), round(args.start_credit * 1000))
    TAG[0] = args.tag if args.tag is not None else f"{args.base:g}+{args.increment:g}"
    for item in filter(None, args.details.split(",")):
        end, _, text = item.partition("=")
        if end not in DETAILS or not text:
            ap.error(f"--details: expected END=TEXT with END one of {sorted(DETAILS)}, got {item!r}")
        DETAILS[end] = text
    if p.win_plies % 2 or p.draw_plies < 2:
        ap.error("win_plies must be even and draw_plies at least 2")
    flat = {f for f in args.flat.split(",") if f}
    unknown = flat - {"searchless_resets", "rook_castling_resets", "win_eval"}
    if unknown:
        ap.error(f"--flat: unknown {sorted(unknown)}")

    class Opts:
        allow_searchless = "searchless_resets" not in flat
        allow_rookloss = "rook_castling_resets" not in flat
        win_evidence = "win_eval" not in flat

    rng = random.Random(args.seed)
    types = mix(args.games, Opts)
    rng.shuffle(types)
    games = [play_game(p, rng, t, Opts) for t in types]
    write_pgn(args.out, games, args, rng)
    by_type: dict = {}
    for g in games:
        by_type[g.gtype] = by_type.get(g.gtype, 0) + 1
    ends: dict = {}
    for g in games:
        ends[(g.result, g.details)] = ends.get((g.result, g.details), 0) + 1
    print(f"wrote {args.out}: {len(games)} games, {sum(len(g.moves) for g in games)} plies")
    print("  types: " + ", ".join(f"{k} {v}" for k, v in sorted(by_type.items())))
    print("  ends: " + ", ".join(f"{r} {d} {v}" for (r, d), v in sorted(ends.items())))
    print(
        f"  searchless moves {sum(g.searchless for g in games)}, "
        f"rook moves giving up a castling right {sum(g.rookloss for g in games)}"
    )
    if args.self_check:
        undecidable = set(flat)
        if p.shallow_moves:
            # no move without a search has n=0: only shallow_resets decides
            undecidable.add("searchless_resets")
        for rule, values in RULE_VALUES.items():
            if not getattr(p, rule):
                undecidable.update(values)
        return 0 if self_check(games, p, undecidable, random.Random(args.seed + 1)) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

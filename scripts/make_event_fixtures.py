#!/usr/bin/env python3
"""Write the golden fixtures of the event-level rules.

Each fixture is one event (several games) in which exactly the rule's
defect is planted; tests/golden.rs runs `arbiter batch` on it and checks
that the rule fires. The games carry only what the event-level rules read
(tags, and book moves for the Superfinal); their moves are a short legal
opening.

    python3 scripts/make_event_fixtures.py tests/fixtures/rules
"""
import os
import sys


def game(event, rnd, white, black, result, extra="", moves="1. e4 e5", date="2019.03.01"):
    tags = [("Event", event), ("Site", "?"), ("Date", date), ("Round", rnd),
            ("White", white), ("Black", black), ("Result", result)]
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags) + extra
    return f"{head}\n{moves} {result}\n\n"


def round_robin(event, names, cycles, date="2019.03.01", rename=None):
    """Every ordered pair `cycles` times: a 2x double round robin for 2."""
    out = []
    k = 0
    for _ in range(cycles):
        for w in names:
            for b in names:
                if w == b:
                    continue
                k += 1
                ww, bb = w, b
                if rename:
                    ww, bb = rename(k, ww), rename(k, bb)
                out.append((ww, bb))
    return [game(event, f"{i + 1}.1", w, b, "1/2-1/2", date=date) for i, (w, b) in enumerate(out)]


def tcec(dirname):
    d2 = "TCEC Season 15 - Division 2"
    d1 = "TCEC Season 15 - Division 1"
    names = ["Alpha 1.0", "Beta 2.1", "Gamma 3"]
    fx = {}
    # a game missing from a 2x double round robin
    fx["tcec.round-robin"] = round_robin(d2, names, 2)[:-1]
    # a Division 4 group
    fx["tcec.division-format"] = round_robin("TCEC Season 15 - Division 4a", names, 1)
    # Gamma updated once, then twice
    fx["tcec.engine-update"] = round_robin(
        d2, names, 2, rename=lambda k, n: "Gamma 3.1" if n == "Gamma 3" and k > 8 else n)
    fx["tcec.engine-updated-twice"] = round_robin(
        d2, names, 2,
        rename=lambda k, n: n if n != "Gamma 3" or k <= 6 else ("Gamma 3.1" if k <= 9 else "Gamma 3.2"))
    # a division in which the earlier of two names always wins: the
    # standings are the list's order, with no ties
    def ranked(event, names, cycles, date):
        out = []
        k = 0
        for _ in range(cycles):
            for w in names:
                for b in names:
                    if w != b:
                        k += 1
                        r = "1-0" if names.index(w) < names.index(b) else "0-1"
                        out.append(game(event, f"{k}.1", w, b, r, date=date))
        return out
    d2_names = ["Alpha 1.0", "Beta 2.1", "Gamma 3", "Delta 4"]
    # Alpha and Beta top Division 2, but Division 1 holds Gamma and Beta
    fx["tcec.promotion"] = (
        ranked(d2, d2_names, 2, "2019.03.01")
        + round_robin(d1, ["Gamma 3", "Beta 2.2", "Omega 9"], 2, date="2019.03.20"))
    # Delta, last of Division 1 in season 15, plays Division 1 of season 16
    fx["tcec.relegation"] = (
        ranked(d1, d2_names, 2, "2019.03.01")
        + round_robin("TCEC Season 16 - Division 1", ["Delta 4", "Omega 9"], 2, date="2019.08.01"))
    sf = "TCEC Season 15 - Superfinal"
    a, b = "LCZero v0.21", "Stockfish 19050918"
    o1 = "1. d4 {book} d5 {book} 2. c4 {book}"
    o2 = "1. e4 {book} c5 {book} 2. Nf3 {book}"
    pairs = [game(sf, "1", a, b, "1/2-1/2", moves=o1), game(sf, "2", b, a, "1/2-1/2", moves=o1)]
    # opening 2 played twice with the same colours
    fx["tcec.superfinal-openings"] = pairs + [
        game(sf, "3", a, b, "1/2-1/2", moves=o2), game(sf, "4", a, b, "1/2-1/2", moves=o2)]
    fx["tcec.superfinal-opening-unknown"] = pairs + [game(sf, "3", a, b, "1/2-1/2", moves="1. c4 e5")]
    # two games of 100
    fx["tcec.superfinal-games"] = pairs
    return fx


def wccc():
    ev = "7th World Computer Chess Championship"

    def g(rnd, w, b, r):
        elo = lambda p: 2500 - 50 * p
        return game(ev, str(rnd), f"P{w}", f"P{b}", r,
                    extra=f'[WhiteElo "{elo(w)}"]\n[BlackElo "{elo(b)}"]\n')
    five = [g(3, 1, 2, "1-0"), g(4, 3, 4, "1-0"), g(5, 5, 6, "1-0")]
    fx = {}
    # round 1 pairs the top program with the lower half's first
    fx["wccc.accelerated-pairing"] = [
        g(1, 1, 5, "1-0"), g(1, 2, 4, "1-0"), g(1, 3, 6, "1-0"), g(1, 7, 8, "1-0")] + five
    fx["wccc.rematch"] = [g(1, 1, 2, "1-0"), g(2, 2, 1, "1-0")] + five
    fx["wccc.one-game-a-round"] = [g(1, 1, 2, "1-0"), g(1, 1, 3, "1-0")] + five
    fx["wccc.five-rounds"] = [g(1, 1, 2, "1-0"), g(2, 3, 4, "1-0")]
    return fx


def deep_blue():
    ev = "IBM Man-Machine, Philadelphia 1996"
    k, d = "Kasparov, Garry", "Deep Blue"
    played = [(d, k, "1-0"), (k, d, "1-0"), (d, k, "1/2-1/2"), (k, d, "1/2-1/2"),
              (d, k, "0-1"), (k, d, "1-0")]
    fx = {}
    swapped = list(played)
    swapped[2] = (k, d, "1/2-1/2")
    fx["db.colours"] = [game(ev, str(i + 1), w, b, r) for i, (w, b, r) in enumerate(swapped)]
    fx["db.six-games"] = [game(ev, str(i + 1), w, b, r) for i, (w, b, r) in enumerate(played[:5])]
    return fx


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/rules"
    for ruleset, fx in [("tcec-s15", tcec(root)), ("wccc-1992-madrid", wccc()),
                        ("kasparov-deep-blue-1996", deep_blue())]:
        for rule, games in fx.items():
            path = os.path.join(root, ruleset, f"{rule}.pgn")
            with open(path, "w") as f:
                f.write("".join(games))
            print(path, len(games), "games")


if __name__ == "__main__":
    main()

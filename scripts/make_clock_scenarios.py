#!/usr/bin/env python3
"""Write the clock scenario folders under samples/ from the clean ones.

Usage: scripts/make_clock_scenarios.py [SHARED_CORPORA_DIR]

Each scenario starts from an event's `clean` folder (a game recorded with
`arbiter record` against real engines, with its engine log and operator log)
and changes only what the scenario is about. Time is moved by shifting every
timestamp of both logs from an instant on by the same amount, so the two
logs stay consistent with each other. The game records of the "from logs"
scenarios have their clock comments removed, so that the logs' timestamps
are the only source of the moves' times.

The TCEC scenario is one game of the official Season 15 archive (its path is
given as the argument; the game is copied verbatim). Without the argument
it is left as it is.

This script writes inputs only. Each folder's expected.json was written by
hand after reading the audit's output, and is not touched here.
"""
import datetime as dt
import json
import os
import re
import shutil
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "samples")
TS = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?)(Z|[+-]\d\d:\d\d)")


def parse(line):
    m = TS.match(line)
    if not m:
        return None
    text, zone = m.group(1), m.group(2)
    t = dt.datetime.fromisoformat(text + ("+00:00" if zone == "Z" else zone))
    return t, m


def shifted(line, delta):
    p = parse(line)
    if p is None:
        return line
    t, m = p
    text, zone = m.group(1), m.group(2)
    new = (t + delta).astimezone(t.tzinfo)
    frac = len(text.split(".")[1]) if "." in text else 0
    s = new.strftime("%Y-%m-%dT%H:%M:%S")
    if frac:
        s += "." + f"{new.microsecond:06d}"[:frac]
    return s + zone + line[m.end():]


def shift_from(lines, instant, delta):
    """Shift every timestamped line at or after `instant` by `delta`."""
    out = []
    for line in lines:
        p = parse(line)
        out.append(shifted(line, delta) if p and p[0] >= instant else line)
    return out


def time_of(lines, pred):
    hits = [parse(l)[0] for l in lines if parse(l) and pred(l)]
    assert len(hits) == 1, hits
    return hits[0]


def insert_at(lines, instant, new_lines):
    """Insert lines before the first timestamped line after `instant`."""
    for i, line in enumerate(lines):
        p = parse(line)
        if p and p[0] > instant:
            return lines[:i] + new_lines + lines[i:]
    return lines + new_lines


def fmt_like(lines, t):
    """`t` written as the timestamps of `lines` are (zone and precision)."""
    sample = next(l for l in lines if parse(l))
    base, m = parse(sample)
    return shifted(sample, t - base)[: m.end()]


def strip_clocks(pgn):
    pgn = re.sub(r"\s*\{\s*(\[%(clk|emt) [^\]]*\]\s*)+\}", "", pgn)
    return re.sub(r'\[TimeControl "[^"]*"\]\n', "", pgn)


class Case:
    def __init__(self, event, base, name):
        self.src = os.path.join(ROOT, event, base)
        self.dst = os.path.join(ROOT, event, name)
        self.case = json.load(open(os.path.join(self.src, "case.json")))
        self.files = {}
        for f in os.listdir(self.src):
            if f not in ("case.json", "expected.json"):
                self.files[f] = open(os.path.join(self.src, f)).read()

    def lines(self, f):
        return self.files[f].splitlines()

    def set_lines(self, f, lines):
        self.files[f] = "\n".join(lines) + "\n"

    def shift(self, instant, delta):
        for f in ("operator.log", "engine.log"):
            if f in self.files:
                self.set_lines(f, shift_from(self.lines(f), instant, delta))

    def write(self, description):
        os.makedirs(self.dst, exist_ok=True)
        for f, text in self.files.items():
            open(os.path.join(self.dst, f), "w").write(text)
        case = dict(self.case)
        case["description"] = description
        with open(os.path.join(self.dst, "case.json"), "w") as fh:
            json.dump(case, fh, indent=2, ensure_ascii=False)
            fh.write("\n")
        print("wrote", os.path.relpath(self.dst, ROOT))


H = dt.timedelta(hours=1)
M = dt.timedelta(minutes=1)


def dj_flag_fall_from_logs():
    c = Case("kasparov-deep-junior-2003", "clean", "flag-fall-from-logs")
    op = c.lines("operator.log")
    t = time_of(op, lambda l: " move-entered ply=21 " in l)
    c.shift(t, 2 * H + 5 * M)
    c.write(
        "The clean game, with Kasparov taking 2 h 5 min over his 11th move (Qg4): the "
        "operator enters it 2 h 5 min later than in the clean game, and both logs run on "
        "from there. The record has no clock readings: the clock engine times Kasparov's "
        "moves from the operator log (the machine's move executed to his move entered) and "
        "Deep Junior's from its engine log (go to bestmove). Kasparov's time ran out at move "
        "11, before the 40 moves of the first period, and the game went on."
    )


def dj_power(name, restart_after, stop_clock, description):
    c = Case("kasparov-deep-junior-2003", "clean", name)
    op = c.lines("operator.log")
    executed = time_of(op, lambda l: " move-executed ply=22 " in l)
    fail = executed + dt.timedelta(milliseconds=300)
    outage = 2 * H + 10 * M
    c.shift(fail, outage + restart_after)
    op = c.lines("operator.log")
    new = [fmt_like(op, fail) + " valvo power-failure role=arbiter reason=\"hall power lost\""]
    if stop_clock:
        new.append(
            fmt_like(op, fail + dt.timedelta(seconds=5))
            + " valvo clock-stop side=both role=arbiter reason=\"power failure\""
        )
    new.append(fmt_like(op, fail + outage) + " valvo power-restored role=arbiter")
    if stop_clock:
        new.append(
            fmt_like(op, fail + outage + restart_after)
            + " valvo clock-start side=white role=arbiter"
        )
    c.set_lines("operator.log", insert_at(op, fail, new))
    c.write(description)


def db_time_forfeit_from_logs():
    c = Case("kasparov-deep-blue-1996", "clean", "time-forfeit-from-logs")
    op = c.lines("operator.log")
    t = time_of(op, lambda l: " move-entered side=black move=Be7" in l)
    c.shift(t, 2 * H)
    c.write(
        "The clean game, with Kasparov taking two hours more over 4...Be7: the operator "
        "enters it two hours later, and both logs run on from there. The record has no "
        "clock readings, so the clock engine times Kasparov's moves from the operator log "
        "and Deep Blue's from its engine log. Kasparov's flag fell at move 4 (3a: 40 moves "
        "in 2 hours), so the game should have ended there with Deep Blue winning on time; "
        "the record plays on to Kasparov's resignation after 20.Bxe4."
    )


def db_machine_clock_stopped():
    c = Case("kasparov-deep-blue-1996", "clean", "machine-clock-stopped")
    op = c.lines("operator.log")
    entered = time_of(op, lambda l: " move-entered side=black move=Nc6" in l)
    el = c.lines("engine.log")
    go = min(parse(l)[0] for l in el if parse(l) and " > go " in l and parse(l)[0] >= entered)
    stop = go + dt.timedelta(milliseconds=500)  # during Deep Blue's search
    pause = 9 * M
    c.shift(stop, pause)
    op = c.lines("operator.log")
    new = [
        fmt_like(op, stop)
        + " hoane clock-stop side=white reason=\"search too slow, checking the nodes\"",
        fmt_like(op, stop + pause) + " hoane clock-start side=white",
    ]
    c.set_lines("operator.log", insert_at(op, stop, new))
    c.write(
        "The clean game, with Deep Blue's operator stopping Deep Blue's clock for 9 minutes "
        "on its turn, during its search after 6...Nc6, because the search seemed slow, with no power failure: "
        "5e says Deep Blue's clock always runs on its turn. The clock engine does not charge "
        "Deep Blue the 9 minutes (its move time comes from the engine log less the stop)."
    )


def wccc_period_missed():
    c = Case("wccc-1992-madrid", "clean", "period-requirement-missed")
    c.files["game.pgn"] = strip_clocks(c.files["game.pgn"])
    el = c.lines("engine.log")
    gos = [parse(l)[0] for l in el if parse(l) and l.split(" ", 2)[1:2] == [">"] and " go " in l]
    t = gos[14] + dt.timedelta(milliseconds=1)  # inside the program's 15th search
    c.shift(t, 2 * H)
    c.write(
        "The clean game, with the clock comments removed from the record, and Stockfish's "
        "15th search (for 15.Qxc4) lasting two hours more: both logs run on two hours later from "
        "inside that search. The clock engine times the program's moves from its engine log "
        "and the opponent's from the operator log. The program missed the first period's "
        "requirement (40 moves in 2 hours) at move 15, and the game went on."
    )


def icga_time_limit_from_logs():
    c = Case("icga-2008", "clean", "time-limit-from-logs")
    c.files["game.pgn"] = strip_clocks(c.files["game.pgn"])
    el = c.lines("engine.log")
    gos = [parse(l)[0] for l in el if parse(l) and l.split(" ", 2)[1:2] == [">"] and " go " in l]
    t = gos[9] + dt.timedelta(milliseconds=1)
    c.shift(t, 25 * M)
    c.write(
        "The clean game, with the clock comments removed from the record, and the program's "
        "10th search lasting 25 minutes more: both logs run on 25 minutes later from inside "
        "that search. The clock engine times the program's moves from its engine log (go to "
        "bestmove); its 30 minutes (D1) ran out at move 10."
    )


def tcec_manual_addition(corpora):
    if corpora is None:
        print("skipped tcec-s15/manual-clock-addition: no corpus directory given")
        return
    src = open(os.path.join(corpora, "tcec-s15", "tcec-s15-division-4b.pgn")).read()
    games = re.split(r"\n(?=\[Event )", src)
    game = next(g for g in games if '[Round "7.2"]' in g)
    dst = os.path.join(ROOT, "tcec-s15", "manual-clock-addition")
    os.makedirs(dst, exist_ok=True)
    open(os.path.join(dst, "game.pgn"), "w").write(game.rstrip("\n") + "\n")
    case = {
        "ruleset": "tcec-s15",
        "description": (
            "Division 4b, round 7.2 (AllieStein v0.1-n4 v chess22k 1.12) from the official "
            "TCEC Season 15 archive, verbatim. After a network disconnection at ply 96 both "
            "clocks were given about 90 s by hand. tl - mt + 5 s breaks for both sides at "
            "plies 97 and 98 (tcec.clock); not credited, the 90 s would have left chess22k "
            "out of time at move 78 (tcec.flag-fall-after-gain, information). The PlyCount "
            "tag still says 96. The game ends by SyzygyTB with 6 pieces; without 6-piece "
            "tables that ending stays undecided (information)."
        ),
    }
    with open(os.path.join(dst, "case.json"), "w") as fh:
        json.dump(case, fh, indent=2)
        fh.write("\n")
    print("wrote tcec-s15/manual-clock-addition")


MOVE = re.compile(r"(?:\d+\.+\s*)?([A-Za-z][A-Za-z0-9+#=-]*)\s*\{([^}]*)\}")
CLK = re.compile(r"\[%clk (\d+):(\d\d):(\d\d(?:\.\d+)?)\]")


def add_to_clock(pgn, black, from_ply, seconds):
    """Add `seconds` to every [%clk] of one side from `from_ply` on."""
    head, body = pgn.split("\n\n", 1)
    ply = 0

    def move(m):
        nonlocal ply
        ply += 1
        if ply < from_ply or (ply % 2 == 0) != black:
            return m.group(0)

        def clk(c):
            t = int(c.group(1)) * 3600 + int(c.group(2)) * 60 + float(c.group(3)) + seconds
            h, rest = divmod(t, 3600)
            mnt, sec = divmod(rest, 60)
            return "[%%clk %d:%02d:%04.1f]" % (h, mnt, sec)

        return m.group(0).replace(m.group(2), CLK.sub(clk, m.group(2)))

    return head + "\n\n" + MOVE.sub(move, body)


def clock_gain(event, name, black, from_ply, seconds, description):
    c = Case(event, "clean", name)
    c.files["game.pgn"] = add_to_clock(c.files["game.pgn"], black, from_ply, seconds)
    c.write(description)


def dj_repair_clock_stopped():
    c = Case("kasparov-deep-junior-2003", "clean", "repair-clock-stopped")
    op = c.lines("operator.log")
    executed = time_of(op, lambda l: " move-executed ply=22 " in l)
    stop = executed + dt.timedelta(milliseconds=200)
    c.shift(stop, 6 * M)
    op = c.lines("operator.log")
    new = [
        fmt_like(op, stop) + " levy clock-stop side=black reason=\"machine to be repaired\"",
        fmt_like(op, stop + 2 * M) + " levy restart what=program reason=\"repair\"",
        fmt_like(op, stop + 6 * M) + " levy clock-start side=black",
    ]
    c.set_lines("operator.log", insert_at(op, stop, new))
    c.write(
        "The clean game, with Deep Junior's operator stopping the machine's clock after "
        "11...Bb7 and restarting the program while it is stopped, then starting the clock "
        "6 minutes later. 8(a): repairs are made while the machine's clock is running. (The "
        "engine log shows no restart: the operator's entry is the whole record of it.)"
    )


def dj_machine_clock_drift():
    c = Case("kasparov-deep-junior-2003", "clean", "machine-clock-drift")
    el = c.lines("engine.log")
    gos = [i for i, l in enumerate(el) if " > go movetime " in l]
    i = gos[10]  # the search for 11...Bb7
    el[i] = el[i].replace("go movetime 1000", "go wtime 7185000 btime 7020000 movetime 1000")
    c.set_lines("engine.log", el)
    c.write(
        "The clean game, with the `go` for Deep Junior's 11th move (11...Bb7) carrying the "
        "clocks its interface believed: black 1:57:00, about 2 minutes 50 seconds less than "
        "the game clock, which the operator did not correct when the move was entered "
        "(6(c)). The line is spliced into the real log; the other searches carry no clocks."
    )


def main():
    corpora = sys.argv[1] if len(sys.argv) > 1 else None
    dj_flag_fall_from_logs()
    dj_power(
        "power-failure-suspended",
        15 * M,
        True,
        "The clean game, with a power failure of 2 h 10 min on Kasparov's turn after "
        "11...Bb7: the arbiter stops both clocks, the power comes back, and he starts the "
        "clocks again 15 minutes later (8(b): up to 20 minutes to reset the machine). Both "
        "logs run on 2 h 25 min later. The clock engine does not charge Kasparov the "
        "suspension, so no flag falls. Nothing to report.",
    )
    dj_power(
        "power-reset-overrun",
        30 * M,
        True,
        "As power-failure-suspended, but the arbiter starts the clocks again 30 minutes "
        "after the power is restored: 8(b) allows the machine operator up to 20 minutes.",
    )
    dj_power(
        "power-failure-clock-running",
        0 * M,
        False,
        "As power-failure-suspended, but nobody stops the clocks during the 2 h 10 min "
        "failure (8(b): the game shall be suspended). The clock engine still treats the "
        "failure as a suspension, so Kasparov is not charged it and no flag falls.",
    )
    db_time_forfeit_from_logs()
    db_machine_clock_stopped()
    wccc_period_missed()
    icga_time_limit_from_logs()
    tcec_manual_addition(corpora)
    dj_repair_clock_stopped()
    dj_machine_clock_drift()
    clock_gain(
        "wccc-1992-madrid",
        "clock-unexplained",
        True,
        6,
        120,
        "The clean game, with Black's [%clk] 120 s higher from 3...Bb4+ on: its clock "
        "gained two minutes that neither its move times nor any logged setting explain.",
    )
    clock_gain(
        "icga-2008",
        "clock-unexplained",
        True,
        10,
        90,
        "The clean game, with Black's [%clk] 90 s higher from 5... on: the chess clock "
        "gained a minute and a half that nothing recorded explains.",
    )


if __name__ == "__main__":
    main()

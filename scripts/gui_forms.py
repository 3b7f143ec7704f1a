#!/usr/bin/env python3
"""A TCEC record rewritten into the move comments other GUIs write.

Usage: scripts/gui_forms.py FORM < tcec.pgn > form.pgn
FORM: cutechess, fastchess or lichess.

The same rewrite as tests/gui_forms.rs (which says what each form is);
scripts/record_identical.sh uses this one, the test its own, and a
difference shows as a failing tests/identical.rs. Also for timing arbiter
on those forms: bench/throughput.sh on a folder of rewritten files.
"""
import sys


def items(body):
    out = []
    for i in body.split(","):
        i = i.strip()
        if not i:
            continue
        if "=" in i:
            k, v = i.split("=", 1)
            out.append((k.strip(), v.strip()))
        else:
            out.append((i, ""))
    return out


def white_score(text):
    neg = text.startswith("-")
    body = text[1:] if neg else (text[1:] if text.startswith("+") else text)
    sign = -1 if neg else 1
    if body.startswith("M"):
        m = body[1:]
        if not m or not all(c in "0123456789" for c in m):
            return None
        return (True, sign * int(m))
    whole, _, frac = body.partition(".")
    if not whole or not all(c in "0123456789" for c in whole):
        return None
    if not all(c in "0123456789" for c in frac):
        return None
    cents = 0
    for c in frac[:2]:
        cents = cents * 10 + int(c)
    if len(frac) < 2:
        cents *= 100 if not frac else 10
    return (False, sign * (int(whole) * 100 + cents))


def pawns(mate, v, plus):
    if mate:
        return "%sM%d" % ("-" if v < 0 else "+", abs(v))
    sign = "-" if v < 0 else ("+" if plus and v > 0 else "")
    return "%s%d.%02d" % (sign, abs(v) // 100, abs(v) % 100)


def as_ms(v):
    digits = v[1:] if v is not None and v.startswith("+") else v
    if not digits or not all(c in "0123456789" for c in digits):
        return None
    return int(digits)


def comment(body, white, form):
    its = items(body)

    def get(k):
        for key, v in its:
            if key == k:
                return v
        return None

    book = any(k == "book" and v == "" for k, v in its)
    if form in ("cutechess", "fastchess"):
        if book:
            return "{book}"
        wv = get("wv")
        s = white_score(wv) if wv is not None else None
        depth, mt = get("d"), as_ms(get("mt"))
        if s is None or depth is None or mt is None:
            return None
        mate, v = s
        v = v if white else -v
        head = "%s/%s" % (pawns(mate, v, True), depth)
        secs = "%d.%03ds" % (mt // 1000, mt % 1000)
        if form == "cutechess":
            return "{%s %s}" % (head, secs)
        return "{%s, %s, n=%s, sd=%s, nps=%s}" % (
            head, secs, *(get(k) if get(k) is not None else "0" for k in ("n", "sd", "s")))
    parts = []
    wv = get("wv")
    if not book and wv is not None:
        s = white_score(wv)
        if s is not None:
            mate, v = s
            parts.append("[%%eval #%d]" % v if mate else "[%%eval %s]" % pawns(False, v, False))
    tl = as_ms(get("tl"))
    if tl is not None:
        s = tl // 1000
        parts.append("[%%clk %d:%02d:%02d]" % (s // 3600, s // 60 % 60, s % 60))
    return "{ %s }" % " ".join(parts) if parts else None


def rewrite(text, form):
    out = []
    white_to_move, mover = True, None
    at, line_start, n = 0, True, len(text)
    ws = b" \t\n\r\x0c"
    while at < n:
        b = text[at:at + 1]
        if line_start and b == b"[":
            end = text.find(b"\n", at)
            end = n if end < 0 else end + 1
            line = text[at:end]
            if line.startswith(b"[Event "):
                white_to_move, mover = True, None
            if line.startswith(b'[FEN "'):
                fields = line[6:].split(b" ")
                white_to_move = len(fields) < 2 or fields[1] != b"b"
            out.append(line)
            at = end
            continue
        if b == b"{":
            close = text.find(b"}", at)
            if close < 0:
                out.append(text[at:])
                break
            if mover is not None:
                try:
                    body = text[at + 1:close].decode("utf-8")
                except UnicodeDecodeError:
                    body = ""
                c = comment(body, mover, form)
                if c is not None:
                    out.append(c.encode())
                mover = None
            line_start = False
            at = close + 1
            continue
        if b in [bytes([c]) for c in ws]:
            out.append(b)
            line_start = b == b"\n"
            at += 1
            continue
        end = at
        while end < n and text[end] not in ws and text[end:end + 1] != b"{":
            end += 1
        token = text[at:end]
        p = 0
        while p < len(token) and (chr(token[p]).isdigit() and token[p] < 128 or token[p:p + 1] == b"."):
            p += 1
        san = token[p:]
        numbered = len(san) < len(token) and b"." in token
        is_move = (san != b"" and (numbered or not (48 <= token[0] <= 57))
                   and not san.startswith(b"$") and san not in (b"*", b"(", b")"))
        if is_move and token not in (b"1-0", b"0-1", b"1/2-1/2"):
            mover = white_to_move
            white_to_move = not white_to_move
        out.append(token)
        line_start = False
        at = end
    return b"".join(out)


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("cutechess", "fastchess", "lichess"):
        sys.stderr.write(__doc__)
        sys.exit(2)
    sys.stdout.buffer.write(rewrite(sys.stdin.buffer.read(), sys.argv[1]))

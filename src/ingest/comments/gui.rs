//! The move-comment forms of other GUIs and of earlier TCEC seasons.
//!
//! Each form is parsed by its own function and typed into the same fields
//! (score, depth, move time), so that a rule or a report never needs to
//! know which program wrote the record. What each GUI writes is listed in
//! `docs/findings-schema.md`.
//!
//! * fastchess: `+1.04/16 0.230s, tl=3.850s, latency=-0.001s, n=…,
//!   sd=…, nps=…, hashfull=…, tbhits=…, pv="g4h5 e6e5 …"[, <termination>]`
//!   (each item after the time only when asked for), and the older layout
//!   `+0.35/24, 1.234s, n=…`: in [`super::fastchess`];
//! * OpenBench's cutechess-ob: `+1.31 14/40 159 377044` (score,
//!   depth/seldepth, ms, nodes): in [`super::openbench`];
//! * Arena and Banksia: `+0.35/24 1` or `+0.4/18 2.3` (the time in seconds
//!   without a unit), Arena also with the expected move first, `(e4)
//!   +0.35/24 1`, Banksia with its own text after a `;`:
//!   [`parse_plain_seconds`];
//! * c-chess-cli: `35/24 1234ms` (centipawns, depth, ms), in
//!   [`super::c_chess_cli`];
//! * early TCEC seasons: times as `00:02:46` in `mt`/`tl`
//!   ([`parse_tcec_time`]) and speeds as `14000 kN/s` in `s`
//!   ([`parse_speed`]).
//!
//! cutechess-cli's `+0.35/24 1.2s` (also what CCRL publishes) and the PGN
//! commands (`[%clk]`, `[%eval]`, lichess's export) are read in
//! [`super::cutechess`] and [`super::commands`].

use serde::Serialize;

use super::clock::parse_clock;
use super::pv::PvText;
use super::score::{Reported, score_depth};

/// A `score/depth time` move comment of a GUI other than cutechess-cli.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GuiMove {
    /// Which form: `fastchess` (comma-separated), `plain-seconds`
    /// (Arena, Banksia: the time without a unit), `c-chess-cli`
    /// (centipawns, the time in ms) or `cutechess-ob` (OpenBench's).
    pub form: &'static str,
    #[serde(flatten)]
    pub reported: Reported,
    /// fastchess `tl=`: the mover's time left after the move, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_left_ms: Option<i64>,
    /// fastchess `latency=`: the time between the engine's `bestmove` and
    /// the manager's reading of it, as fastchess measures it, ms (it may be
    /// negative).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<i64>,
    /// fastchess `n=`, cutechess-ob's node count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// fastchess `sd=`, cutechess-ob's `depth/seldepth`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seldepth: Option<u32>,
    /// fastchess `nps=`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nps: Option<u64>,
    /// fastchess `hashfull=` (per mille, as the engine reports it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hashfull: Option<u64>,
    /// fastchess `tbhits=`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tbhits: Option<u64>,
    /// fastchess `pv="…"`: the principal variation in UCI coordinates
    /// (`g4h5 e6e5`), space separated, without its quotes; each move's
    /// form is checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv_uci: Option<PvText>,
    /// Arena's `(e4)` before the score: the move written in parentheses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// Text after the values: fastchess's termination, Banksia's text
    /// after `;`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// `key=value` items not known, verbatim.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<(String, String)>,
}

/// Seconds without a unit, `1`, `2.3`, `0.125` → ms.
fn unitless_seconds(s: &str) -> Option<i64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    parse_clock(s)
}

/// Arena and Banksia: `[(move)] +0.35/24 SECONDS[s][; text]`, the time in
/// seconds (without a unit, or with `s` when the expected move is given).
/// `None` when the text is not of that form.
pub fn parse_plain_seconds(s: &str) -> Option<GuiMove> {
    let (body, note) = match s.split_once(';') {
        Some((b, n)) => (b.trim(), Some(n.trim()).filter(|n| !n.is_empty())),
        None => (s.trim(), None),
    };
    let (expected, rest) = match body.strip_prefix('(') {
        Some(r) => {
            let (inner, after) = r.split_once(')')?;
            (Some(inner.trim().to_string()), after.trim())
        }
        None => (None, body),
    };
    let mut words = rest.split_whitespace();
    let (score, depth) = score_depth(words.next()?)?;
    let time = words.next()?;
    if words.next().is_some() {
        return None;
    }
    let time_ms = unitless_seconds(time.strip_suffix('s').unwrap_or(time))?;
    Some(GuiMove {
        form: "plain-seconds",
        reported: Reported::of(score, depth, time_ms),
        expected,
        note: note.map(str::to_string),
        ..GuiMove::default()
    })
}

/// An early TCEC season's time, `00:02:46` or `01:57:28` (H:MM:SS, with
/// optional fractions), in ms. `None` for any other text (a plain number
/// of ms is read by the caller).
pub fn parse_tcec_time(s: &str) -> Option<i64> {
    if !s.contains(':') {
        return None;
    }
    parse_clock(s)
}

/// An early TCEC season's speed: `14000 kN/s`, `1.5 MN/s`, `900 N/s` (also
/// without the space, and `nps`), in nodes per second. `None` for any
/// other text.
pub fn parse_speed(s: &str) -> Option<u64> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = (&t[..split], t[split..].trim());
    let mult: u64 = match unit {
        "N/s" | "n/s" | "nps" => 1,
        "kN/s" | "kn/s" | "KN/s" | "knps" | "kNps" => 1_000,
        "MN/s" | "Mn/s" | "mn/s" | "Mnps" | "MNps" => 1_000_000,
        _ => return None,
    };
    let (whole, frac) = match num.split_once('.') {
        Some((w, f)) => (w, f),
        None => (num, ""),
    };
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if !frac.bytes().all(|b| b.is_ascii_digit()) || frac.len() > 6 {
        return None;
    }
    let whole: u64 = whole.parse().ok()?;
    let mut v = whole.checked_mul(mult)?;
    if !frac.is_empty() {
        // exact: the fraction's digits scaled to the unit, truncated
        let f: u64 = frac.parse().ok()?;
        let scale = 10u64.pow(frac.len() as u32);
        v = v.checked_add(f.checked_mul(mult)? / scale)?;
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::comments::score::Score;

    #[test]
    fn plain_seconds_forms() {
        let m = parse_plain_seconds("+0.35/24 1").unwrap();
        assert_eq!(
            (m.reported.score, m.reported.depth, m.reported.time_ms),
            (Some(Score::Cp(35)), Some(24), Some(1000))
        );
        let m = parse_plain_seconds("(Nf3) -0.12/15 3").unwrap();
        assert_eq!(m.expected.as_deref(), Some("Nf3"));
        assert_eq!(m.reported.score, Some(Score::Cp(-12)));
        let m = parse_plain_seconds("+0.4/18 2.3; End of opening").unwrap();
        assert_eq!(m.reported.time_ms, Some(2300));
        assert_eq!(m.note.as_deref(), Some("End of opening"));
        let m = parse_plain_seconds("M+5/30 0.5").unwrap();
        assert_eq!(m.reported.score, Some(Score::Mate(5)));
        assert!(parse_plain_seconds("just some words").is_none());
        assert!(parse_plain_seconds("+0.35/24 1 2").is_none());
    }

    /// Texts made of the forms' own characters (and a non-ASCII one), in
    /// the orders a small generator gives: no parser panics.
    #[test]
    fn no_text_makes_a_parser_panic() {
        const ALPHABET: &str = "+-.M#/(),;:= skNn019e\u{e9}";
        let chars: Vec<char> = ALPHABET.chars().collect();
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let len = (next() % 24) as usize;
            let text: String = (0..len)
                .map(|_| chars[(next() % chars.len() as u64) as usize])
                .collect();
            let _ = parse_plain_seconds(&text);
            let _ = parse_speed(&text);
            let _ = parse_tcec_time(&text);
        }
        for text in [
            "+0.1/2, 3s",
            "(e4) -M3/9 1;",
            "1 kN/s",
            "99999999999999999999 MN/s",
        ] {
            let _ = parse_plain_seconds(text);
            let _ = parse_speed(text);
        }
    }

    #[test]
    fn early_tcec_values() {
        assert_eq!(parse_tcec_time("00:02:46"), Some(166_000));
        assert_eq!(parse_tcec_time("01:57:28"), Some(7_048_000));
        assert_eq!(parse_tcec_time("12345"), None);
        assert_eq!(parse_speed("14000 kN/s"), Some(14_000_000));
        assert_eq!(parse_speed("1.5 MN/s"), Some(1_500_000));
        assert_eq!(parse_speed("900N/s"), Some(900));
        assert_eq!(parse_speed("14000"), None);
        assert_eq!(parse_speed("fast"), None);
    }
}

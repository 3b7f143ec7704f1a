//! The move-comment forms of other GUIs and of earlier TCEC seasons.
//!
//! Each form is parsed by its own function and typed into the same fields
//! (score, depth, move time), so that a rule or a report never needs to
//! know which program wrote the record. What each GUI writes is listed in
//! `docs/findings-schema.md`.
//!
//! * fastchess: `+0.35/24, 1.234s, n=123456, sd=30, nps=…, hashfull=…,
//!   tbhits=…, <termination>` (the items after the time only when asked
//!   for): [`fastchess_into`];
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
use super::lex::{items, key_value};
use super::number::int;
use super::score::{Reported, score_depth};

/// A `score/depth time` move comment of a GUI other than cutechess-cli.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GuiMove {
    /// Which form: `fastchess` (comma-separated), `plain-seconds`
    /// (Arena, Banksia: the time without a unit) or `c-chess-cli`
    /// (centipawns, the time in ms).
    pub form: &'static str,
    #[serde(flatten)]
    pub reported: Reported,
    /// fastchess `n=`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// fastchess `sd=`.
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

/// fastchess: `+0.35/24, 1.234s[, n=…][, sd=…][, nps=…][, hashfull=…][,
/// tbhits=…][, termination]`, typed where it is stored: into `form`, which
/// must be empty, so the move is not copied on its way. `false` (`form`
/// left empty) when the text is not of that form; a value of a known key
/// that does not parse is reported in `problems`.
pub fn fastchess_into(
    s: &str,
    problems: &mut Vec<String>,
    form: &mut Option<super::MoveForm>,
) -> bool {
    // `str::split(',')` with each item trimmed, a `memchr` for each comma
    let mut items = items(s);
    let Some((score, depth)) = items.next().and_then(score_depth) else {
        return false;
    };
    let Some(time_ms) = items
        .next()
        .and_then(|t| t.strip_suffix('s'))
        .and_then(parse_clock)
    else {
        return false;
    };
    if let super::MoveForm::Gui(m) = form.insert(super::MoveForm::Gui(GuiMove {
        form: "fastchess",
        reported: Reported::of(score, depth, time_ms),
        ..GuiMove::default()
    })) {
        fastchess_items(items, m, problems);
    }
    true
}

/// The items after fastchess's time, into `m`.
fn fastchess_items<'a>(
    items: impl Iterator<Item = &'a str>,
    m: &mut GuiMove,
    problems: &mut Vec<String>,
) {
    let mut notes: Vec<&str> = Vec::new();
    for item in items {
        let Some((key, value)) = key_value(item) else {
            if !item.is_empty() {
                notes.push(item);
            }
            continue;
        };
        let integer = |what: &str, problems: &mut Vec<String>| -> Option<u64> {
            let v = int(value).ok();
            if v.is_none() {
                problems.push(format!("{key}={value}: expected {what}"));
            }
            v
        };
        match key {
            "n" => m.nodes = integer("a node count (integer)", problems),
            "sd" => {
                m.seldepth = integer("a selective depth (integer)", problems)
                    .and_then(|v| u32::try_from(v).ok())
            }
            "nps" => m.nps = integer("nodes per second (integer)", problems),
            "hashfull" => m.hashfull = integer("a hash use (integer)", problems),
            "tbhits" => m.tbhits = integer("a tablebase hit count (integer)", problems),
            _ => m.extra.push((key.to_string(), value.to_string())),
        }
    }
    if !notes.is_empty() {
        m.note = Some(notes.join(", "));
    }
}

/// [`fastchess_into`]'s move on its own, for the tests.
#[cfg(test)]
fn parse_fastchess(s: &str, problems: &mut Vec<String>) -> Option<GuiMove> {
    let mut form = None;
    if !fastchess_into(s, problems, &mut form) {
        assert!(form.is_none(), "a text not of the form stores nothing");
        return None;
    }
    match form {
        Some(super::MoveForm::Gui(m)) => Some(m),
        _ => None,
    }
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
    fn fastchess_every_item() {
        let mut p = Vec::new();
        let m = parse_fastchess(
            "-1.05/21, 0.812s, n=1234567, sd=33, nps=1520000, hashfull=88, tbhits=4, White mates",
            &mut p,
        )
        .unwrap();
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(m.reported.score, Some(Score::Cp(-105)));
        assert_eq!(m.reported.depth, Some(21));
        assert_eq!(m.reported.time_ms, Some(812));
        assert_eq!(m.nodes, Some(1_234_567));
        assert_eq!(m.seldepth, Some(33));
        assert_eq!(m.nps, Some(1_520_000));
        assert_eq!(m.hashfull, Some(88));
        assert_eq!(m.tbhits, Some(4));
        assert_eq!(m.note.as_deref(), Some("White mates"));
        let m = parse_fastchess("+M3/12, 0.020s", &mut p).unwrap();
        assert_eq!(m.reported.score, Some(Score::Mate(3)));
        assert!(parse_fastchess("+0.35/24 1.2s", &mut p).is_none());
        let _ = parse_fastchess("+0.1/2, 1.000s, n=x", &mut p).unwrap();
        assert_eq!(p.len(), 1);
    }

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
            let mut problems = Vec::new();
            let _ = parse_fastchess(&text, &mut problems);
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
            let mut problems = Vec::new();
            let _ = parse_fastchess(text, &mut problems);
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

//! TCEC's per-move comment, `d=30, sd=44, pd=Qxd1, mt=90906, tl=3514094,
//! …, wv=0.27, R50=50, Rd=-11, Rr=-11, mb=+0+0+0+0+0,` (and the book form
//! `book, mb=…,`): every key typed, in one pass over the items.

use serde::Serialize;

use super::clock::MAX_TIME_MS;
use super::gui::{parse_speed, parse_tcec_time};
use super::lex::{comma_near, key_value, trim};
use super::material::Material;
use super::number::{fast_f64, int, parse_f64};
use super::pv::{CommentSource, PvText};
use super::score::{Score, fast_pawns};
use super::tcec_keys::{KEY_BYTE, key, key_code};

/// The TCEC per-move comment, every key typed.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TcecMove {
    /// The move came from the event's opening book.
    pub book: bool,
    /// Search depth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub d: Option<u32>,
    /// Selective depth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sd: Option<u32>,
    /// Ponder move the engine expected (SAN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pd: Option<compact_str::CompactString>,
    /// Move time, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mt: Option<i64>,
    /// Time left after the move, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tl: Option<i64>,
    /// Speed, nodes per second.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub s: Option<u64>,
    /// Nodes searched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<u64>,
    /// Principal variation, SAN, space separated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv: Option<PvText>,
    /// Tablebase hits; `Some(None)` when recorded as `null`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tb: Option<Option<u64>>,
    /// Hash full, percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub h: Option<f64>,
    /// Ponder hit rate, percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ph: Option<f64>,
    /// Evaluation from White's point of view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wv: Option<Score>,
    /// Moves left under the fifty-move rule.
    #[serde(rename = "R50", skip_serializing_if = "Option::is_none")]
    pub r50: Option<i32>,
    /// Draw-rule counter (plies left; negative: see docs).
    #[serde(rename = "Rd", skip_serializing_if = "Option::is_none")]
    pub rd: Option<i32>,
    /// Win-rule counter.
    #[serde(rename = "Rr", skip_serializing_if = "Option::is_none")]
    pub rr: Option<i32>,
    /// Material balance, White minus Black.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mb: Option<Material>,
    /// `key=value` items arbiter does not know, verbatim.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<(String, String)>,
}

impl TcecMove {
    /// Whether the comment carries engine output (not a book move).
    pub fn is_engine_move(&self) -> bool {
        !self.book
    }
}

#[inline]
pub(super) fn parse_tcec(
    s: &str,
    m: &mut TcecMove,
    problems: &mut Vec<String>,
    text: &mut String,
    src: Option<&CommentSource<'_>>,
) {
    let mut unknown_text: Vec<&str> = Vec::new();
    let b = s.as_bytes();
    let len = b.len();
    // One pass over the items (`,`-separated, as `str::split` cuts them).
    // The fast path reads ` key=value` with an ASCII key right before the
    // `=`: the key and the start of the value are known without a second
    // look, and only the value's end is searched (memchr for the long PV, a
    // loop for the short rest). Anything else takes the general path: the
    // item found by memchr, trimmed (Unicode white space too) and cut at
    // its first `=`, as before.
    let mut start = 0;
    loop {
        let mut k = start;
        while k < len && b[k] == b' ' {
            k += 1;
        }
        let key_start = k;
        // the key's bytes gathered into its `key_code` as they are read
        let mut gathered: u32 = 0;
        while k < len && KEY_BYTE[usize::from(b[k])] {
            if k - key_start < 3 {
                gathered |= u32::from(b[k]) << (8 * (k - key_start));
            }
            k += 1;
        }
        let end;
        if k > key_start && k < len && b[k] == b'=' {
            let key = &s[key_start..k];
            let code = match k - key_start {
                n @ 1..=3 => (n as u32) << 24 | gathered,
                _ => 0,
            };
            debug_assert_eq!(code, key_code(key.as_bytes()));
            let v = k + 1;
            end = if code == key::PV {
                // as tcec_item types it, without the call
                let end = memchr::memchr(b',', &b[v..]).map_or(len, |p| v + p);
                m.pv = Some(PvText::new(src, trim(&s[v..end])));
                end
            } else if let Some(end) = tcec_number(m, code, b, v) {
                end
            } else {
                let end = comma_near(b, v);
                let value = trim(&s[v..end]);
                // the ponder move and the material balance as tcec_item
                // types them, without the call; a malformed balance goes
                // there to be reported
                if code == key::PD {
                    m.pd = Some(value.into());
                } else {
                    match (code == key::MB).then(|| Material::parse(value)) {
                        Some(Ok(mb)) => m.mb = Some(mb),
                        _ => tcec_item(m, problems, code, key, value, src),
                    }
                }
                end
            };
        } else {
            end = memchr::memchr(b',', &b[start..]).map_or(len, |p| start + p);
            let item = trim(&s[start..end]);
            if item == "book" {
                m.book = true;
            } else if !item.is_empty() {
                match key_value(item) {
                    Some((key, value)) => {
                        tcec_item(m, problems, key_code(key.as_bytes()), key, value, src)
                    }
                    None => unknown_text.push(item),
                }
            }
        }
        if end >= len {
            break;
        }
        start = end + 1;
    }
    if !unknown_text.is_empty() {
        *text = unknown_text.join(", ");
    }
}

/// A number right after a key's `=` and right before the next `,` (or the
/// end), read in the one look at its bytes: for the integer keys a `-` and
/// at most 18 digits that fit the field, for `h` and `ph` what [`fast_f64`]
/// reads, for `wv` what [`fast_pawns`] reads. Sets the field and returns
/// where the value ends; `None` (nothing set) for any other form, which
/// [`tcec_item`] then types and reports as before.
#[inline]
fn tcec_number(m: &mut TcecMove, code: u32, b: &[u8], v: usize) -> Option<usize> {
    use self::key::{D, H, MT, N, PH, R50, R50_LOWER, RD, RR, S, SD, TB, TL, WV};
    let len = b.len();
    match code {
        D | SD | MT | TL | S | N | TB | R50 | R50_LOWER | RD | RR => {
            let mut e = v;
            let neg = e < len && b[e] == b'-';
            if neg {
                e += 1;
            }
            let digits = e;
            let mut x: i64 = 0;
            // at most 18 digits (no overflow), their bound found once
            // rather than asked at each digit
            for &c in &b[digits..len.min(digits + 18)] {
                let d = c.wrapping_sub(b'0');
                if d > 9 {
                    break;
                }
                x = x * 10 + i64::from(d);
                e += 1;
            }
            if e == digits || (e < len && b[e] != b',') {
                return None;
            }
            if neg {
                x = -x;
            }
            match code {
                D => m.d = Some(u32::try_from(x).ok().filter(|_| !neg)?),
                SD => m.sd = Some(u32::try_from(x).ok().filter(|_| !neg)?),
                MT => m.mt = Some(x).filter(|x| x.unsigned_abs() <= MAX_TIME_MS as u64),
                TL => m.tl = Some(x).filter(|x| x.unsigned_abs() <= MAX_TIME_MS as u64),
                S => m.s = Some(u64::try_from(x).ok().filter(|_| !neg)?),
                N => m.n = Some(u64::try_from(x).ok().filter(|_| !neg)?),
                TB => m.tb = Some(Some(u64::try_from(x).ok().filter(|_| !neg)?)),
                R50 | R50_LOWER => m.r50 = Some(i32::try_from(x).ok()?),
                RD => m.rd = Some(i32::try_from(x).ok()?),
                _ => m.rr = Some(i32::try_from(x).ok()?),
            }
            if code == MT && m.mt.is_none() || code == TL && m.tl.is_none() {
                return None;
            }
            Some(e)
        }
        H | PH | WV => {
            let mut e = v;
            while e < len && matches!(b[e], b'0'..=b'9' | b'.' | b'-' | b'+') {
                e += 1;
            }
            if e < len && b[e] != b',' {
                return None;
            }
            let text = &b[v..e];
            match code {
                H => m.h = Some(fast_f64(text)?),
                PH => m.ph = Some(fast_f64(text)?),
                _ => m.wv = Some(fast_pawns(text)?),
            }
            Some(e)
        }
        _ => None,
    }
}

/// Type one `key=value` item of a TCEC comment (`code` is `key_code(key)`).
#[inline]
fn tcec_item(
    m: &mut TcecMove,
    problems: &mut Vec<String>,
    code: u32,
    key: &str,
    value: &str,
    src: Option<&CommentSource<'_>>,
) {
    use self::key::{D, H, MB, MT, N, PD, PH, PV, R50, R50_LOWER, RD, RR, S, SD, TB, TL, WV};
    let mut bad = |what: &str| problems.push(format!("{key}={value}: expected {what}"));
    match code {
        D => m.d = int(value).map_err(|_| bad("a depth (integer)")).ok(),
        SD => {
            m.sd = int(value)
                .map_err(|_| bad("a selective depth (integer)"))
                .ok()
        }
        PD => m.pd = Some(value.into()),
        // ms; in early seasons H:MM:SS (`00:02:46`)
        MT => {
            m.mt = int::<i64>(value)
                .ok()
                .or_else(|| parse_tcec_time(value))
                .filter(|v| v.unsigned_abs() <= MAX_TIME_MS as u64)
                .ok_or_else(|| bad("milliseconds (an integer of at most 10^12) or H:MM:SS"))
                .ok()
        }
        TL => {
            m.tl = int::<i64>(value)
                .ok()
                .or_else(|| parse_tcec_time(value))
                .filter(|v| v.unsigned_abs() <= MAX_TIME_MS as u64)
                .ok_or_else(|| bad("milliseconds (an integer of at most 10^12) or H:MM:SS"))
                .ok()
        }
        // nodes per second; in early seasons `14000 kN/s`
        S => {
            m.s = int(value)
                .ok()
                .or_else(|| parse_speed(value))
                .ok_or_else(|| bad("nodes per second (an integer, or N kN/s)"))
                .ok()
        }
        N => m.n = int(value).map_err(|_| bad("a node count (integer)")).ok(),
        PV => m.pv = Some(PvText::new(src, value)),
        TB => {
            m.tb = if value == "null" {
                Some(None)
            } else {
                int(value)
                    .map(Some)
                    .map_err(|_| bad("a tablebase hit count or null"))
                    .ok()
            }
        }
        H => m.h = parse_f64(value).map_err(|_| bad("a percentage")).ok(),
        PH => m.ph = parse_f64(value).map_err(|_| bad("a percentage")).ok(),
        WV => match Score::parse_pawns(value) {
            Ok(sc) => m.wv = Some(sc),
            Err(e) => problems.push(format!("wv={value}: {e}")),
        },
        // Banksia's TCEC-style comments write it `r50`
        R50 | R50_LOWER => m.r50 = int(value).map_err(|_| bad("an integer")).ok(),
        RD => m.rd = int(value).map_err(|_| bad("an integer")).ok(),
        RR => m.rr = int(value).map_err(|_| bad("an integer")).ok(),
        MB => match Material::parse(value) {
            Ok(mb) => m.mb = Some(mb),
            Err(e) => problems.push(format!("mb={value}: {e}")),
        },
        _ => m.extra.push((key.to_string(), value.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::comments::test_texts::number_texts;

    /// The TCEC comment as the general path types it: `str::split`,
    /// `str::trim`, the item cut at its first `=`, every value through
    /// [`tcec_item`].
    fn reference_tcec(s: &str) -> (TcecMove, Vec<String>, String) {
        let mut m = TcecMove::default();
        let mut problems = Vec::new();
        let mut unknown = Vec::new();
        for item in s.split(',').map(str::trim) {
            if item.is_empty() {
                continue;
            }
            if item == "book" {
                m.book = true;
                continue;
            }
            match item.split_once('=') {
                Some((k, v)) => {
                    let (k, v) = (k.trim(), v.trim());
                    tcec_item(&mut m, &mut problems, key_code(k.as_bytes()), k, v, None)
                }
                None => unknown.push(item),
            }
        }
        (m, problems, unknown.join(", "))
    }

    #[test]
    fn the_one_pass_tcec_is_the_general_path() {
        let mut values = number_texts();
        values.extend(
            [
                "null",
                "00:02:46",
                "1:2",
                "14000 kN/s",
                "+0-1+0+0+0",
                "+0+0+0+0+0",
                "M5",
                "-M5",
                "#3",
                "30 ",
                " 30",
                "\u{a0}30",
                "30\u{a0}",
                "1000000000000",
                "1000000000001",
                "-1000000000001",
                "Qxd1",
                "e4 e5 Nf3",
                "a=b",
                "=",
            ]
            .map(String::from),
        );
        let keys = [
            "d", "sd", "pd", "mt", "tl", "s", "n", "pv", "tb", "h", "ph", "wv", "R50", "r50", "Rd",
            "Rr", "mb", "zz", "book", "dd", "",
        ];
        let mut n = 0;
        for key in keys {
            for value in &values {
                for text in [
                    format!("{key}={value}"),
                    format!("d=30, {key}={value}, wv=0.27,"),
                    format!("book, {key}={value} ,"),
                    format!("mt=5,  {key}= {value},x"),
                    format!("mt=5,\t{key} ={value}"),
                ] {
                    let mut m = TcecMove::default();
                    let mut problems = Vec::new();
                    let mut text_left = String::new();
                    parse_tcec(&text, &mut m, &mut problems, &mut text_left, None);
                    let want = reference_tcec(&text);
                    assert_eq!((m, problems, text_left), want, "{text:?}");
                    n += 1;
                }
            }
        }
        assert!(n > 10_000, "{n}");
    }
}

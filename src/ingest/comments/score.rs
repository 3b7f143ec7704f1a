//! An engine score as comments write it: in pawns (`0.27`, `-1.5`) or as
//! a mate (`M12`, `#-5`), and with its depth (`+0.35/24`).

use serde::Serialize;

use super::lex::split_byte;
use super::number::int;

/// An engine score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves; negative when the engine is being mated.
    Mate(i32),
}

/// Why a text is not a score in pawns or a mate; each holds the text as
/// read (trimmed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    /// An `M` or `#` not followed by a whole number.
    #[error("expected a mate distance after 'M' in {text:?}")]
    MateDistance { text: String },
    /// Not a number of pawns with at most two decimals.
    #[error("expected a score in pawns with at most two decimals, found {text:?}")]
    Pawns { text: String },
}

impl Score {
    /// Parse a score in pawns (`0.27`, `-1.5`, `+3`) or a mate (`M12`,
    /// `-M5`, `+M3`, `#-5`, `#7`).
    pub fn parse_pawns(s: &str) -> Result<Score, ScoreError> {
        match fast_pawns(s.as_bytes()) {
            Some(score) => Ok(score),
            None => Score::parse_pawns_general(s),
        }
    }

    /// [`Score::parse_pawns`]'s score where its error would be dropped (a
    /// comment tried against a form): text that cannot be a score (after
    /// its sign, neither a mate's `M` or `#`, nor a digit or a point) is
    /// answered without the error's message being written.
    pub fn read_pawns(s: &str) -> Option<Score> {
        fast_pawns(s.as_bytes()).or_else(|| {
            let t = s.trim();
            let body = t.strip_prefix(['-', '+']).unwrap_or(t);
            let may_be = match body.as_bytes().first() {
                Some(b) => matches!(b, b'M' | b'#' | b'.') || b.is_ascii_digit(),
                None => false,
            };
            may_be.then(|| Score::parse_pawns_general(s).ok()).flatten()
        })
    }

    /// [`Score::parse_pawns`] for every form: what [`fast_pawns`] does not
    /// read.
    fn parse_pawns_general(s: &str) -> Result<Score, ScoreError> {
        let t = s.trim();
        let (neg, body) = match t.as_bytes().first() {
            Some(b'-') => (true, &t[1..]),
            Some(b'+') => (false, &t[1..]),
            _ => (false, t),
        };
        if let Some(m) = body.strip_prefix('M').or_else(|| body.strip_prefix('#')) {
            let (neg2, m) = match m.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, m.strip_prefix('+').unwrap_or(m)),
            };
            let n: i32 = m.parse().map_err(|_| ScoreError::MateDistance {
                text: t.to_string(),
            })?;
            return Ok(Score::Mate(if neg ^ neg2 { -n } else { n }));
        }
        let cp = parse_hundredths(body).ok_or_else(|| ScoreError::Pawns {
            text: t.to_string(),
        })?;
        Ok(Score::Cp(if neg { -cp } else { cp }))
    }

    /// The same score seen from the other side.
    pub fn negate(self) -> Score {
        match self {
            Score::Cp(c) => Score::Cp(-c),
            Score::Mate(m) => Score::Mate(-m),
        }
    }
}

/// `12`, `0.27`, `3.5` → hundredths (`1200`, `27`, `350`); `None` when the
/// text is not an unsigned decimal with at most two decimals.
fn parse_hundredths(s: &str) -> Option<i32> {
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, f),
        None => (s, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if frac.len() > 2 {
        return None;
    }
    let whole: i32 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let mut f: i32 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    if frac.len() == 1 {
        f *= 10;
    }
    whole.checked_mul(100)?.checked_add(f)
}

/// `0.27`, `-1.5`, `+3` (a sign, 1 to 7 digits, and a point with one or
/// two digits) as [`Score::parse_pawns_general`] reads them, in one loop;
/// `None` for any other form (which [`Score::parse_pawns`] then gives to
/// the general one).
#[inline]
pub(super) fn fast_pawns(b: &[u8]) -> Option<Score> {
    let (neg, b) = match b.first()? {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    let mut i = 0;
    let mut whole: i32 = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        whole = whole * 10 + i32::from(b[i] - b'0');
        i += 1;
        if i > 7 {
            return None;
        }
    }
    if i == 0 {
        return None;
    }
    let cp = match &b[i..] {
        [] => whole * 100,
        [b'.', t @ b'0'..=b'9'] => whole * 100 + i32::from(t - b'0') * 10,
        [b'.', t @ b'0'..=b'9', h @ b'0'..=b'9'] => {
            whole * 100 + i32::from(t - b'0') * 10 + i32::from(h - b'0')
        }
        _ => return None,
    };
    Some(Score::Cp(if neg { -cp } else { cp }))
}

/// `+0.35/24` → the score and the depth.
pub(super) fn score_depth(s: &str) -> Option<(Score, u32)> {
    let (score, depth) = split_byte(s, b'/')?;
    let score = Score::read_pawns(score)?;
    let depth = int(depth).ok()?;
    Some((score, depth))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::comments::test_texts::number_texts;

    /// `read_pawns` is `parse_pawns` without its error, on numbers, near
    /// numbers, mates and words.
    #[test]
    fn read_pawns_is_parse_pawns_without_the_error() {
        let mut texts = number_texts();
        for t in [
            "Nice", "-Nice", "+", "-", "", " ", "M", "#", "M-", "-M+3", "#x", ".", "-.", "+.5",
            "..", " 0.5 ", "\t-M3", "é", "-é1", "1/2", "N3", "+-1", "--1", "inf", "NaN",
        ] {
            texts.push(t.to_string());
        }
        let mut scores = 0;
        for t in &texts {
            assert_eq!(Score::read_pawns(t), Score::parse_pawns(t).ok(), "{t:?}");
            scores += usize::from(Score::read_pawns(t).is_some());
        }
        assert!(
            scores > 20 && scores < texts.len(),
            "{scores} of {}",
            texts.len()
        );
    }

    #[test]
    fn the_fast_pawns_are_parse_pawns() {
        let mut fast = 0;
        for s in number_texts() {
            if let Some(sc) = fast_pawns(s.as_bytes()) {
                assert_eq!(Ok(sc), Score::parse_pawns_general(&s), "{s:?}");
                fast += 1;
            }
        }
        assert!(fast > 20, "{fast}");
        for s in ["0.27", "-0.50", "+3", "12.5", "-0.00", "1234567.99"] {
            assert_eq!(
                fast_pawns(s.as_bytes()).map(Ok),
                Some(Score::parse_pawns_general(s)),
                "{s:?}"
            );
        }
        for s in [
            "M5", "-M5", "#3", ".5", "5.", "0.275", "12345678", "", "-", "1e5",
        ] {
            assert_eq!(fast_pawns(s.as_bytes()), None, "{s:?}");
        }
    }

    #[test]
    fn scores() {
        assert_eq!(Score::parse_pawns("0.27"), Ok(Score::Cp(27)));
        assert_eq!(Score::parse_pawns("-0.5"), Ok(Score::Cp(-50)));
        assert_eq!(Score::parse_pawns("+3"), Ok(Score::Cp(300)));
        assert_eq!(Score::parse_pawns("M12"), Ok(Score::Mate(12)));
        assert_eq!(Score::parse_pawns("-M5"), Ok(Score::Mate(-5)));
        assert_eq!(Score::parse_pawns("#-5"), Ok(Score::Mate(-5)));
        assert!(Score::parse_pawns("0.275").is_err());
        assert!(Score::parse_pawns("abc").is_err());
        assert!(Score::parse_pawns("").is_err());
    }
}

/// What a `score/depth time` move comment reports of the search: the score
/// from the point of view of the side that moved, the depth and the move's
/// time (cutechess-cli's form and the other GUIs').
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Reported {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<Score>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Move time, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<i64>,
}

impl Reported {
    /// A comment that reports all three.
    pub fn of(score: Score, depth: u32, time_ms: i64) -> Reported {
        Reported {
            score: Some(score),
            depth: Some(depth),
            time_ms: Some(time_ms),
        }
    }
}

//! Times as comments and logs write them (`1:59:58`, `0:00:05.3`, `59:58`,
//! `12.5`), read into milliseconds, and the largest time a record may give.

/// The largest time a record may give, in ms (about 31.7 years): larger
/// values are malformed, so that no clock arithmetic can overflow.
pub const MAX_TIME_MS: i64 = 1_000_000_000_000;

/// `1:59:58`, `0:00:05.3`, `59:58`, `12.5` → milliseconds (at most
/// [`MAX_TIME_MS`]).
pub fn parse_clock(s: &str) -> Option<i64> {
    fast_clock(s.as_bytes()).or_else(|| parse_clock_general(s))
}

/// `90.906`, `0:58:34`, `1:00:00.25`: one to three groups of 1 to 12
/// digits joined by `:`, the last with a point and 1 to 3 digits or none,
/// as [`parse_clock_general`] reads them, in one loop (no value of that
/// form can overflow); `None` for any other form, which [`parse_clock`]
/// then gives to the general one.
#[inline]
fn fast_clock(b: &[u8]) -> Option<i64> {
    let mut groups = [0i64; 2];
    let mut n = 0;
    let mut cur: i64 = 0;
    let mut digits = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            c @ b'0'..=b'9' if digits < 12 => {
                cur = cur * 10 + i64::from(c - b'0');
                digits += 1;
            }
            b':' if digits > 0 && n < 2 => {
                groups[n] = cur;
                n += 1;
                cur = 0;
                digits = 0;
            }
            b'.' => break,
            _ => return None,
        }
        i += 1;
    }
    if digits == 0 {
        return None;
    }
    let mut ms = cur * 1000;
    if i < b.len() {
        let frac = &b[i + 1..];
        if frac.is_empty() || frac.len() > 3 || !frac.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let f = frac.iter().fold(0, |f, &c| f * 10 + i64::from(c - b'0'));
        ms += f * [100, 10, 1][frac.len() - 1];
    }
    let mut mult = 60_000;
    for g in groups[..n].iter().rev() {
        ms += g * mult;
        mult *= 60;
    }
    (ms <= MAX_TIME_MS).then_some(ms)
}

/// [`parse_clock`] for every form: white space around it, a sign, and
/// what [`fast_clock`] does not read.
fn parse_clock_general(s: &str) -> Option<i64> {
    let s = s.trim();
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    // at most `H:MM:SS`: the seconds, then up to two more parts from the right
    let mut parts = s.rsplit(':');
    let mut ms = seconds_ms(parts.next()?)?;
    let mut mult = 60_000i64;
    for (i, p) in parts.enumerate() {
        if i == 2 || p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        ms = ms.checked_add(p.parse::<i64>().ok()?.checked_mul(mult)?)?;
        mult = mult.checked_mul(60)?;
    }
    if ms > MAX_TIME_MS {
        return None;
    }
    Some(if neg { -ms } else { ms })
}

/// The seconds of a clock, `SS` or `SS.fff` (at most three decimals), in
/// ms.
fn seconds_ms(secs: &str) -> Option<i64> {
    let (whole, frac) = secs.split_once('.').unwrap_or((secs, ""));
    if whole.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 3
    {
        return None;
    }
    let mut ms: i64 = whole.parse::<i64>().ok()?.checked_mul(1000)?;
    if !frac.is_empty() {
        let f: i64 = frac.parse().ok()?;
        ms = ms.checked_add(f * 10i64.pow(3 - frac.len() as u32))?;
    }
    Some(ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::comments::test_texts::generated;

    #[test]
    fn clocks() {
        assert_eq!(parse_clock("0:00:05"), Some(5000));
        assert_eq!(parse_clock("1:00:00.25"), Some(3_600_250));
        assert_eq!(parse_clock("12.5"), Some(12_500));
        assert_eq!(parse_clock("1:x"), None);
        assert_eq!(parse_clock("99999999999999999999:00:00"), None);
    }

    /// `parse_clock` as it was with its parts gathered into a `Vec` (an
    /// allocation for every clock read): the reference for the one that
    /// reads them from the right.
    fn parse_clock_collected(s: &str) -> Option<i64> {
        let s = s.trim();
        let (neg, s) = match s.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, s),
        };
        let mut parts: Vec<&str> = s.split(':').collect();
        if parts.is_empty() || parts.len() > 3 {
            return None;
        }
        let mut ms = seconds_ms(parts.pop()?)?;
        let mut mult = 60_000i64;
        for p in parts.iter().rev() {
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            ms = ms.checked_add(p.parse::<i64>().ok()?.checked_mul(mult)?)?;
            mult = mult.checked_mul(60)?;
        }
        (ms <= MAX_TIME_MS).then_some(if neg { -ms } else { ms })
    }

    /// Where the one-loop clock answers, it is the general reading.
    #[test]
    fn the_fast_clock_is_the_general_clock() {
        let mut texts = generated("0123456789:.", 16, 200_000);
        texts.extend(
            [
                "90.906",
                "0:58:34",
                "1:00:00.25",
                "999999999999",
                "9999999999999",
                "999999999999:0:0",
                "277777:46:40",
                "277777:46:40.001",
                "1:2:3:4",
                "12.",
                ".5",
            ]
            .map(String::from),
        );
        let mut fast = 0;
        for t in &texts {
            if let Some(ms) = fast_clock(t.as_bytes()) {
                assert_eq!(Some(ms), parse_clock_general(t), "{t:?}");
                fast += 1;
            }
        }
        assert!(fast > 20_000, "{fast}");
        assert_eq!(fast_clock(b"277777:46:40"), Some(MAX_TIME_MS));
        assert_eq!(fast_clock(b"277777:46:40.001"), None);
    }

    #[test]
    fn a_clock_read_from_the_right_is_the_clock_its_parts_give() {
        let mut texts = generated("0123456789:.- ", 14, 200_000);
        texts.extend(
            [
                "1:2:3:4",
                "0:0:0:0",
                ":1",
                "1:",
                "1::2",
                "-0:01",
                "99999999:59:59",
                "1:00:00.250",
                "1:00:00.2500",
            ]
            .map(String::from),
        );
        let mut some = 0;
        for t in &texts {
            let want = parse_clock_collected(t);
            assert_eq!(parse_clock(t), want, "{t:?}");
            some += usize::from(want.is_some());
        }
        // both outcomes are well represented
        assert!(some > 10_000 && texts.len() - some > 10_000, "{some}");
    }
}

//! Numbers as comments write them, read without `str::parse`'s generality
//! where they are plain digits: integers, and decimals as `f64`.

/// An integer as `str::parse` reads it: digits (a sign where the type has
/// one) go through a loop without `str::parse`'s generality; any other form,
/// and any value that may not fit, through `str::parse` itself, so the
/// result and the error are always its own.
pub(super) fn int<T: TryFrom<i64> + std::str::FromStr>(s: &str) -> Result<T, T::Err> {
    let signed = T::try_from(-1).is_ok();
    let b = s.as_bytes();
    let (neg, digits) = match b.first() {
        Some(b'-') if signed => (true, &b[1..]),
        _ => (false, b),
    };
    // up to 18 digits cannot overflow an i64
    if !digits.is_empty() && digits.len() <= 18 && digits.iter().all(u8::is_ascii_digit) {
        let mut v: i64 = 0;
        for &c in digits {
            v = v * 10 + i64::from(c - b'0');
        }
        if let Ok(x) = T::try_from(if neg { -v } else { v }) {
            return Ok(x);
        }
    }
    s.parse()
}

pub(super) fn parse_f64(s: &str) -> Result<f64, ()> {
    if let Some(v) = fast_f64(s.as_bytes()) {
        return Ok(v);
    }
    let v: f64 = s.parse().map_err(|_| ())?;
    if v.is_finite() { Ok(v) } else { Err(()) }
}

/// `12`, `0.5`, `99.25` (digits with at most one point, at most 15 digits
/// in all) as `str::parse::<f64>` reads them, without its general
/// algorithm: the digits as an integer are exact in an f64, so are the
/// powers of ten up to 10^15, and IEEE division rounds correctly, so
/// `m / 10^k` is the nearest f64 to the decimal. `None` for any other
/// form (the caller then uses `str::parse`).
pub(super) fn fast_f64(b: &[u8]) -> Option<f64> {
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    if b.is_empty() || b.len() > 16 {
        return None;
    }
    let mut m: u64 = 0;
    let mut digits = 0;
    let mut point: Option<usize> = None;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                m = m * 10 + u64::from(c - b'0');
                digits += 1;
            }
            b'.' if point.is_none() => point = Some(i),
            _ => return None,
        }
    }
    if digits == 0 || digits > 15 {
        return None;
    }
    let frac = point.map_or(0, |p| b.len() - p - 1);
    Some(m as f64 / POW10[frac])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::comments::test_texts::number_texts;

    #[test]
    fn the_fast_integers_are_str_parse() {
        fn same<T: TryFrom<i64> + std::str::FromStr + PartialEq + std::fmt::Debug>(s: &str)
        where
            <T as std::str::FromStr>::Err: PartialEq + std::fmt::Debug,
        {
            assert_eq!(int::<T>(s), s.parse::<T>(), "{s:?}");
        }
        for s in number_texts() {
            same::<u32>(&s);
            same::<i32>(&s);
            same::<u64>(&s);
            same::<i64>(&s);
        }
    }

    #[test]
    fn the_fast_decimals_are_str_parse() {
        let mut fast = 0;
        for s in number_texts() {
            let std = s.parse::<f64>().ok().filter(|v| v.is_finite());
            let ours = parse_f64(&s).ok();
            assert_eq!(ours.map(f64::to_bits), std.map(f64::to_bits), "{s:?}");
            fast += usize::from(fast_f64(s.as_bytes()).is_some());
        }
        // the fast path is taken, not only the fallback
        assert!(fast > 100, "{fast}");
    }
}

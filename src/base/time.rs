//! Timestamps: ISO-8601 text to ms since the Unix epoch and back, as the
//! operator and engine logs write them.

/// Why a text is not a timestamp [`parse_timestamp`] reads; each variant
/// holds the text as it was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimestampError {
    /// Not the shape `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`.
    #[error(
        "expected a timestamp like 2003-01-26T15:04:05Z or 2003-01-26T15:04:05.250-05:00, found {text:?}"
    )]
    Expected { text: String },
    /// The shape of one, but a month, day, hour, minute or second out of range.
    #[error("{text:?} is not a valid date and time")]
    InvalidDate { text: String },
    /// No `Z` and no offset at the end.
    #[error("{text:?} has no time zone: end it with Z or an offset such as -05:00")]
    NoZone { text: String },
}

/// Parse an ISO-8601 timestamp `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)` to ms
/// since the Unix epoch.
pub fn parse_timestamp(s: &str) -> Result<i64, TimestampError> {
    let b = timestamp_shape(s)?;
    // two or four ASCII digits (a byte that is not, a multi-byte
    // character's too, is an error): their value without `str::parse`
    let num = |r: std::ops::Range<usize>| -> Result<i64, TimestampError> {
        let t = b.get(r).ok_or_else(|| timestamp_expected(s))?;
        if !t.iter().all(u8::is_ascii_digit) {
            return Err(timestamp_expected(s));
        }
        Ok(t.iter().fold(0, |v, &c| v * 10 + i64::from(c - b'0')))
    };
    let date = timestamp_date(s, num)?;
    let (i, digits) = fraction(s)?;
    // the first three digits, zeros after the last: milliseconds
    let ms = b[digits]
        .iter()
        .chain(b"000")
        .take(3)
        .fold(0, |v, &c| v * 10 + i64::from(c - b'0'));
    Ok(epoch_ms(date, ms, timestamp_zone(s, &s[i..])?))
}

/// Where the fraction of a second of timestamp `s` ends (and its zone
/// begins), and its digits (none when there is no fraction); an error where
/// a `.` has no digit after it.
fn fraction(s: &str) -> Result<(usize, std::ops::Range<usize>), TimestampError> {
    let b = s.as_bytes();
    let mut i = 19;
    if b.get(i) != Some(&b'.') {
        return Ok((i, i..i));
    }
    let start = i + 1;
    i = start;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i == start {
        return Err(timestamp_expected(s));
    }
    Ok((i, start..i))
}

/// What [`parse_timestamp`] expected, for its errors.
fn timestamp_expected(s: &str) -> TimestampError {
    TimestampError::Expected {
        text: s.to_string(),
    }
}

/// `s`'s bytes, where they have a timestamp's length and separators.
fn timestamp_shape(s: &str) -> Result<&[u8], TimestampError> {
    let b = s.as_bytes();
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || !(b[10] == b'T' || b[10] == b' ')
        || b[13] != b':'
        || b[16] != b':'
    {
        return Err(timestamp_expected(s));
    }
    Ok(b)
}

/// The day (from the Unix epoch), hour, minute and second of timestamp
/// `s`, each part read by `num` from its place, where they are a date and
/// time.
fn timestamp_date(
    s: &str,
    num: impl Fn(std::ops::Range<usize>) -> Result<i64, TimestampError>,
) -> Result<[i64; 4], TimestampError> {
    use chrono::Datelike;
    let invalid = || TimestampError::InvalidDate {
        text: s.to_string(),
    };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, se) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let day = civil_date(y, mo, d).ok_or_else(invalid)?;
    if h > 23 || mi > 59 || se > 60 {
        return Err(invalid());
    }
    Ok([i64::from(day.num_days_from_ce()) - DAYS_TO_EPOCH, h, mi, se])
}

/// The time zone `zone` at the end of timestamp `s` (`Z` or `±HH:MM`), in
/// minutes east of UTC.
fn timestamp_zone(s: &str, zone: &str) -> Result<i64, TimestampError> {
    match zone {
        "Z" => Ok(0),
        z if z.len() == 6
            && (z.starts_with('+') || z.starts_with('-'))
            && z.as_bytes()[3] == b':' =>
        {
            let oh: i64 = z[1..3].parse().map_err(|_| timestamp_expected(s))?;
            let om: i64 = z[4..6].parse().map_err(|_| timestamp_expected(s))?;
            let v = oh * 60 + om;
            Ok(if z.starts_with('-') { -v } else { v })
        }
        _ => Err(TimestampError::NoZone {
            text: s.to_string(),
        }),
    }
}

/// The day `y-mo-d` of the proleptic Gregorian calendar, where there is
/// one (no 31 February, a 29 February only in a leap year).
pub fn civil_date(y: i64, mo: i64, d: i64) -> Option<chrono::NaiveDate> {
    chrono::NaiveDate::from_ymd_opt(
        i32::try_from(y).ok()?,
        u32::try_from(mo).ok()?,
        u32::try_from(d).ok()?,
    )
}

/// The days from 1 January of year 1 to 1 January 1970.
const DAYS_TO_EPOCH: i64 = 719_163;

/// Ms since the Unix epoch of `time` (the day from the epoch, hour,
/// minute, second, as [`timestamp_date`] gives them) and `ms`, in a zone
/// `offset_min` minutes east of UTC.
fn epoch_ms(time: [i64; 4], ms: i64, offset_min: i64) -> i64 {
    let [days, h, mi, se] = time;
    ((days * 86_400 + h * 3600 + mi * 60 + se) - offset_min * 60) * 1000 + ms
}

/// Format ms since the Unix epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ` (a time
/// past the calendar's range, some 262,000 years away, as its ms).
pub fn format_timestamp(ms: i64) -> String {
    use chrono::Datelike;
    let secs = ms.div_euclid(1000);
    let milli = ms.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400);
    let day = i32::try_from(days + DAYS_TO_EPOCH)
        .ok()
        .and_then(chrono::NaiveDate::from_num_days_from_ce_opt);
    let Some(day) = day else {
        return format!("{ms} ms from 1970");
    };
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{milli:03}Z",
        day.year(),
        day.month(),
        day.day(),
        sod / 3600,
        (sod / 60) % 60,
        sod % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps() {
        assert_eq!(parse_timestamp("1970-01-01T00:00:00Z"), Ok(0));
        assert_eq!(parse_timestamp("1970-01-01T00:00:01.5Z"), Ok(1500));
        assert_eq!(
            parse_timestamp("2003-01-26T15:00:00-05:00"),
            Ok(1_043_611_200_000)
        );
        assert!(parse_timestamp("2003-01-26T15:00:00").is_err());
        assert!(parse_timestamp("2003-13-26T15:00:00Z").is_err());
        // a day the month does not have, and 29 February out of a leap year
        for bad in [
            "2026-02-31T12:05:27.389Z",
            "2026-04-31T00:00:00Z",
            "2025-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z",
        ] {
            assert!(
                matches!(
                    parse_timestamp(bad),
                    Err(TimestampError::InvalidDate { .. })
                ),
                "{bad}"
            );
        }
        assert!(parse_timestamp("2024-02-29T00:00:00Z").is_ok());
        assert!(parse_timestamp("2000-02-29T00:00:00Z").is_ok());
    }

    /// Days from the epoch, both ways, against the civil-from-days
    /// arithmetic the calendar crate replaced, over 800 years either side.
    #[test]
    fn epoch_days_round_trip() {
        for days in (-292_000..292_000).step_by(7) {
            let ms = days * 86_400_000 + 12_345;
            let shown = format_timestamp(ms);
            assert_eq!(parse_timestamp(&shown), Ok(ms), "{shown}");
        }
        assert_eq!(format_timestamp(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(format_timestamp(-1), "1969-12-31T23:59:59.999Z");
        assert_eq!(
            format_timestamp(951_782_400_000),
            "2000-02-29T00:00:00.000Z"
        );
    }

    /// The date's digits and the fraction as `parse_timestamp` read them
    /// before it read them without `str::parse` and without a string for
    /// the fraction: the reference for it, result and error alike.
    fn parse_timestamp_parsed(s: &str) -> Result<i64, TimestampError> {
        timestamp_shape(s)?;
        let expected = || timestamp_expected(s);
        let num = |r: std::ops::Range<usize>| -> Result<i64, TimestampError> {
            let t = s.get(r).ok_or_else(expected)?;
            if !t.bytes().all(|c| c.is_ascii_digit()) {
                return Err(expected());
            }
            t.parse::<i64>().map_err(|_| expected())
        };
        let date = timestamp_date(s, num)?;
        let (i, digits) = fraction(s)?;
        let frac = &s[digits];
        let digits: String = frac.chars().chain("000".chars()).take(3).collect();
        let ms = digits.parse().map_err(|_| expected())?;
        Ok(epoch_ms(date, ms, timestamp_zone(s, &s[i..])?))
    }

    #[test]
    fn a_timestamp_read_without_str_parse_is_the_one_read_with_it() {
        let base = "2003-01-26T15:04:05.250-05:00".as_bytes();
        let alphabet = "0123456789-:.TZ +é".as_bytes();
        let mut rng = crate::test_rng::Lcg(0x9E37_79B9_7F4A_7C15);
        let mut ok = 0;
        for n in 0..100_000 {
            // the base with a few bytes changed, or cut short
            let mut t = base.to_vec();
            for _ in 0..rng.below(4) {
                let at = rng.below(t.len());
                t[at] = alphabet[rng.below(alphabet.len())];
            }
            if n % 3 == 0 {
                t.truncate(19 + rng.below(11));
            }
            let Ok(s) = String::from_utf8(t) else {
                continue;
            };
            let s = if n % 7 == 0 {
                s.replacen(".250", ".2", 1)
            } else {
                s
            };
            let want = parse_timestamp_parsed(&s);
            assert_eq!(parse_timestamp(&s), want, "{s:?}");
            ok += usize::from(want.is_ok());
        }
        assert!(ok > 10_000, "{ok}");
    }

    #[test]
    fn timestamps_round_trip() {
        for ms in [0i64, 1_043_611_200_123, 951_782_400_000, 4_102_444_799_999] {
            assert_eq!(
                parse_timestamp(&format_timestamp(ms)),
                Ok(ms),
                "{}",
                format_timestamp(ms)
            );
        }
    }
}

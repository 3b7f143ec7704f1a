//! ## What it does
//! Reports a date or a time in the record's tags that no calendar has: a
//! `Date`, `UTCDate` or `EventDate` of `YYYY.MM.DD` with a month past 12
//! or a day its month does not have (31 April, 29 February out of a leap
//! year), a `Time` or `UTCTime` of `HH:MM:SS` past 23:59:60, and a match
//! manager's `GameStartTime` or `GameEndTime` whose date or time does not
//! exist. A part written `??` (unknown, as the PGN standard allows) is not
//! checked; a text of another shape is not a date this check reads.
//!
//! ## Why
//! A committee orders games, clocks and operator actions by their dates.
//! A date that does not exist was not written by a clock: it was typed, or
//! the software that wrote it is broken, and any date computed from it (a
//! day later, or earlier) is a guess. arbiter says so instead of rolling
//! 31 February over into March.
//!
//! ## Example
//! `[Date "2026.02.31"]` gives `date-invalid` at the tag's value: "February
//! 2026 has no day 31".

use super::Context;
use crate::base::time::civil_date;
use crate::findings::Finding;
use crate::findings::codes;

/// The tags of a PGN date (`YYYY.MM.DD`).
const DATE_TAGS: &[&str] = &["Date", "UTCDate", "EventDate"];
/// The tags of a PGN time of day (`HH:MM:SS`).
const TIME_TAGS: &[&str] = &["Time", "UTCTime"];
/// The match managers' tags of a date and time (`YYYY-MM-DDTHH:MM:SS`).
const STAMP_TAGS: &[&str] = &["GameStartTime", "GameEndTime"];

/// Add a `date-invalid` finding for each tag whose date or time does not
/// exist.
pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    for tag in &ctx.game.tags {
        let name = tag.name.as_str();
        let why = if DATE_TAGS.contains(&name) {
            date_problem(&tag.value, '.')
        } else if TIME_TAGS.contains(&name) {
            time_problem(&tag.value)
        } else if STAMP_TAGS.contains(&name) {
            stamp_problem(&tag.value)
        } else {
            None
        };
        if let Some(why) = why {
            out.push(
                Finding::of(
                    &codes::DATE_INVALID,
                    "A date or time that does not exist",
                    format!("{name} is {:?}: {why}", tag.value),
                )
                .with_evidence(ctx.evidence(
                    Some(tag.span),
                    None,
                    format!("the {name} tag"),
                )),
            );
        }
    }
}

/// A part of a date or time: its number, none where it is all `?`, or not
/// a part at all (another shape) as `Err`.
fn part(s: &str, len: usize) -> Result<Option<i64>, ()> {
    if s.len() != len {
        return Err(());
    }
    if s.bytes().all(|b| b == b'?') {
        return Ok(None);
    }
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(());
    }
    Ok(Some(s.bytes().fold(0, |v, b| v * 10 + i64::from(b - b'0'))))
}

/// What is wrong with the date `YYYY<sep>MM<sep>DD`, if it has that shape
/// and does not exist.
fn date_problem(v: &str, sep: char) -> Option<String> {
    let mut it = v.trim().split(sep);
    let (y, m, d) = (it.next()?, it.next()?, it.next()?);
    if it.next().is_some() {
        return None;
    }
    let (y, m, d) = (part(y, 4).ok()?, part(m, 2).ok()?, part(d, 2).ok()?);
    if let Some(m) = m
        && !(1..=12).contains(&m)
    {
        return Some(format!("there is no month {m}"));
    }
    let d = d?;
    let Some(m) = m else {
        return (!(1..=31).contains(&d)).then(|| format!("no month has a day {d}"));
    };
    // an unknown year: a year that gives the month its most days (2000 is
    // a leap year)
    let exists = civil_date(y.unwrap_or(2000), m, d).is_some();
    let month = u8::try_from(m)
        .ok()
        .and_then(|m| chrono::Month::try_from(m).ok())
        .map_or("", |m| m.name());
    (!exists).then(|| match y {
        Some(y) => format!("{month} {y} has no day {d}"),
        None => format!("{month} has no day {d}"),
    })
}

/// What is wrong with the time `HH:MM:SS`, if it has that shape and does
/// not exist (a second of 60, a leap second, exists).
fn time_problem(v: &str) -> Option<String> {
    let mut it = v.trim().split(':');
    let (h, m, s) = (it.next()?, it.next()?, it.next()?);
    if it.next().is_some() {
        return None;
    }
    let (h, m, s) = (part(h, 2).ok()?, part(m, 2).ok()?, part(s, 2).ok()?);
    if h.is_some_and(|h| h > 23) || m.is_some_and(|m| m > 59) || s.is_some_and(|s| s > 60) {
        return Some("a day has no such time".to_string());
    }
    None
}

/// What is wrong with a manager's `YYYY-MM-DDTHH:MM:SS[.fff] ZONE`, if its
/// date or time does not exist.
fn stamp_problem(v: &str) -> Option<String> {
    let stamp = v.trim().split(' ').next()?;
    let (date, time) = stamp.split_once('T')?;
    let time = time.split('.').next()?;
    date_problem(date, '-').or_else(|| time_problem(time))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_that_exist_and_dates_that_do_not() {
        for ok in [
            "2026.12.02",
            "2024.02.29",
            "2000.02.29",
            "????.??.??",
            "2019.??.??",
            "????.02.29",
            "2019.05.xx",
            "May 2019",
            "",
        ] {
            assert_eq!(date_problem(ok, '.'), None, "{ok}");
        }
        let bad = |v: &str| date_problem(v, '.').unwrap_or_default();
        assert_eq!(bad("2026.02.31"), "February 2026 has no day 31");
        assert_eq!(bad("1900.02.29"), "February 1900 has no day 29");
        assert_eq!(bad("2026.04.31"), "April 2026 has no day 31");
        assert_eq!(bad("2026.13.01"), "there is no month 13");
        assert_eq!(bad("2026.00.10"), "there is no month 0");
        assert_eq!(bad("2026.??.32"), "no month has a day 32");
        assert_eq!(bad("????.02.30"), "February has no day 30");
        assert_eq!(bad("2026.01.00"), "January 2026 has no day 0");
    }

    #[test]
    fn times_and_stamps() {
        assert_eq!(time_problem("23:59:60"), None);
        assert_eq!(time_problem("??:??:??"), None);
        assert!(time_problem("24:00:00").is_some());
        assert!(time_problem("12:60:00").is_some());
        assert_eq!(stamp_problem("2026-12-02T05:09:04 +0000"), None);
        assert_eq!(stamp_problem("2026-12-02T05:16:04.626 UTC"), None);
        assert_eq!(
            stamp_problem("2026-02-31T05:16:04.626 W. Europe Standard Time").as_deref(),
            Some("February 2026 has no day 31")
        );
        assert!(stamp_problem("2026-02-28T25:16:04 +0000").is_some());
        assert_eq!(stamp_problem("yesterday"), None);
    }
}

//! The match managers' time tags, typed: `GameStartTime` and `GameEndTime`
//! as fastchess writes them (`2026-12-02T05:09:04 +0000`) and as
//! cutechess-cli does (`2026-12-02T05:16:04.626 UTC`), and `GameDuration`
//! (`00:00:08`, both programs).
//!
//! A time is read to ms since the Unix epoch where its zone is a numeric
//! offset (`+0000`, `-05:00`), `UTC`, `GMT` or `Z`. A zone given by a name
//! (`CST`, `EDT`, as fishtest's and OpenBench's workers write their local
//! time) names no offset for sure (`CST` is used for three), so that time
//! is unknown: the tag's text is kept, its value is none.

use crate::base::time::parse_timestamp;
use crate::ingest::comments::parse_clock;

use super::PgnGame;

/// `2026-12-02T05:09:04 +0000`, `2026-12-02T05:16:04.626 UTC` → ms since
/// the Unix epoch; `None` for any other text, and for a zone by name.
pub fn manager_time_ms(s: &str) -> Option<i64> {
    let (stamp, zone) = s.trim().split_once(' ')?;
    let offset = match zone.trim() {
        "UTC" | "GMT" | "Z" => "Z".to_string(),
        z => {
            let (sign, digits) = z.split_at_checked(1)?;
            let digits = digits.replace(':', "");
            if !matches!(sign, "+" | "-")
                || digits.len() != 4
                || !digits.bytes().all(|b| b.is_ascii_digit())
            {
                return None;
            }
            format!("{sign}{}:{}", &digits[..2], &digits[2..])
        }
    };
    parse_timestamp(&format!("{stamp}{offset}")).ok()
}

/// `00:00:08`, `1:02:03` → ms; `None` for any other text.
pub fn duration_ms(s: &str) -> Option<i64> {
    let s = s.trim();
    s.contains(':').then(|| parse_clock(s)).flatten()
}

impl PgnGame {
    /// The `GameStartTime` tag, ms since the Unix epoch (see the module).
    pub fn start_time_ms(&self) -> Option<i64> {
        self.tag("GameStartTime").and_then(manager_time_ms)
    }

    /// The `GameEndTime` tag, ms since the Unix epoch.
    pub fn end_time_ms(&self) -> Option<i64> {
        self.tag("GameEndTime").and_then(manager_time_ms)
    }

    /// The `GameDuration` tag, ms.
    pub fn duration_ms(&self) -> Option<i64> {
        self.tag("GameDuration").and_then(duration_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_managers_times() {
        let start = manager_time_ms("2026-12-02T05:09:04 +0000").unwrap();
        assert_eq!(manager_time_ms("2026-12-02T05:09:04.000 UTC"), Some(start));
        assert_eq!(manager_time_ms("2026-12-02T00:09:04 -0500"), Some(start));
        assert_eq!(
            manager_time_ms("2026-12-02T05:16:04.626 UTC"),
            Some(start + 7 * 60_000 + 626)
        );
        // 2026-12-02T05:09:04Z, counted here: 20789 days and 18544 s
        assert_eq!(start, (20_789 * 86_400 + 5 * 3600 + 9 * 60 + 4) * 1000);
        for t in [
            "2024-01-14T17:51:36.458 CST",
            "2024-05-26T12:57:02.148 EDT",
            "2026-12-02T05:09:04",
            "2026-12-02T05:09:04 +00",
            "yesterday",
            "",
        ] {
            assert_eq!(manager_time_ms(t), None, "{t}");
        }
        assert_eq!(duration_ms("00:00:08"), Some(8_000));
        assert_eq!(duration_ms("01:02:03"), Some(3_723_000));
        assert_eq!(duration_ms("8"), None);
        assert_eq!(duration_ms("x:y"), None);
    }
}

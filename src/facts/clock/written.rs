//! A time control as a record or a command line writes it: one period,
//! `[moves/]base[+increment]` in seconds (`60+0.6`, `53.596+0.536`,
//! `40/60`), each part with the precision its digits give it. The rules
//! compare a `TimeControl` tag with the control a match was told through
//! it (`tc_base`, `tc_increment`, `tc_moves`, `tc_scale`).

/// A part of a written control: its value, and how far off the value it
/// was rounded from can be (half the last digit written; 0 for a whole
/// number of seconds, which no scaling writes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Part {
    pub ms: f64,
    pub slack_ms: f64,
}

/// One period as written: moves (none: the rest of the game), base time
/// and increment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Written {
    pub moves: Option<u32>,
    pub base: Part,
    pub increment: Part,
}

/// Seconds as written (`53.596`, `60`, `0.6`): digits, at most one point,
/// no sign or exponent; none for anything else or above 10^9 s.
fn part(s: &str) -> Option<Part> {
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(frac) || s.len() > 18 {
        return None;
    }
    if s.contains('.') && frac.is_empty() {
        return None;
    }
    let secs: f64 = s.parse().ok()?;
    if !secs.is_finite() || secs > 1e9 {
        return None;
    }
    // to a millionth of a millisecond, so that 53.596 is 53596 ms
    let ms = (secs * 1e9).round() / 1e6;
    let slack_ms = if frac.is_empty() {
        0.0
    } else {
        500.0 / 10f64.powi(frac.len() as i32)
    };
    Some(Part { ms, slack_ms })
}

/// `text` as one period `[moves/]base[+increment]`; none for `-`, `inf`,
/// `?`, several periods (`40/7200:3600`) or anything else.
pub fn written(text: &str) -> Option<Written> {
    let text = text.trim();
    let (moves, rest) = match text.split_once('/') {
        Some((m, r)) => {
            if m.is_empty() || !m.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            (Some(m.parse::<u32>().ok().filter(|&m| m > 0)?), r)
        }
        None => (None, text),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (part(b)?, part(i)?),
        None => (
            part(rest)?,
            Part {
                ms: 0.0,
                slack_ms: 0.0,
            },
        ),
    };
    Some(Written {
        moves,
        base,
        increment: inc,
    })
}

impl Written {
    /// The one factor by which `told`'s base and increment, each
    /// multiplied by it and rounded to the digits `self` writes them
    /// with, give `self` (as fishtest's worker and OpenBench's client
    /// scale a control to a machine's speed): `self`'s base over `told`'s.
    /// None when the moves differ, `told` has no base, or no one factor
    /// gives both parts.
    pub fn scale_of(&self, told: &Written) -> Option<f64> {
        if self.moves != told.moves || told.base.ms <= 0.0 || self.base.ms <= 0.0 {
            return None;
        }
        let b = told.base.ms;
        let (mut lo, mut hi) = (
            (self.base.ms - self.base.slack_ms) / b,
            (self.base.ms + self.base.slack_ms) / b,
        );
        let i = told.increment.ms;
        if i > 0.0 {
            let inc = self.increment;
            lo = lo.max((inc.ms - inc.slack_ms) / i);
            hi = hi.min((inc.ms + inc.slack_ms) / i);
        } else if self.increment.ms != 0.0 {
            return None;
        }
        (lo <= hi + 1e-12).then_some(self.base.ms / b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_part_keeps_the_digits_it_is_written_to() {
        let w = written("53.596+0.536").unwrap();
        assert_eq!((w.moves, w.base.ms, w.increment.ms), (None, 53596.0, 536.0));
        assert_eq!((w.base.slack_ms, w.increment.slack_ms), (0.5, 0.5));
        let w = written("40/3.51+0.04").unwrap();
        assert_eq!(
            (w.moves, w.base.ms, w.increment.ms),
            (Some(40), 3510.0, 40.0)
        );
        assert_eq!(w.increment.slack_ms, 5.0);
        let w = written("60").unwrap();
        assert_eq!(
            (w.base.ms, w.base.slack_ms, w.increment.ms),
            (60000.0, 0.0, 0.0)
        );
        for bad in [
            "",
            "-",
            "inf",
            "?",
            "40/7200:3600",
            "1:30+0.5",
            "+1",
            "1+",
            "1.",
            ".5",
            "-1+0",
            "1e3",
            "0/60",
            "x/60",
            "60+0.6+1",
        ] {
            assert_eq!(written(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_scaled_control_gives_its_factor_and_nothing_else_does() {
        let tc = |s| written(s).unwrap();
        let told = tc("60+0.6");
        // fishtest's worker: both parts times 0.8933, to three decimals
        let f = tc("53.596+0.536").scale_of(&told).unwrap();
        assert!((f - 0.893_266).abs() < 1e-6, "{f}");
        // OpenBench's client: to two decimals
        let f = tc("3.51+0.04").scale_of(&tc("8+0.08")).unwrap();
        assert!((f - 0.438_75).abs() < 1e-9, "{f}");
        // the same control is scaled by 1
        assert_eq!(tc("60+0.6").scale_of(&told), Some(1.0));
        // fastchess's forms are no scaling: the increment alone is off
        assert_eq!(tc("60.599+0.599").scale_of(&told), None);
        assert_eq!(tc("3+0.029").scale_of(&tc("3+0.03")), None);
        // another control, other moves, an increment where none was told
        assert_eq!(tc("53.596+0.6").scale_of(&told), None);
        assert_eq!(tc("40/53.596+0.536").scale_of(&told), None);
        assert_eq!(tc("53.596+0.536").scale_of(&tc("60")), None);
        assert_eq!(tc("53.596").scale_of(&tc("60")), Some(53.596 / 60.0));
    }
}

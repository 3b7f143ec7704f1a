//! A time control as periods: the definition a ruleset declares, the PGN
//! `TimeControl` tag read as one, and a period's requirement in words.

/// One period of a time control: moves (or the rest of the game), time
/// and increment.
#[derive(Debug, Clone, PartialEq)]
pub struct PeriodDef {
    /// `None`: the rest of the game.
    pub moves: Option<u32>,
    pub time_ms: f64,
    pub increment_ms: f64,
    pub at_least: bool,
}

/// A time control: its periods in order, as a ruleset declares it or a
/// `TimeControl` tag gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeControlDef {
    pub name: String,
    pub periods: Vec<PeriodDef>,
    pub carry_over: bool,
    /// The operator log's game-clock settings give the time used.
    pub settings_show_used: bool,
    /// ms each clock starts with beyond the first period's time (negative:
    /// less), as some software credits the first move: `start_credit`.
    pub start_credit_ms: f64,
    /// Set by the fit from the record's own tag or clocks: the readings'
    /// arithmetic is then checked under it, not under the TimeControl tag.
    pub fitted: bool,
}

impl TimeControlDef {
    /// The control in the PGN `TimeControl` tag's form (`1800+5`,
    /// `40/7200:20/3600:1800`), with ` start_credit N` (seconds) where the
    /// clocks start with a credit. Seconds are written as the tag writes
    /// them: whole where whole, else with their decimals.
    pub fn tag_form(&self) -> String {
        let mut out = self.tag();
        if self.start_credit_ms != 0.0 {
            out.push_str(&format!(" start_credit {}", seconds(self.start_credit_ms)));
        }
        out
    }

    /// The periods alone in the PGN `TimeControl` tag's form (`1800+5`),
    /// with no start credit: what a record's tag states.
    pub fn tag(&self) -> String {
        let secs = seconds;
        self.periods
            .iter()
            .map(|p| {
                let mut f = String::new();
                if let Some(m) = p.moves {
                    f.push_str(&format!("{m}/"));
                }
                f.push_str(&secs(p.time_ms));
                if p.increment_ms != 0.0 {
                    f.push('+');
                    f.push_str(&secs(p.increment_ms));
                }
                f
            })
            .collect::<Vec<_>>()
            .join(":")
    }
}

/// Milliseconds as the tag writes seconds: whole where whole, else with
/// their decimals (to the millisecond).
fn seconds(ms: f64) -> String {
    let r = (ms / 1000.0 * 1000.0).round() / 1000.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

/// A time control as [`TimeControlDef::tag_form`] writes it: a PGN tag,
/// then optionally ` start_credit N` (seconds, may be negative).
pub fn parse_tag_form(text: &str) -> Option<TimeControlDef> {
    let (tag, credit) = match text.split_once(" start_credit ") {
        Some((t, c)) => (t, c.trim().parse::<f64>().ok().filter(|c| c.is_finite())?),
        None => (text, 0.0),
    };
    let mut tc = parse_pgn_time_control(tag)?;
    tc.start_credit_ms = credit * 1000.0;
    Some(tc)
}

/// A PGN `TimeControl` tag as periods: `40/7200:20/3600:1800`,
/// `5400+30`, `1800`; None for `?`, `-` (no control), sandclock `*N`, or
/// anything else it cannot read.
pub fn parse_pgn_time_control(tag: &str) -> Option<TimeControlDef> {
    let mut periods = Vec::new();
    let fields: Vec<&str> = tag.trim().split(':').collect();
    for (i, f) in fields.iter().enumerate() {
        let (moves, rest) = match f.split_once('/') {
            Some((m, r)) => (Some(m.parse::<u32>().ok().filter(|&m| m > 0)?), r),
            None => (None, *f),
        };
        if moves.is_none() && i + 1 != fields.len() {
            return None;
        }
        let (secs, inc) = match rest.split_once('+') {
            Some((s, inc)) => (s, inc),
            None => (rest, "0"),
        };
        let secs: f64 = secs
            .parse()
            .ok()
            .filter(|s: &f64| s.is_finite() && *s >= 0.0)?;
        let inc: f64 = inc
            .parse()
            .ok()
            .filter(|s: &f64| s.is_finite() && *s >= 0.0)?;
        if secs > 1e9 || inc > 1e9 {
            return None;
        }
        periods.push(PeriodDef {
            moves,
            time_ms: secs * 1000.0,
            increment_ms: inc * 1000.0,
            at_least: false,
        });
    }
    if periods.is_empty() {
        return None;
    }
    Some(TimeControlDef {
        name: format!("TimeControl \"{tag}\""),
        periods,
        carry_over: true,
        settings_show_used: false,
        start_credit_ms: 0.0,
        fitted: false,
    })
}

/// A period's requirement in words: "40 moves in 2h", "all moves in 30m".
pub fn period_text(tc: &TimeControlDef, period: u32) -> Option<String> {
    let p = tc.periods.get(period.checked_sub(1)? as usize)?;
    let dur = |ms: f64| {
        let ms = ms.round() as i64;
        if ms % 3_600_000 == 0 {
            format!("{}h", ms / 3_600_000)
        } else if ms % 60_000 == 0 {
            format!("{}m", ms / 60_000)
        } else if ms % 1000 == 0 {
            format!("{}s", ms / 1000)
        } else {
            format!("{ms}ms")
        }
    };
    let mut s = match (p.moves, p.at_least) {
        (Some(m), true) => format!("at least {m} moves in {}", dur(p.time_ms)),
        (Some(m), false) => format!("{m} moves in {}", dur(p.time_ms)),
        (None, _) if period == 1 => format!("all moves in {}", dur(p.time_ms)),
        (None, _) => format!("the rest of the game in {}", dur(p.time_ms)),
    };
    if p.increment_ms > 0.0 {
        s.push_str(&format!(" + {} per move", dur(p.increment_ms)));
    }
    Some(s)
}

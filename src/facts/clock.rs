//! Clocks: the time-control model and the reconstruction of both clocks
//! along a game.
//!
//! A time control (declared in the ruleset, `time-control NAME { period … }`)
//! is a list of periods: N moves (or the rest of the game) in a time, with
//! an increment per move; unused time carries over to the next period
//! unless `no_carry_over`; an `at_least` period only requires that many
//! moves within its time. All arithmetic is in whole milliseconds.
//!
//! The time each move used comes from the record: TCEC `mt`, `[%emt]`,
//! the difference of consecutive `[%clk]` readings (less the increment), or
//! cutechess's move time. The reconstructed clock is what the declared time
//! control leaves after each move, so it can be compared with what the
//! record says was left (`[%clk]`, TCEC `tl`).

use shakmaty::Color;

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
}

/// One side's clock under a time control.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clock {
    periods: Vec<Period>,
    carry_over: bool,
    /// Index of the period in force.
    period: usize,
    /// Moves made in the period in force.
    moves_in_period: u32,
    /// Moves made in the game.
    moves: u32,
    /// ms the clock has been given (periods' time, increments, settings).
    granted: i64,
    /// ms the side has used.
    spent: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Period {
    moves: Option<u32>,
    time: i64,
    increment: i64,
    at_least: bool,
}

/// What one move did to a clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tick {
    /// 1-based period the move was made in.
    pub period: u32,
    /// ms left when the move was completed, before any increment: negative
    /// when the time ran out during the move.
    pub left_at_move: i64,
    /// ms left after the increment and any new period's time.
    pub left: i64,
    /// Time ran out: the move was completed after the clock reached zero
    /// (for an `at_least` period, only while its move quota was not met).
    pub flag: bool,
}

impl Clock {
    pub fn new(tc: &TimeControlDef) -> Clock {
        let periods: Vec<Period> = tc
            .periods
            .iter()
            .map(|p: &PeriodDef| Period {
                moves: p.moves,
                time: p.time_ms.round() as i64,
                increment: p.increment_ms.round() as i64,
                at_least: p.at_least,
            })
            .collect();
        let granted = periods.first().map_or(0, |p| p.time);
        Clock {
            periods,
            carry_over: tc.carry_over,
            period: 0,
            moves_in_period: 0,
            moves: 0,
            granted,
            spent: 0,
        }
    }

    /// ms left now.
    pub fn left(&self) -> i64 {
        self.granted.saturating_sub(self.spent)
    }

    /// A move that used `used` ms.
    pub fn spend(&mut self, used: i64) -> Tick {
        let p = self.periods.get(self.period).cloned().unwrap_or(Period {
            moves: None,
            time: 0,
            increment: 0,
            at_least: false,
        });
        self.spent = self.spent.saturating_add(used);
        let left_at_move = self.left();
        let quota_met = p.moves.is_some_and(|n| self.moves_in_period + 1 > n);
        let flag = left_at_move < 0 && !(p.at_least && quota_met);
        self.granted = self.granted.saturating_add(p.increment);
        self.moves += 1;
        self.moves_in_period += 1;
        let period_no = self.period as u32 + 1;
        if let Some(n) = p.moves
            && self.moves_in_period >= n
            && self.period + 1 < self.periods.len()
        {
            self.period += 1;
            self.moves_in_period = 0;
            let next = self.periods[self.period].time;
            if !self.carry_over {
                // unused time is lost: the new period starts from its own time
                self.granted = self.spent;
            }
            self.granted = self.granted.saturating_add(next);
        }
        Tick {
            period: period_no,
            left_at_move,
            left: self.left(),
            flag,
        }
    }

    /// Set the time left (a correction or a manual addition).
    pub fn set(&mut self, ms: i64) {
        self.spent = self.granted.saturating_sub(ms);
    }

    /// Set the time used (a clock that counts up).
    pub fn set_used(&mut self, ms: i64) {
        self.spent = ms;
    }
}

/// Where the time a move used comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// TCEC's `mt`.
    Tcec,
    /// `[%emt]`.
    Emt,
    /// cutechess's `+0.35/24 1.2s`.
    Cutechess,
    /// Another GUI's move comment (fastchess, Arena, Banksia).
    Gui,
    /// Two consecutive readings of the side's clock (`[%clk]`, TCEC `tl`).
    Readings,
    /// The engine log: `go` to `bestmove`, less the time the clock was stopped.
    EngineLog,
    /// The operator log: the previous move to this one, less the time the
    /// clock was stopped.
    OperatorLog,
}

impl Source {
    pub fn name(self) -> &'static str {
        match self {
            Source::Tcec => "tcec mt",
            Source::Emt => "emt",
            Source::Cutechess => "cutechess",
            Source::Gui => "gui comment",
            Source::Readings => "clock readings",
            Source::EngineLog => "engine log",
            Source::OperatorLog => "operator log",
        }
    }
}

/// Both clocks along a game: for each ply, the time used and the clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockPly {
    pub ply: u32,
    pub side: Color,
    /// ms the move used, when some source says.
    pub used: Option<i64>,
    pub source: Option<Source>,
    /// The clock under the ruleset's time control after the move.
    pub tick: Option<Tick>,
    /// ms the record says the mover had left after the move.
    pub recorded: Option<i64>,
    /// What the previous reading of the mover's clock, the moves' times
    /// since and the increments give for this reading (under the record's
    /// own time control where its TimeControl tag states one).
    pub expected: Option<i64>,
    /// `recorded - expected`: time the clock gained (> 0) or lost (< 0)
    /// that no move and no logged setting explains.
    pub jump: Option<i64>,
    /// ms the mover's clock was stopped while the move was being made
    /// (clock stops and power failures of the operator log).
    pub stopped: i64,
    /// ms the logs' timestamps give for the move, net of `stopped`.
    pub timed: Option<i64>,
    pub timed_source: Option<Source>,
}

impl Clock {
    /// The increment of the period in force.
    pub fn increment(&self) -> i64 {
        self.periods.get(self.period).map_or(0, |p| p.increment)
    }
}

/// A clock set by hand: after `after_ply` plies, `side`'s clock shows `ms`
/// (an operator's `clock-set clock=game side=… new=…`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Correction {
    pub after_ply: u32,
    pub side: Color,
    pub ms: i64,
    /// `ms` is the time used (the time control's `settings_show_used`),
    /// not the time left.
    pub used: bool,
}

/// Everything the sources say about the clocks, one entry per ply.
#[derive(Debug, Clone, Default)]
pub struct Inputs {
    /// Time used as the record states it.
    pub used: Vec<Option<(i64, Source)>>,
    /// Clock after the move as the record states it.
    pub readings: Vec<Option<i64>>,
    /// Moves made off the clock (TCEC book moves).
    pub off_clock: Vec<bool>,
    /// Time used from the logs' timestamps, net of stops.
    pub timed: Vec<Option<(i64, Source)>>,
    /// ms the mover's clock was stopped during the move.
    pub stopped: Vec<i64>,
    pub corrections: Vec<Correction>,
    /// The time control the record itself states (PGN TimeControl).
    pub recorded_tc: Option<TimeControlDef>,
}

/// Reconstruct both clocks. A move's time is what the record states
/// (`mt`, `[%emt]`, cutechess), else the difference of two consecutive
/// readings of the side's clock (previous + increment − this), else what
/// the logs' timestamps give. When no source knows it, that side's clock is
/// unknown until a correction sets it. Corrections (clock settings of the
/// operator log) apply after their ply. Alongside, each reading is compared
/// with the previous reading less the moves' times plus the increments
/// (under the record's own time control when it states one): the
/// difference is a clock jump no move explains.
pub fn run(tc: &TimeControlDef, first_ply: u32, inp: &Inputs) -> Vec<ClockPly> {
    let mut pending: Vec<Correction> = inp.corrections.clone();
    pending.sort_by_key(|c| c.after_ply);
    let mut pending = pending.into_iter().peekable();
    let mut clocks = [Clock::new(tc), Clock::new(tc)];
    let shadow_tc = inp.recorded_tc.as_ref().unwrap_or(tc);
    // The clocks as the record's own readings drive them.
    let mut shadow = [Clock::new(shadow_tc), Clock::new(shadow_tc)];
    // Every move since the side's last reading has a known time.
    let mut exact = [true, true];
    let mut known = [true, true];
    let mut last_reading: [Option<i64>; 2] = [None, None];
    let n = inp.used.len().max(inp.readings.len());
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let ply = first_ply + i as u32;
        while let Some(c) = pending.next_if(|c| c.after_ply < ply) {
            let k = usize::from(c.side == Color::Black);
            if c.used {
                clocks[k].set_used(c.ms);
                shadow[k].set_used(c.ms);
            } else {
                clocks[k].set(c.ms);
                shadow[k].set(c.ms);
            }
            known[k] = true;
            exact[k] = true;
            last_reading[k] = Some(shadow[k].left());
        }
        let side = if ply % 2 == 1 {
            Color::White
        } else {
            Color::Black
        };
        let k = usize::from(side == Color::Black);
        let timed = inp.timed.get(i).copied().flatten();
        let stopped = inp.stopped.get(i).copied().unwrap_or(0);
        let reading = inp.readings.get(i).copied().flatten();
        let mut row = ClockPly {
            ply,
            side,
            used: None,
            source: None,
            tick: None,
            recorded: reading,
            expected: None,
            jump: None,
            stopped,
            timed: timed.map(|t| t.0),
            timed_source: timed.map(|t| t.1),
        };
        if inp.off_clock.get(i).copied().unwrap_or(false) {
            // a move made off the clock (an opening-book move at TCEC)
            out.push(row);
            continue;
        }
        let stated = inp.used.get(i).copied().flatten();
        let derived = match (stated, last_reading[k], reading) {
            (Some(u), ..) => Some(u),
            (None, Some(prev), Some(now)) => {
                Some((prev + clocks[k].increment() - now, Source::Readings))
            }
            (None, None, Some(now)) if clocks[k].moves == 0 => Some((
                clocks[k].left() + clocks[k].increment() - now,
                Source::Readings,
            )),
            _ => timed,
        };
        // The record's own arithmetic, from reading to reading. A move whose
        // time only the readings give (or no source) counts as no time: then
        // only a gain can be measured, and it is at least the difference.
        match derived {
            Some((ms, src)) if src != Source::Readings => {
                shadow[k].spend(ms);
            }
            _ => {
                shadow[k].spend(0);
                exact[k] = false;
            }
        }
        if let Some(now) = reading {
            let diff = now - shadow[k].left();
            if exact[k] || diff > 0 {
                row.expected = Some(shadow[k].left());
                row.jump = Some(diff);
            }
            shadow[k].set(now);
            exact[k] = true;
            last_reading[k] = Some(now);
        }
        row.used = derived.map(|d| d.0);
        row.source = derived.map(|d| d.1);
        row.tick = match derived {
            Some((ms, _)) if known[k] => Some(clocks[k].spend(ms)),
            _ => {
                known[k] = false;
                None
            }
        };
        out.push(row);
    }
    out
}

/// The clock readings the record has (`[%clk]`, TCEC `tl`), per ply.
pub fn recorded_readings(tl: &crate::timeline::Timeline<'_>) -> Vec<Option<i64>> {
    record_inputs(tl).readings
}

fn record_inputs(tl: &crate::timeline::Timeline<'_>) -> Inputs {
    let n = tl.replay.plies.len();
    let mut inp = Inputs {
        used: Vec::with_capacity(n),
        readings: Vec::with_capacity(n),
        off_clock: Vec::with_capacity(n),
        ..Inputs::default()
    };
    for p in &tl.replay.plies {
        let mv = &tl.game.moves[p.move_index];
        let comments = tl.game.comments_of(mv);
        let ann = || comments.iter().map(|c| &c.annotations);
        let tcec = ann().find_map(|a| a.tcec());
        let book = tcec.is_some_and(|t| t.book);
        let u = tcec
            .and_then(|t| t.mt)
            .map(|ms| (ms, Source::Tcec))
            .or_else(|| ann().find_map(|a| a.emt).map(|ms| (ms, Source::Emt)))
            .or_else(|| {
                ann()
                    .find_map(|a| a.cutechess().and_then(|c| c.time_ms))
                    .map(|ms| (ms, Source::Cutechess))
            })
            .or_else(|| {
                ann()
                    .find_map(|a| a.gui().and_then(|e| e.time_ms))
                    .map(|ms| (ms, Source::Gui))
            });
        inp.used.push(u);
        inp.off_clock.push(book);
        inp.readings.push(
            tcec.and_then(|t| t.tl)
                .or_else(|| ann().find_map(|a| a.clk)),
        );
    }
    inp
}

/// Intervals during which a side's clock was stopped: (from, to), ms since
/// the epoch; `to` is `i64::MAX` for a stop never ended.
fn stop_intervals(tl: &crate::timeline::Timeline<'_>) -> [Vec<(i64, i64)>; 2] {
    use crate::ingest::operator::{FieldValue, OpKind};
    use crate::timeline::Data;
    let mut open: [Option<i64>; 2] = [None, None];
    let mut power: Option<i64> = None;
    let mut out: [Vec<(i64, i64)>; 2] = [Vec::new(), Vec::new()];
    let sides = |f: Option<&FieldValue>| -> Vec<usize> {
        match f {
            Some(FieldValue::Str(s)) if s == "white" => vec![0],
            Some(FieldValue::Str(s)) if s == "black" => vec![1],
            _ => vec![0, 1],
        }
    };
    for ev in &tl.events {
        let Data::Op { event, .. } = &ev.data else {
            continue;
        };
        match event.kind {
            OpKind::ClockStop => {
                for k in sides(event.fields.get("side")) {
                    open[k].get_or_insert(event.time);
                }
            }
            OpKind::ClockStart => {
                for k in sides(event.fields.get("side")) {
                    if let Some(from) = open[k].take() {
                        out[k].push((from, event.time));
                    }
                }
            }
            OpKind::PowerFailure => {
                power.get_or_insert(event.time);
            }
            OpKind::PowerRestored => {
                if let Some(from) = power.take() {
                    out[0].push((from, event.time));
                    out[1].push((from, event.time));
                }
            }
            _ => {}
        }
    }
    for k in 0..2 {
        if let Some(from) = open[k] {
            out[k].push((from, i64::MAX));
        }
        if let Some(from) = power {
            out[k].push((from, i64::MAX));
        }
        // merge overlapping intervals so no time is subtracted twice
        out[k].sort_unstable();
        let mut merged: Vec<(i64, i64)> = Vec::with_capacity(out[k].len());
        for &(a, b) in &out[k] {
            match merged.last_mut() {
                Some(last) if a <= last.1 => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        out[k] = merged;
    }
    out
}

fn overlap(stops: &[(i64, i64)], a: i64, b: i64) -> i64 {
    stops
        .iter()
        .map(|&(s, e)| (e.min(b) - s.max(a)).max(0))
        .sum()
}

/// Everything the timeline knows about the clocks: the record's times,
/// the operator log's clock settings, stops and power failures, and the
/// engine log's and operator log's timestamps.
pub fn inputs(tl: &crate::timeline::Timeline<'_>) -> Inputs {
    use crate::ingest::operator::{FieldValue, OpKind};
    use crate::timeline::{Data, Kind};
    let mut inp = record_inputs(tl);
    let n = inp.used.len();
    let first = tl.replay.first_ply;
    inp.recorded_tc = tl.game.tag("TimeControl").and_then(parse_pgn_time_control);
    // a record without logs (nearly every game of an archive): no move is
    // timed by a log, no clock was stopped or set
    if !tl
        .events
        .iter()
        .any(|ev| matches!(ev.data, Data::Op { .. } | Data::Engine(_)))
    {
        inp.timed = vec![None; n];
        inp.stopped = vec![0; n];
        return inp;
    }
    let stops = stop_intervals(tl);
    let any_stop = !stops[0].is_empty() || !stops[1].is_empty();
    // Each ply's move as the operator log times it, and the engine's search.
    let mut op_time: Vec<Option<i64>> = vec![None; n];
    let mut search: Vec<Option<(i64, i64, bool)>> = vec![None; n];
    let mut clock_started: Option<i64> = None;
    for ev in &tl.events {
        match &ev.data {
            Data::Op { event, .. } => {
                if event.kind == OpKind::ClockStart && clock_started.is_none() {
                    clock_started = Some(event.time);
                }
                if event.kind == OpKind::ClockSet {
                    let f = |k: &str| event.fields.get(k);
                    let game_clock = match f("clock") {
                        None => true,
                        Some(FieldValue::Str(s)) => s == "game",
                        _ => false,
                    };
                    let side = match f("side") {
                        Some(FieldValue::Str(s)) if s == "white" => Some(Color::White),
                        Some(FieldValue::Str(s)) if s == "black" => Some(Color::Black),
                        _ => None,
                    };
                    if let (true, Some(side), Some(FieldValue::Num(ms))) =
                        (game_clock, side, f("new"))
                    {
                        inp.corrections.push(Correction {
                            // the ply the setting concerns (`ply=`), else where it was logged
                            after_ply: match f("ply") {
                                Some(FieldValue::Num(p)) => *p as u32,
                                _ => ev.ply.unwrap_or(0),
                            },
                            side,
                            ms: *ms as i64,
                            used: false,
                        });
                    }
                }
                if matches!(event.kind, OpKind::MoveEntered | OpKind::MoveExecuted)
                    && let Some(p) = ev.ply
                    && p >= first
                    && let Some(slot) = op_time.get_mut((p - first) as usize)
                {
                    // the latest entry of the move stands (a re-entry after an error)
                    *slot = Some(event.time);
                }
            }
            Data::Engine(e) if ev.kind == Kind::Engine(crate::timeline::align::EngKind::Search) => {
                let num = |k: &str| match e.fields.get(k) {
                    Some(crate::base::value::Value::Num(x)) => Some(*x),
                    _ => None,
                };
                let flag = |k: &str| {
                    matches!(e.fields.get(k), Some(crate::base::value::Value::Bool(true)))
                };
                let wrong_position = matches!(
                    e.fields.get("position_matches"),
                    Some(crate::base::value::Value::Bool(false))
                );
                if flag("pondering") || wrong_position {
                    continue;
                }
                if let (Some(p), Some(el)) = (num("for_ply"), num("elapsed"))
                    && p >= f64::from(first)
                    && let Some(slot) = search.get_mut((p as u32 - first) as usize)
                {
                    // the last search for the ply (after a restart) made the move
                    *slot = Some((e.time, e.time + el as i64, e.absolute));
                }
            }
            _ => {}
        }
    }
    inp.timed = vec![None; n];
    inp.stopped = vec![0; n];
    for i in 0..n {
        let k = usize::from((first + i as u32).is_multiple_of(2));
        let from_engine = search[i].and_then(|(a, b, absolute)| {
            if absolute {
                Some((a, b))
            } else if !any_stop {
                Some((0, b - a))
            } else {
                None
            }
        });
        let from_ops = op_time[i].and_then(|b| {
            let a = if i == 0 {
                clock_started
            } else {
                op_time[i - 1]
            }?;
            (b >= a).then_some((a, b))
        });
        let (interval, src) = match (from_engine, from_ops) {
            (Some(iv), _) => (Some(iv), Source::EngineLog),
            (None, Some(iv)) => (Some(iv), Source::OperatorLog),
            _ => (None, Source::OperatorLog),
        };
        if let Some((a, b)) = interval {
            let stopped = overlap(&stops[k], a, b);
            inp.stopped[i] = stopped;
            inp.timed[i] = Some((b - a - stopped, src));
        } else if let Some(b) = op_time[i]
            && i > 0
            && let Some(a) = op_time[i - 1]
        {
            inp.stopped[i] = overlap(&stops[k], a, b);
        }
    }
    inp
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
    })
}

/// Reconstruct both clocks of a game from every source its timeline has.
pub fn reconstruct(tc: &TimeControlDef, tl: &crate::timeline::Timeline<'_>) -> Vec<ClockPly> {
    let mut inp = inputs(tl);
    for c in &mut inp.corrections {
        c.used = tc.settings_show_used;
    }
    run(tc, tl.replay.first_ply, &inp)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(periods: &[(Option<u32>, i64, i64, bool)], carry: bool) -> TimeControlDef {
        TimeControlDef {
            name: "t".into(),
            periods: periods
                .iter()
                .map(|&(m, t, inc, al)| PeriodDef {
                    moves: m,
                    time_ms: t as f64,
                    increment_ms: inc as f64,
                    at_least: al,
                })
                .collect(),
            carry_over: carry,
            settings_show_used: false,
        }
    }

    const H: i64 = 3_600_000;
    const M: i64 = 60_000;

    #[test]
    fn forty_in_two_hours_then_twenty_in_one_then_thirty_minutes() {
        let t = tc(
            &[
                (Some(40), 2 * H, 0, false),
                (Some(20), H, 0, false),
                (None, 30 * M, 0, false),
            ],
            true,
        );
        let mut c = Clock::new(&t);
        for _ in 0..40 {
            c.spend(2 * M);
        }
        // 2h - 80 min = 40 min left, carried over: + 1h
        assert_eq!(c.left(), 40 * M + H);
        for _ in 0..20 {
            c.spend(M);
        }
        assert_eq!(c.left(), 80 * M + 30 * M);
        let t2 = c.spend(111 * M);
        assert!(t2.flag);
        assert_eq!(t2.period, 3);
    }

    #[test]
    fn the_first_period_missed_is_a_flag() {
        let t = tc(&[(Some(40), 2 * H, 0, false), (None, H, 0, false)], true);
        let mut c = Clock::new(&t);
        let mut flagged = None;
        for n in 1..=40 {
            let tick = c.spend(3 * M + 1);
            if tick.flag && flagged.is_none() {
                flagged = Some(n);
            }
        }
        assert_eq!(
            flagged,
            Some(40),
            "40 moves in 2h: the 40th move is made after 2h"
        );
    }

    #[test]
    fn increment_and_sudden_death() {
        let t = tc(&[(None, 30 * M, 5_000, false)], true);
        let mut c = Clock::new(&t);
        let tick = c.spend(10_000);
        assert_eq!(tick.left, 30 * M - 5_000);
        assert!(!tick.flag);
    }

    #[test]
    fn at_least_n_moves_in_t() {
        let t = tc(&[(Some(3), 10_000, 0, true)], true);
        let mut c = Clock::new(&t);
        assert!(!c.spend(4_000).flag);
        assert!(!c.spend(4_000).flag);
        assert!(c.spend(4_000).flag, "the third move is due within 10 s");
        let t = tc(&[(Some(2), 10_000, 0, true)], true);
        let mut c = Clock::new(&t);
        c.spend(4_000);
        c.spend(4_000);
        assert!(
            !c.spend(4_000).flag,
            "two moves were required; the quota is met"
        );
    }

    #[test]
    fn no_carry_over() {
        let t = tc(
            &[(Some(1), 10 * M, 0, false), (None, 5 * M, 0, false)],
            false,
        );
        let mut c = Clock::new(&t);
        c.spend(M);
        assert_eq!(c.left(), 5 * M);
    }

    /// Property: whatever the time control and the moves, the clock loses
    /// exactly the time used and gains exactly the increments and the new
    /// periods' time (with carry-over): no time is created or lost.
    #[test]
    fn no_time_is_created_or_lost() {
        let mut x: u64 = 0x853c_49e6_748f_ea9b;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for _ in 0..2_000 {
            let mut periods: Vec<(Option<u32>, i64, i64, bool)> = Vec::new();
            for _ in 0..1 + next(3) {
                let (m, t, inc) = (
                    1 + next(50) as u32,
                    (1 + next(7_200)) as i64 * 1000,
                    next(30) as i64 * 1000,
                );
                periods.push((Some(m), t, inc, false));
            }
            let (t, inc) = (next(3_600) as i64 * 1000, next(30) as i64 * 1000);
            periods.push((None, t, inc, false));
            let t = tc(&periods, true);
            let mut c = Clock::new(&t);
            let mut used_total = 0i64;
            let mut granted = periods[0].1;
            let mut period = 0usize;
            let mut in_period = 0u32;
            for _ in 0..next(150) {
                let u = next(400_000) as i64;
                used_total += u;
                granted += periods[period].2;
                c.spend(u);
                in_period += 1;
                if let Some(n) = periods[period].0
                    && in_period >= n
                    && period + 1 < periods.len()
                {
                    period += 1;
                    in_period = 0;
                    granted += periods[period].1;
                }
                assert_eq!(c.left(), granted - used_total);
            }
        }
    }

    #[test]
    fn pgn_time_control_tags() {
        let t = parse_pgn_time_control("40/7200:20/3600:1800").unwrap();
        assert_eq!(t.periods.len(), 3);
        assert_eq!(t.periods[0].moves, Some(40));
        assert_eq!(t.periods[2].moves, None);
        assert_eq!(t.periods[2].time_ms, 1_800_000.0);
        let t = parse_pgn_time_control("1800+5").unwrap();
        assert_eq!(t.periods[0].increment_ms, 5000.0);
        let t = parse_pgn_time_control("60+0.5").unwrap();
        assert_eq!(t.periods[0].increment_ms, 500.0);
        for bad in [
            "?",
            "-",
            "*60",
            "",
            "40/",
            "1800:40/7200",
            "x+1",
            "1e99",
            "0/60",
        ] {
            assert!(parse_pgn_time_control(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn period_requirements_in_words() {
        let t = tc(
            &[(Some(40), 2 * H, 0, false), (None, 30 * M, 5_000, false)],
            true,
        );
        assert_eq!(period_text(&t, 1).as_deref(), Some("40 moves in 2h"));
        assert_eq!(
            period_text(&t, 2).as_deref(),
            Some("the rest of the game in 30m + 5s per move")
        );
        assert_eq!(period_text(&t, 3), None);
        assert_eq!(period_text(&t, 0), None);
    }

    fn inputs(used: &[Option<i64>], readings: &[Option<i64>]) -> Inputs {
        Inputs {
            used: used
                .iter()
                .map(|u| u.map(|ms| (ms, Source::Tcec)))
                .collect(),
            readings: readings.to_vec(),
            ..Inputs::default()
        }
    }

    #[test]
    fn a_jump_is_what_no_move_explains() {
        let t = tc(&[(None, 30 * M, 5_000, false)], true);
        // white: 1800 - 10 + 5 = 1795 s; then 1795 - 10 + 5 = 1790, recorded 1850: +60 s
        let inp = inputs(
            &[Some(10_000), Some(10_000), Some(10_000), Some(10_000)],
            &[
                Some(1_795_000),
                Some(1_795_000),
                Some(1_850_000),
                Some(1_790_000),
            ],
        );
        let rows = run(&t, 1, &inp);
        assert_eq!(rows[0].jump, Some(0));
        assert_eq!(rows[2].jump, Some(60_000));
        assert_eq!(rows[2].expected, Some(1_790_000));
        assert_eq!(rows[3].jump, Some(0));
        // the regulation's clock does not credit the jump
        assert_eq!(rows[2].tick.as_ref().unwrap().left, 1_790_000);
    }

    #[test]
    fn across_a_move_with_no_time_only_a_gain_is_measured() {
        let t = tc(&[(None, 30 * M, 5_000, false)], true);
        // white's second move has no time: its third reading can only be
        // checked for a gain (at least the difference).
        let lost = inputs(
            &[Some(10_000), Some(1), None, Some(1), Some(10_000)],
            &[Some(1_795_000), None, None, None, Some(1_700_000)],
        );
        let rows = run(&t, 1, &lost);
        assert_eq!(rows[4].jump, None, "a loss may be the unknown move's time");
        let gained = inputs(
            &[Some(10_000), Some(1), None, Some(1), Some(10_000)],
            &[Some(1_795_000), None, None, None, Some(1_900_000)],
        );
        let rows = run(&t, 1, &gained);
        // 1795 + 5 (no time) - 10 + 5 = 1795 at most
        assert_eq!(rows[4].jump, Some(105_000));
    }

    #[test]
    fn the_logs_time_a_move_the_record_does_not() {
        let t = tc(&[(Some(40), 2 * H, 0, false)], true);
        let inp = Inputs {
            used: vec![None, Some((5_000, Source::Emt))],
            readings: vec![None, None],
            timed: vec![Some((2 * H + 1, Source::OperatorLog)), None],
            stopped: vec![0, 0],
            ..Inputs::default()
        };
        let rows = run(&t, 1, &inp);
        assert_eq!(rows[0].source, Some(Source::OperatorLog));
        assert!(rows[0].tick.as_ref().unwrap().flag);
        assert_eq!(rows[1].source, Some(Source::Emt));
    }

    #[test]
    fn settings_of_time_used_and_of_time_left() {
        let t = tc(&[(Some(40), 2 * H, 0, false)], true);
        let mut inp = inputs(&[Some(M), Some(M), Some(M)], &[None, None, None]);
        inp.corrections = vec![Correction {
            after_ply: 2,
            side: Color::White,
            ms: 30 * M,
            used: true,
        }];
        let rows = run(&t, 1, &inp);
        // white had used 1 min; set to 30 min used, then one more minute
        assert_eq!(rows[2].tick.as_ref().unwrap().left, 2 * H - 31 * M);
        inp.corrections[0].used = false;
        let rows = run(&t, 1, &inp);
        assert_eq!(rows[2].tick.as_ref().unwrap().left, 29 * M);
    }

    #[test]
    fn stops_are_merged_and_overlaps_counted_once() {
        assert_eq!(overlap(&[(10, 20), (30, 40)], 0, 100), 20);
        assert_eq!(overlap(&[(10, 20)], 15, 100), 5);
        assert_eq!(overlap(&[(10, i64::MAX)], 0, 50), 40);
        assert_eq!(overlap(&[], 0, 50), 0);
    }

    /// Property, over whole games: between two moves of a side its clock
    /// changes only by the move's time, the increment and a new period's
    /// time, except where a recorded setting (an operator's correction)
    /// sets it, and then it starts from exactly that setting.
    #[test]
    fn only_recorded_events_create_or_remove_time() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for _ in 0..500 {
            let mut periods: Vec<(Option<u32>, i64, i64, bool)> = Vec::new();
            for _ in 0..next(3) {
                periods.push((
                    Some(1 + next(40) as u32),
                    (1 + next(7_200)) as i64 * 1000,
                    next(10) as i64 * 1000,
                    false,
                ));
            }
            periods.push((
                None,
                (1 + next(3_600)) as i64 * 1000,
                next(30) as i64 * 1000,
                false,
            ));
            let t = tc(&periods, true);
            let plies = next(200) as usize;
            let used: Vec<Option<i64>> = (0..plies)
                .map(|_| (next(10) > 0).then(|| next(300_000) as i64))
                .collect();
            let corrections: Vec<Correction> = (0..next(4))
                .map(|_| Correction {
                    after_ply: next(plies as u64 + 1) as u32,
                    side: if next(2) == 0 {
                        Color::White
                    } else {
                        Color::Black
                    },
                    ms: next(3_600_000) as i64,
                    used: false,
                })
                .collect();
            let inp = Inputs {
                used: used.iter().map(|u| u.map(|ms| (ms, Source::Emt))).collect(),
                readings: vec![None; plies],
                corrections: corrections.clone(),
                ..Inputs::default()
            };
            let rows = run(&t, 1, &inp);
            for k in [Color::White, Color::Black] {
                let mine: Vec<&ClockPly> = rows.iter().filter(|r| r.side == k).collect();
                let mut prev_left = Some(periods[0].1);
                let mut prev_ply = 0u32;
                for r in mine {
                    // the last setting of this side logged since its previous move
                    let setting = corrections
                        .iter()
                        .filter(|c| c.side == k && c.after_ply >= prev_ply && c.after_ply < r.ply)
                        .max_by_key(|c| c.after_ply)
                        .map(|c| c.ms);
                    let base = setting.or(prev_left);
                    match (&r.tick, r.used, base) {
                        (Some(tick), Some(u), Some(b)) => {
                            assert_eq!(tick.left_at_move, b - u);
                            let gained = tick.left - tick.left_at_move;
                            let ok = periods.iter().enumerate().any(|(i, p)| {
                                gained == p.2
                                    || periods.get(i + 1).is_some_and(|n| gained == p.2 + n.1)
                            });
                            assert!(ok, "gained {gained} is no increment or period time");
                            prev_left = Some(tick.left);
                        }
                        (None, _, _) => prev_left = None,
                        _ => panic!("a move with a time on a known clock has a tick"),
                    }
                    prev_ply = r.ply;
                }
            }
        }
    }
}

//! Both clocks along a game, run from what the sources say: for each ply
//! the time used, the clock, and any jump of a recorded reading.

use shakmaty::Color;

use super::inputs::{Correction, Inputs, Source};
use super::side_clock::{Clock, Tick};
use super::time_control::TimeControlDef;

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
    // the record's own arithmetic runs under its TimeControl tag (with the
    // ruleset's start credit, a convention of the software the tag does not
    // state), unless the fit found the control the record's clocks ran
    let tagged = inp.recorded_tc.as_ref().filter(|_| !tc.fitted).map(|r| {
        let mut r = r.clone();
        r.start_credit_ms = tc.start_credit_ms;
        r
    });
    let shadow_tc = tagged.as_ref().unwrap_or(tc);
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

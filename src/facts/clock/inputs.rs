//! What the sources say about the clocks, ply by ply: the times and
//! readings of the record, the clock settings, stops and power failures of
//! the operator log, and the moves the logs' timestamps time.

use shakmaty::Color;

use super::time_control::{TimeControlDef, parse_pgn_time_control};
use crate::ingest::comments::MoveComments;

/// Where the time a move used comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The record's statement of it (which one: the comments' `Source`).
    Record(crate::ingest::comments::Source),
    /// Two consecutive readings of the side's clock.
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
            Source::Record(s) => s.name(),
            Source::Readings => "clock readings",
            Source::EngineLog => "engine log",
            Source::OperatorLog => "operator log",
        }
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
    /// Moves made off the clock (book moves the record says were).
    pub off_clock: Vec<bool>,
    /// Time used from the logs' timestamps, net of stops.
    pub timed: Vec<Option<(i64, Source)>>,
    /// ms the mover's clock was stopped during the move.
    pub stopped: Vec<i64>,
    pub corrections: Vec<Correction>,
    /// The time control the record itself states (PGN TimeControl).
    pub recorded_tc: Option<TimeControlDef>,
}

/// The clock readings the record has (the mover's clock left), per ply.
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
        let comments = MoveComments::of(tl.game.comments_of(mv));
        inp.used.push(
            comments
                .time_used()
                .map(|u| (u.value, Source::Record(u.source))),
        );
        inp.off_clock.push(comments.played_off_the_clock());
        inp.readings.push(comments.clock_left_ms());
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

pub(super) fn overlap(stops: &[(i64, i64)], a: i64, b: i64) -> i64 {
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

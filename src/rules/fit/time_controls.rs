//! The time controls a `time-control … fit from record` tries for a group
//! of games: the text's, the one the games' TimeControl tag gives, and the
//! ones their clock readings imply (the increment the readings step by,
//! and what the clocks started with).
//!
//! Each is a value in [`TimeControlDef::tag_form`] (`7200+15`, or
//! `7200+15 start_credit 29` where the clocks started with 29 s more than
//! the first period's time). The search scores every candidate on the
//! record, as it scores any other value: nothing here decides which holds.

use std::collections::BTreeMap;

use crate::base::value::Value;
use crate::facts::clock::{TimeControlDef, inputs, parse_pgn_time_control, parse_tag_form};
use crate::timeline::Timeline;

/// The most frequent value of `counts` (the smallest among equals).
fn mode(counts: &BTreeMap<i64, usize>) -> Option<i64> {
    counts
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .map(|(v, _)| *v)
}

/// What the games' tags and clock readings show, gathered a game at a
/// time: the count of each TimeControl tag, of each side's start (its
/// first reading plus its move's time, the first increment with it), and
/// of each step from one reading of a side to the next (the reading less
/// the previous, plus the move's time: the increment).
#[derive(Debug, Default)]
pub(super) struct Readings {
    tags: BTreeMap<String, usize>,
    starts: BTreeMap<i64, usize>,
    steps: BTreeMap<i64, usize>,
}

impl Readings {
    /// Add one game's tag and readings.
    pub(super) fn add(&mut self, tl: &Timeline<'_>) {
        if let Some(t) = tl.game.tag("TimeControl") {
            *self.tags.entry(t.trim().to_string()).or_default() += 1;
        }
        let inp = inputs(tl);
        // per side (by the ply's parity): the last reading, if the moves
        // since all had one, and whether a reading was seen at all
        let mut last: [Option<i64>; 2] = [None, None];
        let mut seen = [false, false];
        for (i, reading) in inp.readings.iter().enumerate() {
            if inp.off_clock.get(i).copied().unwrap_or(false) {
                continue;
            }
            let side = i % 2;
            let (Some(r), Some((used, _))) = (reading, inp.used.get(i).copied().flatten()) else {
                last[side] = None;
                continue;
            };
            match last[side] {
                Some(prev) => *self.steps.entry(r - prev + used).or_default() += 1,
                None if !seen[side] => *self.starts.entry(r + used).or_default() += 1,
                None => {}
            }
            last[side] = Some(*r);
            seen[side] = true;
        }
    }

    /// The candidates, in a fixed order, each once: the text's first.
    pub(super) fn candidates(&self, text: &Value) -> Vec<Value> {
        candidates(text, &self.tags, &self.starts, &self.steps)
    }
}

/// The candidates from the counts [`Readings`] gathers.
fn candidates(
    text: &Value,
    tags: &BTreeMap<String, usize>,
    starts: &BTreeMap<i64, usize>,
    steps: &BTreeMap<i64, usize>,
) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    let push = |tc: &TimeControlDef, out: &mut Vec<Value>| {
        let v = Value::Str(tc.tag_form().into());
        if !out.contains(&v) {
            out.push(v);
        }
    };
    let text_tc = match text {
        Value::Str(s) => parse_tag_form(s),
        _ => None,
    };
    if let Some(t) = &text_tc {
        push(t, &mut out);
    }
    // the tag most games carry
    let tag_tc = tags
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .and_then(|(t, _)| parse_pgn_time_control(t));
    if let Some(t) = &tag_tc {
        push(t, &mut out);
    }
    let (Some(start), Some(step)) = (mode(starts), mode(steps)) else {
        return out;
    };
    // single-period controls only: a multi-period control's readings are
    // not one increment apart
    let single = |t: &Option<TimeControlDef>| {
        t.as_ref().filter(|t| t.periods.len() == 1).map(|t| {
            (
                t.periods[0].time_ms.round() as i64,
                t.periods[0].increment_ms.round() as i64,
            )
        })
    };
    // the increment: the tag's and the readings' own; the base: what the
    // clocks show with no credit, and the tag's (the clocks then show what
    // the first move was credited). The two run the same clocks: the
    // tags' agreement tells them apart, and where it cannot (a tag the
    // clocks contradict) both are reported as equally good.
    let mut incs: Vec<i64> = single(&tag_tc).map(|(_, i)| i).into_iter().collect();
    if !incs.contains(&step.max(0)) {
        incs.push(step.max(0));
    }
    let mut bases: Vec<Option<i64>> = vec![None];
    if let Some((b, _)) = single(&tag_tc) {
        bases.push(Some(b));
    }
    for &base in &bases {
        for &inc in &incs {
            let base = base.unwrap_or(start - inc);
            if base <= 0 {
                continue;
            }
            let credit = start - base - inc;
            let t = format!(
                "{}+{}{}",
                secs(base),
                secs(inc),
                if credit == 0 {
                    String::new()
                } else {
                    format!(" start_credit {}", secs(credit))
                }
            );
            if let Some(tc) = parse_tag_form(&t) {
                push(&tc, &mut out);
            }
        }
    }
    out
}

/// Milliseconds as seconds in the tag's form.
fn secs(ms: i64) -> String {
    if ms % 1000 == 0 {
        format!("{}", ms / 1000)
    } else {
        format!("{}", ms as f64 / 1000.0)
    }
}

//! Where each operator event falls among the game's plies, and the fields
//! derived for it (the move it names is the one played, the side to move,
//! how long a stop lasted).

use std::collections::BTreeMap;

use crate::base::value::Value;
use crate::ingest::operator::{FieldValue, OpEvent, OpKind};
use crate::replay::{Ply, Replay};

pub(super) fn field_value(v: &FieldValue) -> Value {
    match v {
        FieldValue::Num(n) => Value::Num(*n),
        FieldValue::Bool(b) => Value::Bool(*b),
        FieldValue::Str(s) => Value::Str(s.as_str().into()),
    }
}

fn str_field<'e>(e: &'e OpEvent, k: &str) -> Option<&'e str> {
    match e.fields.get(k) {
        Some(FieldValue::Str(s)) => Some(s),
        _ => None,
    }
}

/// Place each operator event after a ply, and derive its fields.
#[allow(clippy::type_complexity)]
pub(super) fn place_operator_events<'e>(
    replay: &Replay,
    ops: &'e [OpEvent],
) -> Vec<(u32, &'e OpEvent, BTreeMap<&'static str, Value>)> {
    let first = replay.first_ply.saturating_sub(1);
    let log = LogFacts::of(ops);
    let machine = &log.machine;
    let side_after = |completed: u32| {
        if completed.is_multiple_of(2) {
            "white"
        } else {
            "black"
        }
    };
    let mut completed = first;
    let mut machine_moved = false;
    let mut out = Vec::with_capacity(ops.len());
    for (i, e) in ops.iter().enumerate() {
        let mut d: BTreeMap<&'static str, Value> = BTreeMap::new();
        let given_ply = match e.fields.get("ply") {
            Some(FieldValue::Num(n)) if *n >= 0.0 => Some(*n as u32),
            _ => None,
        };
        if matches!(e.kind, OpKind::MoveEntered | OpKind::MoveExecuted) {
            let ply = given_ply.unwrap_or(completed.saturating_add(1));
            let written = str_field(e, "move").unwrap_or("");
            let correct = replay
                .ply(ply)
                .is_some_and(|p| same_move(replay, p, written));
            d.insert("correct", Value::Bool(correct));
            completed = completed.max(ply);
            d.insert("ply", Value::Num(f64::from(ply)));
            if e.kind == OpKind::MoveExecuted
                && machine.as_deref() == Some(if ply % 2 == 1 { "white" } else { "black" })
            {
                machine_moved = true;
            }
        } else if let Some(p) = given_ply {
            // The ply the event is about. A position set-up at an earlier
            // ply takes the game back there; other events stay where they
            // happened in time.
            if e.kind == OpKind::PositionSetup {
                completed = p;
            }
            d.insert("ply", Value::Num(f64::from(p)));
        } else {
            d.insert("ply", Value::Num(f64::from(completed)));
        }
        // Placed in time order: after the last move completed so far.
        let at = completed;
        let about = match d.get("ply") {
            Some(Value::Num(n)) => *n as u32,
            _ => completed,
        };
        let to_move = side_after(completed);
        d.insert("side_to_move", Value::Str(to_move.into()));
        if let Some(m) = &machine {
            d.insert("machine", Value::Str(m.as_str().into()));
            d.insert("machine_to_move", Value::Bool(m == to_move));
        }
        d.insert("machine_moved", Value::Bool(machine_moved));
        let ended = ops[..i].iter().any(|x| {
            matches!(
                x.kind,
                OpKind::GameEnd | OpKind::Resign | OpKind::DrawAccept | OpKind::Adjudication
            )
        });
        d.insert("in_game", Value::Bool(completed > first && !ended));
        kind_fields(&mut d, replay, ops, i, &log, about);
        out.push((at, e, d));
    }
    out
}

/// What the whole log says that its events' fields need: the machine's
/// side and the team (from its set-up), and when the game ended.
struct LogFacts {
    machine: Option<String>,
    team: Vec<String>,
    end_time: Option<i64>,
}

impl LogFacts {
    fn of(ops: &[OpEvent]) -> LogFacts {
        let machine: Option<String> = ops
            .iter()
            .find(|e| e.kind == OpKind::Setup)
            .and_then(|e| str_field(e, "machine_side"))
            .map(|s| s.to_ascii_lowercase());
        let team: Vec<String> = ops
            .iter()
            .find(|e| e.kind == OpKind::Setup)
            .and_then(|e| str_field(e, "team"))
            .map(|t| {
                t.split(',')
                    .map(|x| x.trim().to_lowercase())
                    .filter(|x| !x.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        let end_time = ops
            .iter()
            .rev()
            .find(|e| {
                matches!(
                    e.kind,
                    OpKind::GameEnd | OpKind::Resign | OpKind::DrawAccept | OpKind::Adjudication
                )
            })
            .or_else(|| ops.iter().rev().find(|e| e.kind == OpKind::MoveExecuted))
            .map(|e| e.time);
        LogFacts {
            machine,
            team,
            end_time,
        }
    }
}

/// The fields that event `ops[i]`'s kind alone has (how long a stop
/// lasted, who took part in a consultation, whether a set-up position is
/// the game's at ply `about`), added to `d`.
fn kind_fields(
    d: &mut BTreeMap<&'static str, Value>,
    replay: &Replay,
    ops: &[OpEvent],
    i: usize,
    log: &LogFacts,
    about: u32,
) {
    let e = &ops[i];
    let until = |kind: OpKind| {
        ops[i + 1..]
            .iter()
            .find(|x| x.kind == kind)
            .map(|x| Value::Num((x.time - e.time) as f64))
    };
    match e.kind {
        OpKind::ClockStop => {
            d.insert("duration", until(OpKind::ClockStart).unwrap_or(Value::None));
        }
        OpKind::PowerFailure => {
            d.insert(
                "duration",
                until(OpKind::PowerRestored).unwrap_or(Value::None),
            );
        }
        OpKind::ConsultationStart => {
            d.insert(
                "duration",
                until(OpKind::ConsultationEnd).unwrap_or(Value::None),
            );
            let outsiders: Vec<String> = str_field(e, "participants")
                .unwrap_or("")
                .split(',')
                .map(str::trim)
                .filter(|p| {
                    !p.is_empty()
                        && !log.team.contains(&p.to_lowercase())
                        && p.to_lowercase() != e.operator.to_lowercase()
                })
                .map(str::to_string)
                .collect();
            d.insert("outsiders", Value::Str(outsiders.join(", ").into()));
        }
        OpKind::ClockSet => {
            if let (Some(FieldValue::Num(o)), Some(FieldValue::Num(n))) =
                (e.fields.get("old"), e.fields.get("new"))
            {
                d.insert("delta", Value::Num(n - o));
            }
        }
        OpKind::Handover => {
            d.insert(
                "after_end",
                log.end_time
                    .map_or(Value::None, |t| Value::Num((e.time - t) as f64)),
            );
        }
        OpKind::PositionSetup => {
            let fen_at = if about < replay.first_ply {
                Some(crate::replay::fen_of(&replay.start))
            } else {
                replay
                    .plies
                    .get((about - replay.first_ply) as usize)
                    .map(|p| replay.fen_after(p))
            };
            let given = str_field(e, "fen").unwrap_or("");
            d.insert(
                "correct",
                Value::Bool(fen_at.is_some_and(|f| same_position(&f, given))),
            );
        }
        _ => {}
    }
}

/// Whether `written` (SAN, in any legal spelling, or UCI) is the move
/// played at this ply: it is read in the position before the move.
fn same_move(replay: &Replay, p: &Ply, written: &str) -> bool {
    let w = written.trim();
    if p.uci_text().eq_ignore_ascii_case(w) {
        return true;
    }
    let before = match p.ply.checked_sub(replay.first_ply) {
        Some(i) => replay.position_before(i as usize),
        None => return false,
    };
    match shakmaty::san::SanPlus::from_ascii(w.as_bytes()) {
        Ok(sp) => sp
            .san
            .to_move(&before)
            .is_ok_and(|m| m.to_uci(replay.castling_mode) == p.uci),
        Err(_) => false,
    }
}

/// Same placement, side to move, castling and en passant (clocks ignored).
fn same_position(a: &str, b: &str) -> bool {
    let key = |f: &str| f.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
    key(a) == key(b)
}

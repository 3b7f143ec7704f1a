//! The operator log: what the people at the machine did, one timestamped
//! event per line (see `docs/operator-log.md`), or the same events as JSON
//! Lines. Every event keeps its source span; a malformed line is an error
//! naming the file, line and what was expected, and the rest of the log is
//! still read.

use std::collections::BTreeMap;

use serde_json::Value as Json;

use crate::base::span::Span;
use crate::base::time::parse_timestamp;
use crate::base::value::Type;

/// The kinds of operator event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OpKind {
    Setup,
    MoveEntered,
    MoveExecuted,
    ClockSet,
    ClockStop,
    ClockStart,
    ParameterChange,
    Restart,
    PositionSetup,
    EngineQuery,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    Resign,
    HardwareChange,
    ConsultationStart,
    ConsultationEnd,
    Approval,
    PowerFailure,
    PowerRestored,
    Handover,
    OperatorChange,
    ErrorReport,
    Adjudication,
    GameEnd,
}

/// Fields every operator event has (derived by the timeline where noted).
pub const COMMON_FIELDS: &[(&str, Type, &str)] = &[
    ("time", Type::Num, "when, ms since 1970-01-01 UTC"),
    ("at", Type::Str, "the timestamp as written"),
    ("operator", Type::Str, "who did it"),
    (
        "role",
        Type::Str,
        "operator (default), arbiter, technician, team or player",
    ),
    (
        "ply",
        Type::Num,
        "plies completed when it happened (derived)",
    ),
    ("side_to_move", Type::Str, "white or black (derived)"),
    (
        "machine",
        Type::Str,
        "the machine's side, from the setup event (derived)",
    ),
    (
        "machine_to_move",
        Type::Bool,
        "the machine is on move (derived)",
    ),
    (
        "machine_moved",
        Type::Bool,
        "the machine has made a move in this game (derived)",
    ),
    (
        "in_game",
        Type::Bool,
        "a move has been made and the game has not ended (no game-end, resign, draw-accept or adjudication before it) (derived)",
    ),
    ("approved_by", Type::Str, "who approved it"),
    ("reason", Type::Str, "why, as written"),
    ("note", Type::Str, "free text"),
];

/// `(kind, name in the log, its own fields)`.
/// A field: `(name, type, meaning)`.
pub type FieldDoc = (&'static str, Type, &'static str);

pub const OP_KINDS: &[(OpKind, &str, &[FieldDoc])] = &[
    (
        OpKind::Setup,
        "setup",
        &[
            (
                "machine_side",
                Type::Str,
                "white or black: the side the machine plays",
            ),
            (
                "team",
                Type::Str,
                "the machine team named for this game, comma separated",
            ),
            (
                "configuration",
                Type::Str,
                "the configuration document handed to the arbiter",
            ),
            (
                "round",
                Type::Str,
                "the game's Round tag, to match the log to its game",
            ),
        ],
    ),
    (
        OpKind::MoveEntered,
        "move-entered",
        &[
            ("side", Type::Str, "whose move was typed in"),
            ("move", Type::Str, "the move as typed"),
            (
                "correct",
                Type::Bool,
                "it is the move of the game record at that ply (derived)",
            ),
        ],
    ),
    (
        OpKind::MoveExecuted,
        "move-executed",
        &[
            ("side", Type::Str, "whose move was made on the board"),
            ("move", Type::Str, "the move as made"),
            (
                "correct",
                Type::Bool,
                "it is the move of the game record at that ply (derived)",
            ),
            (
                "clock_pressed",
                Type::Bool,
                "the clock was pressed after it",
            ),
        ],
    ),
    (
        OpKind::ClockSet,
        "clock-set",
        &[
            ("side", Type::Str, "white or black"),
            (
                "clock",
                Type::Str,
                "game (the chess clock) or machine (the program's internal clock)",
            ),
            ("old", Type::Num, "value before, ms"),
            ("new", Type::Num, "value after, ms"),
            ("delta", Type::Num, "new − old, ms (derived)"),
            ("kind", Type::Str, "sync, correction or set"),
            (
                "requested_by",
                Type::Str,
                "who asked for it (e.g. engine, when the program asked for the clock)",
            ),
        ],
    ),
    (
        OpKind::ClockStop,
        "clock-stop",
        &[
            ("side", Type::Str, "white, black or both"),
            ("requested_by", Type::Str, "who asked for the stop"),
            (
                "duration",
                Type::Num,
                "ms until the next clock-start (derived; none if never restarted)",
            ),
        ],
    ),
    (
        OpKind::ClockStart,
        "clock-start",
        &[("side", Type::Str, "white, black or both")],
    ),
    (
        OpKind::ParameterChange,
        "parameter-change",
        &[
            ("name", Type::Str, "the parameter"),
            ("old", Type::Any, "value before"),
            ("new", Type::Any, "value after"),
            (
                "requested_by",
                Type::Str,
                "who asked for it (e.g. engine, when the program asked)",
            ),
        ],
    ),
    (
        OpKind::Restart,
        "restart",
        &[("what", Type::Str, "program, machine or recovery")],
    ),
    (
        OpKind::PositionSetup,
        "position-setup",
        &[
            ("fen", Type::Str, "the position set up"),
            (
                "correct",
                Type::Bool,
                "it is the game's position at that ply (derived)",
            ),
        ],
    ),
    (
        OpKind::EngineQuery,
        "engine-query",
        &[("what", Type::Str, "alive, interrogation, …")],
    ),
    (
        OpKind::DrawOffer,
        "draw-offer",
        &[
            ("by", Type::Str, "white or black"),
            ("eval", Type::Num, "the machine's evaluation shown, pawns"),
        ],
    ),
    (
        OpKind::DrawAccept,
        "draw-accept",
        &[("by", Type::Str, "white or black")],
    ),
    (
        OpKind::DrawDecline,
        "draw-decline",
        &[("by", Type::Str, "white or black")],
    ),
    (
        OpKind::Resign,
        "resign",
        &[("side", Type::Str, "white or black")],
    ),
    (
        OpKind::HardwareChange,
        "hardware-change",
        &[("what", Type::Str, "what changed")],
    ),
    (
        OpKind::ConsultationStart,
        "consultation-start",
        &[
            ("participants", Type::Str, "who took part, comma separated"),
            ("topic", Type::Str, "what about (draw-offer, technical, …)"),
            (
                "outsiders",
                Type::Str,
                "participants not on the setup team list (derived)",
            ),
            (
                "duration",
                Type::Num,
                "ms until the next consultation-end (derived)",
            ),
        ],
    ),
    (OpKind::ConsultationEnd, "consultation-end", &[]),
    (
        OpKind::Approval,
        "approval",
        &[
            ("by", Type::Str, "arbiter or tournament director"),
            ("subject", Type::Str, "what was approved"),
        ],
    ),
    (
        OpKind::PowerFailure,
        "power-failure",
        &[("duration", Type::Num, "ms until power-restored (derived)")],
    ),
    (OpKind::PowerRestored, "power-restored", &[]),
    (
        OpKind::Handover,
        "handover",
        &[
            (
                "item",
                Type::Str,
                "log, program, printout, configuration, team-list, …",
            ),
            ("copies", Type::Num, "how many copies"),
            ("to", Type::Str, "to whom"),
            (
                "after_end",
                Type::Num,
                "ms after the end of the game (derived)",
            ),
        ],
    ),
    (
        OpKind::OperatorChange,
        "operator-change",
        &[
            ("from", Type::Str, "the operator before"),
            ("to", Type::Str, "the operator after"),
        ],
    ),
    (
        OpKind::ErrorReport,
        "error-report",
        &[("what", Type::Str, "the error reported to the arbiter")],
    ),
    (
        OpKind::Adjudication,
        "adjudication",
        &[
            ("result", Type::Str, "1-0, 0-1 or 1/2-1/2"),
            ("by", Type::Str, "who adjudicated"),
        ],
    ),
    (
        OpKind::GameEnd,
        "game-end",
        &[("result", Type::Str, "1-0, 0-1 or 1/2-1/2")],
    ),
];

impl OpKind {
    /// The name in the log (`clock-stop`).
    pub fn log_name(self) -> &'static str {
        OP_KINDS
            .iter()
            .find(|(k, ..)| *k == self)
            .map_or("?", |(_, n, _)| n)
    }

    /// The name in the rule language (`clock_stop`).
    pub fn rule_name(self) -> &'static str {
        RULE_NAMES
            .iter()
            .find(|(k, _)| *k == self)
            .map_or("?", |(_, n)| n)
    }

    pub fn from_log_name(s: &str) -> Option<OpKind> {
        let s = s.replace('_', "-");
        OP_KINDS.iter().find(|(_, n, _)| *n == s).map(|(k, ..)| *k)
    }

    pub fn fields(self) -> &'static [(&'static str, Type, &'static str)] {
        OP_KINDS
            .iter()
            .find(|(k, ..)| *k == self)
            .map_or(&[], |(_, _, f)| f)
    }

    pub fn all() -> impl Iterator<Item = OpKind> {
        OP_KINDS.iter().map(|(k, ..)| *k)
    }
}

const RULE_NAMES: &[(OpKind, &str)] = &[
    (OpKind::Setup, "setup"),
    (OpKind::MoveEntered, "move_entered"),
    (OpKind::MoveExecuted, "move_executed"),
    (OpKind::ClockSet, "clock_set"),
    (OpKind::ClockStop, "clock_stop"),
    (OpKind::ClockStart, "clock_start"),
    (OpKind::ParameterChange, "parameter_change"),
    (OpKind::Restart, "restart"),
    (OpKind::PositionSetup, "position_setup"),
    (OpKind::EngineQuery, "engine_query"),
    (OpKind::DrawOffer, "draw_offer"),
    (OpKind::DrawAccept, "draw_accept"),
    (OpKind::DrawDecline, "draw_decline"),
    (OpKind::Resign, "resign"),
    (OpKind::HardwareChange, "hardware_change"),
    (OpKind::ConsultationStart, "consultation_start"),
    (OpKind::ConsultationEnd, "consultation_end"),
    (OpKind::Approval, "approval"),
    (OpKind::PowerFailure, "power_failure"),
    (OpKind::PowerRestored, "power_restored"),
    (OpKind::Handover, "handover"),
    (OpKind::OperatorChange, "operator_change"),
    (OpKind::ErrorReport, "error_report"),
    (OpKind::Adjudication, "adjudication"),
    (OpKind::GameEnd, "game_end"),
];

/// A field value as written in the log, typed.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldValue {
    Num(f64),
    Bool(bool),
    Str(String),
}

/// One operator event.
#[derive(Debug, Clone)]
pub struct OpEvent {
    pub kind: OpKind,
    /// ms since 1970-01-01 UTC.
    pub time: i64,
    /// The timestamp as written.
    pub at: String,
    pub operator: String,
    pub fields: BTreeMap<String, FieldValue>,
    pub span: Span,
    /// The file it came from (set by whoever read the file).
    pub source: String,
}

/// A line that could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct OpError {
    pub span: Span,
    pub message: String,
}

/// A parsed operator log.
#[derive(Debug, Clone, Default)]
pub struct OperatorLog {
    pub events: Vec<OpEvent>,
    pub errors: Vec<OpError>,
}

/// Type a value as written: number, boolean, clock (`1:59:30` → ms) or text.
pub fn type_value(s: &str) -> FieldValue {
    if let Ok(n) = s.parse::<f64>()
        && n.is_finite()
    {
        return FieldValue::Num(n);
    }
    match s {
        "true" => return FieldValue::Bool(true),
        "false" => return FieldValue::Bool(false),
        _ => {}
    }
    if s.contains(':')
        && s.bytes()
            .all(|b| b.is_ascii_digit() || b == b':' || b == b'.' || b == b'-')
        && let Some(ms) = super::annotations::parse_clock(s)
    {
        return FieldValue::Num(ms as f64);
    }
    FieldValue::Str(s.to_string())
}

/// Parse an operator log, in the line form or (when every non-blank line
/// starts with `{`) JSON Lines.
pub fn parse(text: &str) -> OperatorLog {
    let mut log = OperatorLog::default();
    for (span, line) in crate::base::span::lines_with_spans(text) {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let r = if t.starts_with('{') {
            parse_json(t, span)
        } else {
            parse_line(t, span)
        };
        match r {
            Ok(e) => log.events.push(e),
            Err(message) => log.errors.push(OpError { span, message }),
        }
    }
    log
}

fn kind_of(name: &str) -> Result<OpKind, String> {
    OpKind::from_log_name(name).ok_or_else(|| {
        let names: Vec<&str> = OP_KINDS.iter().map(|(_, n, _)| *n).collect();
        let hint = crate::base::suggest::suggest(name, names.iter().copied())
            .unwrap_or_else(|| format!("the events are {}", names.join(", ")));
        format!("unknown event {name:?}: {hint}")
    })
}

fn parse_line(t: &str, span: Span) -> Result<OpEvent, String> {
    let mut parts = t.splitn(3, char::is_whitespace);
    let at = parts.next().unwrap_or("");
    let operator = parts
        .next()
        .ok_or("expected `<timestamp> <operator> <event> [key=value …]`")?;
    let rest = parts.next().unwrap_or("").trim_start();
    let (kind_name, mut args) = match rest.split_once(char::is_whitespace) {
        Some((k, a)) => (k, a),
        None => (rest, ""),
    };
    if kind_name.is_empty() {
        return Err("expected an event name after the operator".into());
    }
    let time = parse_timestamp(at)?;
    let kind = kind_of(kind_name)?;
    let mut fields = BTreeMap::new();
    loop {
        args = args.trim_start();
        if args.is_empty() {
            break;
        }
        let eq = args.find('=').ok_or_else(|| {
            format!(
                "expected key=value, found {:?}",
                args.split_whitespace().next().unwrap_or("")
            )
        })?;
        let key = &args[..eq];
        if key.is_empty()
            || !key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            return Err(format!("expected a field name before `=`, found {key:?}"));
        }
        args = &args[eq + 1..];
        let value: String;
        if let Some(q) = args.strip_prefix('"') {
            let mut out = String::new();
            let mut chars = q.char_indices();
            let mut end = None;
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => match chars.next() {
                        Some((_, e)) => out.push(e),
                        None => break,
                    },
                    '"' => {
                        end = Some(i);
                        break;
                    }
                    c => out.push(c),
                }
            }
            let end = end.ok_or_else(|| format!("unterminated quoted value for {key}"))?;
            value = out;
            args = &q[end + 1..];
            let fv = FieldValue::Str(value);
            fields.insert(key.replace('-', "_"), fv);
            continue;
        }
        let end = args.find(char::is_whitespace).unwrap_or(args.len());
        value = args[..end].to_string();
        args = &args[end..];
        fields.insert(key.replace('-', "_"), type_value(&value));
    }
    check_fields(kind, &fields)?;
    Ok(OpEvent {
        kind,
        time,
        at: at.to_string(),
        operator: operator.to_string(),
        fields,
        span,
        source: String::new(),
    })
}

fn parse_json(t: &str, span: Span) -> Result<OpEvent, String> {
    let v: Json = serde_json::from_str(t).map_err(|e| format!("invalid JSON: {e}"))?;
    let obj = v.as_object().ok_or("expected a JSON object")?;
    let get = |k: &str| {
        obj.get(k)
            .and_then(Json::as_str)
            .ok_or_else(|| format!("expected a string field {k:?}"))
    };
    let at = get("time")?;
    let time = parse_timestamp(at)?;
    let operator = get("operator")?;
    let kind = kind_of(get("event")?)?;
    let mut fields = BTreeMap::new();
    for (k, v) in obj {
        if matches!(k.as_str(), "time" | "operator" | "event") {
            continue;
        }
        let fv = match v {
            Json::Number(n) => FieldValue::Num(n.as_f64().ok_or("number out of range")?),
            Json::Bool(b) => FieldValue::Bool(*b),
            Json::String(s) => type_value(s),
            other => {
                return Err(format!(
                    "field {k:?}: expected a string, number or boolean, found {other}"
                ));
            }
        };
        fields.insert(k.replace('-', "_"), fv);
    }
    check_fields(kind, &fields)?;
    Ok(OpEvent {
        kind,
        time,
        at: at.to_string(),
        operator: operator.to_string(),
        fields,
        span,
        source: String::new(),
    })
}

/// Reject fields the event kind does not have, so that a typo is not
/// silently ignored.
fn check_fields(kind: OpKind, fields: &BTreeMap<String, FieldValue>) -> Result<(), String> {
    for k in fields.keys() {
        let known = COMMON_FIELDS.iter().any(|(n, ..)| n == k)
            || kind.fields().iter().any(|(n, ..)| n == k);
        let derived = matches!(
            k.as_str(),
            "machine_to_move"
                | "machine_moved"
                | "in_game"
                | "side_to_move"
                | "delta"
                | "duration"
                | "after_end"
                | "outsiders"
                | "correct"
                | "machine"
                | "time"
                | "at"
        );
        if !known || (derived && k != "ply") {
            let mut names: Vec<&str> = COMMON_FIELDS.iter().map(|(n, ..)| *n).collect();
            names.extend(kind.fields().iter().map(|(n, ..)| *n));
            let hint = crate::base::suggest::suggest(k, names.iter().copied())
                .map(|h| format!(" ({h})"))
                .unwrap_or_default();
            return Err(if derived && known {
                format!("field {k:?} is derived by arbiter and cannot be given")
            } else {
                format!("event {} has no field {k:?}{hint}", kind.log_name())
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_json() {
        let log = parse(
            "# comment\n2003-01-26T20:00:00Z levy setup machine_side=black team=\"Bushinsky, Ban\"\n\
             2003-01-26T20:30:00Z levy clock-stop side=black reason=\"technical problem\"\n\
             {\"time\":\"2003-01-26T20:40:00Z\",\"operator\":\"levy\",\"event\":\"clock-start\",\"side\":\"black\"}\n\
             2003-01-26T20:41:00Z levy clock-set side=black clock=machine old=1:10:00 new=1:08:00\n",
        );
        assert!(log.errors.is_empty(), "{:?}", log.errors);
        assert_eq!(log.events.len(), 4);
        assert_eq!(
            log.events[0].fields["team"],
            FieldValue::Str("Bushinsky, Ban".into())
        );
        assert_eq!(log.events[1].kind, OpKind::ClockStop);
        assert_eq!(log.events[1].span.line, 3);
        assert_eq!(log.events[2].kind, OpKind::ClockStart);
        assert_eq!(log.events[3].fields["old"], FieldValue::Num(4_200_000.0));
    }

    #[test]
    fn errors_name_the_line_and_what_was_expected() {
        let log = parse(
            "2003-01-26T20:00:00Z levy clock-stp side=black\n2003-01-26 levy setup\n2003-01-26T20:00:00Z levy setup colour=black\n2003-01-26T20:00:00Z levy resign side=white\n",
        );
        assert_eq!(log.events.len(), 1);
        assert_eq!(log.errors.len(), 3);
        assert_eq!(log.errors[0].span.line, 1);
        assert!(
            log.errors[0].message.contains("did you mean `clock-stop`"),
            "{}",
            log.errors[0].message
        );
        assert!(log.errors[1].message.contains("expected a timestamp"));
        assert!(log.errors[2].message.contains("no field \"colour\""));
    }
}

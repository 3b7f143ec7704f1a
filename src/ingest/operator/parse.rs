//! An operator log read line by line, in the line form or as JSON Lines:
//! each event's kind and fields checked against the vocabulary, each value
//! typed.

use std::collections::BTreeMap;

use serde_json::Value as Json;

use super::event::{FieldValue, OpError, OpEvent, OperatorLog};
use super::kinds::{COMMON_FIELDS, OP_KINDS, OpKind};
use crate::base::span::Span;
use crate::base::time::parse_timestamp;

/// Why a line of an operator log could not be read: what was expected,
/// with the text found.
#[derive(Debug, thiserror::Error)]
pub enum OpLineError {
    /// Fewer than a timestamp, an operator and an event.
    #[error("expected `<timestamp> <operator> <event> [key=value …]`")]
    Shape,
    /// A line over the cap a log line may have.
    #[error(
        "a line of {len} bytes, over the {cap} a log line may have: expected `<timestamp> <operator> <event> [key=value …]`; the line was skipped"
    )]
    TooLong { len: usize, cap: usize },
    #[error("expected an event name after the operator")]
    NoEvent,
    #[error(transparent)]
    Timestamp(#[from] crate::base::time::TimestampError),
    /// An event the vocabulary does not have; `hint` says what it may be.
    #[error("unknown event {name:?}: {hint}")]
    UnknownEvent { name: String, hint: String },
    #[error("expected key=value, found {found:?}")]
    KeyValue { found: String },
    #[error("expected a field name before `=`, found {found:?}")]
    FieldName { found: String },
    #[error("unterminated quoted value for {key}")]
    Unterminated { key: String },
    #[error("invalid JSON: {0}")]
    Json(#[source] serde_json::Error),
    #[error("expected a JSON object")]
    NotObject,
    #[error("expected a string field {key:?}")]
    StringField { key: String },
    #[error("number out of range")]
    NumberRange,
    /// A JSON field whose value is an array, an object or null.
    #[error("field {key:?}: expected a string, number or boolean, found {found}")]
    FieldType { key: String, found: Json },
    /// A field arbiter derives itself.
    #[error("field {field:?} is derived by arbiter and cannot be given")]
    Derived { field: String },
    /// A field the event does not have; `hint` is ` (did you mean …)` or empty.
    #[error("event {event} has no field {field:?}{hint}")]
    NoField {
        event: &'static str,
        field: String,
        hint: String,
    },
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
        && let Some(ms) = crate::ingest::comments::parse_clock(s)
    {
        return FieldValue::Num(ms as f64);
    }
    FieldValue::Str(s.to_string())
}

/// Parse an operator log, in the line form or (when every non-blank line
/// starts with `{`) JSON Lines.
pub fn parse(text: &str) -> OperatorLog {
    parse_capped(text, usize::MAX)
}

/// [`parse`], a line longer than `cap` bytes (its line ending not counted)
/// an error at its line, not read.
pub fn parse_capped(text: &str, cap: usize) -> OperatorLog {
    let mut log = OperatorLog::default();
    for (span, line) in crate::base::span::lines_with_spans(text) {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let r = if line.len() > cap {
            Err(OpLineError::TooLong {
                len: line.len(),
                cap,
            })
        } else if t.starts_with('{') {
            parse_json(t, span)
        } else {
            parse_line(t, span)
        };
        match r {
            Ok(e) => log.events.push(e),
            Err(e) => log.errors.push(OpError {
                span,
                message: e.to_string(),
            }),
        }
    }
    log
}

fn kind_of(name: &str) -> Result<OpKind, OpLineError> {
    OpKind::from_log_name(name).ok_or_else(|| {
        let names: Vec<&str> = OP_KINDS.iter().map(|(_, n, _)| *n).collect();
        let hint = crate::base::suggest::suggest(name, names.iter().copied())
            .unwrap_or_else(|| format!("the events are {}", names.join(", ")));
        OpLineError::UnknownEvent {
            name: name.to_string(),
            hint,
        }
    })
}

fn parse_line(t: &str, span: Span) -> Result<OpEvent, OpLineError> {
    let mut parts = t.splitn(3, char::is_whitespace);
    let at = parts.next().unwrap_or("");
    let operator = parts.next().ok_or(OpLineError::Shape)?;
    let rest = parts.next().unwrap_or("").trim_start();
    let (kind_name, mut args) = match rest.split_once(char::is_whitespace) {
        Some((k, a)) => (k, a),
        None => (rest, ""),
    };
    if kind_name.is_empty() {
        return Err(OpLineError::NoEvent);
    }
    let time = parse_timestamp(at)?;
    let kind = kind_of(kind_name)?;
    let mut fields = BTreeMap::new();
    loop {
        args = args.trim_start();
        if args.is_empty() {
            break;
        }
        let eq = args.find('=').ok_or_else(|| OpLineError::KeyValue {
            found: args.split_whitespace().next().unwrap_or("").to_string(),
        })?;
        let key = &args[..eq];
        if key.is_empty()
            || !key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            return Err(OpLineError::FieldName {
                found: key.to_string(),
            });
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
            let end = end.ok_or_else(|| OpLineError::Unterminated {
                key: key.to_string(),
            })?;
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
    event(kind, (time, at), operator, fields, span)
}

/// The event of a line read, its fields checked against its kind's; `at`
/// is its time as written.
fn event(
    kind: OpKind,
    (time, at): (i64, &str),
    operator: &str,
    fields: BTreeMap<String, FieldValue>,
    span: Span,
) -> Result<OpEvent, OpLineError> {
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

fn parse_json(t: &str, span: Span) -> Result<OpEvent, OpLineError> {
    let v: Json = serde_json::from_str(t).map_err(OpLineError::Json)?;
    let obj = v.as_object().ok_or(OpLineError::NotObject)?;
    let get = |k: &str| {
        obj.get(k)
            .and_then(Json::as_str)
            .ok_or_else(|| OpLineError::StringField { key: k.to_string() })
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
            Json::Number(n) => FieldValue::Num(n.as_f64().ok_or(OpLineError::NumberRange)?),
            Json::Bool(b) => FieldValue::Bool(*b),
            Json::String(s) => type_value(s),
            other => {
                return Err(OpLineError::FieldType {
                    key: k.clone(),
                    found: other.clone(),
                });
            }
        };
        fields.insert(k.replace('-', "_"), fv);
    }
    event(kind, (time, at), operator, fields, span)
}

/// Reject fields the event kind does not have, so that a typo is not
/// silently ignored.
fn check_fields(kind: OpKind, fields: &BTreeMap<String, FieldValue>) -> Result<(), OpLineError> {
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
                OpLineError::Derived { field: k.clone() }
            } else {
                OpLineError::NoField {
                    event: kind.log_name(),
                    field: k.clone(),
                    hint,
                }
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

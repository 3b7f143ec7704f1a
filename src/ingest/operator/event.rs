//! One operator event as read from the log, its field values typed, and
//! the log read: its events and the lines that could not be read.

use std::collections::BTreeMap;

use super::kinds::OpKind;
use crate::base::span::Span;

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

//! The operator log: what the people at the machine did, one timestamped
//! event per line (see `docs/operator-log.md`), or the same events as JSON
//! Lines. Every event keeps its source span; a malformed line is an error
//! naming the file, line and what was expected, and the rest of the log is
//! still read.

mod event;
mod kinds;
mod parse;

pub use self::event::{FieldValue, OpError, OpEvent, OperatorLog};
pub use self::kinds::{COMMON_FIELDS, FieldDoc, OP_KINDS, OpKind};
pub use self::parse::{OpLineError, parse, parse_capped, type_value};

//! Shared basics that every stage uses and that know nothing of chess
//! records: source spans, the values a rule sees and their types, shared
//! texts, SHA-256 digests, inputs decoded as they are read (gzip, zstd,
//! standard input), timestamps, "did you mean", files read only if
//! regular and written whole or not at all, and what a signal must not
//! leave behind.

pub mod cleanup;
pub mod decode;
pub mod diagnostic;
pub mod digest;
pub mod files;
pub mod interner;
pub mod notice;
pub mod span;
pub mod suggest;
pub mod time;
pub mod value;

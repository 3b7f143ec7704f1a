//! Shared basics that every stage uses and that know nothing of chess
//! records: source spans, the values a rule sees and their types, shared
//! texts, SHA-256 digests, timestamps, "did you mean", and files read
//! only if regular and written whole or not at all, and what a signal must
//! not leave behind.

pub mod cleanup;
pub mod diagnostic;
pub mod digest;
pub mod files;
pub mod interner;
pub mod span;
pub mod suggest;
pub mod time;
pub mod value;

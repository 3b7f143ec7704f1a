//! Shared basics that every stage uses and that know nothing of chess
//! records: source spans, the values a rule sees and their types, shared
//! texts, SHA-256 digests, timestamps and "did you mean".

pub mod diagnostic;
pub mod digest;
pub mod interner;
pub mod span;
pub mod suggest;
pub mod time;
pub mod value;

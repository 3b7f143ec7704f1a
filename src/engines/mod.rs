//! What runs real engines: recording a game's engine log (`record`) and the
//! active similarity test (`similarity`). The audit never imports this
//! stage: it judges what was recorded.

pub mod engine;
mod error;
pub mod process;
pub mod record;
pub mod reference;
pub mod similarity;
pub mod transcript;

pub use error::{EngineError, RecordError, SimilarityError};

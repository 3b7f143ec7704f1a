//! What runs real engines: recording a game's engine log (`record`) and the
//! active similarity test (`similarity`). The audit never imports this
//! stage: it judges what was recorded.

mod error;
pub mod record;
pub mod similarity;

pub use error::{EngineError, RecordError, SimilarityError};

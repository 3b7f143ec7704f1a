//! What each subcommand does, as a library function over a validated
//! configuration: the command line (`crate::cli`) only parses flags into
//! these configurations and calls them, so a program can do all that the
//! command line can. Each returns the exit status: [`CLEAN`],
//! [`VIOLATIONS`] or [`FAILURE`].

pub mod audit;
pub mod batch;
pub mod chart;
pub mod fit;
pub mod hidden_book;
pub mod record;
pub mod replay;
pub mod rules;
pub mod similarity;
pub mod verify;
mod error;

pub use error::{
    BatchRunError, ChartRunError, ConfigureError, HiddenBookError, RecordRunError, RulesFileError,
    RulesFitError, ShardError, SimilarityRunError, TablesError, VerifyError,
};

/// Exit status: nothing found.
pub const CLEAN: i32 = 0;
/// Exit status: violations found (any `error` or `warning` finding).
pub const VIOLATIONS: i32 = 1;
/// Exit status: arbiter could not run (an unreadable input, bad arguments,
/// an internal error).
pub const FAILURE: i32 = 2;

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
pub mod merge;
pub mod record;
pub mod replay;
pub mod rules;
pub mod similarity;
pub mod verify;
mod error;

pub use error::{
    AuditRunError, BatchRunError, ChartRunError, ConfigureError, HiddenBookError, MergeRunError,
    RecordRunError, ReplayRunError, RulesFileError, RulesFitError, ShardError, SimilarityRunError,
    TablesError, VerifyError,
};

/// Exit status: nothing found.
pub const CLEAN: i32 = 0;
/// Exit status: violations found (any `error` or `warning` finding).
pub const VIOLATIONS: i32 = 1;
/// Exit status: arbiter could not run (an unreadable input, bad arguments,
/// an internal error).
pub const FAILURE: i32 = 2;

/// What is said when a run read no game at all (`inputs` are the files
/// read, from the command line's `paths`); `None` when it read one. No
/// game read is never "no violations": nothing was judged, and the run
/// exits [`FAILURE`] (an empty folder, an empty file, a folder with no PGN
/// file, a mistyped glob).
pub fn nothing_to_audit(
    paths: &[std::path::PathBuf],
    inputs: &[crate::pipeline::InputSummary],
) -> Option<String> {
    if inputs.iter().any(|i| i.games > 0) {
        return None;
    }
    let list = |names: Vec<String>| {
        let more = names.len().saturating_sub(3);
        let mut s = names.into_iter().take(3).collect::<Vec<_>>().join(", ");
        if more > 0 {
            s.push_str(&format!(" and {more} more"));
        }
        s
    };
    Some(if inputs.is_empty() {
        let given = list(
            paths
                .iter()
                .map(|p| crate::base::decode::shown(p))
                .collect(),
        );
        format!(
            "nothing to audit: no PGN file read from {given} (a folder is searched for .pgn, .pgn.gz and .pgn.zst files and case folders)"
        )
    } else {
        let read = list(inputs.iter().map(|i| i.path.clone()).collect());
        format!("nothing to audit: no game in {read}")
    })
}

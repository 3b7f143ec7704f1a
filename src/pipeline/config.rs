//! What an audit runs with: the ruleset, its detectors, the logs, and how
//! the run was asked for (so that `arbiter verify` can run it again).

use std::path::Path;

use crate::ingest::logs::LoadedLog;
use crate::rules::analysis::Ruleset;
use crate::rules::eval::Detectors;

/// What an audit runs besides the built-in checks.
#[derive(Debug, Default, Clone)]
pub struct Config {
    pub ruleset: Option<std::sync::Arc<Ruleset>>,
    pub variant: Option<String>,
    pub detectors: std::sync::Arc<Detectors>,
    /// Keep every `let` value per move (for `replay --rules`).
    pub trace: bool,
    /// Operator logs, each matched to a game by its `setup round=`.
    pub operator_logs: Vec<LoadedLog>,
    /// Engine logs, each matched to a game by its `# round:` line.
    pub engine_logs: Vec<crate::ingest::logs::LoadedEngineLog>,
    /// Keep each game's reconstructed clocks (for the clock chart).
    pub clocks: bool,
    /// How the audit was asked for, as given, so that `arbiter verify` can
    /// run it again.
    pub invocation: Option<Invocation>,
    /// With `--fit`: each file's fitted values, by its path as shown, and
    /// the finding that names their departures from the text.
    pub fitted: std::collections::BTreeMap<String, crate::rules::fit::FileFit>,
}

/// The inputs and options of an audit, paths as given on the command line
/// (relative to the directory it ran in).
#[derive(Debug, Default, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Invocation {
    pub paths: Vec<String>,
    pub rules: Option<String>,
    pub variant: Option<String>,
    pub syzygy: Option<String>,
    pub similarity: Option<String>,
    pub operator_logs: Vec<String>,
    pub engine_logs: Vec<String>,
    /// Set when the report is `arbiter batch`'s, not `audit`'s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<BatchInvocation>,
    /// `--fit`: each file judged under its fitted values.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fit: bool,
}

/// What `arbiter batch` adds to an invocation. The thread count is not
/// recorded: the output does not depend on it.
#[derive(Debug, Default, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BatchInvocation {
    /// `--shard K/N`, as given.
    pub shard: Option<String>,
}

/// The threads a run uses where it is not told: the machine's cores.
pub fn machine_threads() -> usize {
    std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get)
}

/// Run `work` on a pool of its own of `threads` threads (at least one), so
/// that what it does in parallel keeps to the number the user gave
/// (`batch --threads`), not the machine's cores.
pub fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> Result<T, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| format!("could not start {threads} threads: {e}"))?;
    Ok(pool.install(work))
}

impl Config {
    /// Load a ruleset file; the error is rendered with file, line and caret.
    pub fn load_ruleset(path: &Path) -> Result<Ruleset, String> {
        let shown = path.display().to_string();
        let src = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
        crate::rules::compile(&shown, &src).map_err(|e| e.render(&shown, &src))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What runs in parallel keeps to the threads it is given: a pool of
    /// one thread is one thread, and of three is three.
    #[test]
    fn work_keeps_to_the_threads_given() {
        assert_eq!(on_threads(1, rayon::current_num_threads), Ok(1));
        assert_eq!(on_threads(3, rayon::current_num_threads), Ok(3));
        assert_eq!(on_threads(0, rayon::current_num_threads), Ok(1));
    }
}

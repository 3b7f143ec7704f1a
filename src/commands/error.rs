//! Why a subcommand could not run: each error says what went wrong with
//! the flag, file or value, and wraps the error of the stage it came
//! from; its message is the one the command line prints.

use std::io;

use crate::engines::{RecordError, SimilarityError};
use crate::pipeline::ConfigError;
use crate::pipeline::fit::FitFilesError;
use crate::pipeline::run::NthGameError;
use crate::report::{ChartError, ReportError};
use crate::rules::eval::UnknownVariant;
use crate::rules::syntax::error::RuleError;

/// Why the configuration of an audit, a batch or a rerun could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ConfigureError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// `--fit` without a ruleset to fit.
    #[error(transparent)]
    Fit(#[from] FitFilesError),
}

/// `--shard` not `K/N` with 1 ≤ K ≤ N (`text` as given).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--shard takes K/N with 1 <= K <= N, not {text:?}")]
pub struct ShardError {
    pub text: String,
}

/// The batch's tables and summary: polars' errors, or (in a build
/// without the `tables` feature) that there are none.
#[cfg(feature = "tables")]
pub type TablesError = crate::report::batch::TableError;

/// The batch's tables and summary: polars' errors, or (in a build
/// without the `tables` feature) that there are none.
#[cfg(not(feature = "tables"))]
#[derive(Debug, thiserror::Error)]
#[error("this build of arbiter has no tables (built without the `tables` feature)")]
pub struct TablesError;

/// Why `arbiter batch` stopped.
#[derive(Debug, thiserror::Error)]
pub enum BatchRunError {
    #[error(transparent)]
    Configure(#[from] ConfigureError),
    #[error(transparent)]
    Shard(#[from] ShardError),
    /// The output folder or its `audit.jsonl` (`path`, as shown).
    #[error("{path}: {source}")]
    File { path: String, source: io::Error },
    #[error(transparent)]
    Batch(#[from] crate::pipeline::batch::BatchError),
    #[error(transparent)]
    Tables(#[from] TablesError),
    #[error(transparent)]
    Report(#[from] ReportError),
    /// The output folder would replace an input.
    #[error(transparent)]
    Overwrite(#[from] crate::pipeline::OverwriteError),
}

/// Why `arbiter merge` wrote no folder.
#[derive(Debug, thiserror::Error)]
pub enum MergeRunError {
    #[error(transparent)]
    Batch(#[from] BatchRunError),
    /// A shard's `audit.jsonl` could not be read.
    #[error(transparent)]
    Read(#[from] VerifyError),
    #[error(transparent)]
    Merge(#[from] crate::pipeline::batch::shard::MergeError),
    #[error("{dir}: not a shard's folder: its batch was run without --shard")]
    NotShard { dir: String },
    #[error(
        "{first} and {other} are not shards of one batch: their invocations differ (the inputs, the rules or an option)"
    )]
    Differ { first: String, other: String },
    #[error("no shard folder given")]
    NoShards,
    #[error("{dir}: the output folder is one of the shards")]
    IntoShard { dir: String },
}

/// Why `arbiter chart` drew no chart.
#[derive(Debug, thiserror::Error)]
pub enum ChartRunError {
    #[error("arbiter chart: needs --rules (the time control to reconstruct the clocks under)")]
    NoRules,
    #[error("arbiter: {0}")]
    Game(#[source] NthGameError),
    /// The ruleset has no time control for game `game` of `path`.
    #[error("arbiter chart: the ruleset declares no time control for game {game} of {path}")]
    NoTimeControl { game: usize, path: String },
    #[error(transparent)]
    Chart(#[from] ChartError),
    /// The chart would replace a file it is drawn from.
    #[error("arbiter chart: {0}")]
    Overwrite(#[from] crate::pipeline::OverwriteError),
    #[error("arbiter chart: {path}: exists; refused (give --force to replace it)")]
    Exists { path: String },
    #[error("arbiter: {path}: {source}")]
    Write { path: String, source: io::Error },
}

/// Why `arbiter replay` showed no game.
#[derive(Debug, thiserror::Error)]
pub enum ReplayRunError {
    #[error("arbiter: --game counts from 1")]
    GameZero,
    #[error("arbiter: {0}")]
    Game(#[source] NthGameError),
    #[error("arbiter: game {game} has plies {first}..{last}; there is no ply {ply}")]
    NoPly {
        game: usize,
        first: u32,
        last: u32,
        ply: u32,
    },
}

/// Why `arbiter audit` could not start.
#[derive(Debug, thiserror::Error)]
pub enum AuditRunError {
    /// An output folder would replace an input.
    #[error("arbiter audit: {0}")]
    Overwrite(#[from] crate::pipeline::OverwriteError),
    /// An output folder could not be made.
    #[error("arbiter: {path}: {source}")]
    Dir { path: String, source: io::Error },
}

/// Why `arbiter hidden-book` could not screen or write.
#[derive(Debug, thiserror::Error)]
pub enum HiddenBookError {
    #[error(transparent)]
    Logs(#[from] crate::ingest::logs::LogFileError),
    #[error(transparent)]
    Report(#[from] ReportError),
}

/// Why a ruleset file could not be loaded, or a rule found.
#[derive(Debug, thiserror::Error)]
pub enum RulesFileError {
    #[error("arbiter: {path}: {source}")]
    Io { path: String, source: io::Error },
    /// The ruleset has a mistake: `rendered` is its diagnostic with file,
    /// line and caret.
    #[error("{rendered}")]
    Ruleset {
        path: String,
        rendered: String,
        source: Box<RuleError>,
    },
    /// No rule or check `id` in the rulesets `searched` (none: the
    /// `./rulesets` folder had none).
    #[error("arbiter: no rule or check `{id}` in {}", searched_text(.searched))]
    NotFound { id: String, searched: Vec<String> },
}

/// The rulesets searched, as [`RulesFileError::NotFound`] names them.
fn searched_text(searched: &[String]) -> String {
    if searched.is_empty() {
        "./rulesets (no .rules files found)".to_string()
    } else {
        searched.join(", ")
    }
}

/// Why `arbiter rules fit` could not run.
#[derive(Debug, thiserror::Error)]
pub enum RulesFitError {
    #[error(transparent)]
    Rules(#[from] RulesFileError),
    /// The ruleset `path` marks nothing with `fit`.
    #[error("{path}: no constant or switch is marked `fit` (docs/rules-language.md, Fitting)")]
    NothingToFit { path: String },
    #[error(transparent)]
    Variant(#[from] UnknownVariant),
    #[error("{dir}: {source}")]
    Syzygy { dir: String, source: io::Error },
    #[error("no game to fit")]
    NoGame,
    #[error("{0}")]
    Json(#[source] serde_json::Error),
    /// The report could not be written to the output.
    #[error("{0}")]
    Output(#[source] io::Error),
    /// `--format` other than text or json.
    #[error("--format takes text or json")]
    Format,
}

/// Why `arbiter record` made no recording.
#[derive(Debug, thiserror::Error)]
pub enum RecordRunError {
    #[error("--side takes white or black, not {found:?}")]
    Side { found: String },
    #[error("--tc takes BASE+INC in seconds, e.g. 60+1, not {found:?}")]
    TimeControl { found: String },
    #[error("--option takes NAME=VALUE, not {found:?}")]
    EngineOption { found: String },
    #[error(transparent)]
    Game(#[from] NthGameError),
    /// Game `game` of `path` stops before its end (`reason`).
    #[error("{path}: game {game} cannot be replayed: {reason}")]
    Unreplayable {
        path: String,
        game: usize,
        reason: String,
    },
    #[error("{path}: an opening must start from the initial position")]
    OpeningSetUp { path: String },
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The recording failed; `logs` keep what was written up to the
    /// failure.
    #[error("{source}; the log up to the failure is in {logs}")]
    Failed { source: RecordError, logs: String },
    #[error("{path}: {source}")]
    Dir { path: String, source: io::Error },
    /// A transcript could not be created or written.
    #[error("{path}: cannot write the log: {source}")]
    Log { path: String, source: io::Error },
    #[error(transparent)]
    Report(#[from] ReportError),
}

/// Why `arbiter similarity` could not run.
#[derive(Debug, thiserror::Error)]
pub enum SimilarityRunError {
    #[error("give --positions FILE with --engine NAME=CMD…, or --games PATH…")]
    NoPositions,
    #[error("give at least two engines (--engine NAME=COMMAND), or one with --reference DIR")]
    TooFewEngines,
    #[error("--runs takes 1 or 2")]
    Runs,
    #[error("--related takes A,B (two engine names), not {found:?}")]
    Related { found: String },
    #[error("--false-positive-rate takes a number between 0 and 1, not {value}")]
    FalsePositiveRate { value: f64 },
    #[error("--bootstrap takes at least 1")]
    Bootstrap,
    #[error("--engine takes NAME=COMMAND, not {found:?}")]
    Engine { found: String },
    #[error("two engines are named {name:?}")]
    SameName { name: String },
    #[error("--option takes NAME=VALUE or ENGINE:NAME=VALUE, not {found:?}")]
    EngineOption { found: String },
    /// `--related` names `name`, not one of the `field`.
    #[error(
        "--related names {name:?}, which is not an engine of the field ({})",
        .field.join(", ")
    )]
    NotInField { name: String, field: Vec<String> },
    #[error(transparent)]
    Active(#[from] SimilarityError),
    #[error(transparent)]
    Passive(#[from] crate::pipeline::similarity::InputError),
    #[error("{path}: {source}")]
    Dir { path: String, source: io::Error },
    #[error(transparent)]
    Report(#[from] ReportError),
    /// The summary could not be written to the output.
    #[error("{0}")]
    Output(#[source] io::Error),
}

/// Why `arbiter verify` could not check a report.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The report (`path`, as shown) could not be read.
    #[error("{path}: {source}")]
    Io { path: String, source: io::Error },
    #[error("{path}: not UTF-8 (byte {offset}): not a report of arbiter")]
    NotUtf8 { path: String, offset: usize },
    #[error("{path}:{line}: not a JSON line of an arbiter report: {source}")]
    NotJsonLine {
        path: String,
        line: usize,
        source: serde_json::Error,
    },
    #[error("{path}: no summary line (\"type\": \"summary\"): the report is incomplete")]
    NoSummary { path: String },
    /// The summary of a report of arbiter `version` has no invocation.
    #[error(
        "{path}: the summary records no invocation (a report of arbiter {version} or older cannot be rerun)"
    )]
    NoInvocation { path: String, version: String },
    /// The report's input was standard input, which is gone.
    #[error(
        "{path}: the report's input was standard input (<stdin>), which cannot be read again; refused: audit the file itself to have a report that can be verified"
    )]
    Stdin { path: String },
    #[error("--base {path}: {source}")]
    Base { path: String, source: io::Error },
    #[error(transparent)]
    Configure(#[from] ConfigureError),
    #[error(transparent)]
    Batch(#[from] BatchRunError),
    #[error(transparent)]
    Audit(#[from] AuditRunError),
    #[error("the batch run again wrote no audit.jsonl: {0}")]
    NoRerunLines(#[source] io::Error),
    /// The verdict could not be written to the output.
    #[error("{0}")]
    Output(#[source] io::Error),
}

//! The pipeline, assembled once: the audit of a game (`game`), of a file
//! (`file`) and of a batch of files (`batch`), with what they run under
//! (`config`), what the command line names (`inputs`) and what a report
//! records of its inputs (`record`). Every subcommand runs through here.
//!
//! Each file is streamed once. Its SHA-256 is computed from the very bytes
//! that were parsed, so a report names exactly what it judged. A broken game
//! becomes findings and the next game is read; an unreadable file is
//! reported and the next file is read.

pub mod batch;
pub mod config;
pub mod file;
pub mod fit;
pub mod hidden_book;
pub mod game;
pub mod inputs;
pub mod manager_args;
pub mod manager_stdout;
pub mod match_log;
pub mod progress;
pub mod record;
pub mod run;
pub mod shelf;
pub mod similarity;

pub use config::{
    BatchInvocation, Config, ConfigError, Invocation, Settings, machine_threads, on_threads,
};
pub(crate) use file::Parcels;
pub use file::audit_file;
pub use game::{GameAudit, GameClocks, audit_game, audit_replayed, engine_logs_of};
pub use inputs::{
    Case, CaseError, CaseRuleset, Input, OverwriteError, expand, expand_inputs, files_read,
    normalize, refuse_overwrite,
};
pub use record::{InputSummary, add_hashed, hashed_files, syzygy_entry, syzygy_listing};

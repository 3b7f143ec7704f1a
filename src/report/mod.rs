//! Reports: what the audit produced, written for people and programs. No
//! rule logic and no stage run again: every writer reads what the pipeline
//! gave it (`crate::pipeline::GameAudit`, `crate::pipeline::run::AuditRun`).
//!
//! The writers of an audit share one trait, [`Writer`]: the lines on
//! standard output, JSON or text ([`lines::Lines`]), the dossier folder
//! ([`dossier::Folder`]) and the clock charts ([`chart::Charts`]).

use std::io;

use crate::pipeline::run::AuditRun;
use crate::pipeline::{Config, GameAudit};

#[cfg(feature = "tables")]
pub mod batch;
pub mod chart;
pub mod dossier;
mod error;
pub mod fit;
pub mod hidden_book;
pub mod json;
pub mod lines;
pub mod replay;
pub mod simchart;
pub mod similarity;
pub mod text;

pub use error::{ChartError, ReportError};

/// A report writer: fed each audited game as the audit gives it, then the
/// run's end.
pub trait Writer {
    /// One audited game.
    fn game(&mut self, g: &GameAudit) -> io::Result<()>;
    /// After the last game: what the run gave besides its games, under the
    /// configuration it ran with. An error stops the run (status 2).
    fn finish(&mut self, run: &AuditRun, cfg: &Config) -> Result<(), ReportError>;
    /// Whether something it was to write could not be, each said on
    /// standard error as it happened (the run then ends with status 2).
    fn failed(&self) -> bool {
        false
    }
    /// The last thing written, once the run's exit status is known (every
    /// writer finished): the verdict, for a writer read by a person.
    fn verdict(&mut self, _status: i32, _run: &AuditRun, _cfg: &Config) {}
}

/// Write `text` to `dir/name` (through a temporary name, renamed when
/// complete: `crate::base::files::write_atomic`), naming the file in the
/// error.
pub fn write_in(dir: &std::path::Path, name: &str, text: &str) -> Result<(), ReportError> {
    let p = dir.join(name);
    crate::base::files::write_atomic(&p, text.as_bytes()).map_err(|source| ReportError::File {
        path: p.display().to_string(),
        source,
    })
}

/// The version of the reports' contract: the JSON Lines summary's
/// `schema_version` (docs/findings-schema.md) and the batch tables'
/// `arbiter.schema_version` (docs/tables.md). It changes when a field or
/// column is removed, renamed or given another type; one added keeps it.
pub const SCHEMA_VERSION: u32 = 1;

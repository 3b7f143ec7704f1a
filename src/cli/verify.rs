//! `arbiter verify`.

use std::io::Write;
use std::path::PathBuf;

use crate::commands::FAILURE;

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  arbiter verify reports/samples
  arbiter audit season.pgn --format json > report.jsonl && arbiter verify report.jsonl")]
pub struct VerifyArgs {
    /// The report: a file of `audit --format json` lines, or a folder
    /// written by `audit --out` or `batch --out` (or its audit.jsonl).
    report: PathBuf,
    /// The folder the audit ran in (its paths are relative to it;
    /// default: the current folder).
    #[arg(long)]
    base: Option<PathBuf>,
}

pub fn run(a: VerifyArgs, out: &mut dyn Write) -> i32 {
    match crate::commands::verify::run(&a.report, a.base.as_deref(), out) {
        Ok(code) => code,
        Err(e) => {
            say!("arbiter verify: {e}");
            FAILURE
        }
    }
}

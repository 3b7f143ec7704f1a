//! `arbiter hidden-book`: screen games for hidden opening books.

use std::io::Write;
use std::path::PathBuf;

use super::{CLEAN, FAILURE, VIOLATIONS};
use crate::facts::hidden_book::Params;

/// Screen `paths` with `engine_logs`' search evidence; write the tally.
pub fn run(
    paths: &[PathBuf],
    engine_logs: &[PathBuf],
    params: &Params,
    as_json: bool,
    out: &mut dyn Write,
) -> Result<i32, super::HiddenBookError> {
    let s = crate::pipeline::hidden_book::screen(paths, engine_logs, params)?;
    crate::report::hidden_book::write(&s, params, as_json, out)?;
    Ok(if s.failed {
        FAILURE
    } else if !s.flagged.is_empty() {
        VIOLATIONS
    } else {
        CLEAN
    })
}

//! `arbiter hidden-book`'s output: a table of each engine's moves out of
//! book and without search, the innocent causes, and the flagged moves; or
//! the same as one JSON object.

use std::io::Write;

use serde_json::json;

use super::text::clean;
use crate::facts::hidden_book::{EngineTally, Params};
use crate::pipeline::hidden_book::Screening;

/// Write the screening as JSON (one object) or as text.
pub fn write(
    s: &Screening,
    params: &Params,
    as_json: bool,
    out: &mut dyn Write,
) -> Result<(), super::ReportError> {
    let io = super::ReportError::Output;
    if as_json {
        let engines: Vec<&EngineTally> = s.tallies.values().collect();
        writeln!(
            out,
            "{}",
            json!({"params": {
                "min_run": params.min_run, "max_nodes": params.max_nodes,
                "max_depth": params.max_depth, "max_time": params.max_time,
                "tb_pieces": params.tb_pieces},
                "engines": engines, "flagged": s.flagged})
        )
        .map_err(io)?;
        return Ok(());
    }
    writeln!(
        out,
        "{:<28} {:>5} {:>7} {:>10} {:>10} {:>11} {:>5} {:>8} {:>7}",
        "engine",
        "games",
        "moves",
        "searchless",
        "explained",
        "unexplained",
        "run",
        "repeated",
        "flagged"
    )
    .map_err(io)?;
    for t in s.tallies.values() {
        writeln!(
            out,
            "{:<28} {:>5} {:>7} {:>10} {:>10} {:>11} {:>5} {:>8} {:>7}",
            clean(&t.engine),
            t.games,
            t.moves,
            t.searchless,
            t.explained.values().sum::<usize>(),
            t.unexplained,
            t.longest_run,
            t.repeated,
            t.flagged_moves
        )
        .map_err(io)?;
    }
    let mut causes: std::collections::BTreeMap<&str, usize> = Default::default();
    for t in s.tallies.values() {
        for (k, v) in &t.explained {
            *causes.entry(k).or_default() += v;
        }
    }
    writeln!(out, "\ninnocent causes of moves without search:").map_err(io)?;
    for (k, v) in causes {
        writeln!(out, "  {v:>6}  {k}").map_err(io)?;
    }
    writeln!(out, "\nflagged moves: {}", s.flagged.len()).map_err(io)?;
    for f in &s.flagged {
        writeln!(
            out,
            "  {} {}: {}",
            clean(f["game"].as_str().unwrap_or("")),
            clean(f["engine"].as_str().unwrap_or("")),
            clean(f["evidence"].as_str().unwrap_or(""))
        )
        .map_err(io)?;
    }
    Ok(())
}

//! `arbiter hidden-book`.

use std::io::Write;
use std::path::PathBuf;

use crate::facts::hidden_book::Params;

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  arbiter hidden-book season.pgn
  arbiter hidden-book game.pgn --engine-log engine.log --min-run 4 --format json")]
pub struct HiddenBookArgs {
    /// PGN files, or folders searched for them.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// An engine log to take search evidence from (repeatable).
    #[arg(long = "engine-log")]
    engine_logs: Vec<PathBuf>,
    /// Unexplained searchless moves of one side in a row that make a run
    /// (a run is flagged).
    #[arg(long, default_value_t = 6)]
    min_run: usize,
    /// A move searched over at most this many nodes is searchless.
    #[arg(long, default_value_t = 1000)]
    max_nodes: u64,
    /// With no node count: a move searched to at most this depth, and ...
    #[arg(long, default_value_t = 1)]
    max_depth: u32,
    /// ... in at most this many ms, is searchless.
    #[arg(long, default_value_t = 100)]
    max_time: i64,
    /// Positions of at most this many pieces are the tablebases': a
    /// searchless move there is explained.
    #[arg(long, default_value_t = 7)]
    tb_pieces: u32,
    /// A node count of 0 says nothing (engines that write n=0 on every
    /// move, as the TCEC 4k engines do): such a move is judged by its depth
    /// and time.
    #[arg(long)]
    zero_nodes_unknown: bool,
    /// text, or json (one object).
    #[arg(long, value_enum, default_value_t = super::args::TextOrJson::Text)]
    format: super::args::TextOrJson,
    /// The same as --format json (kept for scripts that use it).
    #[arg(long, hide = true, conflicts_with = "format")]
    json: bool,
}

pub fn run(a: HiddenBookArgs, out: &mut dyn Write) -> i32 {
    let params = Params {
        min_run: a.min_run,
        max_nodes: a.max_nodes,
        max_depth: a.max_depth,
        max_time: a.max_time,
        tb_pieces: a.tb_pieces,
        kept_tree: false,
        zero_nodes_unknown: a.zero_nodes_unknown,
    };
    let json = a.json || a.format == super::args::TextOrJson::Json;
    crate::commands::hidden_book::run(&a.paths, &a.engine_logs, &params, json, out).unwrap_or_else(
        |e| {
            say!("{e}");
            crate::commands::FAILURE
        },
    )
}

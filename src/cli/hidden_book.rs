//! `arbiter hidden-book`.

use std::io::Write;
use std::path::PathBuf;

use crate::facts::hidden_book::Params;

#[derive(Debug, clap::Args)]
pub struct HiddenBookArgs {
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// An engine log to take search evidence from (repeatable).
    #[arg(long = "engine-log")]
    engine_logs: Vec<PathBuf>,
    #[arg(long, default_value_t = 6)]
    min_run: usize,
    #[arg(long, default_value_t = 1000)]
    max_nodes: u64,
    #[arg(long, default_value_t = 1)]
    max_depth: u32,
    /// ms.
    #[arg(long, default_value_t = 100)]
    max_time: i64,
    #[arg(long, default_value_t = 7)]
    tb_pieces: u32,
    #[arg(long)]
    json: bool,
}

pub fn run(a: HiddenBookArgs, out: &mut dyn Write) -> i32 {
    let params = Params {
        min_run: a.min_run,
        max_nodes: a.max_nodes,
        max_depth: a.max_depth,
        max_time: a.max_time,
        tb_pieces: a.tb_pieces,
    };
    crate::commands::hidden_book::run(&a.paths, &a.engine_logs, &params, a.json, out)
}

//! `arbiter batch`.

use std::path::PathBuf;

use super::args::{FilterArgs, RulesArgs};
use crate::commands::{FAILURE, batch};

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  arbiter batch ../archive/ --rules rulesets/tcec-s15.rules --out reports/archive
  arbiter batch season.pgn --rules rulesets/tcec-s15.rules --fit --syzygy TABLES --out reports/season
  arbiter batch ../archive/ --rules rulesets/tcec-s15.rules --shard 2/3 --out reports/shard-2")]
pub struct BatchArgs {
    /// PGN files (also .pgn.gz, .pgn.zst), or folders searched for them.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Output folder.
    #[arg(long)]
    out: PathBuf,
    /// Audit only the K-th of every N games (K/N, 1 ≤ K ≤ N), to share
    /// an archive between machines.
    #[arg(long)]
    shard: Option<String>,
    /// Threads for the games' audits, and at most as many for reading
    /// the engine logs; `--fit` fits on as many again, beside the audits
    /// (default: the machine's cores).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar: only errors and the verdict on standard error.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    filter: FilterArgs,
}

pub fn run(a: BatchArgs) -> i32 {
    // each part of the run keeps to --threads: the games, the engine
    // logs, and the fit (on threads of its own, beside the games)
    let req = batch::Request {
        paths: a.paths,
        settings: crate::pipeline::Settings {
            filter: a.filter.filter(),
            ..a.rules.settings()
        },
        out: a.out,
        shard: None,
        shard_text: a.shard,
        threads: a.threads.unwrap_or_else(crate::pipeline::machine_threads),
        quiet: false,
        no_progress: a.quiet,
    };
    let ran = batch::configure(&req).map_err(Into::into).and_then(|cfg| {
        let shard = req
            .shard_text
            .as_deref()
            .map(batch::parse_shard)
            .transpose()?;
        batch::run(
            &batch::Request {
                shard,
                ..req.clone()
            },
            cfg,
        )
    });
    match ran {
        Ok(code) => code,
        Err(e) => {
            say!("arbiter batch: {e}");
            FAILURE
        }
    }
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  arbiter batch ../archive/ --rules rulesets/tcec-s15.rules --shard 1/2 --out shards/1
  arbiter batch ../archive/ --rules rulesets/tcec-s15.rules --shard 2/2 --out shards/2
  arbiter merge shards/1 shards/2 --out reports/archive")]
pub struct MergeArgs {
    /// The folders of the batch's N shards (`batch --shard K/N --out
    /// DIR`), each once, in any order.
    #[arg(required = true)]
    shards: Vec<PathBuf>,
    /// Output folder: what one `batch` over the whole archive writes.
    #[arg(long)]
    out: PathBuf,
    /// Threads for reading the inputs' first games again (default: the
    /// machine's cores).
    #[arg(long)]
    threads: Option<usize>,
}

pub fn run_merge(a: MergeArgs) -> i32 {
    let req = crate::commands::merge::Request {
        shards: a.shards,
        out: a.out,
        threads: a.threads.unwrap_or_else(crate::pipeline::machine_threads),
    };
    match crate::commands::merge::run(&req) {
        Ok(code) => code,
        Err(e) => {
            say!("arbiter merge: {e}");
            FAILURE
        }
    }
}

//! `arbiter similarity`.

use std::io::{self, Write};
use std::path::PathBuf;

use crate::commands::{FAILURE, similarity};

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  arbiter similarity --engine sf=/usr/games/stockfish --engine toga=/usr/games/toga2 --positions suite.epd --depth 8 --out sim/
  arbiter similarity --games ../archive/ --out sim-games/")]
pub struct SimilarityArgs {
    /// An engine, NAME=COMMAND (repeatable; at least two, or one with
    /// --reference).
    #[arg(long = "engine", required_unless_present = "games")]
    engines: Vec<String>,
    /// The position suite (EPD).
    #[arg(long, required_unless_present = "games", conflicts_with = "games")]
    positions: Option<PathBuf>,
    /// The passive test instead: compare what the engines of these games
    /// chose (moves played, and their PVs' later moves) in the same
    /// positions, weighted by how open each position was, and the scores
    /// their PGN evals give where several engines faced a position.
    #[arg(long, num_args = 1.., conflicts_with = "engines")]
    games: Vec<PathBuf>,
    /// Pairs sharing fewer positions get no verdict.
    #[arg(long, default_value_t = 30)]
    min_positions: usize,
    /// Think this long per position, ms (default: 100, where --depth is
    /// not given).
    #[arg(long, conflicts_with = "depth")]
    movetime: Option<u64>,
    /// Search each position to this depth instead of a time.
    #[arg(long)]
    depth: Option<u32>,
    /// Runs per engine; the second is the self-similarity run.
    #[arg(long, default_value_t = 2)]
    runs: u32,
    /// Worker threads (engines run in parallel, one process each); at
    /// most 64.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: u64,
    /// Output folder: answers.jsonl (resumable), similarity.json,
    /// heatmap.svg, dendrogram.svg, logs/.
    #[arg(long)]
    out: PathBuf,
    /// An option, NAME=VALUE for every engine or ENGINE:NAME=VALUE for one
    /// (repeatable).
    #[arg(long = "option")]
    options: Vec<String>,
    /// A reference field: the output folder of an earlier run over the same
    /// suite at the same limit. Its engines join the consensus and the
    /// null, so that even two engines alone get a verdict.
    #[arg(long, conflicts_with = "games")]
    reference: Option<PathBuf>,
    /// Two engines known to be related, A,B (repeatable): kept out of the
    /// other pairs' null.
    #[arg(long = "related")]
    related: Vec<String>,
    /// The verdict's false-positive rate: a pair is flagged when its
    /// evaluation signature's p-value, against the field's other pairs
    /// resampled, is at most this.
    #[arg(long, default_value_t = 0.001)]
    false_positive_rate: f64,
    /// Bootstrap resamples of the positions; at most 10000 (each is kept
    /// for every pair).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    bootstrap: u64,
}

pub fn run(a: SimilarityArgs, out: &mut dyn Write) -> i32 {
    let req = similarity::Request {
        engines: a.engines,
        positions: a.positions,
        games: a.games,
        min_positions: a.min_positions,
        movetime: a.movetime,
        depth: a.depth,
        runs: a.runs,
        threads: usize::try_from(a.threads).unwrap_or(1),
        out: a.out,
        options: a.options,
        reference: a.reference,
        related: a.related,
        false_positive_rate: a.false_positive_rate,
        bootstrap: usize::try_from(a.bootstrap).unwrap_or(1),
        progress: io::IsTerminal::is_terminal(&io::stderr()),
    };
    match similarity::run(&req, out) {
        Ok(code) => code,
        Err(e) => {
            say!("arbiter similarity: {e}");
            FAILURE
        }
    }
}

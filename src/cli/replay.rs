//! `arbiter replay` and `arbiter chart`: one game of a file.

use std::io::Write;
use std::path::PathBuf;

use super::args::{RulesArgs, TextOrJson};
use crate::commands::{FAILURE, chart, replay};
use crate::pipeline::{Config, machine_threads};

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  arbiter replay samples/icga-2008.pgn
  arbiter replay season.pgn --game 12 --ply 81 --rules rulesets/tcec-s15.rules
  arbiter replay season.pgn --game 12 --format json")]
pub struct ReplayArgs {
    /// The PGN file.
    file: PathBuf,
    /// Which game of the file (1 = the first).
    #[arg(long, default_value_t = 1)]
    game: usize,
    /// Show only this ply (1 = White's first move).
    #[arg(long)]
    ply: Option<u32>,
    /// text, or json: JSON Lines, one object per ply.
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    format: TextOrJson,
    /// The same as --format json (kept for scripts that use it).
    #[arg(long, hide = true, conflicts_with = "format")]
    json: bool,
    #[command(flatten)]
    rules: RulesArgs,
}

#[derive(Debug, clap::Args)]
#[command(after_help = "Example:
  arbiter chart season.pgn --game 3 --rules rulesets/tcec-s15.rules --out game3.svg")]
pub struct ChartArgs {
    /// The PGN file.
    file: PathBuf,
    /// Which game of the file (1 = the first).
    #[arg(long, default_value_t = 1)]
    game: usize,
    /// Where to write the SVG (refused if it exists, unless --force).
    #[arg(long)]
    out: PathBuf,
    /// Replace --out if it exists (never an input of the chart).
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    rules: RulesArgs,
}

/// The configuration `file` is read under: under a folder of rulesets, the
/// one it chooses (a file none claims is said, and read without one).
fn load(rules: RulesArgs, file: &std::path::Path, trace: bool) -> Result<Config, String> {
    let cfg =
        Config::load(&rules.settings(), trace, machine_threads()).map_err(|e| e.to_string())?;
    let (cfg, unclaimed) = cfg
        .for_one_file(file)
        .map_err(|e| format!("arbiter: {}: {e}", file.display()))?;
    if let Some(why) = unclaimed {
        say!("arbiter: {}: {why}", file.display());
    }
    Ok(cfg)
}

pub fn run(a: ReplayArgs, out: &mut dyn Write) -> i32 {
    match load(a.rules, &a.file, true) {
        Ok(cfg) => replay::run(
            &a.file,
            a.game,
            a.ply,
            a.json || a.format == TextOrJson::Json,
            &cfg,
            out,
        )
        .unwrap_or_else(|e| {
            say!("{e}");
            FAILURE
        }),
        Err(e) => {
            say!("{e}");
            FAILURE
        }
    }
}

pub fn run_chart(a: ChartArgs) -> i32 {
    match load(a.rules, &a.file, false) {
        Ok(cfg) => chart::run(&a.file, a.game, &cfg, &a.out, a.force).unwrap_or_else(|e| {
            say!("{e}");
            FAILURE
        }),
        Err(e) => {
            say!("{e}");
            FAILURE
        }
    }
}

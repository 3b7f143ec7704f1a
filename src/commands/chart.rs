//! `arbiter chart`: one game's clock chart (SVG), both clocks as recorded
//! and as the ruleset's time control reconstructs them.

use std::path::Path;

use super::{CLEAN, ChartRunError, FAILURE};
use crate::pipeline::Config;
use crate::pipeline::run::nth_game;

/// The SVG clock chart of game `game` (1 = the first) of `file`.
pub fn svg(file: &Path, game: usize, cfg: &Config) -> Result<String, ChartRunError> {
    let mut cfg = cfg.clone();
    cfg.clocks = true;
    if cfg.ruleset.is_none() {
        return Err(ChartRunError::NoRules);
    }
    let g = nth_game(file, game, &cfg).map_err(ChartRunError::Game)?;
    match crate::report::chart::for_game(&g) {
        Some(svg) => Ok(svg?),
        None => Err(ChartRunError::NoTimeControl {
            game,
            path: file.display().to_string(),
        }),
    }
}

/// Draw the chart of game `game` of `file` into `svg_path`.
pub fn run(file: &Path, game: usize, cfg: &Config, svg_path: &Path) -> i32 {
    match svg(file, game, cfg) {
        Ok(text) => match std::fs::write(svg_path, text) {
            Ok(()) => CLEAN,
            Err(e) => {
                say!("arbiter: {}: {e}", svg_path.display());
                FAILURE
            }
        },
        Err(e) => {
            say!("{e}");
            FAILURE
        }
    }
}

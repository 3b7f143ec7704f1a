//! `arbiter chart`: one game's clock chart (SVG), both clocks as recorded
//! and as the ruleset's time control reconstructs them.

use std::path::{Path, PathBuf};

use super::{CLEAN, ChartRunError};
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

/// Draw the chart of game `game` of `file` into `svg_path`: refused if
/// `svg_path` is a file the chart is drawn from, or exists and `force` is
/// not given.
pub fn run(
    file: &Path,
    game: usize,
    cfg: &Config,
    svg_path: &Path,
    force: bool,
) -> Result<i32, ChartRunError> {
    let mut read = vec![file.to_path_buf()];
    read.extend(cfg.ruleset.iter().map(|r| PathBuf::from(&r.path)));
    read.extend(cfg.operator_logs.iter().map(|l| PathBuf::from(&l.path)));
    read.extend(cfg.engine_logs.iter().map(|l| PathBuf::from(&l.path)));
    crate::pipeline::refuse_overwrite(svg_path, &|_| false, &read)?;
    if !force && std::fs::symlink_metadata(svg_path).is_ok() {
        return Err(ChartRunError::Exists {
            path: svg_path.display().to_string(),
        });
    }
    let text = svg(file, game, cfg)?;
    crate::base::files::write_atomic(svg_path, text.as_bytes()).map_err(|source| {
        ChartRunError::Write {
            path: svg_path.display().to_string(),
            source,
        }
    })?;
    Ok(CLEAN)
}

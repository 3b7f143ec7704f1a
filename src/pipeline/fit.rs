//! The fit of files and events: every game read and replayed once, then
//! the ruleset's `fit` constants and switches searched for the values that
//! best reproduce the record (`crate::rules::fit`).

use std::collections::BTreeMap;

use crate::rules::fit::{
    FileFit, FitSummary, Game, departure_finding, fit_group_with, undescribed_finding,
};

/// Every game of a PGN file, read and replayed (the games in parallel, in
/// the file's order).
pub fn read_games(path: &std::path::Path) -> std::io::Result<Vec<Game>> {
    use rayon::prelude::*;
    let file = std::fs::File::open(path)?;
    let mut splitter = crate::ingest::pgn::GameSplitter::new(std::io::BufReader::new(file));
    let shown = path.display().to_string();
    let mut chunks = Vec::new();
    while let Some(chunk) = splitter.next_chunk()? {
        chunks.push(chunk);
    }
    Ok(chunks
        .par_iter()
        .map(|chunk| {
            let pgn = crate::ingest::pgn::parse_game(chunk);
            let replay = crate::replay::replay(&pgn);
            Game {
                path: shown.clone(),
                pgn,
                replay,
            }
        })
        .collect())
}

/// Why `--fit` cannot be run: the ruleset has nothing to fit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FitFilesError {
    #[error("--fit needs --rules")]
    NoRuleset,
    /// The ruleset (its id) marks nothing with `fit`.
    #[error(
        "--fit: ruleset {ruleset} marks no constant or switch with `fit` (docs/rules-language.md, Fitting)"
    )]
    NothingToFit { ruleset: String },
}

/// Fit each PGN file of `paths` under the configuration's ruleset, by its
/// path as shown. A file that cannot be read is left out (the audit
/// reports it when it reads it); one that cannot be fitted is said on
/// standard error and audited under the text's values.
pub fn fit_files(
    paths: &[std::path::PathBuf],
    cfg: &crate::pipeline::Config,
) -> Result<BTreeMap<String, FileFit>, FitFilesError> {
    let rs = cfg.ruleset.as_deref().ok_or(FitFilesError::NoRuleset)?;
    if rs.fits.is_empty() {
        return Err(FitFilesError::NothingToFit {
            ruleset: rs.id.to_string(),
        });
    }
    let inputs = crate::pipeline::expand_inputs(paths);
    let bar = crate::pipeline::progress::bar(
        inputs.len() as u64,
        "{bar:40} {pos}/{len} files, {msg}",
        crate::pipeline::progress::on_terminal(),
    );
    // the files fitted in parallel (each fit's points are too), kept by
    // their paths: the order they finish in changes nothing
    use rayon::prelude::*;
    let fits: Vec<(String, FileFit)> = inputs
        .par_iter()
        .filter_map(|input| {
            let fitted = match input {
                Ok(crate::pipeline::Input::Pgn(path)) => fit_file(path, rs, cfg, &bar),
                _ => None,
            };
            bar.inc(1);
            fitted
        })
        .collect();
    bar.finish_and_clear();
    Ok(fits.into_iter().collect())
}

/// Fit one PGN file; `None` where it cannot be read (the audit reports
/// it) or fitted (said here).
fn fit_file(
    path: &std::path::Path,
    rs: &crate::rules::analysis::Ruleset,
    cfg: &crate::pipeline::Config,
    bar: &indicatif::ProgressBar,
) -> Option<(String, FileFit)> {
    let games = read_games(path).ok()?;
    let shown = path.display().to_string();
    let list: Vec<&Game> = games.iter().collect();
    let tick = |n: usize| bar.set_message(format!("{shown}: {n} points evaluated"));
    let fitted = fit_group_with(
        rs,
        &shown,
        &list,
        cfg.variant.as_deref(),
        &cfg.detectors,
        &tick,
        false,
    );
    let fit = match fitted {
        Ok(f) => f,
        Err(e) => {
            // the file is audited under the text's values
            bar.suspend(|| say!("arbiter: --fit: {shown}: {e}; audited under the text"));
            return None;
        }
    };
    let finding = fit.departs().then(|| departure_finding(rs, &fit));
    let undescribed = fit
        .undescribed
        .iter()
        .map(|u| undescribed_finding(rs, &fit, u))
        .collect();
    let event = games
        .first()
        .and_then(|g| g.pgn.tag("Event"))
        .unwrap_or("")
        .trim()
        .to_string();
    let file = FileFit {
        summary: FitSummary::of(&fit, &event),
        overrides: fit.overrides,
        finding,
        undescribed,
    };
    Some((shown, file))
}

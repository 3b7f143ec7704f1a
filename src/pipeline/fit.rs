//! The fit of files and events: every game read and replayed once, then
//! the ruleset's `fit` constants and switches searched for the values that
//! best reproduce the record (`crate::rules::fit`).

use std::collections::BTreeMap;

use crate::rules::fit::{
    FileFit, FitSummary, Game, departure_finding, fit_group_with, undescribed_finding,
};

/// Every game of a PGN file, read and replayed.
pub fn read_games(path: &std::path::Path) -> std::io::Result<Vec<Game>> {
    let file = std::fs::File::open(path)?;
    let mut splitter = crate::ingest::pgn::GameSplitter::new(std::io::BufReader::new(file));
    let shown = path.display().to_string();
    let mut out = Vec::new();
    while let Some(chunk) = splitter.next_chunk()? {
        let pgn = crate::ingest::pgn::parse_game(&chunk);
        let replay = crate::replay::replay(&pgn);
        out.push(Game {
            path: shown.clone(),
            pgn,
            replay,
        });
    }
    Ok(out)
}

/// Fit each PGN file of `paths` under the configuration's ruleset, by its
/// path as shown. A file that cannot be read is left out (the audit
/// reports it when it reads it); one that cannot be fitted is said on
/// standard error and audited under the text's values.
pub fn fit_files(
    paths: &[std::path::PathBuf],
    cfg: &crate::pipeline::Config,
) -> Result<BTreeMap<String, FileFit>, String> {
    let rs = cfg.ruleset.as_deref().ok_or("--fit needs --rules")?;
    if rs.fits.is_empty() {
        return Err(format!(
            "--fit: ruleset {} marks no constant or switch with `fit` (docs/rules-language.md, Fitting)",
            rs.id
        ));
    }
    let mut out = BTreeMap::new();
    let inputs = crate::pipeline::expand_inputs(paths);
    let bar = crate::pipeline::progress::bar(
        inputs.len() as u64,
        "{bar:40} {pos}/{len} files, {msg}",
        crate::pipeline::progress::on_terminal(),
    );
    for input in inputs {
        bar.inc(1);
        let Ok(crate::pipeline::Input::Pgn(path)) = input else {
            continue;
        };
        let Ok(games) = read_games(&path) else {
            continue;
        };
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
        );
        let fit = match fitted {
            Ok(f) => f,
            Err(e) => {
                // the file is audited under the text's values
                bar.suspend(|| say!("arbiter: --fit: {shown}: {e}; audited under the text"));
                continue;
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
        out.insert(
            shown,
            FileFit {
                summary: FitSummary::of(&fit, &event),
                overrides: fit.overrides,
                finding,
                undescribed,
            },
        );
    }
    bar.finish_and_clear();
    Ok(out)
}

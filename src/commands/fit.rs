//! `arbiter rules fit`: every game read and replayed once, each group (a
//! file or an event) fitted, the report printed.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::rules::load;
use super::{CLEAN, FAILURE, RulesFitError, VIOLATIONS};

/// What `arbiter rules fit` fits as one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Per {
    File,
    Event,
}

/// `arbiter rules fit`: read and replay every game once, fit each group,
/// print the report. A file that cannot be read is reported and the others
/// are fitted; a group that cannot be fitted likewise.
pub fn run(
    paths: &[PathBuf],
    rules: &Path,
    per: Per,
    variant: Option<&str>,
    syzygy: Option<&Path>,
    json: bool,
    out: &mut dyn Write,
) -> Result<i32, RulesFitError> {
    use crate::pipeline::fit::read_games;
    use crate::rules::fit::{Game, fit_group_with};
    let (rs, _) = load(rules)?;
    if rs.fits.is_empty() {
        return Err(RulesFitError::NothingToFit {
            path: rules.display().to_string(),
        });
    }
    if let Some(v) = variant {
        crate::rules::eval::Program::new(&rs, Some(v))?;
    }
    let detectors = match syzygy {
        Some(dir) => crate::rules::eval::Detectors::with_syzygy(dir).map_err(|source| {
            RulesFitError::Syzygy {
                dir: dir.display().to_string(),
                source,
            }
        })?,
        None => crate::rules::eval::Detectors::default(),
    };
    let mut failed = false;
    let mut games: Vec<Game> = Vec::new();
    for input in crate::pipeline::expand_inputs(paths) {
        let path = match input {
            Ok(crate::pipeline::Input::Pgn(p)) => p,
            Ok(crate::pipeline::Input::Case(dir)) => {
                say!(
                    "arbiter rules fit: {}: a case folder is one game with its logs, not an archive; skipped",
                    dir.display()
                );
                continue;
            }
            Err((p, e)) => {
                say!("arbiter rules fit: {}: {e}", p.display());
                failed = true;
                continue;
            }
        };
        match read_games(&path) {
            Ok(g) => games.extend(g),
            Err(e) => {
                say!("arbiter rules fit: {}: {e}", path.display());
                failed = true;
            }
        }
    }
    // the groups, in the order their first game was read
    let mut groups: Vec<(String, Vec<&Game>)> = Vec::new();
    for g in &games {
        let key = match per {
            Per::File => g.path.clone(),
            Per::Event => g.pgn.tag("Event").unwrap_or("").trim().to_string(),
        };
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, list)) => list.push(g),
            None => groups.push((key, vec![g])),
        }
    }
    if groups.is_empty() {
        return Err(RulesFitError::NoGame);
    }
    let mut departs = false;
    // the groups fitted in parallel, reported in their order
    use rayon::prelude::*;
    let bar = crate::pipeline::progress::bar(
        groups.len() as u64,
        "{bar:40} {pos}/{len} groups fitted, {msg} points evaluated",
        crate::pipeline::progress::on_terminal(),
    );
    let points = std::sync::atomic::AtomicUsize::new(0);
    let fits: Vec<(
        Result<crate::rules::fit::GroupFit, crate::rules::fit::FitError>,
        std::time::Duration,
    )> = groups
        .par_iter()
        .map(|(key, list)| {
            let started = std::time::Instant::now();
            // each group's count of points added to the run's
            let mine = std::sync::atomic::AtomicUsize::new(0);
            let tick = |n: usize| {
                use std::sync::atomic::Ordering::Relaxed;
                let add = n.saturating_sub(mine.swap(n, Relaxed));
                let all = points.fetch_add(add, Relaxed) + add;
                bar.set_message(all.to_string());
            };
            let r = fit_group_with(&rs, key, list, variant, &detectors, &tick, true);
            bar.inc(1);
            (r, started.elapsed())
        })
        .collect();
    bar.finish_and_clear();
    let (mut fitted_groups, mut departing) = (0, 0);
    for ((key, _), (fitted, took)) in groups.iter().zip(fits) {
        match fitted {
            Ok(f) => {
                departs |= f.departs();
                fitted_groups += 1;
                departing += usize::from(f.departs());
                let text = if json {
                    serde_json::to_string(&f).map_err(RulesFitError::Json)?
                } else {
                    crate::report::fit::text(&f, took)
                };
                writeln!(out, "{text}").map_err(RulesFitError::Output)?;
            }
            Err(e) => {
                say!("arbiter rules fit: {key}: {e}");
                failed = true;
            }
        }
    }
    let status = if failed {
        FAILURE
    } else if departs {
        VIOLATIONS
    } else {
        CLEAN
    };
    if !json {
        // the verdict, last
        let meaning = match status {
            CLEAN => "exit status 0: the text's values describe every group".to_string(),
            VIOLATIONS => "exit status 1: fitted values depart from the text's".to_string(),
            s => format!("exit status {s}: an input could not be read or fitted (said above)"),
        };
        writeln!(
            out,
            "{fitted_groups} of {} groups fitted, {departing} departing from the text; {meaning}",
            groups.len()
        )
        .map_err(RulesFitError::Output)?;
    }
    Ok(status)
}

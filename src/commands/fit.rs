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
/// are fitted; a group that cannot be fitted likewise. Under `--per file`
/// each file is read, fitted and let go before the next; under `--per
/// event` the events are fitted in the order their first game comes. A
/// group of more than a block of text (`pipeline::fit::FIT_BLOCK_BYTES`)
/// is fitted a block at a time, in passes that read its files again, so
/// that at most a block of games is held.
pub fn run(
    paths: &[PathBuf],
    rules: &Path,
    per: Per,
    variant: Option<&str>,
    syzygy: Option<&Path>,
    json: bool,
    out: &mut dyn Write,
) -> Result<i32, RulesFitError> {
    use crate::pipeline::fit::{fit_block, read_games_within};
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
    let mut tally = Tally::default();
    let files = pgn_files(paths, &mut tally);
    let block = fit_block();
    let fitting = Fitting {
        rs: &rs,
        variant,
        detectors: &detectors,
        json,
    };
    let bar = crate::pipeline::progress::bar(
        files.len() as u64,
        "{bar:40} {pos}/{len} files fitted, {msg} points evaluated",
        crate::pipeline::progress::on_terminal(),
    );
    let unread = |path: &Path, e: std::io::Error, tally: &mut Tally| {
        bar.suspend(|| notice!("arbiter rules fit: {}: {e}", path.display()));
        tally.failed = true;
    };
    match per {
        Per::File => {
            for path in &files {
                match read_games_within(path, 0, block) {
                    Ok((games, _)) if games.is_empty() => {}
                    Ok((games, _)) => {
                        let group = vec![(path.display().to_string(), games.iter().collect())];
                        fitting.fit(&group, &bar, &mut tally, out)?;
                    }
                    Err(e) if too_large(&e) => {
                        let blocks = file_blocks(path.display().to_string(), vec![path.clone()]);
                        fitting.fit_blocks(&blocks, &bar, &mut tally, out)?;
                    }
                    Err(e) => unread(path, e, &mut tally),
                }
                bar.inc(1);
            }
        }
        Per::Event => {
            let (events, of) =
                crate::pipeline::fit::events_of(&files, &mut |path, e| unread(path, e, &mut tally));
            bar.set_position(files.len() as u64);
            let of = std::sync::Arc::new(of);
            // consecutive events of a block of text at most, read and
            // fitted together; a larger one fitted a block at a time
            let mut at = 0;
            while at < events.len() {
                let (mut end, mut held) = (at, 0);
                while end < events.len() && held + events[end].1 <= block {
                    held += events[end].1;
                    end += 1;
                }
                if end == at {
                    let mut blocks = file_blocks(events[at].0.clone(), files.clone());
                    blocks.member = Some((of.clone(), at as u32..at as u32 + 1));
                    fitting.fit_blocks(&blocks, &bar, &mut tally, out)?;
                    at += 1;
                    continue;
                }
                let mut together = file_blocks(String::new(), files.clone());
                together.member = Some((of.clone(), at as u32..end as u32));
                together.block = u64::MAX;
                let mut done = Ok(());
                let read = crate::rules::fit::Blocks::pass(&together, &mut |games| {
                    // the groups, in the order their first game was read
                    let mut groups: Vec<(String, Vec<&crate::rules::fit::Game>)> = Vec::new();
                    for g in games {
                        let key = g.pgn.tag("Event").unwrap_or("").trim().to_string();
                        match groups.iter_mut().find(|(k, _)| *k == key) {
                            Some((_, list)) => list.push(g),
                            None => groups.push((key, vec![g])),
                        }
                    }
                    done = fitting.fit(&groups, &bar, &mut tally, out);
                    Ok(())
                });
                done?;
                if let Err(e) = read {
                    bar.suspend(|| notice!("arbiter rules fit: {e}"));
                    tally.failed = true;
                }
                at = end;
            }
        }
    }
    bar.finish_and_clear();
    if tally.groups == 0 {
        return Err(RulesFitError::NoGame);
    }
    let status = if tally.failed {
        FAILURE
    } else if tally.departing > 0 {
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
            "{} of {} groups fitted, {} departing from the text; {meaning}",
            tally.fitted, tally.groups, tally.departing
        )
        .map_err(RulesFitError::Output)?;
    }
    Ok(status)
}

/// What a run of `rules fit` has counted so far.
/// Whether `e` says that a file's games pass a block.
fn too_large(e: &std::io::Error) -> bool {
    e.get_ref()
        .is_some_and(|x| x.is::<crate::pipeline::fit::TooLarge>())
}

/// The blocks of every game of `files`, as group `group`.
fn file_blocks(group: String, files: Vec<PathBuf>) -> crate::pipeline::fit::FileBlocks {
    crate::pipeline::fit::FileBlocks {
        group,
        files,
        member: None,
        block: crate::pipeline::fit::pass_block(),
        first: std::sync::Mutex::new(None),
    }
}

#[derive(Debug, Default)]
struct Tally {
    /// An input could not be read, or a group fitted.
    failed: bool,
    groups: usize,
    fitted: usize,
    departing: usize,
}

/// The PGN files of `paths` (case folders skipped, unreadable paths said
/// and counted as failures).
fn pgn_files(paths: &[PathBuf], tally: &mut Tally) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for input in crate::pipeline::expand_inputs(paths) {
        match input {
            Ok(crate::pipeline::Input::Pgn(p)) => files.push(p),
            Ok(crate::pipeline::Input::Case(dir)) => {
                notice!(
                    "arbiter rules fit: {}: a case folder is one game with its logs, not an archive; skipped",
                    dir.display()
                );
            }
            Err((p, e)) => {
                notice!("arbiter rules fit: {}: {e}", p.display());
                tally.failed = true;
            }
        }
    }
    files
}

/// What every group of a run is fitted with.
struct Fitting<'a> {
    rs: &'a crate::rules::analysis::Ruleset,
    variant: Option<&'a str>,
    detectors: &'a crate::rules::eval::Detectors,
    json: bool,
}

impl Fitting<'_> {
    /// Fit `groups` in parallel and report each in their order.
    fn fit(
        &self,
        groups: &[(String, Vec<&crate::rules::fit::Game>)],
        bar: &indicatif::ProgressBar,
        tally: &mut Tally,
        out: &mut dyn Write,
    ) -> Result<(), RulesFitError> {
        use rayon::prelude::*;
        let points = std::sync::atomic::AtomicUsize::new(0);
        let fits: Vec<_> = groups
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
                let r = crate::rules::fit::fit_group_with(
                    self.rs,
                    key,
                    list,
                    self.variant,
                    self.detectors,
                    &tick,
                    true,
                );
                (r, started.elapsed())
            })
            .collect();
        for ((key, _), (fitted, took)) in groups.iter().zip(fits) {
            self.report(key, fitted, took, bar, tally, out)?;
        }
        Ok(())
    }

    /// Fit the group `blocks` reads, a block at a time, and report it.
    fn fit_blocks(
        &self,
        blocks: &crate::pipeline::fit::FileBlocks,
        bar: &indicatif::ProgressBar,
        tally: &mut Tally,
        out: &mut dyn Write,
    ) -> Result<(), RulesFitError> {
        let started = std::time::Instant::now();
        let tick = |n: usize| bar.set_message(n.to_string());
        let fitted = crate::rules::fit::fit_blocks(
            self.rs,
            &blocks.group,
            blocks,
            self.variant,
            self.detectors,
            &tick,
            true,
        );
        self.report(&blocks.group, fitted, started.elapsed(), bar, tally, out)
    }

    /// Report the fit of group `key`, or why it could not be made.
    fn report(
        &self,
        key: &str,
        fitted: Result<crate::rules::fit::GroupFit, crate::rules::fit::FitError>,
        took: std::time::Duration,
        bar: &indicatif::ProgressBar,
        tally: &mut Tally,
        out: &mut dyn Write,
    ) -> Result<(), RulesFitError> {
        tally.groups += 1;
        match fitted {
            Ok(f) => {
                tally.fitted += 1;
                tally.departing += usize::from(f.departs());
                let text = if self.json {
                    serde_json::to_string(&f).map_err(RulesFitError::Json)?
                } else {
                    crate::report::fit::text(&f, took)
                };
                bar.suspend(|| writeln!(out, "{text}"))
                    .map_err(RulesFitError::Output)?;
            }
            Err(e) => {
                bar.suspend(|| notice!("arbiter rules fit: {key}: {e}"));
                tally.failed = true;
            }
        }
        Ok(())
    }
}

//! The audit of the paths a command names: every game of every input,
//! a case folder under its own ruleset and logs, each game handed on as it
//! is audited. A file that cannot be read is said on standard error,
//! recorded, and the next is read.

use std::io;
use std::path::{Path, PathBuf};

use super::config::{Config, machine_threads};
use super::file::audit_file;
use super::fit::{ReadFile, read_and_fit};
use super::game::{GameAudit, audit_game, audit_replayed};
use super::inputs::{Case, Input, expand_inputs};
use super::record::{InputSummary, add_hashed, hashed_files, syzygy_entry};
use crate::findings::Totals;
use crate::ingest::pgn::parse_game;

/// What the audit of a list of paths gives besides its games: the totals,
/// each input read (path, SHA-256, size, games), the inputs that could not
/// be read and why, and the other files judged with (logs, rulesets, the
/// similarity report, the Syzygy folder's listing), each once.
#[derive(Debug, Default)]
pub struct AuditRun {
    pub totals: Totals,
    pub inputs: Vec<InputSummary>,
    pub unreadable: Vec<(String, String)>,
    pub hashed: Vec<serde_json::Value>,
}

/// The configuration PGN file `path` is judged under where it is not the
/// run's: under a folder of rulesets, the one its first game chooses
/// (`crate::pipeline::shelf`). A file no ruleset claims is said and
/// recorded as not checked, and audited without one.
fn chosen(path: &Path, cfg: &Config, run: &mut AuditRun) -> io::Result<Option<Config>> {
    use super::shelf::Chosen;
    Ok(match cfg.for_file(path)? {
        None | Some(Chosen::Empty) => None,
        Some(Chosen::Claimed(c)) => Some(*c),
        Some(Chosen::Unclaimed(c, why)) => {
            let shown = crate::base::decode::shown(path);
            notice!("arbiter: {shown}: {why}");
            run.unreadable.push((shown, why));
            Some(*c)
        }
    })
}

/// Audit every game of `paths` under `cfg` (a case folder under its own),
/// calling `on_game` for each in order. An error of `on_game` that is a
/// closed pipe stops the run and is returned; any other stops the file and
/// is recorded as that file's.
pub fn audit_paths(
    paths: &[PathBuf],
    cfg: &Config,
    on_game: &mut dyn FnMut(&GameAudit) -> io::Result<()>,
) -> Result<AuditRun, io::Error> {
    let mut run = AuditRun::default();
    // the Syzygy folder is listed once, not once per input
    let syzygy = syzygy_entry(cfg.invocation.as_ref());
    let inputs = expand_inputs(paths);
    let bar = crate::pipeline::progress::bar(
        inputs.len() as u64,
        "{bar:40} {pos}/{len} files {msg}",
        cfg.progress && inputs.len() > BAR_FROM,
    );
    // which of the run's own logs some game joined (a case folder's logs
    // are its game's)
    let mut joined = Joined {
        engine: vec![false; cfg.engine_logs.len()],
        operator: vec![false; cfg.operator_logs.len()],
        stdout: cfg
            .manager_stdout
            .iter()
            .map(|s| vec![false; s.out.games.len()])
            .collect(),
    };
    for input in inputs {
        bar.inc(1);
        let (path, file_cfg, case) = match input {
            // under a folder of rulesets, the file's own choice
            Ok(Input::Pgn(p)) => match chosen(&p, cfg, &mut run) {
                Ok(c) => (p, c, false),
                Err(e) => {
                    let shown = crate::base::decode::shown(&p);
                    bar.suspend(|| notice!("arbiter: {shown}: {e}"));
                    run.unreadable.push((shown, e.to_string()));
                    continue;
                }
            },
            Ok(Input::Case(dir)) => {
                match Case::read(&dir)
                    .and_then(|c| Ok((c.game.clone(), c.config(cfg, machine_threads())?)))
                {
                    Ok((game, c)) => (game, Some(c), true),
                    Err(e) => {
                        bar.suspend(|| notice!("{}", e.said()));
                        run.unreadable
                            .push((dir.display().to_string(), e.to_string()));
                        continue;
                    }
                }
            }
            Err((p, e)) => {
                bar.suspend(|| notice!("arbiter: {}: {e}", p.display()));
                run.unreadable
                    .push((p.display().to_string(), e.to_string()));
                continue;
            }
        };
        let this = file_cfg.as_ref().unwrap_or(cfg);
        add_hashed(&mut run.hashed, hashed_files(this, syzygy.as_ref()));
        let totals = &mut run.totals;
        let shown = crate::base::decode::shown(&path);
        bar.set_message(crate::base::diagnostic::for_terminal(&shown));
        let own_logs = !case;
        let joined = &mut joined;
        let mut each = |g: GameAudit| {
            g.count_into(totals);
            if own_logs {
                joined.mark(&g.game, cfg);
            }
            // the bar is lifted while a game's lines are written
            bar.suspend(|| on_game(&g))
        };
        // under --fit a PGN file is read once, fitted, and its games
        // judged under the fit; a case folder is judged under its own
        let result = if cfg.fit && !case {
            audit_fitted(&path, this, &bar, &mut each)
        } else {
            audit_file(&path, this, each)
        };
        match result {
            Ok(summary) => run.inputs.push(summary),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Err(e),
            Err(e) => {
                bar.suspend(|| notice!("arbiter: {shown}: {e}"));
                run.unreadable.push((shown, e.to_string()));
            }
        }
    }
    bar.finish_and_clear();
    // a log no game joined was not checked against anything
    for (path, e) in joined.not_joined(cfg) {
        notice!("arbiter: {path}: {e}");
        run.unreadable.push((path, e));
    }
    // tables that could not be read: the run did not check everything
    for (p, e) in cfg.detectors.unreadable_tables() {
        notice!("arbiter: {p}: {e}");
        run.unreadable.push((p, e));
    }
    Ok(run)
}

/// Audit the PGN file `path` under `--fit`: read, hashed and replayed once
/// ([`read_and_fit`]), its games judged in parallel under its fit, each
/// handed to `on_game` in the file's order; a file of more than a block,
/// fitted a block at a time, is read again and its games judged as they
/// stream by. A file whose reading stopped
/// has the games before the stop judged under the text's values, and the
/// error returned.
fn audit_fitted(
    path: &Path,
    cfg: &Config,
    bar: &indicatif::ProgressBar,
    on_game: &mut dyn FnMut(GameAudit) -> io::Result<()>,
) -> Result<InputSummary, io::Error> {
    use rayon::prelude::*;
    let shown = crate::base::decode::shown(path);
    match read_and_fit(path, cfg, &mut |_| {}, bar)? {
        ReadFile::Fitted {
            games,
            fit,
            summary,
            ..
        } => {
            let audited: Vec<GameAudit> = games
                .into_par_iter()
                .map(|g| audit_replayed(&shown, g.pgn, g.replay, fit.as_deref(), cfg))
                .collect();
            for g in audited {
                on_game(g)?;
            }
            Ok(summary)
        }
        ReadFile::Passes { fit } => {
            super::file::audit_file_under(path, cfg, fit.as_deref(), on_game)
        }
        ReadFile::Broken { chunks, error, .. } => {
            for chunk in chunks {
                let game = parse_game(&chunk);
                drop(chunk);
                on_game(audit_game(&shown, game, cfg))?;
            }
            Err(error)
        }
    }
}

/// An audit of more inputs than this draws a progress bar (on a terminal).
pub const BAR_FROM: usize = 3;

/// Why game `n` of a file (`path`, as shown) could not be audited.
#[derive(Debug, thiserror::Error)]
pub enum NthGameError {
    #[error("{path}: {source}")]
    Io { path: String, source: io::Error },
    /// The file has `count` games, fewer than `n`.
    #[error("{path}: has {count} game(s); there is no game {n}")]
    NoSuchGame {
        path: String,
        count: usize,
        n: usize,
    },
}

/// Game `n` (1 = the first) of `file`, audited under `cfg`; reading stops
/// after it.
pub fn nth_game(file: &Path, n: usize, cfg: &Config) -> Result<GameAudit, NthGameError> {
    let mut found: Option<GameAudit> = None;
    let mut count = 0usize;
    let result = audit_file(file, cfg, |g| {
        count += 1;
        if count == n {
            found = Some(g);
            // stop reading: nothing after this game is needed
            return Err(io::Error::other(StopReading));
        }
        Ok(())
    });
    match result {
        Ok(_) => {}
        Err(e) if e.get_ref().is_some_and(|r| r.is::<StopReading>()) => {}
        Err(source) => {
            return Err(NthGameError::Io {
                path: file.display().to_string(),
                source,
            });
        }
    }
    found.ok_or_else(|| NthGameError::NoSuchGame {
        path: file.display().to_string(),
        count,
        n,
    })
}

/// The error that stops [`nth_game`]'s reading once it has its game.
#[derive(Debug, thiserror::Error)]
#[error("stop reading")]
struct StopReading;

/// Which of a run's engine and operator logs a game joined.
struct Joined {
    engine: Vec<bool>,
    operator: Vec<bool>,
    /// Per manager output, which of its games some game joined.
    stdout: Vec<Vec<bool>>,
}

impl Joined {
    fn mark(&mut self, game: &crate::ingest::pgn::PgnGame, cfg: &Config) {
        use super::game::joins;
        for (seen, l) in self.engine.iter_mut().zip(&cfg.engine_logs) {
            *seen |= super::match_log::log_joins(game, l);
        }
        for (seen, l) in self.operator.iter_mut().zip(&cfg.operator_logs) {
            *seen |= joins(game, l.round.as_deref());
        }
        for (seen, s) in self.stdout.iter_mut().zip(&cfg.manager_stdout) {
            for (j, seg) in seen.iter_mut().zip(&s.out.games) {
                *j |= super::manager_stdout::joins(game, seg, s);
            }
        }
    }

    /// The logs no game joined, each with what is said of it: the round a
    /// log names (a log that names none joins the first game of any file,
    /// so it is never here), or the game of a match-long log; and each
    /// match-long log's engine traffic outside every game.
    fn not_joined(&self, cfg: &Config) -> Vec<(String, String)> {
        use super::match_log::{match_files, not_joined_message, stray_message};
        let round = |r: Option<&String>| {
            r.map(|r| {
                format!(
                    "joined no game: it names round {r}, and no game audited has that Round tag"
                )
            })
        };
        let engine = self
            .engine
            .iter()
            .zip(&cfg.engine_logs)
            .filter(|(j, _)| !**j)
            .map(|(_, l)| {
                let said = match &l.part {
                    Some(p) => Some(not_joined_message(&p.segment, p.file.paired)),
                    None => round(l.log.meta.get("round")),
                };
                (l.path.clone(), said)
            });
        let operator = self
            .operator
            .iter()
            .zip(&cfg.operator_logs)
            .filter(|(j, _)| !**j)
            .map(|(_, l)| (l.path.clone(), round(l.round.as_ref())));
        let stray = match_files(&cfg.engine_logs)
            .into_iter()
            .filter_map(|(p, f)| {
                let (span, n) = f.stray?;
                Some((p.to_string(), Some(stray_message(span.line, n))))
            })
            .collect::<Vec<_>>();
        let stdout = self
            .stdout
            .iter()
            .zip(&cfg.manager_stdout)
            .flat_map(|(j, s)| {
                super::manager_stdout::run_messages(s, j)
                    .into_iter()
                    .map(|m| (s.path.clone(), Some(m)))
            });
        engine
            .chain(operator)
            .chain(stray)
            .chain(stdout)
            .filter_map(|(p, r)| Some((p, r?)))
            .collect()
    }
}

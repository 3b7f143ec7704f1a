//! `arbiter batch`: every game of every file, in parallel, aggregated into
//! tables (polars) written as CSV and Parquet, with a Markdown and HTML
//! summary.
//!
//! One reader thread splits the files into games and hands them, through a
//! bounded queue (memory stays flat), to rayon's workers, which audit each
//! game and keep a compact record of it. The records are put back in input
//! order before anything is written, so the output does not depend on the
//! number of threads. A game that cannot be read is a finding of its own;
//! a file that cannot be read is reported and the others go on. `--shard
//! K/N` audits every N-th game (the K-th of each N), so that N machines can
//! share an archive. A case folder is audited with its own ruleset and logs,
//! as `arbiter audit` does.

use std::path::PathBuf;

use rayon::prelude::*;

use crate::base::interner::Interner;
use crate::findings::Finding;
use crate::ingest::pgn::parse_game;
use crate::pipeline::{self, Config};

mod error;
mod events;
mod reader;
mod record;
pub mod shard;

pub use error::BatchError;
use events::events;
use reader::{Item, PARCELS, Parcel};
use record::record;
pub use record::{GameRecord, Shared};

/// What to run.
#[derive(Debug, Clone)]
pub struct BatchConfig {
    pub paths: Vec<PathBuf>,
    pub audit: Config,
    pub out: PathBuf,
    /// (k, n): audit the games whose number (over all inputs, from 0) is
    /// k − 1 modulo n.
    pub shard: Option<(u64, u64)>,
    pub threads: usize,
    pub progress: bool,
    /// Each game's line in `audit.jsonl`, made on the worker that audited
    /// it (the report's writer: `crate::report::json::game_line`).
    pub line: fn(&pipeline::GameAudit) -> String,
}

/// One event of the batch: its standings and what its event-level rules
/// found.
#[derive(Debug, Clone)]
pub struct EventOutcome {
    /// The event's case file, its games, sides and items dropped once the
    /// rules have run (`games` keeps their number).
    pub case: crate::facts::event::EventCase,
    pub games: usize,
    pub variant: Option<String>,
    /// `(who, finding)`: the entrant, pair or game the finding is about.
    pub findings: Vec<(String, Finding)>,
    pub indeterminate: Vec<crate::rules::eval::Indeterminate>,
    /// Why the event-level rules were not run, when they were not.
    pub skipped: Option<String>,
}

/// The batch's result.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub games: Vec<GameRecord>,
    pub inputs: Vec<pipeline::InputSummary>,
    pub unreadable: Vec<(String, String)>,
    /// The events of the games audited under the batch's ruleset, in order.
    pub events: Vec<EventOutcome>,
    /// The other files judged with, hashed ([`pipeline::hashed_files`]): the
    /// ruleset, logs and similarity report of the batch and of each case
    /// folder, and the Syzygy folder's listing.
    pub hashed: Vec<serde_json::Value>,
    /// Under `--fit`: each file's fit, by its path as shown (a file that
    /// could not be fitted has none).
    pub fitted: std::collections::BTreeMap<String, crate::rules::fit::FileFit>,
    /// How many of `unreadable`, from its start, are inputs that could not
    /// be read (the rest are tables).
    pub read_errors: usize,
    /// Under `--shard`: each game's header for the event-level rules,
    /// beside its record (`None` for a case folder's game), kept for
    /// `arbiter merge` ([`shard`]). Empty otherwise.
    pub headers: Vec<Option<crate::facts::event::GameInfo>>,
}

impl Outcome {
    pub fn violations(&self) -> usize {
        self.games
            .iter()
            .flat_map(|g| &g.findings)
            .chain(
                self.events
                    .iter()
                    .flat_map(|e| e.findings.iter().map(|(_, f)| f)),
            )
            .filter(|f| f.severity.is_violation())
            .count()
    }
}

/// Audit every game of every input. Each game's JSON line is written to
/// `lines` (named `lines_name` in an error) in input order as soon as the
/// games before it are done, so the lines are not kept: the games finish
/// out of order on the threads, and only those ahead of the next one due
/// wait, in a window no wider than what is in flight. The records come
/// back in input order too.
pub fn run(
    cfg: &BatchConfig,
    lines: &mut dyn std::io::Write,
    lines_name: &str,
) -> Result<Outcome, BatchError> {
    let Inputs {
        inputs,
        configs,
        cases,
        unreadable: unreadable_inputs,
    } = inputs_of(cfg);
    let hashed = hashed(cfg, &configs);
    let bar = progress_bar(cfg, &inputs);
    // the threads are named, so that `top -H` and `bench/threads.sh` tell
    // them apart (Linux keeps 15 bytes of a name)
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads.max(1))
        .thread_name(|i| format!("arbiter-audit{i}"))
        .build()
        .map_err(BatchError::Pool)?;
    let (tx, rx) = std::sync::mpsc::sync_channel::<Parcel>(PARCELS);
    // under --fit each PGN file is fitted as it is read, and its games
    // come read and replayed (a case folder's game is judged under its own)
    let fitting = cfg.audit.fit.then(|| reader::Fitting {
        cfg: cfg.audit.clone(),
        own: (configs.iter().zip(&cases))
            .map(|(c, &case)| c.clone().filter(|_| !case))
            .collect(),
        fitted: cases.iter().map(|&case| !case).collect(),
        threads: cfg.threads,
    });
    let reader = reader::spawn(inputs.clone(), cfg.shard, fitting, bar.clone(), tx)?;
    let shown: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
    let (games, infos, write_error) =
        audit_in_order(cfg, &pool, rx, &shown, &configs, &cases, lines);
    if let Some(e) = write_error {
        return Err(BatchError::Write {
            name: lines_name.to_string(),
            source: e,
        });
    }
    let (mut inputs, mut unreadable, fitted) =
        reader.join().map_err(|_| BatchError::ReaderFailed)?;
    // under a folder of rulesets: each file's, by its path as shown
    let chosen = chosen_rulesets(&shown, &configs, &mut inputs);
    unreadable.splice(0..0, unreadable_inputs);
    let read_errors = unreadable.len();
    // tables that could not be read: the run did not check everything
    unreadable.extend(cfg.audit.detectors.unreadable_tables());
    bar.finish_and_clear();
    // a shard keeps its games' headers for the merge
    let headers = match cfg.shard {
        Some(_) => shard::headers(infos.clone(), games.len()),
        None => Vec::new(),
    };
    let events = events(infos, cfg, &chosen);
    Ok(Outcome {
        games,
        inputs,
        unreadable,
        events,
        hashed,
        fitted,
        read_errors,
        headers,
    })
}

/// Each file's ruleset under a folder of rulesets, by its path as shown,
/// from the inputs' configurations (`shown[i]` is `configs[i]`'s file);
/// the inputs' summaries are given theirs.
fn chosen_rulesets(
    shown: &[String],
    configs: &[Option<Config>],
    inputs: &mut [pipeline::InputSummary],
) -> std::collections::HashMap<String, std::sync::Arc<crate::rules::analysis::Ruleset>> {
    let mut chosen = std::collections::HashMap::new();
    for (s, c) in shown.iter().zip(configs) {
        if let Some(c) = c.as_ref().filter(|c| c.chosen.is_some()) {
            chosen.insert(s.clone(), c);
        }
    }
    for i in inputs {
        i.ruleset = chosen.get(&i.path).and_then(|c| c.chosen.clone());
    }
    (chosen.into_iter())
        .filter_map(|(s, c)| Some((s, c.ruleset.clone()?)))
        .collect()
}

/// The files to read, in order, each with its own configuration where it is
/// a case folder's game (its own ruleset and logs) or under a folder of
/// rulesets (the one it chose), and the inputs that could not be read.
struct Inputs {
    inputs: Vec<PathBuf>,
    configs: Vec<Option<Config>>,
    /// Whether each is a case folder's game.
    cases: Vec<bool>,
    unreadable: Vec<(String, String)>,
}

/// The batch's inputs: [`Inputs`].
fn inputs_of(cfg: &BatchConfig) -> Inputs {
    use pipeline::shelf::Chosen;
    let mut unreadable_inputs: Vec<(String, String)> = Vec::new();
    let mut inputs: Vec<PathBuf> = Vec::new();
    // a case folder brings its own ruleset and logs
    let mut configs: Vec<Option<Config>> = Vec::new();
    let mut cases = Vec::new();
    for i in pipeline::expand_inputs(&cfg.paths) {
        match i {
            Ok(pipeline::Input::Pgn(p)) => {
                let own = match cfg.audit.for_file(&p) {
                    Ok(None | Some(Chosen::Empty)) => None,
                    Ok(Some(Chosen::Claimed(c))) => Some(*c),
                    Ok(Some(Chosen::Unclaimed(c, why))) => {
                        unreadable_inputs.push((crate::base::decode::shown(&p), why));
                        Some(*c)
                    }
                    Err(e) => {
                        unreadable_inputs.push((crate::base::decode::shown(&p), e.to_string()));
                        continue;
                    }
                };
                inputs.push(p);
                configs.push(own);
                cases.push(false);
            }
            Ok(pipeline::Input::Case(d)) => {
                match pipeline::Case::read(&d)
                    .and_then(|c| Ok((c.game.clone(), c.config(&cfg.audit, cfg.threads)?)))
                {
                    Ok((game, c)) => {
                        inputs.push(game);
                        configs.push(Some(c));
                        cases.push(true);
                    }
                    Err(e) => unreadable_inputs.push((d.display().to_string(), e.to_string())),
                }
            }
            Err((p, e)) => unreadable_inputs.push((p.display().to_string(), e.to_string())),
        }
    }
    Inputs {
        inputs,
        configs,
        cases,
        unreadable: unreadable_inputs,
    }
}

/// The other files judged with: the batch's and each case folder's, and the
/// Syzygy folder's listing, each once.
fn hashed(cfg: &BatchConfig, configs: &[Option<Config>]) -> Vec<serde_json::Value> {
    let syzygy = pipeline::syzygy_entry(cfg.audit.invocation.as_ref());
    let mut hashed = Vec::new();
    pipeline::add_hashed(
        &mut hashed,
        pipeline::hashed_files(&cfg.audit, syzygy.as_ref()),
    );
    for c in configs.iter().flatten() {
        pipeline::add_hashed(&mut hashed, pipeline::hashed_files(c, syzygy.as_ref()));
    }
    hashed
}

/// The progress bar over the inputs' bytes: drawn when asked for, hidden
/// otherwise.
fn progress_bar(cfg: &BatchConfig, inputs: &[PathBuf]) -> indicatif::ProgressBar {
    let total: u64 = inputs
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok().map(|m| m.len()))
        .sum();
    let bar = if cfg.progress {
        indicatif::ProgressBar::new(total)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// A game done: its record, its header when it is part of an event, its
/// JSON line.
type Done = (GameRecord, Option<crate::facts::event::GameInfo>, String);

/// The games of the parcels `rx` brings, audited on `pool`'s threads and
/// put back in input order: each line written to `lines` once the games
/// before it are, the records kept in order, the headers of the games in
/// an event grouped by event. The first error writing the lines stops
/// them (the audit goes on) and is returned.
fn audit_in_order(
    cfg: &BatchConfig,
    pool: &rayon::ThreadPool,
    rx: std::sync::mpsc::Receiver<Parcel>,
    shown: &[String],
    configs: &[Option<Config>],
    cases: &[bool],
    lines: &mut dyn std::io::Write,
) -> (
    Vec<GameRecord>,
    crate::facts::event::Grouped,
    Option<std::io::Error>,
) {
    let (done_tx, done_rx) = std::sync::mpsc::channel::<Vec<(u64, Done)>>();
    let texts = std::sync::Mutex::new(Interner::<Shared>::default());
    // the games, in input order, and the headers of those in an event, by
    // event
    let mut games: Vec<GameRecord> = Vec::new();
    let mut infos = crate::facts::event::Grouped::default();
    let mut write_error: Option<std::io::Error> = None;
    std::thread::scope(|scope| {
        let workers = scope.spawn(|| {
            pool.install(|| {
                rx.into_iter()
                    .par_bridge()
                    .for_each_with(done_tx, |done, parcel| {
                        let finished: Vec<(u64, Done)> = parcel
                            .into_iter()
                            .map(|(seq, fi, item)| {
                                let config = configs[fi].as_ref().unwrap_or(&cfg.audit);
                                let audited = match item {
                                    Item::Text(chunk, None) => {
                                        let game = parse_game(&chunk);
                                        drop(chunk);
                                        pipeline::audit_game(&shown[fi], game, config)
                                    }
                                    Item::Text(chunk, Some(fit)) => {
                                        let game = parse_game(&chunk);
                                        drop(chunk);
                                        let replay = crate::replay::replay(&game);
                                        pipeline::audit_replayed(
                                            &shown[fi],
                                            game,
                                            replay,
                                            Some(&fit),
                                            config,
                                        )
                                    }
                                    Item::Replayed(g, fit) => pipeline::audit_replayed(
                                        &shown[fi],
                                        g.pgn,
                                        g.replay,
                                        fit.as_deref(),
                                        config,
                                    ),
                                };
                                let done_game =
                                    record(&shown[fi], fi, audited, !cases[fi], &texts, cfg.line);
                                (seq, done_game)
                            })
                            .collect();
                        // the receiver outlives the workers
                        let _ = done.send(finished);
                    })
            })
        });
        // restore input order, writing each line once the games before it
        // are written
        let mut waiting: std::collections::BTreeMap<u64, Done> = std::collections::BTreeMap::new();
        let mut next: u64 = 0;
        for (seq, done_game) in done_rx.into_iter().flatten() {
            waiting.insert(seq, done_game);
            while let Some((rec, info, line)) = waiting.remove(&next) {
                if write_error.is_none()
                    && let Err(e) = lines
                        .write_all(line.as_bytes())
                        .and_then(|()| lines.write_all(b"\n"))
                {
                    write_error = Some(e);
                }
                // What is kept to the end is copied here, on this thread,
                // and the worker's own copy freed: the workers' memory then
                // holds only what one game needs while it is audited, and
                // is used again game after game.
                if let Some(i) = info {
                    let mut i = i.clone();
                    // its place among all the games
                    i.order = games.len();
                    infos.add(i);
                }
                games.push(rec.clone());
                next += 1;
            }
        }
        let _ = workers.join();
    });
    (games, infos, write_error)
}

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

use std::io::BufReader;
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;

use crate::base::digest::HashingReader;
use crate::base::interner::Interner;
use crate::findings::Finding;
use crate::ingest::pgn::{GameSplitter, parse_game};
use crate::pipeline::{self, Config};

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

/// A text shared by every record that has it, read as a `str`. One
/// pointer wide: an `Arc<str>` is two, and a record holds ten texts, kept
/// for every game of the batch to its end.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Shared(Arc<String>);

impl std::ops::Deref for Shared {
    type Target = str;
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl std::borrow::Borrow<str> for Shared {
    fn borrow(&self) -> &str {
        self.0.as_str()
    }
}

impl std::fmt::Display for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}

impl From<&str> for Shared {
    fn from(s: &str) -> Shared {
        Shared(Arc::new(s.to_string()))
    }
}

/// What the batch keeps of one game. Its texts are shared with every
/// other record that has the same (`Interner`): an archive repeats its
/// file, event, players, results and terminations from game to game, so a
/// record costs little more than its numbers and findings.
#[derive(Debug, Clone)]
pub struct GameRecord {
    pub file: Shared,
    pub file_index: usize,
    pub game: usize,
    /// The tags, trimmed (empty when absent).
    pub event: Shared,
    pub round: Shared,
    pub white: Shared,
    pub black: Shared,
    pub result: Shared,
    pub plies: usize,
    /// The TerminationDetails tag.
    pub details: Shared,
    pub computed_rule: Shared,
    pub computed_result: Shared,
    pub computed_ply: Option<u32>,
    pub findings: Vec<Finding>,
    /// The replay stopped before the end of the record.
    pub incomplete: bool,
    /// The line the game starts on in its file.
    pub line: u64,
    /// Part of an event (not a case folder's game, a scenario with its own
    /// ruleset): its header went to the event-level rules.
    pub in_event: bool,
}

impl GameRecord {
    /// The game as the standings see it.
    pub fn standing(&self) -> crate::facts::standings::Game {
        crate::facts::standings::Game::from_tags(|k| match k {
            "Event" => &self.event,
            "Round" => &self.round,
            "White" => &self.white,
            "Black" => &self.black,
            "Result" => &self.result,
            "TerminationDetails" => &self.details,
            _ => "",
        })
    }
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

/// What the batch keeps of a game: its record (its texts shared through
/// `texts`), its header for the event-level rules when it is part of an
/// event, and its JSON line as `audit --format json` writes it.
fn record(
    file: &str,
    file_index: usize,
    g: pipeline::GameAudit,
    in_event: bool,
    texts: &std::sync::Mutex<Interner<Shared>>,
    line: fn(&pipeline::GameAudit) -> String,
) -> (GameRecord, Option<crate::facts::event::GameInfo>, String) {
    let tag = |k: &str| g.game.tag(k).unwrap_or("").trim();
    let computed = g.judgement.as_ref().and_then(|j| j.computed.as_ref());
    let json = line(&g);
    let [
        file,
        event,
        round,
        white,
        black,
        result,
        details,
        computed_rule,
        computed_result,
    ] = {
        // a worker that panicked while holding the lock left it whole
        let mut t = texts.lock().unwrap_or_else(|e| e.into_inner());
        [
            file,
            tag("Event"),
            tag("Round"),
            tag("White"),
            tag("Black"),
            tag("Result"),
            tag("TerminationDetails"),
            computed.map_or("", |c| c.rule.as_str()),
            computed.map_or("", |c| c.result.as_str()),
        ]
        .map(|s| t.get(s))
    };
    let record = GameRecord {
        incomplete: g.replay.stop.is_some(),
        file,
        file_index,
        game: g.game.index + 1,
        event,
        round,
        white,
        black,
        result,
        plies: g.replay.plies.len(),
        details,
        computed_rule,
        computed_result,
        computed_ply: computed.map(|c| c.ply),
        line: g.game.line,
        in_event,
        findings: g.findings,
    };
    let info = in_event.then(|| crate::facts::event::GameInfo::from_game(&record.file, 0, &g.game));
    (record, info, json)
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
) -> Result<Outcome, String> {
    let mut unreadable_inputs: Vec<(String, String)> = Vec::new();
    let mut inputs: Vec<PathBuf> = Vec::new();
    // a case folder brings its own ruleset and logs
    let mut configs: Vec<Option<Config>> = Vec::new();
    for i in pipeline::expand_inputs(&cfg.paths) {
        match i {
            Ok(pipeline::Input::Pgn(p)) => {
                inputs.push(p);
                configs.push(None);
            }
            Ok(pipeline::Input::Case(d)) => {
                match pipeline::Case::read(&d)
                    .and_then(|c| Ok((c.game.clone(), c.config(&cfg.audit, cfg.threads)?)))
                {
                    Ok((game, c)) => {
                        inputs.push(game);
                        configs.push(Some(c));
                    }
                    Err(e) => unreadable_inputs.push((d.display().to_string(), e)),
                }
            }
            Err((p, e)) => unreadable_inputs.push((p.display().to_string(), e.to_string())),
        }
    }
    let syzygy = pipeline::syzygy_entry(cfg.audit.invocation.as_ref());
    let mut hashed = Vec::new();
    pipeline::add_hashed(
        &mut hashed,
        pipeline::hashed_files(&cfg.audit, syzygy.as_ref()),
    );
    for c in configs.iter().flatten() {
        pipeline::add_hashed(&mut hashed, pipeline::hashed_files(c, syzygy.as_ref()));
    }
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
    // the threads are named, so that `top -H` and `bench/threads.sh` tell
    // them apart (Linux keeps 15 bytes of a name)
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads.max(1))
        .thread_name(|i| format!("arbiter-audit{i}"))
        .build()
        .map_err(|e| e.to_string())?;
    // Games travel in parcels of at least PARCEL_BYTES (the last one of the
    // run may be smaller): a hand-over per game woke a sleeping thread for
    // each game, about 7% of the time without a ruleset. At most PARCELS
    // wait, so memory stays bounded.
    const PARCELS: usize = 8;
    type Parcel = Vec<(u64, usize, crate::ingest::pgn::GameChunk)>;
    let (tx, rx) = std::sync::mpsc::sync_channel::<Parcel>(PARCELS);
    let shard = cfg.shard;
    let reader_inputs = inputs.clone();
    let reader_bar = bar.clone();
    let reader = std::thread::Builder::new()
        .name("arbiter-reader".into())
        .spawn(move || {
            let mut summaries = Vec::new();
            let mut unreadable = Vec::new();
            let mut n: u64 = 0;
            // the place of each game sent, in input order
            let mut sent: u64 = 0;
            let mut pending = pipeline::Parcels::default();
            for (fi, path) in reader_inputs.iter().enumerate() {
                let shown = path.display().to_string();
                let file = match std::fs::File::open(path) {
                    Ok(f) => f,
                    Err(e) => {
                        unreadable.push((shown, e.to_string()));
                        continue;
                    }
                };
                let mut splitter =
                    GameSplitter::new(BufReader::with_capacity(1 << 16, HashingReader::new(file)));
                let mut games = 0u64;
                loop {
                    match splitter.next_chunk() {
                        Ok(Some(chunk)) => {
                            games += 1;
                            reader_bar.inc(chunk.bytes.len() as u64);
                            let mine = shard.is_none_or(|(k, m)| n % m == k - 1);
                            n += 1;
                            if mine {
                                let bytes = chunk.bytes.len();
                                let full = pending.add((sent, fi, chunk), bytes);
                                sent += 1;
                                if let Some(parcel) = full
                                    && tx.send(parcel).is_err()
                                {
                                    return (summaries, unreadable);
                                }
                            }
                        }
                        Ok(None) => break,
                        Err(e) => {
                            unreadable.push((shown.clone(), e.to_string()));
                            break;
                        }
                    }
                }
                let (sha256, bytes) = splitter.into_inner().into_inner().finish();
                summaries.push(pipeline::InputSummary {
                    path: shown,
                    sha256,
                    bytes,
                    games,
                });
            }
            if let Some(parcel) = pending.rest() {
                // the workers are gone only if they failed: nothing to deliver to
                let _ = tx.send(parcel);
            }
            (summaries, unreadable)
        })
        .map_err(|e| format!("could not start the reading thread: {e}"))?;
    let shown: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
    type Done = (GameRecord, Option<crate::facts::event::GameInfo>, String);
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
                            .map(|(seq, fi, chunk)| {
                                let game = parse_game(&chunk);
                                drop(chunk);
                                let done_game = record(
                                    &shown[fi],
                                    fi,
                                    pipeline::audit_game(
                                        &shown[fi],
                                        game,
                                        configs[fi].as_ref().unwrap_or(&cfg.audit),
                                    ),
                                    configs[fi].is_none(),
                                    &texts,
                                    cfg.line,
                                );
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
    if let Some(e) = write_error {
        return Err(format!("{lines_name}: {e}"));
    }
    let (inputs, mut unreadable) = reader
        .join()
        .map_err(|_| "the reader thread failed".to_string())?;
    unreadable.splice(0..0, unreadable_inputs);
    bar.finish_and_clear();
    let events = events(infos, cfg);
    Ok(Outcome {
        games,
        inputs,
        unreadable,
        events,
        hashed,
    })
}

/// Build each event's case file from the games audited under the batch's
/// ruleset and run the ruleset's event-level rules on it (not on a shard:
/// a shard holds only part of each event).
fn events(infos: crate::facts::event::Grouped, cfg: &BatchConfig) -> Vec<EventOutcome> {
    let rs = cfg.audit.ruleset.as_ref();
    let (scoring, tiebreaks) = rs
        .map(|r| (r.scoring.clone(), r.tiebreaks.clone()))
        .unwrap_or_default();
    let detectors = crate::rules::eval::Detectors::default();
    crate::facts::event::build(infos, &scoring, &tiebreaks)
        .map(|case| {
            let mut out = EventOutcome {
                games: case.games.len(),
                variant: None,
                findings: Vec::new(),
                indeterminate: Vec::new(),
                skipped: None,
                case,
            };
            if let Err(why) = judge_event(&mut out, rs.map(|r| &**r), cfg, &detectors) {
                out.skipped = Some(why);
            }
            // the games, their sides and the items are only for the rules
            // (the findings already name what they are about): one
            // event's at a time are kept
            out.case.items = Vec::new();
            out.case.games = Vec::new();
            out.case.sides = Vec::new();
            out
        })
        .collect()
}

/// Run the event-level rules on one event; `Err` says why they were not.
fn judge_event(
    out: &mut EventOutcome,
    rs: Option<&crate::rules::analysis::Ruleset>,
    cfg: &BatchConfig,
    detectors: &crate::rules::eval::Detectors,
) -> Result<(), String> {
    let rs = rs.ok_or("no ruleset")?;
    if let Some((k, n)) = cfg.shard {
        return Err(format!(
            "shard {k}/{n} holds only part of the event; run the event-level rules on the whole archive"
        ));
    }
    let header = out.case.games[0]
        .header()
        .map_err(|e| format!("its first game's header could not be read again: {e}"))?;
    let replay = crate::replay::Replay::empty();
    let tl = crate::timeline::Timeline::build(&header, &replay);
    let prog = crate::rules::eval::Program::for_game(rs, cfg.audit.variant.as_deref(), &tl)?;
    out.variant = prog.variant.clone();
    let o = crate::rules::eval::run_event(&prog, &out.case, detectors);
    out.findings = o
        .finding_items
        .iter()
        .zip(o.findings)
        .map(|(&i, f)| (out.case.about(i), f))
        .collect();
    out.indeterminate = o.indeterminate;
    Ok(())
}

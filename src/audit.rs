//! The audit driver: runs the pipeline over input files, one game at a time.
//!
//! Each file is streamed once. Its SHA-256 is computed from the very bytes
//! that were parsed, so a report names exactly what it judged. A broken game
//! becomes findings and the next game is read; an unreadable file is
//! reported and the next file is read.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::checks::{self, Context};
use crate::findings::{Finding, Severity};
use crate::ingest::pgn::{GameChunk, GameSplitter, PgnGame, parse_game};
use crate::replay::{Replay, replay};
use crate::rules::analyzer::Ruleset;
use crate::rules::eval::Detectors;
use crate::rules::judge::{Judgement, judge};
use crate::timeline::Timeline;

/// One audited game.
#[derive(Debug)]
pub struct GameAudit {
    pub path: String,
    pub game: PgnGame,
    pub replay: Replay,
    pub findings: Vec<Finding>,
    /// The ruleset's verdict, when one was given.
    pub judgement: Option<Judgement>,
    /// Both clocks as the ruleset's time control reconstructs them (kept
    /// when the configuration asks for them).
    pub clocks: Option<GameClocks>,
}

/// The reconstructed clocks of a game and the time control they ran under.
#[derive(Debug, Clone)]
pub struct GameClocks {
    pub time_control: crate::rules::analyzer::TimeControlDef,
    pub plies: Vec<crate::clock::ClockPly>,
}

/// What an audit runs besides the built-in checks.
#[derive(Debug, Default, Clone)]
pub struct Config {
    pub ruleset: Option<std::sync::Arc<Ruleset>>,
    pub variant: Option<String>,
    pub detectors: std::sync::Arc<Detectors>,
    /// Keep every `let` value per move (for `replay --rules`).
    pub trace: bool,
    /// Operator logs, each matched to a game by its `setup round=`.
    pub operator_logs: Vec<LoadedLog>,
    /// Engine logs, each matched to a game by its `# round:` line.
    pub engine_logs: Vec<crate::align::LoadedEngineLog>,
    /// Keep each game's reconstructed clocks (for the clock chart).
    pub clocks: bool,
    /// How the audit was asked for, as given, so that `arbiter verify` can
    /// run it again.
    pub invocation: Option<Invocation>,
    /// With `--fit`: each file's fitted values, by its path as shown, and
    /// the finding that names their departures from the text.
    pub fitted: std::collections::BTreeMap<String, crate::rules::fit::FileFit>,
}

/// The inputs and options of an audit, paths as given on the command line
/// (relative to the directory it ran in).
#[derive(Debug, Default, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Invocation {
    pub paths: Vec<String>,
    pub rules: Option<String>,
    pub variant: Option<String>,
    pub syzygy: Option<String>,
    pub similarity: Option<String>,
    pub operator_logs: Vec<String>,
    pub engine_logs: Vec<String>,
    /// Set when the report is `arbiter batch`'s, not `audit`'s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<BatchInvocation>,
    /// `--fit`: each file judged under its fitted values.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fit: bool,
}

/// What `arbiter batch` adds to an invocation. The thread count is not
/// recorded: the output does not depend on it.
#[derive(Debug, Default, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BatchInvocation {
    /// `--shard K/N`, as given.
    pub shard: Option<String>,
}

/// A folder of Syzygy tables as a report records it: how many table files,
/// and the SHA-256 of their sorted `name size` listing (hashing gigabytes of
/// tables on every run would dominate it; the tables are checked against
/// the official checksums when installed).
pub fn syzygy_listing(dir: &Path) -> io::Result<(usize, String)> {
    let mut files: Vec<(String, u64)> = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".rtbw") || name.ends_with(".rtbz") {
            files.push((name, e.metadata()?.len()));
        }
    }
    files.sort();
    let listing: String = files.iter().map(|(n, l)| format!("{n} {l}\n")).collect();
    Ok((files.len(), sha256_hex(listing.as_bytes())))
}

/// The Syzygy folder of an invocation as a report records it: its path,
/// the number of tables and the SHA-256 of their listing
/// ([`syzygy_listing`]), or why it could not be listed. Listed once per run,
/// not once per input.
pub fn syzygy_entry(invocation: Option<&Invocation>) -> Option<serde_json::Value> {
    let dir = invocation?.syzygy.as_ref()?;
    Some(match syzygy_listing(Path::new(dir)) {
        Ok((n, sha)) => {
            serde_json::json!({"path": dir, "sha256": sha, "kind": "syzygy-tables", "tables": n, "hashed": "the sorted listing of table names and sizes"})
        }
        Err(e) => serde_json::json!({"path": dir, "kind": "syzygy-tables", "error": e.to_string()}),
    })
}

/// Every file other than the PGN inputs that a configuration judges with,
/// as a report records it (`path`, `sha256`, `kind`): its operator and
/// engine logs, its ruleset, its similarity report, and the Syzygy folder's
/// entry ([`syzygy_entry`]).
pub fn hashed_files(c: &Config, syzygy: Option<&serde_json::Value>) -> Vec<serde_json::Value> {
    use serde_json::json;
    let mut v: Vec<serde_json::Value> = c
        .operator_logs
        .iter()
        .map(|l| json!({"path": l.path, "sha256": l.sha256, "kind": "operator-log"}))
        .collect();
    v.extend(
        c.engine_logs
            .iter()
            .map(|l| json!({"path": l.path, "sha256": l.sha256, "kind": "engine-log"})),
    );
    if let Some(rs) = &c.ruleset {
        v.push(json!({"path": rs.path, "sha256": rs.sha256, "kind": "ruleset"}));
    }
    if let Some(s) = &c.detectors.similarity {
        v.push(json!({"path": s.path, "sha256": s.sha256, "kind": "similarity-report"}));
    }
    v.extend(syzygy.cloned());
    v
}

/// Add `entries` to `into`, each once, in the order first seen.
pub fn add_hashed(into: &mut Vec<serde_json::Value>, entries: Vec<serde_json::Value>) {
    for e in entries {
        if !into.contains(&e) {
            into.push(e);
        }
    }
}

/// The threads a run uses where it is not told: the machine's cores.
pub fn machine_threads() -> usize {
    std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get)
}

/// Run `work` on a pool of its own of `threads` threads (at least one), so
/// that what it does in parallel keeps to the number the user gave
/// (`batch --threads`), not the machine's cores.
pub fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> Result<T, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| format!("could not start {threads} threads: {e}"))?;
    Ok(pool.install(work))
}

/// Read engine log files side by side, on at most `threads` threads (this
/// one among them), each taking the next log not yet taken (a log is read
/// as it streams by, on one core; a committee's logs, one per engine, can
/// be as large as the games' archive). The logs come back in the order
/// given, and where any cannot be read, the error of the first of those in
/// that order, whichever thread finished first.
pub fn read_engine_logs(
    paths: &[PathBuf],
    threads: usize,
) -> Result<Vec<crate::align::LoadedEngineLog>, String> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    // take logs until none is left: (its place, what reading it gave)
    let take = || {
        let mut read = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(p) = paths.get(i) else {
                return read;
            };
            read.push((i, read_engine_log(p)));
        }
    };
    let mut read = std::thread::scope(|s| {
        let others: Vec<_> = (1..threads.min(paths.len()))
            .map(|_| s.spawn(take))
            .collect();
        let mut read = take();
        for o in others {
            match o.join() {
                Ok(r) => read.extend(r),
                Err(_) => {
                    return Err("arbiter: a thread reading the engine logs failed".to_string());
                }
            }
        }
        Ok(read)
    })?;
    read.sort_unstable_by_key(|&(i, _)| i);
    read.into_iter().map(|(_, r)| r).collect()
}

/// Read an engine log file as it streams by: each line is folded into its
/// engine's activities at once (see `engine::Reader`), so a log of any
/// length is read in the memory its searches take. A byte-order mark is
/// dropped and UTF-16 refused, as for operator logs (`log_text`); bytes
/// that are not UTF-8 are replaced line by line (the same replacement as
/// for the whole text: a line ending is never part of a UTF-8 sequence).
pub fn read_engine_log(path: &Path) -> Result<crate::align::LoadedEngineLog, String> {
    let shown = path.display().to_string();
    let failed = |e: io::Error| format!("arbiter: {shown}: {e}");
    let file = File::open(path).map_err(failed)?;
    let mut input = BufReader::with_capacity(1 << 16, HashingReader::new(file));
    if let Some(w) = crate::ingest::pgn::wide_encoding(input.fill_buf().map_err(failed)?) {
        return Err(wide_error(&shown, w));
    }
    let mut reader = crate::ingest::engine::Reader::default();
    let mut buf = Vec::new();
    let mut spans = crate::span::LineSpans::default();
    let mut first = true;
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf).map_err(failed)? == 0 {
            break;
        }
        let bytes = if first {
            buf.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(&buf)
        } else {
            &buf[..]
        };
        first = false;
        // `from_utf8_lossy`'s result, its own loop only where the line is
        // not UTF-8 (`str::from_utf8` checks ASCII a word at a time)
        let raw = match std::str::from_utf8(bytes) {
            Ok(text) => std::borrow::Cow::Borrowed(text),
            Err(_) => String::from_utf8_lossy(bytes),
        };
        let (span, text) = spans.next(&raw);
        reader.line(span, text);
    }
    Ok(crate::align::LoadedEngineLog {
        path: shown,
        sha256: input.into_inner().finish().0,
        log: reader.finish(),
    })
}

/// The error for a log in UTF-16 or UTF-32.
fn wide_error(shown: &str, encoding: &str) -> String {
    format!(
        "arbiter: {shown}: line 1: the file is {encoding}; logs are read as UTF-8: convert it, e.g. `iconv -f UTF-16 -t UTF-8`"
    )
}

/// An operator log read from a file.
#[derive(Debug, Clone)]
pub struct LoadedLog {
    pub path: String,
    pub sha256: String,
    pub log: crate::ingest::operator::OperatorLog,
    /// The Round it belongs to, from its setup event.
    pub round: Option<String>,
}

impl LoadedLog {
    pub fn read(path: &Path) -> Result<LoadedLog, String> {
        let shown = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| format!("arbiter: {shown}: {e}"))?;
        let text = log_text(&shown, &bytes)?;
        let mut log = crate::ingest::operator::parse(&text);
        for e in &mut log.events {
            e.source = shown.clone();
        }
        let round = log
            .events
            .iter()
            .find(|e| e.kind == crate::ingest::operator::OpKind::Setup)
            .and_then(|e| match e.fields.get("round") {
                Some(crate::ingest::operator::FieldValue::Str(s)) => Some(s.clone()),
                Some(crate::ingest::operator::FieldValue::Num(n)) => {
                    Some(crate::timeline::fmt_num(*n))
                }
                _ => None,
            });
        Ok(LoadedLog {
            path: shown,
            sha256: sha256_hex(&bytes),
            log,
            round,
        })
    }
}

/// An operator log's text: UTF-8 without a byte-order mark. UTF-16 is
/// refused with the way to convert it, and other bytes that are not UTF-8
/// with their place (the log is written by people and tools). Engine logs,
/// where an engine may print anything, are read by `read_engine_log`,
/// which replaces such bytes.
pub fn log_text(shown: &str, bytes: &[u8]) -> Result<String, String> {
    if let Some(w) = crate::ingest::pgn::wide_encoding(bytes) {
        return Err(wide_error(shown, w));
    }
    let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(t) => Ok(t.to_string()),
        Err(e) => {
            let at = e.valid_up_to();
            let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
            let column = 1 + at
                - bytes[..at]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |p| p + 1);
            Err(format!(
                "arbiter: {shown}:{line}:{column}: not UTF-8 text (byte {at}, 0x{:02X}); the log must be UTF-8",
                bytes[at]
            ))
        }
    }
}

/// Hex SHA-256 of a file, read as it streams by.
pub fn sha256_file(path: &Path) -> io::Result<String> {
    let mut input = HashingReader::new(File::open(path)?);
    io::copy(&mut input, &mut io::sink())?;
    Ok(input.finish().0)
}

/// Hex SHA-256 of bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Bytes (a digest) as lowercase hex: two digits a byte, the high half
/// first (a `format!` per byte cost more than the hash of a short text,
/// and the batch's summary hashes every game's path for its anchor).
fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

impl Config {
    /// Load a ruleset file; the error is rendered with file, line and caret.
    pub fn load_ruleset(path: &Path) -> Result<Ruleset, String> {
        let shown = path.display().to_string();
        let src = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
        crate::rules::analyzer::compile(&shown, &src).map_err(|e| e.render(&shown, &src))
    }
}

/// What was read of one input file.
#[derive(Debug, Clone, Serialize)]
pub struct InputSummary {
    pub path: String,
    pub sha256: String,
    pub bytes: u64,
    pub games: u64,
}

/// Wraps a reader, hashing and counting every byte read through it.
#[derive(Debug)]
pub struct HashingReader<R> {
    inner: R,
    hasher: Sha256,
    bytes: u64,
}

impl<R: Read> HashingReader<R> {
    pub fn new(inner: R) -> Self {
        HashingReader {
            inner,
            hasher: Sha256::new(),
            bytes: 0,
        }
    }

    /// Hex SHA-256 and byte count of everything read so far.
    pub fn finish(self) -> (String, u64) {
        (hex(&self.hasher.finalize()), self.bytes)
    }
}

impl<R: Read> Read for HashingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
}

/// Audit one game that has already been read.
pub fn audit_game(path: &str, game: PgnGame, config: &Config) -> GameAudit {
    let replay = replay(&game);
    let mut findings = checks::run_all(&Context {
        path,
        game: &game,
        replay: &replay,
    });
    // The operator logs of this game: by Round, else a log naming no round
    // joins the first game.
    let round = game.tag("Round").map(str::trim);
    let logs: Vec<&LoadedLog> = config
        .operator_logs
        .iter()
        .filter(|l| match &l.round {
            Some(r) => Some(r.trim()) == round,
            None => game.index == 0,
        })
        .collect();
    let ops: Vec<crate::ingest::operator::OpEvent> = {
        let mut v: Vec<_> = logs
            .iter()
            .flat_map(|l| l.log.events.iter().cloned())
            .collect();
        v.sort_by_key(|e| e.time);
        v
    };
    for l in &logs {
        for e in &l.log.errors {
            findings.push(
                Finding::builtin(
                    "operator-log-syntax",
                    Severity::Error,
                    "Unreadable operator-log line",
                    e.message.clone(),
                )
                .with_evidence(crate::findings::Evidence {
                    path: l.path.clone(),
                    span: Some(e.span),
                    ply: None,
                    timestamp: None,
                    note: "this line was not read".into(),
                }),
            );
        }
    }
    let engine_logs = engine_logs_of(&game, &config.engine_logs);
    let (eng_events, eng_findings) = crate::align::align(&game, &replay, &engine_logs);
    findings.extend(eng_findings);
    let tl = config
        .ruleset
        .as_ref()
        .map(|_| Timeline::with_logs(&game, &replay, &ops, &eng_events));
    let fitted = config.fitted.get(path);
    let judgement = config.ruleset.as_ref().zip(tl.as_ref()).map(|(rs, tl)| {
        match judge(
            rs,
            config.variant.as_deref(),
            fitted.map(|f| &f.overrides),
            tl,
            &config.detectors,
            path,
            config.trace,
        ) {
            Ok(j) => j,
            Err(e) => Judgement {
                variant: None,
                computed: None,
                findings: vec![Finding::builtin(
                    "ruleset-unusable",
                    Severity::Error,
                    "The ruleset could not be applied",
                    e,
                )],
                trace: Vec::new(),
            },
        }
    });
    let clocks = match (&config.ruleset, &tl) {
        (Some(rs), Some(tl)) if config.clocks => crate::rules::eval::Program::for_game_with(
            rs,
            config.variant.as_deref(),
            tl,
            &fitted.map(|f| f.overrides.clone()).unwrap_or_default(),
        )
        .ok()
        .and_then(|p| p.time_control)
        .map(|tc| GameClocks {
            time_control: tc.clone(),
            plies: crate::clock::reconstruct(tc, tl),
        }),
        _ => None,
    };
    drop(tl);
    if let Some(j) = &judgement {
        findings.extend(j.findings.iter().cloned());
    }
    // the file's fit, once, on its first game
    if let Some(f) = fitted.and_then(|f| f.finding.as_ref())
        && game.index == 0
    {
        findings.push(f.clone());
    }
    crate::findings::sort_findings(&mut findings);
    GameAudit {
        path: path.to_string(),
        game,
        replay,
        findings,
        judgement,
        clocks,
    }
}

/// The engine logs of a game: those whose `# round:` is the game's Round;
/// a log naming no round joins the first game.
pub fn engine_logs_of<'l>(
    game: &PgnGame,
    logs: &'l [crate::align::LoadedEngineLog],
) -> Vec<&'l crate::align::LoadedEngineLog> {
    let round = game.tag("Round").map(str::trim);
    logs.iter()
        .filter(|l| match l.log.meta.get("round") {
            Some(r) => Some(r.trim()) == round,
            None => game.index == 0,
        })
        .collect()
}

/// Stream every game of a PGN file through the pipeline, calling `on_game`
/// for each. Returns the input's summary, or the I/O error that stopped the
/// read (games before it have been delivered).
///
/// The file is read, hashed and cut into games on a thread of its own, a
/// few games ahead of their audit, handed over in parcels of about
/// [`PARCEL_BYTES`] (as `batch` does), in order.
pub fn audit_file(
    path: &Path,
    config: &Config,
    mut on_game: impl FnMut(GameAudit) -> io::Result<()>,
) -> Result<InputSummary, io::Error> {
    let shown = path.display().to_string();
    let file = File::open(path)?;
    let mut splitter =
        GameSplitter::new(BufReader::with_capacity(1 << 16, HashingReader::new(file)));
    // at most two parcels wait: the memory stays that of a few games
    let (parcels, arrived) = std::sync::mpsc::sync_channel::<io::Result<Vec<GameChunk>>>(2);
    std::thread::scope(|scope| {
        let reader = scope.spawn(move || {
            let mut pending = Parcels::default();
            loop {
                match splitter.next_chunk() {
                    Ok(Some(chunk)) => {
                        let bytes = chunk.bytes.len();
                        if let Some(parcel) = pending.add(chunk, bytes)
                            && parcels.send(Ok(parcel)).is_err()
                        {
                            // the audit stopped: nothing more is read
                            return None;
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        if let Some(parcel) = pending.rest() {
                            let _ = parcels.send(Ok(parcel));
                        }
                        let _ = parcels.send(Err(e));
                        return None;
                    }
                }
            }
            if let Some(parcel) = pending.rest()
                && parcels.send(Ok(parcel)).is_err()
            {
                return None;
            }
            Some(splitter.into_inner().into_inner().finish())
        });
        let mut games = 0u64;
        for parcel in arrived {
            for chunk in parcel? {
                let game = parse_game(&chunk);
                drop(chunk);
                games += 1;
                on_game(audit_game(&shown, game, config))?;
            }
        }
        match reader.join() {
            Ok(Some((sha256, bytes))) => Ok(InputSummary {
                path: shown,
                sha256,
                bytes,
                games,
            }),
            // the reader sends its error before it stops, and it is
            // returned above; a reader that stopped otherwise panicked
            _ => Err(io::Error::other(format!(
                "{shown}: the thread reading the file stopped"
            ))),
        }
    })
}

/// How much game text the thread that reads a file hands over at once, in
/// `audit` and in `batch` (a hand-over for each game woke a sleeping
/// thread for each game).
pub(crate) const PARCEL_BYTES: usize = 256 << 10;

/// Items of game text gathered, in order, into parcels of about
/// [`PARCEL_BYTES`].
#[derive(Debug)]
pub(crate) struct Parcels<T> {
    items: Vec<T>,
    bytes: usize,
}

impl<T> Default for Parcels<T> {
    fn default() -> Self {
        Parcels {
            items: Vec::new(),
            bytes: 0,
        }
    }
}

impl<T> Parcels<T> {
    /// Add an item of `bytes` bytes of text: the parcel, once it holds
    /// [`PARCEL_BYTES`] or more.
    pub(crate) fn add(&mut self, item: T, bytes: usize) -> Option<Vec<T>> {
        self.items.push(item);
        self.bytes += bytes;
        (self.bytes >= PARCEL_BYTES).then(|| {
            self.bytes = 0;
            std::mem::take(&mut self.items)
        })
    }

    /// The items not yet handed over, if any.
    pub(crate) fn rest(&mut self) -> Option<Vec<T>> {
        self.bytes = 0;
        (!self.items.is_empty()).then(|| std::mem::take(&mut self.items))
    }
}

/// One thing to audit: a PGN file, or a case folder (a game with its logs
/// and ruleset, described by `case.json`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Input {
    Pgn(PathBuf),
    Case(PathBuf),
}

/// Expand the command line's paths: files as given, directories to their
/// `.pgn` files and case folders (recursively, sorted by path so runs are
/// reproducible).
pub fn expand_inputs(paths: &[PathBuf]) -> Vec<Result<Input, (PathBuf, io::Error)>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() && p.join("case.json").is_file() {
            out.push(Ok(Input::Case(p.clone())));
        } else if p.is_dir() {
            let mut found = Vec::new();
            if let Err(e) = walk(p, &mut found) {
                out.push(Err((p.clone(), e)));
            }
            found.sort();
            out.extend(found.into_iter().map(Ok));
        } else {
            out.push(Ok(Input::Pgn(p.clone())));
        }
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<Input>) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() && path.join("case.json").is_file() {
            out.push(Input::Case(path));
        } else if path.is_dir() {
            walk(&path, out)?;
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
        {
            out.push(Input::Pgn(path));
        }
    }
    Ok(())
}

/// A case folder: `case.json` names the game, its logs and its ruleset.
///
/// ```json
/// {"ruleset": "../../../rulesets/kasparov-deep-junior-2003.rules",
///  "game": "game.pgn", "engine_logs": ["engine.log"], "operator_logs": ["operator.log"]}
/// ```
///
/// Paths are relative to the folder. `game` defaults to `game.pgn`; without
/// `engine_logs`/`operator_logs`, the folder's `engine.log`,
/// `opponent.log` and `operator.log` are used when present.
#[derive(Debug, Clone)]
pub struct Case {
    pub dir: PathBuf,
    pub game: PathBuf,
    pub ruleset: Option<PathBuf>,
    pub variant: Option<String>,
    pub engine_logs: Vec<PathBuf>,
    pub operator_logs: Vec<PathBuf>,
}

impl Case {
    pub fn read(dir: &Path) -> Result<Case, String> {
        let path = dir.join("case.json");
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{shown}: {e}"))?;
        let v: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("{shown}: line {}: {e}", e.line()))?;
        let obj = v
            .as_object()
            .ok_or_else(|| format!("{shown}: expected a JSON object"))?;
        for k in obj.keys() {
            if ![
                "ruleset",
                "variant",
                "game",
                "engine_logs",
                "operator_logs",
                "description",
            ]
            .contains(&k.as_str())
            {
                return Err(format!(
                    "{shown}: unknown key {k:?} (known: ruleset, variant, game, engine_logs, operator_logs, description)"
                ));
            }
        }
        let s = |k: &str| -> Result<Option<String>, String> {
            match obj.get(k) {
                None => Ok(None),
                Some(serde_json::Value::String(x)) => Ok(Some(x.clone())),
                Some(_) => Err(format!("{shown}: {k:?} must be a string")),
            }
        };
        let list = |k: &str, defaults: &[&str]| -> Result<Vec<PathBuf>, String> {
            match obj.get(k) {
                None => Ok(defaults
                    .iter()
                    .map(|d| dir.join(d))
                    .filter(|p| p.is_file())
                    .collect()),
                Some(serde_json::Value::Array(a)) => a
                    .iter()
                    .map(|x| {
                        x.as_str()
                            .map(|x| dir.join(x))
                            .ok_or_else(|| format!("{shown}: {k:?} must list file names"))
                    })
                    .collect(),
                Some(_) => Err(format!("{shown}: {k:?} must be a list of file names")),
            }
        };
        Ok(Case {
            dir: dir.to_path_buf(),
            game: dir.join(s("game")?.unwrap_or_else(|| "game.pgn".into())),
            ruleset: s("ruleset")?.map(|r| normalize(&dir.join(r))),
            variant: s("variant")?,
            engine_logs: list("engine_logs", &["engine.log", "opponent.log"])?,
            operator_logs: list("operator_logs", &["operator.log"])?,
        })
    }

    /// The audit configuration for this case: the run's, with the case's
    /// ruleset and logs (read on at most `threads` threads).
    pub fn config(&self, base: &Config, threads: usize) -> Result<Config, String> {
        let mut c = base.clone();
        if let Some(r) = &self.ruleset {
            c.ruleset = Some(std::sync::Arc::new(Config::load_ruleset(r)?));
            c.variant = self.variant.clone().or(c.variant);
        }
        c.operator_logs = self
            .operator_logs
            .iter()
            .map(|p| LoadedLog::read(p))
            .collect::<Result<_, _>>()?;
        c.engine_logs = read_engine_logs(&self.engine_logs, threads)?;
        Ok(c)
    }
}

/// `a/b/../c` → `a/c`, without touching the file system, so reports name
/// files the way a reader would.
pub fn normalize(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in p.components() {
        match c {
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out.iter().map(|c| c.as_os_str()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What runs in parallel keeps to the threads it is given: a pool of
    /// one thread is one thread, and of three is three.
    #[test]
    fn work_keeps_to_the_threads_given() {
        assert_eq!(on_threads(1, rayon::current_num_threads), Ok(1));
        assert_eq!(on_threads(3, rayon::current_num_threads), Ok(3));
        assert_eq!(on_threads(0, rayon::current_num_threads), Ok(1));
    }

    /// The engine logs come back in the order given, the same on one thread
    /// as on several, and the error is the first failing log's in that
    /// order.
    #[test]
    fn engine_logs_read_alike_on_any_number_of_threads() {
        let mut paths: Vec<PathBuf> = Vec::new();
        let mut dirs = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples")];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.file_name().is_some_and(|n| n == "engine.log") {
                    paths.push(p);
                }
            }
        }
        paths.sort();
        assert!(paths.len() >= 4, "the samples hold engine logs");
        let shown = |logs: Vec<crate::align::LoadedEngineLog>| -> Vec<String> {
            logs.iter()
                .map(|l| format!("{} {} {:?}", l.path, l.sha256, l.log))
                .collect()
        };
        let one = shown(read_engine_logs(&paths, 1).unwrap());
        assert_eq!(one.len(), paths.len());
        for (l, p) in one.iter().zip(&paths) {
            assert!(l.starts_with(&p.display().to_string()));
        }
        for threads in [2, 3, 64] {
            assert_eq!(shown(read_engine_logs(&paths, threads).unwrap()), one);
        }
        let mut broken = paths.clone();
        broken.insert(2, PathBuf::from("no-such-first.log"));
        broken.push(PathBuf::from("no-such-second.log"));
        for threads in [1, 2, 64] {
            let e = read_engine_logs(&broken, threads).unwrap_err();
            assert!(e.contains("no-such-first.log"), "{e}");
        }
    }

    /// The digest in lowercase hex, the high half of each byte first: the
    /// published SHA-256 of "abc" and of nothing, and every byte value.
    #[test]
    fn digests_are_written_in_lowercase_hex() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        let every: Vec<u8> = (0..=255).collect();
        let want: String = every.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex(&every), want);
    }

    /// A file of many parcels (the reading thread hands them over about
    /// 256 KiB at a time) gives every game in order, with the hash of the
    /// whole file; an audit that stops early stops the reading too, and
    /// returns its own error.
    #[test]
    fn a_file_is_read_on_its_own_thread_every_game_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("many.pgn");
        let mut text = String::new();
        for i in 0..8000 {
            text.push_str(&format!(
                "[Event \"E\"]\n[Round \"{i}\"]\n[Result \"*\"]\n\n1. e4 {{a comment of some length to fill the parcels}} e5 2. Nf3 *\n\n"
            ));
        }
        assert!(text.len() > 3 * PARCEL_BYTES);
        std::fs::write(&path, &text).unwrap();
        let config = Config::default();
        let mut rounds = Vec::new();
        let summary = audit_file(&path, &config, |g| {
            rounds.push(g.game.tag("Round").unwrap_or("").to_string());
            Ok(())
        })
        .unwrap();
        assert_eq!(summary.games, 8000);
        assert_eq!(summary.bytes, text.len() as u64);
        assert_eq!(summary.sha256, sha256_hex(text.as_bytes()));
        let expected: Vec<String> = (0..8000).map(|i| i.to_string()).collect();
        assert_eq!(rounds, expected);

        let mut seen = 0;
        let stopped = audit_file(&path, &config, |_| {
            seen += 1;
            if seen == 10 {
                Err(io::Error::other("enough"))
            } else {
                Ok(())
            }
        });
        assert_eq!(stopped.unwrap_err().to_string(), "enough");
        assert_eq!(seen, 10);
    }
}

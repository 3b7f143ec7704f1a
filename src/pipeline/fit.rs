//! The fit of a file under `--fit`: its games read, hashed and replayed
//! once, the ruleset's `fit` constants and switches searched for the values
//! that best reproduce the record (`crate::rules::fit`), and the same
//! replayed games handed to the audit, which judges them under those
//! values. `audit --fit` and `batch --fit` go through [`read_and_fit`], one
//! file at a time, so that only one file's games are held at once.

use std::io;
use std::path::Path;

use crate::ingest::pgn::{GameChunk, parse_game};
use crate::pipeline::InputSummary;
use crate::rules::analysis::Ruleset;
use crate::rules::fit::{
    Blocks, FileFit, FitError, FitSummary, Game, departure_finding, fit_group_with,
    undescribed_finding,
};

/// The most games' text a fit holds whole, in bytes: a group of more is
/// fitted in passes over blocks of half as much ([`pass_block`]), re-read
/// from its files. Held, games take about seven times their text (S15's
/// Division 1, 3.5 MB: 39 MiB at its peak); the largest file of the real
/// archives holds 4 MB.
pub const FIT_BLOCK_BYTES: u64 = 4 << 20;

/// The most a fit holds whole in force: [`FIT_BLOCK_BYTES`], or what
/// `ARBITER_FIT_BLOCK_BYTES` says (for tests and benchmarks: a small one
/// makes a small file a group of many blocks, a large one holds a large
/// group whole).
pub fn fit_block() -> u64 {
    std::env::var("ARBITER_FIT_BLOCK_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(FIT_BLOCK_BYTES, |v: u64| v.max(1))
}

/// The block of a fit in passes: half of what a fit holds whole. Blocks
/// as large as that peaked at 62 MiB on 1 GB (a pass frees each block's
/// games and takes as much again for the next, on every thread, and not
/// all of it is given back), where a file of 3.5 MB held whole peaks at 39.
pub fn pass_block() -> u64 {
    (fit_block() / 2).max(1)
}

/// For each file, each game's event: its place in the list [`events_of`]
/// gives.
pub type EventsOf = std::sync::Arc<Vec<Vec<u32>>>;

/// The games of a group read from PGN files a block at a time, at every
/// pass: every game of the files, or those of one event (`member`).
#[derive(Debug)]
pub struct FileBlocks {
    /// The group's name, for its errors.
    pub group: String,
    pub files: Vec<std::path::PathBuf>,
    /// For each file, each game's group, and the groups read: only their
    /// games are replayed (none: every game).
    pub member: Option<(EventsOf, std::ops::Range<u32>)>,
    /// The block's size in bytes of text ([`pass_block`]).
    pub block: u64,
    /// The games and bytes of text of the first pass: a later pass that
    /// reads others is an error (a file changed under the fit).
    pub first: std::sync::Mutex<Option<(u64, u64)>>,
}

impl FileBlocks {
    fn error(&self, message: String) -> FitError {
        FitError::Reread {
            group: self.group.clone(),
            message,
        }
    }
}

impl Blocks for FileBlocks {
    fn pass(&self, each: &mut dyn FnMut(&[&Game]) -> Result<(), FitError>) -> Result<(), FitError> {
        let (mut games, mut bytes) = (0u64, 0u64);
        // a block may hold the games of several files, each with its own
        let mut flush = |chunks: &mut Vec<(std::sync::Arc<str>, GameChunk)>| {
            let block = replay_each(std::mem::take(chunks));
            let refs: Vec<&Game> = block.iter().collect();
            each(&refs)
        };
        let (mut chunks, mut held) = (Vec::new(), 0u64);
        for (f, path) in self.files.iter().enumerate() {
            let shown: std::sync::Arc<str> = crate::base::decode::shown(path).into();
            let failed = |e: io::Error| self.error(format!("{shown}: {e}"));
            let mut splitter = crate::pipeline::file::open_pgn(path).map_err(failed)?;
            while let Some(chunk) = splitter.next_chunk().map_err(failed)? {
                if let Some((of, groups)) = &self.member
                    && !(of.get(f).and_then(|m| m.get(chunk.index)))
                        .is_some_and(|g| groups.contains(g))
                {
                    continue;
                }
                games += 1;
                bytes += chunk.bytes.len() as u64;
                held += chunk.bytes.len() as u64;
                chunks.push((shown.clone(), chunk));
                if held >= self.block {
                    flush(&mut chunks)?;
                    held = 0;
                }
            }
        }
        if !chunks.is_empty() {
            flush(&mut chunks)?;
        }
        let mut first = self.first.lock().unwrap_or_else(|e| e.into_inner());
        match *first {
            None => *first = Some((games, bytes)),
            Some(was) if was == (games, bytes) => {}
            Some((g, b)) => {
                return Err(self.error(format!(
                    "the files changed while they were fitted: {games} games of {bytes} bytes, where the first pass read {g} games of {b} bytes"
                )));
            }
        }
        Ok(())
    }
}

/// The events of PGN files, in the order their first game comes: each
/// event's name (its `Event` tag) and bytes of text, and for each file each
/// game's event (its place in that list). A file that cannot be read is
/// said by `unread` and has no game.
#[allow(clippy::type_complexity)]
pub fn events_of(
    files: &[std::path::PathBuf],
    unread: &mut dyn FnMut(&Path, io::Error),
) -> (Vec<(String, u64)>, Vec<Vec<u32>>) {
    let mut events: Vec<(String, u64)> = Vec::new();
    let mut of: Vec<Vec<u32>> = Vec::with_capacity(files.len());
    let mut place: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
    for path in files {
        let mut read: Vec<(String, u64)> = Vec::new();
        let result = (|| -> io::Result<()> {
            let mut splitter = crate::pipeline::file::open_pgn(path)?;
            while let Some(chunk) = splitter.next_chunk()? {
                let pgn = parse_game(&chunk);
                let key = pgn.tag("Event").unwrap_or("").trim().to_string();
                read.push((key, chunk.bytes.len() as u64));
            }
            Ok(())
        })();
        if let Err(e) = result {
            unread(path, e);
            read.clear();
        }
        let mine = read
            .into_iter()
            .map(|(key, bytes)| {
                let at = *place.entry(key.clone()).or_insert_with(|| {
                    events.push((key, 0));
                    (events.len() - 1) as u32
                });
                events[at as usize].1 += bytes;
                at
            })
            .collect();
        of.push(mine);
    }
    (events, of)
}

/// A file whose games pass what a fit holds at once (a block).
#[derive(Debug, thiserror::Error)]
#[error(
    "game {game} (line {line}) passes the {} of games' text a fit holds at once (docs/fitting.md, \"Limits\")",
    shown_bytes(*cap)
)]
pub struct TooLarge {
    pub cap: u64,
    /// The game (1-based) and its line.
    pub game: usize,
    pub line: u64,
}

/// `n` bytes in words: in MiB where whole.
fn shown_bytes(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else {
        format!("{n} bytes")
    }
}

/// Every game of a PGN file, read and replayed (the games in parallel, in
/// the file's order).
pub fn read_games(path: &Path) -> io::Result<Vec<Game>> {
    read_games_within(path, 0, u64::MAX).map(|(games, _)| games)
}

/// [`read_games`], where `held` bytes of games' text are held already and
/// a fit may hold `cap`: a file whose games pass it is an error
/// ([`TooLarge`], as an `io::Error` of kind `Other`), its games dropped as
/// soon as they pass. The games, and the bytes of their text.
pub fn read_games_within(path: &Path, held: u64, cap: u64) -> io::Result<(Vec<Game>, u64)> {
    let mut splitter = crate::pipeline::file::open_pgn(path)?;
    let mut chunks = Vec::new();
    let (before, mut held) = (held, held);
    while let Some(chunk) = splitter.next_chunk()? {
        held += chunk.bytes.len() as u64;
        if held > cap {
            return Err(io::Error::other(TooLarge {
                cap,
                game: chunk.index + 1,
                line: chunk.line,
            }));
        }
        chunks.push(chunk);
    }
    Ok((
        replay_all(&crate::base::decode::shown(path), chunks),
        held - before,
    ))
}

/// The games of `chunks`, parsed and replayed in parallel, in their order.
fn replay_all(shown: &str, chunks: Vec<GameChunk>) -> Vec<Game> {
    let shown: std::sync::Arc<str> = shown.into();
    replay_each(chunks.into_iter().map(|c| (shown.clone(), c)).collect())
}

/// The games of `chunks`, each of the file it names (as shown), parsed and
/// replayed in parallel, in their order.
fn replay_each(chunks: Vec<(std::sync::Arc<str>, GameChunk)>) -> Vec<Game> {
    use rayon::prelude::*;
    chunks
        .into_par_iter()
        .map(|(shown, chunk)| {
            let mut pgn = parse_game(&chunk);
            drop(chunk);
            compact(&mut pgn);
            let replay = crate::replay::replay(&pgn);
            Game {
                path: shown.to_string(),
                pgn,
                replay,
            }
        })
        .collect()
}

/// `pgn` made smaller to be held through a fit, reading the same: its
/// lists without the room they grew (about a third of a comment list), and
/// its PVs in a text of their own, so that the game's whole text, which
/// their spans would keep, goes.
fn compact(pgn: &mut crate::ingest::pgn::PgnGame) {
    use crate::ingest::comments::MoveForm;
    let mut pvs: Vec<&mut crate::ingest::comments::PvText> = Vec::new();
    for c in pgn.preamble.iter_mut().chain(pgn.comments.iter_mut()) {
        match &mut c.annotations.form {
            Some(MoveForm::Tcec(t)) => pvs.extend(t.pv.as_mut()),
            Some(MoveForm::Gui(g)) => pvs.extend(g.pv_uci.as_mut()),
            _ => {}
        }
    }
    crate::ingest::comments::repack(&mut pvs);
    pgn.comments.shrink_to_fit();
    pgn.preamble.shrink_to_fit();
    pgn.moves.shrink_to_fit();
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

/// Whether `cfg` can be run under `--fit`: a ruleset with something to fit.
/// Checked before any file is read, so that nothing is audited when it
/// cannot be.
pub fn check(cfg: &crate::pipeline::Config) -> Result<(), FitFilesError> {
    // a folder of rulesets: each file is fitted under the one it chose
    if let Some(shelf) = &cfg.shelf {
        if shelf.rulesets.iter().all(|rs| rs.fits.is_empty()) {
            return Err(FitFilesError::NothingToFit {
                ruleset: shelf.dir.clone(),
            });
        }
        return Ok(());
    }
    let rs = cfg.ruleset.as_deref().ok_or(FitFilesError::NoRuleset)?;
    if rs.fits.is_empty() {
        return Err(FitFilesError::NothingToFit {
            ruleset: rs.id.to_string(),
        });
    }
    Ok(())
}

/// A PGN file read whole under `--fit`.
#[derive(Debug)]
pub enum ReadFile {
    /// Every game, read, replayed and fitted (the fit is `None` where it
    /// could not be made: said on standard error, the file audited under
    /// the text's values), and the file's summary.
    Fitted {
        games: Vec<Game>,
        /// Each game's size in bytes of text, in order.
        sizes: Vec<usize>,
        fit: Option<Box<FileFit>>,
        summary: InputSummary,
    },
    /// The file's text passes a block ([`fit_block`]): it was fitted a
    /// block at a time, and its games are to be audited under the fit as
    /// the file streams by again (the fit is `None` where it could not be
    /// made, as above).
    Passes { fit: Option<Box<FileFit>> },
    /// The reading stopped at `error`: the games before it, not fitted
    /// (they are audited under the text's values), and the bytes hashed so
    /// far.
    Broken {
        chunks: Vec<GameChunk>,
        error: io::Error,
        summary: InputSummary,
    },
}

/// Read, hash and replay every game of the PGN file `path` once, and fit
/// them under `cfg`'s ruleset (`check` has passed): what the audit then
/// judges. A file whose text passes a block is fitted a block at a time
/// instead ([`ReadFile::Passes`]). `on_chunk` is told each game's size in
/// bytes as it is read (a progress bar), `bar` carries what the fit says.
/// An error opening the file is returned; one while reading it is
/// [`ReadFile::Broken`].
pub fn read_and_fit(
    path: &Path,
    cfg: &crate::pipeline::Config,
    on_chunk: &mut dyn FnMut(&GameChunk),
    bar: &indicatif::ProgressBar,
) -> io::Result<ReadFile> {
    let shown = crate::base::decode::shown(path);
    let mut splitter = crate::pipeline::file::open_pgn(path)?;
    let mut chunks = Vec::new();
    // a compressed file's text may pass what its size on disk says
    let (block, mut held) = (fit_block(), 0u64);
    let stopped = loop {
        match splitter.next_chunk() {
            Ok(Some(chunk)) => {
                on_chunk(&chunk);
                held += chunk.bytes.len() as u64;
                chunks.push(chunk);
                if held > block {
                    let event = chunks.first().map(|c| {
                        let pgn = parse_game(c);
                        pgn.tag("Event").unwrap_or("").trim().to_string()
                    });
                    drop(chunks);
                    drop(splitter);
                    let fit = match cfg.ruleset.as_deref() {
                        Some(rs) => fit_passes(path, &event.unwrap_or_default(), rs, cfg, bar),
                        None => None,
                    };
                    return Ok(ReadFile::Passes {
                        fit: fit.map(Box::new),
                    });
                }
            }
            Ok(None) => break None,
            Err(e) => break Some(e),
        }
    };
    let (sha256, bytes) = crate::pipeline::file::finish(splitter);
    let summary = InputSummary {
        path: shown.clone(),
        sha256,
        bytes,
        games: chunks.len() as u64,
        ruleset: cfg.chosen.clone(),
    };
    if let Some(error) = stopped {
        return Ok(ReadFile::Broken {
            chunks,
            error,
            summary,
        });
    }
    let sizes = chunks.iter().map(|c| c.bytes.len()).collect();
    let games = replay_all(&shown, chunks);
    let fit = match cfg.ruleset.as_deref() {
        Some(rs) => fit_games(&shown, &games, rs, cfg, bar).map(Box::new),
        None => None,
    };
    Ok(ReadFile::Fitted {
        games,
        sizes,
        fit,
        summary,
    })
}

/// The fit of the file `path`, a block at a time (its first game's event
/// `event`); `None` where it cannot be made, as [`fit_games`].
fn fit_passes(
    path: &Path,
    event: &str,
    rs: &Ruleset,
    cfg: &crate::pipeline::Config,
    bar: &indicatif::ProgressBar,
) -> Option<FileFit> {
    let shown = crate::base::decode::shown(path);
    let blocks = FileBlocks {
        group: shown.clone(),
        files: vec![path.to_path_buf()],
        member: None,
        block: pass_block(),
        first: std::sync::Mutex::new(None),
    };
    let tick = |n: usize| bar.set_message(format!("{shown}: {n} points evaluated"));
    let fitted = crate::rules::fit::fit_blocks(
        rs,
        &shown,
        &blocks,
        cfg.variant.as_deref(),
        &cfg.detectors,
        &tick,
        false,
    );
    file_fit(&shown, event, rs, fitted, bar)
}

/// The fit of one file's games; `None` where it cannot be made (said
/// here: the file is then audited under the text's values).
fn fit_games(
    shown: &str,
    games: &[Game],
    rs: &Ruleset,
    cfg: &crate::pipeline::Config,
    bar: &indicatif::ProgressBar,
) -> Option<FileFit> {
    let list: Vec<&Game> = games.iter().collect();
    let tick = |n: usize| bar.set_message(format!("{shown}: {n} points evaluated"));
    let fitted = fit_group_with(
        rs,
        shown,
        &list,
        cfg.variant.as_deref(),
        &cfg.detectors,
        &tick,
        false,
    );
    let event = games
        .first()
        .and_then(|g| g.pgn.tag("Event"))
        .unwrap_or("")
        .trim()
        .to_string();
    file_fit(shown, &event, rs, fitted, bar)
}

/// What the audit of file `shown` (its first game's event `event`) takes
/// of its fit: the fitted values and the findings that say what the fit
/// found; `None` where the fit could not be made (said here: the file is
/// then audited under the text's values).
fn file_fit(
    shown: &str,
    event: &str,
    rs: &Ruleset,
    fitted: Result<crate::rules::fit::GroupFit, FitError>,
    bar: &indicatif::ProgressBar,
) -> Option<FileFit> {
    let fit = match fitted {
        Ok(f) => f,
        Err(e) => {
            // the errors that name the group or the file name it already
            let why = match &e {
                FitError::NoGame { .. } | FitError::Reread { .. } => format!("{e}"),
                _ => format!("{shown}: {e}"),
            };
            bar.suspend(|| notice!("arbiter: --fit: {why}; audited under the text"));
            return None;
        }
    };
    let finding = fit.departs().then(|| departure_finding(rs, &fit));
    let undescribed = fit
        .undescribed
        .iter()
        .map(|u| undescribed_finding(rs, &fit, u))
        .collect();
    Some(FileFit {
        summary: FitSummary::of(&fit, event),
        overrides: fit.overrides,
        finding,
        undescribed,
    })
}

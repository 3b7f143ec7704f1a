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
    FileFit, FitSummary, Game, departure_finding, fit_group_with, undescribed_finding,
};

/// The most games' text a fit holds at once, in bytes: `rules fit` holds
/// one file's games (`--per file`) or every file's (`--per event`), `audit
/// --fit` and `batch --fit` a file's. A fit searches its games again at
/// every point, so they are held read and replayed, about ten times
/// their text; past the cap a file is not fitted (said, with the game that
/// passes it). The largest file of the real archives holds 4 MB.
pub const MAX_FIT_BYTES: u64 = 64 << 20;

/// The cap in force: [`MAX_FIT_BYTES`], or less where
/// `ARBITER_FIT_MAX_BYTES` says (for tests).
pub fn fit_cap() -> u64 {
    std::env::var("ARBITER_FIT_MAX_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(MAX_FIT_BYTES, |v: u64| v.min(MAX_FIT_BYTES))
}

/// A file whose games would pass what a fit may hold.
#[derive(Debug, thiserror::Error)]
#[error(
    "a fit holds at most {} of games' text at once (docs/fitting.md, \"Limits\"); game {game} (line {line}) passes it, so the file is not fitted: fit its games in smaller files",
    shown_bytes(*cap)
)]
pub struct TooLarge {
    pub cap: u64,
    /// The game (1-based) and its line.
    pub game: usize,
    pub line: u64,
}

/// Whether the PGN file `path` is too large for `audit --fit` and `batch
/// --fit` to fit (its size on disk over [`fit_cap`]): then it is said on
/// standard error, and the file is audited under the text's values as it
/// streams by.
pub fn too_large_to_fit(path: &Path) -> bool {
    let cap = fit_cap();
    match std::fs::metadata(path) {
        Ok(m) if m.len() > cap => {
            say!(
                "arbiter: --fit: {}: {} bytes, over the {} of games' text a fit holds at once (docs/fitting.md, \"Limits\"); audited under the text",
                path.display(),
                m.len(),
                shown_bytes(cap)
            );
            true
        }
        _ => false,
    }
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
    use rayon::prelude::*;
    chunks
        .into_par_iter()
        .map(|chunk| {
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
/// judges. `on_chunk` is told each game's size in bytes as it is read (a
/// progress bar), `bar` carries what the fit says. An error opening the
/// file is returned; one while reading it is [`ReadFile::Broken`].
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
    let (cap, mut held) = (fit_cap(), 0u64);
    let stopped = loop {
        match splitter.next_chunk() {
            Ok(Some(chunk)) => {
                on_chunk(&chunk);
                held += chunk.bytes.len() as u64;
                if held > cap {
                    break Some(io::Error::other(TooLarge {
                        cap,
                        game: chunk.index + 1,
                        line: chunk.line,
                    }));
                }
                chunks.push(chunk);
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
    let fit = match fitted {
        Ok(f) => f,
        Err(e) => {
            // the error that names the group names it as `shown` already
            let why = match &e {
                crate::rules::fit::FitError::NoGame { .. } => format!("{e}"),
                _ => format!("{shown}: {e}"),
            };
            bar.suspend(|| say!("arbiter: --fit: {why}; audited under the text"));
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
    Some(FileFit {
        summary: FitSummary::of(&fit, &event),
        overrides: fit.overrides,
        finding,
        undescribed,
    })
}

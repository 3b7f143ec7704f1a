//! The audit of one file: read, hashed and cut into games on a thread of
//! its own, each game audited as it arrives.

use std::io::{self, BufReader};
use std::path::Path;

use super::config::Config;
use super::game::{GameAudit, audit_game, audit_replayed};
use super::record::InputSummary;
use crate::base::decode::{self, Decoded};
use crate::ingest::pgn::{GameChunk, GameSplitter, parse_game};

/// A PGN input being cut into games: its text decoded as it is read, the
/// raw bytes hashed ([`Decoded::finish`]).
pub type Splitter = GameSplitter<BufReader<Decoded>>;

/// Open the PGN input `path` (`-`: standard input; gzip and zstd decoded,
/// told by their bytes: [`decode::open`]) and start cutting it into games:
/// what `audit`, `batch` and `--fit` read every PGN input with. A text that
/// does not look like PGN in its first 64 KiB (a `Cargo.toml`, a binary) is
/// refused, with what was expected, before any game is read.
pub fn open_pgn(path: &Path) -> io::Result<Splitter> {
    let d = decode::open(path)?;
    if !crate::ingest::pgn::sniff::looks_like_pgn(d.head()) {
        let decoded = d
            .compression()
            .map(|how| format!(" (decoded from {how})"))
            .unwrap_or_default();
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "not a PGN file{decoded}: {}; refused",
                crate::ingest::pgn::sniff::EXPECTED
            ),
        ));
    }
    Ok(GameSplitter::new(BufReader::with_capacity(1 << 16, d)))
}

/// The SHA-256 and size of the raw bytes `splitter` read.
pub fn finish(splitter: Splitter) -> (String, u64) {
    splitter.into_inner().into_inner().finish()
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
    on_game: impl FnMut(GameAudit) -> io::Result<()>,
) -> Result<InputSummary, io::Error> {
    audit_file_under(path, config, None, on_game)
}

/// [`audit_file`], each game judged under `fitted` where it gives a fit
/// (`--fit`, a file fitted a block at a time: its games are then audited
/// as the file streams by again).
pub fn audit_file_under(
    path: &Path,
    config: &Config,
    fitted: Option<&crate::rules::fit::FileFit>,
    mut on_game: impl FnMut(GameAudit) -> io::Result<()>,
) -> Result<InputSummary, io::Error> {
    let shown = decode::shown(path);
    let mut splitter = open_pgn(path)?;
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
            Some(finish(splitter))
        });
        let mut games = 0u64;
        for parcel in arrived {
            for chunk in parcel? {
                let game = parse_game(&chunk);
                drop(chunk);
                games += 1;
                on_game(match fitted {
                    Some(fit) => {
                        let replay = crate::replay::replay(&game);
                        audit_replayed(&shown, game, replay, Some(fit), config)
                    }
                    None => audit_game(&shown, game, config),
                })?;
            }
        }
        match reader.join() {
            Ok(Some((sha256, bytes))) => Ok(InputSummary {
                path: shown,
                sha256,
                bytes,
                games,
                ruleset: config.chosen.clone(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::digest::sha256_hex;

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

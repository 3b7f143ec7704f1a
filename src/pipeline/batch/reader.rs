//! The batch's reading thread: every input read, hashed and cut into
//! games, the games handed to the workers in parcels, in input order.

use std::io::BufReader;
use std::path::PathBuf;
use std::sync::mpsc::SyncSender;

use crate::base::digest::HashingReader;
use crate::ingest::pgn::{GameChunk, GameSplitter};
use crate::pipeline::{self, InputSummary};

/// Games travel in parcels of at least `PARCEL_BYTES` (the last one of the
/// run may be smaller): a hand-over per game woke a sleeping thread for
/// each game, about 7% of the time without a ruleset. At most `PARCELS`
/// wait, so memory stays bounded.
pub(super) const PARCELS: usize = 8;

/// Games on their way to the workers: (place in input order, input, text).
pub(super) type Parcel = Vec<(u64, usize, GameChunk)>;

/// What the reader gives back: each input read, and those that could not be.
type Read = (Vec<InputSummary>, Vec<(String, String)>);

/// Start the thread that reads `inputs` and sends their games (those of
/// the shard `(k, n)`, when given) to `tx`, counting their bytes on `bar`.
pub(super) fn spawn(
    inputs: Vec<PathBuf>,
    shard: Option<(u64, u64)>,
    bar: indicatif::ProgressBar,
    tx: SyncSender<Parcel>,
) -> Result<std::thread::JoinHandle<Read>, super::BatchError> {
    std::thread::Builder::new()
        .name("arbiter-reader".into())
        .spawn(move || read_all(&inputs, shard, &bar, &tx))
        .map_err(super::BatchError::ReaderStart)
}

/// Read every input in order, sending its games in parcels.
fn read_all(
    inputs: &[PathBuf],
    shard: Option<(u64, u64)>,
    bar: &indicatif::ProgressBar,
    tx: &SyncSender<Parcel>,
) -> Read {
    let mut summaries = Vec::new();
    let mut unreadable = Vec::new();
    let mut n: u64 = 0;
    // the place of each game sent, in input order
    let mut sent: u64 = 0;
    let mut pending = pipeline::Parcels::default();
    for (fi, path) in inputs.iter().enumerate() {
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
                    bar.inc(chunk.bytes.len() as u64);
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
        summaries.push(InputSummary {
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
}

//! The batch's reading thread: every input read, hashed and cut into
//! games, the games handed to the workers in parcels, in input order.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::SyncSender;

use rayon::prelude::*;

use crate::ingest::pgn::GameChunk;
use crate::pipeline::fit::{ReadFile, read_and_fit};
use crate::pipeline::{self, Config, InputSummary};
use crate::rules::fit::{FileFit, Game};

/// Games travel in parcels of at least `PARCEL_BYTES` (the last one of the
/// run may be smaller): a hand-over per game woke a sleeping thread for
/// each game, about 7% of the time without a ruleset. At most `PARCELS`
/// wait, so memory stays bounded.
pub(super) const PARCELS: usize = 8;

/// Games on their way to the workers: (place in input order, input, game).
pub(super) type Parcel = Vec<(u64, usize, Item)>;

/// A game on its way to the workers.
#[derive(Debug)]
pub(super) enum Item {
    /// Its text, to be read and replayed by the worker; with its file's
    /// fit where the file was fitted a block at a time (`--fit`).
    Text(GameChunk, Option<Arc<FileFit>>),
    /// Read and replayed already (`--fit`), with its file's fit where one
    /// was made.
    Replayed(Box<Game>, Option<Arc<FileFit>>),
}

/// What the reader gives back: each input read, those that could not be,
/// and each file's fit (`--fit`), by its path as shown.
pub(super) type Read = (
    Vec<InputSummary>,
    Vec<(String, String)>,
    BTreeMap<String, FileFit>,
);

/// Under `--fit`: the configuration the files are fitted under (each file's
/// own where it has one: the ruleset a folder of rulesets chose for it),
/// and the inputs that are fitted (the PGN files; a case folder's game is
/// judged under its own configuration, not fitted).
pub(super) struct Fitting {
    pub(super) cfg: Config,
    pub(super) own: Vec<Option<Config>>,
    pub(super) fitted: Vec<bool>,
    pub(super) threads: usize,
}

/// Start the thread that reads `inputs` and sends their games (those of
/// the shard `(k, n)`, when given) to `tx`, counting their bytes on `bar`.
pub(super) fn spawn(
    inputs: Vec<PathBuf>,
    shard: Option<(u64, u64)>,
    fitting: Option<Fitting>,
    bar: indicatif::ProgressBar,
    tx: SyncSender<Parcel>,
) -> Result<std::thread::JoinHandle<Read>, super::BatchError> {
    // the fit runs on threads of its own: the workers' are busy with the
    // games of the file fitted before
    let pool = match &fitting {
        Some(f) => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(f.threads.max(1))
                .thread_name(|i| format!("arbiter-fit{i}"))
                .build()
                .map_err(super::BatchError::Pool)?,
        ),
        None => None,
    };
    std::thread::Builder::new()
        .name("arbiter-reader".into())
        .spawn(move || {
            let fit = fitting.as_ref().zip(pool.as_ref());
            read_all(&inputs, shard, fit, &bar, &tx)
        })
        .map_err(super::BatchError::ReaderStart)
}

/// The games of the shard `(k, n)` (all, without one), numbered over all
/// inputs, gathered into parcels in input order.
struct Sender<'t> {
    tx: &'t SyncSender<Parcel>,
    shard: Option<(u64, u64)>,
    /// Games seen, over all inputs.
    n: u64,
    /// Games sent: the place of the next one in input order.
    sent: u64,
    pending: pipeline::Parcels<(u64, usize, Item)>,
}

impl Sender<'_> {
    /// Send game `item` of input `fi`, of `bytes` bytes of text, if it is
    /// the shard's; false where the workers are gone.
    fn send(&mut self, fi: usize, item: Item, bytes: usize) -> bool {
        let mine = self.shard.is_none_or(|(k, m)| self.n % m == k - 1);
        self.n += 1;
        if !mine {
            return true;
        }
        let full = self.pending.add((self.sent, fi, item), bytes);
        self.sent += 1;
        match full {
            Some(parcel) => self.tx.send(parcel).is_ok(),
            None => true,
        }
    }
}

/// Read every input in order, sending its games in parcels; under `--fit`
/// (`fit`), each PGN file is read whole, fitted on the fit's own threads,
/// and its games sent read and replayed, with the fit.
fn read_all(
    inputs: &[PathBuf],
    shard: Option<(u64, u64)>,
    fit: Option<(&Fitting, &rayon::ThreadPool)>,
    bar: &indicatif::ProgressBar,
    tx: &SyncSender<Parcel>,
) -> Read {
    let mut summaries = Vec::new();
    let mut unreadable = Vec::new();
    let mut fits = BTreeMap::new();
    let mut out = Sender {
        tx,
        shard,
        n: 0,
        sent: 0,
        pending: pipeline::Parcels::default(),
    };
    let mut next = 0;
    while next < inputs.len() {
        if let Some((f, pool)) = fit
            && f.fitted[next]
        {
            // a window of files fitted at once, one per thread (their
            // games held together), then sent in order
            let window: Vec<usize> = (next..inputs.len())
                .take_while(|&i| f.fitted[i])
                .take(f.threads.max(1))
                .collect();
            next += window.len();
            let reads: Vec<std::io::Result<ReadFile>> = pool.install(|| {
                window
                    .par_iter()
                    .map(|&i| {
                        read_and_fit(
                            &inputs[i],
                            f.own[i].as_ref().unwrap_or(&f.cfg),
                            &mut |c| bar.inc(c.bytes.len() as u64),
                            bar,
                        )
                    })
                    .collect()
            });
            for (fi, read) in window.into_iter().zip(reads) {
                let shown = crate::base::decode::shown(&inputs[fi]);
                let going = match read {
                    Ok(ReadFile::Fitted {
                        games,
                        sizes,
                        fit,
                        summary,
                    }) => {
                        let shared = fit.map(|f| Arc::new(*f));
                        let mut going = true;
                        for (g, bytes) in games.into_iter().zip(sizes) {
                            going = going
                                && out.send(fi, Item::Replayed(Box::new(g), shared.clone()), bytes);
                        }
                        if let Some(fit) = shared {
                            fits.insert(shown, FileFit::clone(&fit));
                        }
                        summaries.push(summary);
                        going
                    }
                    Ok(ReadFile::Passes { fit }) => {
                        let shared = fit.map(|f| Arc::new(*f));
                        if let Some(fit) = &shared {
                            fits.insert(shown.clone(), FileFit::clone(fit));
                        }
                        let streamed = stream(fi, &inputs[fi], shared, &mut out, bar);
                        summaries.extend(streamed.summary);
                        unreadable.extend(streamed.unreadable);
                        streamed.going
                    }
                    Ok(ReadFile::Broken {
                        chunks,
                        error,
                        summary,
                    }) => {
                        let mut going = true;
                        for chunk in chunks {
                            let bytes = chunk.bytes.len();
                            going = going && out.send(fi, Item::Text(chunk, None), bytes);
                        }
                        unreadable.push((shown, error.to_string()));
                        summaries.push(summary);
                        going
                    }
                    Err(e) => {
                        unreadable.push((shown, e.to_string()));
                        true
                    }
                };
                if !going {
                    return (summaries, unreadable, fits);
                }
            }
            continue;
        }
        let (fi, path) = (next, &inputs[next]);
        next += 1;
        let streamed = stream(fi, path, None, &mut out, bar);
        summaries.extend(streamed.summary);
        unreadable.extend(streamed.unreadable);
        if !streamed.going {
            return (summaries, unreadable, fits);
        }
    }
    if let Some(parcel) = out.pending.rest() {
        // the workers are gone only if they failed: nothing to deliver to
        let _ = tx.send(parcel);
    }
    (summaries, unreadable, fits)
}

/// What streaming one file gave: its summary (none where it could not be
/// opened), what could not be read, and whether the workers still take
/// games.
struct Streamed {
    summary: Option<InputSummary>,
    unreadable: Option<(String, String)>,
    going: bool,
}

/// Send every game of file `fi` (`path`) to the workers as its text, with
/// the file's fit where it was fitted a block at a time.
fn stream(
    fi: usize,
    path: &std::path::Path,
    fit: Option<Arc<FileFit>>,
    out: &mut Sender<'_>,
    bar: &indicatif::ProgressBar,
) -> Streamed {
    let shown = crate::base::decode::shown(path);
    let mut splitter = match pipeline::file::open_pgn(path) {
        Ok(s) => s,
        Err(e) => {
            return Streamed {
                summary: None,
                unreadable: Some((shown, e.to_string())),
                going: true,
            };
        }
    };
    let (mut games, mut unreadable) = (0u64, None);
    loop {
        match splitter.next_chunk() {
            Ok(Some(chunk)) => {
                games += 1;
                bar.inc(chunk.bytes.len() as u64);
                let bytes = chunk.bytes.len();
                if !out.send(fi, Item::Text(chunk, fit.clone()), bytes) {
                    return Streamed {
                        summary: None,
                        unreadable,
                        going: false,
                    };
                }
            }
            Ok(None) => break,
            Err(e) => {
                unreadable = Some((shown.clone(), e.to_string()));
                break;
            }
        }
    }
    let (sha256, bytes) = pipeline::file::finish(splitter);
    Streamed {
        summary: Some(InputSummary {
            path: shown,
            sha256,
            bytes,
            games,
            ruleset: None,
        }),
        unreadable,
        going: true,
    }
}

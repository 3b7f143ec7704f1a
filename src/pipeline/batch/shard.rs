//! A shard's part of a batch, and the merge of a batch's shards.
//!
//! `batch --shard K/N` audits every N-th game of the archive. Besides its
//! `audit.jsonl`, it writes `shard.jsonl`: a header line (the shard, the
//! inputs as read, the inputs that could not be read, the positions the
//! tables could not probe, each file's fit) and one line per game (its
//! record and its header for the event-level rules). `arbiter merge` reads
//! the N folders back and gives the whole archive's batch: the games in
//! input order (shard K holds the games K − 1, K − 1 + N, … over all
//! inputs), the event-level rules run on every event, and the tables and
//! the standings made from every game, as one `batch` writes them.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use super::{BatchConfig, GameRecord, Outcome, events, hashed, inputs_of};
use crate::facts::event::{GameInfo, Grouped};
use crate::pipeline::InputSummary;
use crate::rules::fit::FileFit;

/// The name of a shard's part in its folder.
pub const PART: &str = "shard.jsonl";

/// The first line of a shard's part.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Header {
    /// Always `shard`.
    #[serde(rename = "type")]
    kind: String,
    /// `K/N`.
    shard: String,
    k: u64,
    n: u64,
    /// The games of this shard: the lines that follow.
    games: u64,
    inputs: Vec<InputSummary>,
    /// The inputs that could not be read.
    read_errors: Vec<(String, String)>,
    /// The positions the tables could not probe: (FEN, table, why).
    unprobed: Vec<(String, String, String)>,
    /// Each file's fit (`--fit`), by its path as shown.
    fitted: BTreeMap<String, FileFit>,
}

/// One game of a shard's part.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Game {
    record: GameRecord,
    /// Its header for the event-level rules (none for a case folder's).
    header: Option<GameInfo>,
}

/// Why shards could not be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}:{line}: {why}")]
    Part {
        path: String,
        line: usize,
        why: String,
    },
    #[error(
        "{first} and {other} are not shards of one batch: their {what} differ (each shard must be run on the same inputs, with the same options)"
    )]
    Differ {
        first: String,
        other: String,
        what: &'static str,
    },
    #[error("{0}")]
    Set(String),
    #[error("{name}: {source}")]
    Write {
        name: String,
        source: std::io::Error,
    },
}

/// The headers of a shard's games, beside their records: `games` records,
/// each header at its order.
pub(super) fn headers(infos: Grouped, games: usize) -> Vec<Option<GameInfo>> {
    let mut out = vec![None; games];
    for g in infos.into_games() {
        if let Some(slot) = out.get_mut(g.order) {
            *slot = Some(g);
        }
    }
    out
}

/// Write shard `(k, n)`'s part of `outcome` to `out`.
pub fn write_part(
    outcome: &Outcome,
    (k, n): (u64, u64),
    unprobed: Vec<(String, String, String)>,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let header = Header {
        kind: "shard".into(),
        shard: format!("{k}/{n}"),
        k,
        n,
        games: outcome.games.len() as u64,
        inputs: outcome.inputs.clone(),
        read_errors: outcome.unreadable[..outcome.read_errors].to_vec(),
        unprobed,
        fitted: outcome.fitted.clone(),
    };
    serde_json::to_writer(&mut *out, &header)?;
    out.write_all(b"\n")?;
    for (i, record) in outcome.games.iter().enumerate() {
        let game = GameRecordRef {
            record,
            header: outcome.headers.get(i).and_then(Option::as_ref),
        };
        serde_json::to_writer(&mut *out, &game)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// [`Game`], borrowed.
#[derive(serde::Serialize)]
struct GameRecordRef<'a> {
    record: &'a GameRecord,
    header: Option<&'a GameInfo>,
}

/// One shard folder, open: its header, and its part and JSON lines read
/// a game at a time.
struct Open {
    dir: String,
    header: Header,
    part: Lines,
    audit: Lines,
}

/// A file read a line at a time, counting its lines.
struct Lines {
    path: String,
    input: std::io::BufReader<std::fs::File>,
    line: usize,
}

impl Lines {
    fn open(path: &Path) -> Result<Lines, MergeError> {
        let shown = path.display().to_string();
        let file = crate::base::files::open_regular(path).map_err(|source| MergeError::Io {
            path: shown.clone(),
            source,
        })?;
        Ok(Lines {
            path: shown,
            input: std::io::BufReader::with_capacity(1 << 16, file),
            line: 0,
        })
    }

    /// The next line, with its newline; `None` at the end.
    fn next(&mut self) -> Result<Option<String>, MergeError> {
        let mut s = String::new();
        let n = self
            .input
            .read_line(&mut s)
            .map_err(|source| MergeError::Io {
                path: self.path.clone(),
                source,
            })?;
        self.line += 1;
        Ok((n > 0).then_some(s))
    }

    fn error(&self, why: impl Into<String>) -> MergeError {
        MergeError::Part {
            path: self.path.clone(),
            line: self.line,
            why: why.into(),
        }
    }
}

impl Open {
    fn read(dir: &Path) -> Result<Open, MergeError> {
        let mut part = Lines::open(&dir.join(PART))?;
        let audit = Lines::open(&dir.join("audit.jsonl"))?;
        let first = part
            .next()?
            .ok_or_else(|| part.error("empty: a shard's part starts with its header"))?;
        let header: Header = serde_json::from_str(&first)
            .map_err(|e| part.error(format!("not a shard's header: {e}")))?;
        if header.kind != "shard" || header.k == 0 || header.k > header.n {
            return Err(part.error("not a shard's header"));
        }
        Ok(Open {
            dir: dir.display().to_string(),
            header,
            part,
            audit,
        })
    }

    /// The shard's next game: its record and header, and its line of
    /// `audit.jsonl`; `None` after its last.
    fn next_game(&mut self) -> Result<Option<(Game, String)>, MergeError> {
        let Some(text) = self.part.next()? else {
            return Ok(None);
        };
        let game: Game = serde_json::from_str(&text).map_err(|e| {
            self.part
                .error(format!("not a game of a shard's part: {e}"))
        })?;
        let line = self.audit.next()?.ok_or_else(|| {
            self.audit
                .error("ends before its games do: the folder is not one shard's")
        })?;
        if !is_game_line(&line) {
            return Err(self
                .audit
                .error("not a game's line, where the shard's part has one"));
        }
        Ok(Some((game, line)))
    }
}

/// Whether a line of `audit.jsonl` is a game's.
fn is_game_line(line: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(line).is_ok_and(|v| v["type"] == "game")
}

/// Open the shards' folders and check that they are the N shards of one
/// batch, each once; in the order of K.
fn open_all(dirs: &[PathBuf]) -> Result<Vec<Open>, MergeError> {
    let mut open = dirs
        .iter()
        .map(|d| Open::read(d))
        .collect::<Result<Vec<_>, _>>()?;
    open.sort_by_key(|o| o.header.k);
    let Some(first) = open.first() else {
        return Err(MergeError::Set("no shard folder given".into()));
    };
    let n = first.header.n;
    let ks: Vec<u64> = open.iter().map(|o| o.header.k).collect();
    if ks != (1..=n).collect::<Vec<_>>() {
        let missing: Vec<String> = (1..=n)
            .filter(|k| !ks.contains(k))
            .map(|k| format!("{k}/{n}"))
            .collect();
        let twice: Vec<String> = (ks.windows(2))
            .filter(|w| w[0] == w[1])
            .map(|w| format!("{}/{n}", w[0]))
            .collect();
        let mut why = Vec::new();
        if !missing.is_empty() {
            why.push(format!("missing {}", missing.join(", ")));
        }
        if !twice.is_empty() {
            why.push(format!("given twice {}", twice.join(", ")));
        }
        if open.iter().any(|o| o.header.n != n) {
            why.push("shards of different counts".into());
        }
        return Err(MergeError::Set(format!(
            "the folders are not the {n} shards of one batch: {}",
            why.join("; ")
        )));
    }
    for o in &open[1..] {
        let differ = |what| MergeError::Differ {
            first: open[0].dir.clone(),
            other: o.dir.clone(),
            what,
        };
        if o.header.inputs != open[0].header.inputs {
            return Err(differ("inputs"));
        }
        if o.header.read_errors != open[0].header.read_errors {
            return Err(differ("unreadable inputs"));
        }
        let fits = |h: &Header| serde_json::to_string(&h.fitted).unwrap_or_default();
        if fits(&o.header) != fits(&open[0].header) {
            return Err(differ("fits"));
        }
    }
    Ok(open)
}

/// Merge the shards in `dirs` into the batch `cfg` (the shards' own
/// configuration, without the shard): each game's line written to `lines`
/// (named `lines_name` in an error) in input order, the records in input
/// order, and the event-level rules run on every event.
pub fn merge(
    cfg: &BatchConfig,
    dirs: &[PathBuf],
    lines: &mut dyn Write,
    lines_name: &str,
) -> Result<Outcome, MergeError> {
    let mut open = open_all(dirs)?;
    let n = open.len();
    let mut games: Vec<GameRecord> = Vec::new();
    let mut infos = Grouped::default();
    let write_error = |source| MergeError::Write {
        name: lines_name.to_string(),
        source,
    };
    // shard K holds the games K - 1, K - 1 + N, ...: the first shard
    // with no game left ends the archive
    loop {
        let due = games.len() % n;
        let Some((game, line)) = open[due].next_game()? else {
            break;
        };
        lines.write_all(line.as_bytes()).map_err(write_error)?;
        if let Some(mut h) = game.header {
            h.order = games.len();
            infos.add(h);
        }
        games.push(game.record);
    }
    for o in &mut open {
        let counted = o.header.games;
        if o.next_game()?.is_some() {
            return Err(o.part.error(format!(
                "holds more games than the shards before it allow ({counted} in its header): the shards are not of one batch"
            )));
        }
    }
    let sum: u64 = open.iter().map(|o| o.header.games).sum();
    if sum != games.len() as u64 {
        return Err(MergeError::Set(format!(
            "the shards' headers count {sum} games, their parts hold {}",
            games.len()
        )));
    }
    let first = &open[0].header;
    let ins = inputs_of(cfg);
    let shown: Vec<String> = ins.inputs.iter().map(|p| p.display().to_string()).collect();
    let mut inputs = first.inputs.clone();
    let chosen = super::chosen_rulesets(&shown, &ins.configs, &mut inputs);
    let hashed = hashed(cfg, &ins.configs);
    let mut unreadable = first.read_errors.clone();
    let read_errors = unreadable.len();
    let unprobed: Vec<(String, String, String)> = open
        .iter()
        .flat_map(|o| o.header.unprobed.clone())
        .collect();
    unreadable.extend(cfg.audit.detectors.unreadable_tables_with(&unprobed));
    let fitted = first.fitted.clone();
    let events = events(infos, cfg, &chosen);
    Ok(Outcome {
        games,
        inputs,
        unreadable,
        events,
        hashed,
        fitted,
        read_errors,
        headers: Vec::new(),
    })
}

//! The active similarity test: real UCI engines over a position suite.
//!
//! Like Don Dailey's similarity tester, every engine chooses a move in every
//! position of a suite, and each pair of engines is scored by the share of
//! positions where they chose the same move. A pair stands out by its
//! z-score against the other pairs of the field (leave-one-out: the mean
//! and standard deviation of every other pair of different engines). Each
//! engine is also run a second time: its match with itself is the noise
//! floor (a deterministic search at a fixed depth matches itself fully).
//!
//! Besides the move, every answer keeps the engine's final score, depth,
//! nodes and PV, for the evaluation-signature analysis.
//!
//! Runs are resumable: every answer is appended to `answers.jsonl` in the
//! output folder as soon as it is known, and a later run skips what is
//! there, if `provenance.json` beside it says the answers were made from
//! the same suite (its SHA-256), at the same limit, by the same engines.
//! An engine that cannot start, crashes, times out, floods its output or
//! answers an illegal move is reported, and the others go on. Each
//! engine's transcript is written to `logs/` as it is made.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use shakmaty::uci::UciMove;

use super::engine::{Engine, Limit};
use super::error::SimilarityError;
use super::transcript::Transcript;
use crate::facts::similarity::Answer;

/// An engine to test: its name in the report and its command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub cmd: String,
    pub options: Vec<(String, String)>,
}

/// One position of the suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    pub fen: String,
    pub id: String,
}

/// Read an EPD file: the first four fields are the position; `id "…"`
/// names it (default: the line number). Also returns the SHA-256 of the
/// bytes read, so that a report names exactly the suite it parsed.
pub fn read_epd(path: &Path) -> Result<(Vec<Position>, String), SimilarityError> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| SimilarityError::Io {
        path: shown.clone(),
        source,
    })?;
    let sha256 = crate::base::digest::sha256_hex(&bytes);
    let text = String::from_utf8(bytes).map_err(|_| SimilarityError::NotUtf8 {
        path: shown.clone(),
    })?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        if fields.len() < 4 {
            return Err(SimilarityError::EpdShape {
                path: shown,
                line: n + 1,
                found: line.to_string(),
            });
        }
        let fen = format!("{} 0 1", fields.join(" "));
        let parsed: Result<shakmaty::fen::Fen, _> = fen.parse();
        let ok = parsed.ok().and_then(|f| {
            f.into_position::<shakmaty::Chess>(shakmaty::CastlingMode::Standard)
                .ok()
        });
        if ok.is_none() {
            return Err(SimilarityError::EpdIllegal {
                path: shown,
                line: n + 1,
                position: fields.join(" "),
            });
        }
        let id = line
            .split_once("id \"")
            .and_then(|(_, r)| r.split_once('"'))
            .map_or_else(|| format!("line {}", n + 1), |(id, _)| id.to_string());
        out.push(Position { fen, id });
    }
    if out.is_empty() {
        return Err(SimilarityError::NoPositions { path: shown });
    }
    Ok((out, sha256))
}

/// What an engine's last scored `info` line says: (centipawns, mate,
/// depth, nodes, PV).
type Info = (
    Option<i64>,
    Option<i64>,
    Option<u32>,
    Option<u64>,
    Vec<String>,
);

/// The last `info` line with a score, folded from an engine's lines (each
/// parsed as the engine-log reader does) as they come.
#[derive(Debug, Default)]
struct FinalInfo(Info);

impl FinalInfo {
    fn line(&mut self, text: &str) {
        use crate::ingest::engine::{Dir, Msg, parse_msg};
        let Msg::Info(i) = parse_msg(Dir::FromEngine, text) else {
            return;
        };
        let best = &mut self.0;
        let nodes = i.nodes.and_then(|n| u64::try_from(n).ok());
        // a bound or a secondary line is not the engine's final score
        let partial = i.bound.is_some() || i.multipv.is_some_and(|m| m != 1);
        if (i.cp.is_some() || i.mate.is_some()) && !partial {
            let depth = i.depth.and_then(|d| u32::try_from(d).ok());
            *best = (i.cp, i.mate, depth, nodes.or(best.3), i.pv);
        } else if nodes.is_some() {
            best.3 = nodes;
        }
    }
}

/// Why `mv` is no answer in `fen`, and whether that is the engine's fault
/// (a position with no legal move has no answer either); `None` for a
/// legal move.
fn not_an_answer(fen: &str, id: &str, mv: &str) -> Option<(String, bool)> {
    let pos: shakmaty::Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .ok()?
        .into_position(shakmaty::CastlingMode::Standard)
        .ok()?;
    use shakmaty::Position as _;
    if pos.legal_moves().is_empty() {
        return Some((format!("position {id} has no legal move"), false));
    }
    match UciMove::from_ascii(mv.as_bytes()).map(|u| u.to_move(&pos)) {
        Ok(Ok(_)) => None,
        _ => Some((
            format!(
                "bestmove {mv:?} is not a legal move in position {id}; not counted as an answer"
            ),
            true,
        )),
    }
}

/// What to run.
#[derive(Debug, Clone)]
pub struct Config {
    pub engines: Vec<EngineSpec>,
    pub positions: Vec<Position>,
    pub limit: Limit,
    /// Runs per engine (2: the second is the self-similarity run).
    pub runs: u32,
    pub out: PathBuf,
    pub threads: usize,
    pub progress: bool,
    /// The suite's SHA-256 and the limit in words, as the report says
    /// them: what resumed answers must have been made from.
    pub suite_sha256: String,
    pub limit_text: String,
}

/// What the answers of an output folder were made from, kept beside them
/// in `provenance.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Provenance {
    positions_sha256: String,
    limit: String,
    engines: Vec<Made>,
}

/// An engine as it was run: its name, command line and options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Made {
    name: String,
    command: String,
    options: Vec<(String, String)>,
}

impl Made {
    fn of(s: &EngineSpec) -> Made {
        Made {
            name: s.name.clone(),
            command: s.cmd.clone(),
            options: s.options.clone(),
        }
    }
}

/// Keep of `answers` only those `provenance.json` says were made from
/// what `cfg` runs, or refuse them: answers made from another suite, at
/// another limit, or by another engine under the same name, or answers
/// no provenance speaks for. The provenance to write for this run.
fn check_provenance(
    cfg: &Config,
    answers: &mut Vec<Answer>,
) -> Result<Provenance, SimilarityError> {
    let path = cfg.out.join("provenance.json");
    let shown = cfg.out.join("answers.jsonl").display().to_string();
    let mut now = Provenance {
        positions_sha256: cfg.suite_sha256.clone(),
        limit: cfg.limit_text.clone(),
        engines: cfg.engines.iter().map(Made::of).collect(),
    };
    let old: Provenance = match std::fs::read(&path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|source| SimilarityError::NotJson {
            path: path.display().to_string(),
            source,
        })?,
        Err(_) if answers.is_empty() => return Ok(now),
        Err(_) => return Err(SimilarityError::Unproven { path: shown }),
    };
    if answers.is_empty() {
        return Ok(now);
    }
    let other = |what: String| SimilarityError::OtherInputs {
        path: shown.clone(),
        what,
    };
    if old.positions_sha256 != now.positions_sha256 {
        return Err(other(format!(
            "another position suite (sha256 {}), not this one ({})",
            old.positions_sha256, now.positions_sha256
        )));
    }
    if old.limit != now.limit {
        return Err(other(format!("{:?}, not {:?}", old.limit, now.limit)));
    }
    for m in &now.engines {
        if let Some(o) = old.engines.iter().find(|o| o.name == m.name && *o != m) {
            return Err(other(format!(
                "engine {:?} run as {:?} with options {:?}, not {:?} with {:?}",
                m.name, o.command, o.options, m.command, m.options
            )));
        }
    }
    // answers of an engine the provenance does not name are redone
    answers.retain(|a| old.engines.iter().any(|o| o.name == a.engine));
    for o in old.engines {
        if !now.engines.iter().any(|m| m.name == o.name) {
            now.engines.push(o);
        }
    }
    Ok(now)
}

/// Read the answers already in the output folder (resume).
pub fn read_answers(out: &Path) -> Result<Vec<Answer>, SimilarityError> {
    let path = out.join("answers.jsonl");
    match std::fs::read_to_string(&path) {
        Ok(text) => parse_answers(&path.display().to_string(), &text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(source) => Err(SimilarityError::Io {
            path: path.display().to_string(),
            source,
        }),
    }
}

/// The answers of an `answers.jsonl` text, one per line; `shown` names it
/// in errors.
pub(super) fn parse_answers(shown: &str, text: &str) -> Result<Vec<Answer>, SimilarityError> {
    let mut v = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Answer>(line) {
            Ok(a) => v.push(a),
            // a line cut short by an interrupted run: that answer is redone
            Err(_) if n + 1 == text.lines().count() => {}
            Err(source) => {
                return Err(SimilarityError::Answer {
                    path: shown.to_string(),
                    line: n + 1,
                    source,
                });
            }
        }
    }
    Ok(v)
}

/// Run every engine over the suite, `runs` times, on `threads` workers;
/// answers already in the output folder are kept.
pub fn run(cfg: &Config) -> Result<Vec<Answer>, SimilarityError> {
    let io_in = |p: &Path| {
        let path = p.display().to_string();
        move |source| SimilarityError::Io { path, source }
    };
    crate::base::cleanup::make_dir_all(&cfg.out.join("logs")).map_err(io_in(&cfg.out))?;
    let mut answers = read_answers(&cfg.out)?;
    // answers of a crashed engine are redone
    answers.retain(|a| a.error.is_none());
    let provenance = check_provenance(cfg, &mut answers)?;
    let prov_path = cfg.out.join("provenance.json");
    let prov_text = serde_json::to_string_pretty(&provenance).unwrap_or_default() + "\n";
    std::fs::write(&prov_path, prov_text).map_err(io_in(&prov_path))?;
    let done: BTreeSet<(String, u32, usize)> = answers
        .iter()
        .map(|a| (a.engine.clone(), a.run, a.position))
        .collect();
    // rewrite the file with what is kept, so that it stays one line per answer
    let file_path = cfg.out.join("answers.jsonl");
    let mut file = std::fs::File::create(&file_path).map_err(io_in(&file_path))?;
    for a in &answers {
        writeln!(file, "{}", serde_json::to_string(a).unwrap_or_default())
            .map_err(io_in(&file_path))?;
    }
    let mut jobs: Vec<(EngineSpec, u32, Vec<usize>)> = Vec::new();
    for e in &cfg.engines {
        for r in 1..=cfg.runs {
            let todo: Vec<usize> = (0..cfg.positions.len())
                .filter(|&i| !done.contains(&(e.name.clone(), r, i)))
                .collect();
            if !todo.is_empty() {
                jobs.push((e.clone(), r, todo));
            }
        }
    }
    let total: u64 = jobs.iter().map(|j| j.2.len() as u64).sum();
    let bar = if cfg.progress {
        indicatif::ProgressBar::new(total)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} answers, {eta} left {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let jobs_len = jobs.len();
    let queue = Arc::new(Mutex::new(jobs));
    let sink = Arc::new(Mutex::new((file, answers)));
    let positions = Arc::new(cfg.positions.clone());
    let workers = cfg.threads.clamp(1, jobs_len.max(1));
    std::thread::scope(|s| {
        for _ in 0..workers {
            let queue = Arc::clone(&queue);
            let sink = Arc::clone(&sink);
            let positions = Arc::clone(&positions);
            let bar = bar.clone();
            let out = cfg.out.clone();
            let limit = cfg.limit;
            s.spawn(move || {
                loop {
                    let job = queue.lock().ok().and_then(|mut q| q.pop());
                    let Some((spec, run, todo)) = job else { break };
                    let path = out.join("logs").join(log_name(&spec.name, run));
                    let log = Transcript::create(&path).unwrap_or_else(|e| {
                        tell(
                            &bar,
                            format!("{}: cannot write the log: {e}", path.display()),
                        );
                        Transcript::discard()
                    });
                    run_job(&spec, run, &todo, &positions, limit, &log, |a| {
                        bar.inc(1);
                        if let Some(err) = &a.error {
                            tell(&bar, format!("{} (run {run}): {err}", spec.name));
                        }
                        if let Ok(mut s) = sink.lock() {
                            let line = serde_json::to_string(&a).unwrap_or_default();
                            let _ = writeln!(s.0, "{line}");
                            let _ = s.0.flush();
                            s.1.push(a);
                        }
                    });
                    if let Err(e) = log.finish() {
                        tell(
                            &bar,
                            format!("{}: cannot write the log: {e}", path.display()),
                        );
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    let answers = Arc::try_unwrap(sink)
        .map_err(|_| SimilarityError::WorkerHolds)?
        .into_inner()
        .map_err(|_| SimilarityError::WorkerPanicked)?
        .1;
    Ok(answers)
}

/// Say `line` above the progress bar, or on standard error without one.
fn tell(bar: &indicatif::ProgressBar, line: String) {
    if bar.is_hidden() {
        notice!("{line}");
    } else {
        bar.println(line);
    }
}

/// The file name of an engine's transcript for one run.
fn log_name(engine: &str, run: u32) -> String {
    let name: String = engine
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{name}-run{run}.log")
}

/// One engine, one run, over its positions, its transcript written to
/// `log`. A failed engine is started once more; if it fails again, the
/// remaining positions are answered with the error. A bestmove that is not
/// legal in its position is a failure, never an answer.
fn run_job(
    spec: &EngineSpec,
    run: u32,
    todo: &[usize],
    positions: &[Position],
    limit: Limit,
    log: &Transcript,
    mut emit: impl FnMut(Answer),
) {
    let mut engine: Option<Engine> = None;
    let mut failures = 0;
    for &i in todo {
        let blank = |error: Option<String>| Answer::blank(&spec.name, run, i, error);
        if failures >= 2 {
            emit(blank(Some(
                "engine failed twice; position not searched".into(),
            )));
            continue;
        }
        if engine.is_none() {
            match Engine::start(&spec.cmd, log.clone())
                .and_then(|mut e| e.init(&spec.options).map(|()| e))
            {
                Ok(e) => engine = Some(e),
                Err(err) => {
                    failures += 1;
                    emit(blank(Some(err.to_string())));
                    continue;
                }
            }
        }
        let Some(e) = engine.as_mut() else { continue };
        let (fen, id) = (positions[i].fen.as_str(), positions[i].id.as_str());
        let mut info = FinalInfo::default();
        let result = e
            .send("ucinewgame")
            .and_then(|()| e.send("isready"))
            .and_then(|()| {
                e.wait_for("readyok", std::time::Duration::from_secs(30))
                    .map(|_| ())
            })
            .and_then(|()| {
                e.search_seen(Some(fen), &[], limit, (60_000, 60_000), &mut |l| {
                    info.line(l);
                })
            });
        let illegal = result
            .as_ref()
            .ok()
            .and_then(|(mv, _)| not_an_answer(fen, id, mv));
        match (result, illegal) {
            (Ok(_), Some((why, fault))) => {
                failures += usize::from(fault);
                emit(blank(Some(why)));
            }
            (Ok((mv, took)), None) => {
                let (cp, mate, depth, nodes, pv) = info.0;
                emit(Answer {
                    engine: spec.name.clone(),
                    run,
                    position: i,
                    bestmove: Some(mv),
                    score_cp: cp,
                    mate,
                    depth,
                    nodes,
                    pv,
                    time_ms: took,
                    error: None,
                });
            }
            (Err(err), _) => {
                failures += 1;
                // its whole group is stopped, and the log says how it ended
                engine = None;
                emit(blank(Some(err.to_string())));
            }
        }
    }
    if let Some(e) = engine.take() {
        e.quit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn final_info(log: &str) -> Info {
        let mut f = FinalInfo::default();
        for line in log.lines() {
            if let Some((_, rest)) = line.split_once(" < ") {
                f.line(rest);
            }
        }
        f.0
    }

    #[test]
    fn an_illegal_bestmove_is_no_answer() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(not_an_answer(start, "a", "e2e4"), None);
        let (why, fault) = not_an_answer(start, "a", "e2e5").unwrap();
        assert!(
            fault && why.contains("\"e2e5\" is not a legal move in position a"),
            "{why}"
        );
        assert!(not_an_answer(start, "a", "(none)").unwrap().1);
        let mated = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
        assert!(!not_an_answer(mated, "m", "(none)").unwrap().1);
        // castling as a king's two-square move
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(not_an_answer(castle, "c", "e1g1"), None);
    }

    #[test]
    fn the_final_scored_info_line_counts() {
        let log = "t > go depth 3\n\
                   t < info depth 1 score cp 20 nodes 10 pv e2e4\n\
                   t < info depth 2 score cp 35 lowerbound nodes 40 pv d2d4\n\
                   t < info depth 2 score cp 30 nodes 50 pv e2e4 e7e5\n\
                   t < info nodes 70 nps 1000\n\
                   t < bestmove e2e4\n";
        let (cp, mate, depth, nodes, pv) = final_info(log);
        assert_eq!((cp, mate, depth), (Some(30), None, Some(2)));
        assert_eq!(nodes, Some(70));
        assert_eq!(pv, ["e2e4", "e7e5"]);
        let (cp, mate, ..) = final_info("t < info depth 9 score mate -3 pv a1a2\n");
        assert_eq!((cp, mate), (None, Some(-3)));
    }

    #[test]
    fn epd_positions_and_errors() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("s.epd");
        std::fs::write(
            &p,
            "# suite\n8/8/8/8/8/8/8/K1k5 w - - id \"kings\";\n\n8/8/8/8/8/8/8/K1k5 b - -\n",
        )
        .unwrap();
        let (v, sha) = read_epd(&p).unwrap();
        assert_eq!(
            sha,
            crate::base::digest::sha256_hex(&std::fs::read(&p).unwrap())
        );
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].id, "kings");
        assert_eq!(v[1].id, "line 4");
        std::fs::write(&p, "8/8/8/8/8/8/8/K1k5 w\n").unwrap();
        assert!(read_epd(&p).unwrap_err().to_string().contains("s.epd:1:"));
        std::fs::write(&p, "8/8/8/8/8/8/8/KKk5 w - -\n").unwrap();
        assert!(
            read_epd(&p)
                .unwrap_err()
                .to_string()
                .contains("not a legal chess position")
        );
    }
}

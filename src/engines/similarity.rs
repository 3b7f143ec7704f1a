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
//! there. An engine that cannot start, crashes or times out is reported,
//! and the others go on.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::error::SimilarityError;
use crate::engines::record::{Engine, Limit};
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

/// The last `info` line with a score, read from a transcript's lines (each
/// parsed as the engine-log reader does).
fn final_info(lines: &str) -> Info {
    use crate::ingest::engine::{Dir, Msg, parse_msg};
    let mut best: Info = (None, None, None, None, Vec::new());
    for line in lines.lines() {
        let Some((_, rest)) = line.split_once(" < ") else {
            continue;
        };
        let Msg::Info(i) = parse_msg(Dir::FromEngine, rest) else {
            continue;
        };
        let nodes = i.nodes.and_then(|n| u64::try_from(n).ok());
        // a bound or a secondary line is not the engine's final score
        let partial = i.bound.is_some() || i.multipv.is_some_and(|m| m != 1);
        if (i.cp.is_some() || i.mate.is_some()) && !partial {
            let depth = i.depth.and_then(|d| u32::try_from(d).ok());
            best = (i.cp, i.mate, depth, nodes.or(best.3), i.pv);
        } else if nodes.is_some() {
            best.3 = nodes;
        }
    }
    best
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
fn parse_answers(shown: &str, text: &str) -> Result<Vec<Answer>, SimilarityError> {
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
    std::fs::create_dir_all(cfg.out.join("logs")).map_err(io_in(&cfg.out))?;
    let mut answers = read_answers(&cfg.out)?;
    // answers of a crashed engine are redone
    answers.retain(|a| a.error.is_none());
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
    let queue = Arc::new(Mutex::new(jobs));
    let sink = Arc::new(Mutex::new((file, answers)));
    let positions = Arc::new(cfg.positions.clone());
    let workers = cfg.threads.max(1);
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
                    let log = run_job(&spec, run, &todo, &positions, limit, |a| {
                        bar.inc(1);
                        if let Some(err) = &a.error {
                            bar.println(format!("{} (run {run}): {err}", spec.name));
                        }
                        if let Ok(mut s) = sink.lock() {
                            let line = serde_json::to_string(&a).unwrap_or_default();
                            let _ = writeln!(s.0, "{line}");
                            let _ = s.0.flush();
                            s.1.push(a);
                        }
                    });
                    let name: String = spec
                        .name
                        .chars()
                        .map(|c| {
                            if c.is_alphanumeric() || c == '-' {
                                c
                            } else {
                                '_'
                            }
                        })
                        .collect();
                    let _ =
                        std::fs::write(out.join("logs").join(format!("{name}-run{run}.log")), log);
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

/// One engine, one run, over its positions; returns the transcript. A
/// failed engine is started once more; if it fails again, the remaining
/// positions are answered with the error.
fn run_job(
    spec: &EngineSpec,
    run: u32,
    todo: &[usize],
    positions: &[Position],
    limit: Limit,
    mut emit: impl FnMut(Answer),
) -> String {
    let mut transcript = String::new();
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
            match Engine::start(&spec.cmd).and_then(|mut e| e.init(&spec.options).map(|()| e)) {
                Ok(e) => engine = Some(e),
                Err(err) => {
                    failures += 1;
                    emit(blank(Some(err.to_string())));
                    continue;
                }
            }
        }
        let Some(e) = engine.as_mut() else { continue };
        let from = e.log.len();
        let fen = positions[i].fen.as_str();
        let result = e
            .send("ucinewgame")
            .and_then(|()| e.send("isready"))
            .and_then(|()| {
                e.wait_for("readyok", std::time::Duration::from_secs(30))
                    .map(|_| ())
            })
            .and_then(|()| e.search(Some(fen), &[], limit, (60_000, 60_000)));
        match result {
            Ok((mv, took)) => {
                let (cp, mate, depth, nodes, pv) = final_info(&e.log[from..]);
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
            Err(err) => {
                failures += 1;
                if let Some(e) = engine.take() {
                    transcript.push_str(&e.quit());
                }
                emit(blank(Some(err.to_string())));
            }
        }
        // keep memory flat: move the transcript out of the engine
        if let Some(e) = engine.as_mut() {
            transcript.push_str(&std::mem::take(&mut e.log));
        }
    }
    if let Some(e) = engine.take() {
        transcript.push_str(&e.quit());
    }
    transcript
}

/// A reference field: the answers of an earlier run of `arbiter
/// similarity` over the same suite at the same limit. Its engines join the
/// consensus and the null of a new run.
#[derive(Debug, Clone)]
pub struct Reference {
    pub folder: String,
    pub engines: Vec<String>,
    /// Run 1's answers.
    pub answers: Vec<Answer>,
    pub answers_sha256: String,
    pub report_sha256: String,
    pub positions_sha256: String,
    pub limit: String,
}

impl Reference {
    /// Read DIR/similarity.json and DIR/answers.jsonl.
    pub fn read(dir: &Path) -> Result<Reference, SimilarityError> {
        let folder = dir.display().to_string();
        let report_path = dir.join("similarity.json");
        let report_shown = report_path.display().to_string();
        let bytes = std::fs::read(&report_path).map_err(|source| SimilarityError::NoReference {
            path: report_shown.clone(),
            source,
        })?;
        let v: serde_json::Value =
            serde_json::from_slice(&bytes).map_err(|source| SimilarityError::NotJson {
                path: report_shown.clone(),
                source,
            })?;
        let field = |k: &str| -> Result<String, SimilarityError> {
            v.get(k)
                .and_then(|x| x.as_str())
                .map(str::to_string)
                .ok_or_else(|| SimilarityError::MissingField {
                    path: report_shown.clone(),
                    field: k.to_string(),
                })
        };
        let positions_sha256 = field("positions_sha256")?;
        let limit = field("limit")?;
        let engines: Vec<String> = v
            .get("engines")
            .and_then(|e| e.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|e| e.get("name")?.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        if engines.is_empty() {
            return Err(SimilarityError::NoEngines { path: report_shown });
        }
        let answers_path = dir.join("answers.jsonl");
        let answers_shown = answers_path.display().to_string();
        let answers_bytes = std::fs::read(&answers_path).map_err(|source| SimilarityError::Io {
            path: answers_shown.clone(),
            source,
        })?;
        let answers_text =
            std::str::from_utf8(&answers_bytes).map_err(|_| SimilarityError::NotUtf8 {
                path: answers_shown.clone(),
            })?;
        let answers: Vec<Answer> = parse_answers(&answers_shown, answers_text)?
            .into_iter()
            .filter(|a| a.run == 1 && a.error.is_none() && engines.contains(&a.engine))
            .collect();
        for e in &engines {
            if !answers.iter().any(|a| &a.engine == e) {
                return Err(SimilarityError::NoAnswers {
                    path: answers_shown,
                    engine: e.clone(),
                });
            }
        }
        Ok(Reference {
            folder,
            engines,
            answers,
            answers_sha256: crate::base::digest::sha256_hex(&answers_bytes),
            report_sha256: crate::base::digest::sha256_hex(&bytes),
            positions_sha256,
            limit,
        })
    }

    /// The reference must have answered the same suite at the same limit,
    /// and its engines' names must differ from the new ones.
    pub fn check(
        &self,
        suite_sha256: &str,
        limit: &str,
        specs: &[EngineSpec],
    ) -> Result<(), SimilarityError> {
        if self.positions_sha256 != suite_sha256 {
            return Err(SimilarityError::OtherSuite {
                folder: self.folder.clone(),
                reference: self.positions_sha256.clone(),
                suite: suite_sha256.to_string(),
            });
        }
        if self.limit != limit {
            return Err(SimilarityError::OtherLimit {
                folder: self.folder.clone(),
                reference: self.limit.clone(),
                limit: limit.to_string(),
            });
        }
        if let Some(s) = specs.iter().find(|s| self.engines.contains(&s.name)) {
            return Err(SimilarityError::SameName {
                name: s.name.clone(),
                folder: self.folder.clone(),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

//! `arbiter similarity`: the active test (real engines over a position
//! suite) or the passive one (what the engines of an event's games chose);
//! the report, its charts and a text summary.

use std::io::Write;
use std::path::PathBuf;

use serde_json::json;

use super::{CLEAN, SimilarityRunError};
use crate::engines::engine::Limit;
use crate::engines::reference::Reference;
use crate::engines::similarity as active;
use crate::facts::similarity as sim;

/// The flags of `arbiter similarity`, as given: each is checked where the
/// run needs it.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// `NAME=COMMAND` for each engine (the active test).
    pub engines: Vec<String>,
    /// The position suite (EPD).
    pub positions: Option<PathBuf>,
    /// The games of the passive test.
    pub games: Vec<PathBuf>,
    pub min_positions: usize,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub runs: u32,
    pub threads: usize,
    pub out: PathBuf,
    /// `NAME=VALUE` for every engine, `ENGINE:NAME=VALUE` for one.
    pub options: Vec<String>,
    pub reference: Option<PathBuf>,
    /// `A,B`: two engines known to be related.
    pub related: Vec<String>,
    pub false_positive_rate: f64,
    pub bootstrap: usize,
    pub progress: bool,
}

/// Run the test `req` asks for and write its report into `req.out`.
pub fn run(req: &Request, out: &mut dyn Write) -> Result<i32, SimilarityRunError> {
    if !req.games.is_empty() {
        return passive(req, out);
    }
    let Some(positions) = req.positions.as_deref() else {
        return Err(SimilarityRunError::NoPositions);
    };
    let settings = signature_settings(req)?;
    let specs = engine_specs(req)?;
    let reference = match &req.reference {
        Some(r) => Some(Reference::read(r)?),
        None => None,
    };
    if let Some(r) = reference.as_ref().filter(|r| !r.checked) {
        notice!(
            "arbiter similarity: warning: {}/similarity.json names no answers_sha256 (an older report): its answers.jsonl is used unchecked",
            r.folder
        );
    }
    let fielded = specs.len() + reference.as_ref().map_or(0, |r| r.engines.len());
    if specs.is_empty() || fielded < 2 {
        return Err(SimilarityRunError::TooFewEngines);
    }
    if !(1..=2).contains(&req.runs) {
        return Err(SimilarityRunError::Runs);
    }
    let (suite, suite_sha) = active::read_epd(positions)?;
    let limit = match (req.movetime, req.depth) {
        (_, Some(d)) => Limit::Depth(d),
        (Some(ms), None) => Limit::MoveTime(ms),
        (None, None) => Limit::MoveTime(100),
    };
    let limit_text = match limit {
        Limit::Depth(d) => format!("depth {d}"),
        Limit::MoveTime(ms) => format!("movetime {ms} ms"),
        Limit::Clock(..) => String::new(),
    };
    if let Some(r) = &reference {
        r.check(&suite_sha, &limit_text, &specs)?;
    }
    check_related(&settings, &specs, reference.as_ref())?;
    let cfg = active::Config {
        engines: specs.clone(),
        positions: suite.clone(),
        limit,
        runs: req.runs,
        out: req.out.clone(),
        threads: req.threads,
        progress: req.progress,
        suite_sha256: suite_sha.clone(),
        limit_text: limit_text.clone(),
    };
    let mut answers = active::run(&cfg)?;
    let answers_sha = sim::answers_digest(&answers);
    let mut names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    if let Some(r) = &reference {
        names.extend(r.engines.iter().cloned());
        answers.extend(r.answers.iter().cloned());
    }
    let report = sim::analyze(&names, suite.len(), &answers, &settings);
    let engine_json = |s: &active::EngineSpec| {
        json!({
            "name": s.name,
            "command": s.cmd,
            "options": s.options.iter().map(|(k, v)| json!({"name": k, "value": v})).collect::<Vec<_>>(),
        })
    };
    let json = json!({
        "arbiter_version": crate::VERSION,
        "positions_file": positions.display().to_string(),
        "positions_sha256": suite_sha,
        "limit": limit_text,
        "answers_sha256": answers_sha,
        "engines": specs.iter().map(engine_json).collect::<Vec<_>>(),
        "reference": reference.as_ref().map(|r| json!({
            "folder": r.folder,
            "answers_sha256": r.answers_sha256,
            "report_sha256": r.report_sha256,
            "engines": r.engines,
        })),
        "report": report,
    });
    crate::report::similarity::write_files(&req.out, &json, &report)?;
    write!(
        out,
        "{} engines{}, {} positions ({}), {limit_text}\n\n{}",
        specs.len(),
        reference.as_ref().map_or(String::new(), |r| format!(
            " and {} of the reference field",
            r.engines.len()
        )),
        suite.len(),
        positions.display(),
        sim::text(&report)
    )
    .map_err(SimilarityRunError::Output)?;
    Ok(CLEAN)
}

/// `--games`: the passive test over an event's games.
fn passive(req: &Request, out: &mut dyn Write) -> Result<i32, SimilarityRunError> {
    let (min_positions, dir) = (req.min_positions, req.out.as_path());
    let settings = signature_settings(req)?;
    let (tally, inputs) = crate::pipeline::similarity::passive_tally(&req.games)?;
    let choices = tally.choices();
    let report = tally.analyze(min_positions, &settings);
    crate::base::cleanup::make_dir_all(dir).map_err(|source| SimilarityRunError::Dir {
        path: dir.display().to_string(),
        source,
    })?;
    // the fields in the order the report has always had them
    #[derive(serde::Serialize)]
    struct Passive<'a> {
        arbiter_version: &'a str,
        mode: &'a str,
        inputs: &'a [serde_json::Value],
        min_positions: usize,
        choices: usize,
        report: &'a sim::Report,
    }
    let json = Passive {
        arbiter_version: crate::VERSION,
        mode: "passive",
        inputs: &inputs,
        min_positions,
        choices,
        report: &report,
    };
    crate::report::similarity::write_files(dir, &json, &report)?;
    write!(
        out,
        "passive test: {} engines, {} positions ({} choices), pairs sharing at least {min_positions}\n\n{}",
        report.engines.len(),
        report.positions,
        choices,
        sim::text(&report)
    )
    .map_err(SimilarityRunError::Output)?;
    Ok(CLEAN)
}

/// The settings of the evaluation-signature verdict, from the flags.
fn signature_settings(req: &Request) -> Result<sim::signature::Settings, SimilarityRunError> {
    let mut related = Vec::new();
    for r in &req.related {
        let (a, b) = r
            .split_once(',')
            .filter(|(a, b)| !a.trim().is_empty() && !b.trim().is_empty())
            .ok_or_else(|| SimilarityRunError::Related { found: r.clone() })?;
        related.push((a.trim().to_string(), b.trim().to_string()));
    }
    if !(req.false_positive_rate > 0.0 && req.false_positive_rate < 1.0) {
        return Err(SimilarityRunError::FalsePositiveRate {
            value: req.false_positive_rate,
        });
    }
    if req.bootstrap == 0 {
        return Err(SimilarityRunError::Bootstrap);
    }
    Ok(sim::signature::Settings {
        bootstrap: req.bootstrap,
        false_positive_rate: req.false_positive_rate,
        related,
        min_positions: req.min_positions,
        ..Default::default()
    })
}

/// The engines of `--engine NAME=COMMAND`, each with its `--option`s
/// (`NAME=VALUE` for every engine, `ENGINE:NAME=VALUE` for one).
fn engine_specs(req: &Request) -> Result<Vec<active::EngineSpec>, SimilarityRunError> {
    let mut specs: Vec<active::EngineSpec> = Vec::new();
    for e in &req.engines {
        let (name, cmd) = e
            .split_once('=')
            .filter(|(n, c)| !n.trim().is_empty() && !c.trim().is_empty())
            .ok_or_else(|| SimilarityRunError::Engine { found: e.clone() })?;
        if specs.iter().any(|s| s.name == name) {
            return Err(SimilarityRunError::SameName {
                name: name.to_string(),
            });
        }
        specs.push(active::EngineSpec {
            name: name.to_string(),
            cmd: cmd.to_string(),
            options: Vec::new(),
        });
    }
    for o in &req.options {
        let (k, v) = o
            .split_once('=')
            .ok_or_else(|| SimilarityRunError::EngineOption { found: o.clone() })?;
        let one = k
            .split_once(':')
            .filter(|(e, _)| specs.iter().any(|s| s.name == *e));
        match one {
            Some((e, k)) => {
                for s in specs.iter_mut().filter(|s| s.name == e) {
                    s.options.push((k.to_string(), v.to_string()));
                }
            }
            None => {
                for s in &mut specs {
                    s.options.push((k.to_string(), v.to_string()));
                }
            }
        }
    }
    Ok(specs)
}

/// Every engine `--related` names is one of the field's.
fn check_related(
    settings: &sim::signature::Settings,
    specs: &[active::EngineSpec],
    reference: Option<&Reference>,
) -> Result<(), SimilarityRunError> {
    let field: Vec<&String> = specs
        .iter()
        .map(|s| &s.name)
        .chain(reference.iter().flat_map(|r| r.engines.iter()))
        .collect();
    for (a, b) in &settings.related {
        if let Some(x) = [a, b].into_iter().find(|x| !field.contains(x)) {
            return Err(SimilarityRunError::NotInField {
                name: x.to_string(),
                field: field.iter().map(|s| s.to_string()).collect(),
            });
        }
    }
    Ok(())
}

//! `arbiter batch`: whole archives in parallel, into a folder: every game's
//! JSON line and the events' (audit.jsonl), the tables and the summary.

use std::io::{self, Write};
use std::path::PathBuf;

use super::{BatchRunError, CLEAN, ConfigureError, FAILURE, ShardError, VIOLATIONS};
use crate::pipeline::batch::{BatchConfig, Outcome};
use crate::pipeline::{BatchInvocation, Config, Settings};

/// What to audit, and how.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub paths: Vec<PathBuf>,
    pub settings: Settings,
    /// The output folder.
    pub out: PathBuf,
    /// `(k, n)`: audit the k-th of every n games.
    pub shard: Option<(u64, u64)>,
    /// `--shard` as given, for the record.
    pub shard_text: Option<String>,
    /// Threads for the games and the engine logs, and as many again for
    /// the fit.
    pub threads: usize,
    /// No progress bar and no messages (`verify` reruns a batch so).
    pub quiet: bool,
    /// No progress bar (`--quiet`): errors and the verdict still said.
    pub no_progress: bool,
}

/// The configuration of the batch: what `settings` give (each file fitted
/// as it is read, when asked) and what the report records. Each part of
/// the batch keeps to `threads`: the games, the engine logs, and the fit
/// (on threads of its own, beside the games).
pub fn configure(req: &Request) -> Result<Config, ConfigureError> {
    let more = || crate::pipeline::inputs::case_rule_ids(&req.paths);
    let mut cfg = Config::load_with(&req.settings, false, req.threads, &more)?;
    if req.settings.fit {
        crate::pipeline::fit::check(&cfg)?;
        cfg.fit = true;
    }
    let mut inv = req.settings.invocation(&req.paths);
    inv.batch = Some(BatchInvocation {
        shard: req.shard_text.clone(),
    });
    cfg.invocation = Some(inv);
    Ok(cfg)
}

/// Run the batch under `cfg` and write its folder; the exit status.
pub fn run(req: &Request, cfg: Config) -> Result<i32, BatchRunError> {
    let dir = &req.out;
    let read = crate::pipeline::files_read(&req.paths, &req.settings);
    crate::pipeline::refuse_overwrite(dir, &writes, &read)?;
    crate::base::cleanup::make_dir_all(dir).map_err(|source| BatchRunError::File {
        path: dir.display().to_string(),
        source,
    })?;
    let bcfg = BatchConfig {
        paths: req.paths.clone(),
        audit: cfg.clone(),
        out: dir.clone(),
        shard: req.shard,
        threads: req.threads,
        progress: !req.quiet && !req.no_progress && io::IsTerminal::is_terminal(&io::stderr()),
        line: |g| crate::report::json::game_line(g).to_string(),
    };
    // the games' lines are written as the games finish; the events' lines
    // and the summary follow
    let jsonl = dir.join("audit.jsonl");
    let shown = jsonl.display().to_string();
    let in_lines = |source| BatchRunError::File {
        path: shown.clone(),
        source,
    };
    // under a temporary name until complete
    let mut lines = crate::base::files::Atomic::create(&jsonl).map_err(in_lines)?;
    // what the tables' writer makes once per run, made beside the audit
    // where it is sure to be needed
    #[cfg(feature = "tables")]
    let prepared = cfg
        .ruleset
        .is_none()
        .then(|| std::thread::spawn(crate::report::batch::prepare_tables));
    let outcome = crate::pipeline::batch::run(&bcfg, &mut lines, &shown)?;
    #[cfg(feature = "tables")]
    if let Some(prepared) = prepared {
        let _ = prepared.join();
    }
    if let Some(shard) = req.shard {
        write_part(dir, &outcome, shard, &cfg)?;
    }
    finish(req, &cfg, "batch", outcome, lines)
}

/// A shard's part (`shard.jsonl`), for `arbiter merge`.
fn write_part(
    dir: &std::path::Path,
    outcome: &Outcome,
    shard: (u64, u64),
    cfg: &Config,
) -> Result<(), BatchRunError> {
    let path = dir.join(crate::pipeline::batch::shard::PART);
    let in_part = |source| BatchRunError::File {
        path: path.display().to_string(),
        source,
    };
    let mut part = crate::base::files::Atomic::create(&path).map_err(in_part)?;
    let unprobed = cfg.detectors.unprobed();
    crate::pipeline::batch::shard::write_part(outcome, shard, unprobed, &mut part)
        .and_then(|()| part.commit())
        .map_err(in_part)
}

/// The end of a batch (or of a merge of its shards, `command`): the
/// events' lines and the summary after the games' in `lines`, the tables
/// and the summaries, and the verdict; the exit status.
pub(super) fn finish(
    req: &Request,
    cfg: &Config,
    command: &str,
    outcome: Outcome,
    mut lines: crate::base::files::Atomic,
) -> Result<i32, BatchRunError> {
    let dir = &req.out;
    let jsonl = dir.join("audit.jsonl");
    let in_lines = |source| BatchRunError::File {
        path: jsonl.display().to_string(),
        source,
    };
    if !req.quiet {
        for (p, e) in &outcome.unreadable {
            notice!("arbiter {command}: {p}: {e}");
        }
    }
    lines
        .write_all(crate::report::json::jsonl_tail(&outcome, cfg).as_bytes())
        .and_then(|()| lines.commit())
        .map_err(in_lines)?;
    write_reports(dir, &outcome, req.shard, cfg)?;
    // a shard may hold no game; the run must have read one
    let nothing = outcome
        .unreadable
        .is_empty()
        .then(|| super::nothing_to_audit(&req.paths, &outcome.inputs))
        .flatten();
    if let Some(why) = nothing.as_ref().filter(|_| !req.quiet) {
        notice!("arbiter {command}: {why}");
    }
    let status = if !outcome.unreadable.is_empty() || nothing.is_some() {
        FAILURE
    } else if outcome.violations() > 0 {
        VIOLATIONS
    } else {
        CLEAN
    };
    if !req.quiet {
        // the verdict, last
        let mut by = [0u64; 4];
        let findings = outcome.games.iter().flat_map(|g| &g.findings).chain(
            outcome
                .events
                .iter()
                .flat_map(|e| e.findings.iter().map(|(_, f)| f)),
        );
        for f in findings {
            by[f.severity as usize] += 1;
        }
        notice!(
            "arbiter {command}: {} games in {} files: {} errors, {} warnings, {} info, {} for manual review; audit.jsonl, tables and summary in {}; {}",
            outcome.games.len(),
            outcome.inputs.len(),
            by[0],
            by[1],
            by[2],
            by[3],
            dir.display(),
            crate::report::text::status_meaning(
                status,
                outcome.unreadable.len(),
                nothing.is_some()
            )
        );
    }
    Ok(status)
}

/// Whether the batch writes `rel`, a path in its folder: audit.jsonl, the
/// summary, and the tables (CSV and Parquet).
pub(super) fn writes(rel: &std::path::Path) -> bool {
    let top = rel.parent() == Some(std::path::Path::new(""));
    let part = crate::pipeline::batch::shard::PART;
    top && (["audit.jsonl", "summary.md", "summary.html", part]
        .iter()
        .any(|n| rel == std::path::Path::new(n))
        || rel
            .extension()
            .is_some_and(|e| e == "csv" || e == "parquet"))
}

/// The batch's tables and summary (the `tables` feature).
#[cfg(feature = "tables")]
fn write_reports(
    dir: &std::path::Path,
    outcome: &Outcome,
    shard: Option<(u64, u64)>,
    cfg: &Config,
) -> Result<(), BatchRunError> {
    let shown = crate::report::batch::write_tables(dir, outcome, &outcome.fitted)?;
    let mut facts = vec![format!(
        "{} game{}, {} violations (errors and warnings)",
        outcome.games.len(),
        if outcome.games.len() == 1 { "" } else { "s" },
        outcome.violations()
    )];
    let mut rec =
        crate::report::dossier::record(cfg, &outcome.inputs, &outcome.hashed, &outcome.unreadable);
    if let Some(rs) = &cfg.ruleset {
        facts.push(format!("ruleset {} ({})", rs.title, rs.id));
    }
    if let Some(shelf) = &cfg.shelf {
        let mut by: std::collections::BTreeMap<&str, usize> = Default::default();
        for i in &outcome.inputs {
            *by.entry(i.ruleset.as_ref().map_or("none", |c| c.id.as_str()))
                .or_default() += 1;
        }
        let each: Vec<String> = by.iter().map(|(id, n)| format!("{id}: {n}")).collect();
        facts.push(format!(
            "rulesets of {}, chosen per file (files judged under each: {}; audit.jsonl's summary says why for each file)",
            shelf.dir,
            each.join(", ")
        ));
    }
    if let Some((k, n)) = shard {
        facts.push(format!("shard {k}/{n}"));
        rec.notes.push(("shard".into(), format!("{k}/{n}")));
    }
    let (md, html) = crate::report::batch::summaries(outcome, &shown, &facts, &rec)?;
    crate::report::write_in(dir, "summary.md", &md)?;
    crate::report::write_in(dir, "summary.html", &html)?;
    Ok(())
}

/// Without the `tables` feature there is no polars: say so.
#[cfg(not(feature = "tables"))]
fn write_reports(
    _dir: &std::path::Path,
    _outcome: &Outcome,
    _shard: Option<(u64, u64)>,
    _cfg: &Config,
) -> Result<(), BatchRunError> {
    Err(super::TablesError.into())
}

/// `--shard K/N`: `(k, n)` with 1 ≤ k ≤ n.
pub fn parse_shard(s: &str) -> Result<(u64, u64), ShardError> {
    s.split_once('/')
        .and_then(|(k, n)| Some((k.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?)))
        .filter(|(k, n)| *n >= 1 && (1..=*n).contains(k))
        .ok_or_else(|| ShardError {
            text: s.to_string(),
        })
}

//! `arbiter audit`: every game of every input through the pipeline, each
//! handed to the report writers asked for; the summary last.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{AuditRunError, CLEAN, ConfigureError, FAILURE, VIOLATIONS};
use crate::pipeline::run::audit_paths;
use crate::pipeline::{Config, Settings, machine_threads};
use crate::report::Writer;
use crate::report::chart::Charts;
use crate::report::dossier::Folder;
use crate::report::lines::{Form, Lines};

/// What to audit and what to write.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub paths: Vec<PathBuf>,
    pub settings: Settings,
    /// JSON Lines on standard output, else text.
    pub json: bool,
    /// A folder for each game's clock chart.
    pub charts: Option<PathBuf>,
    /// A folder for the reports (audit.jsonl, the dossier).
    pub out: Option<PathBuf>,
    /// Text: the SHA-256 of every input before the summary.
    pub verbose: bool,
    /// Text: only the games with findings, and no progress bar.
    pub quiet: bool,
    /// Text: in colour, for a terminal that shows them.
    pub paint: bool,
}

/// The configuration of an audit of `paths` under `settings` (each file
/// fitted as it is read when the settings ask for it), and what the report
/// records of the invocation.
pub fn configure(paths: &[PathBuf], settings: &Settings) -> Result<Config, ConfigureError> {
    let more = || crate::pipeline::inputs::case_rule_ids(paths);
    let mut cfg = Config::load_with(settings, false, machine_threads(), &more)?;
    if settings.fit {
        crate::pipeline::fit::check(&cfg)?;
        cfg.fit = true;
    }
    cfg.invocation = Some(settings.invocation(paths));
    Ok(cfg)
}

/// Audit `req.paths` under `cfg`, writing to `out` and to the folders asked
/// for.
pub fn run(req: &Request, cfg: &Config, out: &mut dyn Write) -> Result<i32, AuditRunError> {
    let mut cfg = cfg.clone();
    cfg.clocks = req.charts.is_some() || req.out.is_some();
    cfg.progress = !req.quiet && crate::pipeline::progress::on_terminal();
    refuse_overwrites(req)?;
    for dir in [&req.charts, &req.out].into_iter().flatten() {
        crate::base::cleanup::make_dir_all(dir).map_err(|source| AuditRunError::Dir {
            path: dir.display().to_string(),
            source,
        })?;
    }
    let mut folder = req
        .out
        .as_deref()
        .map(|d| Folder::new(d, cfg.adjudication_bands()));
    let mut charts = req.charts.as_deref().map(Charts::new);
    let form = if req.json { Form::Json } else { Form::Text };
    let mut stdout = Lines::new(out, form)
        .collapsing(cfg.fit)
        .verbose(req.verbose)
        .quiet(req.quiet)
        .painted(req.paint);
    let mut writers: Vec<&mut dyn Writer> = Vec::new();
    if let Some(f) = &mut folder {
        writers.push(f);
    }
    if let Some(c) = &mut charts {
        writers.push(c);
    }
    writers.push(&mut stdout);
    Ok(write_all(&req.paths, &cfg, &mut writers))
}

/// Refuse an output folder where the audit would replace one of its
/// inputs: `--out`'s reports and `--charts`'s SVG files.
fn refuse_overwrites(req: &Request) -> Result<(), crate::pipeline::OverwriteError> {
    if req.out.is_none() && req.charts.is_none() {
        return Ok(());
    }
    let read = crate::pipeline::files_read(&req.paths, &req.settings);
    if let Some(out) = &req.out {
        crate::pipeline::refuse_overwrite(out, &writes_folder, &read)?;
    }
    if let Some(charts) = &req.charts {
        let svg = |p: &Path| {
            p.parent() == Some(Path::new("")) && p.extension().is_some_and(|e| e == "svg")
        };
        crate::pipeline::refuse_overwrite(charts, &svg, &read)?;
    }
    Ok(())
}

/// Whether `audit --out` writes `rel` (a path in its folder).
fn writes_folder(rel: &Path) -> bool {
    ["audit.jsonl", "dossier.html", "dossier.md"]
        .iter()
        .any(|n| rel == Path::new(n))
        || rel.starts_with("dossier-files")
}

/// Audit `paths` under `cfg` into `writers`, in their order; the exit
/// status.
pub fn write_all(paths: &[PathBuf], cfg: &Config, writers: &mut [&mut dyn Writer]) -> i32 {
    let run = audit_paths(paths, cfg, &mut |g| {
        for w in writers.iter_mut() {
            w.game(g)?;
        }
        Ok(())
    });
    // a closed pipe: nothing more can be written
    let Ok(run) = run else { return FAILURE };
    for w in writers.iter_mut() {
        if let Err(e) = w.finish(&run, cfg) {
            notice!("arbiter: {e}");
            return FAILURE;
        }
    }
    // an input that could not be read says why already
    let nothing = run
        .unreadable
        .is_empty()
        .then(|| super::nothing_to_audit(paths, &run.inputs))
        .flatten();
    if let Some(why) = &nothing {
        notice!("arbiter: {why}");
    }
    let status =
        if !run.unreadable.is_empty() || nothing.is_some() || writers.iter().any(|w| w.failed()) {
            FAILURE
        } else if run.totals.violations() > 0 {
            VIOLATIONS
        } else {
            CLEAN
        };
    for w in writers.iter_mut() {
        w.verdict(status, &run, cfg);
    }
    status
}

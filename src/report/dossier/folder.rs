//! The report folder of `audit --out DIR`: `audit.jsonl`, `dossier.html`
//! and `dossier.md` with its boards and charts in `dossier-files/`, and the
//! record of inputs every report of a folder carries.

use std::path::{Path, PathBuf};

use super::{Dossier, FileHash, GameView, Record, command_line, view};
use crate::findings::Totals;
use crate::pipeline::run::AuditRun;
use crate::pipeline::{Config, GameAudit, InputSummary};
use crate::report::json::{game_line, summary_line};
use crate::report::{ReportError, write_in};

/// The dossier folder as a writer: each game's JSON line and what the
/// dossier keeps of it, then the files.
#[derive(Debug)]
pub struct Folder {
    dir: PathBuf,
    bands: Vec<(f64, &'static str)>,
    jsonl: String,
    views: Vec<GameView>,
}

impl Folder {
    /// A writer into `dir` (made already); `bands` are the ruleset's
    /// adjudication bands, shaded on the evaluation charts
    /// (`Config::adjudication_bands`).
    pub fn new(dir: &Path, bands: Vec<(f64, &'static str)>) -> Folder {
        Folder {
            dir: dir.to_path_buf(),
            bands,
            jsonl: String::new(),
            views: Vec::new(),
        }
    }
}

impl crate::report::Writer for Folder {
    fn game(&mut self, g: &GameAudit) -> std::io::Result<()> {
        self.jsonl.push_str(&game_line(g).to_string());
        self.jsonl.push('\n');
        self.views.push(view(g, &self.bands));
        Ok(())
    }

    fn finish(&mut self, run: &AuditRun, cfg: &Config) -> Result<(), ReportError> {
        write_reports(
            &self.dir,
            &self.jsonl,
            &self.views,
            &run.totals,
            &run.inputs,
            &run.unreadable,
            cfg,
            &run.hashed,
        )
    }
}

/// The hashed files other than the inputs (`crate::pipeline::hashed_files`),
/// as a report's record lists them: (kind, path, SHA-256 or why unreadable).
fn hashed_files(hashed: &[serde_json::Value]) -> Vec<(String, String, FileHash)> {
    hashed
        .iter()
        .filter_map(|l| {
            let (p, k) = (l["path"].as_str()?, l["kind"].as_str()?);
            let h = match l["sha256"].as_str() {
                Some(h) => FileHash::Sha256(h.to_string()),
                None => FileHash::Unreadable(l["error"].as_str().unwrap_or("?").to_string()),
            };
            Some((k.to_string(), p.to_string(), h))
        })
        .collect()
}

/// A report's record of inputs: the version, the command, the ruleset, and
/// every file hashed: the `--rules` ruleset, the inputs, the other files
/// judged with (logs, case folders' rulesets) and the unreadable inputs.
pub fn record(
    cfg: &Config,
    inputs: &[InputSummary],
    hashed: &[serde_json::Value],
    unreadable: &[(String, String)],
) -> Record {
    let mut files = Vec::new();
    let base = cfg.ruleset.as_ref().map(|rs| rs.path.clone());
    if let Some(rs) = &cfg.ruleset {
        files.push((
            "ruleset".to_string(),
            rs.path.clone(),
            FileHash::Sha256(rs.sha256.clone()),
        ));
    }
    for i in inputs {
        files.push((
            "input".to_string(),
            i.path.clone(),
            FileHash::Sha256(i.sha256.clone()),
        ));
    }
    files.extend(
        hashed_files(hashed)
            .into_iter()
            .filter(|(k, p, _)| !(k == "ruleset" && Some(p) == base.as_ref())),
    );
    for (p, e) in unreadable {
        files.push((
            "input".to_string(),
            p.clone(),
            FileHash::Unreadable(e.clone()),
        ));
    }
    Record {
        version: crate::VERSION.to_string(),
        command: cfg.invocation.as_ref().map(command_line),
        ruleset: cfg
            .ruleset
            .as_ref()
            .map(|rs| format!("{} ({})", rs.title, rs.id)),
        notes: Vec::new(),
        files,
    }
}

/// Write audit.jsonl, dossier.html and dossier.md (with its files).
#[allow(clippy::too_many_arguments)]
fn write_reports(
    dir: &Path,
    jsonl: &str,
    views: &[GameView],
    totals: &Totals,
    inputs: &[InputSummary],
    unreadable: &[(String, String)],
    cfg: &Config,
    logs: &[serde_json::Value],
) -> Result<(), ReportError> {
    let write = |name: &str, text: &str| write_in(dir, name, text);
    let summary_json = summary_line(totals, inputs, unreadable, cfg, logs);
    write("audit.jsonl", &format!("{jsonl}{summary_json}\n"))?;
    let mut facts = vec![format!(
        "{} game{}, {} plies",
        totals.games,
        if totals.games == 1 { "" } else { "s" },
        totals.plies
    )];
    if let Some(rs) = &cfg.ruleset {
        let manual = rs
            .rules
            .iter()
            .filter(|r| matches!(r.check, crate::rules::analysis::Check::Manual(_)))
            .count();
        facts.push(format!(
            "ruleset {} ({}), {manual} of its rules for manual review",
            rs.title, rs.id
        ));
    }
    let title = match &cfg.ruleset {
        Some(rs) => format!("arbiter dossier: {}", rs.title),
        None => "arbiter dossier".to_string(),
    };
    let d = Dossier {
        title,
        facts,
        games: views,
        record: record(cfg, inputs, logs, unreadable),
    };
    write("dossier.html", &super::to_html(&d))?;
    let files_dir = "dossier-files";
    let (md, files) = super::to_markdown(&d, files_dir);
    std::fs::create_dir_all(dir.join(files_dir)).map_err(|source| ReportError::File {
        path: dir.join(files_dir).display().to_string(),
        source,
    })?;
    for (name, svg) in files {
        write(&format!("{files_dir}/{name}"), &svg)?;
    }
    write("dossier.md", &md)?;
    Ok(())
}

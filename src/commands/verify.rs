//! `arbiter verify REPORT`: recheck a report against its inputs.
//!
//! A report (the JSON lines of `audit --format json`, or the folder that
//! `audit --out` or `batch --out` wrote, or that folder's audit.jsonl)
//! records the arbiter version, the SHA-256 of every input, log and
//! ruleset, and the invocation. Verifying it means: the inputs still have
//! those hashes, and the same audit (or batch) run again now gives the same
//! bytes, file by file. An appeals committee can then rely on the verdict being
//! the one the inputs produce.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{BatchRunError, CLEAN, VIOLATIONS, VerifyError};
use crate::base::digest::HashingReader;
use crate::pipeline::{Config, Invocation, Settings, machine_threads, syzygy_listing};

/// A report as read back.
#[derive(Debug, Clone)]
pub struct Report {
    /// The JSON lines file.
    pub jsonl: PathBuf,
    /// The folder, when the report is an `audit --out` or `batch --out`
    /// folder.
    pub dir: Option<PathBuf>,
    pub summary: Value,
    pub invocation: Invocation,
}

impl Report {
    /// Read the report at `path` (a file of JSON lines, or a folder and its
    /// audit.jsonl) line by line: each must be JSON, and one the summary,
    /// the only one kept.
    pub fn read(path: &Path) -> Result<Report, VerifyError> {
        let (jsonl, dir) = if path.is_dir() {
            (path.join("audit.jsonl"), Some(path.to_path_buf()))
        } else {
            (path.to_path_buf(), None)
        };
        let shown = jsonl.display().to_string();
        let io_error = |source| VerifyError::Io {
            path: shown.clone(),
            source,
        };
        let file = crate::base::files::open_regular(&jsonl).map_err(io_error)?;
        let mut input = std::io::BufReader::with_capacity(1 << 16, file);
        let mut summary = None;
        let (mut line, mut offset, mut i) = (Vec::new(), 0usize, 0usize);
        loop {
            line.clear();
            let n = input.read_until(b'\n', &mut line).map_err(io_error)?;
            if n == 0 {
                break;
            }
            let text = std::str::from_utf8(&line).map_err(|e| VerifyError::NotUtf8 {
                path: shown.clone(),
                offset: offset + e.valid_up_to(),
            })?;
            offset += n;
            i += 1;
            let v: Value = serde_json::from_str(strip_newline(text)).map_err(|source| {
                VerifyError::NotJsonLine {
                    path: shown.clone(),
                    line: i,
                    source,
                }
            })?;
            if v["type"] == "summary" {
                summary = Some(v);
            }
        }
        let summary = summary.ok_or_else(|| VerifyError::NoSummary {
            path: shown.clone(),
        })?;
        let invocation: Invocation = serde_json::from_value(summary["invocation"].clone())
            .map_err(|_| VerifyError::NoInvocation {
                path: shown.clone(),
                version: summary["arbiter_version"]
                    .as_str()
                    .unwrap_or("?")
                    .to_string(),
            })?;
        if invocation
            .paths
            .iter()
            .any(|p| crate::base::decode::is_stdin(Path::new(p)))
        {
            return Err(VerifyError::Stdin { path: shown });
        }
        Ok(Report {
            jsonl,
            dir,
            summary,
            invocation,
        })
    }

    /// Every file the report names with a hash: `(path, kind, sha256 in
    /// the report)`.
    pub fn hashed(&self) -> Vec<(String, String, String)> {
        let mut v = Vec::new();
        for i in self.summary["inputs"].as_array().into_iter().flatten() {
            v.push((
                i["path"].as_str().unwrap_or("").to_string(),
                "input".to_string(),
                i["sha256"].as_str().unwrap_or("").to_string(),
            ));
        }
        for l in self.summary["logs"].as_array().into_iter().flatten() {
            v.push((
                l["path"].as_str().unwrap_or("").to_string(),
                l["kind"].as_str().unwrap_or("").to_string(),
                l["sha256"].as_str().unwrap_or("").to_string(),
            ));
        }
        v
    }
}

/// Compare each hashed file with its hash now (paths relative to the
/// current directory). Returns the lines to print and whether all match.
pub fn check_hashes(report: &Report) -> (Vec<String>, bool) {
    let mut lines = Vec::new();
    let mut ok = true;
    for (path, kind, want) in report.hashed() {
        let now = if kind == "syzygy-tables" {
            syzygy_listing(Path::new(&path)).map(|(_, h)| h)
        } else if let Some(text) = (kind == "ruleset" && !Path::new(&path).exists())
            .then(|| crate::pipeline::config::shipped_at(&path))
            .flatten()
        {
            // a shipped ruleset a case folder named: the text built in
            Ok(crate::base::digest::sha256_hex(text.as_bytes()))
        } else {
            sha256_regular(Path::new(&path))
        };
        match now {
            Ok(h) if h == want => lines.push(format!("  same     {kind} {path}")),
            Ok(h) => {
                ok = false;
                lines.push(format!(
                    "  CHANGED  {kind} {path}: sha256 {} in the report, {} now",
                    short(&want),
                    short(&h)
                ));
            }
            Err(e) => {
                ok = false;
                lines.push(format!("  MISSING  {kind} {path}: {e}"));
            }
        }
    }
    (lines, ok)
}

/// The SHA-256 of the regular file `path` (a FIFO or a device is refused
/// unread).
fn sha256_regular(path: &Path) -> std::io::Result<String> {
    let mut input = HashingReader::new(crate::base::files::open_regular(path)?);
    std::io::copy(&mut input, &mut std::io::sink())?;
    Ok(input.finish().0)
}

fn short(h: &str) -> &str {
    &h[..h.len().min(16)]
}

/// A line without its line ending (`\n` or `\r\n`), as `str::lines`
/// gives it.
fn strip_newline(line: &str) -> &str {
    match line.strip_suffix('\n') {
        Some(l) => l.strip_suffix('\r').unwrap_or(l),
        None => line,
    }
}

/// Where two outputs first differ, said in terms of the report: the line
/// number and, for a JSON game line, the game and the findings that
/// differ.
pub fn first_difference(name: &str, was: &[u8], now: &[u8]) -> Option<String> {
    if was == now {
        return None;
    }
    line_difference(name, was, now).ok()
}

/// Whether two readers give the same bytes, compared a chunk at a time.
fn same_bytes(a: impl std::io::Read, b: impl std::io::Read) -> std::io::Result<bool> {
    let mut a = std::io::BufReader::with_capacity(1 << 16, a);
    let mut b = std::io::BufReader::with_capacity(1 << 16, b);
    loop {
        let (x, y) = (a.fill_buf()?, b.fill_buf()?);
        if x.is_empty() || y.is_empty() {
            return Ok(x.is_empty() && y.is_empty());
        }
        let n = x.len().min(y.len());
        if x[..n] != y[..n] {
            return Ok(false);
        }
        a.consume(n);
        b.consume(n);
    }
}

/// [`first_difference`] of two files (`was` and `now`, each opened and
/// its path), read a chunk at a time, and again a line at a time only
/// when they differ.
fn file_difference(
    name: &str,
    (was, was_path): (std::fs::File, &Path),
    (now, now_path): (std::fs::File, &Path),
) -> std::io::Result<Option<String>> {
    if same_bytes(was, now)? {
        return Ok(None);
    }
    let open = |p: &Path| {
        crate::base::files::open_regular(p).map(|f| std::io::BufReader::with_capacity(1 << 16, f))
    };
    line_difference(name, open(was_path)?, open(now_path)?).map(Some)
}

/// Where two different outputs first differ, read a line at a time (a
/// line of each held).
fn line_difference(
    name: &str,
    mut a: impl BufRead,
    mut b: impl BufRead,
) -> std::io::Result<String> {
    let (mut x, mut y) = (Vec::new(), Vec::new());
    let mut i = 0;
    loop {
        x.clear();
        y.clear();
        let (na, nb) = (a.read_until(b'\n', &mut x)?, b.read_until(b'\n', &mut y)?);
        if na == 0 && nb == 0 {
            return Ok(format!("{name}: differs (line endings)"));
        }
        let (lx, ly) = (String::from_utf8_lossy(&x), String::from_utf8_lossy(&y));
        let (sx, sy) = (
            (na > 0).then(|| strip_newline(&lx)),
            (nb > 0).then(|| strip_newline(&ly)),
        );
        if sx != sy {
            return Ok(line_message(name, i, sx.unwrap_or(""), sy.unwrap_or("")));
        }
        i += 1;
    }
}

/// The difference at line `i` (from 0): `x` in the report, `y` now.
fn line_message(name: &str, i: usize, x: &str, y: &str) -> String {
    let mut msg = format!("{name}: line {} differs", i + 1);
    if let (Ok(vx), Ok(vy)) = (
        serde_json::from_str::<Value>(x),
        serde_json::from_str::<Value>(y),
    ) {
        let codes = |v: &Value| -> Vec<String> {
            v["findings"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|f| f["code"].as_str().unwrap_or("?").to_string())
                .collect()
        };
        if vx["type"] == "game" {
            let (cx, cy) = (codes(&vx), codes(&vy));
            let gone: Vec<&String> = cx.iter().filter(|c| !cy.contains(c)).collect();
            let new: Vec<&String> = cy.iter().filter(|c| !cx.contains(c)).collect();
            msg.push_str(&format!(
                " (game {} of {}): findings in the report only: {gone:?}; now only: {new:?}",
                vx["source"]["index"].as_u64().map_or(0, |n| n + 1),
                vx["source"]["path"].as_str().unwrap_or("?")
            ));
        } else if vx["type"] == "summary" {
            msg.push_str(&format!(
                " (the summary): findings {} in the report, {} now",
                vx["findings"], vy["findings"]
            ));
        }
    }
    msg
}

/// The files of a report folder, relative to it, sorted.
pub fn report_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, d: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(d) else { return };
        for e in rd.flatten() {
            let p = e.path();
            // the entry's own type: a link to a folder is not followed
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                walk(root, &p, out);
            } else if let Ok(rel) = p.strip_prefix(root) {
                out.push(rel.to_path_buf());
            }
        }
    }
    let mut v = Vec::new();
    walk(dir, dir, &mut v);
    v.sort();
    v
}

/// `arbiter verify`: the hashes, then the same audit again, compared byte
/// for byte with the report; `base` is the folder the audit ran in.
pub fn run(report: &Path, base: Option<&Path>, out: &mut dyn Write) -> Result<i32, VerifyError> {
    // the report's own path is taken before moving to the base folder
    let report = std::path::absolute(report).map_err(|source| VerifyError::Io {
        path: report.display().to_string(),
        source,
    })?;
    let r = Report::read(&report)?;
    if let Some(b) = base {
        std::env::set_current_dir(b).map_err(|source| VerifyError::Base {
            path: b.display().to_string(),
            source,
        })?;
    }
    let mut text = format!(
        "report: {} (arbiter {}, {} games)\n",
        report.display(),
        r.summary["arbiter_version"].as_str().unwrap_or("?"),
        r.summary["games"]
    );
    let mut reproduced = true;
    let made_by = r.summary["arbiter_version"].as_str().unwrap_or("?");
    if made_by != crate::VERSION {
        reproduced = false;
        text.push_str(&format!(
            "version: the report was made by arbiter {made_by}, this is {}: rerun it with that version\n",
            crate::VERSION
        ));
    }
    let (lines, same) = check_hashes(&r);
    text.push_str(&format!(
        "inputs: {} file(s), {}\n",
        lines.len(),
        if same {
            "all unchanged"
        } else {
            "NOT all unchanged"
        }
    ));
    for l in &lines {
        text.push_str(l);
        text.push('\n');
    }
    reproduced &= same;
    let (compared, differences) = rerun(&r)?;
    if differences.is_empty() {
        text.push_str(&format!(
            "rerun: byte-identical ({} file{}: {})\n",
            compared.len(),
            if compared.len() == 1 { "" } else { "s" },
            compared.join(", ")
        ));
    } else {
        reproduced = false;
        text.push_str("rerun: DIFFERS\n");
        for d in &differences {
            text.push_str(&format!("  {d}\n"));
        }
    }
    text.push_str(if reproduced {
        "verdict: reproduced\n"
    } else {
        "verdict: NOT reproduced\n"
    });
    // the report's paths may hold control characters: shown inert
    let text = crate::base::diagnostic::for_terminal(&text);
    out.write_all(text.as_bytes())
        .map_err(VerifyError::Output)?;
    Ok(if reproduced { CLEAN } else { VIOLATIONS })
}

/// The same audit (or batch) as the report's, run again: the files
/// compared, and where each that differs first differs.
fn rerun(r: &Report) -> Result<(Vec<String>, Vec<String>), VerifyError> {
    let inv = &r.invocation;
    let (settings, paths) = Settings::of(inv);
    let more = || crate::pipeline::inputs::case_rule_ids(&paths);
    let mut cfg = Config::load_with(&settings, false, machine_threads(), &more)
        .map_err(super::ConfigureError::from)?;
    if settings.fit {
        crate::pipeline::fit::check(&cfg).map_err(super::ConfigureError::from)?;
        cfg.fit = true;
    }
    cfg.invocation = Some(inv.clone());
    let mut differences = Vec::new();
    let mut compared = Vec::new();
    // a folder report, or a batch's, is written again into a scratch
    // folder of an unpredictable name, removed when this returns
    let (scratch, _listed) = crate::base::cleanup::Leftover::make(|| {
        let dir = tempfile::Builder::new()
            .prefix("arbiter-verify-")
            .tempdir()?;
        let path = dir.path().to_path_buf();
        Ok((dir, path))
    })
    .map_err(|source| VerifyError::Io {
        path: std::env::temp_dir().display().to_string(),
        source,
    })?;
    let tmp = scratch.path().to_path_buf();
    // the JSON lines of an audit without a folder, written again
    let lines = tmp.join("rerun.jsonl");
    if let Some(b) = &inv.batch {
        let req = super::batch::Request {
            paths,
            settings,
            out: tmp.clone(),
            shard: None,
            shard_text: b.shard.clone(),
            threads: machine_threads(),
            quiet: true,
            no_progress: true,
        };
        let ran = b
            .shard
            .as_deref()
            .map(super::batch::parse_shard)
            .transpose()
            .map_err(BatchRunError::from)
            .and_then(|shard| super::batch::run(&super::batch::Request { shard, ..req }, cfg));
        ran?;
    } else {
        let req = super::audit::Request {
            paths,
            settings,
            json: true,
            charts: None,
            out: r.dir.is_some().then(|| tmp.clone()),
            verbose: false,
            quiet: false,
            paint: false,
        };
        if r.dir.is_some() {
            // the folder is compared; its lines on the output are not
            super::audit::run(&req, &cfg, &mut std::io::sink())?;
        } else {
            let io_error = |source| VerifyError::Io {
                path: lines.display().to_string(),
                source,
            };
            let file = std::fs::File::create(&lines).map_err(io_error)?;
            let mut now = std::io::BufWriter::with_capacity(1 << 16, file);
            super::audit::run(&req, &cfg, &mut now)?;
            now.flush().map_err(io_error)?;
        }
    }
    let open = crate::base::files::open_regular;
    match &r.dir {
        Some(dir) => {
            let (was, now) = (report_files(dir), report_files(&tmp));
            let listed: std::collections::BTreeSet<&PathBuf> = was.iter().collect();
            for f in was.iter().chain(now.iter().filter(|f| !listed.contains(f))) {
                let name = f.display().to_string();
                let (a, b) = (dir.join(f), tmp.join(f));
                match (open(&a), open(&b)) {
                    (Ok(x), Ok(y)) => {
                        compared.push(name.clone());
                        match file_difference(&name, (x, &a), (y, &b)) {
                            Ok(d) => differences.extend(d),
                            Err(e) => differences.push(format!("{name}: {e}")),
                        }
                    }
                    (Ok(_), Err(_)) => {
                        differences.push(format!("{name}: in the report, not written now"))
                    }
                    (Err(_), Ok(_)) => {
                        differences.push(format!("{name}: written now, not in the report"))
                    }
                    (Err(e), Err(_)) => differences.push(format!("{name}: {e}")),
                }
            }
        }
        None => {
            let now_path = if inv.batch.is_some() {
                tmp.join("audit.jsonl")
            } else {
                lines
            };
            let now = open(&now_path).map_err(VerifyError::NoRerunLines)?;
            let name = r.jsonl.display().to_string();
            let io_error = |source| VerifyError::Io {
                path: name.clone(),
                source,
            };
            let was = open(&r.jsonl).map_err(io_error)?;
            compared.push(name.clone());
            differences.extend(
                file_difference(&name, (was, &r.jsonl), (now, &now_path)).map_err(io_error)?,
            );
        }
    }
    drop(scratch);
    Ok((compared, differences))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first line that differs is named, a missing line reads as
    /// empty, and bytes that differ only in line endings are said so.
    #[test]
    fn the_first_differing_line_is_found_a_line_at_a_time() {
        assert_eq!(first_difference("f", b"a\nb\n", b"a\nb\n"), None);
        assert_eq!(
            first_difference("f", b"a\nb\nc\n", b"a\nx\nc\n").as_deref(),
            Some("f: line 2 differs")
        );
        assert_eq!(
            first_difference("f", b"a\n", b"a\n\n").as_deref(),
            Some("f: line 2 differs")
        );
        assert_eq!(
            first_difference("f", b"a\r\nb", b"a\nb").as_deref(),
            Some("f: differs (line endings)")
        );
        let (x, y) = (b"x".repeat(200_000), b"x".repeat(200_001));
        assert!(!same_bytes(&x[..], &y[..]).unwrap());
        assert!(same_bytes(&x[..], &x[..]).unwrap());
    }
}

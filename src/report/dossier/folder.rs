//! The report folder of `audit --out DIR`: `audit.jsonl`, `dossier.html`
//! and `dossier.md` with its boards and charts in `dossier-files/`, and the
//! record of inputs every report of a folder carries.
//!
//! The folder is written as the games come, so that its memory does not
//! grow with the archive: each game's JSON line goes to `audit.jsonl`
//! (under a temporary name until the end), and each game's parts of the
//! dossier (its section, its findings' items in their rules' lists, its
//! row of every game's table) to part files, its boards and charts to
//! `dossier-files/`. What depends on every game (the verdict, the order of
//! the rules and of the games with findings) is kept small: a row of names
//! and the code, severity and title of each finding per game with
//! findings, the view of the worst game only, and where each part is in
//! its part file. At the end each dossier is assembled from its head, the
//! parts copied in their order, and its tail. The part files have no name
//! (`tempfile::tempfile_in`): nothing is left of them when the process
//! ends, however it ends.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::first_screen::{Verdict, VerdictGame, count_event, filter_keys};
use super::{FileHash, GameView, Record, command_line, gravity, html, markdown, view};
use crate::base::files::Atomic;
use crate::findings::{Finding, Severity};
use crate::pipeline::run::AuditRun;
use crate::pipeline::{Config, GameAudit, InputSummary};
use crate::report::ReportError;
use crate::report::json::{game_line, summary_line};

/// The folder of the boards and charts of `dossier.md`.
const FILES_DIR: &str = "dossier-files";

/// The dossier folder as a writer: each game's JSON line and its parts of
/// the dossiers written as it comes, then the dossiers assembled.
#[derive(Debug)]
pub struct Folder {
    dir: PathBuf,
    bands: Vec<(f64, &'static str)>,
    open: Option<Streams>,
    /// The first file that could not be written: said at the finish.
    error: Option<ReportError>,
}

impl Folder {
    /// A writer into `dir` (made already); `bands` are the ruleset's
    /// adjudication bands, shaded on the evaluation charts
    /// (`Config::adjudication_bands`).
    pub fn new(dir: &Path, bands: Vec<(f64, &'static str)>) -> Folder {
        Folder {
            dir: dir.to_path_buf(),
            bands,
            open: None,
            error: None,
        }
    }

    fn take(&mut self, g: &GameAudit) -> Result<(), ReportError> {
        if self.open.is_none() {
            self.open = Some(Streams::open(&self.dir)?);
        }
        let v = view(g, &self.bands);
        let s = self.open.as_mut().expect("opened above");
        let line = format!("{}\n", game_line(g));
        s.jsonl
            .write_all(line.as_bytes())
            .map_err(at(&self.dir, "audit.jsonl"))?;
        s.add(v, &self.dir)
    }
}

impl crate::report::Writer for Folder {
    fn game(&mut self, g: &GameAudit) -> std::io::Result<()> {
        // a file that cannot be written is said at the finish, which stops
        // the run with status 2
        if self.error.is_none()
            && let Err(e) = self.take(g)
        {
            self.error = Some(e);
            self.open = None;
        }
        Ok(())
    }

    fn finish(&mut self, run: &AuditRun, cfg: &Config) -> Result<(), ReportError> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let s = match self.open.take() {
            Some(s) => s,
            None => Streams::open(&self.dir)?,
        };
        s.finish(&self.dir, run, cfg)
    }
}

/// The error writing the file `name` of the folder `dir`.
fn at(dir: &Path, name: &str) -> impl Fn(io::Error) -> ReportError {
    let path = dir.join(name).display().to_string();
    move |source| ReportError::File {
        path: path.clone(),
        source,
    }
}

/// Where a part is in its part file: (offset, length).
#[derive(Debug, Clone, Copy)]
struct Seg(u64, u64);

/// A file of parts, without a name, in the report's folder.
#[derive(Debug)]
struct Part {
    file: BufWriter<File>,
    len: u64,
}

impl Part {
    fn new(dir: &Path) -> io::Result<Part> {
        Ok(Part {
            file: BufWriter::with_capacity(1 << 16, tempfile::tempfile_in(dir)?),
            len: 0,
        })
    }

    fn put(&mut self, text: &str) -> io::Result<Seg> {
        self.file.write_all(text.as_bytes())?;
        let seg = Seg(self.len, text.len() as u64);
        self.len += seg.1;
        Ok(seg)
    }

    /// Copy the part at `seg` to `out`.
    fn copy(&mut self, seg: Seg, out: &mut impl Write) -> io::Result<()> {
        self.file.flush()?;
        let file = self.file.get_mut();
        file.seek(SeekFrom::Start(seg.0))?;
        let copied = io::copy(&mut Read::by_ref(file).take(seg.1), out)?;
        if copied == seg.1 {
            Ok(())
        } else {
            Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "a part file of the report is shorter than was written",
            ))
        }
    }

    /// Copy the whole file to `out`.
    fn copy_all(&mut self, out: &mut impl Write) -> io::Result<()> {
        self.copy(Seg(0, self.len), out)
    }
}

/// One dossier's part files (HTML or Markdown): each game's section, each
/// finding's item in its rule's list, each game's row of every game's
/// table.
#[derive(Debug)]
struct Parts {
    games: Part,
    rules: Part,
    all: Part,
}

impl Parts {
    fn new(dir: &Path) -> io::Result<Parts> {
        Ok(Parts {
            games: Part::new(dir)?,
            rules: Part::new(dir)?,
            all: Part::new(dir)?,
        })
    }
}

/// A game with findings as the verdict lists it, and where its sections
/// are (HTML, Markdown).
#[derive(Debug)]
struct Row {
    anchor: String,
    path: String,
    number: usize,
    /// Event, round, White, Black, result.
    names: [String; 5],
    /// Its findings' code, severity and title only.
    findings: Vec<Finding>,
    sections: [Seg; 2],
}

/// A rule's findings: its first finding (without message or evidence),
/// their severities in order of appearance, their number, the gravest's
/// rank, and where each item is (HTML, Markdown).
#[derive(Debug)]
struct Rule {
    first: Finding,
    severities: Vec<Severity>,
    rank: usize,
    items: Vec<[Seg; 2]>,
}

/// What is written as games come, and what is held of them.
#[derive(Debug)]
struct Streams {
    jsonl: Atomic,
    /// The HTML's parts, then the Markdown's.
    parts: [Parts; 2],
    /// The games with findings, in input order.
    rows: Vec<Row>,
    rules: BTreeMap<String, Rule>,
    /// The boards and charts of `dossier.md`, until the end.
    files: Scratch,
    /// The worst game so far (the first with the greatest counts by
    /// severity, as `Verdict::worst_first` orders): its row, its counts and
    /// its view.
    worst: Option<(usize, [usize; 4], GameView)>,
    events: BTreeMap<String, usize>,
    games: usize,
}

/// The numbers of findings of each severity, gravest first.
fn counts(findings: &[Finding]) -> [usize; 4] {
    let mut c = [0; 4];
    for f in findings {
        c[gravity(f.severity)] += 1;
    }
    c
}

impl Streams {
    fn open(dir: &Path) -> Result<Streams, ReportError> {
        let parts = || Parts::new(dir).map_err(at(dir, ".part"));
        Ok(Streams {
            jsonl: Atomic::create(&dir.join("audit.jsonl")).map_err(at(dir, "audit.jsonl"))?,
            parts: [parts()?, parts()?],
            rows: Vec::new(),
            rules: BTreeMap::new(),
            files: Scratch::make(dir).map_err(at(dir, FILES_DIR))?,
            worst: None,
            events: BTreeMap::new(),
            games: 0,
        })
    }

    /// A game's parts written, and what the end needs of it kept.
    fn add(&mut self, v: GameView, dir: &Path) -> Result<(), ReportError> {
        let part = at(dir, ".part");
        self.games += 1;
        count_event(&mut self.events, &v.event);
        let [h, m] = &mut self.parts;
        h.all.put(&html::all_games_row(&v)).map_err(&part)?;
        m.all.put(&markdown::all_games_row(&v)).map_err(&part)?;
        if v.findings.is_empty() {
            return Ok(());
        }
        for (k, f) in v.findings.iter().enumerate() {
            let items = [
                h.rules.put(&html::rule_item(&v, k, f)).map_err(&part)?,
                m.rules.put(&markdown::rule_item(&v, k, f)).map_err(&part)?,
            ];
            let rule = self.rules.entry(f.code.clone()).or_insert_with(|| Rule {
                first: Finding {
                    message: String::new(),
                    evidence: Vec::new(),
                    ..f.clone()
                },
                severities: Vec::new(),
                rank: gravity(f.severity),
                items: Vec::new(),
            });
            if !rule.severities.contains(&f.severity) {
                rule.severities.push(f.severity);
            }
            rule.rank = rule.rank.min(gravity(f.severity));
            rule.items.push(items);
        }
        let mut files = Vec::new();
        let sections = [
            h.games.put(&html::game_html(&v)).map_err(&part)?,
            m.games
                .put(&markdown::game_md(&v, FILES_DIR, &mut files))
                .map_err(&part)?,
        ];
        for (name, svg) in files {
            let path = self.files.path.join(&name);
            std::fs::write(&path, svg).map_err(at(dir, &format!("{FILES_DIR}/{name}")))?;
        }
        let c = counts(&v.findings);
        let row = Row {
            anchor: v.anchor.clone(),
            path: v.path.clone(),
            number: v.number,
            names: [
                v.event.clone(),
                v.round.clone(),
                v.white.clone(),
                v.black.clone(),
                v.result.clone(),
            ],
            findings: v
                .findings
                .iter()
                .map(|f| Finding::builtin(&f.code, f.severity, &f.title, String::new()))
                .collect(),
            sections,
        };
        self.rows.push(row);
        if self.worst.as_ref().is_none_or(|w| c > w.1) {
            self.worst = Some((self.rows.len() - 1, c, v));
        }
        Ok(())
    }

    /// audit.jsonl's summary line, then each dossier assembled.
    fn finish(mut self, dir: &Path, run: &AuditRun, cfg: &Config) -> Result<(), ReportError> {
        let totals = &run.totals;
        let summary = summary_line(totals, &run.inputs, &run.unreadable, cfg, &run.hashed);
        let jsonl = at(dir, "audit.jsonl");
        writeln!(self.jsonl, "{summary}").map_err(&jsonl)?;
        self.jsonl.commit().map_err(&jsonl)?;
        let mut facts = vec![format!(
            "{} game{}, {} plies",
            totals.games,
            if totals.games == 1 { "" } else { "s" },
            totals.plies
        )];
        if let Some(rs) = &cfg.ruleset {
            let manual = rs.manual_review_clauses(cfg.detectors.similarity.is_some());
            facts.push(format!(
                "ruleset {} ({}), {manual} of its rules for manual review",
                rs.title, rs.id
            ));
        }
        let title = match &cfg.ruleset {
            Some(rs) => format!("arbiter dossier: {}", rs.title),
            None => "arbiter dossier".to_string(),
        };
        let record = record(cfg, &run.inputs, &run.hashed, &run.unreadable);
        let worst = self.worst.take();
        let rows = std::mem::take(&mut self.rows);
        let games = rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let findings = match &worst {
                    Some((w, _, v)) if *w == i => &v.findings,
                    _ => &r.findings,
                };
                let [e, rd, w, b, res] = &r.names;
                VerdictGame::new(
                    (r.anchor.clone(), true),
                    (&r.path, r.number),
                    [e, rd, w, b, res],
                    findings,
                )
            })
            .collect();
        let v = Verdict {
            games,
            total_games: self.games,
            events: std::mem::take(&mut self.events).into_iter().collect(),
            event_findings: Vec::new(),
            facts,
            unreadable: record.files.iter().filter(|f| f.2.is_unreadable()).count(),
            grouped: false,
        };
        let mut rules: Vec<(String, Rule)> = std::mem::take(&mut self.rules).into_iter().collect();
        rules.sort_by(|a, b| a.1.rank.cmp(&b.1.rank).then(a.0.cmp(&b.0)));
        let order: Vec<Seg> = v
            .worst_first()
            .iter()
            .map(|&i| rows[i].sections[0])
            .collect();
        let single = super::html::single_gravest(&v);
        let board = |f: &dyn Fn(&GameView, usize) -> Option<String>| {
            let (_, k) = single?;
            f(&worst.as_ref()?.2, k)
        };
        let frame = Frame {
            head: html::head(&title, &v, board(&html::first_board).as_deref()),
            rule_heads: rules
                .iter()
                .map(|(code, r)| html::rule_head(code, &r.first, &keys(code, r), r.items.len()))
                .collect(),
            rule_end: html::RULE_END,
            games: html::GAMES,
            all: html::ALL_GAMES,
            tail: html::tail(&record),
        };
        assemble(
            &mut self.parts[0],
            0,
            &dir.join("dossier.html"),
            &frame,
            &rules,
            &order,
        )?;
        self.files.move_into(&dir.join(FILES_DIR))?;
        let md_board = |g: &GameView, k| markdown::first_board(g, k, FILES_DIR);
        let order: Vec<Seg> = v
            .worst_first()
            .iter()
            .map(|&i| rows[i].sections[1])
            .collect();
        let frame = Frame {
            head: markdown::head(&title, &v, board(&md_board).as_deref()),
            rule_heads: rules
                .iter()
                .map(|(code, r)| markdown::rule_head(code, &r.first, r.items.len()))
                .collect(),
            rule_end: "",
            games: markdown::GAMES,
            all: markdown::ALL_GAMES,
            tail: markdown::tail(&record),
        };
        assemble(
            &mut self.parts[1],
            1,
            &dir.join("dossier.md"),
            &frame,
            &rules,
            &order,
        )
    }
}

/// Write the dossier `side` (0 HTML, 1 Markdown) to `path`: the head,
/// each rule's head and items, the games with findings in `order`,
/// every game's row, the tail.
fn assemble(
    parts: &mut Parts,
    side: usize,
    path: &Path,
    frame: &Frame,
    rules: &[(String, Rule)],
    order: &[Seg],
) -> Result<(), ReportError> {
    let fail = |source| ReportError::File {
        path: path.display().to_string(),
        source,
    };
    let mut out = Atomic::create(path).map_err(fail)?;
    let mut write = || -> io::Result<()> {
        out.write_all(frame.head.as_bytes())?;
        for ((_, rule), head) in rules.iter().zip(&frame.rule_heads) {
            out.write_all(head.as_bytes())?;
            for items in &rule.items {
                parts.rules.copy(items[side], &mut out)?;
            }
            out.write_all(frame.rule_end.as_bytes())?;
        }
        out.write_all(frame.games.as_bytes())?;
        for seg in order {
            parts.games.copy(*seg, &mut out)?;
        }
        out.write_all(frame.all.as_bytes())?;
        parts.all.copy_all(&mut out)?;
        out.write_all(frame.tail.as_bytes())
    };
    write().map_err(fail)?;
    out.commit().map_err(fail)
}

/// A folder for the boards and charts beside the report's folder's files
/// (`.dossier-files.PID-N.part`), listed for removal on a signal
/// (`crate::base::cleanup`) and removed when dropped; its files are moved
/// into `dossier-files/` at the end.
#[derive(Debug)]
struct Scratch {
    path: PathBuf,
    _listed: crate::base::cleanup::Leftover,
}

impl Scratch {
    fn make(dir: &Path) -> io::Result<Scratch> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!(".{FILES_DIR}.{}-{n}.part", std::process::id()));
        let (path, listed) = crate::base::cleanup::Leftover::make(|| {
            std::fs::create_dir(&path)?;
            Ok::<_, io::Error>((path.clone(), path))
        })?;
        Ok(Scratch {
            path,
            _listed: listed,
        })
    }

    /// Move every file into `dest` (made if missing; a file of the same
    /// name is replaced).
    fn move_into(&self, dest: &Path) -> Result<(), ReportError> {
        let shown = |p: &Path| p.display().to_string();
        let fail = |p: &Path| {
            let path = shown(p);
            move |source| ReportError::File { path, source }
        };
        crate::base::cleanup::make_dir_all(dest).map_err(fail(dest))?;
        let mut names: Vec<std::ffi::OsString> = std::fs::read_dir(&self.path)
            .and_then(|r| r.map(|e| e.map(|e| e.file_name())).collect())
            .map_err(fail(&self.path))?;
        names.sort();
        for name in names {
            let to = dest.join(&name);
            std::fs::rename(self.path.join(&name), &to).map_err(fail(&to))?;
        }
        Ok(())
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// A dossier's text around its parts.
struct Frame {
    head: String,
    rule_heads: Vec<String>,
    rule_end: &'static str,
    games: &'static str,
    all: &'static str,
    tail: String,
}

/// The filter keys of a rule's findings ([`filter_keys`]).
fn keys(code: &str, rule: &Rule) -> String {
    let shown: Vec<Finding> = rule
        .severities
        .iter()
        .map(|s| Finding::builtin(code, *s, "", String::new()))
        .collect();
    filter_keys(shown.iter())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Parts come back from their file as written, in any order; the
    /// scratch folder's files move into the destination and the folder is
    /// gone once dropped.
    #[test]
    fn parts_are_copied_back_and_the_scratch_folder_moved_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let mut part = Part::new(dir.path()).unwrap();
        let a = part.put("first;").unwrap();
        let b = part.put("second;").unwrap();
        let mut out = Vec::new();
        part.copy(b, &mut out).unwrap();
        part.copy(a, &mut out).unwrap();
        part.copy_all(&mut out).unwrap();
        assert_eq!(out, b"second;first;first;second;");
        // the part file has no name
        let names = |d: &Path| -> Vec<String> {
            let mut v: Vec<String> = std::fs::read_dir(d)
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            v.sort();
            v
        };
        let scratch = Scratch::make(dir.path()).unwrap();
        assert_eq!(names(dir.path()).len(), 1);
        std::fs::write(scratch.path.join("b.svg"), "<svg/>").unwrap();
        let dest = dir.path().join(FILES_DIR);
        scratch.move_into(&dest).unwrap();
        drop(scratch);
        assert_eq!(names(dir.path()), [FILES_DIR]);
        assert_eq!(names(&dest), ["b.svg"]);
    }
}

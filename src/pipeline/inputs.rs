//! What the command line names: PGN files, folders searched for them, and
//! case folders (one game with its logs and ruleset, `case.json`).
//!
//! A folder is walked without following links to folders (a link back up
//! would read every game again, or without end); a link to a PGN file is
//! followed only if it leads to a file inside the folder walked, and not
//! read already. Each link skipped is said on standard error. Only regular
//! files are taken: a FIFO or a device named `*.pgn` is an input that
//! cannot be read, said, and the other inputs are read.

pub use crate::base::files::normalize;
use std::collections::BTreeSet;
use std::io;
use std::path::{Path, PathBuf};

use super::config::{Config, ConfigError, Settings};
use crate::ingest::logs::{LoadedLog, read_engine_logs};

/// One thing to audit: a PGN file, or a case folder (a game with its logs
/// and ruleset, described by `case.json`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Input {
    Pgn(PathBuf),
    Case(PathBuf),
}

/// The command line's paths expanded ([`expand`]): the inputs (or why one
/// cannot be read), and the links the walks skipped, each with why.
#[derive(Debug, Default)]
pub struct Expanded {
    pub inputs: Vec<Result<Input, (PathBuf, io::Error)>>,
    pub skipped: Vec<(PathBuf, String)>,
}

/// Expand the command line's paths: files as given (`-` is standard
/// input), directories to their `.pgn` files (`.pgn.gz` and `.pgn.zst`
/// too) and case folders (recursively, sorted by path so runs are
/// reproducible). The links skipped are said on standard error.
pub fn expand_inputs(paths: &[PathBuf]) -> Vec<Result<Input, (PathBuf, io::Error)>> {
    let e = expand(paths);
    for (p, why) in &e.skipped {
        notice!("arbiter: warning: {}: {why}", p.display());
    }
    e.inputs
}

/// [`expand_inputs`], the skipped links returned rather than said.
pub fn expand(paths: &[PathBuf]) -> Expanded {
    let mut out = Expanded::default();
    for p in paths {
        if p.is_dir() && has_case_file(p) {
            out.inputs.push(Ok(Input::Case(p.clone())));
        } else if p.is_dir() {
            let mut w = Walk {
                root: std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()),
                ..Walk::default()
            };
            w.dir(p);
            out.inputs.extend(w.finish(&mut out.skipped));
        } else {
            out.inputs.push(Ok(Input::Pgn(p.clone())));
        }
    }
    out
}

/// Whether folder `dir` has a `case.json` (of whatever kind: one that is
/// not a regular file is refused when the case is read).
fn has_case_file(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join("case.json")).is_ok()
}

/// Whether a folder walk takes `p`: a `.pgn` file, or one compressed as
/// `.pgn.gz` or `.pgn.zst` (and `.pgn.xz`, `.pgn.bz2`, taken to be refused
/// by name rather than passed over). The name only chooses the files: how
/// one is read is told by its bytes ([`crate::base::decode::open`]).
fn is_pgn(p: &Path) -> bool {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase());
    name.is_some_and(|n| {
        [".pgn", ".pgn.gz", ".pgn.zst", ".pgn.xz", ".pgn.bz2"]
            .iter()
            .any(|end| n.len() > end.len() && n.ends_with(end))
    })
}

/// A file's identity: device and inode.
type FileId = (u64, u64);

fn id(m: &std::fs::Metadata) -> FileId {
    use std::os::unix::fs::MetadataExt;
    (m.dev(), m.ino())
}

/// One folder walk under `root` (canonical).
#[derive(Debug, Default)]
struct Walk {
    root: PathBuf,
    found: Vec<Input>,
    /// The regular PGN files found, by identity.
    seen: BTreeSet<FileId>,
    /// Links to PGN files inside the root, and what they lead to.
    links: Vec<(PathBuf, FileId)>,
    bad: Vec<(PathBuf, io::Error)>,
    skipped: Vec<(PathBuf, String)>,
}

impl Walk {
    fn dir(&mut self, dir: &Path) {
        let entries = match std::fs::read_dir(dir) {
            Ok(rd) => rd,
            Err(e) => return self.bad.push((dir.to_path_buf(), e)),
        };
        for entry in entries {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => return self.bad.push((dir.to_path_buf(), e)),
            };
            let path = entry.path();
            // the entry's own type: a link is not followed here
            let kind = match entry.file_type() {
                Ok(k) => k,
                Err(e) => {
                    self.bad.push((path, e));
                    continue;
                }
            };
            if kind.is_dir() && has_case_file(&path) {
                self.found.push(Input::Case(path));
            } else if kind.is_dir() {
                self.dir(&path);
            } else if kind.is_symlink() {
                self.link(path);
            } else if is_pgn(&path) && kind.is_file() {
                if let Ok(m) = entry.metadata() {
                    self.seen.insert(id(&m));
                }
                self.found.push(Input::Pgn(path));
            } else if is_pgn(&path) {
                let e = match entry.metadata() {
                    Ok(m) => crate::base::files::not_regular(&m),
                    Err(e) => e,
                };
                self.bad.push((path, e));
            }
        }
    }

    /// A link met in the walk: one to a folder is skipped; one to a PGN
    /// file is kept if it leads inside the root.
    fn link(&mut self, path: PathBuf) {
        let why = match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => "a link to a folder, not followed",
            _ if !is_pgn(&path) => return,
            Err(_) => "a link that leads nowhere, skipped",
            Ok(m) if !m.is_file() => {
                return self.bad.push((path, crate::base::files::not_regular(&m)));
            }
            Ok(m) => match std::fs::canonicalize(&path) {
                Ok(to) if to.starts_with(&self.root) => {
                    return self.links.push((path, id(&m)));
                }
                _ => "a link to a file outside the folder walked, not followed",
            },
        };
        self.skipped.push((path, why.to_string()));
    }

    /// The inputs found, sorted (links to files read already dropped, and
    /// said), then those that cannot be read; the skipped links added to
    /// `skipped`, sorted.
    fn finish(
        mut self,
        skipped: &mut Vec<(PathBuf, String)>,
    ) -> impl Iterator<Item = Result<Input, (PathBuf, io::Error)>> {
        self.links.sort();
        for (path, to) in std::mem::take(&mut self.links) {
            if self.seen.insert(to) {
                self.found.push(Input::Pgn(path));
            } else {
                self.skipped
                    .push((path, "a link to a file read already, skipped".into()));
            }
        }
        self.found.sort();
        self.bad.sort_by(|a, b| a.0.cmp(&b.0));
        self.skipped.sort();
        skipped.append(&mut self.skipped);
        self.found
            .into_iter()
            .map(Ok)
            .chain(self.bad.into_iter().map(Err))
    }
}

/// Every file an audit of `paths` under `settings` would read, as named:
/// the settings' files, the PGN files, and each case folder's `case.json`
/// and the files it names (what [`expand`] and [`Case::read`] find).
pub fn files_read(paths: &[PathBuf], settings: &Settings) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = settings
        .rules
        .iter()
        .chain(&settings.similarity)
        .chain(&settings.operator_logs)
        .chain(&settings.engine_logs)
        .cloned()
        .collect();
    for input in expand(paths).inputs.into_iter().flatten() {
        match input {
            Input::Pgn(p) => v.push(p),
            Input::Case(d) => {
                v.push(d.join("case.json"));
                if let Ok(c) = Case::read(&d) {
                    v.push(c.game);
                    v.extend(c.engine_logs);
                    v.extend(c.operator_logs);
                    if let Some(CaseRuleset::File(r)) = c.ruleset {
                        v.push(r);
                    }
                }
            }
        }
    }
    v
}

/// An output that would replace an input of the run.
#[derive(Debug, thiserror::Error)]
pub enum OverwriteError {
    #[error("{out}: is an input of this run; refused (write the output elsewhere)")]
    IsInput { out: String },
    #[error(
        "{out}: the run would replace {input}, one of its inputs; refused (write the output elsewhere)"
    )]
    Replaces { out: String, input: String },
}

/// Refuse the output `out` (a file, or a folder) if it is one of the files
/// `read`, or if `writes` says the run writes the path (relative to `out`)
/// of one of them.
pub fn refuse_overwrite(
    out: &Path,
    writes: &dyn Fn(&Path) -> bool,
    read: &[PathBuf],
) -> Result<(), OverwriteError> {
    // what does not exist holds no input
    let Ok(at) = std::fs::canonicalize(out) else {
        return Ok(());
    };
    for r in read {
        let Ok(c) = std::fs::canonicalize(r) else {
            continue;
        };
        if c == at {
            return Err(OverwriteError::IsInput {
                out: out.display().to_string(),
            });
        }
        if let Ok(rel) = c.strip_prefix(&at)
            && writes(rel)
        {
            return Err(OverwriteError::Replaces {
                out: out.display().to_string(),
                input: r.display().to_string(),
            });
        }
    }
    Ok(())
}

/// A case folder: `case.json` names the game, its logs and its ruleset.
///
/// ```json
/// {"ruleset": "kasparov-deep-junior-2003",
///  "game": "game.pgn", "engine_logs": ["engine.log"], "operator_logs": ["operator.log"]}
/// ```
///
/// Paths are relative to the folder and must stay inside it: an absolute
/// path, a `..` that leaves it or a link that leads out of it is refused,
/// and so is a file that is not a regular one. `ruleset` is a `.rules`
/// file of the folder, or the name of a shipped ruleset (no `/`, no
/// extension). `game` defaults to `game.pgn`; without
/// `engine_logs`/`operator_logs`, the folder's `engine.log`,
/// `opponent.log` and `operator.log` are used when present.
#[derive(Debug, Clone)]
pub struct Case {
    pub dir: PathBuf,
    pub game: PathBuf,
    pub ruleset: Option<CaseRuleset>,
    pub variant: Option<String>,
    pub engine_logs: Vec<PathBuf>,
    pub operator_logs: Vec<PathBuf>,
}

/// The ruleset a case folder names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaseRuleset {
    /// A file of the folder (its path as shown).
    File(PathBuf),
    /// A shipped ruleset, by name (`crate::pipeline::config::SHIPPED`).
    Shipped(String),
}

/// The longest `case.json` read.
pub const MAX_CASE_FILE: usize = 1 << 20;

/// Why a case folder could not be read: its `case.json` (`path`, as
/// shown), or the files it names.
#[derive(Debug, thiserror::Error)]
pub enum CaseError {
    #[error("{path}: {source}")]
    Io { path: String, source: io::Error },
    /// Not JSON at `line`:`column`; `rendered` is the diagnostic with the
    /// line and a caret.
    #[error("{rendered}")]
    Json {
        path: String,
        line: usize,
        column: usize,
        rendered: String,
        source: serde_json::Error,
    },
    #[error("{path}: expected a JSON object")]
    NotObject { path: String },
    #[error(
        "{path}: unknown key {key:?} (known: ruleset, variant, game, engine_logs, operator_logs, description)"
    )]
    UnknownKey { path: String, key: String },
    #[error("{path}: {key:?} must be a string")]
    NotString { path: String, key: String },
    #[error("{path}: {key:?} must list file names")]
    NotFileName { path: String, key: String },
    #[error("{path}: {key:?} must be a list of file names")]
    NotList { path: String, key: String },
    /// A path the case names is absolute.
    #[error(
        "{path}: {key} {value:?} is an absolute path; refused: a case folder's files are inside it"
    )]
    Absolute {
        path: String,
        key: String,
        value: String,
    },
    /// A path the case names leaves the folder by `..`.
    #[error("{path}: {key} {value:?} leaves the case folder; refused: its files are inside it")]
    Leaves {
        path: String,
        key: String,
        value: String,
    },
    /// A path the case names leads out of the folder through a link.
    #[error(
        "{path}: {key} {value:?} is a link to a file outside the case folder; refused: its files are inside it"
    )]
    LinkOut {
        path: String,
        key: String,
        value: String,
    },
    /// `ruleset` names no shipped ruleset.
    #[error(
        "{path}: ruleset {name:?} is not a shipped ruleset (shipped: {known}); or name a .rules file in the case folder"
    )]
    UnknownRuleset {
        path: String,
        name: String,
        known: String,
    },
    /// The ruleset or a log the case names.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A case that names no ruleset, under a folder of rulesets: its game
    /// could not be read to choose one, or none claims it.
    #[error("{path}: {why}")]
    Unchosen { path: String, why: String },
}

impl CaseError {
    /// The error as said on standard error: a rendered diagnostic (it
    /// names its file, line and column) as it is; anything else after
    /// `arbiter: `.
    pub fn said(&self) -> String {
        match self {
            CaseError::Json { rendered, .. }
            | CaseError::Config(ConfigError::Ruleset { rendered, .. }) => rendered.clone(),
            // says `arbiter: ` itself
            CaseError::Config(ConfigError::Variant(_)) => self.to_string(),
            _ => format!("arbiter: {self}"),
        }
    }
}

/// A case folder being read: where it is (`dir` as given, `root`
/// canonical) and its `case.json` as shown.
struct Folder<'a> {
    dir: &'a Path,
    root: PathBuf,
    shown: String,
}

impl Folder<'_> {
    /// The file `given` names in the folder (for `key` of `case.json`),
    /// as shown: refused if it is absolute, leaves the folder, leads out
    /// of it by a link, or exists and is not a regular file. One that does
    /// not exist is said when it is read.
    fn file(&self, key: &str, given: &str) -> Result<PathBuf, CaseError> {
        let err = |make: fn(String, String, String) -> CaseError| {
            Err(make(self.shown.clone(), key.to_string(), given.to_string()))
        };
        let rel = Path::new(given);
        if rel.has_root() || rel.is_absolute() {
            return err(|path, key, value| CaseError::Absolute { path, key, value });
        }
        if normalize(rel).starts_with("..") {
            return err(|path, key, value| CaseError::Leaves { path, key, value });
        }
        let joined = self.dir.join(rel);
        if std::fs::symlink_metadata(&joined).is_err() {
            return Ok(joined);
        }
        match std::fs::canonicalize(&joined) {
            Ok(c) if !c.starts_with(&self.root) => {
                return err(|path, key, value| CaseError::LinkOut { path, key, value });
            }
            // a link that leads nowhere: said when it is read
            Err(_) => return Ok(joined),
            Ok(_) => {}
        }
        crate::base::files::regular(&joined).map_err(|source| CaseError::Io {
            path: joined.display().to_string(),
            source,
        })?;
        Ok(joined)
    }
}

impl Case {
    pub fn read(dir: &Path) -> Result<Case, CaseError> {
        let path = dir.join("case.json");
        let shown = path.display().to_string();
        let io = |p: &Path| {
            let path = p.display().to_string();
            move |source| CaseError::Io { path, source }
        };
        let folder = Folder {
            dir,
            root: std::fs::canonicalize(dir).map_err(io(dir))?,
            shown: shown.clone(),
        };
        folder.file("case.json", "case.json")?;
        let bytes = crate::base::files::read_capped(&path, MAX_CASE_FILE).map_err(io(&path))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            io(&path)(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "not UTF-8 text (from byte offset {})",
                    e.utf8_error().valid_up_to()
                ),
            ))
        })?;
        let v: serde_json::Value =
            serde_json::from_str(&text).map_err(|source| CaseError::Json {
                path: shown.clone(),
                line: source.line(),
                column: source.column(),
                rendered: json_error(&shown, &text, &source),
                source,
            })?;
        let obj = v.as_object().ok_or_else(|| CaseError::NotObject {
            path: shown.clone(),
        })?;
        for k in obj.keys() {
            if ![
                "ruleset",
                "variant",
                "game",
                "engine_logs",
                "operator_logs",
                "description",
            ]
            .contains(&k.as_str())
            {
                return Err(CaseError::UnknownKey {
                    path: shown,
                    key: k.clone(),
                });
            }
        }
        let s = |k: &str| -> Result<Option<String>, CaseError> {
            match obj.get(k) {
                None => Ok(None),
                Some(serde_json::Value::String(x)) => Ok(Some(x.clone())),
                Some(_) => Err(CaseError::NotString {
                    path: shown.clone(),
                    key: k.to_string(),
                }),
            }
        };
        let list = |k: &str, defaults: &[&str]| -> Result<Vec<PathBuf>, CaseError> {
            match obj.get(k) {
                None => defaults
                    .iter()
                    .filter(|d| std::fs::symlink_metadata(dir.join(d)).is_ok())
                    .map(|d| folder.file(k, d))
                    .collect(),
                Some(serde_json::Value::Array(a)) => a
                    .iter()
                    .map(|x| match x.as_str() {
                        Some(x) => folder.file(k, x),
                        None => Err(CaseError::NotFileName {
                            path: shown.clone(),
                            key: k.to_string(),
                        }),
                    })
                    .collect(),
                Some(_) => Err(CaseError::NotList {
                    path: shown.clone(),
                    key: k.to_string(),
                }),
            }
        };
        let game = s("game")?.unwrap_or_else(|| "game.pgn".into());
        Ok(Case {
            dir: dir.to_path_buf(),
            game: folder.file("game", &game)?,
            ruleset: s("ruleset")?.map(|r| ruleset(&folder, &r)).transpose()?,
            variant: s("variant")?,
            engine_logs: list("engine_logs", &["engine.log", "opponent.log"])?,
            operator_logs: list("operator_logs", &["operator.log"])?,
        })
    }

    /// The audit configuration for this case: the run's, with the case's
    /// ruleset and logs (read on at most `threads` threads).
    pub fn config(&self, base: &Config, threads: usize) -> Result<Config, CaseError> {
        let mut c = base.clone();
        if let Some(r) = &self.ruleset {
            let rs = match r {
                CaseRuleset::File(p) => Config::load_ruleset_within(p, Some(&self.dir))?,
                CaseRuleset::Shipped(name) => Config::load_shipped(name).ok_or_else(|| {
                    unknown_ruleset(&self.dir.join("case.json").display().to_string(), name)
                })??,
            };
            c.ruleset = Some(std::sync::Arc::new(rs));
            c.variant = self.variant.clone().or(c.variant);
        } else if base.shelf.is_some() {
            // no ruleset of its own: the one of the run's folder that
            // claims its game
            let unchosen = |why: String| CaseError::Unchosen {
                path: self.dir.join("case.json").display().to_string(),
                why,
            };
            match c
                .for_file(&self.game)
                .map_err(|e| unchosen(e.to_string()))?
            {
                Some(super::shelf::Chosen::Claimed(chosen)) => c = *chosen,
                Some(super::shelf::Chosen::Unclaimed(_, why)) => return Err(unchosen(why)),
                None | Some(super::shelf::Chosen::Empty) => {}
            }
        }
        c.operator_logs = self
            .operator_logs
            .iter()
            .map(|p| LoadedLog::read(p))
            .collect::<Result<_, _>>()
            .map_err(ConfigError::from)?;
        c.engine_logs = read_engine_logs(&self.engine_logs, threads).map_err(ConfigError::from)?;
        Ok(c)
    }
}

/// The rule ids of the rulesets the case folders among `paths` name as
/// files of their own (for `--select` and `--ignore`; a case that cannot
/// be read is said when it is audited).
pub fn case_rule_ids(paths: &[PathBuf]) -> Vec<String> {
    let mut ids = Vec::new();
    for input in expand_inputs(paths) {
        let Ok(Input::Case(dir)) = input else {
            continue;
        };
        if let Ok(Case {
            ruleset: Some(CaseRuleset::File(p)),
            ..
        }) = Case::read(&dir)
            && let Ok(rs) = Config::load_ruleset_within(&p, Some(&dir))
        {
            ids.extend(rs.rules.iter().map(|r| r.id.clone()));
        }
    }
    ids
}

/// The ruleset `given` names in a case folder: a shipped ruleset's name
/// (no `/` and no extension), else a file of the folder.
fn ruleset(folder: &Folder<'_>, given: &str) -> Result<CaseRuleset, CaseError> {
    if !given.contains('/') && Path::new(given).extension().is_none() {
        return match super::config::shipped(given) {
            Some(_) => Ok(CaseRuleset::Shipped(given.to_string())),
            None => Err(unknown_ruleset(&folder.shown, given)),
        };
    }
    Ok(CaseRuleset::File(normalize(
        &folder.file("ruleset", given)?,
    )))
}

fn unknown_ruleset(shown: &str, name: &str) -> CaseError {
    let known: Vec<&str> = super::config::SHIPPED.iter().map(|(n, _)| *n).collect();
    CaseError::UnknownRuleset {
        path: shown.to_string(),
        name: name.to_string(),
        known: known.join(", "),
    }
}

/// A JSON syntax error rendered at its line and column (serde_json's
/// column counts bytes and points at the character it stopped on; 0 at the
/// start of a line).
fn json_error(shown: &str, text: &str, e: &serde_json::Error) -> String {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(e.line().saturating_sub(1))
        .map(str::len)
        .sum();
    let full = e.to_string();
    let at = format!(" at line {} column {}", e.line(), e.column());
    crate::base::diagnostic::Diagnostic {
        message: full.strip_suffix(&at).unwrap_or(&full),
        path: shown,
        src: text,
        offset: line_start + e.column().saturating_sub(1),
        len: 1,
        label: None,
        help: None,
    }
    .render()
}

#[cfg(test)]
mod tests {
    /// A case file with a comma missing: refused at its line and column,
    /// the line shown with a caret under the place.
    #[test]
    fn case_file_syntax_error() {
        let dir = tempfile::tempdir().unwrap();
        let text = "{\n  \"game\": \"game.pgn\"\n  \"ruleset\": \"r.rules\"\n}\n";
        std::fs::write(dir.path().join("case.json"), text).unwrap();
        let e = super::Case::read(dir.path()).unwrap_err().to_string();
        let shown = dir.path().join("case.json").display().to_string();
        insta::assert_snapshot!(e.replace(&shown, "case.json"));
    }
}

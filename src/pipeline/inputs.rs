//! What the command line names: PGN files, folders searched for them, and
//! case folders (one game with its logs and ruleset, `case.json`).

use std::io;
use std::path::{Path, PathBuf};

use super::config::{Config, ConfigError};
use crate::ingest::logs::{LoadedLog, read_engine_logs};

/// One thing to audit: a PGN file, or a case folder (a game with its logs
/// and ruleset, described by `case.json`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Input {
    Pgn(PathBuf),
    Case(PathBuf),
}

/// Expand the command line's paths: files as given, directories to their
/// `.pgn` files and case folders (recursively, sorted by path so runs are
/// reproducible).
pub fn expand_inputs(paths: &[PathBuf]) -> Vec<Result<Input, (PathBuf, io::Error)>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() && p.join("case.json").is_file() {
            out.push(Ok(Input::Case(p.clone())));
        } else if p.is_dir() {
            let mut found = Vec::new();
            if let Err(e) = walk(p, &mut found) {
                out.push(Err((p.clone(), e)));
            }
            found.sort();
            out.extend(found.into_iter().map(Ok));
        } else {
            out.push(Ok(Input::Pgn(p.clone())));
        }
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<Input>) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() && path.join("case.json").is_file() {
            out.push(Input::Case(path));
        } else if path.is_dir() {
            walk(&path, out)?;
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
        {
            out.push(Input::Pgn(path));
        }
    }
    Ok(())
}

/// A case folder: `case.json` names the game, its logs and its ruleset.
///
/// ```json
/// {"ruleset": "../../../rulesets/kasparov-deep-junior-2003.rules",
///  "game": "game.pgn", "engine_logs": ["engine.log"], "operator_logs": ["operator.log"]}
/// ```
///
/// Paths are relative to the folder. `game` defaults to `game.pgn`; without
/// `engine_logs`/`operator_logs`, the folder's `engine.log`,
/// `opponent.log` and `operator.log` are used when present.
#[derive(Debug, Clone)]
pub struct Case {
    pub dir: PathBuf,
    pub game: PathBuf,
    pub ruleset: Option<PathBuf>,
    pub variant: Option<String>,
    pub engine_logs: Vec<PathBuf>,
    pub operator_logs: Vec<PathBuf>,
}

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
    /// The ruleset or a log the case names.
    #[error(transparent)]
    Config(#[from] ConfigError),
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

impl Case {
    pub fn read(dir: &Path) -> Result<Case, CaseError> {
        let path = dir.join("case.json");
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(&path).map_err(|source| CaseError::Io {
            path: shown.clone(),
            source,
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
                None => Ok(defaults
                    .iter()
                    .map(|d| dir.join(d))
                    .filter(|p| p.is_file())
                    .collect()),
                Some(serde_json::Value::Array(a)) => a
                    .iter()
                    .map(|x| {
                        x.as_str()
                            .map(|x| dir.join(x))
                            .ok_or_else(|| CaseError::NotFileName {
                                path: shown.clone(),
                                key: k.to_string(),
                            })
                    })
                    .collect(),
                Some(_) => Err(CaseError::NotList {
                    path: shown.clone(),
                    key: k.to_string(),
                }),
            }
        };
        Ok(Case {
            dir: dir.to_path_buf(),
            game: dir.join(s("game")?.unwrap_or_else(|| "game.pgn".into())),
            ruleset: s("ruleset")?.map(|r| normalize(&dir.join(r))),
            variant: s("variant")?,
            engine_logs: list("engine_logs", &["engine.log", "opponent.log"])?,
            operator_logs: list("operator_logs", &["operator.log"])?,
        })
    }

    /// The audit configuration for this case: the run's, with the case's
    /// ruleset and logs (read on at most `threads` threads).
    pub fn config(&self, base: &Config, threads: usize) -> Result<Config, ConfigError> {
        let mut c = base.clone();
        if let Some(r) = &self.ruleset {
            c.ruleset = Some(std::sync::Arc::new(Config::load_ruleset(r)?));
            c.variant = self.variant.clone().or(c.variant);
        }
        c.operator_logs = self
            .operator_logs
            .iter()
            .map(|p| LoadedLog::read(p))
            .collect::<Result<_, _>>()?;
        c.engine_logs = read_engine_logs(&self.engine_logs, threads)?;
        Ok(c)
    }
}

/// `a/b/../c` → `a/c`, without touching the file system, so reports name
/// files the way a reader would.
pub fn normalize(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in p.components() {
        match c {
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out.iter().map(|c| c.as_os_str()).collect()
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

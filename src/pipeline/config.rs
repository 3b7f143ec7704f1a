//! What an audit runs with: the ruleset, its detectors, the logs, and how
//! the run was asked for (so that `arbiter verify` can run it again).

use std::path::{Path, PathBuf};

use crate::ingest::logs::LoadedLog;
use crate::rules::analysis::Ruleset;
use crate::rules::eval::Detectors;

/// What an audit runs besides the built-in checks.
#[derive(Debug, Default, Clone)]
pub struct Config {
    pub ruleset: Option<std::sync::Arc<Ruleset>>,
    /// `--rules DIR`: a folder of rulesets, one chosen per PGN file
    /// ([`super::shelf`]); `ruleset` is then the chosen one's, in the
    /// file's own configuration.
    pub shelf: Option<std::sync::Arc<crate::rules::shelf::Shelf>>,
    /// Which ruleset of the folder this file's configuration holds, and why.
    pub chosen: Option<crate::rules::shelf::Choice>,
    pub variant: Option<String>,
    pub detectors: std::sync::Arc<Detectors>,
    /// Keep every `let` value per move (for `replay --rules`).
    pub trace: bool,
    /// Operator logs, each matched to a game by its `setup round=`.
    pub operator_logs: Vec<LoadedLog>,
    /// Engine logs, each matched to a game by its `# round:` line.
    pub engine_logs: Vec<crate::ingest::logs::LoadedEngineLog>,
    /// Keep each game's reconstructed clocks (for the clock chart).
    pub clocks: bool,
    /// How the audit was asked for, as given, so that `arbiter verify` can
    /// run it again.
    pub invocation: Option<Invocation>,
    /// `--fit`: each PGN file is fitted as it is read, and its games judged
    /// under its fitted values (`crate::pipeline::fit`).
    pub fit: bool,
    /// `--manager-args`: the constants the match manager's own flags give
    /// (`crate::pipeline::manager_args`), over the ruleset's and its
    /// variant's.
    pub given: Option<crate::rules::eval::Overrides>,
    /// `--manager-stdout`: the match managers' standard output, read.
    pub manager_stdout: Vec<crate::ingest::manager::LoadedStdout>,
    /// `--manager-config`: the manager's settings file, read.
    pub manager_config: Option<crate::ingest::manager::LoadedConfig>,
    /// `--select`, `--ignore`, `--min-severity`: the findings reported.
    pub filter: crate::findings::filter::Filter,
    /// Draw a progress bar on standard error (a terminal's) over an audit
    /// of more than [`crate::pipeline::run::BAR_FROM`] inputs, and over a
    /// fit.
    pub progress: bool,
}

/// The inputs and options of an audit, paths as given on the command line
/// (relative to the directory it ran in).
#[derive(Debug, Default, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Invocation {
    pub paths: Vec<String>,
    pub rules: Option<String>,
    pub variant: Option<String>,
    pub syzygy: Option<String>,
    pub similarity: Option<String>,
    pub operator_logs: Vec<String>,
    pub engine_logs: Vec<String>,
    /// Set when the report is `arbiter batch`'s, not `audit`'s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<BatchInvocation>,
    /// `--fit`: each file judged under its fitted values.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fit: bool,
    /// `--manager-args`, as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manager_args: Option<String>,
    /// `--manager-stdout`, as given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub manager_stdout: Vec<String>,
    /// `--manager-config`, as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manager_config: Option<String>,
    /// `--select`, as given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub select: Vec<String>,
    /// `--ignore`, as given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignore: Vec<String>,
    /// `--min-severity`, as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_severity: Option<String>,
}

/// What `arbiter batch` adds to an invocation. The thread count is not
/// recorded: the output does not depend on it.
#[derive(Debug, Default, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BatchInvocation {
    /// `--shard K/N`, as given.
    pub shard: Option<String>,
}

/// Why an audit's configuration could not be made: a file it names could
/// not be read or is not what it must be. Paths are as shown.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// A `--select` or `--ignore` pattern that names no code the run can
    /// report (a built-in one, or a rule of the ruleset).
    #[error(
        "{flag} {pattern}: no finding code or rule id is {pattern} or starts with it (arbiter rules explain CODE; docs/findings-schema.md)"
    )]
    Filter { flag: &'static str, pattern: String },
    /// A pool of `threads` threads could not be started.
    #[error("could not start {threads} threads: {source}")]
    Threads {
        threads: usize,
        source: rayon::ThreadPoolBuildError,
    },
    /// The ruleset file could not be read.
    #[error("{path}: {source}")]
    RulesetIo {
        path: String,
        source: std::io::Error,
    },
    /// The ruleset has a mistake: `rendered` is its diagnostic with file,
    /// line and caret.
    #[error("{rendered}")]
    Ruleset {
        path: String,
        rendered: String,
        source: Box<crate::rules::syntax::error::RuleError>,
    },
    /// `--variant` names a variant the ruleset does not have.
    #[error("arbiter: {0}")]
    Variant(#[source] crate::rules::eval::UnknownVariant),
    #[error(transparent)]
    Log(#[from] crate::ingest::logs::LogFileError),
    /// The Syzygy tables of folder `dir` could not be read.
    #[error("arbiter: syzygy tables {dir}: {source}")]
    Syzygy { dir: String, source: std::io::Error },
    #[error("arbiter: {0}")]
    Similarity(#[source] crate::facts::similarity::LoadError),
    #[error("arbiter: {0}")]
    ManagerArgs(#[source] crate::pipeline::manager_args::ManagerArgsError),
    #[error(transparent)]
    ManagerConfig(#[from] crate::ingest::manager::ConfigReadError),
    /// `--rules DIR` names a folder with no `*.rules` file.
    #[error("arbiter: {dir}: a folder of rulesets holds no .rules file")]
    EmptyShelf { dir: String },
    /// An option that needs one ruleset, given with a folder of them.
    #[error(
        "arbiter: {flag} needs one ruleset file, and --rules {dir} is a folder of rulesets (each file is judged under the one that claims it)"
    )]
    ShelfWith { flag: &'static str, dir: String },
    /// `--manager-config` and `--manager-args` both set one option.
    #[error(
        "arbiter: {path} sets {name} ({from_config}) and --manager-args sets it too ({from_args}): give each option once"
    )]
    ManagerTwice {
        path: String,
        name: String,
        from_config: String,
        from_args: String,
    },
}

/// The threads a run uses where it is not told: the machine's cores.
pub fn machine_threads() -> usize {
    std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get)
}

/// Run `work` on a pool of its own of `threads` threads (at least one), so
/// that what it does in parallel keeps to the number the user gave
/// (`batch --threads`), not the machine's cores.
pub fn on_threads<T: Send>(
    threads: usize,
    work: impl FnOnce() -> T + Send,
) -> Result<T, ConfigError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|source| ConfigError::Threads { threads, source })?;
    Ok(pool.install(work))
}

/// The rulesets shipped in `rulesets/`, built into the binary: a case
/// folder names one by its name (`"ruleset": "icga-2008"`), and its
/// reports name it `rulesets/<name>.rules`, as when it is read from there.
pub const SHIPPED: [(&str, &str); 6] = [
    ("icga-2008", include_str!("../../rulesets/icga-2008.rules")),
    (
        "kasparov-deep-blue-1996",
        include_str!("../../rulesets/kasparov-deep-blue-1996.rules"),
    ),
    (
        "kasparov-deep-junior-2003",
        include_str!("../../rulesets/kasparov-deep-junior-2003.rules"),
    ),
    ("managers", include_str!("../../rulesets/managers.rules")),
    ("tcec-s15", include_str!("../../rulesets/tcec-s15.rules")),
    (
        "wccc-1992-madrid",
        include_str!("../../rulesets/wccc-1992-madrid.rules"),
    ),
];

/// The text of the shipped ruleset `name`.
pub fn shipped(name: &str) -> Option<&'static str> {
    SHIPPED.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The text of the shipped ruleset a report names by `path`
/// (`rulesets/<name>.rules`), if it is one.
pub fn shipped_at(path: &str) -> Option<&'static str> {
    shipped(path.strip_prefix("rulesets/")?.strip_suffix(".rules")?)
}

/// The text of the ruleset file `path`: a regular file, read up to the
/// rule language's size limit and refused beyond it (naming its size), in
/// UTF-8.
pub fn read_ruleset_text(path: &Path) -> std::io::Result<String> {
    use std::io::{Error, ErrorKind};
    let bytes = crate::base::files::read_capped(path, crate::rules::syntax::lexer::MAX_SOURCE)
        .map_err(|e| match e.kind() {
            ErrorKind::FileTooLarge => Error::new(e.kind(), format!("ruleset {e}")),
            _ => e,
        })?;
    String::from_utf8(bytes).map_err(|e| {
        Error::new(
            ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (from byte offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// Compile the ruleset text `src` of file `shown`, reading the files it
/// `extends` ([`read_extended`]; inside `within` only, where given).
pub fn compile_text(
    shown: &str,
    src: &str,
    within: Option<&Path>,
) -> Result<Ruleset, crate::rules::analysis::Located> {
    let mut read = |from: &str, written: &str| read_extended(from, written, within);
    crate::rules::compile_chain(shown, src, &mut read)
}

/// The file an `extends` in `from` names, read: a shipped ruleset by its
/// name (no `/`, no extension), else a file beside `from` (a shipped one
/// where `from` is shipped and it is too); inside `within` only, where
/// given (a case folder's ruleset).
fn read_extended(
    from: &str,
    written: &str,
    within: Option<&Path>,
) -> Result<crate::rules::analysis::Source, String> {
    use crate::rules::analysis::Source;
    if !written.contains('/') && Path::new(written).extension().is_none() {
        return match shipped(written) {
            Some(text) => Ok(Source {
                path: format!("rulesets/{written}.rules"),
                text: text.to_string(),
            }),
            None => Err(format!(
                "`extends \"{written}\"`: no shipped ruleset has that name (shipped: {}); or name a .rules file",
                SHIPPED
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        };
    }
    let beside = Path::new(from).parent().unwrap_or(Path::new(""));
    let target = crate::base::files::normalize(&beside.join(written));
    let shown = target.display().to_string();
    if let (Some(_), Some(text)) = (shipped_at(from), shipped_at(&shown)) {
        return Ok(Source {
            path: shown,
            text: text.to_string(),
        });
    }
    if let Some(dir) = within {
        let inside = (std::fs::canonicalize(&target).ok())
            .zip(std::fs::canonicalize(dir).ok())
            .is_some_and(|(t, d)| t.starts_with(d));
        if !inside {
            return Err(format!(
                "`extends \"{written}\"`: {shown} is not inside the case folder; refused: a case folder's files are inside it (or name a shipped ruleset)"
            ));
        }
    }
    let text =
        read_ruleset_text(&target).map_err(|e| format!("`extends \"{written}\"`: {shown}: {e}"))?;
    Ok(Source { path: shown, text })
}

impl Config {
    /// Load a ruleset file (a regular file, read up to the rule language's
    /// size limit and refused beyond it); the error is rendered with file,
    /// line and caret.
    pub fn load_ruleset(path: &Path) -> Result<Ruleset, ConfigError> {
        Self::load_ruleset_within(path, None)
    }

    /// [`Config::load_ruleset`], the files it `extends` read from inside
    /// `within` only (a case folder), or shipped ones.
    pub fn load_ruleset_within(path: &Path, within: Option<&Path>) -> Result<Ruleset, ConfigError> {
        let shown = path.display().to_string();
        let src = read_ruleset_text(path).map_err(|source| ConfigError::RulesetIo {
            path: shown.clone(),
            source,
        })?;
        Self::compile_ruleset_within(&shown, &src, within)
    }

    /// Read every `*.rules` file of `dir` (not of its subfolders), each
    /// checked, in the order of their names; a folder with none is an
    /// error.
    pub fn load_shelf(dir: &Path) -> Result<crate::rules::shelf::Shelf, ConfigError> {
        let shown = dir.display().to_string();
        let io = |source| ConfigError::RulesetIo {
            path: shown.clone(),
            source,
        };
        let mut files = Vec::new();
        for e in std::fs::read_dir(dir).map_err(io)? {
            let path = e.map_err(io)?.path();
            if path.extension().is_some_and(|x| x == "rules") && path.is_file() {
                files.push(path);
            }
        }
        files.sort();
        if files.is_empty() {
            return Err(ConfigError::EmptyShelf { dir: shown });
        }
        let mut rulesets = Vec::new();
        for f in &files {
            rulesets.push(std::sync::Arc::new(Config::load_ruleset(f)?));
        }
        Ok(crate::rules::shelf::Shelf {
            dir: shown,
            rulesets,
        })
    }

    /// Load the shipped ruleset `name` ([`SHIPPED`]), named
    /// `rulesets/<name>.rules`.
    pub fn load_shipped(name: &str) -> Option<Result<Ruleset, ConfigError>> {
        let src = shipped(name)?;
        Some(Self::compile_ruleset(
            &format!("rulesets/{name}.rules"),
            src,
        ))
    }

    fn compile_ruleset(shown: &str, src: &str) -> Result<Ruleset, ConfigError> {
        Self::compile_ruleset_within(shown, src, None)
    }

    fn compile_ruleset_within(
        shown: &str,
        src: &str,
        within: Option<&Path>,
    ) -> Result<Ruleset, ConfigError> {
        compile_text(shown, src, within).map_err(|e| ConfigError::Ruleset {
            rendered: e.render(),
            path: e.path,
            source: e.error,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What runs in parallel keeps to the threads it is given: a pool of
    /// one thread is one thread, and of three is three.
    #[test]
    fn work_keeps_to_the_threads_given() {
        assert_eq!(on_threads(1, rayon::current_num_threads).ok(), Some(1));
        assert_eq!(on_threads(3, rayon::current_num_threads).ok(), Some(3));
        assert_eq!(on_threads(0, rayon::current_num_threads).ok(), Some(1));
    }

    /// The shipped rulesets built in are those of `rulesets/`, each the
    /// file's very text.
    #[test]
    fn the_built_in_rulesets_are_the_folders() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| {
                let name = e.unwrap().file_name().into_string().unwrap();
                name.strip_suffix(".rules").map(str::to_string)
            })
            .collect();
        on_disk.sort();
        let built: Vec<&str> = SHIPPED.iter().map(|(n, _)| *n).collect();
        assert_eq!(on_disk, built);
        for (name, text) in SHIPPED {
            let file = std::fs::read_to_string(dir.join(format!("{name}.rules"))).unwrap();
            assert_eq!(file, text, "{name}");
            assert_eq!(shipped_at(&format!("rulesets/{name}.rules")), Some(text));
        }
        assert!(shipped_at("rulesets/nope.rules").is_none());
    }
}

/// What an audit is given besides its games, as the command line names it:
/// the ruleset and its variant, the detectors' data, the logs, and whether
/// each file is judged under its fitted values. [`Config::load`] reads it.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    pub rules: Option<PathBuf>,
    pub variant: Option<String>,
    pub syzygy: Option<PathBuf>,
    pub similarity: Option<PathBuf>,
    pub operator_logs: Vec<PathBuf>,
    pub engine_logs: Vec<PathBuf>,
    pub fit: bool,
    /// `--manager-args`: the manager's adjudication flags.
    pub manager_args: Option<String>,
    /// `--manager-stdout`: the managers' standard output.
    pub manager_stdout: Vec<PathBuf>,
    /// `--manager-config`: fastchess's `config.json`.
    pub manager_config: Option<PathBuf>,
    /// `--select`, `--ignore`, `--min-severity`.
    pub filter: crate::findings::filter::Filter,
}

impl Settings {
    /// The invocation that records an audit of `paths` under these
    /// settings, paths as given.
    pub fn invocation(&self, paths: &[PathBuf]) -> Invocation {
        let shown = |p: &PathBuf| p.display().to_string();
        Invocation {
            paths: paths.iter().map(shown).collect(),
            rules: self.rules.as_ref().map(shown),
            variant: self.variant.clone(),
            syzygy: self.syzygy.as_ref().map(shown),
            similarity: self.similarity.as_ref().map(shown),
            operator_logs: self.operator_logs.iter().map(shown).collect(),
            engine_logs: self.engine_logs.iter().map(shown).collect(),
            batch: None,
            fit: self.fit,
            manager_args: self.manager_args.clone(),
            manager_stdout: self.manager_stdout.iter().map(shown).collect(),
            manager_config: self.manager_config.as_ref().map(shown),
            select: self.filter.select.clone(),
            ignore: self.filter.ignore.clone(),
            min_severity: self.filter.min_severity.map(|s| s.as_str().to_string()),
        }
    }

    /// The settings and the paths an invocation recorded.
    pub fn of(inv: &Invocation) -> (Settings, Vec<PathBuf>) {
        let settings = Settings {
            rules: inv.rules.as_ref().map(PathBuf::from),
            variant: inv.variant.clone(),
            syzygy: inv.syzygy.as_ref().map(PathBuf::from),
            similarity: inv.similarity.as_ref().map(PathBuf::from),
            operator_logs: inv.operator_logs.iter().map(PathBuf::from).collect(),
            engine_logs: inv.engine_logs.iter().map(PathBuf::from).collect(),
            fit: inv.fit,
            manager_args: inv.manager_args.clone(),
            manager_stdout: inv.manager_stdout.iter().map(PathBuf::from).collect(),
            manager_config: inv.manager_config.as_ref().map(PathBuf::from),
            filter: crate::findings::filter::Filter {
                select: inv.select.clone(),
                ignore: inv.ignore.clone(),
                min_severity: inv
                    .min_severity
                    .as_deref()
                    .and_then(crate::findings::filter::parse_severity),
            },
        };
        (settings, inv.paths.iter().map(PathBuf::from).collect())
    }
}

impl Config {
    /// The configuration `settings` give: the ruleset read and checked
    /// (its variant too), the operator logs, the engine logs (read on at
    /// most `threads` threads), the Syzygy tables and the similarity
    /// report. `trace` keeps every `let` value per move (`replay`). `--fit`
    /// is not set here: the command checks it (`crate::pipeline::fit::check`).
    pub fn load(settings: &Settings, trace: bool, threads: usize) -> Result<Config, ConfigError> {
        Self::load_with(settings, trace, threads, &Vec::new)
    }

    /// [`Config::load`], where `--select` and `--ignore` may also name the
    /// rule ids `more` gives (the rules of the case folders' own rulesets,
    /// read only for a pattern no other ruleset knows).
    pub fn load_with(
        settings: &Settings,
        trace: bool,
        threads: usize,
        more: &dyn Fn() -> Vec<String>,
    ) -> Result<Config, ConfigError> {
        let mut cfg = Config {
            trace,
            ..Default::default()
        };
        if let Some(dir) = settings.rules.as_ref().filter(|p| p.is_dir()) {
            let shown = dir.display().to_string();
            for (flag, given) in [
                ("--variant", settings.variant.is_some()),
                ("--manager-args", settings.manager_args.is_some()),
                ("--manager-config", settings.manager_config.is_some()),
            ] {
                if given {
                    return Err(ConfigError::ShelfWith { flag, dir: shown });
                }
            }
            cfg.shelf = Some(std::sync::Arc::new(Config::load_shelf(dir)?));
        } else if let Some(path) = &settings.rules {
            let rs = Config::load_ruleset(path)?;
            if let Some(v) = &settings.variant {
                crate::rules::eval::Program::new(&rs, Some(v)).map_err(ConfigError::Variant)?;
            }
            if let Some(p) = &settings.manager_config {
                cfg.manager_config = Some(crate::ingest::manager::read_config(p)?);
            }
            let flags = manager_flags(settings, cfg.manager_config.as_ref())?;
            if let Some(args) = &flags {
                cfg.given = Some(
                    crate::pipeline::manager_args::overrides(&rs, args)
                        .map_err(ConfigError::ManagerArgs)?,
                );
            }
            cfg.ruleset = Some(std::sync::Arc::new(rs));
            cfg.variant = settings.variant.clone();
        }
        for p in &settings.operator_logs {
            cfg.operator_logs.push(LoadedLog::read(p)?);
        }
        cfg.engine_logs = crate::ingest::logs::read_engine_logs(&settings.engine_logs, threads)?;
        for p in &settings.manager_stdout {
            cfg.manager_stdout
                .push(crate::ingest::manager::read_stdout(p)?);
        }
        let mut detectors = Detectors::default();
        if let Some(dir) = &settings.syzygy {
            detectors = Detectors::with_syzygy(dir).map_err(|source| ConfigError::Syzygy {
                dir: dir.display().to_string(),
                source,
            })?;
        }
        if let Some(p) = &settings.similarity {
            detectors.similarity =
                Some(crate::facts::similarity::load(p).map_err(ConfigError::Similarity)?);
        }
        cfg.detectors = std::sync::Arc::new(detectors);
        cfg.filter = settings.filter.clone();
        check_filter(&cfg, more)?;
        Ok(cfg)
    }
}

/// The manager's flags an audit runs under: `--manager-args`, after the
/// flags `--manager-config`'s file stands for; an option set by both is
/// refused.
fn manager_flags(
    settings: &Settings,
    config: Option<&crate::ingest::manager::LoadedConfig>,
) -> Result<Option<String>, ConfigError> {
    use crate::pipeline::manager_args::parse;
    let Some(c) = config else {
        return Ok(settings.manager_args.clone());
    };
    let Some(args) = &settings.manager_args else {
        return Ok(Some(c.flags.clone()));
    };
    let from_args = parse(args).map_err(ConfigError::ManagerArgs)?;
    let from_config = parse(&c.flags).map_err(ConfigError::ManagerArgs)?;
    for (name, _, flag) in &from_config {
        if let Some((_, _, other)) = from_args.iter().find(|(n, _, _)| n == name) {
            return Err(ConfigError::ManagerTwice {
                path: c.path.clone(),
                name: name.to_string(),
                from_config: flag.clone(),
                from_args: other.clone(),
            });
        }
    }
    Ok(Some(format!("{} {args}", c.flags)))
}

impl Config {
    /// The ruleset's adjudication bands, for the evaluation charts: its
    /// `draw_eval` and `win_eval` constants (the base ruleset's), when it has
    /// them.
    pub fn adjudication_bands(&self) -> Vec<(f64, &'static str)> {
        let Some(rs) = self.ruleset.as_deref() else {
            return Vec::new();
        };
        let Ok(p) = crate::rules::eval::Program::new(rs, None) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (name, label) in [
            ("draw_eval", "draw-rule band"),
            ("win_eval", "win-rule band"),
        ] {
            if let Some(i) = rs.consts.iter().position(|(n, _)| n == name)
                && let Some(crate::base::value::Value::Num(v)) = p.consts.get(i)
            {
                out.push((*v, label));
            }
        }
        out
    }
}

/// Every `--select` and `--ignore` pattern names a built-in code, a rule
/// of the ruleset, or a rule of a shipped ruleset (a case folder's own
/// ruleset is read later): a misspelt one would silently keep or drop
/// nothing.
fn check_filter(cfg: &Config, more: &dyn Fn() -> Vec<String>) -> Result<(), ConfigError> {
    let mut known: Vec<String> = crate::findings::codes::CODES
        .iter()
        .map(|c| c.id.to_string())
        .collect();
    // the ruleset, or each of a folder of them
    let shelf = cfg.shelf.iter().flat_map(|s| s.rulesets.iter());
    for rs in shelf.chain(&cfg.ruleset) {
        known.extend(rs.rules.iter().map(|r| r.id.clone()));
    }
    let ids = |k: &[String]| -> Vec<(&'static str, String)> {
        let k: Vec<&str> = k.iter().map(String::as_str).collect();
        (cfg.filter.unknown(&k).into_iter())
            .map(|(f, p)| (f, p.to_string()))
            .collect()
    };
    if ids(&known).is_empty() {
        return Ok(());
    }
    // the shipped rulesets are read only for a pattern not found yet
    for (name, _) in SHIPPED {
        if let Some(Ok(rs)) = Config::load_shipped(name) {
            known.extend(rs.rules.iter().map(|r| r.id.clone()));
        }
    }
    if ids(&known).is_empty() {
        return Ok(());
    }
    known.extend(more());
    match ids(&known).into_iter().next() {
        Some((flag, pattern)) => Err(ConfigError::Filter { flag, pattern }),
        None => Ok(()),
    }
}

//! The flags several subcommands share: the ruleset and what it is judged
//! with (`RulesArgs`), and the output format.

use std::path::PathBuf;

use clap::ValueEnum;

use crate::pipeline::Settings;

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Format {
    /// Plain text for people.
    Text,
    /// JSON, one object per line (docs/findings-schema.md).
    Json,
    /// The HTML dossier (needs --out).
    Html,
    /// The Markdown dossier (needs --out).
    Md,
}

/// When the text on standard output is in colour (`--color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Colour {
    /// On a terminal, unless NO_COLOR is set (CLICOLOR_FORCE forces it).
    Auto,
    /// Always, even into a pipe or a file.
    Always,
    /// Never.
    Never,
}

impl Colour {
    /// Whether text written to `stream` is coloured: the choice, and for
    /// `auto` the conventions of no-color.org and CLICOLOR_FORCE.
    pub fn on(self, stream: &impl std::io::IsTerminal) -> bool {
        let set = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty() && v != "0");
        match self {
            Colour::Always => true,
            Colour::Never => false,
            Colour::Auto if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) => false,
            Colour::Auto => set("CLICOLOR_FORCE") || stream.is_terminal(),
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct RulesArgs {
    /// The event's ruleset (e.g. rulesets/tcec-s15.rules), or a folder of
    /// rulesets: each PGN file is judged under the one whose `applies
    /// when` claims its first game.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Force one variant of the ruleset (default: the first variant whose
    /// `applies when` matches each game, else the base ruleset).
    #[arg(long)]
    pub variant: Option<String>,
    /// A folder of Syzygy tables for the `tablebase` detector.
    #[arg(long)]
    pub syzygy: Option<PathBuf>,
    /// A report of `arbiter similarity` (its similarity.json) for the
    /// `similarity` detector.
    #[arg(long)]
    pub similarity: Option<PathBuf>,
    /// An operator log (docs/operator-log.md); repeatable. Each joins the
    /// game whose Round its `setup round=` names (else the first game).
    #[arg(long = "operator-log")]
    pub operator_logs: Vec<PathBuf>,
    /// An engine log (docs/engine-log.md): cutechess-cli debug output or a
    /// transcript; repeatable. Each joins the game its `# round:` names
    /// (else the first game).
    #[arg(long = "engine-log")]
    pub engine_logs: Vec<PathBuf>,
    /// Judge each file under the values `arbiter rules fit` finds for it
    /// (the ruleset's `fit` constants and switches); each departure from
    /// the text is reported as a `rules-fit` finding on the file's first
    /// game.
    #[arg(long, requires = "rules")]
    pub fit: bool,
    /// The match manager's adjudication flags, as it ran them (e.g. "-draw
    /// movenumber=34 movecount=8 score=20 -resign movecount=3 score=600"):
    /// the ruleset's constants named after them take their values
    /// (rulesets/managers.rules; docs/managers.md).
    #[arg(
        long = "manager-args",
        requires = "rules",
        conflicts_with = "fit",
        allow_hyphen_values = true
    )]
    pub manager_args: Option<String>,
    /// A match manager's standard output (docs/managers.md): each
    /// `Finished game` line checked against its game; repeatable.
    #[arg(long = "manager-stdout")]
    pub manager_stdout: Vec<PathBuf>,
    /// fastchess's config.json, or a fishtest task JSON (its run's tc):
    /// its adjudication settings and time control as --manager-args gives
    /// them (an option set by both is refused).
    #[arg(long = "manager-config", requires = "rules", conflicts_with = "fit")]
    pub manager_config: Option<PathBuf>,
}

impl RulesArgs {
    /// The audit's settings these flags give.
    pub fn settings(self) -> Settings {
        Settings {
            rules: self.rules,
            variant: self.variant,
            syzygy: self.syzygy,
            similarity: self.similarity,
            operator_logs: self.operator_logs,
            engine_logs: self.engine_logs,
            fit: self.fit,
            manager_args: self.manager_args,
            manager_stdout: self.manager_stdout,
            manager_config: self.manager_config,
            filter: crate::findings::filter::Filter::default(),
        }
    }
}

/// `--format` of a command that prints text or JSON only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TextOrJson {
    /// Plain text for people.
    Text,
    /// JSON (docs/findings-schema.md).
    Json,
}

/// `--min-severity`'s values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum MinSeverity {
    /// Errors only.
    Error,
    /// Errors and warnings (the violations).
    Warning,
    /// Every finding.
    Info,
}

/// Which findings a run reports (docs/findings-schema.md, Finding codes).
#[derive(Debug, clap::Args)]
pub struct FilterArgs {
    /// Report only the findings of these codes or rule ids, or of codes
    /// that start with them (engine-log, tcec.); comma-separated or
    /// repeated.
    #[arg(long, value_delimiter = ',')]
    pub select: Vec<String>,
    /// Leave out the findings of these codes or rule ids, or of codes that
    /// start with them; comma-separated or repeated.
    #[arg(long, value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Leave out the findings below this severity (a clause for manual
    /// review ranks with info).
    #[arg(long, value_enum)]
    pub min_severity: Option<MinSeverity>,
}

impl FilterArgs {
    /// The filter these flags give.
    pub fn filter(self) -> crate::findings::filter::Filter {
        use crate::findings::Severity;
        crate::findings::filter::Filter {
            select: self.select,
            ignore: self.ignore,
            min_severity: self.min_severity.map(|m| match m {
                MinSeverity::Error => Severity::Error,
                MinSeverity::Warning => Severity::Warning,
                MinSeverity::Info => Severity::Info,
            }),
        }
    }
}

//! `arbiter rules check|list|explain|fit`.

use std::io::Write;
use std::path::PathBuf;

use clap::{Subcommand, ValueEnum};

use super::args::Format;
use crate::commands::{CLEAN, FAILURE, fit, rules};

#[derive(Debug, Subcommand)]
pub enum RulesCommand {
    /// Parse and analyze a ruleset; report mistakes with file:line:column.
    #[command(after_help = "Example:\n  arbiter rules check rulesets/tcec-s15.rules")]
    Check {
        /// The ruleset file.
        file: PathBuf,
    },
    /// Every clause the ruleset cites, with the rules that encode it
    /// (manual ones marked).
    #[command(after_help = "Example:\n  arbiter rules list rulesets/icga-2008.rules")]
    List {
        /// The ruleset file.
        file: PathBuf,
    },
    /// Explain a rule (from a ruleset) or a built-in check code.
    #[command(after_help = "Examples:
  arbiter rules explain plycount-mismatch
  arbiter rules explain tcec.draw-rule --rules rulesets/tcec-s15.rules")]
    Explain {
        /// A rule's id (tcec.draw-rule) or a built-in code (illegal-move).
        id: String,
        /// Ruleset to search (default: every .rules file in ./rulesets).
        #[arg(long)]
        rules: Option<PathBuf>,
    },
    /// Recover the values an archive's software really ran: search the
    /// ruleset's `fit` constants and switches for those that best
    /// reproduce the recorded counters and terminations, per file (or per
    /// event), beside the text's values. Exits 1 where a fit departs from
    /// the text.
    #[command(after_help = "Examples:
  arbiter rules fit season.pgn --rules rulesets/tcec-s15.rules --syzygy TABLES
  arbiter rules fit match.pgn --rules rulesets/managers.rules --format json")]
    Fit {
        /// PGN files, or folders searched for them.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The ruleset, with `fit` clauses.
        #[arg(long)]
        rules: PathBuf,
        /// Fit each input file, or each event (the `Event` tag, across
        /// files).
        #[arg(long, value_enum, default_value_t = FitPer::File)]
        per: FitPer,
        /// Force one variant of the ruleset (default: each game's own).
        #[arg(long)]
        variant: Option<String>,
        /// A folder of Syzygy tables, for the tablebase adjudication.
        #[arg(long)]
        syzygy: Option<PathBuf>,
        /// `text`, or `json` (one object per group).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

/// What `arbiter rules fit` fits as one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FitPer {
    File,
    Event,
}

pub fn run(cmd: RulesCommand, out: &mut dyn Write) -> i32 {
    let r = match cmd {
        RulesCommand::Check { file } => rules::check(&file),
        RulesCommand::List { file } => rules::list_file(&file),
        RulesCommand::Explain { id, rules } => rules::explain(&id, rules.as_deref()),
        RulesCommand::Fit {
            paths,
            rules,
            per,
            variant,
            syzygy,
            format,
        } => {
            let per = match per {
                FitPer::File => fit::Per::File,
                FitPer::Event => fit::Per::Event,
            };
            let ran = match format {
                Format::Text | Format::Json => fit::run(
                    &paths,
                    &rules,
                    per,
                    variant.as_deref(),
                    syzygy.as_deref(),
                    matches!(format, Format::Json),
                    out,
                ),
                Format::Html | Format::Md => Err(crate::commands::RulesFitError::Format),
            };
            return match ran {
                Ok(code) => code,
                Err(e) => {
                    say!("arbiter rules fit: {e}");
                    FAILURE
                }
            };
        }
    };
    match r {
        Ok(text) => match writeln!(out, "{text}") {
            Ok(()) => CLEAN,
            Err(_) => FAILURE,
        },
        Err(e) => {
            say!("{e}");
            FAILURE
        }
    }
}

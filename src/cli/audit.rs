//! `arbiter audit`.

use std::io::Write;
use std::path::PathBuf;

use super::args::{FilterArgs, Format, RulesArgs};
use crate::commands::{FAILURE, audit};

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  arbiter audit samples/ --out reports/samples
  arbiter audit season.pgn --rules rulesets/tcec-s15.rules --syzygy TABLES
  arbiter audit match.pgn --rules rulesets/managers.rules --manager-args \"-resign movecount=3 score=500\"
  zcat games.pgn.gz | arbiter audit - --format json")]
pub struct AuditArgs {
    /// PGN files (also .pgn.gz, .pgn.zst), folders searched for them, case
    /// folders (case.json), or - for standard input.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// What to print: text, json (one line per game, then the summary);
    /// html or md write the dossier into --out.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write each game's clock chart (SVG) into this folder (needs a
    /// ruleset with a time control): <input>-<game>.svg.
    #[arg(long)]
    charts: Option<PathBuf>,
    /// Write the reports into this folder: audit.jsonl, dossier.html
    /// (one self-contained file), dossier.md with dossier-files/.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Text: print the SHA-256 of every input before the summary (the
    /// reports and the JSON summary always record them).
    #[arg(long, short)]
    verbose: bool,
    /// Text: print only the games with findings, their findings and the
    /// verdict (no progress bar).
    #[arg(long, short, conflicts_with = "verbose")]
    quiet: bool,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    filter: FilterArgs,
}

pub fn run(a: AuditArgs, out: &mut dyn Write, paint: bool) -> i32 {
    let req = audit::Request {
        paths: a.paths,
        settings: crate::pipeline::Settings {
            filter: a.filter.filter(),
            ..a.rules.settings()
        },
        json: matches!(a.format, Format::Json),
        charts: a.charts,
        out: a.out,
        verbose: a.verbose,
        quiet: a.quiet,
        paint,
    };
    match audit::configure(&req.paths, &req.settings) {
        Ok(_) if matches!(a.format, Format::Html | Format::Md) && req.out.is_none() => {
            say!("arbiter audit: --format html and md write a dossier: give --out DIR");
            FAILURE
        }
        Ok(cfg) => audit::run(&req, &cfg, out).unwrap_or_else(|e| {
            say!("{e}");
            FAILURE
        }),
        Err(e) => {
            say!("{e}");
            FAILURE
        }
    }
}

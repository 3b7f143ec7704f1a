//! The audit on a stream (standard output): each game as it comes, then
//! the summary, as JSON Lines (`json`) or as text for a terminal (`text`).

use std::io::Write;

use super::{Writer, json, text};
use crate::pipeline::run::AuditRun;
use crate::pipeline::{Config, GameAudit};

/// The form of the lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// One JSON object per game, then the summary object
    /// (`docs/findings-schema.md`).
    Json,
    /// Each game with its findings, then (`verbose`) the SHA-256 of every
    /// input, then the summary, last: the verdict is the line a terminal
    /// shows when the command returns.
    Text,
}

/// The lines writer: a stream and the form of its lines.
pub struct Lines<'w> {
    out: &'w mut dyn Write,
    form: Form,
    /// Text: a code's repeated findings in a game on one line.
    collapse: bool,
    /// Text: the SHA-256 of every input before the summary (the reports
    /// record them in any case).
    verbose: bool,
    /// Text: only the games with findings.
    quiet: bool,
    /// Text: painted for a terminal that shows colours.
    paint: bool,
}

impl std::fmt::Debug for Lines<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lines({:?})", self.form)
    }
}

impl<'w> Lines<'w> {
    pub fn new(out: &'w mut dyn Write, form: Form) -> Self {
        Lines {
            out,
            form,
            collapse: false,
            verbose: false,
            quiet: false,
            paint: false,
        }
    }

    /// Text: severities and the verdict in colour, for a terminal
    /// ([`text::paint`]). The JSON is never painted.
    pub fn painted(mut self, paint: bool) -> Self {
        self.paint = paint;
        self
    }

    /// Text: each code's repeated findings in a game on one line, with
    /// their count and first and last ply (`audit --fit`, where a
    /// difference the fit did not describe repeats in every game).
    pub fn collapsing(mut self, collapse: bool) -> Self {
        self.collapse = collapse;
        self
    }

    /// Text: the SHA-256 of every input, before the summary.
    pub fn verbose(mut self, verbose: bool) -> Self {
        self.verbose = verbose;
        self
    }

    /// Text: only the games with findings (and the verdict).
    pub fn quiet(mut self, quiet: bool) -> Self {
        self.quiet = quiet;
        self
    }
}

impl Writer for Lines<'_> {
    fn game(&mut self, g: &GameAudit) -> std::io::Result<()> {
        match self.form {
            Form::Json => writeln!(self.out, "{}", json::game_line(g)),
            Form::Text if self.quiet && g.findings.is_empty() => Ok(()),
            Form::Text if self.paint => {
                writeln!(
                    self.out,
                    "{}",
                    text::paint(&text::game_with(g, self.collapse))
                )
            }
            Form::Text => writeln!(self.out, "{}", text::game_with(g, self.collapse)),
        }
    }

    fn finish(&mut self, run: &AuditRun, cfg: &Config) -> Result<(), crate::report::ReportError> {
        // what follows the games is not written where they could not be
        match self.form {
            Form::Json => {
                let summary =
                    json::summary_line(&run.totals, &run.inputs, &run.unreadable, cfg, &run.hashed);
                let _ = writeln!(self.out, "{summary}");
            }
            Form::Text if self.verbose => {
                let _ = writeln!(self.out, "inputs (SHA-256):");
                for i in &run.inputs {
                    let _ = writeln!(self.out, "  sha256 {}  {}", i.sha256, text::clean(&i.path));
                }
            }
            Form::Text => {}
        }
        Ok(())
    }

    fn verdict(&mut self, status: i32, run: &AuditRun, cfg: &Config) {
        if self.form != Form::Text {
            return;
        }
        // under a folder of rulesets, the one each file was judged under
        for i in &run.inputs {
            if let Some(c) = &i.ruleset {
                let _ = writeln!(
                    self.out,
                    "{}: judged under {} ({}): {}",
                    text::clean(&i.path),
                    text::clean(&c.id),
                    text::clean(&c.path),
                    text::clean(&c.why)
                );
            }
        }
        let similarity = cfg.detectors.similarity.is_some();
        let summary = text::summary(
            &run.totals,
            run.inputs.len(),
            cfg.ruleset.as_deref(),
            similarity,
        );
        let verdict = format!(
            "{summary}; {}",
            text::status_meaning(
                status,
                run.unreadable.len(),
                run.inputs.iter().all(|i| i.games == 0)
            )
        );
        let _ = match self.paint {
            true => writeln!(self.out, "{}", text::paint_verdict(&verdict, status)),
            false => writeln!(self.out, "{verdict}"),
        };
    }
}

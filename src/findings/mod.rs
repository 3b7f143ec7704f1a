//! Findings: plain, serialisable data.
//!
//! A finding is what arbiter tells a committee: what is wrong (or must be
//! reviewed), how grave it is, which rule and clause it enforces, what the
//! regulation says the sanction is, and where the evidence lies. This module
//! holds no logic beyond ordering; see `docs/findings-schema.md` for the JSON
//! schema.

use serde::{Deserialize, Serialize};

use crate::base::span::Span;

pub mod codes;
pub mod filter;

/// How grave a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// A violation: the record, or the conduct it records, breaks a rule.
    Error,
    /// Probably wrong, but an innocent explanation exists.
    Warning,
    /// A fact worth knowing; not a violation.
    Info,
    /// A clause no machine can judge: a human must look.
    ManualReview,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::ManualReview => "manual-review",
        }
    }

    /// Whether a finding of this severity makes the run exit with status 1.
    pub fn is_violation(self) -> bool {
        matches!(self, Severity::Error | Severity::Warning)
    }
}

/// One piece of evidence: a place in an input file, and when in the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    /// The input file, as given on the command line.
    pub path: String,
    /// Where in the file, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<Span>,
    /// The ply (1 = White's first move) the evidence is about, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
    /// A timestamp from the source, verbatim, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    /// What this piece of evidence shows.
    pub note: String,
}

impl Evidence {
    /// A place given by its line and column alone (a ruleset's clause, a
    /// line of an event file), `len` bytes long; about no ply.
    pub fn at_line(path: &str, line: u64, column: u64, len: u64, note: String) -> Evidence {
        Evidence {
            path: path.to_string(),
            span: Some(Span {
                offset: 0,
                len,
                line,
                column,
            }),
            ply: None,
            timestamp: None,
            note,
        }
    }
}

/// A finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// Stable machine-readable code, e.g. `illegal-move`.
    pub code: String,
    pub severity: Severity,
    /// One-line summary.
    pub title: String,
    /// The full explanation, with the values that made it fire.
    pub message: String,
    /// The rule id in the ruleset that made this a finding (empty for the
    /// built-in integrity checks that need no ruleset).
    pub rule: String,
    /// The clause of the regulation the rule enforces, with its words.
    pub clause: String,
    /// The sanction the regulation names (empty when it names none).
    pub sanction: String,
    /// Where the evidence is.
    pub evidence: Vec<Evidence>,
    /// How many more findings of this code the game had than it keeps
    /// ([`MAX_FINDINGS_PER_CODE`]): not held, each counted in the totals.
    /// Written only when there are some.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub more: u64,
}

/// A game keeps at most this many findings of one code of the record's
/// reading (its first ones); the rest are counted on the last one kept
/// ([`Finding::more`]) and in every total, so that a game of a million
/// stray tokens holds a hundred findings, not a million.
pub const MAX_FINDINGS_PER_CODE: usize = 100;

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Finding {
    /// A finding from one of arbiter's built-in record-integrity checks.
    /// A built-in finding of `code` (the registry's, [`codes`]), at its
    /// severity. A code whose severity is a rule's is set on that rule's
    /// finding instead; made here, it is an error.
    pub fn of(code: &codes::Code, title: &str, message: String) -> Finding {
        Finding::builtin(
            code.id,
            code.severity.unwrap_or(Severity::Error),
            title,
            message,
        )
    }

    /// A finding of `code` at `severity` (where another finding's
    /// severity is given, as a report's copy of one).
    pub fn builtin(code: &str, severity: Severity, title: &str, message: String) -> Finding {
        Finding {
            code: code.to_string(),
            severity,
            title: title.to_string(),
            message,
            rule: String::new(),
            clause: String::new(),
            sanction: String::new(),
            evidence: Vec::new(),
            more: 0,
        }
    }

    pub fn with_evidence(mut self, evidence: Evidence) -> Finding {
        self.evidence.push(evidence);
        self
    }

    /// The first ply any evidence refers to (for ordering).
    pub fn first_ply(&self) -> u32 {
        self.evidence
            .iter()
            .filter_map(|e| e.ply)
            .min()
            .unwrap_or(0)
    }

    /// The first byte offset any evidence refers to (for ordering).
    pub fn first_offset(&self) -> u64 {
        self.evidence
            .iter()
            .filter_map(|e| e.span.map(|s| s.offset))
            .min()
            .unwrap_or(0)
    }
}

/// Put findings in their canonical order: by place in the game, then code.
/// Output must not depend on the order in which checks happened to run.
pub fn sort_findings(findings: &mut [Finding]) {
    findings.sort_by(|a, b| {
        (a.first_ply(), a.first_offset(), &a.code, &a.message).cmp(&(
            b.first_ply(),
            b.first_offset(),
            &b.code,
            &b.message,
        ))
    });
}

/// The findings of a run counted: games, plies, and findings by severity
/// and by code, for the summary.
#[derive(Debug, Default)]
pub struct Totals {
    pub games: u64,
    pub plies: u64,
    pub incomplete_games: u64,
    pub by_severity: [u64; 4],
    pub by_code: std::collections::BTreeMap<String, u64>,
}

impl Totals {
    /// A game of `plies` replayed plies (`incomplete`: the replay stopped
    /// before the end of the record) and its findings.
    pub fn add_game(&mut self, plies: usize, incomplete: bool, findings: &[Finding]) {
        self.games += 1;
        self.plies += plies as u64;
        if incomplete {
            self.incomplete_games += 1;
        }
        self.add_findings(findings);
    }

    /// Findings not of one game (an event's).
    pub fn add_findings<'f>(&mut self, findings: impl IntoIterator<Item = &'f Finding>) {
        for f in findings {
            // the finding, and those of its code it stands for
            let n = 1 + f.more;
            self.by_severity[f.severity as usize] += n;
            *self.by_code.entry(f.code.clone()).or_default() += n;
        }
    }

    pub fn violations(&self) -> u64 {
        self.by_severity[Severity::Error as usize] + self.by_severity[Severity::Warning as usize]
    }
}

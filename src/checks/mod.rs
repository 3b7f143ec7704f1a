//! Built-in record-integrity checks.
//!
//! These need no ruleset: they say whether the record itself can be trusted
//! (it parses, its moves are legal, its result agrees with its final
//! position). Event rules live in rulesets (a later stage). Each check is one
//! file whose doc comment says what it does and why.

pub mod dates;
pub mod integrity;
pub mod result;

use crate::base::span::Span;
use crate::findings::{Evidence, Finding};
use crate::ingest::pgn::PgnGame;
use crate::replay::Replay;

/// What every check sees.
#[derive(Debug)]
pub struct Context<'a> {
    pub path: &'a str,
    pub game: &'a PgnGame,
    pub replay: &'a Replay,
}

impl Context<'_> {
    pub fn evidence(
        &self,
        span: Option<Span>,
        ply: Option<u32>,
        note: impl Into<String>,
    ) -> Evidence {
        Evidence {
            path: self.path.to_string(),
            span,
            ply,
            timestamp: None,
            note: note.into(),
        }
    }
}

/// Run every built-in check on one game.
pub fn run_all(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    integrity::check(ctx, &mut out);
    dates::check(ctx, &mut out);
    result::check(ctx, &mut out);
    crate::findings::sort_findings(&mut out);
    out
}

/// The documentation of a built-in check code: the `//!` comment of the
/// file that implements it, so the docs cannot drift from the code.
pub fn explain(code: &str) -> Option<String> {
    const FILES: &[(&str, &[&str])] = &[
        (include_str!("dates.rs"), &["date-invalid"]),
        (
            include_str!("integrity.rs"),
            &[
                "pgn-syntax",
                "unparsable-token",
                "unparsable-move",
                "illegal-move",
                "invalid-setup",
                "unsupported-variant",
                "annotation-malformed",
                "encoding",
                "duplicate-tag",
                "plycount-mismatch",
                "wrong-check-mark",
            ],
        ),
        (
            include_str!("result.rs"),
            &[
                "result-tag-missing",
                "result-invalid",
                "result-marker-mismatch",
                "result-marker-missing",
                "result-contradicts-position",
                "result-impossible-winner",
                "result-unrecorded",
                "termination-unsupported",
            ],
        ),
    ];
    let (src, _) = FILES.iter().find(|(_, codes)| codes.contains(&code))?;
    let doc: Vec<&str> = src
        .lines()
        .take_while(|l| l.starts_with("//!"))
        .map(|l| {
            l.trim_start_matches("//!")
                .strip_prefix(' ')
                .unwrap_or(l.trim_start_matches("//!"))
        })
        .collect();
    Some(format!("{code} (built-in check)\n\n{}", doc.join("\n")))
}

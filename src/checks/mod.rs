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
use crate::findings::codes;
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

/// The documentation of the check that makes the built-in code `code`:
/// the `//!` comment of the file that implements it, so the docs cannot
/// drift from the code (what the code means is the registry's,
/// [`crate::findings::codes`]).
pub fn check_doc(code: &str) -> Option<String> {
    const FILES: &[(&str, &[&str])] = &[
        (include_str!("dates.rs"), &[codes::DATE_INVALID.id]),
        (
            include_str!("integrity.rs"),
            &[
                codes::PGN_SYNTAX.id,
                codes::UNPARSABLE_TOKEN.id,
                codes::UNPARSABLE_MOVE.id,
                codes::ILLEGAL_MOVE.id,
                codes::INVALID_SETUP.id,
                codes::UNSUPPORTED_VARIANT.id,
                codes::ANNOTATION_MALFORMED.id,
                codes::ENCODING.id,
                codes::DUPLICATE_TAG.id,
                codes::PLYCOUNT_MISMATCH.id,
                codes::WRONG_CHECK_MARK.id,
                codes::CHESS960_INFERRED.id,
                codes::VARIANT_IS_OPENING.id,
            ],
        ),
        (
            include_str!("result.rs"),
            &[
                codes::RESULT_TAG_MISSING.id,
                codes::RESULT_INVALID.id,
                codes::RESULT_MARKER_MISMATCH.id,
                codes::RESULT_MARKER_MISSING.id,
                codes::RESULT_CONTRADICTS_POSITION.id,
                codes::RESULT_IMPOSSIBLE_WINNER.id,
                codes::RESULT_UNRECORDED.id,
                codes::TERMINATION_UNSUPPORTED.id,
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
    Some(doc.join("\n"))
}

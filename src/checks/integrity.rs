//! ## What it does
//! Reports every problem met while reading and replaying the record:
//! broken syntax, unparsable tokens, illegal or ambiguous moves, invalid
//! set-up positions, unsupported variants, malformed machine annotations,
//! text that is not UTF-8, duplicate tags, and a `PlyCount` tag that
//! disagrees with the moves.
//!
//! ## Why
//! A verdict is only as good as the record it rests on. A move that cannot
//! be replayed means every later fact (clocks, evaluations, adjudication
//! counters) is attached to an unknown position. arbiter never drops such
//! input silently: it says where the record broke and stops the replay
//! there.
//!
//! ## Example
//! `2. Zf3` (no such piece) gives `unparsable-move` at that token's line and
//! column; `1. e4 e5 2. Ke3` gives `illegal-move` at ply 3.

use super::Context;
use crate::findings::Finding;
use crate::findings::codes;
use crate::ingest::pgn::ProblemKind;

/// The finding code and title of a reading problem.
fn kind_finding(kind: ProblemKind) -> (codes::Code, &'static str) {
    match kind {
        ProblemKind::Syntax => (codes::PGN_SYNTAX, "Broken PGN syntax"),
        ProblemKind::UnparsableToken => {
            (codes::UNPARSABLE_TOKEN, "Unparsable token in the movetext")
        }
        ProblemKind::Encoding => (codes::ENCODING, "Text is not UTF-8"),
        ProblemKind::Annotation => (
            codes::ANNOTATION_MALFORMED,
            "Malformed value in a machine-written comment",
        ),
        ProblemKind::DuplicateTag => (codes::DUPLICATE_TAG, "Duplicate tag"),
    }
}

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let game = ctx.game;
    let from = out.len();
    for p in &game.problems {
        let (code, title) = kind_finding(p.kind);
        let ply = ctx
            .replay
            .first_ply
            .saturating_add(u32::try_from(p.before_move).unwrap_or(u32::MAX));
        out.push(
            Finding::of(&code, title, p.message.clone()).with_evidence(ctx.evidence(
                p.span,
                Some(ply),
                "here",
            )),
        );
    }
    // the problems a game held too many of to keep: counted on the last
    // finding of their code
    for kind in ProblemKind::ALL {
        let more = game.omitted(kind);
        let code = kind_finding(kind).0.id;
        if let Some(last) = out[from..].iter_mut().rev().find(|f| f.code == code) {
            last.more += more;
        }
    }
    for n in &ctx.replay.setup_notes {
        let (title, what) = if n.code == codes::CHESS960_INFERRED {
            ("Chess960 start without a Variant tag", "the FEN tag")
        } else {
            (
                "Variant tag read as the opening's variation",
                "the Variant tag",
            )
        };
        out.push(
            Finding::of(&n.code, title, n.message.clone()).with_evidence(ctx.evidence(
                n.span,
                Some(ctx.replay.first_ply),
                what,
            )),
        );
    }
    if let Some(stop) = &ctx.replay.stop {
        let titles = [
            (codes::ILLEGAL_MOVE, "Illegal or ambiguous move"),
            (codes::INVALID_SETUP, "Invalid set-up position"),
            (codes::UNSUPPORTED_VARIANT, "Unsupported variant"),
        ];
        let title = (titles.iter())
            .find(|(c, _)| *c == stop.code)
            .map_or("Replay stopped at an unparsable move", |(_, t)| *t);
        let played = ctx.replay.plies.len();
        let unplayed = game.moves.len().saturating_sub(played);
        out.push(
            Finding::of(
                &stop.code,
                title,
                format!(
                    "{}; {unplayed} of {} recorded moves were not replayed",
                    stop.message,
                    game.moves.len()
                ),
            )
            .with_evidence(ctx.evidence(
                stop.span,
                Some(stop.ply),
                "the move that could not be played",
            )),
        );
    }
    for p in &ctx.replay.plies {
        if p.suffix_wrong {
            let written = &game.written_of(p.move_index);
            out.push(
                Finding::of(
                    &codes::WRONG_CHECK_MARK,
                    "Check or mate mark does not match the position",
                    format!(
                        "ply {} is written {written:?} but the move is {}",
                        p.ply,
                        if p.checkmate {
                            "checkmate"
                        } else if p.check {
                            "check, not mate"
                        } else {
                            "not check"
                        }
                    ),
                )
                .with_evidence(ctx.evidence(
                    ctx.game.moves[p.move_index].span,
                    Some(p.ply),
                    "the move as written",
                )),
            );
        }
    }
    if let Some(tag) = game.tag_entry("PlyCount") {
        let recorded = game.moves.len();
        match tag.value.trim().parse::<usize>() {
            Ok(n) if n == recorded => {}
            Ok(n) => out.push(
                Finding::of(
                    &codes::PLYCOUNT_MISMATCH,
                    "PlyCount tag disagrees with the moves",
                    format!("PlyCount says {n} but the movetext has {recorded} moves"),
                )
                .with_evidence(ctx.evidence(
                    Some(tag.span),
                    None,
                    "the PlyCount tag",
                )),
            ),
            Err(_) => out.push(
                Finding::of(
                    &codes::PLYCOUNT_MISMATCH,
                    "PlyCount tag is not a number",
                    format!("PlyCount is {:?}; expected a whole number", tag.value),
                )
                .with_evidence(ctx.evidence(
                    Some(tag.span),
                    None,
                    "the PlyCount tag",
                )),
            ),
        }
    }
}

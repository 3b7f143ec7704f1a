//! ## What it does
//! Compares the recorded result with the game itself: the `Result` tag
//! against the movetext's termination marker, and both against the final
//! position (checkmate, stalemate, a dead position). It also checks the
//! mechanically verifiable termination claims of `TerminationDetails` /
//! `Termination` (`White mates`, `3-Fold repetition`, `Fifty moves rule`,
//! `Stalemate`, `Insufficient material`).
//!
//! ## Why
//! A result that contradicts the board is either a clerical error or a
//! wrong decision; both change standings. A checkmate recorded as a draw,
//! a win recorded in a position where neither side can mate, or a repetition
//! claimed where none occurred must be seen before standings are published.
//!
//! ## Example
//! `[Result "1/2-1/2"]` with a final position where Black is checkmated
//! gives `result-contradicts-position` (error).

use crate::findings::codes;
use shakmaty::{Chess, Color, Position};

use super::Context;
use crate::base::span::Span;
use crate::findings::Finding;

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn result_of_winner(c: Color) -> &'static str {
    match c {
        Color::White => "1-0",
        Color::Black => "0-1",
    }
}

pub fn check(ctx: &Context<'_>, out: &mut Vec<Finding>) {
    let game = ctx.game;
    let tag = game.tag_entry("Result");
    let tag_span = tag.map(|t| t.span);
    let result = tag.map(|t| t.value.trim().to_string());
    recorded(ctx, result.as_deref(), tag_span, out);

    // Position-based checks need the whole game replayed.
    if ctx.replay.stop.is_some() {
        return;
    }
    let Some(result) = result else { return };
    let end = End::of(ctx);
    against_position(ctx, &result, tag_span, &end, out);
    termination_claims(ctx, &result, &end, out);
}

/// The Result tag (`result`, at `tag_span`) as a PGN result, and against
/// the movetext's termination marker.
fn recorded(
    ctx: &Context<'_>,
    result: Option<&str>,
    tag_span: Option<Span>,
    out: &mut Vec<Finding>,
) {
    let game = ctx.game;
    match result {
        // the game was too large and its tag section was cut: the tag may
        // be in the part not read (the `pgn-syntax` finding says so)
        None if game.unread.tags_cut => {}
        None => out.push(
            Finding::of(
                &codes::RESULT_TAG_MISSING,
                "No Result tag",
                "the game has no Result tag; its outcome is not on record".to_string(),
            )
            .with_evidence(ctx.evidence(
                None,
                None,
                format!("game starting at line {}", game.line),
            )),
        ),
        Some("1-0" | "0-1" | "1/2-1/2" | "*") => {}
        Some(other) => out.push(
            Finding::of(
                &codes::RESULT_INVALID,
                "Result tag is not a PGN result",
                format!("Result is {other:?}; expected 1-0, 0-1, 1/2-1/2 or *"),
            )
            .with_evidence(ctx.evidence(tag_span, None, "the Result tag")),
        ),
    }
    let marker = game.outcome.as_ref();
    match (result, marker) {
        (Some(r), Some((m, span))) if r != m => out.push(
            Finding::of(
                &codes::RESULT_MARKER_MISMATCH,
                "Result tag and movetext disagree",
                format!("the Result tag says {r} but the movetext ends with {m}"),
            )
            .with_evidence(ctx.evidence(tag_span, None, "the Result tag"))
            .with_evidence(ctx.evidence(*span, None, "the termination marker")),
        ),
        (Some(_), None) if !game.moves.is_empty() || !game.preamble.is_empty() => out.push(
            Finding::of(
                &codes::RESULT_MARKER_MISSING,
                "Movetext has no termination marker",
                "the movetext does not end with 1-0, 0-1, 1/2-1/2 or *; the record may be truncated"
                    .to_string(),
            )
            .with_evidence(ctx.evidence(
                game.moves.last().and_then(|m| m.span),
                Some(ctx.replay.first_ply + game.moves.len().saturating_sub(1) as u32),
                "the last move read",
            )),
        ),
        _ => {}
    }
}

/// The final position of a game replayed to its end, and its last move.
struct End<'a> {
    pos: &'a Chess,
    last_ply: Option<u32>,
    last_span: Option<Span>,
    checkmate: bool,
    stalemate: bool,
    dead: bool,
}

impl<'a> End<'a> {
    fn of(ctx: &'a Context<'_>) -> End<'a> {
        let pos = ctx.replay.final_position();
        let last = ctx.replay.plies.last();
        let last_ply = last.map(|p| p.ply);
        let last_span = last.and_then(|p| ctx.game.moves[p.move_index].span);
        let checkmate = pos.is_checkmate();
        let stalemate = pos.is_stalemate();
        let dead = pos.is_insufficient_material();
        End {
            pos,
            last_ply,
            last_span,
            checkmate,
            stalemate,
            dead,
        }
    }
}

/// The recorded `result` against the final position: a mate, a stalemate
/// or a dead position it contradicts, a winner that cannot mate, a
/// finished game recorded as unfinished.
fn against_position(
    ctx: &Context<'_>,
    result: &str,
    tag_span: Option<Span>,
    end: &End,
    out: &mut Vec<Finding>,
) {
    let (pos, last_ply, last_span) = (end.pos, end.last_ply, end.last_span);
    let (checkmate, stalemate, dead) = (end.checkmate, end.stalemate, end.dead);
    let contradicts = |what: String| {
        Finding::of(
            &codes::RESULT_CONTRADICTS_POSITION,
            "Recorded result contradicts the final position",
            what,
        )
        .with_evidence(ctx.evidence(tag_span, None, "the Result tag"))
        .with_evidence(ctx.evidence(last_span, last_ply, "the final move"))
    };
    if checkmate {
        let winner = !pos.turn();
        if result != result_of_winner(winner) && result != "*" {
            out.push(contradicts(format!(
                "{} is checkmated, so the result is {}, but {result} was recorded",
                side_name(pos.turn()),
                result_of_winner(winner)
            )));
        }
    } else if stalemate {
        if result != "1/2-1/2" && result != "*" {
            out.push(contradicts(format!(
                "{} is stalemated, so the game is drawn, but {result} was recorded",
                side_name(pos.turn())
            )));
        }
    } else if dead && (result == "1-0" || result == "0-1") {
        out.push(contradicts(format!(
            "neither side has material to checkmate (a dead position ends the game as a draw), but {result} was recorded"
        )));
    } else if result == "1-0" || result == "0-1" {
        let winner = if result == "1-0" {
            Color::White
        } else {
            Color::Black
        };
        if pos.has_insufficient_material(winner) {
            out.push(
                Finding::of(
                    &codes::RESULT_IMPOSSIBLE_WINNER,
                    "The recorded winner cannot checkmate",
                    format!(
                        "{result} was recorded but {} has no material to checkmate by any sequence of legal moves; a win is valid only by resignation or forfeit, never on time or by adjudication",
                        side_name(winner)
                    ),
                )
                .with_evidence(ctx.evidence(tag_span, None, "the Result tag"))
                .with_evidence(ctx.evidence(last_span, last_ply, "the final move")),
            );
        }
    }
    if result == "*" && (checkmate || stalemate || dead) {
        out.push(
            Finding::of(
                &codes::RESULT_UNRECORDED,
                "Finished game recorded as unfinished",
                format!(
                    "the final position is {} but the result is *",
                    if checkmate {
                        "checkmate"
                    } else if stalemate {
                        "stalemate"
                    } else {
                        "dead (insufficient material)"
                    }
                ),
            )
            .with_evidence(ctx.evidence(tag_span, None, "the Result tag")),
        );
    }
}

/// Termination claims that the board alone can confirm.
fn termination_claims(ctx: &Context<'_>, result: &str, end: &End, out: &mut Vec<Finding>) {
    let game = ctx.game;
    let (pos, last_ply, last_span) = (end.pos, end.last_ply, end.last_span);
    let (checkmate, stalemate, dead) = (end.checkmate, end.stalemate, end.dead);
    for tag_name in ["TerminationDetails", "Termination"] {
        let Some(t) = game.tag_entry(tag_name) else {
            continue;
        };
        let claim = t.value.trim().to_ascii_lowercase();
        let fails: Option<String> = match claim.as_str() {
            "white mates" | "black mates" => {
                let winner = if claim.starts_with("white") {
                    Color::White
                } else {
                    Color::Black
                };
                if !(checkmate && !pos.turn() == winner) {
                    Some(format!(
                        "{} does not checkmate in the final position",
                        side_name(winner)
                    ))
                } else if result != result_of_winner(winner) {
                    Some(format!(
                        "the claim implies {} but {result} was recorded",
                        result_of_winner(winner)
                    ))
                } else {
                    None
                }
            }
            "3-fold repetition" | "threefold repetition" | "3-fold repetition rule" => {
                let rep = ctx.replay.final_repetition();
                if rep < 3 {
                    Some(format!(
                        "the final position has occurred {rep} time(s), not 3"
                    ))
                } else if result != "1/2-1/2" {
                    Some(format!(
                        "a repetition draw was claimed but {result} was recorded"
                    ))
                } else {
                    None
                }
            }
            "fifty moves rule" | "50-move rule" | "fifty-move rule" => {
                let hm = pos.halfmoves();
                if hm < 100 {
                    Some(format!(
                        "only {hm} plies without capture or pawn move at the end, not 100"
                    ))
                } else if result != "1/2-1/2" {
                    Some(format!(
                        "a fifty-move draw was claimed but {result} was recorded"
                    ))
                } else {
                    None
                }
            }
            "stalemate" => (!stalemate).then(|| "the final position is not stalemate".to_string()),
            "insufficient material" => {
                (!dead).then(|| "the final position has mating material".to_string())
            }
            _ => None,
        };
        if let Some(why) = fails {
            out.push(
                Finding::of(
                    &codes::TERMINATION_UNSUPPORTED,
                    "Termination claim not supported by the game",
                    format!("{tag_name} is {:?}, but {why}", t.value),
                )
                .with_evidence(ctx.evidence(Some(t.span), None, format!("the {tag_name} tag")))
                .with_evidence(ctx.evidence(last_span, last_ply, "the final move")),
            );
        }
    }
}

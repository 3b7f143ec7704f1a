//! The passive test: what engines chose in the same positions of an
//! event's own games, from the moves they played and the moves their PVs
//! said they would play, weighted by how open each position was.

use shakmaty::{EnPassantMode, Position, fen::Epd, san::San};

use crate::ingest::comments::{MoveComments, Score};

/// How far into a PV its engine's own later moves are read.
pub const PV_PLIES: usize = 7;

/// One engine's choice in one position.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub engine: String,
    /// The position (EPD: placement, side, castling, en passant).
    pub key: String,
    pub uci: String,
    /// Played (true) or read from a PV (false).
    pub played: bool,
    /// ln(legal moves) / ln(30), at most 1: 0 when the move was forced.
    pub weight: f64,
    /// A played move's evaluation (a book-aware form's score), in
    /// centipawns from the side to move, clipped as the signatures clip.
    pub score: Option<f64>,
    /// A played move's PV (UCI), its first plies.
    pub pv: Vec<String>,
}

fn weight(pos: &shakmaty::Chess) -> f64 {
    let n = pos.legal_moves().len() as f64;
    if n <= 1.0 {
        0.0
    } else {
        (n.ln() / 30f64.ln()).min(1.0)
    }
}

/// The choices of one game's engines, out of the official opening.
pub fn choices(game: &crate::ingest::pgn::PgnGame, replay: &crate::replay::Replay) -> Vec<Choice> {
    let mut out = Vec::new();
    let name = |white: bool| {
        game.tag(if white { "White" } else { "Black" })
            .unwrap_or("?")
            .to_string()
    };
    for (i, p) in replay.plies.iter().enumerate() {
        let mv = &game.moves[p.move_index];
        // an engine's move, as a form that marks book moves says
        let comments = MoveComments::of(game.comments_of(mv));
        if comments.book() || !comments.has_book_aware_comment() {
            continue;
        }
        let before = &replay.position_before(i);
        let engine = name(p.side.is_white());
        let key = |pos: &shakmaty::Chess| Epd::from_position(pos, EnPassantMode::Legal).to_string();
        // clipped in the view it is written from, then turned to the mover's
        let clipped = |s: Score| match s {
            Score::Cp(cp) => super::signature::clip(Some(i64::from(cp)), None),
            Score::Mate(m) => super::signature::clip(None, Some(i64::from(m))),
        };
        let score = match (
            comments.book_aware_score_from_white(),
            comments.book_aware_score_from_mover(),
        ) {
            (Some(wv), _) => clipped(wv).map(|v| if p.side.is_white() { v } else { -v }),
            (None, Some(s)) => clipped(s),
            (None, None) => None,
        };
        let at = out.len();
        out.push(Choice {
            engine: engine.clone(),
            key: key(before),
            uci: p.uci.to_string(),
            played: true,
            weight: weight(before),
            score,
            pv: Vec::new(),
        });
        // the engine's own later moves in its PV
        let Some(pv) = comments.pv() else {
            continue;
        };
        let mut pos = before.clone();
        let mut line = Vec::new();
        for (k, san) in pv.split_whitespace().take(PV_PLIES).enumerate() {
            let Ok(san) = san.trim_end_matches(['+', '#']).parse::<San>() else {
                break;
            };
            let Ok(m) = san.to_move(&pos) else { break };
            let uci = m.to_uci(shakmaty::CastlingMode::Standard).to_string();
            if k > 0 && k % 2 == 0 {
                out.push(Choice {
                    engine: engine.clone(),
                    key: key(&pos),
                    uci: uci.clone(),
                    played: false,
                    weight: weight(&pos),
                    score: None,
                    pv: Vec::new(),
                });
            }
            if line.len() < super::signature::PV_PLIES {
                line.push(uci);
            }
            pos.play_unchecked(m);
        }
        out[at].pv = line;
    }
    out
}

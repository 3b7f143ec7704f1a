//! The replay itself: each recorded move resolved, played and its facts
//! recorded, the position's hash kept up to date for the repetitions.

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Position, Role};

use super::illegal::illegal_move;
use super::record::{Ply, Replay, Stop};
use super::san::{canonical_san, resolve};
use super::setup::{SetUp, set_up};
use crate::ingest::pgn::{PgnGame, ProblemKind};

fn ply_of(pos: &Chess) -> u32 {
    let full = pos.fullmoves().get();
    (full - 1) * 2 + if pos.turn() == Color::White { 1 } else { 2 }
}

/// Replay a game. Never panics: every failure becomes a [`Stop`].
pub fn replay(game: &PgnGame) -> Replay {
    let SetUp {
        start,
        mode,
        setup_notes,
        stop,
    } = set_up(game);
    let first_ply = ply_of(&start);
    let mut out = Replay {
        start: start.clone(),
        castling_mode: mode,
        first_ply,
        plies: Vec::with_capacity(game.moves.len()),
        stop: None,
        setup_notes,
    };
    if stop.is_some() {
        out.stop = stop;
        return out;
    }
    // The first unparsable token cuts the game: moves after it cannot be
    // trusted to belong to the sides they appear to.
    let cut = game
        .problems
        .iter()
        .filter(|p| matches!(p.kind, ProblemKind::UnparsableToken | ProblemKind::Syntax))
        .min_by_key(|p| p.before_move);
    let cut_stop = |p: &crate::ingest::pgn::PgnProblem| Stop {
        code: "unparsable-move",
        message: format!(
            "replay stopped before ply {}: {}",
            first_ply + p.before_move as u32,
            p.message
        ),
        ply: first_ply + p.before_move as u32,
        span: p.span,
    };
    let mut pos = start;
    let mut current = hash(&pos);
    // room for every position of the game at once: the history never holds
    // more (it is cleared at each irreversible move)
    let mut history: Vec<u64> = Vec::with_capacity(game.moves.len() + 1);
    history.push(current);
    // The SAN of the last ply played, without its suffix: whether it is
    // mate (and whether a position is stalemate) needs to know whether the
    // side to move has a legal move. When the next recorded move is legal,
    // it has one, and no move generation is needed; only the last position
    // (and one before a move that is not legal) is asked.
    let mut last_san: Option<San> = None;
    // whether the side to move is in check (the ply before says it)
    let mut in_check = pos.is_check();
    for (i, mv) in game.moves.iter().enumerate() {
        let ply = first_ply + i as u32;
        if let Some(p) = cut.filter(|p| p.before_move == i) {
            settle(&mut out, game, last_san.take(), false);
            out.stop = Some(cut_stop(p));
            return out;
        }
        let m = match resolve(&pos, in_check, &mv.san.san)
            .map_or_else(|| mv.san.san.to_move(&pos), Ok)
        {
            Ok(m) => m,
            Err(e) => {
                settle(&mut out, game, last_san.take(), false);
                out.stop = Some(illegal_move(&pos, mv, ply, e));
                return out;
            }
        };
        // m is legal here: the position before it has a legal move
        settle(&mut out, game, last_san.take(), true);
        let before_rights = pos.castles().castling_rights();
        let pieces_before = pos.board().occupied().count();
        let side = pos.turn();
        let move_number = pos.fullmoves().get();
        let pawn_move = m.role() == Role::Pawn;
        let capture = m.is_capture();
        let promotion = m.is_promotion();
        let castling = m.is_castle();
        let rook_castling_lost =
            m.role() == Role::Rook && m.from().is_some_and(|sq| before_rights.contains(sq));
        let san = canonical_san(&mv.san.san, &pos, m);
        // the hash after the move from the one before it where shakmaty
        // can (most moves) or a king's step can, else computed whole
        let next = pos
            .update_zobrist_hash(Zobrist64(current), m, EnPassantMode::Legal)
            .or_else(|| king_step_hash(&pos, Zobrist64(current), m));
        pos.play_unchecked(m);
        debug_assert!(pieces_before >= pos.board().occupied().count());
        let h = next.map_or_else(|| hash(&pos), |z| z.0);
        debug_assert_eq!(h, hash(&pos), "the hash kept up to date at ply {ply}");
        current = h;
        if pos.halfmoves() == 0 {
            history.clear();
        }
        history.push(h);
        let repetition = history.iter().filter(|&&x| x == h).count() as u32;
        in_check = pos.is_check();
        out.plies.push(Ply {
            ply,
            move_number,
            side,
            // its suffix is known once the next move is (settle)
            san: SanPlus { san, suffix: None },
            uci: m.to_uci(mode),
            move_index: i,
            halfmove_clock: pos.halfmoves(),
            repetition,
            capture,
            pawn_move,
            castling_rights_changed: pos.castles().castling_rights() != before_rights,
            promotion,
            castling,
            rook_castling_lost,
            pieces: pos.board().occupied().count() as u32,
            check: in_check,
            checkmate: false,
            suffix_wrong: false,
            stalemate: false,
            insufficient_material: pos.is_insufficient_material(),
            span: mv.span,
            position: pos.clone(),
        });
        last_san = Some(san);
    }
    settle(&mut out, game, last_san.take(), false);
    if let Some(p) = cut {
        // the problem lies after the last move
        out.stop = Some(cut_stop(p));
    }
    out
}

/// Complete the last ply played (its SAN `san`, without suffix): mate,
/// stalemate, the SAN with the suffix shakmaty writes (mate: in check with
/// no legal move), and whether the recorded suffix says otherwise.
/// `a_move_followed` when a legal move was played from the position after
/// it (then it has one); otherwise its legal moves are generated.
fn settle(out: &mut Replay, game: &PgnGame, san: Option<San>, a_move_followed: bool) {
    let (Some(san), Some(p)) = (san, out.plies.last_mut()) else {
        return;
    };
    let legal_empty = !a_move_followed && p.position.legal_moves().is_empty();
    let check = p.check;
    p.checkmate = check && legal_empty;
    p.stalemate = !check && legal_empty;
    let suffix = if p.checkmate {
        Some(Suffix::Checkmate)
    } else if check {
        Some(Suffix::Check)
    } else {
        None
    };
    p.san = SanPlus { san, suffix };
    p.suffix_wrong = match game.moves[p.move_index].san.suffix {
        Some(Suffix::Checkmate) => !p.checkmate,
        Some(Suffix::Check) => !check,
        None => false,
    };
}

/// The hash after king's move `m` from the hash `current` of `pos`, where
/// the step changes nothing but the king's square, the turn and what it
/// takes: the side has no castling right to lose, the square it takes
/// carries none of the other side's, and `pos` has no en passant square
/// (a hash may count it). `Position::update_zobrist_hash` leaves every
/// king's move to the whole hash; in endgames that is most moves. `None`
/// otherwise. The replay's debug assertion holds it to the whole hash at
/// every ply of every test.
pub(super) fn king_step_hash(
    pos: &Chess,
    current: Zobrist64,
    m: shakmaty::Move,
) -> Option<Zobrist64> {
    use shakmaty::zobrist::ZobristValue;
    let shakmaty::Move::Normal {
        role: Role::King,
        from,
        capture,
        to,
        promotion: None,
    } = m
    else {
        return None;
    };
    let us = pos.turn();
    let castles = pos.castles();
    if pos.maybe_ep_square().is_some()
        || castles.has(us, shakmaty::CastlingSide::KingSide)
        || castles.has(us, shakmaty::CastlingSide::QueenSide)
        || castles.castling_rights().contains(to)
    {
        return None;
    }
    let mut h = current;
    h ^= Zobrist64::zobrist_for_white_turn();
    h ^= Zobrist64::zobrist_for_piece(from, Role::King.of(us));
    h ^= Zobrist64::zobrist_for_piece(to, Role::King.of(us));
    if let Some(taken) = capture {
        h ^= Zobrist64::zobrist_for_piece(to, taken.of(!us));
    }
    Some(h)
}

pub(super) fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

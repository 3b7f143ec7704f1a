//! The replay itself: each recorded move resolved, played and its facts
//! recorded, the position's hash kept up to date for the repetitions.

use crate::findings::codes;
use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Position, Role};

use super::illegal::illegal_move;
use super::record::{Ply, Replay, Stop};
use super::san::{canonical_san, resolve};
use super::setup::{SetUp, set_up};
use crate::ingest::pgn::{PgnGame, ProblemKind};

/// The ply of the move to be played from `pos` (1 = White's first move):
/// a `FEN` tag's move number may be up to 2^32 - 1, so its ply up to
/// 2^33 - 2.
fn ply_of(pos: &Chess) -> u64 {
    let full = u64::from(pos.fullmoves().get());
    (full - 1) * 2 + if pos.turn() == Color::White { 1 } else { 2 }
}

/// The ply of the first move of `game` from `start`, or why it does not
/// fit: ply numbers are 32-bit, so a `FEN` tag's move number above 2^31
/// would make them wrap (ply 4294967295, then ply 0). The ply after the
/// last move must fit too (a finding may be about it).
fn first_ply_of(game: &PgnGame, start: &Chess) -> Result<u32, Stop> {
    let first = ply_of(start);
    let after = first + game.moves.len() as u64;
    match (u32::try_from(first), u32::try_from(after)) {
        (Ok(first), Ok(_)) => Ok(first),
        _ => Err(Stop {
            code: codes::INVALID_SETUP,
            message: format!(
                "the FEN tag gives move number {}, {} to move: its {} moves would be plies {first} to {}, past the {} plies arbiter numbers; the game is not replayed",
                start.fullmoves(),
                if start.turn() == Color::White {
                    "White"
                } else {
                    "Black"
                },
                game.moves.len(),
                after.saturating_sub(1).max(first),
                u32::MAX,
            ),
            ply: 1,
            span: game.tag_entry("FEN").map(|t| t.span),
        }),
    }
}

/// Replay a game. Never panics: every failure becomes a [`Stop`].
pub fn replay(game: &PgnGame) -> Replay {
    let SetUp {
        start,
        mode,
        setup_notes,
        stop,
    } = set_up(game);
    let (first_ply, stop) = match first_ply_of(game, &start) {
        Ok(first) => (first, stop),
        Err(too_far) => (1, stop.or(Some(too_far))),
    };
    let mut out = Replay {
        start: start.clone(),
        castling_mode: mode,
        first_ply,
        plies: Vec::with_capacity(game.moves.len()),
        checkpoints: Vec::with_capacity(game.moves.len() / super::record::CHECKPOINT + 1),
        end: start.clone(),
        stop: None,
        setup_notes,
    };
    if stop.is_some() {
        out.checkpoints.push(start);
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
        code: codes::UNPARSABLE_MOVE,
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
    let mut seen = Repetitions::new(game.moves.len() + 1);
    seen.count(current);
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
        if i % super::record::CHECKPOINT == 0 {
            out.checkpoints.push(pos.clone());
        }
        if let Some(p) = cut.filter(|p| p.before_move == i) {
            settle(&mut out, game, last_san.take(), false, &pos);
            out.stop = Some(cut_stop(p));
            out.end = pos;
            return out;
        }
        let m = match resolve(&pos, in_check, &mv.san.san)
            .map_or_else(|| mv.san.san.to_move(&pos), Ok)
        {
            Ok(m) => m,
            Err(e) => {
                settle(&mut out, game, last_san.take(), false, &pos);
                out.stop = Some(illegal_move(&pos, (mv, &game.written_of(i)), ply, e));
                out.end = pos;
                return out;
            }
        };
        // m is legal here: the position before it has a legal move
        settle(&mut out, game, last_san.take(), true, &pos);
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
            seen.clear();
        }
        let repetition = seen.count(h);
        in_check = pos.is_check();
        out.plies.push(Ply {
            ply,
            move_number,
            side,
            // its suffix is known once the next move is (settle)
            san: SanPlus { san, suffix: None },
            uci: m.to_uci(mode),
            mv: m,
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
            pawns: pos.board().pawns().count() as u8,
            minors_and_majors: (pos.board().occupied() ^ pos.board().pawns() ^ pos.board().kings())
                .count() as u8,
            check: in_check,
            checkmate: false,
            suffix_wrong: false,
            stalemate: false,
            insufficient_material: pos.is_insufficient_material(),
        });
        last_san = Some(san);
    }
    settle(&mut out, game, last_san.take(), false, &pos);
    if out.checkpoints.is_empty() {
        // a game of no moves
        out.checkpoints.push(pos.clone());
    }
    if let Some(p) = cut {
        // the problem lies after the last move
        out.stop = Some(cut_stop(p));
    }
    out.end = pos;
    out
}

/// Complete the last ply played (its SAN `san`, without suffix): mate,
/// stalemate, the SAN with the suffix shakmaty writes (mate: in check with
/// no legal move), and whether the recorded suffix says otherwise.
/// `a_move_followed` when a legal move was played from the position after
/// it (then it has one); otherwise its legal moves are generated. `after`
/// is the position after the ply.
fn settle(
    out: &mut Replay,
    game: &PgnGame,
    san: Option<San>,
    a_move_followed: bool,
    after: &Chess,
) {
    let (Some(san), Some(p)) = (san, out.plies.last_mut()) else {
        return;
    };
    let legal_empty = !a_move_followed && after.legal_moves().is_empty();
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

/// How many times each position since the last capture or pawn move (the
/// moves that reset the halfmove clock: no position before one can occur
/// again after it) has occurred, by its Zobrist hash: each ply counted in
/// constant time, where a scan of the positions since then made a long
/// game's replay take time quadratic in its length (a million plies of
/// knights' shuffles, 200 s).
///
/// An open-addressed table of the window's positions: a slot holds a hash,
/// its count and the window it was counted in, so that a new window
/// (`clear`) leaves the slots as they are and makes every one free at once.
/// It has room for twice the positions of the window (growing by doubling),
/// so that a probe ends soon.
struct Repetitions {
    slots: Vec<Slot>,
    /// The window being counted; a slot of another window is free.
    window: u32,
    /// The positions of this window.
    len: usize,
}

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    hash: u64,
    count: u32,
    window: u32,
}

impl Repetitions {
    /// A table for a game of `positions` positions: room for the window of
    /// most games at once (a capture or a pawn move comes every few dozen
    /// plies), not for the whole game.
    fn new(positions: usize) -> Repetitions {
        Repetitions {
            slots: vec![Slot::default(); (positions * 2).next_power_of_two().clamp(16, 256)],
            window: 1,
            len: 0,
        }
    }

    /// A new window: no position counted.
    fn clear(&mut self) {
        self.len = 0;
        self.window = self.window.wrapping_add(1);
        if self.window == 0 {
            // after 2^32 windows (never in a game of 8 MiB), the slots of
            // the first would look counted again
            self.slots.fill(Slot::default());
            self.window = 1;
        }
    }

    /// Count one more occurrence of `hash`: how many times it has
    /// occurred in the window, this one included.
    fn count(&mut self, hash: u64) -> u32 {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let slot = self.find(hash);
        let s = &mut self.slots[slot];
        if s.window == self.window {
            s.count += 1;
        } else {
            *s = Slot {
                hash,
                count: 1,
                window: self.window,
            };
            self.len += 1;
        }
        s.count
    }

    /// The slot of `hash` in this window, or the free slot it goes to.
    fn find(&self, hash: u64) -> usize {
        let mask = self.slots.len() - 1;
        // a Zobrist hash is uniform: its low bits are the place
        let mut i = hash as usize & mask;
        loop {
            let s = &self.slots[i];
            if s.window != self.window || s.hash == hash {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// Twice the room, with this window's positions and counts moved over.
    fn grow(&mut self) {
        let room = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); room]);
        let window = self.window;
        self.window = 1;
        for s in old.into_iter().filter(|s| s.window == window) {
            let i = self.find(s.hash);
            self.slots[i] = Slot { window: 1, ..s };
        }
    }
}

pub(super) fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

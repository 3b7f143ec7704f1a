//! A recorded SAN resolved to its legal move, and a legal move written as
//! the SAN shakmaty writes, both without the lists of candidates that
//! shakmaty builds: nearly every move takes the short way.

use shakmaty::san::San;
use shakmaty::{Chess, Color, Position, Role};

use super::fen_of;

/// The SAN of legal move `m`, which `written` named in `pos`, as shakmaty
/// writes it (`San::from_move`), without the look at the other pieces that
/// `from_move` takes where the answer is known: a pawn's move names its
/// file of departure for a capture and nothing else; a castle is its side;
/// a piece's move that the writer named without a file or rank of
/// departure, and that was not ambiguous (`to_move` found one piece of its
/// role reaching the square), needs none. That is nearly every move. Any
/// other (a piece's move written with its departure, where it may or may
/// not be needed, en passant) is given to `from_move`. A debug assertion
/// holds the two equal at every ply of every test.
#[inline]
pub(super) fn canonical_san(written: &San, pos: &Chess, m: shakmaty::Move) -> San {
    let named_no_departure = matches!(
        written,
        San::Normal {
            file: None,
            rank: None,
            ..
        }
    );
    let san = match m {
        shakmaty::Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } if role == Role::Pawn || named_no_departure => San::Normal {
            role,
            file: (role == Role::Pawn && capture.is_some()).then(|| from.file()),
            rank: None,
            capture: capture.is_some(),
            to,
            promotion,
        },
        _ => match m.castling_side() {
            Some(side) => San::Castle(side),
            None => San::from_move(pos, m),
        },
    };
    debug_assert_eq!(
        san,
        San::from_move(pos, m),
        "the SAN of {m:?} in {}",
        fen_of(pos)
    );
    san
}

/// The one legal move that `san` names in `pos`, found from the pieces
/// that can reach its square, without the list of every candidate that
/// `San::to_move` builds (and copies) for each move. A piece's move, a
/// pawn's push, capture, promotion and en passant are all read here; the
/// move is legal when no piece of the other side attacks our king after it
/// (for a king's move: the square it goes to, the king lifted off its
/// own), which is the rule itself. `None` for anything else (castling, a
/// drop, a null move) and whenever the SAN does not name exactly one legal
/// move: `to_move` then gives its own answer or its own error, so the
/// result is always `to_move`'s. A debug assertion holds the two equal at
/// every ply of every test, and a unit test at every legal move, and at
/// altered SANs, of generated games.
#[inline]
pub(super) fn resolve(pos: &Chess, in_check: bool, san: &San) -> Option<shakmaty::Move> {
    use shakmaty::{Move, Rank, Square, attacks};
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = *san
    else {
        return None;
    };
    let board = pos.board();
    let us = pos.turn();
    let ours = board.by_color(us);
    if ours.contains(to) {
        return None;
    }
    let occupied = board.occupied();
    let taken = board.role_at(to);
    let king = board.king_of(us)?;
    // the pieces of ours of this role that could go to `to`, and whether
    // the move is en passant
    let mut en_passant = false;
    let from_set = match role {
        Role::Pawn => {
            let last = to.rank() == us.fold_wb(Rank::Eighth, Rank::First);
            if promotion.is_some() != last
                || promotion.is_some_and(|p| matches!(p, Role::Pawn | Role::King))
            {
                return None;
            }
            let pawns = board.pawns() & ours;
            if capture {
                if taken.is_none() {
                    if pos.maybe_ep_square() != Some(to) || promotion.is_some() {
                        return None;
                    }
                    en_passant = true;
                }
                attacks::pawn_attacks(!us, to) & pawns
            } else {
                if taken.is_some() {
                    return None;
                }
                let back = us.fold_wb(-8, 8);
                let one = to.offset(back)?;
                if pawns.contains(one) {
                    shakmaty::Bitboard::from_square(one)
                } else if to.rank() == us.fold_wb(Rank::Fourth, Rank::Fifth)
                    && !occupied.contains(one)
                {
                    let two = one.offset(back)?;
                    shakmaty::Bitboard::from_square(two) & pawns
                } else {
                    return None;
                }
            }
        }
        _ => {
            if promotion.is_some() || capture != taken.is_some() {
                return None;
            }
            let mine = board.by_role(role) & ours;
            match role {
                Role::Knight => attacks::knight_attacks(to) & mine,
                Role::King => attacks::king_attacks(to) & mine,
                // A slider: each of ours on a line of its kind with `to`
                // and nothing between. Not the slider's attacks from `to`:
                // their table is 700 KB, and its loads, missing the caches,
                // were most of the replay's own time.
                _ => {
                    let mut set = shakmaty::Bitboard::EMPTY;
                    for from in mine {
                        if slides(role, from, to)
                            && (attacks::between(from, to) & occupied).is_empty()
                        {
                            set.add(from);
                        }
                    }
                    set
                }
            }
        }
    };
    // not in check, a piece other than the king can expose it only along
    // the line through both (`exposes`): only the king's own move, en
    // passant (which takes a second piece away) and a move out of check
    // need the whole look at what attacks the king
    let plain = !in_check && role != Role::King && !en_passant;
    let mut found = None;
    for from in from_set {
        if file.is_some_and(|f| f != from.file()) || rank.is_some_and(|r| r != from.rank()) {
            continue;
        }
        if plain {
            if exposes(board, us, king, from, to) {
                continue;
            }
        } else {
            // the squares after the move: `from` left, `to` taken (and the
            // pawn taken en passant gone); whether a piece of theirs that
            // still stands attacks our king (the king: the square it goes to)
            let (gone, target) = if en_passant {
                (Square::from_coords(to.file(), from.rank()), king)
            } else if role == Role::King {
                (to, to)
            } else {
                (to, king)
            };
            let after = occupied.without(from).without(gone).with(to);
            if board.attacks_to(target, !us, after).without(gone).any() {
                continue;
            }
        }
        if found.is_some() {
            return None;
        }
        found = Some(if en_passant {
            Move::EnPassant { from, to }
        } else {
            Move::Normal {
                role,
                from,
                capture: taken,
                to,
                promotion,
            }
        });
    }
    debug_assert!(
        found.is_none() || found == san.to_move(pos).ok(),
        "{san} resolved as {found:?} in {}",
        fen_of(pos)
    );
    found
}

/// Whether a `role` (a bishop, rook or queen) on `from` moves along the line
/// through `to`: a diagonal, or a rank or file. The squares differ.
fn slides(role: Role, from: shakmaty::Square, to: shakmaty::Square) -> bool {
    let files = (from.file() as i32 - to.file() as i32).abs();
    let ranks = (from.rank() as i32 - to.rank() as i32).abs();
    let straight = files == 0 || ranks == 0;
    match role {
        Role::Bishop => files == ranks,
        Role::Rook => straight,
        _ => straight || files == ranks,
    }
}

/// Whether the move of a piece other than the king from `from` to `to`
/// (not en passant) leaves our king on `king`, not in check before it,
/// attacked. Only `from` is left empty, so the king can be exposed only
/// along the line through `king` and `from`, by a slider of theirs of that
/// line's kind with nothing between it and the king once the move is made
/// (a piece on `to` is taken, and a move along the line still blocks it).
fn exposes(
    board: &shakmaty::Board,
    us: Color,
    king: shakmaty::Square,
    from: shakmaty::Square,
    to: shakmaty::Square,
) -> bool {
    use shakmaty::attacks;
    let line = attacks::ray(king, from);
    if line.is_empty() {
        return false;
    }
    let kind = if king.file() == from.file() || king.rank() == from.rank() {
        board.rooks_and_queens()
    } else {
        board.bishops_and_queens()
    };
    let them = board.by_color(!us);
    let after = board.occupied().without(from).with(to);
    for slider in (line & kind & them).without(to) {
        let between = attacks::between(king, slider);
        if between.contains(from) && (between & after).is_empty() {
            return true;
        }
    }
    false
}

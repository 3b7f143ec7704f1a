//! Why a move cannot be played, in words: the piece that is missing, the
//! square that is taken, the way that is blocked, the mark that is wrong.

use crate::findings::codes;
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanError};
use shakmaty::{Chess, Color, EnPassantMode, Position, Role};

use super::record::Stop;
use crate::ingest::pgn::PgnMove;

/// The stop at `mv` (written `written`), recorded at `ply`, that `pos`
/// cannot play: what shakmaty said of it (`e`), why in words, and the
/// position.
pub(super) fn illegal_move(
    pos: &Chess,
    (mv, written): (&PgnMove, &str),
    ply: u32,
    e: SanError,
) -> Stop {
    let side = if pos.turn() == Color::White {
        "White"
    } else {
        "Black"
    };
    Stop {
        code: codes::ILLEGAL_MOVE,
        message: format!(
            "{} {:?} for {side} at ply {ply} is {e} ({}) in position {}",
            if matches!(mv.san.san, San::Null) {
                "null move"
            } else {
                "move"
            },
            written,
            why_illegal(pos, &mv.san.san),
            Fen::from_position(pos, EnPassantMode::Legal)
        ),
        ply,
        span: mv.span,
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

fn squares(bb: impl IntoIterator<Item = shakmaty::Square>) -> String {
    let v: Vec<String> = bb.into_iter().map(|s| s.to_string()).collect();
    match v.len() {
        0 => String::new(),
        1 => v[0].clone(),
        n => format!("{} and {}", v[..n - 1].join(", "), v[n - 1]),
    }
}

/// Why `san` cannot be played in `pos` (it is not legal there, or not
/// one move), in words: the piece that is missing, the square that is
/// taken, the way that is blocked, the mark that is wrong, the check.
fn why_illegal(pos: &Chess, san: &San) -> String {
    use shakmaty::{Bitboard, CastlingSide, Piece, attacks::attacks};
    let us = pos.turn();
    let (side, color) = if us == Color::White {
        ("White", "white")
    } else {
        ("Black", "black")
    };
    match *san {
        San::Null => "a null move passes the turn, which chess does not allow".into(),
        San::Put { .. } => "a piece drop belongs to crazyhouse, not chess".into(),
        San::Castle(cs) => {
            let wing = if cs == CastlingSide::KingSide {
                "kingside"
            } else {
                "queenside"
            };
            if !pos.castles().has(us, cs) {
                format!("{side} has no right to castle {wing} any more")
            } else if pos.is_check() {
                format!("{side} is in check and cannot castle")
            } else {
                format!(
                    "castling {wing} is not legal here: a piece stands between king and rook, or the king passes through or lands on an attacked square"
                )
            }
        }
        San::Normal {
            role,
            file: from_file,
            rank: from_rank,
            capture,
            to,
            promotion,
        } => {
            let name = role_name(role);
            let all = pos.our(role);
            if all.is_empty() {
                return format!("{side} has no {name}");
            }
            let cands: Vec<_> = all
                .into_iter()
                .filter(|sq| {
                    from_file.is_none_or(|f| f == sq.file())
                        && from_rank.is_none_or(|r| r == sq.rank())
                })
                .collect();
            if cands.is_empty() {
                return format!(
                    "no {color} {name} stands where the move says (the {name}s are on {})",
                    squares(all)
                );
            }
            if let Some(p) = pos.board().piece_at(to).filter(|p| p.color == us) {
                return format!("{to} holds {side}'s own {}", role_name(p.role));
            }
            let legal: Vec<_> = pos
                .legal_moves()
                .into_iter()
                .filter(|m| {
                    m.role() == role && m.to() == to && m.from().is_some_and(|f| cands.contains(&f))
                })
                .collect();
            if legal.len() > 1 && legal.iter().all(|m| m.promotion() == promotion) {
                return format!(
                    "the {color} {name}s on {} can each move to {to}",
                    squares(legal.iter().filter_map(|m| m.from()))
                );
            }
            if let Some(m) = legal.first() {
                if capture != m.is_capture() {
                    return if capture {
                        format!("it is written as a capture, but {to} is empty")
                    } else {
                        format!("it captures on {to}, but is written without `x`")
                    };
                }
                if promotion != m.promotion() {
                    return match promotion {
                        None => format!("a pawn reaching {to} must promote"),
                        Some(_) => format!("a pawn moving to {to} does not promote"),
                    };
                }
            }
            if role == Role::Pawn {
                return format!("no {color} pawn can move to {to}");
            }
            let piece = Piece { color: us, role };
            let open: Vec<_> = cands
                .iter()
                .copied()
                .filter(|&sq| attacks(sq, piece, Bitboard::EMPTY).contains(to))
                .collect();
            if open.is_empty() {
                return format!(
                    "no {color} {name} moves to {to} from {}",
                    squares(cands.iter().copied())
                );
            }
            let occupied = pos.board().occupied();
            let reach: Vec<_> = open
                .iter()
                .copied()
                .filter(|&sq| attacks(sq, piece, occupied).contains(to))
                .collect();
            match reach.first() {
                None => format!(
                    "the way from {} to {to} is blocked",
                    squares(open.iter().copied())
                ),
                Some(from) => format!(
                    "the {name} on {from} moving to {to} would leave {side}'s king in check"
                ),
            }
        }
    }
}

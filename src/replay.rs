//! Replay: play a game's moves with shakmaty and record the facts of every
//! ply. An illegal, ambiguous or unparsable move is recorded as a fact (the
//! replay stops there); nothing here panics on bad input. This stage knows
//! chess, not rules.

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position, Role};

use crate::ingest::pgn::{PgnGame, ProblemKind};
use crate::span::Span;

/// The facts of one ply.
#[derive(Debug, Clone)]
pub struct Ply {
    /// 1 = White's first move from the standard start.
    pub ply: u32,
    /// The move number as printed in PGN.
    pub move_number: u32,
    pub side: Color,
    /// SAN as shakmaty writes it (canonical), with check suffix.
    /// Inline: a SAN or UCI move is never longer than 24 bytes, so a ply
    /// allocates no string for them.
    pub san: compact_str::CompactString,
    pub uci: compact_str::CompactString,
    /// Index into `PgnGame::moves`.
    pub move_index: usize,
    /// Position after the move.
    pub position: Chess,
    pub halfmove_clock: u32,
    /// How many times the position after the move has occurred so far
    /// (same placement, side to move, castling rights and legal en passant).
    pub repetition: u32,
    pub capture: bool,
    pub pawn_move: bool,
    pub castling_rights_changed: bool,
    pub promotion: bool,
    pub castling: bool,
    /// A rook left a square that carried a castling right (the right is
    /// lost). FIDE 9.3 does not count this as irreversible; some arbiter
    /// software did.
    pub rook_castling_lost: bool,
    pub pieces: u32,
    pub check: bool,
    pub checkmate: bool,
    pub stalemate: bool,
    pub insufficient_material: bool,
    /// The move as written claims check (`+`) or mate (`#`) that the
    /// position does not have.
    pub suffix_wrong: bool,
    pub span: Option<Span>,
}

impl Ply {
    pub fn fen(&self) -> String {
        Fen::from_position(&self.position, EnPassantMode::Legal).to_string()
    }

    /// Threefold repetition has occurred (a draw may be claimed).
    pub fn threefold(&self) -> bool {
        self.repetition >= 3
    }

    /// Fifty moves by each side without capture or pawn move.
    pub fn fifty_moves(&self) -> bool {
        self.halfmove_clock >= 100
    }
}

/// Why a replay stopped before the end of the movetext.
#[derive(Debug, Clone)]
pub struct Stop {
    pub code: &'static str,
    pub message: String,
    /// The ply that could not be played (1-based).
    pub ply: u32,
    pub span: Option<Span>,
}

/// A replayed game.
#[derive(Debug, Clone)]
pub struct Replay {
    pub start: Chess,
    pub castling_mode: CastlingMode,
    /// The ply number of the first move (1 unless a `[FEN]` starts with
    /// Black to move or later in the game).
    pub first_ply: u32,
    pub plies: Vec<Ply>,
    pub stop: Option<Stop>,
}

impl Replay {
    /// No moves from the standard position (for a game's header alone).
    pub fn empty() -> Replay {
        Replay {
            start: Chess::default(),
            castling_mode: CastlingMode::Standard,
            first_ply: 1,
            plies: Vec::new(),
            stop: None,
        }
    }

    /// The replayed ply of this number (the plies run one per ply from
    /// `first_ply`), or `None` when it was not replayed.
    pub fn ply(&self, ply: u32) -> Option<&Ply> {
        self.plies.get(ply.checked_sub(self.first_ply)? as usize)
    }

    pub fn final_position(&self) -> &Chess {
        self.plies.last().map_or(&self.start, |p| &p.position)
    }

    pub fn final_fen(&self) -> String {
        Fen::from_position(self.final_position(), EnPassantMode::Legal).to_string()
    }

    /// The final repetition count (1 for the start position).
    pub fn final_repetition(&self) -> u32 {
        self.plies.last().map_or(1, |p| p.repetition)
    }
}

fn ply_of(pos: &Chess) -> u32 {
    let full = pos.fullmoves().get();
    (full - 1) * 2 + if pos.turn() == Color::White { 1 } else { 2 }
}

/// Which variant the tags ask for.
pub fn castling_mode(game: &PgnGame) -> Result<CastlingMode, String> {
    match game.tag("Variant").map(|v| v.trim().to_ascii_lowercase()) {
        None => Ok(CastlingMode::Standard),
        Some(v) => match v.as_str() {
            "" | "standard" | "chess" | "normal" | "from position" => Ok(CastlingMode::Standard),
            "chess960" | "chess 960" | "fischerandom" | "fischer random" | "frc" | "960" => {
                Ok(CastlingMode::Chess960)
            }
            other => Err(format!(
                "variant {other:?} is not supported: arbiter replays standard chess and Chess960"
            )),
        },
    }
}

/// Replay a game. Never panics: every failure becomes a [`Stop`].
pub fn replay(game: &PgnGame) -> Replay {
    let mode = castling_mode(game).unwrap_or(CastlingMode::Standard);
    let mut stop = None;
    let start: Chess = match game.tag("FEN") {
        Some(fen) => {
            let parsed = Fen::from_ascii(fen.trim().as_bytes())
                .map_err(|e| e.to_string())
                .and_then(|f| f.into_position::<Chess>(mode).map_err(|e| e.to_string()));
            match parsed {
                Ok(p) => p,
                Err(e) => {
                    stop = Some(Stop {
                        code: "invalid-setup",
                        message: format!("the FEN tag {fen:?} is not a valid position: {e}"),
                        ply: 1,
                        span: game.tag_entry("FEN").map(|t| t.span),
                    });
                    Chess::default()
                }
            }
        }
        None => Chess::default(),
    };
    if let Err(e) = castling_mode(game) {
        stop = Some(Stop {
            code: "unsupported-variant",
            message: e,
            ply: 1,
            span: game.tag_entry("Variant").map(|t| t.span),
        });
    }
    let first_ply = ply_of(&start);
    let mut out = Replay {
        start: start.clone(),
        castling_mode: mode,
        first_ply,
        plies: Vec::with_capacity(game.moves.len()),
        stop: None,
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
    let mut history: Vec<u64> = vec![hash(&pos)];
    for (i, mv) in game.moves.iter().enumerate() {
        let ply = first_ply + i as u32;
        if let Some(p) = cut.filter(|p| p.before_move == i) {
            out.stop = Some(cut_stop(p));
            return out;
        }
        let m = match mv.san.san.to_move(&pos) {
            Ok(m) => m,
            Err(e) => {
                let side = if pos.turn() == Color::White {
                    "White"
                } else {
                    "Black"
                };
                out.stop = Some(Stop {
                    code: "illegal-move",
                    message: format!(
                        "{} {:?} for {side} at ply {ply} is {e} in position {}",
                        if matches!(mv.san.san, San::Null) {
                            "null move"
                        } else {
                            "move"
                        },
                        mv.written,
                        Fen::from_position(&pos, EnPassantMode::Legal)
                    ),
                    ply,
                    span: mv.span,
                });
                return out;
            }
        };
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
        let san = San::from_move(&pos, m);
        pos.play_unchecked(m);
        debug_assert!(pieces_before >= pos.board().occupied().count());
        let h = hash(&pos);
        if pos.halfmoves() == 0 {
            history.clear();
        }
        history.push(h);
        let repetition = history.iter().filter(|&&x| x == h).count() as u32;
        let legal_empty = pos.legal_moves().is_empty();
        let check = pos.is_check();
        let checkmate = check && legal_empty;
        // the suffix as shakmaty writes it (mate: in check with no legal
        // move), from the one legal-move generation this ply makes
        let san = SanPlus {
            san,
            suffix: if checkmate {
                Some(Suffix::Checkmate)
            } else if check {
                Some(Suffix::Check)
            } else {
                None
            },
        };
        let suffix_wrong = match mv.san.suffix {
            Some(Suffix::Checkmate) => !checkmate,
            Some(Suffix::Check) => !check,
            None => false,
        };
        out.plies.push(Ply {
            ply,
            move_number,
            side,
            san: compact_str::format_compact!("{san}"),
            uci: compact_str::format_compact!("{}", m.to_uci(mode)),
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
            check,
            checkmate,
            suffix_wrong,
            stalemate: !check && legal_empty,
            insufficient_material: pos.is_insufficient_material(),
            span: mv.span,
            position: pos.clone(),
        });
    }
    if let Some(p) = cut {
        // the problem lies after the last move
        out.stop = Some(cut_stop(p));
    }
    out
}

fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// FEN of a position (en passant square only when a capture is legal).
pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

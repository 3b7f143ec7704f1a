//! What a replay records: the facts of each ply, why the replay stopped,
//! and how the set-up tags were read.

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, Square};

use crate::base::span::Span;

/// The facts of one ply. No position is kept per ply (a position is over
/// 100 bytes, a game may have a million plies): [`Replay::position_before`]
/// and [`Replay::position_after`] make it again from the nearest
/// checkpoint.
#[derive(Debug, Clone)]
pub struct Ply {
    /// 1 = White's first move from the standard start.
    pub ply: u32,
    /// The move number as printed in PGN.
    pub move_number: u32,
    pub side: Color,
    /// The move in SAN as shakmaty writes it (canonical), with its check
    /// or mate suffix; its text is its `Display` ([`Ply::san_text`]). Kept
    /// as the move, not its text: most plies' text is never read.
    pub san: SanPlus,
    /// The move in UCI, castling as the replay's `castling_mode` writes
    /// it; its text is its `Display` ([`Ply::uci_text`]).
    pub uci: UciMove,
    /// The move as shakmaty plays it (to make positions again).
    pub mv: Move,
    /// Index into `PgnGame::moves`.
    pub move_index: usize,
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
    /// Pawns on the board after the move, both sides'.
    pub pawns: u8,
    /// Knights, bishops, rooks and queens on the board after the move,
    /// both sides'.
    pub minors_and_majors: u8,
    pub check: bool,
    pub checkmate: bool,
    pub stalemate: bool,
    pub insufficient_material: bool,
    /// The move as written claims check (`+`) or mate (`#`) that the
    /// position does not have.
    pub suffix_wrong: bool,
}

impl Ply {
    /// The move's SAN as text (inline: a SAN is never longer than 24
    /// bytes, so no allocation).
    pub fn san_text(&self) -> compact_str::CompactString {
        compact_str::format_compact!("{}", self.san)
    }

    /// The move's UCI as text (inline, as [`Ply::san_text`]).
    pub fn uci_text(&self) -> compact_str::CompactString {
        compact_str::format_compact!("{}", self.uci)
    }

    /// The squares the move's UCI names, from and to (a drop has no
    /// square it comes from, a null move neither).
    pub fn uci_squares(&self) -> (Option<Square>, Option<Square>) {
        match self.uci {
            UciMove::Normal { from, to, .. } => (Some(from), Some(to)),
            UciMove::Put { to, .. } => (None, Some(to)),
            UciMove::Null => (None, None),
        }
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
    pub code: crate::findings::codes::Code,
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
    /// The position before every [`CHECKPOINT`]-th ply (the first is
    /// `start`): a position is made again from the one before it.
    pub checkpoints: Vec<Chess>,
    /// The position after the last ply played.
    pub end: Chess,
    pub stop: Option<Stop>,
    /// How the set-up tags were read where they do not say it plainly.
    pub setup_notes: Vec<SetupNote>,
}

/// A position is kept before every this many plies: one of 32 plies is
/// kept (4 bytes a ply), and a position is made again in at most 31 moves.
pub const CHECKPOINT: usize = 32;

/// A reading of the set-up tags arbiter had to decide, said as a finding.
#[derive(Debug, Clone)]
pub struct SetupNote {
    /// `chess960-inferred`: no `Variant` tag, but castling rights in the
    /// `FEN` standard chess cannot have (replayed as Chess960);
    /// `variant-is-opening`: a `Variant` tag that names no chess variant,
    /// beside `ECO`/`Opening` tags (Banksia writes the opening's variation
    /// there; replayed as standard chess).
    pub code: crate::findings::codes::Code,
    pub message: String,
    pub span: Option<Span>,
}

impl Replay {
    /// No moves from the standard position (for a game's header alone).
    pub fn empty() -> Replay {
        Replay {
            start: Chess::default(),
            castling_mode: CastlingMode::Standard,
            first_ply: 1,
            plies: Vec::new(),
            checkpoints: vec![Chess::default()],
            end: Chess::default(),
            stop: None,
            setup_notes: Vec::new(),
        }
    }

    /// The replayed ply of this number (the plies run one per ply from
    /// `first_ply`), or `None` when it was not replayed.
    pub fn ply(&self, ply: u32) -> Option<&Ply> {
        self.plies.get(ply.checked_sub(self.first_ply)? as usize)
    }

    pub fn final_position(&self) -> &Chess {
        &self.end
    }

    /// The position before `plies[i]` (`i` up to the number of plies: the
    /// last is the final position), made from the checkpoint before it.
    pub fn position_before(&self, i: usize) -> Chess {
        if i >= self.plies.len() {
            return self.end.clone();
        }
        let k = i / CHECKPOINT;
        let mut pos = self.checkpoints[k].clone();
        for p in &self.plies[k * CHECKPOINT..i] {
            pos.play_unchecked(p.mv);
        }
        pos
    }

    /// The position after `plies[i]`.
    pub fn position_after(&self, i: usize) -> Chess {
        self.position_before(i + 1)
    }

    /// The FEN of the position after ply `p` (one of this replay's).
    pub fn fen_after(&self, p: &Ply) -> String {
        let i = p.ply.saturating_sub(self.first_ply) as usize;
        Fen::from_position(&self.position_after(i), EnPassantMode::Legal).to_string()
    }

    pub fn final_fen(&self) -> String {
        Fen::from_position(self.final_position(), EnPassantMode::Legal).to_string()
    }

    /// The final repetition count (1 for the start position).
    pub fn final_repetition(&self) -> u32 {
        self.plies.last().map_or(1, |p| p.repetition)
    }
}

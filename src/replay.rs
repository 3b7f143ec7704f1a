//! Replay: play a game's moves with shakmaty and record the facts of every
//! ply. An illegal, ambiguous or unparsable move is recorded as a fact (the
//! replay stops there); nothing here panics on bad input. This stage knows
//! chess, not rules.

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position, Role, Square};

use crate::base::span::Span;
use crate::ingest::pgn::{PgnGame, ProblemKind};

/// The facts of one ply.
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
    /// How the set-up tags were read where they do not say it plainly.
    pub setup_notes: Vec<SetupNote>,
}

/// A reading of the set-up tags arbiter had to decide, said as a finding.
#[derive(Debug, Clone)]
pub struct SetupNote {
    /// `chess960-inferred`: no `Variant` tag, but castling rights in the
    /// `FEN` standard chess cannot have (replayed as Chess960);
    /// `variant-is-opening`: a `Variant` tag that names no chess variant,
    /// beside `ECO`/`Opening` tags (Banksia writes the opening's variation
    /// there; replayed as standard chess).
    pub code: &'static str,
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

/// Variants of chess other programs name in a `Variant` tag (lowercase,
/// without spaces, `-` or `_`), which arbiter does not replay.
const OTHER_VARIANTS: &[&str] = &[
    "crazyhouse",
    "crazyhouse960",
    "atomic",
    "atomic960",
    "antichess",
    "giveaway",
    "suicide",
    "losers",
    "kingofthehill",
    "koth",
    "threecheck",
    "3check",
    "fivecheck",
    "5check",
    "horde",
    "racingkings",
    "bughouse",
    "shatranj",
    "courier",
    "capablanca",
    "caparandom",
    "gothic",
    "janus",
    "berolina",
    "seirawan",
    "schess",
    "makruk",
    "xiangqi",
    "shogi",
    "grand",
    "knightmate",
    "extinction",
    "twokings",
    "placement",
    "upsidedown",
    "andernach",
    "fairy",
];

/// Which variant the tags ask for.
pub fn castling_mode(game: &PgnGame) -> Result<CastlingMode, String> {
    match game.tag("Variant").map(|v| v.trim().to_ascii_lowercase()) {
        None => Ok(CastlingMode::Standard),
        Some(v) => match v.as_str() {
            "" | "standard" | "chess" | "normal" | "from position" => Ok(CastlingMode::Standard),
            "chess960" | "chess 960" | "fischerandom" | "fischer random" | "frc" | "960" => {
                Ok(CastlingMode::Chess960)
            }
            _ if variant_is_opening_name(game) => Ok(CastlingMode::Standard),
            other => Err(format!(
                "variant {other:?} is not supported: arbiter replays standard chess and Chess960"
            )),
        },
    }
}

/// The `Variant` tag names no variant of chess (none arbiter replays, none
/// of [`OTHER_VARIANTS`]) and the game has an `ECO` or `Opening` tag: it is
/// the opening's variation, as Banksia writes it.
fn variant_is_opening_name(game: &PgnGame) -> bool {
    let Some(v) = game.tag("Variant") else {
        return false;
    };
    let key: String = v
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect();
    let named = |t: &str| game.tag(t).is_some_and(|x| !matches!(x.trim(), "" | "?"));
    !OTHER_VARIANTS.contains(&key.as_str()) && (named("ECO") || named("Opening"))
}

/// The position a `FEN` tag gives in `mode`.
fn setup(fen: &str, mode: CastlingMode) -> Result<Chess, String> {
    Fen::from_ascii(fen.trim().as_bytes())
        .map_err(|e| e.to_string())
        .and_then(|f| f.into_position::<Chess>(mode).map_err(|e| e.to_string()))
}

/// Replay a game. Never panics: every failure becomes a [`Stop`].
pub fn replay(game: &PgnGame) -> Replay {
    let mut mode = castling_mode(game).unwrap_or(CastlingMode::Standard);
    let mut stop = None;
    let mut setup_notes = Vec::new();
    if game.tag("Variant").is_some() && variant_is_opening_name(game) {
        let v = game.tag("Variant").unwrap_or_default();
        setup_notes.push(SetupNote {
            code: "variant-is-opening",
            message: format!(
                "the Variant tag {v:?} names no variant of chess and the game has ECO/Opening tags: read as the opening's variation (Banksia writes it there); replayed as standard chess"
            ),
            span: game.tag_entry("Variant").map(|t| t.span),
        });
    }
    let start: Chess = match game.tag("FEN") {
        Some(fen) => {
            let mut parsed = setup(fen, mode);
            // No Variant tag, and castling rights standard chess cannot
            // have: a Chess960 start given by its FEN alone (X-FEN or
            // Shredder-FEN). Replayed as Chess960, and said.
            if let Err(e) = &parsed
                && game.tag("Variant").is_none()
                && let Ok(p) = setup(fen, CastlingMode::Chess960)
            {
                setup_notes.push(SetupNote {
                    code: "chess960-inferred",
                    message: format!(
                        "the FEN {fen:?} has castling rights standard chess cannot have ({e}) and there is no Variant tag: replayed as Chess960"
                    ),
                    span: game.tag_entry("FEN").map(|t| t.span),
                });
                mode = CastlingMode::Chess960;
                parsed = Ok(p);
            }
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
                let side = if pos.turn() == Color::White {
                    "White"
                } else {
                    "Black"
                };
                out.stop = Some(Stop {
                    code: "illegal-move",
                    message: format!(
                        "{} {:?} for {side} at ply {ply} is {e} ({}) in position {}",
                        if matches!(mv.san.san, San::Null) {
                            "null move"
                        } else {
                            "move"
                        },
                        mv.written,
                        why_illegal(&pos, &mv.san.san),
                        Fen::from_position(&pos, EnPassantMode::Legal)
                    ),
                    ply,
                    span: mv.span,
                });
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
            file,
            rank,
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
                    file.is_none_or(|f| f == sq.file()) && rank.is_none_or(|r| r == sq.rank())
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
fn canonical_san(written: &San, pos: &Chess, m: shakmaty::Move) -> San {
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
fn resolve(pos: &Chess, in_check: bool, san: &San) -> Option<shakmaty::Move> {
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

/// The hash after king's move `m` from the hash `current` of `pos`, where
/// the step changes nothing but the king's square, the turn and what it
/// takes: the side has no castling right to lose, the square it takes
/// carries none of the other side's, and `pos` has no en passant square
/// (a hash may count it). `Position::update_zobrist_hash` leaves every
/// king's move to the whole hash; in endgames that is most moves. `None`
/// otherwise. The replay's debug assertion holds it to the whole hash at
/// every ply of every test.
fn king_step_hash(pos: &Chess, current: Zobrist64, m: shakmaty::Move) -> Option<Zobrist64> {
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

fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// FEN of a position (en passant square only when a capture is legal).
pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::ingest::pgn::{GameSplitter, parse_game};

    /// The first game of `pgn`, read and replayed.
    pub(crate) fn replayed(pgn: &str) -> (PgnGame, Replay) {
        let mut s = GameSplitter::new(std::io::BufReader::new(pgn.as_bytes()));
        let game = parse_game(&s.next_chunk().unwrap().unwrap());
        let r = replay(&game);
        (game, r)
    }

    /// Each ply's mate, stalemate, SAN and suffix check, as shakmaty
    /// answers them from the position itself (the replay asks for the
    /// legal moves only where the next recorded move does not show one).
    fn settled_as_shakmaty_says(pgn: &str) -> Replay {
        let (game, r) = replayed(pgn);
        let mut before = r.start.clone();
        for p in &r.plies {
            let pos = &p.position;
            assert_eq!(p.checkmate, pos.is_checkmate(), "ply {}", p.ply);
            assert_eq!(p.stalemate, pos.is_stalemate(), "ply {}", p.ply);
            assert_eq!(p.check, pos.is_check(), "ply {}", p.ply);
            let m = game.moves[p.move_index].san.san.to_move(&before).unwrap();
            let written = SanPlus::from_move(before.clone(), m).to_string();
            assert_eq!(p.san_text(), written, "ply {}", p.ply);
            assert_eq!(p.uci_text(), m.to_uci(r.castling_mode).to_string());
            // the squares as the text names them (the dossier and the
            // hidden-book detector read them from the text before)
            let text = p.uci_text();
            let sq =
                |at: std::ops::Range<usize>| text.get(at).and_then(|s| s.parse::<Square>().ok());
            assert_eq!(p.uci_squares(), (sq(0..2), sq(2..4)), "ply {}", p.ply);
            let suffix = game.moves[p.move_index].san.suffix;
            let wrong = match suffix {
                Some(Suffix::Checkmate) => !pos.is_checkmate(),
                Some(Suffix::Check) => !pos.is_check(),
                None => false,
            };
            assert_eq!(p.suffix_wrong, wrong, "ply {}", p.ply);
            before = pos.clone();
        }
        r
    }

    #[test]
    fn mate_at_the_end() {
        let r = settled_as_shakmaty_says("1. f3 e5 2. g4 Qh4# 0-1\n");
        assert!(r.plies[3].checkmate && r.plies[3].san_text() == "Qh4#");
        assert!(r.stop.is_none());
    }

    #[test]
    fn mate_written_as_check_and_check_written_as_mate() {
        // `+` on a mate is not wrong (it is check); `#` on a check is
        let r = settled_as_shakmaty_says("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7+ 1-0\n");
        assert!(r.plies[6].checkmate && !r.plies[6].suffix_wrong);
        assert_eq!(r.plies[6].san_text(), "Qxf7#");
        let r = settled_as_shakmaty_says("1. e4 f5 2. Qh5# g6 *\n");
        assert!(r.plies[2].check && !r.plies[2].checkmate && r.plies[2].suffix_wrong);
    }

    #[test]
    fn a_move_after_mate_stops_the_replay_and_the_mate_stays() {
        let r = settled_as_shakmaty_says("1. f3 e5 2. g4 Qh4 3. a3 *\n");
        assert_eq!(r.plies.len(), 4);
        assert!(r.plies[3].checkmate && r.plies[3].san_text() == "Qh4#");
        assert_eq!(r.stop.as_ref().map(|s| s.code), Some("illegal-move"));
    }

    #[test]
    fn stalemate_at_the_end_and_before_a_move() {
        let fen = "[FEN \"k7/8/8/2Q5/8/8/8/7K w - - 0 1\"]\n[SetUp \"1\"]\n\n";
        let r = settled_as_shakmaty_says(&format!("{fen}1. Qb6 1/2-1/2\n"));
        assert!(r.plies.last().unwrap().stalemate);
        let r = settled_as_shakmaty_says(&format!("{fen}1. Qb6 Kb8 *\n"));
        assert!(r.plies[0].stalemate);
        assert_eq!(r.stop.as_ref().map(|s| s.code), Some("illegal-move"));
    }

    #[test]
    fn an_illegal_move_says_why() {
        let why = |pgn: &str| {
            let (_, r) = replayed(pgn);
            r.stop.map(|s| s.message).unwrap_or_default()
        };
        let cases = [
            ("1. d4 d5 2. Bb5+ *", "the way from f1 to b5 is blocked"),
            ("1. e4 e5 2. Ke3 *", "no white king moves to e3 from e1"),
            ("1. e4 e5 2. Nd2 *", "d2 holds White's own pawn"),
            (
                "1. e4 e5 2. Nxf3 *",
                "written as a capture, but f3 is empty",
            ),
            ("1. O-O *", "castling kingside is not legal here"),
            (
                "1. e4 d5 2. Qh5 d4 3. Qf7 *",
                "it captures on f7, but is written without `x`",
            ),
            (
                "1. e4 d5 2. Qh5 d4 3. Qxh8 *",
                "the way from h5 to h8 is blocked",
            ),
            (
                "1. e4 e5 2. Nf3 Nc6 3. Nc3 Nf6 4. Nb5 a6 5. Nd4 *",
                "the white knights on f3 and b5 can each move to d4",
            ),
            (
                "1. e4 e6 2. d3 Bb4+ 3. Nc3 Nf6 4. Nd5 *",
                "the knight on c3 moving to d5 would leave White's king in check",
            ),
            ("1. -- *", "null move"),
        ];
        for (pgn, want) in cases {
            let m = why(pgn);
            assert!(m.contains(want), "{pgn}: {m}");
        }
    }

    #[test]
    fn a_cut_game_settles_its_last_ply() {
        let r = settled_as_shakmaty_says("1. f3 e5 2. g4 Qh4# zz 0-1\n");
        assert!(r.plies.last().unwrap().checkmate);
    }

    /// The positions of `fens`, then every position of 40 games of up to
    /// `plies` random legal moves each, from generator `seed`.
    fn positions(fens: &[&str], seed: u64, plies: usize) -> Vec<Chess> {
        let mut out: Vec<Chess> = fens
            .iter()
            .map(|f| setup(f, CastlingMode::Standard).unwrap())
            .collect();
        let mut rng = crate::test_rng::Lcg(seed);
        for _ in 0..40 {
            let mut pos = Chess::default();
            for _ in 0..rng.below(plies) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
                out.push(pos.clone());
            }
        }
        out
    }

    /// `resolve` against `San::to_move` at every position of generated
    /// games and of set positions (en passant under a pin, promotions,
    /// check, double check): for each legal move its SAN as shakmaty
    /// writes it, with both departure hints, with the capture mark turned
    /// over, with another promotion, and for every role and square; the
    /// answer is `to_move`'s whenever `resolve` gives one, and `resolve`
    /// gives one for every legal move but castling.
    #[test]
    fn resolving_a_san_is_to_move() {
        use shakmaty::{Move, Square};
        let starts = positions(
            &[
                "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
                "8/8/8/8/R2Pp2k/8/8/4K3 b - d3 0 1",
                "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1",
                "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
                "4r1k1/8/8/8/8/5n2/8/3QK3 w - - 0 1",
                // pins along a file, a diagonal and a rank, a line held by
                // two of ours, and pinners that can be taken
                "4k3/8/8/8/4r3/8/4R3/4K3 w - - 0 1",
                "4k3/8/8/b7/8/8/3B4/4K3 w - - 0 1",
                "4k3/8/8/q7/8/8/3N4/4K3 w - - 0 1",
                "4k3/4r3/8/8/4N3/8/4R3/4K3 w - - 0 1",
                "4k3/8/8/8/8/8/8/qQ2K3 w - - 0 1",
                "6k1/8/8/3q4/8/1Q6/8/Q3K2R b K - 0 1",
                "4k3/8/8/8/1b6/8/3N4/r3K3 w - - 0 1",
                "3qk3/8/8/8/8/8/3R4/3QK3 w - - 0 1",
                "7k/8/8/8/8/8/N1N5/1N1N3K w - - 0 1",
            ],
            1996,
            160,
        );
        let mut fast = 0;
        for pos in &starts {
            let agrees = |san: San| {
                if let Some(m) = resolve(pos, pos.is_check(), &san) {
                    assert_eq!(Ok(m), san.to_move(pos), "{san} in {}", fen_of(pos));
                    true
                } else {
                    false
                }
            };
            for m in pos.legal_moves() {
                let san = San::from_move(pos, m);
                assert_eq!(agrees(san), !m.is_castle(), "{san} in {}", fen_of(pos));
                fast += 1;
                // en passant as the pawn's capture it is written as
                let (role, from, capture, to, promotion) = match m {
                    Move::Normal {
                        role,
                        from,
                        capture,
                        to,
                        promotion,
                    } => (role, from, capture, to, promotion),
                    Move::EnPassant { from, to } => (Role::Pawn, from, Some(Role::Pawn), to, None),
                    _ => continue,
                };
                for (file, rank) in [
                    (Some(from.file()), None),
                    (None, Some(from.rank())),
                    (Some(from.file()), Some(from.rank())),
                    (None, None),
                ] {
                    for capture in [capture.is_some(), capture.is_none()] {
                        for promotion in [promotion, None, Some(Role::Knight), Some(Role::King)] {
                            agrees(San::Normal {
                                role,
                                file,
                                rank,
                                capture,
                                to,
                                promotion,
                            });
                        }
                    }
                }
            }
            for role in Role::ALL {
                for to in Square::ALL {
                    for capture in [false, true] {
                        agrees(San::Normal {
                            role,
                            file: None,
                            rank: None,
                            capture,
                            to,
                            promotion: None,
                        });
                    }
                }
            }
        }
        assert!(fast > 10_000, "{fast} legal moves resolved");
    }

    /// `king_step_hash` against the whole hash after every king's move of
    /// generated games and of set positions (a king that takes a rook
    /// carrying a castling right, one that still has its own rights, one
    /// beside an en passant square); it answers for most of them.
    #[test]
    fn a_kings_step_keeps_the_hash() {
        let starts = positions(
            &[
                "4k2r/6K1/8/8/8/8/8/8 w k - 0 1",
                "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
                "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
                "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            ],
            2003,
            200,
        );
        let (mut kings, mut stepped) = (0, 0);
        for pos in &starts {
            for m in pos.legal_moves() {
                if m.role() != Role::King {
                    continue;
                }
                kings += 1;
                if let Some(h) = king_step_hash(pos, Zobrist64(hash(pos)), m) {
                    stepped += 1;
                    let mut after = pos.clone();
                    after.play_unchecked(m);
                    assert_eq!(h.0, hash(&after), "{m:?} in {}", fen_of(pos));
                }
            }
        }
        assert!(stepped * 2 > kings, "{stepped} of {kings} king's moves");
    }
}

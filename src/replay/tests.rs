//! The replay's tests: mates, stalemates and suffixes as shakmaty says
//! them, why a move is illegal, and the short ways (resolving a SAN, a
//! king's step's hash) against shakmaty's long ones.

use crate::findings::codes;
use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Position, Role, Square};

use super::fen_of;
use super::play::{hash, king_step_hash, replay};
use super::record::Replay;
use super::san::resolve;
use super::setup::setup;
use crate::ingest::pgn::{GameSplitter, PgnGame, parse_game};

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
    for (i, p) in r.plies.iter().enumerate() {
        let m = game.moves[p.move_index].san.san.to_move(&before).unwrap();
        let mut after = before.clone();
        after.play_unchecked(m);
        // the position made again from its checkpoint is the one played
        let pos = &r.position_after(i);
        assert_eq!(hash(pos), hash(&after), "ply {}", p.ply);
        assert_eq!(hash(&r.position_before(i)), hash(&before), "ply {}", p.ply);
        assert_eq!(p.checkmate, pos.is_checkmate(), "ply {}", p.ply);
        assert_eq!(p.stalemate, pos.is_stalemate(), "ply {}", p.ply);
        assert_eq!(p.check, pos.is_check(), "ply {}", p.ply);
        let written = SanPlus::from_move(before.clone(), m).to_string();
        assert_eq!(p.san_text(), written, "ply {}", p.ply);
        assert_eq!(p.uci_text(), m.to_uci(r.castling_mode).to_string());
        // the squares as the text names them (the dossier and the
        // hidden-book detector read them from the text before)
        let text = p.uci_text();
        let sq = |at: std::ops::Range<usize>| text.get(at).and_then(|s| s.parse::<Square>().ok());
        assert_eq!(p.uci_squares(), (sq(0..2), sq(2..4)), "ply {}", p.ply);
        let suffix = game.moves[p.move_index].san.suffix;
        let wrong = match suffix {
            Some(Suffix::Checkmate) => !pos.is_checkmate(),
            Some(Suffix::Check) => !pos.is_check(),
            None => false,
        };
        assert_eq!(p.suffix_wrong, wrong, "ply {}", p.ply);
        before = after;
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
    assert_eq!(
        r.stop.as_ref().map(|s| s.code.id),
        Some(codes::ILLEGAL_MOVE.id)
    );
}

#[test]
fn stalemate_at_the_end_and_before_a_move() {
    let fen = "[FEN \"k7/8/8/2Q5/8/8/8/7K w - - 0 1\"]\n[SetUp \"1\"]\n\n";
    let r = settled_as_shakmaty_says(&format!("{fen}1. Qb6 1/2-1/2\n"));
    assert!(r.plies.last().unwrap().stalemate);
    let r = settled_as_shakmaty_says(&format!("{fen}1. Qb6 Kb8 *\n"));
    assert!(r.plies[0].stalemate);
    assert_eq!(
        r.stop.as_ref().map(|s| s.code.id),
        Some(codes::ILLEGAL_MOVE.id)
    );
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
            for (written_file, written_rank) in [
                (Some(from.file()), None),
                (None, Some(from.rank())),
                (Some(from.file()), Some(from.rank())),
                (None, None),
            ] {
                for capture in [capture.is_some(), capture.is_none()] {
                    for promotion in [promotion, None, Some(Role::Knight), Some(Role::King)] {
                        agrees(San::Normal {
                            role,
                            file: written_file,
                            rank: written_rank,
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

#[test]
fn a_ply_holds_no_position() {
    // a game of a million plies holds a million of them: a position (over
    // 100 bytes) in each took 355 MB
    let size = std::mem::size_of::<super::Ply>();
    assert!(size <= 64, "a ply is {size} bytes");
    assert!(std::mem::size_of::<Chess>() > 100);
}

#[test]
fn positions_are_made_again_from_the_checkpoints() {
    // 132 plies of knights' moves: past four checkpoints
    let mut pgn = String::new();
    for n in 0..66 {
        let (w, b) = if n % 2 == 0 {
            ("Nf3", "Nf6")
        } else {
            ("Ng1", "Ng8")
        };
        pgn.push_str(&format!("{}. {w} {b} ", n + 1));
    }
    pgn.push_str("*\n");
    let r = settled_as_shakmaty_says(&pgn);
    assert_eq!(r.plies.len(), 132);
    assert_eq!(
        r.checkpoints.len(),
        132usize.div_ceil(super::record::CHECKPOINT)
    );
    assert_eq!(hash(&r.position_before(132)), hash(r.final_position()));
    // the knights are home again: the start's placement, 67 moves later
    assert_eq!(hash(&r.position_after(131)), hash(&Chess::default()));
    assert_eq!(r.fen_after(&r.plies[131]), fen_of(r.final_position()));
    assert!(r.fen_after(&r.plies[131]).ends_with(" 132 67"));
}

#[test]
fn the_glyphs_are_kept_by_move() {
    let (game, _) = replayed("1. e4 $1 e5 !? $14 2. Nf3 Nc6 $2 *\n");
    let of = |i| game.nags_of(i).to_vec();
    assert_eq!(
        (of(0), of(1), of(2), of(3)),
        (vec![1], vec![5, 14], vec![], vec![2])
    );
    assert_eq!(of(4), Vec::<u8>::new());
    assert_eq!(std::mem::size_of::<crate::ingest::pgn::PgnMove>(), 56);
}

#[test]
fn a_move_written_as_its_san_keeps_no_text() {
    let (game, r) = replayed("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. Qe2 *\n");
    assert!(game.written.is_empty(), "{:?}", game.written);
    assert_eq!(r.plies[6].san_text(), "O-O");
    let texts: Vec<_> = (0..9).map(|i| game.written_of(i)).collect();
    assert_eq!(
        texts,
        ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Nf6", "Qe2"]
    );
}

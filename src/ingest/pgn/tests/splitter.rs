//! The splitter's tests, on texts generated from pieces of PGN: its chunks
//! whether lines are taken in runs or one at a time, the bound and line
//! starts it finds, games too large, line ends, comments left open.

use super::games;
use crate::ingest::pgn::cut::scan_line;
use crate::ingest::pgn::reader::read_game;
use crate::ingest::pgn::splitter::{GameSplitter, MAX_GAME_BYTES};
use crate::ingest::pgn::token_reach::{TokenReach, longest_token};
use crate::ingest::pgn::visitor::Part;
use crate::ingest::pgn::{ProblemKind, parse_game};

/// `n` of `pieces` (a power of two of them) joined, each picked by the
/// top bits of a step of `rng`.
fn joined(rng: &mut crate::test_rng::Lcg, pieces: &[&[u8]], n: usize) -> Vec<u8> {
    let bits = pieces.len().trailing_zeros();
    let mut out = Vec::new();
    for _ in 0..n {
        out.extend_from_slice(pieces[(rng.step() >> (64 - bits)) as usize]);
    }
    out
}

/// 3,000 texts of 1 to 32 times `per` of `pieces`, from `seed`, each
/// with the size of the reader's buffer to read it through (one of
/// `rooms`).
fn generated(seed: u64, pieces: &[&[u8]], per: usize, rooms: [usize; 4]) -> Vec<(Vec<u8>, usize)> {
    let mut rng = crate::test_rng::Lcg(seed);
    (0..3000)
        .map(|_| {
            let n = 1 + (rng.step() >> 59) as usize;
            let text = joined(&mut rng, pieces, n * per);
            (text, rooms[(rng.step() >> 62) as usize])
        })
        .collect()
}

/// What a test compares of a chunk.
#[derive(Debug, PartialEq)]
struct Seen {
    index: usize,
    offset: u64,
    line: u64,
    oversize: Option<u64>,
    longest_token: usize,
    bytes: Vec<u8>,
    line_starts: Vec<u32>,
}

/// Every chunk of `text` read through a buffer of `room` bytes, taking
/// lines in runs or one at a time, and where the splitter ends (its
/// offset and line).
fn cut_all(text: &[u8], room: usize, line_at_a_time: bool) -> (Vec<Seen>, (u64, u64)) {
    let mut sp = GameSplitter::new(std::io::BufReader::with_capacity(room, text));
    if line_at_a_time {
        sp = sp.line_at_a_time();
    }
    let mut seen = Vec::new();
    while let Some(c) = sp.next_chunk().unwrap() {
        seen.push(Seen {
            index: c.index,
            offset: c.offset,
            line: c.line,
            oversize: c.oversize,
            longest_token: c.longest_token,
            bytes: c.bytes.to_vec(),
            line_starts: c.line_starts,
        });
    }
    (seen, (sp.offset, sp.line))
}

/// Pieces of PGN text, joined at random into the splitter's tests'
/// inputs.
const PIECES: [&[u8]; 16] = [
    b"[Event \"E\"]\n",
    b"[Site \"{x\"]\r\n",
    b"\n",
    b"\r\n",
    b"\r",
    b"1. e4 ",
    b"{a comment} ",
    b"{open ",
    b"close} ",
    b"}",
    b"{",
    b"; rest {\n",
    b"% escape }\n",
    b"\xEF\xBB\xBF[Event \"F\"]\n",
    b"1-0\n",
    b"e5 Nf3 Nc6 Bb5 a6 ",
];

/// A game's tags read alone (as an event's header is read again) are
/// the tags the whole game's reading finds, name, value and place, and
/// nothing of its movetext is read: on generated texts of tags (with
/// braces in their values, and after blank lines), movetext, comments
/// and byte-order marks.
#[test]
fn tags_read_alone_are_the_whole_readings_tags() {
    let mut with_moves = 0;
    for (text, _) in generated(0x2545_F491_4F6C_DD1D, &PIECES, 3, [1; 4]) {
        let mut sp = GameSplitter::new(&text[..]);
        while let Ok(Some(c)) = sp.next_chunk() {
            let whole = parse_game(&c);
            let alone = read_game(&c, Part::Tags);
            let shown = String::from_utf8_lossy(&c.bytes);
            assert_eq!(alone.tags, whole.tags, "{shown:?}");
            assert!(
                alone.moves.is_empty() && alone.preamble.is_empty(),
                "{shown:?}"
            );
            with_moves += usize::from(!whole.moves.is_empty());
        }
    }
    assert!(with_moves > 1000, "games with moves: {with_moves}");
}

/// The bound and the line starts the splitter finds a line at a time
/// are the ones `longest_token` and `line_starts` find over the whole
/// chunk, on generated texts of tags, movetext, braces opened and
/// closed across lines or never, LF, CRLF and lone CR line ends (a CR
/// at the end of the reader's buffer too), and joined files'
/// byte-order marks.
#[test]
fn the_splitters_token_bound_and_line_starts_are_the_chunks() {
    let mut chunks = 0;
    for (text, room) in generated(0x9E37_79B9_7F4A_7C15, &PIECES, 3, [5, 13, 64, 8192]) {
        let mut sp = GameSplitter::new(std::io::BufReader::with_capacity(room, &text[..]));
        while let Ok(Some(c)) = sp.next_chunk() {
            let shown = String::from_utf8_lossy(&c.bytes);
            assert_eq!(c.longest_token, longest_token(&c.bytes), "{shown:?}");
            assert_eq!(
                c.line_starts,
                crate::base::span::line_starts(&c.bytes),
                "{shown:?}"
            );
            chunks += 1;
        }
    }
    assert!(chunks > 3000, "the texts make games: {chunks}");
}

/// Lines taken from the reader's buffer in runs make the same chunks as
/// lines read one at a time (their text, place, line, bound, line
/// starts and size), on generated texts of tags, movetext, comments
/// left open, blank lines, LF, CRLF and lone CR line ends, byte-order
/// marks and lines longer than the buffer, read through buffers of 1 to
/// 8,192 bytes.
#[test]
fn lines_taken_in_runs_make_the_chunks_lines_read_one_at_a_time_make() {
    // the pieces above, and lines that end in their own ways or run
    // past the buffer
    let long = [&b"{"[..], &[b'x'; 300][..], b"}\n"].concat();
    let more: [&[u8]; 16] = [
        b"{open\n",
        b"; rest {\r\n",
        &long,
        b"e5 Nf3 Nc6 Bb5 a6\n",
        b"  [Round \"1\"]\n",
        b"\n\n",
        b"[Event \"G\"]\r\n\r\n",
        b"1. d4 d5 2. c4 *\r",
        b"{x}\r\n",
        b"\r\r",
        b"Nf6 ",
        b"0-1\r\n",
        b"\xEF\xBB\xBF",
        b"   \n",
        b"[",
        b"\"]\n",
    ];
    let pieces: Vec<&[u8]> = PIECES.iter().chain(&more).copied().collect();
    let mut chunks = 0;
    for (text, room) in generated(0x2545_F491_4F6C_DD1D, &pieces, 4, [1, 7, 64, 8192]) {
        let runs = cut_all(&text, room, false);
        let lines = cut_all(&text, room, true);
        assert_eq!(runs, lines, "{:?}", String::from_utf8_lossy(&text));
        chunks += runs.0.len();
    }
    assert!(chunks > 3000, "the texts make games: {chunks}");
}

/// A game of many lines that grows past [`MAX_GAME_BYTES`] is cut and
/// sized the same way when its lines are taken in runs, and the game
/// after it is read whole.
#[test]
fn a_game_too_large_is_cut_the_same_when_lines_are_taken_in_runs() {
    let line = [&b"e4 {"[..], &[b'x'; 1000][..], b"}\n"].concat();
    let mut text = b"[Event \"big\"]\n\n".to_vec();
    while text.len() <= MAX_GAME_BYTES + 3 * line.len() {
        text.extend_from_slice(&line);
    }
    let next = b"[Event \"next\"]\n\n1. d4 d5 *\n";
    text.extend_from_slice(b"*\n\n");
    text.extend_from_slice(next);
    // a buffer whose edges fall anywhere in the game, not where its
    // limit does (8 MiB is a multiple of 64 KiB)
    let runs = cut_all(&text, 10_007, false);
    assert_eq!(runs, cut_all(&text, 10_007, true));
    let [big, after] = &runs.0[..] else {
        panic!("two games: {}", runs.0.len());
    };
    assert_eq!(big.oversize, Some((text.len() - next.len()) as u64));
    assert!(big.bytes.len() <= MAX_GAME_BYTES);
    assert_eq!(after.bytes, next);
}

/// The fused walk of a movetext line gives what `scan_line` and
/// `TokenReach::follow` give, one after the other, on generated lines
/// of braces, `;`, moves and line ends, from either comment state and
/// with a brace left open from an earlier line or not.
#[test]
fn a_movetext_lines_braces_are_followed_as_scan_line_and_follow_do() {
    // eight pieces, between the bars
    let pieces: Vec<&[u8]> = b"{|}|;|e4 |{d=1, pv=e4}| |}{|;{"
        .split(|&c| c == b'|')
        .collect();
    assert_eq!(pieces.len(), 8);
    let mut rng = crate::test_rng::Lcg(0x2545_F491_4F6C_DD1D);
    let mut differing_states = 0;
    for _ in 0..20_000 {
        let n = (rng.step() >> 61) as usize;
        let mut line = joined(&mut rng, &pieces, n);
        if rng.step() >> 63 == 1 {
            line.push(b'\n');
        }
        let at = (rng.step() >> 60) as usize;
        let start_comment = rng.step() >> 63 == 1;
        let mut before = TokenReach {
            longest: (rng.step() >> 62) as usize,
            line: (rng.step() >> 62) as usize,
            open: (rng.step() >> 63 == 1).then_some(0),
        };
        differing_states += usize::from(before.open.is_some() != start_comment);
        let mut fused = TokenReach { ..before };
        let (mut in_scan, mut movetext) = (start_comment, true);
        scan_line(&line, &mut in_scan, &mut movetext);
        before.follow(&line, at);
        let mut in_fused = start_comment;
        fused.follow_movetext(&line, at, &mut in_fused);
        let shown = String::from_utf8_lossy(&line);
        assert_eq!(in_fused, in_scan, "{shown:?} from {start_comment}");
        assert_eq!(
            (fused.longest, fused.line, fused.open),
            (before.longest, before.line, before.open),
            "{shown:?}"
        );
    }
    assert!(differing_states > 1000, "{differing_states}");
}

#[test]
fn unterminated_comment_does_not_swallow_the_next_game() {
    let g = games(b"[Event \"A\"]\n\n1. e4 {never closed e5 *\n\n[Event \"B\"]\n\n1. d4 d5 *\n");
    assert_eq!(g.len(), 2);
    assert!(g[0].problems.iter().any(|p| p.kind == ProblemKind::Syntax));
    assert_eq!(g[1].moves.len(), 2);
    assert_eq!(g[1].tag("Event"), Some("B"));
}

#[test]
fn a_lone_cr_ends_a_line() {
    let text = b"[Event \"cr\"]\r[Result \"*\"]\r\r1. e4 {+0.10/10 1.0s} e5\r2. Nf3 Nc6 *\r\r[Event \"next\"]\r\n[Result \"*\"]\n\n1. d4 d5 *\r";
    let g = games(text);
    assert_eq!(g.len(), 2);
    assert!(g[0].problems.is_empty(), "{:?}", g[0].problems);
    assert_eq!(g[0].moves.len(), 4);
    let s = g[0].moves[2].span.unwrap();
    assert_eq!((s.line, s.column), (5, 4));
    assert_eq!(
        &text[s.offset as usize..(s.offset + s.len) as usize],
        b"Nf3"
    );
    assert_eq!(g[1].line, 7);
    assert_eq!(g[1].moves.len(), 2);
    // a CR at the very end of the reader's buffer (13 bytes), then its
    // LF, or not
    for (text, kept) in [
        (
            &b"[Event \"ab\"]\r\n\r\n1. e4 *\r\n"[..],
            &b"[Event \"ab\"]\r\n\r\n1. e4 *\r\n"[..],
        ),
        (
            b"[Event \"ab\"]\r\r1. e4 *\r",
            b"[Event \"ab\"]\n\n1. e4 *\n",
        ),
    ] {
        let mut sp = GameSplitter::new(std::io::BufReader::with_capacity(13, text));
        let c = sp.next_chunk().unwrap().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&c.bytes),
            String::from_utf8_lossy(kept)
        );
        let g = parse_game(&c);
        assert_eq!(g.moves.len(), 1);
        assert_eq!(g.moves[0].span.unwrap().line, 3);
    }
}

#[test]
fn long_tag_value_is_read_whole() {
    let mut text = b"[Annotator \"".to_vec();
    text.extend(std::iter::repeat_n(b'x', 1 << 20));
    text.extend_from_slice(b"\"]\n\n1. e4 *\n\n[Event \"next\"]\n\n1. d4 *\n");
    let g = games(&text);
    assert_eq!(g.len(), 2);
    assert_eq!(g[0].tag("Annotator").unwrap().len(), 1 << 20);
    assert_eq!(g[1].moves.len(), 1);
}

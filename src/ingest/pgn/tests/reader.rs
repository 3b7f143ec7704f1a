//! The reader's tests: each move's comments, the lists reused from game to
//! game, PVs as spans of the game's text, spans, unparsable tokens,
//! results, variations and text that is not UTF-8.

use super::games;
use crate::ingest::pgn::visitor::OUTCOMES;
use crate::ingest::pgn::{GameSplitter, GameText, PgnGame, ProblemKind, parse_game};

/// Each move's comments are the run of the game's that follow it, in
/// order: the runs follow each other from the first comment after the
/// first move to the last, a move without comments has none, those
/// before the first move are the preamble's, and a variation's are
/// skipped with it; a game read after a game with more comments has
/// only its own.
#[test]
fn a_moves_comments_are_its_run_of_the_games() {
    let text = b"[Event \"A\"]\n\n{before} 1. e4 {one} {two} e5 $1 {three} 2. Nf3 (2. Nc3 {in a variation}) Nc6 {four} 3. Bb5 a6 {five} *\n\n[Event \"B\"]\n\n1. d4 d5 {six} *\n";
    let g = games(text);
    let texts = |g: &PgnGame, i: usize| -> Vec<String> {
        g.comments_of(&g.moves[i])
            .iter()
            .map(|c| c.annotations.text.clone())
            .collect()
    };
    assert_eq!(g[0].preamble.len(), 1);
    assert_eq!(texts(&g[0], 0), ["one", "two"]);
    assert_eq!(texts(&g[0], 1), ["three"]);
    assert!(texts(&g[0], 2).is_empty());
    assert_eq!(texts(&g[0], 3), ["four"]);
    assert!(texts(&g[0], 4).is_empty());
    assert_eq!(texts(&g[0], 5), ["five"]);
    assert!(texts(&g[1], 0).is_empty());
    assert_eq!(texts(&g[1], 1), ["six"]);
    assert_eq!(g[1].comments.len(), 1);
    // read again once the first games are dropped: on the spare list
    let first = g[0].comments.len();
    drop(g);
    let g = games(b"[Event \"B\"]\n\n1. d4 d5 {six} *\n");
    assert_eq!(texts(&g[0], 1), ["six"]);
    assert!(g[0].comments.len() == 1 && g[0].comments.capacity() >= first);
    for game in &g {
        let mut at = 0;
        for m in &game.moves {
            assert_eq!(m.comment_range.start, at);
            at = m.comment_range.end;
        }
        assert_eq!(at as usize, game.comments.len());
    }
}

/// A game's list of moves, once the game is dropped, is the next
/// game's on the same thread: emptied (the next game has its own moves
/// only) and with its room (no allocation as the next game grows).
#[test]
fn a_dropped_games_moves_are_the_next_games_list_emptied() {
    let long = games(b"[Event \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n");
    let room = long[0].moves.capacity();
    assert_eq!(long[0].moves.len(), 10);
    drop(long);
    let short = games(b"[Event \"B\"]\n\n1. d4 {a comment} d5 *\n");
    let m = &short[0].moves;
    assert_eq!(m.len(), 2);
    assert_eq!(
        (
            short[0].written_of(0).as_str(),
            short[0].written_of(1).as_str()
        ),
        ("d4", "d5")
    );
    assert_eq!(short[0].comments_of(&m[0]).len(), 1);
    assert!(short[0].comments_of(&m[1]).is_empty());
    assert!(m.capacity() >= room, "{} < {room}", m.capacity());
}

#[test]
fn a_pv_is_a_span_of_the_games_text_unless_its_comment_was_rewritten() {
    use crate::ingest::comments::PvText;
    let text = b"[Event \"e\"]\n\n1. e4 {d=20, pv=e4 e5 Nf3, wv=0.30,} e5 {[%clk 1:00:00] d=19, pv=e5 Nf3 Nc6, wv=0.20,} 2. Nf3 {d=18, [%clk 1:00:00] pv=Nf3 Nc6, wv=0.10,} Nc6 {d=18, pv=Nc6 Caf\xe9, wv=0.10,} *\n";
    let g = &games(text)[0];
    let pv = |i: usize| {
        g.comments_of(&g.moves[i])[0]
            .annotations
            .tcec()
            .and_then(|t| t.pv.clone())
            .unwrap()
    };
    // as written in the game: a span of its bytes, no copy
    assert!(matches!(pv(0), PvText::Span { .. }), "{:?}", pv(0));
    assert_eq!(&*pv(0), "e4 e5 Nf3");
    // a `[%…]` command with the text on one side of it: the text is
    // still the game's
    assert!(matches!(pv(1), PvText::Span { .. }), "{:?}", pv(1));
    assert_eq!(&*pv(1), "e5 Nf3 Nc6");
    // a command with text on both sides, and a comment decoded from
    // Latin-1: the text was rewritten, so the PV owns its copy
    assert!(matches!(pv(2), PvText::Owned(_)), "{:?}", pv(2));
    assert_eq!(&*pv(2), "Nf3 Nc6");
    assert!(matches!(pv(3), PvText::Owned(_)), "{:?}", pv(3));
    assert_eq!(&*pv(3), "Nc6 Caf\u{e9}");
    // the JSON form is the text either way
    assert_eq!(serde_json::json!(pv(0)), serde_json::json!("e4 e5 Nf3"));
    assert_eq!(pv(0), PvText::Owned("e4 e5 Nf3".into()));
}

/// A game is checked as UTF-8 once, where it is cut from the file; its
/// tags, moves, comments and PVs are then slices of its text. A game
/// that is not UTF-8 is read piece by piece as before: the same text
/// where a piece is UTF-8, Windows-1252 (reported) where it is not.
#[test]
fn a_games_text_is_checked_once_and_read_in_slices() {
    use crate::ingest::comments::PvText;
    let game = |site: &[u8], note: &[u8]| {
        let mut text = b"[Event \"Caf\xc3\xa9 \\\"Open\\\"\"]\n[Site \"".to_vec();
        text.extend_from_slice(site);
        text.extend_from_slice(b"\"]\n\n1. e4 {d=20, pv=e4 e5, wv=0.30,} e5 {");
        text.extend_from_slice(note);
        text.extend_from_slice(b"} *\n");
        let mut sp = GameSplitter::new(&text[..]);
        let chunk = sp.next_chunk().unwrap().unwrap();
        let utf8 = matches!(*chunk.bytes, GameText::Utf8(_));
        (utf8, parse_game(&chunk))
    };
    // what both readings give: the same tags, comment text and PV
    let same = |g: &PgnGame| {
        assert_eq!(g.tag("Event"), Some("Caf\u{e9} \"Open\""));
        assert_eq!(g.tag("Site"), Some("M\u{fc}nchen"));
        let notes = |i: usize| &g.comments_of(&g.moves[i])[0].annotations;
        assert_eq!(notes(1).text, "Gr\u{fc}\u{df}e \u{2654}");
        let pv = notes(0).tcec().and_then(|t| t.pv.clone()).unwrap();
        assert_eq!(&*pv, "e4 e5");
        pv
    };
    let (utf8, g) = game(
        "M\u{fc}nchen".as_bytes(),
        "Gr\u{fc}\u{df}e \u{2654}".as_bytes(),
    );
    assert!(utf8);
    assert!(matches!(same(&g), PvText::Span { .. }));
    assert!(g.problems.is_empty(), "{:?}", g.problems);
    // the same game with a Latin-1 tag: its other pieces read the same
    let (utf8, g) = game(b"M\xfcnchen", "Gr\u{fc}\u{df}e \u{2654}".as_bytes());
    assert!(!utf8);
    same(&g);
    assert_eq!(g.problems.len(), 1, "{:?}", g.problems);
    assert_eq!(g.problems[0].kind, ProblemKind::Encoding);
    assert!(
        g.problems[0].message.contains("tag Site"),
        "{}",
        g.problems[0].message
    );
}

#[test]
fn spans_point_at_the_source() {
    let text = b"[Event \"E\"]\n[White \"W\"]\n\n1. e4 {a comment} e5 2. Nf3 1-0\n\n[Event \"F\"]\n\n1. d4 *\n";
    let g = games(text);
    assert_eq!(g.len(), 2);
    assert_eq!(g[0].tags[1].span.line, 2);
    assert_eq!(g[0].tags[1].span.column, 9);
    let m = &g[0].moves;
    assert_eq!(m.len(), 3);
    let s = m[0].span.unwrap();
    assert_eq!((s.line, s.column, s.len), (4, 4, 2));
    let c = g[0].comments_of(&m[0])[0].span;
    assert_eq!(
        &text[c.offset as usize..(c.offset + c.len) as usize],
        b"{a comment}"
    );
    let s = m[2].span.unwrap();
    assert_eq!(
        &text[s.offset as usize..(s.offset + s.len) as usize],
        b"Nf3"
    );
    assert_eq!(g[1].line, 6);
    assert_eq!(g[1].moves[0].span.unwrap().line, 8);
    assert_eq!(g[0].outcome.as_ref().unwrap().0, "1-0");
    assert!(g[0].problems.is_empty());
}

#[test]
fn unknown_piece_letter_is_reported_at_its_place() {
    let g = games(b"[Event \"E\"]\n\n1. e4 e5 2. Zf3 Nc6 *\n");
    let p = &g[0].problems;
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].kind, ProblemKind::UnparsableToken);
    assert_eq!(p[0].before_move, 2);
    let s = p[0].span.unwrap();
    assert_eq!((s.line, s.column), (3, 13));
}

/// Every way of writing a result ends the movetext without a problem,
/// the other GUIs' dashes and `½` included; a token that only starts
/// like one is reported where it stands.
#[test]
fn results_in_every_form_are_not_junk_and_look_alikes_are() {
    let unparsable = |m: &str| {
        let text = format!("[Event \"E\"]\n\n1. e4 e5 {m}\n");
        let g = games(text.as_bytes());
        g[0].problems
            .iter()
            .filter(|p| p.kind == ProblemKind::UnparsableToken)
            .count()
    };
    for m in OUTCOMES
        .iter()
        .map(|m| std::str::from_utf8(m).unwrap())
        .chain(["*"])
    {
        assert_eq!(unparsable(m), 0, "{m}");
    }
    for m in ["1x0", "0-", "½", "1/2", "01-"] {
        assert_eq!(unparsable(m), 1, "{m}");
    }
}

#[test]
fn variations_are_counted_and_skipped() {
    let g = games(b"1. e4 (1. d4 d5 (1... Nf6)) e5 (1... c5 {x}) 2. Nf3 *\n");
    assert_eq!(g[0].variations, 3);
    assert_eq!(g[0].moves.len(), 3);
    assert!(g[0].problems.is_empty(), "{:?}", g[0].problems);
}

#[test]
fn latin1_is_decoded_and_reported() {
    let g = games(b"[White \"M\xfcller\"]\n\n1. e4 *\n");
    assert_eq!(g[0].tag("White"), Some("M\u{fc}ller"));
    assert_eq!(g[0].problems[0].kind, ProblemKind::Encoding);
}

#[test]
fn windows_1252_and_a_joined_files_byte_order_mark() {
    let g = games(
        b"[Event \"a\x85\x80\"]\r\n\r\n1. e4 *\r\n\r\n\xEF\xBB\xBF[Event \"b\"]\n\n1. d4 *\n",
    );
    assert_eq!(g.len(), 2);
    assert_eq!(g[0].tag("Event"), Some("a\u{2026}\u{20AC}"));
    assert_eq!(g[0].problems[0].kind, ProblemKind::Encoding);
    assert_eq!(g[1].tag("Event"), Some("b"));
    assert_eq!(g[1].moves.len(), 1);
    assert!(g[1].problems.is_empty(), "{:?}", g[1].problems);
}

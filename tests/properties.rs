//! The parsers' invariants as property tests (`proptest`), run on the
//! fuzz targets' seeds (`fuzz/seeds/TARGET`) mutated, a few bytes at a time
//! (bytes deleted, repeated, inserted), and on arbitrary text. Each
//! property runs what its fuzz target runs (`fuzz/fuzz_targets`, whose
//! shared code is used here as is), and checks besides:
//!
//! - no parser panics, whatever its input;
//! - every error's and event's place lies inside the input, its line and
//!   column agreeing with its byte offset;
//! - the rule language's diagnostic names that same place (`file:line:col`);
//! - the lexer's tokens and the gaps between them (blanks and comments)
//!   cover the source, in order;
//! - a PGN move's span holds the move as written, and a legal game written
//!   in SAN reads back as the same moves;
//! - a ruleset of a hostile shape (`fuzz_targets/shapes.rs`: chains of
//!   every binary operator up to 20,000 long, nesting of every kind past
//!   its limit) is compiled and evaluated within the test thread's 2 MiB
//!   stack, or refused at a place inside it.

use std::path::Path;
use std::sync::OnceLock;

use proptest::prelude::*;

#[path = "../fuzz/fuzz_targets/common.rs"]
#[allow(dead_code)]
mod common;
#[path = "../fuzz/fuzz_targets/shapes.rs"]
#[allow(dead_code)]
mod shapes;

/// The seeds of one fuzz target, sorted by name.
fn seeds(target: &str) -> &'static [Vec<u8>] {
    static SEEDS: OnceLock<Vec<(String, Vec<Vec<u8>>)>> = OnceLock::new();
    let all = SEEDS.get_or_init(|| {
        ["rules", "pgn", "engine_log", "operator_log"]
            .iter()
            .map(|t| {
                let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("fuzz/seeds")
                    .join(t);
                let mut files: Vec<_> = std::fs::read_dir(&dir)
                    .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                    .map(|e| e.unwrap().path())
                    .collect();
                files.sort();
                let bytes = files.iter().map(|p| std::fs::read(p).unwrap()).collect();
                (t.to_string(), bytes)
            })
            .collect()
    });
    let (_, s) = all.iter().find(|(t, _)| t == target).unwrap();
    assert!(!s.is_empty(), "fuzz/seeds/{target} holds seeds");
    s
}

/// Bytes a mutation writes: the languages' punctuation, blanks, line
/// endings, digits, a letter, control characters and UTF-8 lead bytes.
const BYTES: &[u8] = b"{}()[]\"'=.,:;-+#*/<>!@\\ \t\r\n0159xZ\x00\x1b\x7f\xc3\xa9\xe2\xff";

/// A seed of `target` with up to 8 mutations.
fn mutated(target: &'static str) -> impl Strategy<Value = Vec<u8>> {
    let n = seeds(target).len();
    (
        0..n,
        prop::collection::vec((any::<u32>(), 0u8..3, prop::sample::select(BYTES)), 0..8),
    )
        .prop_map(move |(i, edits)| {
            let mut b = seeds(target)[i].clone();
            for (at, op, byte) in edits {
                let at = at as usize % (b.len() + 1);
                match op {
                    0 if at < b.len() => {
                        b.remove(at);
                    }
                    1 if at < b.len() => b.insert(at, b[at]),
                    _ => b.insert(at, byte),
                }
            }
            b
        })
}

/// Arbitrary text, any characters.
fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(any::<char>(), 0..200).prop_map(String::from_iter)
}

/// The 1-based line and column (in characters) of byte `offset`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    (
        1 + before.matches('\n').count(),
        1 + before[line_start..].chars().count(),
    )
}

/// The rule language (`fuzz_targets/rules.rs`): compiled, an error
/// rendered at its place, a ruleset that compiles evaluated on a game.
fn check_rules(text: &str) -> Result<(), TestCaseError> {
    match arbiter::rules::compile("p.rules", text) {
        Ok(rs) => {
            let config = arbiter::pipeline::Config {
                ruleset: Some(std::sync::Arc::new(rs)),
                clocks: true,
                ..Default::default()
            };
            common::audit(vec![common::game()], &config);
        }
        Err(e) => {
            let p = e.pos;
            prop_assert!(
                p.offset <= text.len() && text.is_char_boundary(p.offset),
                "{p:?} outside {} bytes",
                text.len()
            );
            prop_assert_eq!((p.line, p.column), line_col(text, p.offset), "{}", e);
            let r = e.render("p.rules", text);
            let at = format!("--> p.rules:{}:{}\n", p.line, p.column);
            prop_assert!(r.contains(&at), "{at:?} not in\n{r}");
            prop_assert!(r.starts_with("error: "), "{r}");
        }
    }
    Ok(())
}

/// The lexer's tokens in order, each where its line and column say, and
/// between them only blanks and `#` comments.
fn check_tokens(text: &str) -> Result<(), TestCaseError> {
    let Ok(tokens) = arbiter::rules::syntax::lexer::lex(text) else {
        return Ok(());
    };
    let mut end = 0;
    for t in &tokens {
        let p = t.pos;
        prop_assert!(p.offset >= end, "{t:?} overlaps the token before");
        prop_assert!(p.offset + p.len <= text.len(), "{t:?} past the end");
        prop_assert_eq!((p.line, p.column), line_col(text, p.offset));
        for line in text[end..p.offset].split('\n') {
            let code = line.split('#').next().unwrap_or("");
            prop_assert!(
                code.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r')),
                "{:?} between tokens",
                code
            );
        }
        end = p.offset + p.len;
    }
    prop_assert_eq!(end, text.len(), "the tokens end at the end");
    let last = tokens.last().map(|t| &t.tok);
    prop_assert_eq!(last, Some(&arbiter::rules::syntax::lexer::Tok::Eof));
    Ok(())
}

/// A span inside `text`, its line and column those of its offset (the
/// logs' columns count bytes).
fn check_span(text: &str, s: arbiter::base::span::Span) -> Result<(), TestCaseError> {
    let (offset, len) = (s.offset as usize, s.len as usize);
    prop_assert!(
        offset + len <= text.len(),
        "{s:?} past {} bytes",
        text.len()
    );
    let before = &text.as_bytes()[..offset];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    prop_assert_eq!(
        (s.line as usize, s.column as usize),
        (line, 1 + offset - line_start)
    );
    Ok(())
}

/// The operator log (`fuzz_targets/operator_log.rs`).
fn check_operator_log(text: &str) -> Result<(), TestCaseError> {
    let log = arbiter::ingest::operator::parse(text);
    let lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim().starts_with('#'))
        .count();
    prop_assert!(log.events.len() + log.errors.len() <= lines);
    for e in &log.errors {
        check_span(text, e.span)?;
    }
    for e in &log.events {
        check_span(text, e.span)?;
    }
    let config = arbiter::pipeline::Config {
        ruleset: Some(common::ruleset()),
        operator_logs: vec![arbiter::ingest::logs::LoadedLog {
            path: "p.log".into(),
            sha256: String::new(),
            log,
            round: None,
        }],
        clocks: true,
        ..Default::default()
    };
    common::audit(vec![common::game()], &config);
    Ok(())
}

/// The engine log (`fuzz_targets/engine_log.rs`).
fn check_engine_log(text: &str) -> Result<(), TestCaseError> {
    let log = arbiter::ingest::engine::parse(text);
    for e in &log.errors {
        check_span(text, e.span)?;
    }
    for b in &log.backwards {
        check_span(text, b.span)?;
    }
    let config = arbiter::pipeline::Config {
        ruleset: Some(common::ruleset()),
        engine_logs: vec![arbiter::ingest::logs::LoadedEngineLog {
            path: "p.log".into(),
            sha256: String::new(),
            log,
            part: None,
        }],
        clocks: true,
        ..Default::default()
    };
    common::audit(vec![common::game()], &config);
    Ok(())
}

/// PGN (`fuzz_targets/pgn.rs`): every move's span holds it as written,
/// every problem's span lies inside the file.
fn check_pgn(bytes: &[u8]) -> Result<(), TestCaseError> {
    std::hint::black_box(arbiter::ingest::comments::parse_comment(
        &String::from_utf8_lossy(bytes),
    ));
    let games = common::games(bytes);
    for g in &games {
        prop_assert!(g.offset as usize <= bytes.len());
        for (i, m) in g.moves.iter().enumerate() {
            if let Some(s) = m.span {
                let at = bytes.get(s.offset as usize..(s.offset + s.len) as usize);
                let written = g.written_of(i);
                prop_assert_eq!(at, Some(written.as_bytes()), "{:?}", s);
            }
        }
        for p in &g.problems {
            if let Some(s) = p.span {
                prop_assert!(s.offset + s.len <= bytes.len() as u64, "{p:?}");
            }
        }
    }
    let config = arbiter::pipeline::Config {
        ruleset: Some(common::ruleset()),
        clocks: true,
        ..Default::default()
    };
    common::audit(games, &config);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn rules_from_seeds(b in mutated("rules")) {
        let text = String::from_utf8_lossy(&b);
        check_rules(&text)?;
        check_tokens(&text)?;
    }

    #[test]
    fn rules_from_any_text(text in text()) {
        check_rules(&text)?;
        check_tokens(&text)?;
    }

    /// Arbitrary text after a ruleset's header, so that it reaches the
    /// parser and the analyzer.
    #[test]
    fn rules_after_a_header(text in text()) {
        let text = format!("ruleset t \"T\" {{ regulation \"r\" }}\n{text}");
        check_rules(&text)?;
        check_tokens(&text)?;
    }

    #[test]
    fn operator_logs_from_seeds(b in mutated("operator_log")) {
        // the reader refuses a log that is not UTF-8 before parsing
        if let Ok(text) = std::str::from_utf8(&b) {
            check_operator_log(text)?;
        }
    }

    #[test]
    fn operator_logs_from_any_text(text in text()) {
        check_operator_log(&text)?;
    }

    #[test]
    fn engine_logs_from_seeds(b in mutated("engine_log")) {
        check_engine_log(&String::from_utf8_lossy(&b))?;
    }

    #[test]
    fn engine_logs_from_any_text(text in text()) {
        check_engine_log(&text)?;
    }

    #[test]
    fn pgn_from_seeds(b in mutated("pgn")) {
        check_pgn(&b)?;
    }

    #[test]
    fn pgn_from_any_text(text in text()) {
        check_pgn(text.as_bytes())?;
    }

    /// A legal game of up to 60 plies, chosen by `picks`, written in SAN
    /// with move numbers, reads back as the same moves.
    #[test]
    fn san_round_trip(picks in prop::collection::vec(any::<u16>(), 0..60)) {
        use shakmaty::{Chess, Position, san::SanPlus};
        let mut pos = Chess::default();
        let mut text = String::from("[Event \"p\"]\n[Result \"*\"]\n\n");
        let mut written = Vec::new();
        for (ply, pick) in picks.iter().enumerate() {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[*pick as usize % legal.len()];
            let san = SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string();
            if ply % 2 == 0 {
                text.push_str(&format!("{}. ", ply / 2 + 1));
            }
            text.push_str(&san);
            text.push(' ');
            written.push(san);
        }
        text.push_str("*\n");
        let games = common::games(text.as_bytes());
        prop_assert_eq!(games.len(), 1);
        let read: Vec<String> = games[0].moves.iter().map(|m| m.san.to_string()).collect();
        prop_assert_eq!(&read, &written);
        prop_assert!(games[0].problems.is_empty(), "{:?}", games[0].problems);
    }
}

/// A layer's count: short, about the nesting limit (32), about the height
/// limit (128), or long (up to 20,000).
fn count() -> impl Strategy<Value = usize> {
    prop_oneof![0usize..8, 28usize..36, 120usize..136, 1usize..20_000]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Up to 5 layers of chains and nesting, each of any kind.
    #[test]
    fn rules_of_hostile_shapes(
        layers in prop::collection::vec((0..shapes::KINDS, count()), 1..6)
    ) {
        check_rules(&shapes::ruleset(&layers))?;
    }
}

/// Each kind of layer alone, at the counts about each limit and at 20,000:
/// once, it compiles (and is evaluated); 20,000 times, it is refused
/// (past a limit), but for `in`'s list of 20,000 items.
#[test]
fn every_shape_at_its_limits() {
    for kind in 0..shapes::KINDS {
        for n in [1, 31, 32, 33, 126, 127, 128, 129, 20_000] {
            let text = shapes::ruleset(&[(kind, n)]);
            if let Err(e) = check_rules(&text) {
                panic!("kind {kind}, {n} times: {e}\n{text}");
            }
            let compiled = arbiter::rules::compile("p.rules", &text);
            match n {
                1 => assert!(compiled.is_ok(), "kind {kind}: {:?}", compiled.err()),
                // but a list of 20,000 items (`in`, kind 12) is no deeper
                20_000 if kind != 12 => {
                    assert!(compiled.is_err(), "kind {kind}, {n} times");
                }
                _ => {}
            }
        }
    }
}

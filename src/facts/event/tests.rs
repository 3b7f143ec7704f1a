//! The event level's tests: rounds and names, an item's fields, a game's
//! tags read again, and the pairs' and entrants' items against a direct
//! count over every game.

use super::case::case;
use super::item::num;
use super::*;
use crate::base::value::Value;
use crate::timeline::ScopeKind;

/// Rounds in their natural order: each part a number, a longer round
/// after its prefix, a part that is not a number after every number.
#[test]
fn rounds_are_ordered_part_by_part() {
    use std::cmp::Ordering::{Equal, Greater, Less};
    for (a, b, want) in [
        ("3.9", "3.10", Less),
        ("10.1", "9.2", Greater),
        ("3", "3.1", Less),
        ("3.1", "3.1", Equal),
        (" 3 . 2", "3.2", Equal),
        ("3.x", "3.99", Greater),
        ("3.x", "3.y", Equal),
        ("", "1", Greater),
    ] {
        assert_eq!(natural(a).cmp(&natural(b)), want, "{a:?} against {b:?}");
    }
}

#[test]
fn engine_names_drop_version_words() {
    assert_eq!(engine_of("AllieStein v0.3dev-n4"), "AllieStein");
    assert_eq!(engine_of("Rodent III 0.276"), "Rodent III");
    assert_eq!(engine_of("The Baron 3.44.1"), "The Baron");
    assert_eq!(engine_of("Stockfish 10_dev"), "Stockfish");
    assert_eq!(engine_of("Deep Blue"), "Deep Blue");
    assert_eq!(engine_of("2.0"), "2.0");
    assert_eq!(engine_of(""), "");
}

#[test]
fn versions_share_an_entrant_name() {
    let m = entrant_names(["A v1", "B 2", "A v2", " A v1 ", "a v3", "B 2"].into_iter());
    assert_eq!(m.len(), 4, "{m:?}");
    // in the order the names first came
    assert_eq!(m["A v1"], "A v1 / A v2 / a v3");
    assert_eq!(m["A v2"], "A v1 / A v2 / a v3");
    assert_eq!(m["a v3"], "A v1 / A v2 / a v3");
    assert_eq!(m["B 2"], "B 2");
}

/// An item's fields are read by name in the names' order, and a name
/// given twice keeps its last value, whatever the order they came in.
#[test]
fn fields_are_sorted_and_a_later_value_replaces_an_earlier() {
    let mut f = Fields::default();
    for (k, v) in [
        ("white", 1.0),
        ("black", 2.0),
        ("round", 3.0),
        ("black", 4.0),
        ("a", 5.0),
        ("black", 6.0),
    ] {
        f.insert(k, num(v));
    }
    let f = f.done();
    let names: Vec<&str> = f.0.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["a", "black", "round", "white"]);
    for (k, v) in [("a", 5.0), ("black", 6.0), ("round", 3.0), ("white", 1.0)] {
        assert!(
            matches!(f.get(k), Some(Value::Num(x)) if *x == v),
            "{k}: {:?}",
            f.get(k)
        );
    }
    assert!(f.get("b").is_none());
}

#[test]
fn rounds_are_numbered_before_the_dot() {
    assert_eq!(round_number("3.1"), Some(3.0));
    assert_eq!(round_number("12"), Some(12.0));
    assert_eq!(round_number("?"), None);
}

/// A game keeps the event tags it has (empty for those it lacks), and
/// its whole header is read again from its file, with the same tags
/// the first reading found.
#[test]
fn a_game_keeps_its_event_tags_and_reads_its_header_again() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("two.pgn");
    let text = "[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n\
                [Event \" E \"]\n[Round \"2.1\"]\n[WhiteElo \"3400\"]\n[Variant \"x\"]\n[White \"B\"]\n\n1. d4 *\n";
    std::fs::write(&p, text).unwrap();
    let file = p.display().to_string();
    let mut splitter = crate::ingest::pgn::GameSplitter::new(std::io::BufReader::new(
        std::fs::File::open(&p).unwrap(),
    ));
    let mut infos = Vec::new();
    let mut games = Vec::new();
    while let Some(chunk) = splitter.next_chunk().unwrap() {
        let g = crate::ingest::pgn::parse_game(&chunk);
        infos.push(GameInfo::from_game(&file, infos.len(), &g));
        games.push(g);
    }
    let [a, b] = infos.as_slice() else {
        panic!("{infos:?}")
    };
    assert_eq!(
        EVENT_TAGS.map(|t| a.tag(t)),
        ["E", "", "", "A", "B", "1-0", "", "", ""]
    );
    assert_eq!(
        EVENT_TAGS.map(|t| b.tag(t)),
        ["E", "", "2.1", "B", "", "", "3400", "", ""]
    );
    for (info, game) in infos.iter().zip(&games) {
        let h = info.header().unwrap();
        assert_eq!(h.tags, game.tags);
        assert_eq!((h.line, h.index), (game.line, game.index));
    }
    assert_eq!(b.header().unwrap().tag("Variant"), Some("x"));
    // the file changed under it: said, not a panic
    std::fs::write(&p, "").unwrap();
    let e = b.header().unwrap_err().to_string();
    assert!(
        e.contains("two.pgn") && e.contains("the file changed"),
        "{e}"
    );
}

/// The pairs' and the entrants' items, counted in one pass over the
/// games, give what a direct count over every game gives for each pair
/// and entrant: on generated events where some pairs never meet and
/// others meet often, an engine plays under two names, a side is a bye,
/// and some games are unfinished.
#[test]
fn pairs_and_entrants_are_what_every_game_gives() {
    let names = ["A 1", "A 2", "B", "C", "D", "E", "bye"];
    let results = ["1-0", "0-1", "1/2-1/2", "*"];
    let mut rng = crate::test_rng::Lcg(15);
    for round in 0..40 {
        let n = 1 + rng.below(30);
        let mut text = String::new();
        for i in 0..n {
            let w = names[rng.below(names.len())];
            let b = names[rng.below(names.len())];
            let r = results[rng.below(results.len())];
            text.push_str(&format!(
                "[Event \"E\"]\n[Round \"{}\"]\n[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"{r}\"]\n\n{r}\n\n",
                i / 3 + 1
            ));
        }
        let mut splitter = crate::ingest::pgn::GameSplitter::new(text.as_bytes());
        let mut games = Vec::new();
        while let Some(chunk) = splitter.next_chunk().unwrap() {
            let g = crate::ingest::pgn::parse_game(&chunk);
            games.push(GameInfo::from_game("e.pgn", games.len(), &g));
        }
        let scoring = [("win".to_string(), 1.0), ("draw".to_string(), 0.5)];
        let c = case("E".into(), games, &[], &scoring, &[]);
        let num = |it: &Item, k: &str| match it.fields.get(k) {
            Some(Value::Num(x)) => *x,
            other => panic!("{k}: {other:?}"),
        };
        let text_of = |it: &Item, k: &str| match it.fields.get(k) {
            Some(v) => v.display(),
            None => panic!("{k}"),
        };
        let points = |r: &str| match r {
            "1-0" => Some((1.0, 0.0)),
            "0-1" => Some((0.0, 1.0)),
            "1/2-1/2" => Some((0.5, 0.5)),
            _ => None,
        };
        let mut pairs = 0;
        for it in c.items.iter().filter(|i| i.kind == ScopeKind::Pairing) {
            pairs += 1;
            let (a, b) = (text_of(it, "first"), text_of(it, "second"));
            let (mut n, mut aw, mut bw, mut ap, mut bp) = (0.0, 0.0, 0.0, 0.0, 0.0);
            let mut first = None;
            for (i, (w, bl)) in c.sides.iter().enumerate() {
                let a_white = *w == a && *bl == b;
                if !(a_white || (*w == b && *bl == a)) {
                    continue;
                }
                n += 1.0;
                first.get_or_insert(i);
                *(if a_white { &mut aw } else { &mut bw }) += 1.0;
                if let Some((sw, sb)) = points(c.games[i].tag("Result")) {
                    let (x, y) = if a_white { (sw, sb) } else { (sb, sw) };
                    ap += x;
                    bp += y;
                }
            }
            let got = [
                "games",
                "first_white",
                "second_white",
                "first_points",
                "second_points",
            ]
            .map(|k| num(it, k));
            assert_eq!(got, [n, aw, bw, ap, bp], "round {round}: {a} and {b}");
            let place = &it.evidence[0];
            match first {
                Some(i) => assert_eq!(place.span.map(|s| s.line), Some(c.games[i].line)),
                None => assert!(place.note.contains("have no game"), "{place:?}"),
            }
        }
        let entrants: Vec<&Item> = c
            .items
            .iter()
            .filter(|i| i.kind == ScopeKind::Entrant)
            .collect();
        assert_eq!(pairs, entrants.len() * entrants.len().saturating_sub(1) / 2);
        for it in entrants {
            let who = text_of(it, "name");
            let mut versions: Vec<(String, usize)> = Vec::new();
            let mut first = None;
            for (i, g) in c.games.iter().enumerate() {
                for (n, s) in [
                    (g.tag("White"), &c.sides[i].0),
                    (g.tag("Black"), &c.sides[i].1),
                ] {
                    if *s == who {
                        first.get_or_insert(i);
                        if !versions.iter().any(|(x, _)| x == n) {
                            versions.push((n.to_string(), i + 1));
                        }
                    }
                }
            }
            assert_eq!(num(it, "versions"), versions.len() as f64, "{who}");
            let list: Vec<String> = versions
                .iter()
                .map(|(n, at)| format!("{n} (from game {at})"))
                .collect();
            assert_eq!(text_of(it, "version_list"), list.join(", "), "{who}");
            let lines: Vec<Option<u64>> =
                it.evidence.iter().map(|e| e.span.map(|s| s.line)).collect();
            let want: Vec<Option<u64>> = first
                .into_iter()
                .chain(versions.iter().skip(1).map(|(_, at)| at - 1))
                .map(|i| Some(c.games[i].line))
                .collect();
            assert_eq!(lines, want, "{who}");
        }
    }
}

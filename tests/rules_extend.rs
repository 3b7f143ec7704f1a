//! `ruleset ID "TITLE" extends "FILE"`: a ruleset that says only what
//! changes from another. Replaced, dropped and new declarations, each
//! finding pointing at the file its rule is written in, both files hashed,
//! and a broken chain refused at its place.

use std::path::Path;

use super::{arbiter, codes, json_lines};

const BASE: &str = "ruleset base \"Base\" {\n  regulation \"r\"\n}\nconst limit = 2\nlet late on move = move.ply > limit\nrule base.late \"Late\" {\n  cite \"1\" \"No move after ply limit.\"\n  forbid on move when late\n}\nrule base.black \"Black\" {\n  cite \"2\" \"Black must not move.\"\n  forbid on move when move.side == black\n}\n";

/// Replaces `late` with a `let` that reads a constant the child adds after
/// it, drops `base.black`, adds `child.first`.
const CHILD: &str = "ruleset child \"Child\" extends \"base.rules\" {\n}\nlet late on move = move.ply > limit + shift\nconst shift = 1\ndrop rule base.black\nrule child.first \"First\" {\n  cite \"3\" \"No first move.\"\n  forbid on move when move.ply == 1\n}\n";

const GAME: &str = "[Event \"E\"]\n[Site \"?\"]\n[Date \"2026.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn audit(dir: &Path, rules: &str) -> Vec<serde_json::Value> {
    let o = arbiter(&[
        "audit",
        s(&dir.join("g.pgn")),
        "--rules",
        s(&dir.join(rules)),
        "--format",
        "json",
    ]);
    json_lines(&o)
}

fn setup(dir: &Path) {
    std::fs::write(dir.join("base.rules"), BASE).unwrap();
    std::fs::write(dir.join("child.rules"), CHILD).unwrap();
    std::fs::write(dir.join("g.pgn"), GAME).unwrap();
}

/// What the child changes, and only that, is judged: its own `late`, no
/// `base.black`, its new rule; a base rule's finding cites the base file.
#[test]
fn a_ruleset_that_extends_another_changes_only_what_it_says() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let base = audit(dir.path(), "base.rules");
    let mut got = codes(&base[0]);
    got.sort();
    assert_eq!(got, ["base.black", "base.black", "base.late", "base.late"]);
    let child = audit(dir.path(), "child.rules");
    assert_eq!(codes(&child[0]), ["child.first", "base.late"]);
    let findings = child[0]["findings"].as_array().unwrap();
    let cited = |f: &serde_json::Value| {
        let ev = f["evidence"].as_array().unwrap();
        let last = ev.last().unwrap();
        format!(
            "{}:{}",
            Path::new(last["path"].as_str().unwrap())
                .file_name()
                .unwrap()
                .to_str()
                .unwrap(),
            last["span"]["line"]
        )
    };
    // the base's rule, at its line of base.rules; the child's, of its file
    assert_eq!(cited(&findings[1]), "base.rules:7");
    assert_eq!(cited(&findings[0]), "child.rules:7");
    // fired at ply 4 only: limit + shift
    assert_eq!(findings[1]["evidence"][0]["ply"], 4);
    let summary = child.last().unwrap();
    let hashed: Vec<&str> = summary["logs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["kind"] == "ruleset")
        .map(|l| l["path"].as_str().unwrap())
        .collect();
    assert_eq!(hashed.len(), 2, "{hashed:?}");
    assert!(hashed[1].ends_with("base.rules"), "{hashed:?}");
}

/// A shipped ruleset is extended by its name; `rules check` reads the
/// chain.
#[test]
fn a_shipped_ruleset_is_extended_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("s16.rules");
    std::fs::write(
        &f,
        "ruleset s16 \"S16\" extends \"tcec-s15\" {\n  regulation \"r\"\n}\nconst max_threads = 176\ndrop rule tcec.hidden-book\n",
    )
    .unwrap();
    let o = arbiter(&["rules", "check", s(&f)]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let full = arbiter(&["rules", "check", "rulesets/tcec-s15.rules"]);
    let rules = |s: &str| {
        s.split(", ")
            .find_map(|p| {
                p.strip_suffix(" checked")
                    .and_then(|p| p.rsplit('(').next())
            })
            .map(str::to_string)
    };
    let (mine, theirs) = (
        rules(&out).unwrap(),
        rules(&String::from_utf8_lossy(&full.stdout)).unwrap(),
    );
    assert_eq!(
        mine.parse::<u32>().unwrap() + 1,
        theirs.parse::<u32>().unwrap(),
        "{out}"
    );
}

/// A chain that breaks is refused with the place: a cycle, a missing
/// file, an error in the base (at the base's line), a rule to drop that
/// the base lacks, `drop rule` without `extends`.
#[test]
fn a_broken_chain_is_refused_at_its_place() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let d = dir.path();
    let fails = |rules: &str, want: &[&str]| {
        let o = arbiter(&["rules", "check", s(&d.join(rules))]);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(2), "{rules}: {err}");
        for w in want {
            assert!(err.contains(w), "{rules}: no {w:?} in {err}");
        }
    };
    std::fs::write(
        d.join("a.rules"),
        "ruleset a \"A\" extends \"b.rules\" {\n}\n",
    )
    .unwrap();
    std::fs::write(
        d.join("b.rules"),
        "ruleset b \"B\" extends \"a.rules\" {\n}\n",
    )
    .unwrap();
    fails("a.rules", &["cycle", "a.rules"]);
    std::fs::write(
        d.join("m.rules"),
        "ruleset m \"M\" extends \"nope.rules\" {\n}\n",
    )
    .unwrap();
    fails("m.rules", &["m.rules:1", "nope.rules"]);
    std::fs::write(
        d.join("bad.rules"),
        BASE.replace("move.ply > limit", "move.plyy > limit"),
    )
    .unwrap();
    std::fs::write(
        d.join("c.rules"),
        "ruleset c \"C\" extends \"bad.rules\" {\n}\n",
    )
    .unwrap();
    fails("c.rules", &["bad.rules:5", "plyy"]);
    std::fs::write(
        d.join("drop.rules"),
        "ruleset d \"D\" extends \"base.rules\" {\n}\ndrop rule base.nope\n",
    )
    .unwrap();
    fails("drop.rules", &["drop.rules:3", "no such rule"]);
    std::fs::write(
        d.join("lone.rules"),
        "ruleset l \"L\" {\n  regulation \"r\"\n}\ndrop rule base.late\n",
    )
    .unwrap();
    fails("lone.rules", &["lone.rules:4", "extends"]);
    // a chain longer than the limit
    for k in 0..9 {
        std::fs::write(
            d.join(format!("c{k}.rules")),
            format!("ruleset c{k} \"C\" extends \"c{}.rules\" {{\n}}\n", k + 1),
        )
        .unwrap();
    }
    std::fs::write(d.join("c9.rules"), BASE).unwrap();
    fails("c0.rules", &["at most 8 files"]);
}

/// A case folder's ruleset extends only files inside the folder, or a
/// shipped ruleset.
#[test]
fn a_case_folders_ruleset_extends_only_inside_it() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let case = dir.path().join("case");
    std::fs::create_dir(&case).unwrap();
    std::fs::write(case.join("game.pgn"), GAME).unwrap();
    std::fs::write(
        case.join("r.rules"),
        "ruleset r \"R\" extends \"../base.rules\" {\n}\n",
    )
    .unwrap();
    std::fs::write(
        case.join("case.json"),
        "{\"game\": \"game.pgn\", \"ruleset\": \"r.rules\"}\n",
    )
    .unwrap();
    let o = arbiter(&["audit", s(&case)]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("not inside the case folder"), "{err}");
    std::fs::write(
        case.join("r.rules"),
        "ruleset r \"R\" extends \"icga-2008\" {\n}\n",
    )
    .unwrap();
    let o = arbiter(&["audit", s(&case), "--format", "json"]);
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

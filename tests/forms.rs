//! Every archive of the field: each GUI's comment form (and TCEC's early
//! one) is typed into the same values, checked here against the source
//! text itself. The test reads each fixture of `tests/fixtures/forms/` with
//! its own regular expressions, works out for every move what the comment
//! says (eval from White's view, depth, move time, clock), and asserts that
//! `arbiter replay --json` typed exactly that. Fischer Random games replay
//! with castling on both wings, a Chess960 start given by its FEN alone is
//! said and replayed, and an unreplayable game in the middle of a batch is
//! reported with why while the batch goes on.

use std::path::{Path, PathBuf};

use regex::Regex;
use serde_json::{Value, json};

use super::{arbiter, codes, files_with, json_lines};

fn forms_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/forms")
}

/// `+0.35`, `-1.2`, `0.27` → centipawns, read digit by digit.
fn centipawns(s: &str) -> i64 {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    assert!(frac.len() <= 2, "{s}");
    let frac = format!("{frac:0<2}");
    let v = int.parse::<i64>().unwrap() * 100 + frac.parse::<i64>().unwrap();
    if neg { -v } else { v }
}

/// A score as written (`+0.35`, `-M5`, `+M1`, `M+5`, `#-3`), as the JSON
/// arbiter writes for it: `{"cp":N}` or `{"mate":N}`.
fn score(s: &str) -> Value {
    let mate = re(r"^([+-]?)(?:M|#)([+-]?)(\d+)$");
    match mate.captures(s) {
        Some(c) => {
            let n: i64 = c[3].parse().unwrap();
            let neg = (&c[1] == "-") != (&c[2] == "-");
            json!({ "mate": if neg { -n } else { n } })
        }
        None => json!({ "cp": centipawns(s) }),
    }
}

fn negate(v: &Value) -> Value {
    match (v.get("cp"), v.get("mate")) {
        (Some(cp), _) => json!({ "cp": -cp.as_i64().unwrap() }),
        (_, Some(m)) => json!({ "mate": -m.as_i64().unwrap() }),
        _ => panic!("not a score: {v}"),
    }
}

/// `12`, `1.5`, `0.125` seconds → ms.
fn seconds_ms(s: &str) -> i64 {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    assert!(frac.len() <= 3, "{s}");
    int.parse::<i64>().unwrap() * 1000 + format!("{frac:0<3}").parse::<i64>().unwrap()
}

/// `1:02:03` or `00:02:46` → ms.
fn hms_ms(s: &str) -> i64 {
    s.split(':')
        .fold(0i64, |acc, p| acc * 60 + p.parse::<i64>().unwrap())
        * 1000
}

/// The regular expression of `pattern`, compiled once (the tests read
/// tens of thousands of comments).
fn re(pattern: &str) -> Regex {
    static CACHE: std::sync::Mutex<Vec<(String, Regex)>> = std::sync::Mutex::new(Vec::new());
    let mut cache = CACHE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, r)) = cache.iter().find(|(p, _)| p == pattern) {
        return r.clone();
    }
    let r = Regex::new(pattern).unwrap();
    cache.push((pattern.to_string(), r.clone()));
    r
}

/// What one move's comment says, worked out from its text.
#[derive(Debug, Default, PartialEq)]
struct Said {
    eval: Option<Value>,
    depth: Option<i64>,
    move_time_ms: Option<i64>,
    clock_ms: Option<i64>,
}

/// The values a comment gives, `white` when White made the move.
fn said(comment: &str, white: bool) -> Said {
    let body = comment.trim_start_matches('{').trim_end_matches('}').trim();
    let mut out = Said::default();
    // lichess export: [%eval] from White's view, [%clk H:MM:SS]
    let eval = re(r"\[%eval ([^\],]+)(?:,(\d+))?\]");
    let clk = re(r"\[%clk ([0-9:]+)\]");
    if let Some(c) = eval.captures(body) {
        out.eval = Some(score(&c[1]));
        out.depth = c.get(2).map(|d| d.as_str().parse().unwrap());
    }
    if let Some(c) = clk.captures(body) {
        out.clock_ms = Some(hms_ms(&c[1]));
    }
    if body.starts_with("[%") {
        return out;
    }
    // TCEC: key=value items; wv from White's view, mt/tl in ms or H:MM:SS
    if re(r"^(book|d=)").is_match(body) {
        let key = |k: &str| {
            re(&format!(r"(?:^|, ){k}=([^,]+)"))
                .captures(body)
                .map(|c| c[1].to_string())
        };
        let ms = |v: String| {
            if v.contains(':') {
                hms_ms(&v)
            } else {
                v.parse().unwrap()
            }
        };
        out.eval = key("wv").map(|v| score(&v));
        out.depth = key("d").map(|v| v.parse().unwrap());
        out.move_time_ms = key("mt").map(ms);
        out.clock_ms = key("tl").map(ms);
        return out;
    }
    // c-chess-cli: score/depth timems, the score in centipawns (or `M5`,
    // `-M3`: a mate in moves) from the mover's view, the time in ms
    let c_chess_cli = re(r"^(-?M?\d+)/(\d+) (\d+)ms$");
    if let Some(c) = c_chess_cli.captures(body) {
        let s = if c[1].contains('M') {
            score(&c[1])
        } else {
            json!({ "cp": c[1].parse::<i64>().unwrap() })
        };
        out.eval = Some(if white { s } else { negate(&s) });
        out.depth = Some(c[2].parse().unwrap());
        out.move_time_ms = Some(c[3].parse().unwrap());
        return out;
    }
    // OpenBench's cutechess-ob: score depth/seldepth ms nodes, the score
    // from the mover's view
    let ob = re(r"^([+-]?M?\d+(?:\.\d+)?) (\d+)/\d+ (\d+) \d+(?:,|$)");
    if let Some(c) = ob.captures(body) {
        let s = score(&c[1]);
        out.eval = Some(if white { s } else { negate(&s) });
        out.depth = Some(c[2].parse().unwrap());
        out.move_time_ms = Some(c[3].parse().unwrap());
        return out;
    }
    // cutechess, CCRL, fastchess, Arena, Banksia: [(move)] score/depth[,] time[s]
    // with the score from the mover's view
    let gui = re(r"^(?:\([^)]*\)\s*)?([+-]?(?:M[+-]?)?[0-9.]+)/(\d+),?\s+([0-9.]+)s?\b");
    if let Some(c) = gui.captures(body) {
        let s = score(&c[1]);
        out.eval = Some(if white { s } else { negate(&s) });
        out.depth = Some(c[2].parse().unwrap());
        out.move_time_ms = Some(seconds_ms(&c[3]));
        // fastchess: the mover's time left after the move
        let tl = re(r", tl=(-?)([0-9.]+)s(?:,|$)");
        if let Some(t) = tl.captures(body) {
            let ms = seconds_ms(&t[2]);
            out.clock_ms = Some(if &t[1] == "-" { -ms } else { ms });
        }
    }
    out
}

/// The games of a file, each as its moves as written with their comments,
/// read from the text with a tokenizer of its own.
fn source_games(path: &Path) -> Vec<Vec<(String, Vec<String>)>> {
    let bytes = std::fs::read(path).unwrap();
    // the numbers and keys are ASCII: any decoding keeps them
    let text = String::from_utf8_lossy(&bytes).replace('\u{feff}', "");
    let token = Regex::new(r"\{[^}]*\}|[^\s{}]+").unwrap();
    let skip = Regex::new(r"^(\d+\.+|1-0|0-1|1/2-1/2|\*)$").unwrap();
    let mut games: Vec<Vec<(String, Vec<String>)>> = Vec::new();
    let mut movetext = String::new();
    let mut in_tags = false;
    // a lone CR ends a line too
    for line in text.split(['\n', '\r']) {
        if line.trim().is_empty() {
            continue;
        }
        let is_tag = line.trim_start().starts_with('[');
        if is_tag && !in_tags {
            games.push(Vec::new());
            movetext.clear();
        }
        in_tags = is_tag;
        if is_tag {
            continue;
        }
        let game = games.last_mut().expect("every game starts with tags here");
        for t in token.find_iter(line).map(|m| m.as_str()) {
            if t.starts_with('{') {
                game.last_mut()
                    .expect("no comment before the first move in these files")
                    .1
                    .push(t.to_string());
            } else if !skip.is_match(t) {
                game.push((t.to_string(), Vec::new()));
            }
        }
    }
    games
}

fn replay_game(path: &Path, game: usize) -> Vec<Value> {
    let o = arbiter(&[
        "replay",
        "--json",
        path.to_str().unwrap(),
        "--game",
        &game.to_string(),
    ]);
    // 1 when the game has a finding (the inferred Chess960)
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    json_lines(&o)
}

fn replay_json(path: &Path) -> Vec<Value> {
    replay_game(path, 1)
}

#[test]
fn every_typed_value_is_what_the_source_text_says() {
    let files = files_with(&forms_dir(), "pgn");
    assert!(files.len() >= 12, "{files:?}");
    // how many values of each kind were checked, over the whole corpus
    let mut checked = [0usize; 4];
    let mut games = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let mut in_file = 0;
        for (i, source) in source_games(path).iter().enumerate() {
            games += 1;
            let plies = replay_game(path, i + 1);
            assert_eq!(
                plies.len(),
                source.len(),
                "{name}, game {}: every recorded move is replayed",
                i + 1
            );
            for (p, (written, comments)) in plies.iter().zip(source) {
                assert_eq!(&p["written"], written.as_str(), "{name}: ply {}", p["ply"]);
                let white = p["side"] == "white";
                let mut want = Said::default();
                for c in comments {
                    let s = said(c, white);
                    want.eval = want.eval.or(s.eval);
                    want.depth = want.depth.or(s.depth);
                    want.move_time_ms = want.move_time_ms.or(s.move_time_ms);
                    want.clock_ms = want.clock_ms.or(s.clock_ms);
                }
                let t = &p["typed"];
                let at = format!(
                    "{name}, ply {} ({written}), comments {comments:?}",
                    p["ply"]
                );
                assert_eq!(t["eval"], want.eval.clone().unwrap_or(Value::Null), "{at}");
                assert_eq!(t["depth"], json!(want.depth), "{at}");
                assert_eq!(t["move_time_ms"], json!(want.move_time_ms), "{at}");
                assert_eq!(t["clock_ms"], json!(want.clock_ms), "{at}");
                for (i, v) in [
                    want.eval.is_some(),
                    want.depth.is_some(),
                    want.move_time_ms.is_some(),
                    want.clock_ms.is_some(),
                ]
                .into_iter()
                .enumerate()
                {
                    checked[i] += usize::from(v);
                    in_file += usize::from(v);
                }
            }
        }
        assert!(in_file > 0, "{name}: no typed value was checked");
    }
    assert!(games > files.len(), "a file of several games is read whole");
    // the comparison was not vacuous: each kind was met many times
    for (what, n) in ["eval", "depth", "move time", "clock"].iter().zip(checked) {
        assert!(n >= 30, "only {n} {what} values checked");
    }
}

/// The finding codes of each game line of an audit.
fn audit_games(args: &[&str]) -> Vec<Value> {
    let mut a = vec!["audit", "--format", "json"];
    a.extend_from_slice(args);
    let o = arbiter(&a);
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("panicked"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    json_lines(&o)
        .into_iter()
        .filter(|l| l["type"] == "game")
        .collect()
}

#[test]
fn fischer_random_castles_on_both_wings() {
    let path = forms_dir().join("frc.pgn");
    let games = audit_games(&[path.to_str().unwrap()]);
    assert_eq!(games[0]["complete"], true, "{}", games[0]["findings"]);
    assert!(codes(&games[0]).is_empty(), "{:?}", codes(&games[0]));
    let plies = replay_json(&path);
    let castles: Vec<(&str, &str)> = plies
        .iter()
        .filter(|p| p["san"].as_str().unwrap().starts_with("O-O"))
        .map(|p| (p["san"].as_str().unwrap(), p["uci"].as_str().unwrap()))
        .collect();
    let sans: Vec<&str> = castles
        .iter()
        .map(|(s, _)| s.trim_end_matches(['+', '#']))
        .collect();
    assert!(
        sans.contains(&"O-O") && sans.contains(&"O-O-O"),
        "{castles:?}"
    );
    // Chess960 castling is written king takes own rook: the UCI move ends
    // on a rook's start square (the FEN's Shredder rights: b and g files)
    for (san, uci) in &castles {
        let to = &uci[2..3];
        assert!(to == "b" || to == "g", "{san} {uci}");
    }
}

#[test]
fn a_chess960_start_given_by_its_fen_alone_is_said_and_replayed() {
    let path = forms_dir().join("frc-fen-only.pgn");
    let games = audit_games(&[path.to_str().unwrap()]);
    let g = &games[0];
    assert_eq!(g["complete"], true, "{}", g["findings"]);
    assert_eq!(codes(g), ["chess960-inferred"], "{}", g["findings"]);
    let f = &g["findings"][0];
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("replayed as Chess960"),
        "{f}"
    );
    assert_eq!(f["evidence"][0]["span"]["line"], 9, "at the FEN tag: {f}");
    assert!(
        replay_json(&path)
            .iter()
            .any(|p| p["san"].as_str().unwrap().starts_with("O-O-O"))
    );
}

#[test]
fn byte_order_marks_line_ends_and_windows_1252() {
    let dir = forms_dir();
    let g = &audit_games(&[dir.join("bom-crlf.pgn").to_str().unwrap()])[0];
    assert_eq!(g["tags"]["Event"], "byte-order mark and mixed line ends");
    assert_eq!(g["complete"], true);
    assert!(codes(g).is_empty(), "{:?}", codes(g));
    // every move's span, read back from the bytes: its line counts CRLF,
    // LF and a lone CR each as one line end, as an editor does
    let path = dir.join("bom-crlf.pgn");
    let bytes = std::fs::read(&path).unwrap();
    let ends = regex::bytes::Regex::new(r"\r\n|\r|\n").unwrap();
    let plies = replay_json(&path);
    assert_eq!(plies.len(), 20);
    for p in &plies {
        let (off, len) = (
            p["span"]["offset"].as_u64().unwrap() as usize,
            p["span"]["len"].as_u64().unwrap() as usize,
        );
        assert_eq!(
            &bytes[off..off + len],
            p["written"].as_str().unwrap().as_bytes()
        );
        let line = 1 + ends.find_iter(&bytes[..off]).count();
        assert_eq!(p["span"]["line"], line, "{p}");
    }
    let g = &audit_games(&[dir.join("latin1.pgn").to_str().unwrap()])[0];
    assert_eq!(g["tags"]["White"], "M\u{fc}ller");
    assert_eq!(g["tags"]["Black"], "Se\u{f1}or \u{d1}and\u{fa}");
    assert_eq!(g["complete"], true);
    // every text that is not UTF-8 is said, none dropped: four tags and a
    // comment (whose 0x92 is Windows-1252's right quotation mark)
    let enc: Vec<&Value> = g["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "encoding")
        .collect();
    assert_eq!(enc.len(), 5, "{}", g["findings"]);
    let text = replay_json(&dir.join("latin1.pgn"))[3]["recorded"]["cutechess"]["note"].clone();
    assert_eq!(text, "Zugzwang? M\u{fc}ller\u{2019}s idea");
}

#[test]
fn an_unreplayable_game_mid_batch_is_reported_and_the_batch_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    for f in files_with(&forms_dir(), "pgn") {
        std::fs::copy(&f, dir.path().join(f.file_name().unwrap())).unwrap();
    }
    // three games: the second plays a bishop through its own pawn (e2)
    std::fs::write(
        dir.path().join("middle.pgn"),
        "[Event \"before\"]\n[Result \"*\"]\n\n1. e4 {+0.30/20 1.5s} e5 *\n\n\
         [Event \"broken\"]\n[Result \"*\"]\n\n1. d4 {+0.20/18 1.0s} d5\n2. Bb5+ {+0.10/18 1.0s} Nf6 *\n\n\
         [Event \"after\"]\n[Result \"*\"]\n\n1. c4 {+0.10/20 2s} c5 2. Nc3 Nc6 *\n",
    )
    .unwrap();
    let games = audit_games(&[dir.path().to_str().unwrap()]);
    let pgns = files_with(dir.path(), "pgn");
    assert_eq!(pgns.len(), 14);
    let total: usize = pgns.iter().map(|p| source_games(p).len()).sum();
    // one game a fixture, two in cutechess.pgn, c-chess-cli.pgn and
    // fastchess.pgn, three here
    assert_eq!(total, files_with(&forms_dir(), "pgn").len() + 3 + 3);
    assert_eq!(games.len(), total, "every game of every file is reported");
    let broken = games
        .iter()
        .find(|g| g["tags"]["Event"] == "broken")
        .unwrap();
    let f = broken["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "illegal-move")
        .unwrap_or_else(|| panic!("{}", broken["findings"]));
    let msg = f["message"].as_str().unwrap();
    // which move, why, and where
    assert!(msg.contains("\"Bb5+\"") && msg.contains("illegal"), "{msg}");
    assert!(msg.contains("the way from f1 to b5 is blocked"), "{msg}");
    assert!(
        msg.contains("2 of 4 recorded moves were not replayed"),
        "{msg}"
    );
    assert!(
        f["evidence"][0]["path"]
            .as_str()
            .unwrap()
            .ends_with("middle.pgn")
    );
    assert_eq!(f["evidence"][0]["span"]["line"], 10, "{f}");
    assert_eq!(f["evidence"][0]["ply"], 3);
    let after = games
        .iter()
        .find(|g| g["tags"]["Event"] == "after")
        .unwrap();
    assert_eq!(after["complete"], true);
    assert_eq!(after["plies"], 4);
    // and the batch tables count every game too
    let out = dir.path().join("out");
    let o = arbiter(&[
        "batch",
        dir.path().to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "2",
    ]);
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(csv.lines().count() - 1, total, "{csv}");
    let findings = std::fs::read_to_string(out.join("findings.csv")).unwrap();
    assert!(findings.contains("illegal-move"), "{findings}");
}

#[test]
fn banksias_variant_tag_is_read_as_the_opening_not_a_variant() {
    let path = forms_dir().join("banksia.pgn");
    let g = &audit_games(&[path.to_str().unwrap()])[0];
    assert_eq!(g["tags"]["Variant"], "Closed");
    assert_eq!(g["complete"], true, "{}", g["findings"]);
    assert_eq!(codes(g), ["variant-is-opening"], "{}", g["findings"]);
    assert_eq!(g["findings"][0]["severity"], "info");
    assert_eq!(g["findings"][0]["evidence"][0]["span"]["line"], 10);
    // a variant of chess arbiter does not replay is still refused, ECO or not
    let dir = tempfile::tempdir().unwrap();
    let zh = dir.path().join("zh.pgn");
    std::fs::write(
        &zh,
        "[Event \"z\"]\n[ECO \"B00\"]\n[Variant \"Crazyhouse\"]\n[Result \"*\"]\n\n1. e4 *\n",
    )
    .unwrap();
    let g = &audit_games(&[zh.to_str().unwrap()])[0];
    assert_eq!(codes(g), ["unsupported-variant"], "{}", g["findings"]);
}

/// A number as arbiter's messages print it: whole numbers without `.0`.
fn shown(n: f64) -> String {
    if n.fract() == 0.0 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

#[test]
fn the_rules_read_every_form_as_replay_types_it() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("seen.rules");
    std::fs::write(
        &rules,
        "ruleset seen \"seen\" { regulation \"none\" }\n\
         rule seen.eval \"Seen\" {\n  cite \"none\" \"every evaluated move\"\n\
           message \"{move.wv}|{move.depth}|{move.mt}\"\n\
           forbid on move when move.wv != none\n}\n",
    )
    .unwrap();
    let mut seen = 0;
    for path in files_with(&forms_dir(), "pgn") {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let games = audit_games(&["--rules", rules.to_str().unwrap(), path.to_str().unwrap()]);
        for (i, g) in games.iter().enumerate() {
            let got: Vec<(u64, String)> = g["findings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| f["code"] == "seen.eval")
                .map(|f| {
                    (
                        f["evidence"][0]["ply"].as_u64().unwrap(),
                        f["message"].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            let want: Vec<(u64, String)> = replay_game(&path, i + 1)
                .iter()
                .filter(|p| !p["typed"]["eval"].is_null())
                .map(|p| {
                    let t = &p["typed"];
                    let pawns = match (t["eval"].get("cp"), t["eval"].get("mate")) {
                        (Some(cp), _) => cp.as_f64().unwrap() / 100.0,
                        (_, Some(m)) => 1000.0 * m.as_f64().unwrap().signum(),
                        _ => unreachable!(),
                    };
                    let or_none = |v: &Value| v.as_f64().map_or("none".to_string(), shown);
                    (
                        p["ply"].as_u64().unwrap(),
                        format!(
                            "{}|{}|{}",
                            shown(pawns),
                            or_none(&t["depth"]),
                            or_none(&t["move_time_ms"])
                        ),
                    )
                })
                .collect();
            assert_eq!(got, want, "{name}, game {}", i + 1);
            seen += got.len();
        }
    }
    assert!(seen >= 150, "{seen}");
}

#[test]
fn replay_text_shows_the_typed_values() {
    let path = forms_dir().join("tcec-early.pgn");
    let o = arbiter(&["replay", path.to_str().unwrap(), "--ply", "1"]);
    assert_eq!(o.status.code(), Some(0));
    let text = super::stdout(&o);
    // the first comment, read here: mt=H:MM:SS, tl=H:MM:SS, wv, d
    let first = &source_games(&path)[0][0].1[0];
    let s = said(first, true);
    let want = format!(
        "  typed: eval {}, depth {}, move time {}.000s, clock {}:{:02}:{:02}.000",
        {
            let cp = s.eval.unwrap()["cp"].as_i64().unwrap();
            format!(
                "{}{}.{:02} (White's view)",
                if cp < 0 { "-" } else { "+" },
                cp.abs() / 100,
                cp.abs() % 100
            )
        },
        s.depth.unwrap(),
        s.move_time_ms.unwrap() / 1000,
        s.clock_ms.unwrap() / 3_600_000,
        s.clock_ms.unwrap() / 60_000 % 60,
        s.clock_ms.unwrap() / 1000 % 60
    );
    assert!(text.contains(&want), "{want}\n{text}");
}

/// The folder `peers/` of the corpus `ARBITER_CORPUS` names (the matches
/// fastchess and cutechess-cli played, and fishtest's and OpenBench's
/// samples), or `None`, with the reason printed, when it is not set.
fn peers() -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("ARBITER_CORPUS") else {
        eprintln!("skipping: ARBITER_CORPUS is not set (set it to the folder holding peers/)");
        return None;
    };
    let p = Path::new(&dir).join("peers");
    assert!(
        p.is_dir(),
        "ARBITER_CORPUS is set but {} is not a folder",
        p.display()
    );
    Some(p)
}

/// Every record of `peers/`: each `.pgn`, and each `.pgn.gz` (fishtest's
/// task PGN) decompressed by flate2 into `tmp` (not by arbiter's reader).
fn peers_records(dir: &Path, tmp: &Path) -> Vec<PathBuf> {
    let mut files = files_with(dir, "pgn");
    for gz in files_with(dir, "gz") {
        let mut text = Vec::new();
        std::io::Read::read_to_end(
            &mut flate2::read::MultiGzDecoder::new(std::fs::File::open(&gz).unwrap()),
            &mut text,
        )
        .unwrap_or_else(|e| panic!("{}: {e}", gz.display()));
        let p = tmp.join(gz.file_stem().unwrap());
        std::fs::write(&p, text).unwrap();
        files.push(p);
    }
    assert!(files.len() >= 12, "{files:?}");
    files
}

/// `3.850`, `-0.001` seconds → ms, the sign kept.
fn signed_seconds_ms(s: &str) -> i64 {
    match s.strip_prefix('-') {
        Some(abs) => -seconds_ms(abs),
        None => seconds_ms(s),
    }
}

/// The `recorded` object arbiter must give for one comment of the peers'
/// forms, worked out from its text with this file's own patterns; `None`
/// for a comment of none of them.
fn peers_recorded(comment: &str) -> Option<Value> {
    let body = comment.trim_start_matches('{').trim_end_matches('}').trim();
    let score_re = r"[+-]?M?\d+(?:\.\d+)?";
    if body == "book" {
        return Some(json!({ "cutechess": { "book": true } }));
    }
    // fastchess: score/depth time, then key=value items (the PV quoted),
    // then the termination
    let fastchess = re(&format!(r"^({score_re})/(\d+) ([0-9.]+)s, (.*)$"));
    if let Some(c) = fastchess.captures(body)
        && c[4].contains('=')
    {
        let mut gui = json!({
            "form": "fastchess",
            "score": score(&c[1]),
            "depth": c[2].parse::<i64>().unwrap(),
            "time_ms": seconds_ms(&c[3]),
        });
        let item = re(r#"^(\w+)=("[^"]*"|[^,]*)$"#);
        let mut notes = Vec::new();
        for it in c[4].split(", ") {
            let Some(kv) = item.captures(it) else {
                notes.push(it.to_string());
                continue;
            };
            let v = &kv[2];
            let int = || json!(v.parse::<i64>().unwrap());
            let secs = || json!(signed_seconds_ms(v.strip_suffix('s').unwrap()));
            let (name, value) = match &kv[1] {
                "tl" => ("time_left_ms", secs()),
                "latency" => ("latency_ms", secs()),
                "n" => ("nodes", int()),
                "sd" => ("seldepth", int()),
                "nps" => ("nps", int()),
                "hashfull" => ("hashfull", int()),
                "tbhits" => ("tbhits", int()),
                "pv" => {
                    let moves = v.strip_prefix('"').and_then(|v| v.strip_suffix('"'));
                    let moves = moves.expect("fastchess quotes its PV");
                    let uci = re(r"^[a-h][1-8][a-h][1-8][qrbn]?$");
                    assert!(moves.split(' ').all(|m| uci.is_match(m)), "{moves}");
                    ("pv_uci", json!(moves))
                }
                other => panic!("a key this test does not know: {other} in {comment}"),
            };
            gui[name] = value;
        }
        if !notes.is_empty() {
            gui["note"] = json!(notes.join(", "));
        }
        return Some(json!({ "gui": gui }));
    }
    // cutechess-cli (1.4, fishtest's): score/depth time[, termination]
    let cutechess = re(&format!(r"^({score_re})/(\d+) ([0-9.]+)s(?:, (.+))?$"));
    if let Some(c) = cutechess.captures(body) {
        let mut cc = json!({
            "book": false,
            "score": score(&c[1]),
            "depth": c[2].parse::<i64>().unwrap(),
            "time_ms": seconds_ms(&c[3]),
        });
        if let Some(n) = c.get(4) {
            cc["note"] = json!(n.as_str());
        }
        return Some(json!({ "cutechess": cc }));
    }
    // OpenBench's cutechess-ob: score depth/seldepth ms nodes[, termination]
    let ob = re(&format!(
        r"^({score_re}) (\d+)/(\d+) (\d+) (\d+)(?:, (.+))?$"
    ));
    if let Some(c) = ob.captures(body) {
        let num = |i: usize| json!(c[i].parse::<i64>().unwrap());
        let mut gui = json!({
            "form": "cutechess-ob",
            "score": score(&c[1]),
            "depth": num(2),
            "seldepth": num(3),
            "time_ms": num(4),
            "nodes": num(5),
        });
        if let Some(n) = c.get(6) {
            gui["note"] = json!(n.as_str());
        }
        return Some(json!({ "gui": gui }));
    }
    None
}

/// Every comment of every record of `peers/` (fastchess's, cutechess-cli
/// 1.4's, fishtest's task PGN, OpenBench's cutechess-ob form), read here
/// with this file's own patterns: each key is typed as the value arbiter
/// reports (`recorded`, `typed`), nothing is left as untyped text, except
/// OpenBench's comments that lack one of their numbers, which are each one
/// finding naming the comment. The audit of every file finds nothing
/// else: fishtest's games without a `Termination` tag, and fastchess's
/// 0-ply games adjudicated at their start, included.
#[test]
fn every_key_of_every_peers_comment_is_typed() {
    let Some(dir) = peers() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let files = peers_records(&dir, tmp.path());
    let (mut typed, mut keys, mut zero_ply) = (0usize, 0usize, 0usize);
    let mut garbage: Vec<(String, String)> = Vec::new();
    let mut uncommented = Vec::new();
    let mut forms = std::collections::BTreeMap::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        for (i, source) in source_games(path).iter().enumerate() {
            let plies = replay_game(path, i + 1);
            assert_eq!(plies.len(), source.len(), "{name}, game {}", i + 1);
            zero_ply += usize::from(source.is_empty());
            for (p, (written, comments)) in plies.iter().zip(source) {
                let at = format!("{name}, game {}, ply {} ({written})", i + 1, p["ply"]);
                assert_eq!(&p["written"], written.as_str(), "{at}");
                // OpenBench's first example holds a move without one
                let Some(c) = comments.first() else {
                    assert_eq!(p["recorded"], json!({}), "{at}");
                    uncommented.push(at);
                    continue;
                };
                assert_eq!(comments.len(), 1, "{at}: at most one comment a move here");
                let Some(want) = peers_recorded(c) else {
                    let body = c.trim_start_matches('{').trim_end_matches('}').trim();
                    assert_eq!(p["recorded"], json!({ "text": [body] }), "{at}");
                    garbage.push((name.clone(), body.to_string()));
                    continue;
                };
                assert_eq!(p["recorded"], want, "{at}: {c}");
                let form = want
                    .get("gui")
                    .map_or("cutechess", |g| g["form"].as_str().unwrap());
                *forms.entry(form.to_string()).or_insert(0usize) += 1;
                keys += want
                    .as_object()
                    .unwrap()
                    .values()
                    .next()
                    .unwrap()
                    .as_object()
                    .unwrap()
                    .len();
                // and the values every form is typed into
                let s = said(c, p["side"] == "white");
                let t = &p["typed"];
                assert_eq!(t["eval"], s.eval.unwrap_or(Value::Null), "{at}");
                assert_eq!(t["depth"], json!(s.depth), "{at}");
                assert_eq!(t["move_time_ms"], json!(s.move_time_ms), "{at}");
                assert_eq!(t["clock_ms"], json!(s.clock_ms), "{at}");
                typed += 1;
            }
        }
    }
    assert!(typed > 9000 && keys > 50_000, "{typed} moves, {keys} keys");
    for form in ["cutechess", "fastchess", "cutechess-ob"] {
        assert!(forms.get(form).is_some_and(|&n| n > 500), "{forms:?}");
    }
    assert!(zero_ply >= 4, "{zero_ply} games of no move");
    // and the moves without a comment: in OpenBench's examples only
    assert!(
        uncommented.len() == 6
            && uncommented
                .iter()
                .all(|at| at.starts_with("openbench-example")),
        "{uncommented:?}"
    );
    // the comments OpenBench's own tests hold that lack a number: all in
    // its first example
    let bodies: Vec<&str> = garbage.iter().map(|(_, b)| b.as_str()).collect();
    assert!(
        garbage.iter().all(|(f, _)| f == "openbench-example1.pgn"),
        "{garbage:?}"
    );
    assert_eq!(bodies.len(), 7, "{bodies:?}");
    let mut args = vec!["audit", "--format", "json"];
    args.extend(files.iter().map(|p| p.to_str().unwrap()));
    let games = audit_games(&args[3..]);
    assert_eq!(
        games.len(),
        files.iter().map(|p| source_games(p).len()).sum::<usize>()
    );
    let mut named = Vec::new();
    for g in &games {
        let at = format!("{} game {}", g["file"], g["game"]);
        assert_eq!(g["complete"], true, "{at}");
        for f in g["findings"].as_array().unwrap() {
            assert_eq!(f["code"], "annotation-malformed", "{at}: {f}");
            let msg = f["message"].as_str().unwrap();
            let body = bodies
                .iter()
                .find(|b| msg.contains(&format!("{{{b}}}")))
                .unwrap_or_else(|| panic!("{at}: {msg}"));
            named.push(*body);
        }
    }
    assert_eq!(named, bodies, "one finding for each, naming it");
}

/// Days from 1970-01-01 to a date of the Gregorian calendar, counted here.
fn days_from_epoch(y: i64, m: i64, d: i64) -> i64 {
    let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let years: i64 = (1970..y).map(|y| if leap(y) { 366 } else { 365 }).sum();
    let months = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let before: i64 = months[..(m - 1) as usize].iter().sum();
    years + before + i64::from(m > 2 && leap(y)) + d - 1
}

/// A manager's time tag as this test reads it: `2026-12-02T05:09:04 +0000`
/// or `…05:16:04.626 UTC` → ms since the epoch; `None` for a zone by name.
fn tag_time_ms(text: &str) -> Option<i64> {
    let c = re(r"^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{3}))? (UTC|[+-]\d{4})$")
        .captures(text)?;
    let n = |i: usize| c.get(i).map_or(0, |m| m.as_str().parse::<i64>().unwrap());
    let mut ms =
        (days_from_epoch(n(1), n(2), n(3)) * 86_400 + n(4) * 3600 + n(5) * 60 + n(6)) * 1000 + n(7);
    if let Some(off) = c[8].strip_prefix(['+', '-']) {
        let mins = off[..2].parse::<i64>().unwrap() * 60 + off[2..].parse::<i64>().unwrap();
        ms -= if c[8].starts_with('-') { -mins } else { mins } * 60_000;
    }
    Some(ms)
}

/// The games' time tags as the rules read them: `game.start_time`,
/// `game.end_time` (ms since the epoch) and `game.duration` (ms), with
/// `game.round` and `game.termination`; on the fastchess fixture, and on
/// every peers file where the corpus is given (cutechess's `UTC`,
/// fishtest's `CST`: a zone by name is none).
#[test]
fn the_managers_time_tags_are_typed() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("times.rules");
    std::fs::write(
        &rules,
        "ruleset seen \"seen\" { regulation \"none\" }\n\
         rule seen.times \"Times\" {\n  cite \"none\" \"the time tags\"\n\
           message \"{game.start_time}|{game.end_time}|{game.duration}|{game.round}|{game.termination}\"\n\
           forbid on move when move.ply >= 1\n}\n",
    )
    .unwrap();
    let mut files = vec![forms_dir().join("fastchess.pgn")];
    let tmp = tempfile::tempdir().unwrap();
    if let Some(peers) = peers() {
        files.extend(peers_records(&peers, tmp.path()));
    }
    let (mut timed, mut named_zone) = (0, 0);
    for path in &files {
        let games = audit_games(&["--rules", rules.to_str().unwrap(), path.to_str().unwrap()]);
        for g in &games {
            let Some(f) = g["findings"]
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["code"] == "seen.times")
            else {
                // a game of no move: no move to fire on
                assert_eq!(g["plies"], 0, "{g}");
                continue;
            };
            let tag = |name: &str| g["tags"][name].as_str().map(str::to_string);
            let or_none = |v: Option<i64>| v.map_or("none".to_string(), |v| v.to_string());
            let start = tag("GameStartTime").and_then(|t| tag_time_ms(&t));
            let end = tag("GameEndTime").and_then(|t| tag_time_ms(&t));
            let duration = tag("GameDuration").map(|d| hms_ms(&d));
            let want = format!(
                "{}|{}|{}|{}|{}",
                or_none(start),
                or_none(end),
                or_none(duration),
                tag("Round").unwrap_or("none".into()),
                tag("Termination").unwrap_or("none".into()),
            );
            assert_eq!(f["message"], want, "{}", path.display());
            timed += usize::from(start.is_some() && end.is_some());
            named_zone += usize::from(tag("GameStartTime").is_some() && start.is_none());
        }
    }
    assert!(timed >= 1, "{timed}");
    if files.len() > 1 {
        // fastchess's and cutechess's games; fishtest's and OpenBench's
        // write their zone by name
        assert!(timed > 50 && named_zone >= 12, "{timed} {named_zone}");
    }
}

/// Every key of fastchess's comment as the rules read it (`move.tl`,
/// `move.latency`, `move.nodes`, `move.seldepth`, `move.nps`,
/// `move.hashfull` in percent, `move.tbhits`, `move.pv_uci`, and
/// `move.recorded_left`, the clock the record gives), checked against the
/// fixture's text, an excerpt of a real fastchess match.
#[test]
fn the_rules_read_every_key_of_fastchess() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("keys.rules");
    std::fs::write(
        &rules,
        "ruleset seen \"seen\" { regulation \"none\" }\n\
         rule seen.keys \"Keys\" {\n  cite \"none\" \"every key\"\n\
           message \"{move.tl}|{move.latency}|{move.nodes}|{move.seldepth}|{move.nps}|{move.hashfull}|{move.tbhits}|{move.recorded_left}|{move.pv_uci}\"\n\
           forbid on move when move.commented\n}\n",
    )
    .unwrap();
    let path = forms_dir().join("fastchess.pgn");
    let games = audit_games(&["--rules", rules.to_str().unwrap(), path.to_str().unwrap()]);
    let got: Vec<String> = games[0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "seen.keys")
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect();
    let key = |c: &str, k: &str| {
        re(&format!(r#"[{{ ]{k}=("[^"]*"|[^,}}]*)"#))
            .captures(c)
            .map(|m| m[1].to_string())
            .unwrap()
    };
    let want: Vec<String> = source_games(&path)[0]
        .iter()
        .map(|(_, comments)| {
            let c = &comments[0];
            let ms = |k: &str| signed_seconds_ms(key(c, k).strip_suffix('s').unwrap()).to_string();
            let hashfull = key(c, "hashfull").parse::<f64>().unwrap() / 10.0;
            format!(
                "{}|{}|{}|{}|{}|{}|{}|{}|{}",
                ms("tl"),
                ms("latency"),
                key(c, "n"),
                key(c, "sd"),
                key(c, "nps"),
                shown(hashfull),
                key(c, "tbhits"),
                ms("tl"),
                key(c, "pv").trim_matches('"'),
            )
        })
        .collect();
    assert_eq!(got.len(), 52, "every move of the game");
    assert_eq!(got, want);
}

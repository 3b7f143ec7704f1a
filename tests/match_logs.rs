//! Match-long engine logs (fastchess `-log`, cutechess `-debug` of a whole
//! match) split per game: each game's traffic on its own game, every line
//! of the log attributed to a game, the manager's notes or reported, and
//! what does not meet said. The fixtures are cut from the matches of
//! `peers/` (fastchess: games 7 and 8 of `fc-rr.log`, without their `info`
//! lines and most of the manager's trace; cutechess: the first 130 lines of
//! `cc-tb.debug.log`, games 1 and 2), with their PGN games.

use super::{arbiter, stdout};
use arbiter::ingest::engine::{Activity, Search};
use arbiter::ingest::logs::{LoadedEngineLog, read_engine_log_games};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/logs/match")
        .join(name)
}

/// The searches a game's log answered (a `bestmove`).
fn answered(l: &LoadedEngineLog) -> Vec<&Search> {
    l.log
        .engines
        .iter()
        .flat_map(|e| &e.activities)
        .filter_map(|a| match a {
            Activity::Search(s) if s.bestmove.is_some() => Some(&**s),
            _ => None,
        })
        .collect()
}

/// Each game's findings: code, and the log lines of its evidence.
type GameFindings = Vec<Vec<(String, Vec<u64>)>>;

/// The audit of `pgn` with `log`, as JSON: each game's findings (code,
/// and the log lines of its evidence), the exit code and standard error.
fn audit(pgn: &Path, log: &Path) -> (GameFindings, Option<i32>, String) {
    let o = arbiter(&[
        "audit",
        "--format",
        "json",
        pgn.to_str().unwrap(),
        "--engine-log",
        log.to_str().unwrap(),
    ]);
    let log_shown = log.display().to_string();
    let games = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["type"] == "game")
        .map(|g| {
            g["findings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| {
                    let lines = f["evidence"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|e| e["path"] == log_shown.as_str())
                        .filter_map(|e| e["span"]["line"].as_u64())
                        .collect();
                    (f["code"].as_str().unwrap().to_string(), lines)
                })
                .collect()
        })
        .collect();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    (games, o.status.code(), err)
}

/// The lines of `text` (1-based) on which each game starts, by the
/// manager's own words, read with this test's own patterns.
fn starts(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            l.starts_with("Started game ")
                || (l.contains("fastchess --- Game ") && l.ends_with(" starting"))
        })
        .map(|(i, _)| i + 1)
        .collect()
}

/// Every line of a split log is in a game, the manager's or reported, and
/// each game's searches are its own: as many answered searches in its log
/// as there are `bestmove` lines between its start and the next game's.
fn check_split(path: &Path) -> Vec<LoadedEngineLog> {
    let text = std::fs::read_to_string(path).unwrap();
    let parts = read_engine_log_games(path).unwrap();
    let file = parts[0]
        .part
        .as_ref()
        .expect("the log is split")
        .file
        .clone();
    let n = file.lines;
    assert_eq!(n.total, text.lines().count() as u64, "{}", path.display());
    assert_eq!(n.total, n.in_games + n.notes + n.reported, "{n:?}");
    let starts = starts(&text);
    assert_eq!(parts.len(), starts.len());
    for (i, l) in parts.iter().enumerate() {
        let seg = &l.part.as_ref().unwrap().segment;
        assert_eq!(seg.start.line as usize, starts[i]);
        let end = starts.get(i + 1).copied().unwrap_or(usize::MAX);
        let bestmoves = text
            .lines()
            .enumerate()
            .filter(|(k, t)| (starts[i]..end).contains(&(k + 1)) && t.contains("bestmove "))
            .count();
        assert_eq!(answered(l).len(), bestmoves, "game {}", seg.game);
    }
    parts
}

#[test]
fn a_fastchess_log_is_split_per_game() {
    let parts = check_split(&fixture("fastchess.log"));
    let segs: Vec<_> = parts
        .iter()
        .map(|l| {
            let s = &l.part.as_ref().unwrap().segment;
            (
                s.game,
                s.white.as_str(),
                s.black.as_str(),
                s.result.as_ref().map(|r| r.0.as_str()),
            )
        })
        .collect();
    assert_eq!(
        segs,
        [
            (7, "Stockfish15.1", "Glaurung2.2", Some("1-0")),
            (8, "Glaurung2.2", "Stockfish15.1", Some("0-1"))
        ]
    );
    let f = &parts[0].part.as_ref().unwrap().file;
    assert!(f.paired && f.stray.is_none(), "{f:?}");
    // the time of day, in ms since midnight, as written
    let first = answered(&parts[0])[0];
    assert!(!first.started.absolute);
    let (h, m, s) = (5, 10, 2);
    assert!(
        first.started.time / 1000 >= (h * 60 + m) * 60 + s,
        "{first:?}"
    );
    let (games, code, err) = audit(&fixture("fastchess.pgn"), &fixture("fastchess.log"));
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(games, vec![vec![], vec![]]);
}

#[test]
fn a_cutechess_match_log_is_split_per_game() {
    let parts = check_split(&fixture("cutechess.log"));
    let s = &parts[1].part.as_ref().unwrap().segment;
    let (r, reason, span) = s.result.as_ref().unwrap();
    assert_eq!(
        (r.as_str(), reason.as_deref()),
        ("1-0", Some("White wins by adjudication: SyzygyTB"))
    );
    assert_eq!(span.line, 129);
    // the engines' start before game 1 is game 1's
    let first = parts[0]
        .log
        .engines
        .iter()
        .map(|e| e.name.as_str())
        .collect::<Vec<_>>();
    assert_eq!(first, ["Stockfish15.1(0)", "Ethereal12(1)"]);
    let (games, code, err) = audit(&fixture("cutechess.pgn"), &fixture("cutechess.log"));
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(games, vec![vec![], vec![]]);
}

/// A copy of fixture `name` with `from` replaced by `to` on line `line`.
fn planted(dir: &Path, name: &str, line: usize, from: &str, to: &str) -> PathBuf {
    let text = std::fs::read_to_string(fixture(name)).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    assert!(lines[line - 1].contains(from), "{}", lines[line - 1]);
    lines[line - 1] = lines[line - 1].replacen(from, to, 1);
    let p = dir.join(name);
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p
}

/// The line (1-based) of the `k`th line of `name` holding `needle`.
fn nth_line(name: &str, needle: &str, k: usize) -> usize {
    let text = std::fs::read_to_string(fixture(name)).unwrap();
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .nth(k)
        .unwrap()
        .0
        + 1
}

#[test]
fn a_changed_result_line_is_found_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let line = nth_line("cutechess.log", "Finished game 2 ", 0);
    let log = planted(dir.path(), "cutechess.log", line, "): 1-0", "): 0-1");
    let (games, code, _) = audit(&fixture("cutechess.pgn"), &log);
    assert_eq!(code, Some(1));
    assert_eq!(games[0], vec![]);
    assert_eq!(
        games[1],
        vec![("engine-log-result-differs".to_string(), vec![line as u64])]
    );
    let line = nth_line("fastchess.log", "Game 7 finished with result", 0);
    let log = planted(
        dir.path(),
        "fastchess.log",
        line,
        "result 1-0",
        "result 1/2-1/2",
    );
    let (games, _, _) = audit(&fixture("fastchess.pgn"), &log);
    assert_eq!(
        games[0],
        vec![("engine-log-result-differs".to_string(), vec![line as u64])]
    );
}

#[test]
fn a_changed_bestmove_is_found_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    // one of Glaurung's bestmoves in game 8 replaced by a move that is
    // no move at all
    let line = nth_line("fastchess.log", "Glaurung2.2 ---> bestmove", 40);
    let text = std::fs::read_to_string(fixture("fastchess.log")).unwrap();
    let mv = text
        .lines()
        .nth(line - 1)
        .unwrap()
        .split("bestmove ")
        .nth(1)
        .unwrap();
    let mv = mv.split_whitespace().next().unwrap().to_string();
    let log = planted(
        dir.path(),
        "fastchess.log",
        line,
        &format!("bestmove {mv}"),
        "bestmove a1a1",
    );
    let (games, _, _) = audit(&fixture("fastchess.pgn"), &log);
    let found: Vec<_> = games.iter().flatten().collect();
    assert_eq!(found.len(), 1, "{games:?}");
    assert!(found[0].1.contains(&(line as u64)), "{found:?}");
}

#[test]
fn what_does_not_meet_is_said() {
    let dir = tempfile::tempdir().unwrap();
    // the PGN's first game only: the log's game 2 joins nothing
    let pgn = std::fs::read_to_string(fixture("cutechess.pgn")).unwrap();
    let first = &pgn[..pgn[1..].find("[Event ").unwrap() + 1];
    let one = dir.path().join("one.pgn");
    std::fs::write(&one, first).unwrap();
    let (games, code, err) = audit(&one, &fixture("cutechess.log"));
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(games, vec![vec![]]);
    assert!(
        err.contains(
            "cutechess.log: game 2 (Ethereal12 vs Stockfish15.1, lines 93-129) joined no game"
        ),
        "{err}"
    );
    // a game the log has no game for
    let (games, _, _) = audit(&fixture("fastchess.pgn"), &fixture("cutechess.log"));
    for g in &games {
        assert!(
            g.iter().any(|(c, _)| c == "engine-log-game-missing"),
            "{games:?}"
        );
    }
    // engine traffic outside every game that no game claims
    let mut text = std::fs::read_to_string(fixture("cutechess.log")).unwrap();
    text.push_str("1500 >Other(7): position startpos moves e2e4\n");
    let log = dir.path().join("stray.log");
    std::fs::write(&log, &text).unwrap();
    let (_, code, err) = audit(&fixture("cutechess.pgn"), &log);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("1 line(s) of engine traffic outside every game, the first at line 131"),
        "{err}"
    );
    let parts = read_engine_log_games(&log).unwrap();
    let n = parts[0].part.as_ref().unwrap().file.lines;
    assert_eq!((n.total, n.reported), (131, 1));
}

/// A fastchess log written below `-log level=trace` has no line that
/// tells its games apart: it is split where an engine is sent
/// `ucinewgame` again, the first engine sent it taken for White, and each
/// game gets the same traffic as from the full log.
#[test]
fn a_fastchess_log_without_game_lines_is_split_at_ucinewgame() {
    let dir = tempfile::tempdir().unwrap();
    let full = read_engine_log_games(&fixture("fastchess.log")).unwrap();
    let text: String = std::fs::read_to_string(fixture("fastchess.log"))
        .unwrap()
        .lines()
        .filter(|l| !l.contains("fastchess --- Game "))
        .map(|l| format!("{l}\n"))
        .collect();
    let log = dir.path().join("info.log");
    std::fs::write(&log, &text).unwrap();
    let parts = read_engine_log_games(&log).unwrap();
    assert_eq!(parts.len(), full.len());
    for (a, b) in parts.iter().zip(&full) {
        let (sa, sb) = (
            &a.part.as_ref().unwrap().segment,
            &b.part.as_ref().unwrap().segment,
        );
        assert_eq!(
            (sa.game, &sa.white, &sa.black),
            (sb.game - 6, &sb.white, &sb.black)
        );
        assert_eq!(answered(a).len(), answered(b).len(), "game {}", sb.game);
    }
    let n = parts[0].part.as_ref().unwrap().file.lines;
    assert_eq!(n.total, text.lines().count() as u64);
    assert_eq!((n.total, n.reported), (n.in_games + n.notes, 0), "{n:?}");
}

/// Two fastchess games played at once (`-concurrency 2`), their lines
/// interleaved (`fastchess-concurrent.log`, made from `fastchess.log`:
/// README): the thread tells them apart, and each game gets the traffic
/// it has in the log of one game at a time.
#[test]
fn concurrent_fastchess_games_are_told_apart_by_their_thread() {
    let alone = read_engine_log_games(&fixture("fastchess.log")).unwrap();
    let log = fixture("fastchess-concurrent.log");
    let text = std::fs::read_to_string(&log).unwrap();
    let both = read_engine_log_games(&log).unwrap();
    assert_eq!(both.len(), 2);
    // the games overlap: game 8 starts before game 7 ends
    let (s7, s8) = (
        &both[0].part.as_ref().unwrap().segment,
        &both[1].part.as_ref().unwrap().segment,
    );
    assert_eq!((s7.game, s8.game), (7, 8));
    assert!(s8.start.line < s7.end.line, "{s7:?} {s8:?}");
    for (a, b) in both.iter().zip(&alone) {
        let searched = |l: &LoadedEngineLog| -> Vec<String> {
            answered(l)
                .iter()
                .filter_map(|s| s.bestmove.as_ref())
                .map(|(m, ponder, _)| format!("{m} {ponder:?}"))
                .collect()
        };
        assert_eq!(searched(a), searched(b));
        assert!(!searched(a).is_empty());
    }
    let n = both[0].part.as_ref().unwrap().file.lines;
    assert_eq!(n.total, text.lines().count() as u64);
    assert_eq!((n.total, n.reported), (n.in_games + n.notes, 0), "{n:?}");
    let (games, code, err) = audit(&fixture("fastchess.pgn"), &log);
    assert_eq!(games.len(), 2);
    // game 8's start is moved: its GameStartTime no longer meets it
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("game 8 (Glaurung2.2 vs Stockfish15.1"),
        "{err}"
    );
}

/// The matches of `peers/`: every game of fc-rr.pgn and cc-rr.pgn gets
/// its own engine traffic (as many answered searches as plies, no finding
/// from the logs) and every line of the logs is attributed.
#[test]
fn the_peers_matches_have_each_game_its_traffic() {
    let Some(dir) = std::env::var_os("ARBITER_CORPUS") else {
        eprintln!("skipping: ARBITER_CORPUS is not set (set it to the folder holding peers/)");
        return;
    };
    let peers = Path::new(&dir).join("peers");
    for (pgn, log) in [("fc-rr.pgn", "fc-rr.log"), ("cc-rr.pgn", "cc-rr.debug.log")] {
        let parts = check_split(&peers.join(log));
        let f = &parts[0].part.as_ref().unwrap().file;
        assert_eq!((f.games, f.stray), (12, None), "{log}");
        let (games, code, err) = audit(&peers.join(pgn), &peers.join(log));
        assert_eq!(code, Some(0), "{log}: {err}");
        assert_eq!(games.len(), 12);
        assert!(games.iter().all(Vec::is_empty), "{log}: {games:?}");
        let plies: Vec<usize> = std::fs::read_to_string(peers.join(pgn))
            .unwrap()
            .lines()
            .filter_map(|l| l.strip_prefix("[PlyCount \""))
            .map(|p| p.trim_end_matches("\"]").parse().unwrap())
            .collect();
        // one game at a time: the PGN holds the games in the log's order
        let searched: Vec<usize> = parts.iter().map(|l| answered(l).len()).collect();
        assert_eq!(searched, plies, "{log}");
    }
    // fc-tb.log, at `-log level=info`: no game lines, split at ucinewgame;
    // its four games of 0 plies hold only their ucinewgame and isready
    let log = peers.join("fc-tb.log");
    let text = std::fs::read_to_string(&log).unwrap();
    let parts = read_engine_log_games(&log).unwrap();
    let f = &parts[0].part.as_ref().unwrap().file;
    assert_eq!((f.games, f.stray), (10, None));
    let n = f.lines;
    assert_eq!(n.total, text.lines().count() as u64);
    assert_eq!((n.total, n.reported), (n.in_games + n.notes, 0), "{n:?}");
    let (games, code, err) = audit(&peers.join("fc-tb.pgn"), &log);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(games.len(), 10);
    assert!(games.iter().all(Vec::is_empty), "{games:?}");
    let plies: Vec<usize> = std::fs::read_to_string(peers.join("fc-tb.pgn"))
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("[PlyCount \""))
        .map(|p| p.trim_end_matches("\"]").parse().unwrap())
        .collect();
    let searched: Vec<usize> = parts.iter().map(|l| answered(l).len()).collect();
    assert_eq!(searched, plies);
}

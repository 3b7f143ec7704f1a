//! The real TCEC Season 15 archive (428 games): every game parses and
//! replays, and every recorded engine value comes out typed.

use super::{arbiter, json_lines, tcec_s15};

#[test]
fn all_tcec_s15_games_replay_with_no_illegal_move() {
    let Some(dir) = tcec_s15() else { return };
    let o = arbiter(&["audit", "--format", "json", dir.to_str().unwrap()]);
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines = json_lines(&o);
    let (summary, games) = lines.split_last().unwrap();
    assert_eq!(games.len(), 428);
    assert_eq!(summary["games"], 428);
    assert_eq!(summary["incomplete_games"], 0);
    for g in games {
        assert_eq!(g["complete"], true, "{}", g["source"]);
        assert_eq!(g["plies"], g["moves_recorded"]);
        for f in g["findings"].as_array().unwrap() {
            // The one PlyCount tag that disagrees is a real defect of the
            // archive (Division 4b round 7.2); nothing else may fire.
            assert_eq!(f["code"], "plycount-mismatch", "{}: {f}", g["source"]);
            assert_eq!(g["tags"]["Round"], "7.2");
        }
    }
    let by_code = &summary["findings_by_code"];
    assert_eq!(by_code.as_object().unwrap().len(), 1, "{by_code}");
}

/// Every engine (non-book) move carries typed mt, tl, wv, R50, Rd and Rr;
/// no book move does; and no TCEC comment had a value arbiter could not
/// parse. Free text is only the arbiter's note after the final move.
#[test]
fn every_engine_move_has_typed_values() {
    let Some(dir) = tcec_s15() else { return };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    let (mut engine, mut book, mut typed, mut bare, mut total) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut notes: Vec<(bool, String)> = Vec::new();
    for file in &files {
        arbiter::audit::audit_file(file, &Default::default(), |g| {
            let n = g.game.moves.len();
            for (i, m) in g.game.moves.iter().enumerate() {
                total += 1;
                let tcec: Vec<_> = m
                    .comments
                    .iter()
                    .filter_map(|c| c.annotations.tcec.as_ref())
                    .collect();
                for c in &m.comments {
                    assert!(
                        c.annotations.problems.is_empty(),
                        "{:?}",
                        c.annotations.problems
                    );
                    if !c.annotations.text.is_empty() {
                        notes.push((i + 1 == n, c.annotations.text.clone()));
                    }
                }
                match tcec.as_slice() {
                    [] => bare += 1,
                    [t] if t.book => {
                        book += 1;
                        assert!(t.mt.is_none() && t.wv.is_none() && t.rd.is_none());
                    }
                    [t] => {
                        engine += 1;
                        let all = t.mt.is_some()
                            && t.tl.is_some()
                            && t.wv.is_some()
                            && t.r50.is_some()
                            && t.rd.is_some()
                            && t.rr.is_some();
                        typed += u64::from(all);
                    }
                    more => panic!("{} TCEC comments on one move", more.len()),
                }
            }
            Ok(())
        })
        .unwrap();
    }
    eprintln!(
        "{total} moves: {engine} engine moves, {book} book moves, {bare} without any comment"
    );
    // Free text is kept, not dropped: the arbiter's notes (termination
    // reasons after the final move, and one mid-game network disconnection).
    notes.sort();
    notes.dedup();
    eprintln!("free-text notes (after final move?, text): {notes:?}");
    assert!(
        notes
            .iter()
            .any(|(last, t)| !last && t == "Network disconnection")
    );
    assert_eq!(total, 57957);
    assert_eq!(engine + book + bare, total);
    assert_eq!(typed, engine, "every non-book move is fully typed");
    assert_eq!(engine, 54887, "the count of d= comments in the archive");
    // moves the archive records with no comment at all
    assert_eq!(bare, 16);
}

//! Untrusted text in, escaped text out: PGN tags, engine names and log
//! lines carrying markup, script, quotes, Markdown syntax or terminal
//! control characters come out inert in every report (HTML, Markdown,
//! SVG, text).

use std::path::Path;

use super::arbiter;

const SCRIPT: &str = "<script>alert(1)</script>";
const IMG: &str = "<img src=x onerror=alert(2)>";

/// A TCEC event whose every name is hostile: two divisions' worth of games
/// so that the event-level findings and standings repeat the names.
fn hostile_pgn() -> String {
    let names = [
        format!("{SCRIPT} 1"),
        format!("B\"'&amp; | `x` [l](javascript:alert(3)) {IMG}"),
        "C\u{1b}[2J\u{7} 2".to_string(),
    ];
    let event = format!("TCEC Season 15 - Division 2 {IMG}");
    let mut s = String::new();
    let mut k = 0;
    for w in &names {
        for b in &names {
            if w == b {
                continue;
            }
            k += 1;
            s.push_str(&format!(
                "[Event \"{}\"]\n[Site \"{SCRIPT}\"]\n[Date \"2019.03.01\"]\n[Round \"{k}.1\"]\n[White \"{}\"]\n[Black \"{}\"]\n[Result \"1/2-1/2\"]\n[TerminationDetails \"{SCRIPT}\"]\n\n1. e4 {{{IMG}}} e5 1/2-1/2\n\n",
                event.replace('"', "\\\""),
                w.replace('"', "\\\""),
                b.replace('"', "\\\""),
            ));
        }
    }
    s
}

/// No live markup from the input in an HTML or SVG report.
fn inert_html(name: &str, text: &str) {
    for bad in [SCRIPT, IMG, "javascript:alert(3)\"", "\u{1b}", "\u{7}"] {
        assert!(!text.contains(bad), "{name} contains {bad:?}");
    }
    // the report's own scripts are the only ones
    let own = text.matches("<script>").count();
    assert!(own <= 1, "{name}: {own} <script> elements");
}

/// Markdown: no raw HTML, no live link, no table broken by a `|`.
fn inert_md(name: &str, text: &str) {
    for bad in [SCRIPT, IMG, "\u{1b}", "\u{7}"] {
        assert!(!text.contains(bad), "{name} contains {bad:?}");
    }
    // a link needs `](`: every one from the input has its `]` escaped
    for (i, _) in text.match_indices("](javascript:") {
        assert!(text[..i].ends_with('\\'), "{name}: a live link at byte {i}");
    }
    for line in text
        .lines()
        .filter(|l| l.starts_with('|') && l.contains("B\\\""))
    {
        assert!(
            line.contains("\\|"),
            "{name}: the name's | is escaped in {line}"
        );
    }
}

#[test]
fn hostile_names_come_out_escaped_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("hostile.pgn");
    std::fs::write(&pgn, hostile_pgn()).unwrap();
    let p = pgn.to_str().unwrap();
    // the dossier
    let out = dir.path().join("dossier");
    let o = arbiter(&[
        "audit",
        "--rules",
        "rulesets/tcec-s15.rules",
        "--out",
        out.to_str().unwrap(),
        p,
    ]);
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // the text report on the terminal: no control characters
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text}"
    );
    let html = std::fs::read_to_string(out.join("dossier.html")).unwrap();
    inert_html("dossier.html", &html);
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "the name is shown, escaped"
    );
    inert_md(
        "dossier.md",
        &std::fs::read_to_string(out.join("dossier.md")).unwrap(),
    );
    for e in std::fs::read_dir(out.join("dossier-files"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let t = std::fs::read_to_string(e.path()).unwrap_or_default();
        inert_html(&e.path().display().to_string(), &t);
    }
    // the batch summary, with the event-level findings and standings
    let b = dir.path().join("batch");
    let o = arbiter(&[
        "batch",
        p,
        "--rules",
        "rulesets/tcec-s15.rules",
        "--out",
        b.to_str().unwrap(),
    ]);
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let summary = std::fs::read_to_string(b.join("summary.html")).unwrap();
    inert_html("summary.html", &summary);
    assert!(
        summary.contains("tcec.round-robin"),
        "the event-level findings are there"
    );
    inert_md(
        "summary.md",
        &std::fs::read_to_string(b.join("summary.md")).unwrap(),
    );
    // the CSV keeps the names exactly (data, not a document), quoted; a
    // name that would start a spreadsheet formula gets a leading `'`
    // (tests/bounds.rs): none of these does
    let csv = std::fs::read_to_string(b.join("standings.csv")).unwrap();
    assert!(
        csv.contains(SCRIPT),
        "CSV is data: the names are kept whole"
    );
}

#[test]
fn hostile_engine_names_in_logs_and_charts() {
    // an engine log whose engine calls itself by a script
    let dir = tempfile::tempdir().unwrap();
    let case = Path::new("samples/kasparov-deep-junior-2003/clean");
    let log = std::fs::read_to_string(case.join("engine.log"))
        .unwrap()
        .replace("Stockfish 15.1", &format!("Stockfish {SCRIPT}"));
    let elog = dir.path().join("engine.log");
    std::fs::write(&elog, log).unwrap();
    let out = dir.path().join("dossier");
    let charts = dir.path().join("charts");
    let o = arbiter(&[
        "audit",
        "--rules",
        "rulesets/kasparov-deep-junior-2003.rules",
        "--engine-log",
        elog.to_str().unwrap(),
        "--operator-log",
        case.join("operator.log").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--charts",
        charts.to_str().unwrap(),
        case.join("game.pgn").to_str().unwrap(),
    ]);
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    inert_html(
        "dossier.html",
        &std::fs::read_to_string(out.join("dossier.html")).unwrap(),
    );
    inert_md(
        "dossier.md",
        &std::fs::read_to_string(out.join("dossier.md")).unwrap(),
    );
    for e in std::fs::read_dir(&charts).unwrap().flatten() {
        inert_html(
            &e.path().display().to_string(),
            &std::fs::read_to_string(e.path()).unwrap(),
        );
    }
}

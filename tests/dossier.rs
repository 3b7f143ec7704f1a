//! The dossier: one self-contained HTML file and the same as Markdown;
//! input text escaped; byte-identical across runs; and, in Debian's
//! headless Chromium, it loads with no script error and every board of the
//! move stepper is drawn.

use std::path::Path;
use std::process::Command;

use super::arbiter;

const HOSTILE: &str = "[Event \"TCEC Season 15 - Division 4a\"]\n[Site \"<img src=x onerror=alert(1)>\"]\n[Date \"2019.03.12\"]\n[Round \"1.1\"]\n[White \"<script>alert('x')</script>\"]\n[Black \"B & co](javascript:alert(1)) **bold**\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n";

fn dossier(dir: &Path) -> std::process::Output {
    dossier_into(dir, &dir.join("out"))
}

fn dossier_into(dir: &Path, out: &Path) -> std::process::Output {
    let pgn = dir.join("hostile.pgn");
    std::fs::write(&pgn, HOSTILE).unwrap();
    arbiter(&[
        "audit",
        "--format",
        "html",
        "--out",
        out.to_str().unwrap(),
        "samples/kasparov-deep-junior-2003/flag-fall-from-logs",
        "samples/tcec-s15/manual-clock-addition",
        pgn.to_str().unwrap(),
    ])
}

#[test]
fn the_dossier_is_self_contained_escaped_and_reproducible() {
    let a = tempfile::tempdir().unwrap();
    let o = dossier(a.path());
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let html = std::fs::read_to_string(a.path().join("out/dossier.html")).unwrap();
    // self-contained: nothing fetched from elsewhere
    for bad in ["http://", "https://", " src=\"", "<link", "@import", "url("] {
        let hits: Vec<&str> = html
            .match_indices(bad)
            .map(|(i, _)| &html[i.saturating_sub(40)..(i + 60).min(html.len())])
            .filter(|s| !s.contains("http://www.w3.org/2000/svg"))
            .collect();
        assert!(hits.is_empty(), "{bad}: {hits:?}");
    }
    // input text is escaped
    assert!(!html.contains("<script>alert"));
    assert!(!html.contains("<img src=x"));
    assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
    // content: the flag fall with its clause, a board, the charts, the stepper
    assert!(html.contains("dj.flag-fall"));
    assert!(html.contains("Time control: 2 hours for the first 40 moves"));
    assert!(html.contains("class=\"board\""));
    assert!(
        html.contains("<mark>Qg4</mark>"),
        "the finding's ply is marked"
    );
    assert!(
        html.contains("Evaluation (White&apos;s view, pawns)"),
        "the eval chart"
    );
    assert!(html.contains("minutes left"), "the clock chart");
    assert!(html.contains("class=\"stepper\""));
    let md = std::fs::read_to_string(a.path().join("out/dossier.md")).unwrap();
    assert!(md.contains("dj.flag-fall") && md.contains("](dossier-files/"));
    assert!(
        !md.replace("\\]", "").contains("](javascript:"),
        "Markdown link syntax from a tag is escaped"
    );
    assert!(md.contains("co\\](javascript:alert(1)) \\*\\*bold\\*\\*"));
    let jsonl = std::fs::read_to_string(a.path().join("out/audit.jsonl")).unwrap();
    assert_eq!(jsonl.lines().count(), 4, "three games and the summary");
    // byte-identical on a second run of the same inputs
    dossier_into(a.path(), &a.path().join("again"));
    for f in ["dossier.html", "dossier.md", "audit.jsonl"] {
        let x = std::fs::read(a.path().join("out").join(f)).unwrap();
        let y = std::fs::read(a.path().join("again").join(f)).unwrap();
        assert!(x == y, "{f} differs between two runs");
    }
}

#[test]
fn the_dossier_loads_in_headless_chromium() {
    let chromium = "/usr/bin/chromium";
    if !Path::new(chromium).exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install chromium (.ci/run does)"
        );
        eprintln!("skipping: {chromium} is not installed (apt-get install chromium)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let o = dossier(dir.path());
    assert_eq!(o.status.code(), Some(1));
    let page = format!("file://{}", dir.path().join("out/dossier.html").display());
    let run = |extra: &[&str]| {
        let mut args = vec![
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-logging=stderr",
            "--v=0",
        ];
        args.extend_from_slice(extra);
        args.push(&page);
        Command::new(chromium)
            .args(&args)
            .output()
            .expect("chromium runs")
    };
    let dom = run(&["--dump-dom", "--virtual-time-budget=5000"]);
    let dom_text = String::from_utf8_lossy(&dom.stdout).to_string();
    let log = String::from_utf8_lossy(&dom.stderr).to_string();
    for line in log.lines().filter(|l| l.contains("CONSOLE")) {
        assert!(
            !line.contains("Uncaught") && !line.contains("Error"),
            "console error: {line}"
        );
    }
    let steppers = dom_text.matches("class=\"stepper\"").count();
    assert_eq!(steppers, 3, "one stepper per game with findings");
    assert_eq!(
        dom_text.matches("data-drawn=").count(),
        steppers,
        "every stepper's board was drawn by the script"
    );
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dossier.png");
    let s = run(&[
        &format!("--screenshot={}", shot.display()),
        "--window-size=1200,1600",
        "--hide-scrollbars",
    ]);
    assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 10_000);
    eprintln!("screenshot kept at {}", shot.display());
}

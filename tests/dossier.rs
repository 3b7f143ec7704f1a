//! The dossier: one self-contained HTML file and the same as Markdown;
//! input text escaped; byte-identical across runs; and, in Debian's
//! headless Chromium, it loads with no script error and every board of the
//! move stepper is drawn; at 1366×768 the first screen of the samples'
//! dossier, of a single game's and of the S15 batch summary holds the verdict
//! table and a finding and shows no SHA-256.

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
    assert!(html.contains(">Qg4</mark>"), "the finding's ply is marked");
    board_is_drawn_by_one_renderer(&html);
    assert!(
        html.contains("Evaluation (White&apos;s view, pawns)"),
        "the eval chart"
    );
    assert!(html.contains("minutes left"), "the clock chart");
    assert!(html.contains("class=\"stepper\""));
    // the verdict comes first, the record of inputs last and collapsed;
    // input text is escaped there too
    let (first, rest) = html
        .split_once("<section id=\"rules\">")
        .expect("the findings by rule follow the verdict");
    assert!(first.contains("id=\"verdict-table\""));
    assert!(first.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
    assert!(
        !first.contains(&arbiter::base::digest::sha256_hex(HOSTILE.as_bytes())),
        "no hash before the record"
    );
    let record = &rest[rest.find("<section id=\"record\"").expect("the record")..];
    assert!(record.contains("<details><summary>"));
    assert!(record.contains(&arbiter::base::digest::sha256_hex(HOSTILE.as_bytes())));
    assert!(
        !record[1..].contains("<section"),
        "the record is the last section"
    );
    // without scripts, the filter and the steppers stay hidden
    assert!(html.contains("<form class=\"filter\" id=\"filter\" hidden>"));
    assert_eq!(
        html.matches("<div class=\"stepper\" hidden").count(),
        html.matches("<div class=\"stepper\"").count()
    );
    // every link inside the page has its anchor, and no anchor is twice
    let attr = |name: &str| -> Vec<String> {
        html.split(name)
            .skip(1)
            .map(|r| r[..r.find('"').unwrap()].to_string())
            .collect()
    };
    let ids = attr(" id=\"");
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "an id is used twice");
    let links = attr(" href=\"#");
    assert!(
        links.iter().any(|l| l.ends_with("-f1")),
        "findings are linked"
    );
    for l in &links {
        assert!(ids.contains(l), "a link to #{l}, which no element has");
    }
    let md = std::fs::read_to_string(a.path().join("out/dossier.md")).unwrap();
    assert!(md.contains("dj.flag-fall") && md.contains("](dossier-files/"));
    assert_eq!(
        md.lines().filter(|l| l.starts_with("1. ")).count(),
        3,
        "the Markdown gives each game's move list once"
    );
    for e in std::fs::read_dir(a.path().join("out/dossier-files")).unwrap() {
        let p = e.unwrap().path();
        let svg = std::fs::read_to_string(&p).unwrap();
        if !svg.contains("class=\"board\"") {
            // a chart: whole moves on the move axis, labels of 12 px or more
            let texts: Vec<&str> = svg
                .split("</text>")
                .filter_map(|t| t.rsplit_once('>').map(|x| x.1.trim()))
                .collect();
            assert!(
                !texts.iter().any(|t| t.ends_with(".0")),
                "{}: a tick reads like 10.0: {texts:?}",
                p.display()
            );
            for size in svg.split("font-size=\"").skip(1) {
                let px: f64 = size[..size.find('"').unwrap()].parse().unwrap();
                assert!(px >= 12.0, "{}: text of {px} px", p.display());
            }
        }
        if svg.contains("class=\"board\"") {
            for id in svg
                .split("<use href=\"#")
                .skip(1)
                .map(|r| &r[..r.find('"').unwrap()])
            {
                assert!(
                    svg.contains(&format!("<symbol id=\"{id}\"")),
                    "{}: a board file uses #{id} without its symbol",
                    p.display()
                );
            }
        }
    }
    for l in md.split("](#").skip(1).map(|r| &r[..r.find(')').unwrap()]) {
        assert!(
            md.contains(&format!("<a id=\"{l}\"></a>")),
            "the Markdown links to #{l}, which it does not anchor"
        );
    }
    assert!(
        !md.replace("\\]", "").contains("](javascript:"),
        "Markdown link syntax from a tag is escaped"
    );
    assert!(md.contains("co\\](javascript:alert(1)) \\*\\*bold\\*\\*"));
    let verdict = md.find("## Verdict").expect("a verdict");
    let rules = md.find("## Findings by rule").expect("findings by rule");
    let record = md.find("## Appendix: record of inputs").expect("a record");
    assert!(verdict < rules && rules < record, "the Markdown's order");
    assert!(!md[..record].contains(&arbiter::base::digest::sha256_hex(HOSTILE.as_bytes())));
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

/// The boards: pieces drawn from arbiter's own symbols (defined once, used
/// by every board, no font glyph), the files and ranks on the edge, the side
/// to move beside each board, the last move's squares marked; one move list
/// per game, each move clickable for the stepper.
fn board_is_drawn_by_one_renderer(html: &str) {
    for side in ['w', 'b'] {
        for piece in ['K', 'Q', 'R', 'B', 'N', 'P'] {
            let def = format!("<symbol id=\"piece-{side}{piece}\"");
            assert_eq!(html.matches(&def).count(), 1, "{def} once in the page");
        }
    }
    for glyph in [
        '\u{265A}', '\u{265B}', '\u{265C}', '\u{265D}', '\u{265E}', '\u{265F}',
    ] {
        assert!(!html.contains(glyph), "a font glyph {glyph} is left");
    }
    let boards: Vec<&str> = html
        .split("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\"")
        .skip(1)
        .map(|b| &b[..b.find("</svg>").unwrap()])
        .collect();
    assert!(boards.len() >= 4, "the findings' boards and the steppers'");
    for b in &boards {
        assert!(b.contains("<use href=\"#piece-"), "pieces by <use>: {b}");
        assert!(!b.contains("<symbol"), "no board redefines the pieces");
        let coords = &b[b.find("class=\"coords\"").expect("coordinates")..];
        for c in [
            "a", "b", "c", "d", "e", "f", "g", "h", "1", "2", "3", "4", "5", "6", "7", "8",
        ] {
            assert!(coords.contains(&format!(">{c}</text>")), "coordinate {c}");
        }
        assert!(
            b.contains("class=\"turn\"")
                && (b.contains("<title>White to move</title>")
                    || b.contains("<title>Black to move</title>")),
            "the side to move, in words too"
        );
        assert!(b.contains("; White to move\"") || b.contains("; Black to move\""));
        assert_eq!(
            b.matches("<rect class=\"last\"").count(),
            2,
            "the last move"
        );
    }
    // the hostile game's finding's board: after 2... Qh4# (ply 4), White
    // is to move (the marker at White's edge) and d8-h4 is marked
    assert!(html.contains("after ply 4 (… Qh4#); White to move"));
    let mate = boards
        .iter()
        .find(|b| b.contains("aria-label=\"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w"))
        .expect("the board after 2... Qh4#");
    assert!(
        mate.contains("class=\"last\" x=\"90\" y=\"0\""),
        "d8 marked: {mate}"
    );
    assert!(
        mate.contains("class=\"last\" x=\"210\" y=\"120\""),
        "h4 marked: {mate}"
    );
    assert!(!mate.contains("visibility=\"hidden\""));
    assert!(
        mate.contains("data-side=\"w\" cx=\"247\" cy=\"225\""),
        "{mate}"
    );
    // the move list, once per game, each move the stepper's
    let steppers = html.matches("<div class=\"stepper\"").count();
    assert_eq!(html.matches("<p class=\"moves\"").count(), steppers);
    for list in html.split("<p class=\"moves\" data-src=\"").skip(1) {
        let src = &list[..list.find('"').unwrap()];
        assert!(html.contains(&format!("class=\"stepper\" hidden tabindex=\"0\" aria-label=\"move stepper: the left and right arrow keys step through the moves\" data-src=\"{src}\"")));
        let list = &list[..list.find("</p>").unwrap()];
        assert!(list.contains("data-i=\"1\">"), "moves carry their step");
    }
    assert!(
        html.contains("closest('[data-i]')"),
        "a click on a move steps"
    );
}

#[test]
fn the_dossier_loads_in_headless_chromium() {
    if !have_chromium() {
        return;
    }
    let chromium = CHROMIUM;
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

/// The page a report is measured through: the report in an iframe of the
/// size of a laptop's screen, and a script that writes, into `#out`, what
/// of the report's DOM lies in that first viewport.
const MEASURE: &str = r#"<!DOCTYPE html><html><head><meta charset="utf-8"><style>html,body{margin:0;padding:0}iframe{border:0;width:1366px;height:768px;display:block}</style></head><body>
<iframe id="report" src="REPORT"></iframe><pre id="out">not measured</pre>
<script>
document.getElementById('report').addEventListener('load', function () {
  var out = {};
  try {
    var w = this.contentWindow, d = w.document, H = w.innerHeight, W = w.innerWidth;
    out.viewport = [W, H];
    function inView(r) { return r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < H && r.right > 0 && r.left < W; }
    function shown(el) { return !el.checkVisibility || el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }); }
    // the verdict table: its head and first row inside the viewport
    var t = d.getElementById('verdict-table');
    var row = t && t.querySelector('tbody tr');
    out.table = !!t;
    out.first_row_in_view = !!row && inView(row.getBoundingClientRect()) && row.getBoundingClientRect().bottom <= H && shown(row);
    out.first_row = row ? row.id : null;
    out.rows = t ? t.querySelectorAll('tbody tr').length : 0;
    // findings in view, with the codes they name
    out.findings_in_view = [];
    var fs = d.querySelectorAll('.finding');
    for (var i = 0; i < fs.length; i++) {
      if (inView(fs[i].getBoundingClientRect()) && shown(fs[i])) out.findings_in_view.push(fs[i].getAttribute('data-f'));
    }
    out.boards_in_view = 0;
    var bs = d.querySelectorAll('svg.board');
    for (var i = 0; i < bs.length; i++) if (inView(bs[i].getBoundingClientRect()) && shown(bs[i])) out.boards_in_view++;
    // every text holding 64 hex digits, and those drawn inside the viewport
    out.sha_texts = 0; out.sha_in_view = [];
    var walk = d.createTreeWalker(d.body, NodeFilter.SHOW_TEXT), n;
    while ((n = walk.nextNode())) {
      if (!/[0-9a-fA-F]{64}/.test(n.nodeValue)) continue;
      out.sha_texts++;
      var range = d.createRange(); range.selectNodeContents(n);
      var rects = range.getClientRects();
      for (var k = 0; k < rects.length; k++) {
        if (inView(rects[k]) && shown(n.parentElement)) { out.sha_in_view.push(n.nodeValue.slice(0, 80)); break; }
      }
    }
    var rec = d.getElementById('record');
    var det = rec && rec.querySelector('details');
    out.record_collapsed = !!det && !det.open;
    out.record_last = !!rec && !rec.nextElementSibling || (rec && rec.nextElementSibling.tagName === 'SCRIPT');
    // the filter: errors only
    var sev = d.getElementById('filter-sev');
    out.filter = !!sev && !d.getElementById('filter').hidden;
    if (out.filter) {
      sev.value = 'error'; sev.dispatchEvent(new w.Event('change'));
      var rows = t.querySelectorAll('tbody tr'), kept = 0, errors = 0;
      for (var i = 0; i < rows.length; i++) {
        if (!rows[i].hidden) kept++;
        if (rows[i].getAttribute('data-f').indexOf('"error"') >= 0) errors++;
      }
      out.filter_kept = kept; out.filter_with_errors = errors;
      sev.value = ''; sev.dispatchEvent(new w.Event('change'));
    }
    // the stepper: the right arrow key steps one move on
    var st = d.querySelector('.stepper');
    if (st) {
      var svg = st.querySelector('svg'), before = svg.getAttribute('data-drawn');
      st.focus();
      st.dispatchEvent(new w.KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true, cancelable: true }));
      var after = svg.getAttribute('data-drawn');
      st.dispatchEvent(new w.KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true, cancelable: true }));
      out.stepper_keys = before !== after && svg.getAttribute('data-drawn') === before;
      // a click on the list's first move shows the position after it,
      // marks the move, and moves the marker of the side to move
      var list = d.querySelector('.moves[data-src="' + st.getAttribute('data-src') + '"]');
      var data = JSON.parse(d.getElementById(st.getAttribute('data-src')).textContent);
      var m = list && list.querySelector('[data-i="1"]');
      if (m) {
        m.click();
        out.move_click = svg.getAttribute('data-drawn') === data.fens[1] && m.classList.contains('cur')
          && svg.querySelector('.turn').getAttribute('data-side') === data.fens[1].split(' ')[1]
          && svg.querySelectorAll('.pieces use').length > 0
          && svg.querySelector('.last').getAttribute('visibility') === null;
      }
    }
  } catch (e) { out.error = String(e); }
  document.getElementById('out').textContent = JSON.stringify(out);
});
</script></body></html>"#;

const CHROMIUM: &str = "/usr/bin/chromium";

/// Whether headless Chromium is there; when not, the reason is printed
/// (and CI, which installs it, fails).
fn have_chromium() -> bool {
    if Path::new(CHROMIUM).exists() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must install chromium (.ci/run does)"
    );
    eprintln!("skipping: {CHROMIUM} is not installed (apt-get install chromium)");
    false
}

/// What of `report`'s DOM lies in its first 1366×768 viewport, measured in
/// headless Chromium.
fn first_screen(report: &Path) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let wrapper = dir.path().join("measure.html");
    let url = format!("file://{}", report.canonicalize().unwrap().display());
    std::fs::write(&wrapper, MEASURE.replace("REPORT", &url)).unwrap();
    let o = Command::new(CHROMIUM)
        .args([
            "--headless=new",
            "--disable-gpu",
            "--no-sandbox",
            "--allow-file-access-from-files",
            "--hide-scrollbars",
            "--window-size=1366,768",
            "--virtual-time-budget=5000",
            "--dump-dom",
        ])
        .arg(format!("file://{}", wrapper.display()))
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&o.stdout);
    let text = dom
        .split_once("<pre id=\"out\">")
        .and_then(|(_, r)| r.split_once("</pre>"))
        .map(|(t, _)| {
            t.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&amp;", "&")
        })
        .unwrap_or_else(|| panic!("no measurement in {dom}"));
    let v: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("the measurement {text:?} is not JSON: {e}"));
    assert!(v.get("error").is_none(), "the measuring script failed: {v}");
    v
}

/// A screenshot of `report`'s first screen at 1366×768, into
/// `ARBITER_SCREENSHOTS` (a folder; `scripts/screenshots.sh` sets it to
/// `reports/`) or else the test's scratch folder.
fn screenshot(report: &Path, name: &str) {
    let dir = std::env::var_os("ARBITER_SCREENSHOTS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).to_path_buf());
    std::fs::create_dir_all(&dir).unwrap();
    let shot = dir.join(name);
    let s = Command::new(CHROMIUM)
        .args([
            "--headless=new",
            "--disable-gpu",
            "--no-sandbox",
            "--hide-scrollbars",
            "--window-size=1366,768",
        ])
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!(
            "file://{}",
            report.canonicalize().unwrap().display()
        ))
        .output()
        .expect("chromium runs");
    assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 10_000);
    eprintln!("screenshot kept at {}", shot.display());
}

/// The first screen holds the verdict: the table of games with findings
/// (its first row in view), at least one finding (one the report's JSON
/// has), and no SHA-256, though the report holds some (collapsed in the
/// record, which comes last).
fn assert_first_screen(name: &str, m: &serde_json::Value, codes: &[(String, String)]) {
    eprintln!("{name}, first screen: {m}");
    assert_eq!(m["viewport"][1], 768, "{name}: {m}");
    assert!(m["table"] == true, "{name}: no verdict table: {m}");
    assert!(
        m["first_row_in_view"] == true,
        "{name}: the verdict table's first row is not in the first viewport: {m}"
    );
    let shown = m["findings_in_view"].as_array().unwrap();
    assert!(
        !shown.is_empty(),
        "{name}: no finding in the first viewport: {m}"
    );
    for f in shown {
        let keys: Vec<(String, String)> =
            serde_json::from_str::<Vec<[String; 2]>>(f.as_str().unwrap())
                .unwrap()
                .into_iter()
                .map(|[s, c]| (s, c))
                .collect();
        assert!(
            keys.iter().all(|k| codes.contains(k)),
            "{name}: a finding in view that the JSON does not have: {keys:?}"
        );
    }
    assert!(
        m["sha_texts"].as_u64().unwrap() > 0,
        "{name}: the report records no SHA-256 at all: {m}"
    );
    assert_eq!(
        m["sha_in_view"],
        serde_json::json!([]),
        "{name}: a SHA-256 is visible in the first viewport"
    );
    if m["filter"] == true {
        assert_eq!(
            m["filter_kept"], m["filter_with_errors"],
            "{name}: the filter by severity keeps exactly the games with an error"
        );
    }
    assert!(m["record_collapsed"] == true, "{name}: {m}");
    assert!(
        m["record_last"] == true,
        "{name}: the record is not last: {m}"
    );
}

/// A game as audit.jsonl gives it: the dossier's anchor, the counts by
/// severity and the (severity, code) of each finding.
type JsonGame = (String, [usize; 4], Vec<(String, String)>);

/// Each game's (severity, code) pairs and counts by severity, from the
/// report's audit.jsonl, keyed by the dossier's anchor of the game.
fn games_of(jsonl: &Path) -> Vec<JsonGame> {
    std::fs::read_to_string(jsonl)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["type"] == "game")
        .map(|v| {
            let path = v["source"]["path"].as_str().unwrap();
            let n = v["source"]["index"].as_u64().unwrap() + 1;
            let anchor = format!(
                "g{n}-{}",
                &arbiter::base::digest::sha256_hex(path.as_bytes())[..8]
            );
            let mut counts = [0usize; 4];
            let mut keys = Vec::new();
            for f in v["findings"].as_array().unwrap() {
                let sev = f["severity"].as_str().unwrap().to_string();
                let i = ["error", "warning", "manual-review", "info"]
                    .iter()
                    .position(|s| *s == sev)
                    .unwrap();
                counts[i] += 1;
                keys.push((sev, f["code"].as_str().unwrap().to_string()));
            }
            (anchor, counts, keys)
        })
        .collect()
}

#[test]
fn the_samples_dossier_shows_the_verdict_on_the_first_screen() {
    if !have_chromium() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("samples");
    let o = arbiter(&["audit", "samples", "--out", out.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let games = games_of(&out.join("audit.jsonl"));
    let codes: Vec<(String, String)> = games.iter().flat_map(|g| g.2.clone()).collect();
    let m = first_screen(&out.join("dossier.html"));
    assert_first_screen("samples dossier", &m, &codes);
    // worst first: the first row is a game with the most errors (then
    // warnings, ...) of all
    let worst = games.iter().map(|g| g.1).max().unwrap();
    let first = m["first_row"].as_str().unwrap().trim_start_matches("v-");
    let g = games.iter().find(|g| g.0 == first).expect("the row's game");
    assert_eq!(g.1, worst, "the first row is not the worst game");
    let with = games.iter().filter(|g| !g.2.is_empty()).count();
    assert_eq!(m["rows"], with, "one row per game with findings");
    // the filter keeps the games with an error, and the arrow keys step
    let errors = games.iter().filter(|g| g.1[0] > 0).count();
    assert!(m["filter"] == true, "{m}");
    assert_eq!(m["filter_kept"], errors, "{m}");
    assert_eq!(m["filter_with_errors"], errors, "{m}");
    assert!(m["stepper_keys"] == true, "{m}");
    assert!(m["move_click"] == true, "a click on a move steps: {m}");
    screenshot(&out.join("dossier.html"), "first-screen-dossier.png");
}

#[test]
fn a_single_game_s_dossier_shows_its_board_and_finding_first() {
    if !have_chromium() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("one");
    let o = arbiter(&[
        "audit",
        "samples/kasparov-deep-junior-2003/flag-fall-from-logs",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let games = games_of(&out.join("audit.jsonl"));
    assert_eq!(games.len(), 1);
    let m = first_screen(&out.join("dossier.html"));
    assert_first_screen("one game's dossier", &m, &games[0].2);
    assert!(
        m["boards_in_view"].as_u64().unwrap() >= 1,
        "no board in the first viewport: {m}"
    );
}

#[test]
fn the_s15_batch_summary_shows_the_verdict_on_the_first_screen() {
    if !have_chromium() {
        return;
    }
    let Some(s15) = super::tcec_s15() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s15");
    let o = arbiter(&[
        "batch",
        s15.to_str().unwrap(),
        "--rules",
        "rulesets/tcec-s15.rules",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let games = games_of(&out.join("audit.jsonl"));
    // the event-level findings count too
    let mut codes: Vec<(String, String)> = games.iter().flat_map(|g| g.2.clone()).collect();
    for l in std::fs::read_to_string(out.join("audit.jsonl"))
        .unwrap()
        .lines()
    {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        for f in v["findings"].as_array().into_iter().flatten() {
            codes.push((
                f["severity"].as_str().unwrap().to_string(),
                f["code"].as_str().unwrap().to_string(),
            ));
        }
    }
    let m = first_screen(&out.join("summary.html"));
    assert_first_screen("S15 batch summary", &m, &codes);
    assert!(m["filter"] == true, "the summary has the filter: {m}");
    let worst = games.iter().map(|g| g.1).max().unwrap();
    let first = m["first_row"].as_str().unwrap().trim_start_matches("v-");
    let g = games.iter().find(|g| g.0 == first).expect("the row's game");
    assert_eq!(g.1, worst, "the first row is not the worst game");
    screenshot(&out.join("summary.html"), "first-screen-batch-s15.png");
}

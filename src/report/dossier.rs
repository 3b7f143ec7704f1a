//! The dossier a committee reads: one self-contained HTML file (no network,
//! no external file), and the same content as Markdown.
//!
//! It holds a summary, the findings grouped by rule with the clause quoted,
//! and for each game with findings: the board (SVG) at every finding's ply,
//! the move list with that ply marked, the evaluation chart (both engines,
//! the ruleset's adjudication bands shaded), the clock chart, and a small
//! move stepper in plain JavaScript. Everything taken from an input file is
//! escaped.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use plotters::prelude::*;
use shakmaty::{Chess, EnPassantMode, Position, Role, Square, fen::Fen};

use crate::audit::GameAudit;
use crate::findings::{Finding, Severity};

/// Escape text for HTML (element content and attribute values).
pub fn html(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => {
                let _ = write!(o, "&#{};", u32::from(c).max(0x20));
            }
            c => o.push(c),
        }
    }
    o
}

/// Escape text for Markdown: markup characters are backslash-escaped and
/// control characters dropped, so input text cannot open a link, an image,
/// raw HTML, emphasis or a code span, or break a table. (The dossier never
/// starts a line with input text, so line-start markers need no escape.)
pub fn md(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '<' | '>' | '&' | '~' => {
                o.push('\\');
                o.push(c);
            }
            '\n' | '\r' | '\t' => o.push(' '),
            c if c.is_control() => {}
            c => o.push(c),
        }
    }
    o
}

/// A move as the dossier shows it: (ply, SAN, side is white, FEN after,
/// from square, to square).
pub type MoveView = (u32, String, bool, String, Option<Square>, Option<Square>);

/// One game as the dossier shows it.
#[derive(Debug, Clone)]
pub struct GameView {
    pub label: String,
    pub anchor: String,
    pub white: String,
    pub black: String,
    pub result: String,
    pub plies: usize,
    pub findings: Vec<Finding>,
    pub moves: Vec<MoveView>,
    pub start_fen: String,
    pub eval_svg: Option<String>,
    pub clock_svg: Option<String>,
}

/// Keep what the dossier needs of an audited game. Games without findings
/// keep only their summary row.
pub fn view(g: &GameAudit, bands: &[(f64, &'static str)]) -> GameView {
    let tag = |k: &str| g.game.tag(k).unwrap_or("?").to_string();
    let label = format!(
        "{} game {}: {} - {} ({}), {} round {}",
        g.path,
        g.game.index + 1,
        tag("White"),
        tag("Black"),
        tag("Result"),
        tag("Event"),
        tag("Round")
    );
    let with_detail = !g.findings.is_empty();
    let moves = if with_detail {
        g.replay
            .plies
            .iter()
            .map(|p| {
                let (from, to) = uci_squares(&p.uci);
                (
                    p.ply,
                    p.san.to_string(),
                    p.side.is_white(),
                    p.fen(),
                    from,
                    to,
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    GameView {
        anchor: format!("g{}-{}", g.game.index + 1, short_hash(&g.path)),
        label,
        white: tag("White"),
        black: tag("Black"),
        result: tag("Result"),
        plies: g.replay.plies.len(),
        findings: g.findings.clone(),
        moves,
        start_fen: Fen::from_position(&g.replay.start, EnPassantMode::Legal).to_string(),
        eval_svg: if with_detail {
            eval_chart(g, bands).ok()
        } else {
            None
        },
        clock_svg: if with_detail {
            super::chart::for_game(g).and_then(Result::ok)
        } else {
            None
        },
    }
}

fn short_hash(s: &str) -> String {
    let h = crate::audit::sha256_hex(s.as_bytes());
    h[..8].to_string()
}

fn uci_squares(uci: &str) -> (Option<Square>, Option<Square>) {
    let sq = |r: std::ops::Range<usize>| uci.get(r).and_then(|s| s.parse::<Square>().ok());
    (sq(0..2), sq(2..4))
}

/// The board as SVG, White at the bottom, the move's squares marked.
pub fn board_svg(fen: &str, from: Option<Square>, to: Option<Square>, size: u32) -> String {
    let pos: Option<Chess> = fen
        .parse::<Fen>()
        .ok()
        .and_then(|f| f.into_position(shakmaty::CastlingMode::Chess960).ok());
    let s = size / 8;
    let mut o = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" width=\"{size}\" height=\"{size}\" viewBox=\"0 0 {size} {size}\" role=\"img\" aria-label=\"{}\">",
        html(fen)
    );
    for rank in 0..8u32 {
        for file in 0..8u32 {
            let sq = Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(7 - rank));
            let light = (file + rank) % 2 == 0;
            let marked = Some(sq) == from || Some(sq) == to;
            let fill = match (light, marked) {
                (true, false) => "#f0d9b5",
                (false, false) => "#b58863",
                (true, true) => "#cdd26a",
                (false, true) => "#aaa23a",
            };
            let _ = write!(
                o,
                "<rect x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\" fill=\"{fill}\"/>",
                file * s,
                rank * s
            );
            if let Some(p) = pos.as_ref().and_then(|p| p.board().piece_at(sq)) {
                let glyph = match p.role {
                    Role::King => '\u{265A}',
                    Role::Queen => '\u{265B}',
                    Role::Rook => '\u{265C}',
                    Role::Bishop => '\u{265D}',
                    Role::Knight => '\u{265E}',
                    Role::Pawn => '\u{265F}',
                };
                let (fill, stroke) = if p.color.is_white() {
                    ("#ffffff", "#000000")
                } else {
                    ("#000000", "#000000")
                };
                let _ = write!(
                    o,
                    "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" font-family=\"DejaVu Sans, Segoe UI Symbol, sans-serif\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1\">{glyph}</text>",
                    file * s + s / 2,
                    rank * s + s * 4 / 5,
                    s * 4 / 5
                );
            }
        }
    }
    o.push_str("</svg>");
    o
}

/// White's-view evaluation of each ply: TCEC `wv`, `[%eval]`, or
/// cutechess's score (the mover's view).
fn evals(g: &GameAudit) -> Vec<(u32, bool, f64)> {
    let mut out = Vec::new();
    for p in &g.replay.plies {
        let mv = &g.game.moves[p.move_index];
        let white = p.side.is_white();
        let v = mv.comments.iter().find_map(|c| {
            let a = &c.annotations;
            a.tcec
                .as_ref()
                .and_then(|t| t.wv)
                .or(a.eval.as_ref().map(|e| e.score))
                .map(crate::timeline::score_pawns)
                .or_else(|| {
                    a.cutechess.as_ref().and_then(|cc| cc.score).map(|s| {
                        let v = crate::timeline::score_pawns(s);
                        if white { v } else { -v }
                    })
                })
        });
        if let Some(v) = v {
            out.push((p.ply, white, v.clamp(-12.0, 12.0)));
        }
    }
    out
}

/// The evaluation chart: each engine's evaluation (White's view) by move,
/// with the ruleset's adjudication bands shaded.
pub fn eval_chart(g: &GameAudit, bands: &[(f64, &'static str)]) -> Result<String, String> {
    let points = evals(g);
    if points.is_empty() {
        return Err("no evaluations recorded".into());
    }
    let max_ply = points.iter().map(|p| p.0).max().unwrap_or(2).max(2);
    let x_max = f64::from(max_ply) / 2.0 + 1.0;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 320)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut ctx = ChartBuilder::on(&root)
            .caption("Evaluation (White's view, pawns)", ("sans-serif", 16))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(44)
            .build_cartesian_2d(0f64..x_max, -12f64..12f64)
            .map_err(|e| e.to_string())?;
        ctx.configure_mesh()
            .x_desc("move")
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(|e| e.to_string())?;
        for &(limit, what) in bands {
            let colour = if what.contains("draw") {
                RGBColor(120, 200, 120).mix(0.25)
            } else {
                RGBColor(230, 140, 60).mix(0.18)
            };
            let rects: Vec<((f64, f64), (f64, f64))> = if what.contains("draw") {
                vec![((0.0, -limit), (x_max, limit))]
            } else {
                vec![
                    ((0.0, limit), (x_max, 12.0)),
                    ((0.0, -12.0), (x_max, -limit)),
                ]
            };
            ctx.draw_series(
                rects
                    .into_iter()
                    .map(|(a, b)| Rectangle::new([a, b], colour.filled())),
            )
            .map_err(|e| e.to_string())?
            .label(what)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], colour.filled()));
        }
        let colours = [RGBColor(30, 90, 200), RGBColor(20, 20, 20)];
        let names = [
            super::chart::escape(g.game.tag("White").unwrap_or("White")),
            super::chart::escape(g.game.tag("Black").unwrap_or("Black")),
        ];
        for (k, white) in [(0usize, true), (1, false)] {
            let series: Vec<(f64, f64)> = points
                .iter()
                .filter(|p| p.1 == white)
                .map(|p| (f64::from(p.0) / 2.0, p.2))
                .collect();
            if series.is_empty() {
                continue;
            }
            let c = colours[k];
            ctx.draw_series(LineSeries::new(series, c.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(names[k].clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], c.stroke_width(2))
                });
        }
        ctx.configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(200, 200, 200))
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// Adjudication bands from a ruleset: its `draw_eval` and `win_eval`
/// constants, when it has them.
pub fn bands(rs: Option<&crate::rules::analyzer::Ruleset>) -> Vec<(f64, &'static str)> {
    let Some(rs) = rs else { return Vec::new() };
    let Ok(p) = crate::rules::eval::Program::new(rs, None) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (name, label) in [
        ("draw_eval", "draw-rule band"),
        ("win_eval", "win-rule band"),
    ] {
        if let Some(i) = rs.consts.iter().position(|(n, _)| n == name)
            && let Some(crate::timeline::Value::Num(v)) = p.consts.get(i)
        {
            out.push((*v, label));
        }
    }
    out
}

/// Findings grouped by code: (code, title, clause, sanction, [(game, finding)]).
fn grouped(games: &[GameView]) -> Vec<(String, Vec<(usize, &Finding)>)> {
    let mut m: BTreeMap<String, Vec<(usize, &Finding)>> = BTreeMap::new();
    for (gi, g) in games.iter().enumerate() {
        for f in &g.findings {
            m.entry(f.code.clone()).or_default().push((gi, f));
        }
    }
    let rank = |v: &Vec<(usize, &Finding)>| {
        v.iter()
            .map(|(_, f)| match f.severity {
                Severity::Error => 0,
                Severity::Warning => 1,
                Severity::ManualReview => 2,
                Severity::Info => 3,
            })
            .min()
            .unwrap_or(4)
    };
    let mut v: Vec<_> = m.into_iter().collect();
    v.sort_by(|a, b| rank(&a.1).cmp(&rank(&b.1)).then(a.0.cmp(&b.0)));
    v
}

fn finding_ply(f: &Finding) -> Option<u32> {
    f.evidence.iter().find_map(|e| e.ply)
}

fn evidence_text(f: &Finding) -> Vec<String> {
    f.evidence
        .iter()
        .map(|e| {
            let mut s = e.path.clone();
            if let Some(sp) = e.span {
                let _ = write!(s, ":{}:{}", sp.line, sp.column);
            }
            if let Some(p) = e.ply {
                let _ = write!(s, " (ply {p})");
            }
            if let Some(t) = &e.timestamp {
                let _ = write!(s, " at {t}");
            }
            if !e.note.is_empty() {
                let _ = write!(s, ": {}", e.note);
            }
            s
        })
        .collect()
}

const STYLE: &str = "body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}\
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}\
.error{color:#b00}.warning{color:#a60}.info{color:#357}.manual-review{color:#555}\
.moves span{padding:0 2px}.moves mark{background:#ffe066;font-weight:bold}\
.finding{border-left:4px solid #ccc;padding-left:8px;margin:12px 0}\
.stepper button{font-size:16px}.quote{font-style:italic;color:#444}\
figure{margin:6px 0}";

/// The move stepper: reads each game's FENs from its JSON block and draws
/// the board into the game's SVG.
const SCRIPT: &str = r#"(function(){
var G={K:'\u265A',Q:'\u265B',R:'\u265C',B:'\u265D',N:'\u265E',P:'\u265F'};
function draw(svg,fen){
  var s=40,ns='http://www.w3.org/2000/svg',rows=fen.split(' ')[0].split('/');
  while(svg.firstChild)svg.removeChild(svg.firstChild);
  for(var r=0;r<8;r++){var f=0;var row=rows[r]||'';
    for(var i=0;i<row.length;i++){var c=row[i];
      if(c>='1'&&c<='8'){for(var k=0;k<+c;k++){sq(r,f);f++;}continue;}
      sq(r,f);var t=document.createElementNS(ns,'text');
      t.setAttribute('x',f*s+s/2);t.setAttribute('y',r*s+s*0.8);t.setAttribute('font-size',s*0.8);
      t.setAttribute('text-anchor','middle');t.setAttribute('font-family','DejaVu Sans, Segoe UI Symbol, sans-serif');
      var w=(c===c.toUpperCase());t.setAttribute('fill',w?'#fff':'#000');t.setAttribute('stroke','#000');
      t.textContent=G[c.toUpperCase()]||'?';svg.appendChild(t);f++;}}
  function sq(r,f){var q=document.createElementNS(ns,'rect');q.setAttribute('x',f*s);q.setAttribute('y',r*s);
    q.setAttribute('width',s);q.setAttribute('height',s);q.setAttribute('fill',(r+f)%2?'#b58863':'#f0d9b5');svg.appendChild(q);}
  svg.setAttribute('data-drawn',fen);
}
var boxes=document.querySelectorAll('.stepper');
for(var b=0;b<boxes.length;b++){(function(box){
  var data=JSON.parse(document.getElementById(box.getAttribute('data-src')).textContent);
  var svg=box.querySelector('svg'),label=box.querySelector('.ply'),range=box.querySelector('input');
  range.max=data.fens.length-1;
  function show(i){i=Math.max(0,Math.min(data.fens.length-1,i));range.value=i;draw(svg,data.fens[i]);
    label.textContent=i===0?'start':data.labels[i-1];}
  box.querySelector('.prev').onclick=function(){show(+range.value-1);};
  box.querySelector('.next').onclick=function(){show(+range.value+1);};
  range.oninput=function(){show(+range.value);};
  show(+(box.getAttribute('data-start')||0));
})(boxes[b]);}
})();"#;

/// Text inside a `<script type="application/json">`: no `</` can close it.
fn script_json(v: &serde_json::Value) -> String {
    v.to_string()
        .replace("</", "<\\/")
        .replace("<!--", "<\\!--")
}

/// The HTML dossier.
pub fn to_html(title: &str, summary: &[(String, String)], games: &[GameView]) -> String {
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head><body>\n",
        html(title)
    );
    let _ = writeln!(o, "<h1>{}</h1>", html(title));
    o.push_str("<h2>Summary</h2>\n<table>");
    for (k, v) in summary {
        let _ = write!(o, "<tr><th>{}</th><td>{}</td></tr>", html(k), html(v));
    }
    o.push_str("</table>\n<h3>Games</h3>\n<table><tr><th>game</th><th>plies</th><th>errors</th><th>warnings</th><th>info</th></tr>");
    for g in games {
        let n = |s: Severity| g.findings.iter().filter(|f| f.severity == s).count();
        let name = if g.findings.is_empty() {
            html(&g.label)
        } else {
            format!("<a href=\"#{}\">{}</a>", g.anchor, html(&g.label))
        };
        let _ = write!(
            o,
            "<tr><td>{name}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            g.plies,
            n(Severity::Error),
            n(Severity::Warning),
            n(Severity::Info)
        );
    }
    o.push_str("</table>\n<h2>Findings by rule</h2>\n");
    for (code, list) in grouped(games) {
        let f0 = list[0].1;
        let _ = write!(
            o,
            "<h3 class=\"{}\">{} <code>{}</code> ({} finding{})</h3>",
            f0.severity.as_str(),
            html(&f0.title),
            html(&code),
            list.len(),
            if list.len() == 1 { "" } else { "s" }
        );
        if !f0.clause.is_empty() {
            let _ = write!(o, "<p class=\"quote\">{}</p>", html(&f0.clause));
        }
        if !f0.sanction.is_empty() {
            let _ = write!(o, "<p>Sanction: {}</p>", html(&f0.sanction));
        }
        o.push_str("<ul>");
        for (gi, f) in &list {
            let g = &games[*gi];
            let _ = write!(
                o,
                "<li><a href=\"#{}\">{}</a>: {}</li>",
                g.anchor,
                html(&g.label),
                html(&f.message)
            );
        }
        o.push_str("</ul>\n");
    }
    o.push_str("<h2>Games with findings</h2>\n");
    for g in games.iter().filter(|g| !g.findings.is_empty()) {
        let _ = write!(
            o,
            "<section id=\"{}\"><h3>{}</h3>",
            g.anchor,
            html(&g.label)
        );
        for f in &g.findings {
            let _ = write!(
                o,
                "<div class=\"finding\"><p><b class=\"{}\">{}[{}]</b> {}: {}</p>",
                f.severity.as_str(),
                f.severity.as_str(),
                html(&f.code),
                html(&f.title),
                html(&f.message)
            );
            for e in evidence_text(f) {
                let _ = write!(o, "<p><code>{}</code></p>", html(&e));
            }
            if !f.clause.is_empty() {
                let _ = write!(o, "<p class=\"quote\">{}</p>", html(&f.clause));
            }
            if let Some(ply) = finding_ply(f)
                && let Some(m) = g.moves.iter().find(|m| m.0 == ply)
            {
                let _ = write!(
                    o,
                    "<figure>{}<figcaption>after ply {} ({}{})</figcaption></figure>",
                    board_svg(&m.3, m.4, m.5, 240),
                    m.0,
                    if m.2 { "" } else { "… " },
                    html(&m.1)
                );
                o.push_str(&move_list_html(g, Some(ply)));
            }
            o.push_str("</div>");
        }
        if let Some(svg) = &g.eval_svg {
            let _ = write!(o, "<figure>{svg}</figure>");
        }
        if let Some(svg) = &g.clock_svg {
            let _ = write!(o, "<figure>{svg}</figure>");
        }
        // the stepper
        let mut fens = vec![g.start_fen.clone()];
        let mut labels = Vec::new();
        for m in &g.moves {
            fens.push(m.3.clone());
            labels.push(format!(
                "{}{} {}",
                m.0.div_ceil(2),
                if m.2 { "." } else { "..." },
                m.1
            ));
        }
        let id = format!("{}-data", g.anchor);
        let start = g
            .findings
            .iter()
            .find_map(finding_ply)
            .and_then(|p| g.moves.iter().position(|m| m.0 == p))
            .map_or(0, |i| i + 1);
        let _ = write!(
            o,
            "<script type=\"application/json\" id=\"{id}\">{}</script><div class=\"stepper\" data-src=\"{id}\" data-start=\"{start}\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"320\" height=\"320\" viewBox=\"0 0 320 320\"></svg><br><button class=\"prev\" type=\"button\">&#9664;</button> <input type=\"range\" min=\"0\" value=\"0\"> <button class=\"next\" type=\"button\">&#9654;</button> <span class=\"ply\"></span></div>",
            script_json(&serde_json::json!({"fens": fens, "labels": labels}))
        );
        o.push_str("</section>\n");
    }
    let _ = write!(o, "<script>{SCRIPT}</script>\n</body></html>\n");
    o
}

fn move_list_html(g: &GameView, mark: Option<u32>) -> String {
    let mut o = String::from("<p class=\"moves\">");
    for m in &g.moves {
        if m.2 {
            let _ = write!(o, "{}. ", m.0.div_ceil(2));
        }
        if Some(m.0) == mark {
            let _ = write!(o, "<mark>{}</mark> ", html(&m.1));
        } else {
            let _ = write!(o, "<span>{}</span> ", html(&m.1));
        }
    }
    o.push_str("</p>");
    o
}

/// The Markdown dossier; boards and charts are written as SVG files next to
/// it (`files`: (name, content)).
pub fn to_markdown(
    title: &str,
    summary: &[(String, String)],
    games: &[GameView],
    dir_name: &str,
) -> (String, Vec<(String, String)>) {
    let mut o = String::new();
    let mut files = Vec::new();
    let _ = writeln!(o, "# {}\n\n## Summary\n", md(title));
    o.push_str("| | |\n|---|---|\n");
    for (k, v) in summary {
        let _ = writeln!(o, "| {} | {} |", md(k), md(v));
    }
    o.push_str(
        "\n### Games\n\n| game | plies | errors | warnings | info |\n|---|---|---|---|---|\n",
    );
    for g in games {
        let n = |s: Severity| g.findings.iter().filter(|f| f.severity == s).count();
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} |",
            md(&g.label),
            g.plies,
            n(Severity::Error),
            n(Severity::Warning),
            n(Severity::Info)
        );
    }
    o.push_str("\n## Findings by rule\n");
    for (code, list) in grouped(games) {
        let f0 = list[0].1;
        let _ = writeln!(
            o,
            "\n### {} `{}` ({}, {} finding{})\n",
            md(&f0.title),
            code.replace('`', "'"),
            f0.severity.as_str(),
            list.len(),
            if list.len() == 1 { "" } else { "s" }
        );
        if !f0.clause.is_empty() {
            let _ = writeln!(o, "> {}\n", md(&f0.clause));
        }
        if !f0.sanction.is_empty() {
            let _ = writeln!(o, "Sanction: {}\n", md(&f0.sanction));
        }
        for (gi, f) in &list {
            let _ = writeln!(o, "- {}: {}", md(&games[*gi].label), md(&f.message));
        }
    }
    o.push_str("\n## Games with findings\n");
    for g in games.iter().filter(|g| !g.findings.is_empty()) {
        let _ = writeln!(o, "\n### {}\n", md(&g.label));
        for (k, f) in g.findings.iter().enumerate() {
            let _ = writeln!(
                o,
                "**{}\\[{}\\]** {}: {}\n",
                f.severity.as_str(),
                md(&f.code),
                md(&f.title),
                md(&f.message)
            );
            for e in evidence_text(f) {
                let _ = writeln!(o, "- {}", md(&e));
            }
            if let Some(ply) = finding_ply(f)
                && let Some(m) = g.moves.iter().find(|m| m.0 == ply)
            {
                let name = format!("{}-{}-{k}.svg", g.anchor, m.0);
                files.push((name.clone(), board_svg(&m.3, m.4, m.5, 240)));
                let _ = writeln!(o, "\n![board after ply {}]({dir_name}/{name})\n", m.0);
                let mut list = String::new();
                for mv in &g.moves {
                    if mv.2 {
                        let _ = write!(list, "{}. ", mv.0.div_ceil(2));
                    }
                    if mv.0 == ply {
                        let _ = write!(list, "**{}** ", md(&mv.1));
                    } else {
                        let _ = write!(list, "{} ", md(&mv.1));
                    }
                }
                let _ = writeln!(o, "{}\n", list.trim_end());
            }
        }
        for (what, svg) in [("eval", &g.eval_svg), ("clock", &g.clock_svg)] {
            if let Some(svg) = svg {
                let name = format!("{}-{what}.svg", g.anchor);
                files.push((name.clone(), svg.clone()));
                let _ = writeln!(o, "![{what} chart]({dir_name}/{name})\n");
            }
        }
    }
    (o, files)
}

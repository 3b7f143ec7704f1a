//! The dossier as one self-contained HTML file: the verdict first, the
//! record of inputs last (collapsed), a filter by severity and rule, a
//! move stepper driven by the mouse or the keyboard, and a print style.

use std::fmt::Write as _;

use super::first_screen::{self as parts, Verdict};
use super::{
    Dossier, GameView, MoveView, SEVERITIES, board_in_page, escape_html, evidence_text,
    finding_anchor, finding_ply, grouped, page_defs, rule_anchor, script_json, to_move,
};
use crate::findings::{Finding, Severity};

/// The style, for the screen and for print (each game on its own page,
/// the record last, no controls).
pub const STYLE: &str = "[hidden]{display:none!important}\
body{font:15px/1.45 sans-serif;max-width:1200px;margin:0 auto;padding:0 16px 2em;color:#222}\
h1{font-size:1.45em;margin:.5em 0 .1em}h2{font-size:1.2em;border-bottom:1px solid #ddd;margin:1.4em 0 .4em}\
h3{font-size:1.05em;margin:.8em 0 .3em}p{margin:.35em 0}\
nav.toc{font-size:.9em;margin:0 0 .3em}nav.toc a{margin-right:1.2em}\
table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}\
table.verdict{width:100%;font-size:.9em}table.verdict td:nth-child(3),table.verdict td:nth-child(5){white-space:nowrap}td.rules a,td.rules span{margin-right:.5em;font-family:monospace;white-space:nowrap}\
.path,.file,code{overflow-wrap:anywhere}.hash{font-size:.85em}\
.error{color:#b00}.warning{color:#a60}.info{color:#357}.manual-review{color:#555}\
.counts .n{font-weight:bold;margin-right:.8em}.counts .zero{color:#888;font-weight:normal}\
.first{display:flex;gap:16px;align-items:flex-start;flex-wrap:wrap;margin:6px 0}\
.first figure{margin:0}.first .finding{flex:1;min-width:320px;margin:0}\
.finding{border-left:4px solid #ccc;padding-left:8px;margin:12px 0}.sev-error{border-left-color:#b00}.sev-warning{border-left-color:#a60}\
.filter{font-size:.9em;margin:8px 0 2px}.filter label{margin-right:1em}\
.moves{max-width:760px;line-height:1.8}.moves span,.moves mark{padding:1px 3px;border-radius:3px}.moves mark{background:#ffe066;font-weight:bold}\
.moves.live [data-i]{cursor:pointer}.moves.live [data-i]:hover{background:#dde6f5}.moves .cur{background:#36c;color:#fff}\
.play{display:flex;gap:16px;align-items:flex-start;flex-wrap:wrap}svg.defs{position:absolute}svg.board{max-width:100%;height:auto}\
.stepper button{font-size:16px}.stepper:focus{outline:2px solid #36c}.stepper .keys{color:#666;font-size:.85em}\
.quote{font-style:italic;color:#444}figure{margin:6px 0}:target{background:#fff8d0}\
details summary{cursor:pointer}\
@media print{body{max-width:none;font-size:10.5pt;padding:0}nav.toc,.filter,.stepper{display:none}\
a{color:inherit;text-decoration:none}section.game,section.appendix{break-before:page}\
tr,figure,.finding{break-inside:avoid}}";

/// The page's script: the move steppers (hidden without scripts; each
/// reads its game's FENs from its JSON block and draws the board into its
/// SVG; ← and → step the one focused, or the first in view), the filter by severity and rule (shown
/// only when scripts run; without them everything is shown), and the
/// record opened for printing.
pub const SCRIPT: &str = r#"(function(){
function draw(svg,fen,last){
  var ns='http://www.w3.org/2000/svg',s=+svg.getAttribute('data-s'),g=svg.querySelector('.pieces'),
      parts=fen.split(' '),rows=parts[0].split('/');
  while(g.firstChild)g.removeChild(g.firstChild);
  for(var r=0;r<8;r++){var f=0,row=rows[r]||'';
    for(var i=0;i<row.length;i++){var c=row[i];
      if(c>='1'&&c<='8'){f+=+c;continue;}
      var u=document.createElementNS(ns,'use'),w=(c===c.toUpperCase());
      u.setAttribute('href','#piece-'+(w?'w':'b')+c.toUpperCase());
      u.setAttribute('x',f*s);u.setAttribute('y',r*s);u.setAttribute('width',s);u.setAttribute('height',s);
      g.appendChild(u);f++;}}
  var ls=svg.querySelectorAll('.last');
  for(var k=0;k<ls.length;k++){var q=last&&last[k];
    if(q){ls[k].setAttribute('x',(q.charCodeAt(0)-97)*s);ls[k].setAttribute('y',(56-q.charCodeAt(1))*s);ls[k].removeAttribute('visibility');}
    else ls[k].setAttribute('visibility','hidden');}
  var side=parts[1]==='b'?'b':'w',words=(side==='w'?'White':'Black')+' to move',t=svg.querySelector('.turn');
  if(t&&t.getAttribute('data-side')!==side){var a=t.getAttribute('fill');t.setAttribute('fill',t.getAttribute('stroke'));
    t.setAttribute('stroke',a);t.setAttribute('cy',8*s-(+t.getAttribute('cy')));t.setAttribute('data-side',side);
    var tt=t.querySelector('title');if(tt)tt.textContent=words;}
  svg.setAttribute('aria-label',fen+'; '+words);
  svg.setAttribute('data-drawn',fen);
}
var steppers=[];
var boxes=document.querySelectorAll('.stepper');
for(var b=0;b<boxes.length;b++){(function(box){
  var data=JSON.parse(document.getElementById(box.getAttribute('data-src')).textContent);
  var svg=box.querySelector('svg'),label=box.querySelector('.ply'),range=box.querySelector('input'),
      list=document.querySelector('.moves[data-src="'+box.getAttribute('data-src')+'"]'),cur=null;
  range.max=data.fens.length-1;
  function show(i){i=Math.max(0,Math.min(data.fens.length-1,i));range.value=i;
    draw(svg,data.fens[i],i===0?null:data.last[i-1]);
    label.textContent=i===0?'start':data.labels[i-1];
    if(list){if(cur){cur.classList.remove('cur');cur.removeAttribute('aria-current');}
      cur=list.querySelector('[data-i="'+i+'"]');if(cur){cur.classList.add('cur');cur.setAttribute('aria-current','step');}}}
  if(list){list.classList.add('live');list.addEventListener('click',function(e){
    var m=e.target.closest('[data-i]');if(!m)return;show(+m.getAttribute('data-i'));box.focus({preventScroll:true});});}
  function step(d){show(+range.value+d);}
  box.querySelector('.prev').onclick=function(){step(-1);};
  box.querySelector('.next').onclick=function(){step(1);};
  range.oninput=function(){show(+range.value);};
  box.addEventListener('keydown',function(e){
    if(e.target===range)return;
    if(e.key==='ArrowLeft'){step(-1);e.preventDefault();}
    else if(e.key==='ArrowRight'){step(1);e.preventDefault();}});
  steppers.push({box:box,step:step});
  box.hidden=false;
  show(+(box.getAttribute('data-start')||0));
})(boxes[b]);}
document.addEventListener('keydown',function(e){
  if(e.defaultPrevented||e.altKey||e.ctrlKey||e.metaKey)return;
  if(e.key!=='ArrowLeft'&&e.key!=='ArrowRight')return;
  var t=e.target;if(t&&t!==document.body&&t!==document.documentElement)return;
  for(var i=0;i<steppers.length;i++){var r=steppers[i].box.getBoundingClientRect();
    if(r.bottom>0&&r.top<window.innerHeight&&r.height>0){steppers[i].step(e.key==='ArrowLeft'?-1:1);e.preventDefault();return;}}
});
var form=document.getElementById('filter');
if(form){
  var sev=document.getElementById('filter-sev'),code=document.getElementById('filter-code'),
      count=document.getElementById('filter-count'),els=document.querySelectorAll('[data-f]');
  var keys=[];for(var i=0;i<els.length;i++){var k=[];try{k=JSON.parse(els[i].getAttribute('data-f'));}catch(x){}keys.push(k);}
  function apply(){var s=sev.value,c=code.value,shown=0;
    for(var i=0;i<els.length;i++){var ok=false;
      for(var j=0;j<keys[i].length;j++){if((!s||keys[i][j][0]===s)&&(!c||keys[i][j][1]===c)){ok=true;break;}}
      els[i].hidden=!ok;if(ok&&els[i].tagName==='TR')shown++;}
    count.textContent=(s||c)?shown+' game'+(shown===1?'':'s')+' shown':'';}
  sev.onchange=apply;code.onchange=apply;form.onsubmit=function(e){e.preventDefault();};
  form.hidden=false;
}
var opened=[];
window.addEventListener('beforeprint',function(){var d=document.querySelectorAll('details:not([open])');
  for(var i=0;i<d.length;i++){d[i].open=true;opened.push(d[i]);}});
window.addEventListener('afterprint',function(){while(opened.length)opened.pop().open=false;});
})();"#;

/// The table of contents, on top.
fn toc() -> &'static str {
    "<nav class=\"toc\" aria-label=\"Contents\"><a href=\"#verdict\">Verdict</a><a href=\"#rules\">Findings by rule</a><a href=\"#games\">Games with findings</a><a href=\"#all-games\">All games</a><a href=\"#record\">Appendix: record of inputs</a></nav>\n"
}

/// The filter by severity and rule: hidden until the script ([`SCRIPT`])
/// shows it.
pub fn filter(v: &Verdict) -> String {
    let mut codes: Vec<&str> = v
        .games
        .iter()
        .flat_map(|g| g.findings.iter().map(|f| f.code.as_str()))
        .collect();
    if codes.is_empty() {
        return String::new();
    }
    codes.sort_unstable();
    codes.dedup();
    let mut o = String::from(
        "<form class=\"filter\" id=\"filter\" hidden><label>Severity <select id=\"filter-sev\"><option value=\"\">all</option>",
    );
    for s in SEVERITIES {
        let _ = write!(o, "<option value=\"{0}\">{0}</option>", s.as_str());
    }
    o.push_str(
        "</select></label><label>Rule <select id=\"filter-code\"><option value=\"\">all</option>",
    );
    for c in codes {
        let _ = write!(o, "<option value=\"{0}\">{0}</option>", escape_html(c));
    }
    o.push_str("</select></label><span id=\"filter-count\"></span></form>");
    o
}

/// The board at the `k`-th finding of `g`, the dossier's gravest, when the
/// dossier holds a single game with findings (`g`).
pub(crate) fn first_board(g: &GameView, k: usize) -> Option<String> {
    let ply = finding_ply(&g.findings[k])?;
    let m = g.moves.iter().find(|m| m.0 == ply)?;
    Some(board_figure(m))
}

/// The board after move `m`, with its caption: the ply, the move and the
/// side to move.
fn board_figure(m: &MoveView) -> String {
    format!(
        "<figure>{}<figcaption>after ply {} ({}{}); {}</figcaption></figure>",
        board_in_page(&m.3, m.4, m.5, 240),
        m.0,
        if m.2 { "" } else { "… " },
        escape_html(&m.1),
        to_move(&m.3)
    )
}

/// The game of the gravest finding and the finding's index, when the
/// verdict holds a single game with findings.
pub(crate) fn single_gravest(v: &Verdict) -> Option<(usize, usize)> {
    let (gi, k) = v.gravest()?;
    (v.worst_first().len() == 1).then_some((gi, k))
}

/// The HTML dossier.
pub fn to_html(d: &Dossier) -> String {
    let games = d.games;
    let v = d.verdict();
    let board = single_gravest(&v).and_then(|(gi, k)| first_board(&games[gi], k));
    let mut o = head(&d.title, &v, board.as_deref());
    for (code, list) in grouped(games) {
        let f0 = list[0].2;
        let keys = parts::filter_keys(list.iter().map(|x| x.2));
        o.push_str(&rule_head(&code, f0, &keys, list.len()));
        for (gi, k, f) in &list {
            o.push_str(&rule_item(&games[*gi], *k, f));
        }
        o.push_str(RULE_END);
    }
    o.push_str(GAMES);
    for gi in v.worst_first() {
        o.push_str(&game_html(&games[gi]));
    }
    o.push_str(ALL_GAMES);
    for g in games {
        o.push_str(&all_games_row(g));
    }
    o.push_str(&tail(&d.record));
    o
}

/// The page up to the findings by rule: the head, the table of contents
/// and the verdict (`board`: the gravest finding's, when shown).
pub(crate) fn head(title: &str, v: &Verdict, board: Option<&str>) -> String {
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{}</title><style>{STYLE}</style></head><body>\n",
        escape_html(title)
    );
    o.push_str(&page_defs());
    let _ = writeln!(o, "<h1>{}</h1>", escape_html(title));
    o.push_str(toc());
    // the first screen: the verdict
    o.push_str("<section id=\"verdict\"><h2>Verdict</h2>");
    o.push_str(&parts::summary_html(v));
    o.push_str(&parts::gravest_html(v, board));
    o.push_str(&filter(v));
    o.push_str(&parts::table_html(v, usize::MAX));
    o.push_str("</section>\n");
    // the findings by rule
    o.push_str("<section id=\"rules\"><h2>Findings by rule</h2>\n");
    o
}

/// The head of a rule's findings: `f0` its first finding, `keys` the
/// filter keys of them all ([`parts::filter_keys`]), `n` their number.
pub(crate) fn rule_head(code: &str, f0: &Finding, keys: &str, n: usize) -> String {
    let mut o = String::new();
    let _ = write!(
        o,
        "<section class=\"rule\" id=\"{}\" data-f=\"{}\"><h3 class=\"{}\">{} <code>{}</code> ({} finding{})</h3>",
        rule_anchor(code),
        escape_html(keys),
        f0.severity.as_str(),
        escape_html(&f0.title),
        escape_html(code),
        n,
        if n == 1 { "" } else { "s" }
    );
    if !f0.clause.is_empty() {
        let _ = write!(o, "<p class=\"quote\">{}</p>", escape_html(&f0.clause));
    }
    if !f0.sanction.is_empty() {
        let _ = write!(o, "<p>Sanction: {}</p>", escape_html(&f0.sanction));
    }
    o.push_str("<ul>");
    o
}

/// A rule's finding `f`, the `k`-th (from 0) of game `g`, in its list.
pub(crate) fn rule_item(g: &GameView, k: usize, f: &Finding) -> String {
    format!(
        "<li data-f=\"{}\"><a href=\"#{}\">{}</a>: {}</li>",
        escape_html(&parts::filter_keys([f])),
        finding_anchor(&g.anchor, k + 1),
        escape_html(&g.label),
        escape_html(&f.message)
    )
}

/// The end of a rule's findings.
pub(crate) const RULE_END: &str = "</ul></section>\n";

/// The end of the findings by rule and the start of the games with
/// findings.
pub(crate) const GAMES: &str = "</section>\n<section id=\"games\"><h2>Games with findings</h2>\n";

/// The end of the games with findings and the start of every game's table.
pub(crate) const ALL_GAMES: &str = "</section>\n<section id=\"all-games\"><h2>All games</h2>\n<table><tr><th>game</th><th>plies</th><th>errors</th><th>warnings</th><th>manual review</th><th>info</th></tr>";

/// A game's row in the table of every game.
pub(crate) fn all_games_row(g: &GameView) -> String {
    let n = |s: Severity| g.findings.iter().filter(|f| f.severity == s).count();
    let name = if g.findings.is_empty() {
        escape_html(&g.label)
    } else {
        format!("<a href=\"#{}\">{}</a>", g.anchor, escape_html(&g.label))
    };
    format!(
        "<tr><td class=\"file\">{name}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        g.plies,
        n(Severity::Error),
        n(Severity::Warning),
        n(Severity::ManualReview),
        n(Severity::Info)
    )
}

/// The end of the page: the table's end, the record of inputs, the script.
pub(crate) fn tail(record: &super::Record) -> String {
    format!(
        "</table></section>\n{}<script>{SCRIPT}</script>\n</body></html>\n",
        super::record_html(record)
    )
}

/// One game with findings: each finding (anchored) with its board at its
/// ply, then the stepper and the move list (once), and the charts.
pub(crate) fn game_html(g: &GameView) -> String {
    let mut o = String::new();
    let _ = write!(
        o,
        "<section class=\"game\" id=\"{}\" data-f=\"{}\"><h3>{}</h3>",
        g.anchor,
        escape_html(&parts::filter_keys(&g.findings)),
        escape_html(&g.label)
    );
    for (k, f) in g.findings.iter().enumerate() {
        let _ = write!(
            o,
            "<div class=\"finding sev-{}\" id=\"{}\" data-f=\"{}\"><p><b class=\"{}\">{}[{}]</b> {}: {}</p>",
            f.severity.as_str(),
            finding_anchor(&g.anchor, k + 1),
            escape_html(&parts::filter_keys([f])),
            f.severity.as_str(),
            f.severity.as_str(),
            escape_html(&f.code),
            escape_html(&f.title),
            escape_html(&f.message)
        );
        for e in evidence_text(f) {
            let _ = write!(o, "<p><code>{}</code></p>", escape_html(&e));
        }
        if !f.clause.is_empty() {
            let _ = write!(o, "<p class=\"quote\">{}</p>", escape_html(&f.clause));
        }
        if let Some(ply) = finding_ply(f)
            && let Some(m) = g.moves.iter().find(|m| m.0 == ply)
        {
            o.push_str(&board_figure(m));
        }
        o.push_str("</div>");
    }
    o.push_str(&play_html(g));
    if let Some(svg) = &g.eval_svg {
        let _ = write!(o, "<figure>{svg}</figure>");
    }
    if let Some(svg) = &g.clock_svg {
        let _ = write!(o, "<figure>{svg}</figure>");
    }
    o.push_str("</section>\n");
    o
}

/// A game's stepper and its move list, once: the board (drawn here at the
/// first finding's ply, redrawn by the script), its controls and the
/// moves, each of which sets the stepper to it.
fn play_html(g: &GameView) -> String {
    let mut fens = vec![g.start_fen.clone()];
    let mut labels = Vec::new();
    let mut last = Vec::new();
    for m in &g.moves {
        fens.push(m.3.clone());
        labels.push(format!(
            "{}{} {}",
            m.0.div_ceil(2),
            if m.2 { "." } else { "..." },
            m.1
        ));
        last.push(match (m.4, m.5) {
            (Some(a), Some(b)) => serde_json::json!([a.to_string(), b.to_string()]),
            _ => serde_json::Value::Null,
        });
    }
    let id = format!("{}-data", g.anchor);
    let start = g
        .findings
        .iter()
        .find_map(finding_ply)
        .and_then(|p| g.moves.iter().position(|m| m.0 == p))
        .map_or(0, |i| i + 1);
    let board = match start.checked_sub(1).map(|i| &g.moves[i]) {
        Some(m) => board_in_page(&m.3, m.4, m.5, 320),
        None => board_in_page(&g.start_fen, None, None, 320),
    };
    let mut o = String::new();
    let _ = write!(
        o,
        "<script type=\"application/json\" id=\"{id}\">{}</script><div class=\"play\" id=\"{}-play\"><div class=\"stepper\" hidden tabindex=\"0\" aria-label=\"move stepper: the left and right arrow keys step through the moves\" data-src=\"{id}\" data-start=\"{start}\">{board}<br><button class=\"prev\" type=\"button\">&#9664;</button> <input type=\"range\" min=\"0\" value=\"0\"> <button class=\"next\" type=\"button\">&#9654;</button> <span class=\"ply\"></span> <span class=\"keys\">(keys &#8592; &#8594;)</span></div>",
        script_json(&serde_json::json!({"fens": fens, "labels": labels, "last": last})),
        g.anchor
    );
    o.push_str(&move_list_html(g, &id));
    o.push_str("</div>");
    o
}

/// The move list, once per game: each move carries its index in the
/// stepper (`data-i`, from 1), the plies of findings are marked.
fn move_list_html(g: &GameView, id: &str) -> String {
    let marked: Vec<u32> = g.findings.iter().filter_map(finding_ply).collect();
    let mut o = format!("<p class=\"moves\" data-src=\"{id}\">");
    for (i, m) in g.moves.iter().enumerate() {
        if m.2 {
            let _ = write!(o, "{}.&nbsp;", m.0.div_ceil(2));
        } else if i == 0 {
            let _ = write!(o, "{}...&nbsp;", m.0.div_ceil(2));
        }
        let tag = if marked.contains(&m.0) {
            "mark"
        } else {
            "span"
        };
        let _ = write!(
            o,
            "<{tag} data-i=\"{}\">{}</{tag}> ",
            i + 1,
            escape_html(&m.1)
        );
    }
    o.push_str("</p>");
    o
}

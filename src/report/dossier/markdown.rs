//! The dossier as Markdown, in the HTML's order: the verdict, the findings
//! by rule, each game with findings, every game, and the record of inputs.
//! Boards and charts are SVG files beside it.

use std::fmt::Write as _;

use super::first_screen::{self as parts, Verdict};
use super::html::single_gravest;
use super::{
    Dossier, GameView, board_svg, evidence_text, finding_anchor, finding_ply, grouped, md,
    rule_anchor,
};
use crate::findings::{Finding, Severity};

/// The file name of the board of a game's `k`-th finding (from 0) at
/// `ply`.
fn board_file(g: &GameView, ply: u32, k: usize) -> String {
    format!("{}-{ply}-{k}.svg", g.anchor)
}

/// The board at the `k`-th finding of `g`, the dossier's gravest, when the
/// dossier holds a single game with findings (`g`): an image of the board
/// file the game's section writes.
pub(crate) fn first_board(g: &GameView, k: usize, dir_name: &str) -> Option<String> {
    let ply = finding_ply(&g.findings[k])?;
    g.moves.iter().find(|m| m.0 == ply)?;
    Some(format!(
        "![board after ply {ply}]({dir_name}/{})",
        board_file(g, ply, k)
    ))
}

/// The Markdown dossier; boards and charts are written as SVG files next to
/// it (`files`: (name, content)).
pub fn to_markdown(d: &Dossier, dir_name: &str) -> (String, Vec<(String, String)>) {
    let games = d.games;
    let v = d.verdict();
    let mut files = Vec::new();
    let board = single_gravest(&v).and_then(|(gi, k)| first_board(&games[gi], k, dir_name));
    let mut o = head(&d.title, &v, board.as_deref());
    for (code, list) in grouped(games) {
        o.push_str(&rule_head(&code, list[0].2, list.len()));
        for (gi, k, f) in &list {
            o.push_str(&rule_item(&games[*gi], *k, f));
        }
    }
    o.push_str(GAMES);
    for gi in v.worst_first() {
        o.push_str(&game_md(&games[gi], dir_name, &mut files));
    }
    o.push_str(ALL_GAMES);
    for g in games {
        o.push_str(&all_games_row(g));
    }
    o.push_str(&tail(&d.record));
    (o, files)
}

/// The dossier up to the findings by rule: the title, the contents and the
/// verdict (`board`: the gravest finding's image, when shown).
pub(crate) fn head(title: &str, v: &Verdict, board: Option<&str>) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "# {}\n", md(title));
    o.push_str("Contents: [Verdict](#verdict) · [Findings by rule](#rules) · [Games with findings](#games) · [All games](#all-games) · [Appendix: record of inputs](#record)\n\n");
    o.push_str("<a id=\"verdict\"></a>\n\n## Verdict\n\n");
    o.push_str(&parts::summary_md(v));
    o.push_str(&parts::gravest_md(v, board));
    o.push_str(&parts::table_md(v, usize::MAX));
    o.push_str("<a id=\"rules\"></a>\n\n## Findings by rule\n");
    o
}

/// The head of a rule's findings: `f0` its first finding, `n` their
/// number.
pub(crate) fn rule_head(code: &str, f0: &Finding, n: usize) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "\n<a id=\"{}\"></a>\n\n### {} `{}` ({}, {} finding{})\n",
        rule_anchor(code),
        md(&f0.title),
        code.replace('`', "'"),
        f0.severity.as_str(),
        n,
        if n == 1 { "" } else { "s" }
    );
    if !f0.clause.is_empty() {
        let _ = writeln!(o, "> {}\n", md(&f0.clause));
    }
    if !f0.sanction.is_empty() {
        let _ = writeln!(o, "Sanction: {}\n", md(&f0.sanction));
    }
    o
}

/// A rule's finding `f`, the `k`-th (from 0) of game `g`, in its list.
pub(crate) fn rule_item(g: &GameView, k: usize, f: &Finding) -> String {
    format!(
        "- [{}](#{}): {}\n",
        md(&g.label),
        finding_anchor(&g.anchor, k + 1),
        md(&f.message)
    )
}

/// The start of the games with findings.
pub(crate) const GAMES: &str = "\n<a id=\"games\"></a>\n\n## Games with findings\n";

/// The start of every game's table.
pub(crate) const ALL_GAMES: &str = "\n<a id=\"all-games\"></a>\n\n## All games\n\n| game | plies | errors | warnings | manual review | info |\n|---|---|---|---|---|---|\n";

/// One game with findings: each finding with its board, the move list
/// (once) and the charts; the boards and charts go to `files` (name, SVG), which the
/// text links in `dir_name`.
pub(crate) fn game_md(g: &GameView, dir_name: &str, files: &mut Vec<(String, String)>) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "\n<a id=\"{}\"></a>\n\n### {}\n", g.anchor, md(&g.label));
    for (k, f) in g.findings.iter().enumerate() {
        let _ = writeln!(
            o,
            "<a id=\"{}\"></a>\n\n**{}\\[{}\\]** {}: {}\n",
            finding_anchor(&g.anchor, k + 1),
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
            let name = board_file(g, m.0, k);
            files.push((name.clone(), board_svg(&m.3, m.4, m.5, 240)));
            let _ = writeln!(o, "\n![board after ply {}]({dir_name}/{name})\n", m.0);
        }
    }
    // the move list, once, the findings' plies in bold
    let marked: Vec<u32> = g.findings.iter().filter_map(finding_ply).collect();
    if !g.moves.is_empty() {
        let mut list = String::new();
        for (i, mv) in g.moves.iter().enumerate() {
            if mv.2 {
                let _ = write!(list, "{}. ", mv.0.div_ceil(2));
            } else if i == 0 {
                let _ = write!(list, "{}... ", mv.0.div_ceil(2));
            }
            if marked.contains(&mv.0) {
                let _ = write!(list, "**{}** ", md(&mv.1));
            } else {
                let _ = write!(list, "{} ", md(&mv.1));
            }
        }
        let _ = writeln!(o, "{}\n", list.trim_end());
    }
    for (what, svg) in [("eval", &g.eval_svg), ("clock", &g.clock_svg)] {
        if let Some(svg) = svg {
            let name = format!("{}-{what}.svg", g.anchor);
            files.push((name.clone(), svg.clone()));
            let _ = writeln!(o, "![{what} chart]({dir_name}/{name})\n");
        }
    }
    o
}

/// A game's row in the table of every game.
pub(crate) fn all_games_row(g: &GameView) -> String {
    let n = |s: Severity| g.findings.iter().filter(|f| f.severity == s).count();
    format!(
        "| {} | {} | {} | {} | {} | {} |\n",
        md(&g.label),
        g.plies,
        n(Severity::Error),
        n(Severity::Warning),
        n(Severity::ManualReview),
        n(Severity::Info)
    )
}

/// The end of the dossier: the record of inputs.
pub(crate) fn tail(record: &super::Record) -> String {
    format!("\n{}", super::record_md(record))
}

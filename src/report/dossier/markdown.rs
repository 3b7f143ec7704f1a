//! The dossier as Markdown, in the HTML's order: the verdict, the findings
//! by rule, each game with findings, every game, and the record of inputs.
//! Boards and charts are SVG files beside it.

use std::fmt::Write as _;

use super::first_screen::{self as parts, Verdict};
use super::{
    Dossier, GameView, board_svg, evidence_text, finding_anchor, finding_ply, grouped, md,
    rule_anchor,
};
use crate::findings::Severity;

/// The file name of the board of a game's `k`-th finding (from 0) at
/// `ply`.
fn board_file(g: &GameView, ply: u32, k: usize) -> String {
    format!("{}-{ply}-{k}.svg", g.anchor)
}

/// The board at the gravest finding, when the dossier holds a single game
/// with findings: an image of the board file the game's section writes.
fn first_board(d: &Dossier, v: &Verdict, dir_name: &str) -> Option<String> {
    let (gi, k) = v.gravest()?;
    if v.worst_first().len() != 1 {
        return None;
    }
    let g = &d.games[gi];
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
    let mut o = String::new();
    let mut files = Vec::new();
    let _ = writeln!(o, "# {}\n", md(&d.title));
    o.push_str("Contents: [Verdict](#verdict) · [Findings by rule](#rules) · [Games with findings](#games) · [All games](#all-games) · [Appendix: record of inputs](#record)\n\n");
    o.push_str("<a id=\"verdict\"></a>\n\n## Verdict\n\n");
    o.push_str(&parts::summary_md(&v));
    o.push_str(&parts::gravest_md(
        &v,
        first_board(d, &v, dir_name).as_deref(),
    ));
    o.push_str(&parts::table_md(&v, usize::MAX));
    o.push_str("<a id=\"rules\"></a>\n\n## Findings by rule\n");
    for (code, list) in grouped(games) {
        let f0 = list[0].2;
        let _ = writeln!(
            o,
            "\n<a id=\"{}\"></a>\n\n### {} `{}` ({}, {} finding{})\n",
            rule_anchor(&code),
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
        for (gi, k, f) in &list {
            let g = &games[*gi];
            let _ = writeln!(
                o,
                "- [{}](#{}): {}",
                md(&g.label),
                finding_anchor(&g.anchor, k + 1),
                md(&f.message)
            );
        }
    }
    o.push_str("\n<a id=\"games\"></a>\n\n## Games with findings\n");
    for gi in v.worst_first() {
        let g = &games[gi];
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
    o.push_str(
        "\n<a id=\"all-games\"></a>\n\n## All games\n\n| game | plies | errors | warnings | manual review | info |\n|---|---|---|---|---|---|\n",
    );
    for g in games {
        let n = |s: Severity| g.findings.iter().filter(|f| f.severity == s).count();
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} | {} |",
            md(&g.label),
            g.plies,
            n(Severity::Error),
            n(Severity::Warning),
            n(Severity::ManualReview),
            n(Severity::Info)
        );
    }
    o.push('\n');
    o.push_str(&super::record_md(&d.record));
    (o, files)
}

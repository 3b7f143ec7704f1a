//! The first screen in Markdown, in the same order as the HTML.

use std::fmt::Write as _;

use super::{
    Verdict, Widespread, count_words, counts, event_round, events_line, players, rules_broken,
    widespread_tail, widespread_words,
};
use crate::report::dossier::{SEVERITIES, finding_anchor, md};

/// The events, the counts by severity and the facts, as Markdown.
pub fn summary_md(v: &Verdict) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{}\n", md(&events_line(v)));
    let c = v.counts();
    let words: Vec<String> = SEVERITIES
        .iter()
        .enumerate()
        .map(|(i, s)| format!("**{}**", count_words(c[i], *s)))
        .collect();
    let with = v.games.iter().filter(|g| !g.findings.is_empty()).count();
    let _ = write!(
        o,
        "{} in {with} of {} games",
        words.join(", "),
        v.total_games
    );
    if !v.event_findings.is_empty() {
        let n = v.event_findings.len();
        let _ = write!(
            o,
            " and {n} about {}",
            if n == 1 { "an event" } else { "events" }
        );
    }
    o.push_str("\n\n");
    if !v.facts.is_empty() {
        let _ = writeln!(o, "{}\n", md(&v.facts.join("; ")));
    }
    if v.unreadable > 0 {
        let _ = writeln!(
            o,
            "{} input{} could not be read: see the [record of inputs](#record).\n",
            v.unreadable,
            if v.unreadable == 1 { "" } else { "s" }
        );
    }
    o
}

/// The gravest finding as Markdown, with `board` (a Markdown image) above
/// it when given.
pub fn gravest_md(v: &Verdict, board: Option<&str>) -> String {
    if let Some((event, f)) = v.event_first() {
        let mut o = format!(
            "**{}** {} `{}`: about the event {}\n\n{}\n\n",
            f.severity.as_str(),
            md(&f.title),
            f.code.replace('`', "'"),
            md(event),
            md(&f.message)
        );
        if !f.clause.is_empty() {
            let _ = writeln!(o, "> {}\n", md(&f.clause));
        }
        return o;
    }
    let Some((gi, k)) = v.gravest() else {
        return if v.event_findings.is_empty() {
            "No findings: nothing in these games breaks a rule the audit checks.\n\n".to_string()
        } else {
            String::new()
        };
    };
    let g = &v.games[gi];
    let f = &g.findings[k];
    let mut o = String::new();
    if let Some(b) = board {
        let _ = writeln!(o, "{b}\n");
    }
    let title = if g.linked {
        format!("[{}](#{})", md(&f.title), finding_anchor(&g.anchor, k + 1))
    } else {
        md(&f.title)
    };
    let _ = writeln!(
        o,
        "**{}** {title} `{}`: {} ({}), {}; game {} of {}\n\n{}\n",
        f.severity.as_str(),
        f.code.replace('`', "'"),
        md(&players(g)),
        md(g.result),
        md(&event_round(g)),
        g.number,
        md(g.path),
        md(&f.message)
    );
    if !f.clause.is_empty() {
        let _ = writeln!(o, "> {}\n", md(&f.clause));
    }
    o
}

/// The games with findings, worst first, as a Markdown table.
pub fn table_md(v: &Verdict, limit: usize) -> String {
    let wide = v.widespread();
    let (order, left) = v.listed(&wide);
    if order.is_empty() && left == 0 {
        return "No game has a finding.\n\n".to_string();
    }
    if order.is_empty() {
        return widespread_md(&wide, left, left);
    }
    let mut o = String::from(
        "| game | players | result | event, round | findings | rules |\n|---|---|---|---|---|---|\n",
    );
    for &i in order.iter().take(limit) {
        let g = &v.games[i];
        let c = counts(g.findings.iter());
        let name = format!("{} #{}", md(g.path), g.number);
        let name = if g.linked {
            format!("[{name}](#{})", g.anchor)
        } else {
            name
        };
        let words: Vec<String> = SEVERITIES
            .iter()
            .enumerate()
            .filter(|(k, _)| c[*k] > 0)
            .map(|(k, s)| count_words(c[k], *s))
            .collect();
        let rules: Vec<String> = rules_broken(g.findings)
            .into_iter()
            .map(|(k, f)| {
                if g.linked {
                    format!("[{}](#{})", md(&f.code), finding_anchor(&g.anchor, k + 1))
                } else {
                    md(&f.code)
                }
            })
            .collect();
        let _ = writeln!(
            o,
            "| {name} | {} | {} | {} | {} | {} |",
            md(&players(g)),
            md(g.result),
            md(&event_round(g)),
            words.join(", "),
            rules.join(" ")
        );
    }
    if order.len() > limit {
        let _ = writeln!(
            o,
            "\n… and {} more games with findings (every finding is in findings.csv).",
            order.len() - limit
        );
    }
    o.push('\n');
    o.push_str(&widespread_md(&wide, order.len() + left, left));
    o
}

/// The codes in most games, each in a line after the table, and how many
/// games they stand for.
fn widespread_md(wide: &[Widespread<'_>], with: usize, left: usize) -> String {
    if wide.is_empty() {
        return String::new();
    }
    let mut o = String::from("Codes in most games, each counted here once:\n\n");
    for w in wide {
        let _ = writeln!(o, "- {}{}", md(w.code), md(&widespread_words(w, with)));
    }
    let _ = write!(o, "\n{}\n\n", widespread_tail(left));
    o
}

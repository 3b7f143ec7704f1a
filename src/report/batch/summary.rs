//! The batch's summary, as Markdown and as one self-contained HTML file:
//! the verdict first, then the tables, the pairings, the event-level rules,
//! the standings and the record of inputs.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use polars::prelude::*;

use super::Shown;
use crate::pipeline::batch::Outcome;
use crate::report::ChartError;
use crate::report::dossier::{
    Record, SCRIPT, STYLE, escape_html, filter, first_screen as parts, md,
};

/// A table's cells as text (every column cast to strings).
fn cells(df: &DataFrame, limit: usize) -> Result<(Vec<String>, Vec<Vec<String>>), PolarsError> {
    let names: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|s| s.to_string())
        .collect();
    let head = df.head(Some(limit));
    // a column with no values at all is not cast: polars would fill an
    // 8 MiB buffer of zeroes for it, kept to the end of the run
    let mut columns = Vec::new();
    for n in &names {
        let c = head.column(n)?;
        columns.push(if c.null_count() == c.len() {
            None
        } else {
            Some(c.cast(&DataType::String)?.str()?.clone())
        });
    }
    let rows = (0..head.height())
        .map(|i| {
            columns
                .iter()
                .map(|c| c.as_ref().and_then(|c| c.get(i)).unwrap_or("").to_string())
                .collect()
        })
        .collect();
    Ok((names, rows))
}

/// The batch's first screen: its games with findings, the number of all
/// its games and of each event's, and its events' findings.
fn verdict<'a>(o: &'a Outcome, facts: &[String]) -> crate::report::dossier::Verdict<'a> {
    use crate::report::dossier::{VerdictGame, game_anchor};
    crate::report::dossier::Verdict {
        games: o
            .games
            .iter()
            .filter(|g| !g.findings.is_empty())
            .map(|g| {
                VerdictGame::new(
                    (game_anchor(g.game, &g.file), false),
                    (&g.file, g.game),
                    [&g.event, &g.round, &g.white, &g.black, &g.result],
                    &g.findings,
                )
            })
            .collect(),
        total_games: o.games.len(),
        events: crate::report::dossier::event_counts(o.games.iter().map(|g| &*g.event)),
        event_findings: o
            .events
            .iter()
            .flat_map(|e| e.findings.iter().map(|(_, f)| (e.case.name.as_str(), f)))
            .collect(),
        facts: facts.to_vec(),
        unreadable: o.unreadable.len(),
        grouped: true,
    }
}

/// The games with findings the first screen lists; the others are in
/// findings.csv.
const VERDICT_ROWS: usize = 100;

/// Each event's standings in one line: rank, player and points.
fn standings_lines(
    standings: &BTreeMap<String, Vec<crate::facts::standings::Row>>,
) -> Vec<(String, String)> {
    standings
        .iter()
        .map(|(event, rows)| {
            let line = rows
                .iter()
                .map(|r| {
                    format!(
                        "{}. {}{} ({})",
                        r.rank,
                        r.player,
                        if r.tied { " (tied)" } else { "" },
                        r.points
                    )
                })
                .collect::<Vec<_>>()
                .join(" · ");
            (event.clone(), line)
        })
        .collect()
}

/// The summary, as Markdown and as one self-contained HTML file, in the
/// dossier's order: the verdict (counts, the gravest finding, the
/// standings, the games with findings worst first), the tables, the
/// pairings, the event-level rules, the standings in full, and last the
/// record of inputs.
pub fn summaries(
    o: &Outcome,
    shown: &Shown,
    facts: &[String],
    record: &Record,
) -> Result<(String, String), super::TableError> {
    let mut p = Page::begin();
    p.verdict(o, shown, facts);
    p.tables(o, shown)?;
    p.pairings(o);
    p.event_rules(o);
    p.standings(shown);
    p.unreadable(o);
    Ok(p.end(record))
}

/// The summary as it is written: its Markdown and its HTML, section by
/// section.
struct Page {
    m: String,
    h: String,
}

impl Page {
    /// The title and the contents.
    fn begin() -> Page {
        let mut m = String::from("# arbiter batch\n\n");
        m.push_str("Contents: [Verdict](#verdict) · [Tables](#tables) · [Pairings](#pairings) · [Event-level rules](#event-rules) · [Standings](#standings) · [Appendix: record of inputs](#record)\n\n<a id=\"verdict\"></a>\n\n## Verdict\n\n");
        let h = format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>arbiter batch</title><style>{STYLE}</style></head><body><h1>arbiter batch</h1><nav class=\"toc\" aria-label=\"Contents\"><a href=\"#verdict\">Verdict</a><a href=\"#tables\">Tables</a><a href=\"#pairings\">Pairings</a><a href=\"#event-rules\">Event-level rules</a><a href=\"#standings\">Standings</a><a href=\"#record\">Appendix: record of inputs</a></nav>\n<section id=\"verdict\"><h2>Verdict</h2>"
        );
        Page { m, h }
    }

    /// The verdict: counts, the gravest finding, each event's standings in
    /// a line, the games with findings worst first.
    fn verdict(&mut self, o: &Outcome, shown: &Shown, facts: &[String]) {
        let (m, h) = (&mut self.m, &mut self.h);
        let v = verdict(o, facts);
        h.push_str(&parts::summary_html(&v));
        m.push_str(&parts::summary_md(&v));
        h.push_str(&parts::gravest_html(&v, None));
        m.push_str(&parts::gravest_md(&v, None));
        if !shown.standings.is_empty() {
            h.push_str("<h3>Standings</h3>");
            m.push_str("### Standings\n\n");
            for (event, line) in standings_lines(&shown.standings) {
                let _ = write!(
                    h,
                    "<p class=\"standing\"><b>{}</b>: {}</p>",
                    escape_html(&event),
                    escape_html(&line)
                );
                let _ = writeln!(m, "- **{}**: {}", md(&event), md(&line));
            }
            m.push('\n');
        }
        h.push_str("<h3>Games with findings, worst first</h3>");
        h.push_str(&filter(&v));
        m.push_str("### Games with findings, worst first\n\n");
        h.push_str(&parts::table_html(&v, VERDICT_ROWS));
        m.push_str(&parts::table_md(&v, VERDICT_ROWS));
        h.push_str("</section>\n");
    }

    /// The small tables, each its first rows, after the findings' chart.
    fn tables(&mut self, o: &Outcome, shown: &Shown) -> Result<(), PolarsError> {
        let (m, h) = (&mut self.m, &mut self.h);
        h.push_str("<section id=\"tables\"><h2>Tables</h2>");
        m.push_str("<a id=\"tables\"></a>\n\n## Tables\n");
        if let Ok(svg) = bar_chart(o) {
            h.push_str(&svg);
        }
        for (name, df) in &shown.tables {
            let (cols, rows) = cells(df, 60)?;
            let title = name.replace('_', " ");
            let _ = write!(m, "\n### {}\n\n", md(&title));
            let _ = write!(h, "<h3>{}</h3>", escape_html(&title));
            if rows.is_empty() {
                m.push_str("none\n");
                h.push_str("<p>none</p>");
                continue;
            }
            let _ = writeln!(
                m,
                "| {} |",
                cols.iter().map(|c| md(c)).collect::<Vec<_>>().join(" | ")
            );
            let _ = writeln!(m, "|{}", "---|".repeat(cols.len()));
            h.push_str("<table><tr>");
            for c in &cols {
                let _ = write!(h, "<th>{}</th>", escape_html(c));
            }
            h.push_str("</tr>");
            for r in &rows {
                let _ = writeln!(
                    m,
                    "| {} |",
                    r.iter().map(|c| md(c)).collect::<Vec<_>>().join(" | ")
                );
                h.push_str("<tr>");
                for c in r {
                    let _ = write!(h, "<td>{}</td>", escape_html(c));
                }
                h.push_str("</tr>");
            }
            h.push_str("</table>");
            if df.height() > rows.len() {
                let more = format!("… {} more rows in {name}.csv", df.height() - rows.len());
                let _ = writeln!(m, "\n{}", md(&more));
                let _ = write!(h, "<p>{}</p>", escape_html(&more));
            }
        }
        h.push_str("</section>\n");
        Ok(())
    }

    /// Round robins: each pair equally often with each colour.
    fn pairings(&mut self, o: &Outcome) {
        let (m, h) = (&mut self.m, &mut self.h);
        m.push_str("\n<a id=\"pairings\"></a>\n\n## Pairings\n\n");
        h.push_str("<section id=\"pairings\"><h2>Pairings</h2><ul>");
        // each event's games as the standings see them, made one event at a
        // time (not every game's at once)
        let mut by_event: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (i, g) in o.games.iter().enumerate() {
            by_event.entry(&g.event).or_default().push(i);
        }
        for (event, games) in &by_event {
            let list: Vec<crate::facts::standings::Game> =
                games.iter().map(|&i| o.games[i].standing()).collect();
            let bad = crate::facts::standings::unbalanced_pairs(&list);
            let line = if bad.is_empty() {
                format!(
                    "{event}: unbalanced pairs: none (every pair played equally often with each colour)"
                )
            } else {
                format!(
                    "{event}: unbalanced pairs: {}",
                    bad.iter()
                        .map(|(a, b, x, y)| format!("{a} - {b} ({x} with White, {y} with Black)"))
                        .collect::<Vec<_>>()
                        .join("; ")
                )
            };
            let _ = writeln!(m, "- {}", md(&line));
            let _ = write!(h, "<li>{}</li>", escape_html(&line));
        }
        h.push_str("</ul></section>\n");
    }

    /// The rules that span an event: each event's findings and the rules
    /// it could not decide.
    fn event_rules(&mut self, o: &Outcome) {
        let (m, h) = (&mut self.m, &mut self.h);
        m.push_str("\n<a id=\"event-rules\"></a>\n\n## Event-level rules\n\n");
        h.push_str("<section id=\"event-rules\"><h2>Event-level rules</h2><ul>");
        for e in &o.events {
            let head = match (&e.skipped, &e.variant) {
                (Some(why), _) => format!("{}: not checked ({why})", e.case.name),
                (None, v) => format!(
                    "{} ({} games{}): {} finding{}",
                    e.case.name,
                    e.games,
                    v.as_ref()
                        .map(|v| format!(", variant {v}"))
                        .unwrap_or_default(),
                    e.findings.len(),
                    if e.findings.len() == 1 { "" } else { "s" }
                ),
            };
            let _ = writeln!(m, "- {}", md(&head));
            let _ = write!(h, "<li>{}<ul>", escape_html(&head));
            for (_, f) in &e.findings {
                let line = format!("{} [{}] {}", f.code, f.severity.as_str(), f.message);
                let _ = writeln!(m, "  - {}", md(&line));
                let _ = write!(h, "<li>{}</li>", escape_html(&line));
            }
            for i in &e.indeterminate {
                let line = format!("{}: not decided: {}", i.rule, i.reason);
                let _ = writeln!(m, "  - {}", md(&line));
                let _ = write!(h, "<li>{}</li>", escape_html(&line));
            }
            h.push_str("</ul></li>");
        }
        h.push_str("</ul></section>\n");
    }

    /// Each event's standings in full.
    fn standings(&mut self, shown: &Shown) {
        let (m, h) = (&mut self.m, &mut self.h);
        m.push_str("\n<a id=\"standings\"></a>\n\n## Standings\n");
        h.push_str("<section id=\"standings\"><h2>Standings</h2>");
        for (event, rows) in &shown.standings {
            let _ = write!(
                m,
                "\n### {}\n\n| rank | player | games | points | wins | draws | losses | crashes | tiebreaks |\n|---|---|---|---|---|---|---|---|---|\n",
                md(event)
            );
            let _ = write!(
                h,
                "<h3>{}</h3><table><tr><th>rank</th><th>player</th><th>games</th><th>points</th><th>wins</th><th>draws</th><th>losses</th><th>crashes</th><th>tiebreaks</th></tr>",
                escape_html(event)
            );
            for r in rows {
                let tb = r
                    .tiebreaks
                    .iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join("; ");
                let player = format!("{}{}", r.player, if r.tied { " (tied)" } else { "" });
                let cells = [
                    r.rank.to_string(),
                    player,
                    r.games.to_string(),
                    r.points.to_string(),
                    r.wins.to_string(),
                    r.draws.to_string(),
                    r.losses.to_string(),
                    r.crashes.to_string(),
                    tb,
                ];
                let _ = writeln!(
                    m,
                    "| {} |",
                    cells.iter().map(|c| md(c)).collect::<Vec<_>>().join(" | ")
                );
                h.push_str("<tr>");
                for c in &cells {
                    let _ = write!(h, "<td>{}</td>", escape_html(c));
                }
                h.push_str("</tr>");
            }
            h.push_str("</table>");
        }
        h.push_str("</section>\n");
    }

    /// The inputs that could not be read, if any.
    fn unreadable(&mut self, o: &Outcome) {
        let (m, h) = (&mut self.m, &mut self.h);
        if !o.unreadable.is_empty() {
            m.push_str("\n## Unreadable inputs\n\n");
            h.push_str("<h2>Unreadable inputs</h2><ul>");
            for (p, e) in &o.unreadable {
                let _ = writeln!(m, "- {}: {}", md(p), md(e));
                let _ = write!(h, "<li>{}: {}</li>", escape_html(p), escape_html(e));
            }
            h.push_str("</ul>");
        }
    }

    /// The record of inputs last, and the page closed: (Markdown, HTML).
    fn end(mut self, record: &Record) -> (String, String) {
        self.m.push('\n');
        self.m.push_str(&crate::report::dossier::record_md(record));
        self.h
            .push_str(&crate::report::dossier::record_html(record));
        let _ = write!(self.h, "<script>{SCRIPT}</script>\n</body></html>\n");
        (self.m, self.h)
    }
}

/// Findings by code, as a horizontal bar chart (SVG).
fn bar_chart(o: &Outcome) -> Result<String, ChartError> {
    use plotters::prelude::*;
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for f in o.games.iter().flat_map(|g| &g.findings) {
        *counts.entry(f.code.clone()).or_default() += 1;
    }
    let mut v: Vec<(String, usize)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v.truncate(20);
    if v.is_empty() {
        return Err(ChartError::NoFindings);
    }
    let max = v.iter().map(|x| x.1).max().unwrap_or(1) as f64;
    let height = 60 + 22 * v.len() as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, height)).into_drawing_area();
        root.fill(&WHITE).map_err(ChartError::Draw)?;
        let e = ChartError::Draw;
        root.draw(&Text::new("Findings by code", (10, 10), ("sans-serif", 16)))
            .map_err(e)?;
        for (i, (code, n)) in v.iter().enumerate() {
            let y = 40 + 22 * i as i32;
            let w = (500.0 * *n as f64 / max).round() as i32;
            root.draw(&Text::new(
                crate::report::chart::escape(code),
                (10, y + 3),
                ("sans-serif", 12),
            ))
            .map_err(e)?;
            root.draw(&Rectangle::new(
                [(300, y), (300 + w.max(1), y + 16)],
                RGBColor(30, 90, 200).filled(),
            ))
            .map_err(e)?;
            root.draw(&Text::new(
                n.to_string(),
                (306 + w.max(1), y + 3),
                ("sans-serif", 12),
            ))
            .map_err(e)?;
        }
        root.present().map_err(ChartError::Draw)?;
    }
    Ok(svg)
}

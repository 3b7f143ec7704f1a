//! The first screen in HTML: the counts, the gravest finding (with its
//! board for a single game), and the games with findings, worst first.

use std::fmt::Write as _;

use super::{
    Verdict, Widespread, count_words, counts, event_round, events_line, filter_keys, path_html,
    players, rules_broken, widespread_tail, widespread_words,
};
use crate::report::dossier::{SEVERITIES, escape_html, finding_anchor};

/// The events, the counts by severity and the facts, as HTML.
pub fn summary_html(v: &Verdict) -> String {
    let mut o = String::new();
    let _ = write!(
        o,
        "<p class=\"events\">{}</p>",
        escape_html(&events_line(v))
    );
    let c = v.counts();
    o.push_str("<p class=\"counts\">");
    for (i, s) in SEVERITIES.iter().enumerate() {
        let _ = write!(
            o,
            "<span class=\"n {}{}\">{}</span> ",
            s.as_str(),
            if c[i] == 0 { " zero" } else { "" },
            count_words(c[i], *s)
        );
    }
    let with = v.games.iter().filter(|g| !g.findings.is_empty()).count();
    let _ = write!(o, "in {with} of {} games", v.total_games);
    if !v.event_findings.is_empty() {
        let n = v.event_findings.len();
        let _ = write!(
            o,
            " and <a href=\"#event-rules\">{n} about {}</a>",
            if n == 1 { "an event" } else { "events" }
        );
    }
    o.push_str("</p>");
    if !v.facts.is_empty() {
        let _ = write!(
            o,
            "<p class=\"facts\">{}</p>",
            escape_html(&v.facts.join("; "))
        );
    }
    if v.unreadable > 0 {
        let _ = write!(
            o,
            "<p class=\"error\">{} input{} could not be read: see the <a href=\"#record\">record of inputs</a>.</p>",
            v.unreadable,
            if v.unreadable == 1 { "" } else { "s" }
        );
    }
    o
}

/// The gravest finding, with `board` (HTML) beside it when given.
pub fn gravest_html(v: &Verdict, board: Option<&str>) -> String {
    if let Some((event, f)) = v.event_first() {
        let mut o = format!(
            "<div class=\"first\"><div class=\"finding gravest sev-{}\" data-f=\"{}\"><p><b class=\"{}\">{}</b> {} <code>{}</code></p><p class=\"where\">about the event {}</p><p>{}</p>",
            f.severity.as_str(),
            escape_html(&filter_keys([f])),
            f.severity.as_str(),
            f.severity.as_str(),
            escape_html(&f.title),
            escape_html(&f.code),
            escape_html(event),
            escape_html(&f.message)
        );
        if !f.clause.is_empty() {
            let _ = write!(o, "<p class=\"quote\">{}</p>", escape_html(&f.clause));
        }
        o.push_str("</div></div>");
        return o;
    }
    let Some((gi, k)) = v.gravest() else {
        return if v.event_findings.is_empty() {
            "<p class=\"clean\">No findings: nothing in these games breaks a rule the audit checks.</p>".to_string()
        } else {
            String::new()
        };
    };
    let g = &v.games[gi];
    let f = &g.findings[k];
    let mut o = String::from("<div class=\"first\">");
    if let Some(b) = board {
        o.push_str(b);
    }
    let title = if g.linked {
        format!(
            "<a href=\"#{}\">{}</a>",
            finding_anchor(&g.anchor, k + 1),
            escape_html(&f.title)
        )
    } else {
        escape_html(&f.title)
    };
    let game = if g.linked {
        format!("<a href=\"#{}\">{}</a>", g.anchor, escape_html(&players(g)))
    } else {
        escape_html(&players(g))
    };
    let _ = write!(
        o,
        "<div class=\"finding gravest sev-{}\" data-f=\"{}\"><p><b class=\"{}\">{}</b> {title} <code>{}</code></p><p class=\"where\">{game} ({}), {}; game {} of {}</p><p>{}</p>",
        f.severity.as_str(),
        escape_html(&filter_keys([f])),
        f.severity.as_str(),
        f.severity.as_str(),
        escape_html(&f.code),
        escape_html(g.result),
        escape_html(&event_round(g)),
        g.number,
        path_html(g.path),
        escape_html(&f.message)
    );
    if !f.clause.is_empty() {
        let _ = write!(o, "<p class=\"quote\">{}</p>", escape_html(&f.clause));
    }
    o.push_str("</div></div>");
    o
}

/// The games with findings, worst first, at most `limit` rows.
pub fn table_html(v: &Verdict, limit: usize) -> String {
    let wide = v.widespread();
    let (order, left) = v.listed(&wide);
    if order.is_empty() && left == 0 {
        return "<p>No game has a finding.</p>".to_string();
    }
    if order.is_empty() {
        return widespread_html(&wide, left, left);
    }
    let mut o = String::from(
        "<table class=\"verdict\" id=\"verdict-table\"><thead><tr><th>game</th><th>players</th><th>result</th><th>event, round</th><th>findings</th><th>rules</th></tr></thead><tbody>",
    );
    for &i in order.iter().take(limit) {
        let g = &v.games[i];
        let c = counts(g.findings.iter());
        let name = format!("{} #{}", path_html(g.path), g.number);
        let name = if g.linked {
            format!("<a href=\"#{}\">{name}</a>", g.anchor)
        } else {
            name
        };
        let _ = write!(
            o,
            "<tr id=\"v-{}\" data-f=\"{}\"><td>{name}</td><td>{}</td><td>{}</td><td>{}</td><td>",
            g.anchor,
            escape_html(&filter_keys(g.findings)),
            escape_html(&players(g)),
            escape_html(g.result),
            escape_html(&event_round(g)),
        );
        let words: Vec<String> = SEVERITIES
            .iter()
            .enumerate()
            .filter(|(k, _)| c[*k] > 0)
            .map(|(k, s)| {
                format!(
                    "<span class=\"{}\">{}</span>",
                    s.as_str(),
                    count_words(c[k], *s)
                )
            })
            .collect();
        o.push_str(&words.join(", "));
        o.push_str("</td><td class=\"rules\">");
        for (k, f) in rules_broken(g.findings) {
            if g.linked {
                let _ = write!(
                    o,
                    "<a class=\"{}\" href=\"#{}\" title=\"{}\">{}</a> ",
                    f.severity.as_str(),
                    finding_anchor(&g.anchor, k + 1),
                    escape_html(&f.title),
                    escape_html(&f.code)
                );
            } else {
                let _ = write!(
                    o,
                    "<span class=\"{}\" title=\"{}\">{}</span> ",
                    f.severity.as_str(),
                    escape_html(&f.title),
                    escape_html(&f.code)
                );
            }
        }
        o.push_str("</td></tr>");
    }
    o.push_str("</tbody></table>");
    if order.len() > limit {
        let _ = write!(
            o,
            "<p>… and {} more games with findings (every finding is in findings.csv).</p>",
            order.len() - limit
        );
    }
    o.push_str(&widespread_html(&wide, order.len() + left, left));
    o
}

/// The codes in most games, each in a line after the table, and how many
/// games they stand for.
fn widespread_html(wide: &[Widespread<'_>], with: usize, left: usize) -> String {
    if wide.is_empty() {
        return String::new();
    }
    let mut o =
        String::from("<p class=\"widespread\">Codes in most games, each counted here once:");
    for w in wide {
        let _ = write!(
            o,
            "<br><span class=\"{}\">{}</span>{}",
            w.severity.as_str(),
            escape_html(w.code),
            escape_html(&widespread_words(w, with))
        );
    }
    let _ = write!(o, "<br>{}</p>", widespread_tail(left));
    o
}

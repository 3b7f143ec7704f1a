//! The first screen of a dossier or a batch summary, the verdict: the
//! events, the counts by severity, the gravest finding and the games with
//! findings, worst first; and the last part, the record of inputs (hashes,
//! versions, the command). HTML and Markdown of each, shared by
//! `audit --out` and `batch --out`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{SEVERITIES, escape_html, finding_anchor, gravity, md};
use crate::findings::{Finding, Severity};

/// A game as the verdict lists it.
#[derive(Debug, Clone)]
pub struct VerdictGame<'a> {
    /// The game's anchor ([`super::game_anchor`]).
    pub anchor: String,
    /// The report has a section at the anchor, and one per finding at
    /// [`finding_anchor`]: the verdict links to them.
    pub linked: bool,
    pub path: &'a str,
    pub number: usize,
    pub event: &'a str,
    pub round: &'a str,
    pub white: &'a str,
    pub black: &'a str,
    pub result: &'a str,
    pub findings: &'a [Finding],
}

/// What the first screen shows.
#[derive(Debug, Clone, Default)]
pub struct Verdict<'a> {
    /// The games it can list, in input order: every game with findings
    /// (a game without any may be left out).
    pub games: Vec<VerdictGame<'a>>,
    /// How many games there are, with findings or not.
    pub total_games: usize,
    /// The events and their numbers of games, by name ([`event_counts`]).
    pub events: Vec<(String, usize)>,
    /// Findings about an event rather than one game: (event, finding).
    pub event_findings: Vec<(&'a str, &'a Finding)>,
    /// Short facts shown under the counts (games, plies, ruleset).
    pub facts: Vec<String>,
    /// How many inputs could not be read.
    pub unreadable: usize,
}

impl Verdict<'_> {
    /// The games with findings, worst first: by their numbers of errors,
    /// then warnings, findings for manual review and information, each
    /// greatest first; ties keep the input order.
    pub fn worst_first(&self) -> Vec<usize> {
        let mut v: Vec<usize> = (0..self.games.len())
            .filter(|&i| !self.games[i].findings.is_empty())
            .collect();
        let key = |i: &usize| {
            let c = counts(self.games[*i].findings.iter());
            std::cmp::Reverse(c)
        };
        v.sort_by_key(key);
        v
    }

    /// The number of findings of each severity, gravest first (the order
    /// of [`SEVERITIES`]), games' and events'.
    pub fn counts(&self) -> [usize; 4] {
        counts(
            self.games
                .iter()
                .flat_map(|g| g.findings)
                .chain(self.event_findings.iter().map(|(_, f)| *f)),
        )
    }

    /// The gravest finding of the worst game: (game, index of the finding).
    /// For a single game with findings, its first finding with a ply (it
    /// has a board), else its gravest.
    pub fn gravest(&self) -> Option<(usize, usize)> {
        let order = self.worst_first();
        let &g = order.first()?;
        let findings = self.games[g].findings;
        if order.len() == 1
            && let Some(k) = findings
                .iter()
                .position(|f| super::finding_ply(f).is_some())
        {
            return Some((g, k));
        }
        let k = (0..findings.len()).min_by_key(|&k| gravity(findings[k].severity))?;
        Some((g, k))
    }

    /// The gravest finding about an event, when it is graver than every
    /// game's: (event, finding).
    pub fn event_first(&self) -> Option<(&str, &Finding)> {
        let &(event, f) = self
            .event_findings
            .iter()
            .min_by_key(|(_, f)| gravity(f.severity))?;
        match self.gravest() {
            Some((g, k)) if gravity(self.games[g].findings[k].severity) <= gravity(f.severity) => {
                None
            }
            _ => Some((event, f)),
        }
    }
}

/// The events of the games named by `events` (each game's Event tag) and
/// their numbers of games, by name; a game without the tag counts under
/// "(no Event tag)".
pub fn event_counts<'e>(events: impl Iterator<Item = &'e str>) -> Vec<(String, usize)> {
    let mut m: BTreeMap<String, usize> = BTreeMap::new();
    for name in events {
        let name = name.trim();
        let name = if name.is_empty() || name == "?" {
            "(no Event tag)"
        } else {
            name
        };
        *m.entry(name.to_string()).or_default() += 1;
    }
    m.into_iter().collect()
}

/// The number of findings of each severity, gravest first.
fn counts<'f>(findings: impl Iterator<Item = &'f Finding>) -> [usize; 4] {
    let mut c = [0usize; 4];
    for f in findings {
        c[gravity(f.severity)] += 1;
    }
    c
}

/// The counts as words: "2 errors", "1 warning", "3 for manual review",
/// "4 info".
fn count_words(n: usize, s: Severity) -> String {
    match s {
        Severity::Error => format!("{n} error{}", if n == 1 { "" } else { "s" }),
        Severity::Warning => format!("{n} warning{}", if n == 1 { "" } else { "s" }),
        Severity::ManualReview => format!("{n} for manual review"),
        Severity::Info => format!("{n} info"),
    }
}

/// Events shown by name on the first screen; more are counted.
const EVENTS_SHOWN: usize = 8;

fn events_line(v: &Verdict) -> String {
    let events = &v.events;
    let shown: Vec<String> = events
        .iter()
        .take(EVENTS_SHOWN)
        .map(|(e, n)| format!("{e} ({n} game{})", if *n == 1 { "" } else { "s" }))
        .collect();
    let mut line = format!(
        "{}: {}",
        if events.len() == 1 { "Event" } else { "Events" },
        shown.join("; ")
    );
    if events.len() > EVENTS_SHOWN {
        let _ = write!(line, "; and {} more", events.len() - EVENTS_SHOWN);
    }
    line
}

/// A path as shown in a table: whole when short, else its last parts with
/// the whole path in a tooltip.
pub fn path_html(p: &str) -> String {
    let short = short_path(p);
    if short == p {
        format!("<span class=\"path\">{}</span>", escape_html(p))
    } else {
        format!(
            "<span class=\"path\" title=\"{}\">{}</span>",
            escape_html(p),
            escape_html(&short)
        )
    }
}

/// Paths longer than this are shortened on the first screen.
const PATH_SHOWN: usize = 40;

fn short_path(p: &str) -> String {
    if p.chars().count() <= PATH_SHOWN {
        return p.to_string();
    }
    let parts: Vec<&str> = p.split('/').filter(|s| !s.is_empty()).collect();
    let tail = |n: usize| parts[parts.len().saturating_sub(n)..].join("/");
    let two = tail(2);
    if two.chars().count() <= PATH_SHOWN {
        format!("…/{two}")
    } else {
        format!("…/{}", tail(1))
    }
}

/// The `data-f` of an element the filter shows or hides: a JSON list of
/// the `[severity, code]` of each finding it holds (to be escaped).
pub fn filter_keys<'f>(findings: impl IntoIterator<Item = &'f Finding>) -> String {
    let mut keys: Vec<[&str; 2]> = Vec::new();
    for f in findings {
        let k = [f.severity.as_str(), f.code.as_str()];
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    serde_json::json!(keys).to_string()
}

/// The codes of a game's findings, gravest first, each with the index of
/// its first finding.
fn rules_broken(findings: &[Finding]) -> Vec<(usize, &Finding)> {
    let mut v: Vec<(usize, &Finding)> = Vec::new();
    for (k, f) in findings.iter().enumerate() {
        if !v.iter().any(|(_, g)| g.code == f.code) {
            v.push((k, f));
        }
    }
    v.sort_by_key(|(k, f)| (gravity(f.severity), *k));
    v
}

fn players(g: &VerdictGame) -> String {
    format!("{} – {}", g.white, g.black)
}

fn event_round(g: &VerdictGame) -> String {
    if g.round.is_empty() || g.round == "?" {
        g.event.to_string()
    } else {
        format!("{}, round {}", g.event, g.round)
    }
}

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
    let order = v.worst_first();
    if order.is_empty() {
        return "<p>No game has a finding.</p>".to_string();
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
    o
}

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
    let order = v.worst_first();
    if order.is_empty() {
        return "No game has a finding.\n\n".to_string();
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
    o
}

/// What a report records of how it was made: its appendix.
#[derive(Debug, Clone, Default)]
pub struct Record {
    pub version: String,
    /// The command that made the report, when recorded.
    pub command: Option<String>,
    /// The ruleset: "title (id)".
    pub ruleset: Option<String>,
    /// Other lines: (what, value), e.g. the shard.
    pub notes: Vec<(String, String)>,
    /// Every file hashed: (kind, path, its SHA-256 or why it could not be
    /// read).
    pub files: Vec<(String, String, Result<String, String>)>,
}

/// The line on top of the record.
const RECORD_NOTE: &str = "Every input, log and ruleset the audit read is hashed (SHA-256) below. `arbiter verify DIR` (DIR: the folder of this report) checks every hash again, reruns the audit and compares its output with this report byte for byte.";

/// The record of inputs as HTML: one line, then the details, collapsed.
pub fn record_html(r: &Record) -> String {
    let mut o = String::from(
        "<section id=\"record\" class=\"appendix\"><h2>Appendix: record of inputs</h2>",
    );
    let _ = write!(
        o,
        "<p>{}</p>",
        escape_html(RECORD_NOTE)
            .replacen("`", "<code>", 1)
            .replacen("`", "</code>", 1)
    );
    let unreadable: Vec<_> = r.files.iter().filter(|f| f.2.is_err()).collect();
    if !unreadable.is_empty() {
        o.push_str("<p class=\"error\">Could not be read:</p><ul>");
        for (kind, path, e) in unreadable {
            let _ = write!(
                o,
                "<li>{} ({}): {}</li>",
                escape_html(path),
                escape_html(kind),
                escape_html(e.as_ref().err().map_or("", String::as_str))
            );
        }
        o.push_str("</ul>");
    }
    let _ = write!(
        o,
        "<details><summary>{} file{} hashed; arbiter {}; the command</summary><table class=\"record\">",
        r.files.len(),
        if r.files.len() == 1 { "" } else { "s" },
        escape_html(&r.version)
    );
    let _ = write!(
        o,
        "<tr><th>arbiter</th><td>{}</td></tr>",
        escape_html(&r.version)
    );
    if let Some(c) = &r.command {
        let _ = write!(
            o,
            "<tr><th>command</th><td><code>{}</code></td></tr>",
            escape_html(c)
        );
    }
    if let Some(rs) = &r.ruleset {
        let _ = write!(o, "<tr><th>ruleset</th><td>{}</td></tr>", escape_html(rs));
    }
    for (k, v) in &r.notes {
        let _ = write!(
            o,
            "<tr><th>{}</th><td>{}</td></tr>",
            escape_html(k),
            escape_html(v)
        );
    }
    o.push_str("</table><table class=\"record\"><thead><tr><th>kind</th><th>file</th><th>SHA-256</th></tr></thead><tbody>");
    for (kind, path, h) in &r.files {
        let value = match h {
            Ok(h) => format!("<code class=\"hash\">{}</code>", escape_html(h)),
            Err(e) => format!("unreadable: {}", escape_html(e)),
        };
        let _ = write!(
            o,
            "<tr><td>{}</td><td class=\"file\">{}</td><td>{value}</td></tr>",
            escape_html(kind),
            escape_html(path)
        );
    }
    o.push_str("</tbody></table></details></section>\n");
    o
}

/// The record of inputs as Markdown.
pub fn record_md(r: &Record) -> String {
    let mut o = String::from("<a id=\"record\"></a>\n\n## Appendix: record of inputs\n\n");
    let _ = writeln!(o, "{}\n", RECORD_NOTE);
    let _ = writeln!(o, "- arbiter {}", md(&r.version));
    if let Some(c) = &r.command {
        let c: String = c
            .chars()
            .map(|c| if c.is_control() || c == '`' { ' ' } else { c })
            .collect();
        let _ = writeln!(o, "- command: `{c}`");
    }
    if let Some(rs) = &r.ruleset {
        let _ = writeln!(o, "- ruleset: {}", md(rs));
    }
    for (k, v) in &r.notes {
        let _ = writeln!(o, "- {}: {}", md(k), md(v));
    }
    o.push_str("\n| kind | file | SHA-256 |\n|---|---|---|\n");
    for (kind, path, h) in &r.files {
        let value = match h {
            Ok(h) => format!("`{}`", h.replace('`', "'")),
            Err(e) => format!("unreadable: {}", md(e)),
        };
        let _ = writeln!(o, "| {} | {} | {value} |", md(kind), md(path));
    }
    o
}

/// An invocation as the command line that repeats it (arguments with
/// characters a shell would read are single-quoted).
pub fn command_line(inv: &crate::pipeline::Invocation) -> String {
    let q = |s: &str| {
        if !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./:=+,@%".contains(c))
        {
            s.to_string()
        } else {
            format!("'{}'", s.replace('\'', "'\\''"))
        }
    };
    let mut v = vec![
        "arbiter".to_string(),
        if inv.batch.is_some() {
            "batch"
        } else {
            "audit"
        }
        .to_string(),
    ];
    v.extend(inv.paths.iter().map(|p| q(p)));
    let mut flag = |name: &str, value: &Option<String>| {
        if let Some(x) = value {
            v.push(format!("--{name}"));
            v.push(q(x));
        }
    };
    flag("rules", &inv.rules);
    flag("variant", &inv.variant);
    flag("syzygy", &inv.syzygy);
    flag("similarity", &inv.similarity);
    flag("shard", &inv.batch.as_ref().and_then(|b| b.shard.clone()));
    for l in &inv.operator_logs {
        v.push("--operator-log".into());
        v.push(q(l));
    }
    for l in &inv.engine_logs {
        v.push("--engine-log".into());
        v.push(q(l));
    }
    if inv.fit {
        v.push("--fit".into());
    }
    v.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::Evidence;

    fn f(code: &str, severity: Severity, ply: Option<u32>) -> Finding {
        Finding::builtin(code, severity, code, format!("{code} happened")).with_evidence(Evidence {
            path: "x.pgn".into(),
            span: None,
            ply,
            timestamp: None,
            note: String::new(),
        })
    }

    fn game<'a>(n: usize, findings: &'a [Finding]) -> VerdictGame<'a> {
        VerdictGame {
            anchor: format!("g{n}"),
            linked: true,
            path: "x.pgn",
            number: n,
            event: "E",
            round: "1",
            white: "W",
            black: "B",
            result: "1-0",
            findings,
        }
    }

    #[test]
    fn the_worst_game_comes_first_and_ties_keep_their_order() {
        let warn = [f("a", Severity::Warning, None)];
        let two_warn = [
            f("a", Severity::Warning, None),
            f("b", Severity::Warning, None),
        ];
        let err = [f("c", Severity::Info, None), f("d", Severity::Error, None)];
        let none: [Finding; 0] = [];
        let v = Verdict {
            games: vec![
                game(1, &warn),
                game(2, &none),
                game(3, &two_warn),
                game(4, &err),
                game(5, &warn),
            ],
            ..Default::default()
        };
        assert_eq!(v.worst_first(), vec![3, 2, 0, 4]);
        assert_eq!(v.counts(), [1, 4, 0, 1]);
        // the gravest finding of the worst game: its error, not its info
        assert_eq!(v.gravest(), Some((3, 1)));
    }

    #[test]
    fn an_event_s_finding_comes_first_only_when_graver() {
        let warn = [f("a", Severity::Warning, None)];
        let ev_err = f("pairing", Severity::Error, None);
        let ev_warn = f("standings", Severity::Warning, None);
        let mut v = Verdict {
            games: vec![game(1, &warn)],
            event_findings: vec![("E", &ev_warn)],
            ..Default::default()
        };
        assert!(v.event_first().is_none());
        assert!(gravest_html(&v, None).contains("a happened"));
        v.event_findings.push(("E", &ev_err));
        assert_eq!(
            v.event_first().map(|(_, f)| f.code.as_str()),
            Some("pairing")
        );
        assert!(gravest_html(&v, None).contains("about the event E"));
        assert!(gravest_md(&v, None).contains("pairing happened"));
    }

    #[test]
    fn a_single_game_shows_its_first_finding_with_a_board() {
        let fs = [
            f("late", Severity::Error, None),
            f("at-ply", Severity::Warning, Some(12)),
        ];
        let v = Verdict {
            games: vec![game(1, &fs)],
            ..Default::default()
        };
        assert_eq!(v.gravest(), Some((0, 1)));
    }

    #[test]
    fn long_paths_keep_their_end_and_the_whole_in_a_tooltip() {
        assert_eq!(short_path("samples/a.pgn"), "samples/a.pgn");
        let long = "/very/long/folder/name/that/goes/on/and/on/case/game.pgn";
        assert_eq!(short_path(long), "…/case/game.pgn");
        let h = path_html("/a/b/<script>/cccccccccccccccccccccccccccccccccccccccc.pgn");
        assert!(h.contains("title=\"/a/b/&lt;script&gt;/"), "{h}");
        assert!(!h.contains("<script>"), "{h}");
    }

    #[test]
    fn the_command_is_quoted_for_a_shell() {
        let inv = crate::pipeline::Invocation {
            paths: vec!["samples".into(), "it's here.pgn".into()],
            rules: Some("rulesets/tcec-s15.rules".into()),
            engine_logs: vec!["e.log".into()],
            ..Default::default()
        };
        assert_eq!(
            command_line(&inv),
            "arbiter audit samples 'it'\\''s here.pgn' --rules rulesets/tcec-s15.rules --engine-log e.log"
        );
    }
}

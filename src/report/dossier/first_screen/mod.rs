//! The first screen of a dossier or a batch summary, the verdict: the
//! events, the counts by severity, the gravest finding and the games with
//! findings, worst first; and the last part, the record of inputs (hashes,
//! versions, the command). HTML and Markdown of each, shared by
//! `audit --out` and `batch --out`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

mod html;
mod markdown;

pub use html::{gravest_html, summary_html, table_html};
pub use markdown::{gravest_md, summary_md, table_md};

use super::{escape_html, gravity};
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

impl<'a> VerdictGame<'a> {
    /// A game of the verdict: its anchor (linked when the page holds the
    /// game), the file and number, its names (event, round, White, Black,
    /// result) and its findings.
    pub fn new(
        (anchor, linked): (String, bool),
        (path, number): (&'a str, usize),
        names: [&'a str; 5],
        findings: &'a [Finding],
    ) -> Self {
        let [event, round, white, black, result] = names;
        VerdictGame {
            anchor,
            linked,
            path,
            number,
            event,
            round,
            white,
            black,
            result,
            findings,
        }
    }
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
    /// Codes that fire in most games are counted in one line each instead
    /// of in every game's row ([`Verdict::widespread`]): the batch
    /// summary does, a dossier lists every game.
    pub grouped: bool,
}

/// A code that fires in most games: the batch summary's first screen
/// counts it once, in a line, rather than in the row of every game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Widespread<'a> {
    pub code: &'a str,
    pub severity: Severity,
    /// The title of its first finding.
    pub title: &'a str,
    /// The games it fires in.
    pub games: usize,
    /// Its findings, all games together.
    pub findings: usize,
}

/// A code is widespread when it fires in at least this many games and in
/// more than half of the games with findings.
const WIDESPREAD_GAMES: usize = 10;

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

    /// The codes counted in one line each when [`Verdict::grouped`]: each
    /// fires in at least [`WIDESPREAD_GAMES`] games and in more than half
    /// of the games with findings; gravest first, then the most games,
    /// then by code.
    pub fn widespread(&self) -> Vec<Widespread<'_>> {
        if !self.grouped {
            return Vec::new();
        }
        let with = self.games.iter().filter(|g| !g.findings.is_empty()).count();
        let mut m: BTreeMap<(&str, usize), Widespread<'_>> = BTreeMap::new();
        for g in &self.games {
            let mut seen: Vec<(&str, usize)> = Vec::new();
            for f in g.findings {
                let key = (f.code.as_str(), gravity(f.severity));
                let w = m.entry(key).or_insert_with(|| Widespread {
                    code: &f.code,
                    severity: f.severity,
                    title: &f.title,
                    games: 0,
                    findings: 0,
                });
                w.findings += 1;
                if !seen.contains(&key) {
                    seen.push(key);
                    w.games += 1;
                }
            }
        }
        let mut v: Vec<Widespread<'_>> = m
            .into_values()
            .filter(|w| w.games >= WIDESPREAD_GAMES && 2 * w.games > with)
            .collect();
        v.sort_by_key(|w| (gravity(w.severity), std::cmp::Reverse(w.games), w.code));
        v
    }

    /// The games the table lists, worst first ([`Verdict::worst_first`]),
    /// and how many are left out: a game whose every finding has a code of
    /// `widespread` is counted in that code's line instead.
    pub fn listed(&self, widespread: &[Widespread<'_>]) -> (Vec<usize>, usize) {
        let order = self.worst_first();
        if widespread.is_empty() {
            return (order, 0);
        }
        let counted = |f: &Finding| {
            widespread
                .iter()
                .any(|w| w.code == f.code && w.severity == f.severity)
        };
        let (left, listed): (Vec<usize>, Vec<usize>) = order
            .into_iter()
            .partition(|&i| self.games[i].findings.iter().all(counted));
        (listed, left.len())
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
        count_event(&mut m, name);
    }
    m.into_iter().collect()
}

/// Count one more game of the event `name` (its Event tag) in `m`, as
/// [`event_counts`] does.
pub fn count_event(m: &mut BTreeMap<String, usize>, name: &str) {
    let name = name.trim();
    let name = if name.is_empty() || name == "?" {
        "(no Event tag)"
    } else {
        name
    };
    match m.get_mut(name) {
        Some(n) => *n += 1,
        None => {
            m.insert(name.to_string(), 1);
        }
    }
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

/// A severity as the widespread lines name it.
fn severity_words(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::ManualReview => "for manual review",
        Severity::Info => "info",
    }
}

/// The line of a widespread code, after its code: its severity, its games
/// and findings, and its title.
fn widespread_words(w: &Widespread<'_>, with: usize) -> String {
    format!(
        " ({}) in {} of {} games with findings, {} finding{}: {}",
        severity_words(w.severity),
        w.games,
        with,
        w.findings,
        if w.findings == 1 { "" } else { "s" },
        w.title
    )
}

/// What follows the widespread lines: how many games they stand for.
fn widespread_tail(left: usize) -> String {
    format!(
        "{left} game{} whose only findings are these {} not listed below; every finding is in findings.csv.",
        if left == 1 { "" } else { "s" },
        if left == 1 { "is" } else { "are" }
    )
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
    fn a_code_in_most_games_is_counted_in_one_line_on_the_batch_summary() {
        let undecided = [f("everywhere", Severity::ManualReview, Some(80))];
        let both = [
            f("everywhere", Severity::ManualReview, Some(70)),
            f("clock", Severity::Error, Some(9)),
        ];
        let other = [f("late", Severity::Warning, None)];
        let mut games: Vec<VerdictGame<'_>> = (1..=11).map(|n| game(n, &undecided)).collect();
        games.push(game(12, &both));
        games.push(game(13, &other));
        let mut v = Verdict {
            games,
            grouped: true,
            ..Default::default()
        };
        let wide = v.widespread();
        assert_eq!(wide.len(), 1, "{wide:?}");
        assert_eq!(
            (wide[0].code, wide[0].games, wide[0].findings),
            ("everywhere", 12, 12)
        );
        // the game with another finding stays a row, with every code
        assert_eq!(v.listed(&wide), (vec![11, 12], 11));
        let h = table_html(&v, 100);
        assert!(
            h.contains("in 12 of 13 games with findings, 12 findings"),
            "{h}"
        );
        assert!(
            h.contains("11 games whose only findings are these are not listed"),
            "{h}"
        );
        assert_eq!(h.matches("<tr id=").count(), 2, "{h}");
        let m = table_md(&v, 100);
        assert!(
            m.contains("- everywhere (for manual review) in 12 of 13"),
            "{m}"
        );
        assert_eq!(
            m.lines().filter(|l| l.starts_with("| ")).count(),
            1 + 2,
            "{m}"
        );
        // the line comes after the table, so its first row stays on the first screen
        assert!(
            h.find("<table").unwrap() < h.find("Codes in most games").unwrap(),
            "{h}"
        );
        // a dossier lists every game
        v.grouped = false;
        assert!(v.widespread().is_empty());
        assert_eq!(table_html(&v, 100).matches("<tr id=").count(), 13);
        // fewer than ten games, or not more than half of them: no line
        v.grouped = true;
        v.games.truncate(9);
        assert!(v.widespread().is_empty());
        let half: Vec<VerdictGame<'_>> = (1..=20)
            .map(|n| game(n, if n <= 10 { &undecided } else { &other }))
            .collect();
        v.games = half;
        assert!(v.widespread().is_empty());
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
}

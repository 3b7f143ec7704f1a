//! What a fit's report is made of: each fit's values, the games whose end
//! the fit changes, the games not replayed to their end, the variant that
//! sets the fitted values; and the finding that names a departure.

use super::search::{Firing, Point, Search};
use super::{
    Agreement, Decided, Fitted, Game, GroupFit, Undescribed, Unreplayed, literal, undescribed_limit,
};
use crate::base::value::Value;
use crate::findings::codes;
use crate::findings::{Evidence, Finding};
use crate::rules::analysis::{FitTarget, Ruleset};
use crate::rules::eval::Overrides;
use crate::timeline::Timeline;

/// Each fit's values: the text's, the fitted one (of `cur`), and those that
/// score as well (`equally`).
pub(super) fn fitted(
    rs: &Ruleset,
    text: &[Value],
    cur: &[Value],
    equally: &[Vec<Value>],
    grids: &[Vec<Value>],
) -> Vec<Fitted> {
    rs.fits
        .iter()
        .enumerate()
        .map(|(k, f)| {
            let (kind, name) = match f.target {
                FitTarget::Const(i) => ("const", rs.consts[i].0.clone()),
                FitTarget::Switch(i) => ("switch", rs.switches[i].name.clone()),
                // named after the header's time control, the one the fit
                // may replace (a variant's own where a variant names one)
                FitTarget::TimeControl => (
                    "time-control",
                    rs.time_control.clone().unwrap_or_else(|| "(none)".into()),
                ),
            };
            let mut tried = grids[k].len();
            if !grids[k].contains(&text[k]) {
                tried += 1;
            }
            Fitted {
                kind,
                name,
                line: f.line,
                column: f.column,
                text: literal(&text[k]),
                fitted: literal(&cur[k]),
                tried,
                equally_good: equally[k].iter().map(literal).collect(),
            }
        })
        .collect()
}

/// The games whose computed end differs between the text's values and the
/// fitted ones.
pub(super) fn decided(
    games: &[&Game],
    at_text: &Point,
    at_fit: &Point,
    timelines: &[Timeline<'_>],
) -> Vec<Decided> {
    let show = |e: &Option<(String, u32, String)>| match e {
        Some((rule, ply, result)) => format!("{result} at ply {ply} by {rule}"),
        None => "no adjudication".to_string(),
    };
    games
        .iter()
        .zip(at_text.ends.iter().zip(&at_fit.ends))
        .zip(timelines)
        .filter(|((_, (a, b)), _)| a.0 != b.0 || a.1 != b.1)
        .map(|((g, (a, b)), tl)| {
            let tag = |n: &str| g.pgn.tag(n).unwrap_or("").trim().to_string();
            Decided {
                path: g.path.clone(),
                round: tag("Round"),
                white: tag("White"),
                black: tag("Black"),
                result: tag("Result"),
                termination: tag("TerminationDetails"),
                plies: tl.replay.plies.last().map_or(0, |p| p.ply),
                under_text: show(&a.0),
                under_fit: show(&b.0),
                text_agrees: a.1,
                fit_agrees: b.1,
            }
        })
        .collect()
}

/// A rule's firing over a group: the games it fires in, its findings,
/// and the first three games it fires in, described.
#[derive(Debug, Default)]
pub(super) struct Fired {
    games: usize,
    findings: usize,
    first: Vec<String>,
}

/// What a fit reports of its games beside the agreements: the games whose
/// end the fit changes, where each rule fires at the fitted values, and
/// the games an adjudication left undecided. Made a block of games at a
/// time ([`Outcome::add`]).
#[derive(Debug, Default)]
pub(super) struct Outcome {
    pub(super) decided: Vec<Decided>,
    pub(super) fired: std::collections::BTreeMap<String, Fired>,
    pub(super) undecided: usize,
}

impl Outcome {
    /// Add what the games of `s` give (a search whose games' scores at
    /// `text` and at `fit`, the fitted values, are held).
    pub(super) fn add(
        &mut self,
        s: &Search<'_>,
        text: &[Value],
        fit: &[Value],
    ) -> Result<(), super::FitError> {
        self.decided.extend(decided(
            s.games(),
            s.point(text),
            s.point(fit),
            &s.timelines,
        ));
        let (by_rule, undecided): (std::collections::BTreeMap<String, Firing>, usize) =
            s.firing(fit)?;
        self.undecided += undecided;
        for (rule, f) in by_rule {
            let e = self.fired.entry(rule).or_default();
            e.games += f.games.len();
            e.findings += f.findings;
            let room = 3usize.saturating_sub(e.first.len());
            (e.first)
                .extend((f.games.iter().take(room)).map(|&(i, ply)| described(s.games()[i], ply)));
        }
        Ok(())
    }
}

/// The rules that fire in more than a tenth of the `n` games (`fired`, at
/// the fitted values), most games first, each with its first games.
pub(super) fn undescribed(
    rs: &Ruleset,
    n: usize,
    fired: std::collections::BTreeMap<String, Fired>,
) -> Vec<Undescribed> {
    let limit = undescribed_limit(n);
    let mut out: Vec<Undescribed> = fired
        .into_iter()
        .filter(|(_, f)| f.games > limit)
        .map(|(rule, f)| {
            let line = rs.rules.iter().find(|r| r.id == rule).map_or(0, |r| r.line);
            Undescribed {
                rule,
                line,
                games: f.games,
                of: n,
                findings: f.findings,
                first: f.first,
            }
        })
        .collect();
    out.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.rule.cmp(&b.rule)));
    out
}

/// Game `g` as the report names a game a rule fires in, at `ply`.
pub(super) fn described(g: &Game, ply: Option<u32>) -> String {
    let tag = |n: &str| g.pgn.tag(n).unwrap_or("?").trim().to_string();
    let at = ply.map_or(String::new(), |p| format!(", ply {p}"));
    format!(
        "game {} (round {}, {} - {}{at})",
        g.pgn.index + 1,
        tag("Round"),
        tag("White"),
        tag("Black")
    )
}

/// The games whose replay stopped before the end of their movetext.
pub(super) fn unreplayed(games: &[&Game]) -> Vec<Unreplayed> {
    games
        .iter()
        .filter_map(|g| {
            let stop = g.replay.stop.as_ref()?;
            Some(Unreplayed {
                path: g.path.clone(),
                game: g.pgn.index + 1,
                line: stop.span.map_or(g.pgn.line, |sp| sp.line),
                ply: stop.ply,
                reason: stop.message.clone(),
            })
        })
        .collect()
}

/// A variant that sets the fitted values where they depart from the text.
pub(super) fn variant_block(fit: &GroupFit, group: &str, path: &str) -> String {
    let stem = std::path::Path::new(if group.is_empty() { path } else { group })
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let mut name: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    while name.contains("--") {
        name = name.replace("--", "-");
    }
    let name = format!("fitted-{}", name.trim_matches('-'));
    let mut b = format!("variant {name}");
    if let Some(v) = &fit.variant {
        b.push_str(&format!(" extends {v}"));
    }
    b.push_str(" {\n");
    let mut declared = String::new();
    for f in fit.fits.iter().filter(|f| f.fitted != f.text) {
        if f.kind == "time-control" {
            // the fitted control, declared beside the variant
            let tc = f.fitted.trim_matches('"');
            if let Some(t) = crate::facts::clock::parse_tag_form(tc) {
                declared = format!("time-control {name}-clock {{ {} }}\n", declaration(&t));
                b.push_str(&format!("  time-control {name}-clock\n"));
            }
            continue;
        }
        b.push_str(&format!("  {} {} = {}\n", f.kind, f.name, f.fitted));
    }
    b.push('}');
    declared + &b
}

/// A time control's periods as the rule language declares them.
fn declaration(t: &crate::facts::clock::TimeControlDef) -> String {
    let ms = |v: f64| format!("{}ms", v.round() as i64);
    let mut parts: Vec<String> = t
        .periods
        .iter()
        .map(|p| {
            let moves = match p.moves {
                Some(m) => format!("{m} moves"),
                None if t.periods.len() == 1 => "all moves".to_string(),
                None => "rest".to_string(),
            };
            let mut s = format!("period {moves} in {}", ms(p.time_ms));
            if p.increment_ms != 0.0 {
                s.push_str(&format!(" increment {}", ms(p.increment_ms)));
            }
            s
        })
        .collect();
    if t.start_credit_ms != 0.0 {
        parts.push(format!("start_credit {}", ms(t.start_credit_ms)));
    }
    parts.join(" ")
}

/// A file's fit, for `audit --fit` and `batch --fit`: the values its games
/// are judged under, and the finding that names each departure from the
/// text (`None` where the fit is the text).
///
/// A `batch --shard` keeps what the reports show of it (not the values,
/// which only the audit of its games needs) for `arbiter merge`.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct FileFit {
    #[serde(skip)]
    pub overrides: Overrides,
    /// What the archive acceptance report shows of the fit.
    pub summary: FitSummary,
    pub finding: Option<Finding>,
    /// One finding per rule the fit's report names as not described.
    pub undescribed: Vec<Finding>,
}

/// The evidence that names the games fitted.
fn group_evidence(fit: &GroupFit) -> Evidence {
    Evidence {
        path: fit.group.clone(),
        span: None,
        ply: None,
        timestamp: None,
        note: format!("the {} games fitted", fit.games),
    }
}

/// A file's fit in a line of the archive acceptance report (`batch --fit`):
/// the values that depart from the text, the agreement under both, and
/// the rules not described.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FitSummary {
    pub games: usize,
    /// The Event tag of the file's first game.
    pub event: String,
    /// `kind name = fitted (text: …)`, each departing value.
    pub departures: Vec<String>,
    pub under_text: Agreement,
    pub under_fit: Agreement,
    /// Games an adjudication left undecided (no table).
    pub undecided: usize,
    /// `rule (games of n)`, each rule not described.
    pub undescribed: Vec<String>,
}

impl FitSummary {
    pub fn of(fit: &GroupFit, event: &str) -> FitSummary {
        FitSummary {
            games: fit.games,
            event: event.to_string(),
            departures: fit
                .fits
                .iter()
                .filter(|f| f.fitted != f.text)
                .map(|f| format!("{} {} = {} (text: {})", f.kind, f.name, f.fitted, f.text))
                .collect(),
            under_text: fit.under_text,
            under_fit: fit.under_fit,
            undecided: fit.undecided,
            undescribed: fit
                .undescribed
                .iter()
                .map(|u| format!("{} ({} of {})", u.rule, u.games, u.of))
                .collect(),
        }
    }
}

/// The `rules-fit-undescribed` finding of one rule: it fires in most of a
/// file's games even under the fitted values, so its findings there say
/// that the ruleset does not describe the archive. Every finding stays in
/// its game; this one says so once, for the file.
pub fn undescribed_finding(rs: &Ruleset, fit: &GroupFit, u: &Undescribed) -> Finding {
    let mut f = Finding::of(
        &codes::RULES_FIT_UNDESCRIBED,
        "A rule fires in most games even under the fitted values",
        format!(
            "{}: {} fires in {} of {} games ({} findings) under the values that best reproduce the record: the ruleset does not describe this archive, and no `fit` value it lets change does. Read its findings as one difference between the ruleset and the archive, and check them in the first games: {}.",
            fit.group,
            u.rule,
            u.games,
            u.of,
            u.findings,
            u.first.join("; ")
        ),
    );
    f.evidence.push(group_evidence(fit));
    f.evidence.push(Evidence::at_line(
        rs.rule_file(&u.rule),
        u.line as u64,
        1,
        4,
        format!("rule {}", u.rule),
    ));
    f
}

/// The `rules-fit` finding: each fitted value that departs from the text,
/// the agreement under both, and where the `fit` clauses are.
pub fn departure_finding(rs: &Ruleset, fit: &GroupFit) -> Finding {
    let departures: Vec<String> = fit
        .fits
        .iter()
        .filter(|f| f.fitted != f.text)
        .map(|f| {
            format!(
                "{} {} = {} (the text: {})",
                f.kind, f.name, f.fitted, f.text
            )
        })
        .collect();
    let agreement = |a: &Agreement| {
        format!(
            "counters {} of {}, terminations {} of {}, clock readings {} of {}, TimeControl tags {} of {}",
            a.counters,
            a.counters_of,
            a.terminations,
            a.terminations_of,
            a.clocks,
            a.clocks_of,
            a.tags,
            a.tags_of
        )
    };
    let mut f = Finding::of(
        &codes::RULES_FIT,
        "The file is judged under fitted values, not the text's",
        format!(
            "{}: the values that best reproduce the record depart from the text: {}. Agreement under the text: {}; under the fit: {}. {} game(s) end otherwise under the fit.",
            fit.group,
            departures.join(", "),
            agreement(&fit.under_text),
            agreement(&fit.under_fit),
            fit.decided.len()
        ),
    );
    f.evidence.push(group_evidence(fit));
    for x in fit.fits.iter().filter(|x| x.fitted != x.text) {
        f.evidence.push(Evidence::at_line(
            rs.fit_file(x.kind, &x.name),
            x.line as u64,
            x.column as u64,
            3,
            format!("the fit clause of {} {}", x.kind, x.name),
        ));
    }
    f
}

//! The archive acceptance tables of `batch --fit`: per file and per event,
//! the values the fit found, the agreement under the text and under the
//! fit, the rules not described; and each file's findings per game by
//! code. A director reads them as docs/rules-language.md ("Reading the
//! acceptance tables") says.

use std::collections::BTreeMap;

use polars::prelude::*;

use crate::pipeline::batch::Outcome;
use crate::rules::fit::{FileFit, FitSummary};

/// `a of b` as a share, 4 decimals; none where nothing was recorded.
fn share(a: u64, of: u64) -> Option<f64> {
    (of > 0).then(|| (a as f64 / of as f64 * 1e4).round() / 1e4)
}

/// One table of agreement rows (`(key, summary)`), the key's column named
/// `key`.
fn agreement_table(key: &str, rows: &[(String, FitSummary)]) -> PolarsResult<DataFrame> {
    let col =
        |f: fn(&FitSummary) -> Option<f64>| rows.iter().map(|(_, s)| f(s)).collect::<Vec<_>>();
    df!(
        key => rows.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
        "event" => rows.iter().map(|(_, s)| s.event.as_str()).collect::<Vec<_>>(),
        "games" => rows.iter().map(|(_, s)| s.games as u64).collect::<Vec<_>>(),
        "fitted" => rows.iter().map(|(_, s)| s.departures.join("; ")).collect::<Vec<_>>(),
        "counters_text" => col(|s| share(s.under_text.counters, s.under_text.counters_of)),
        "counters_fit" => col(|s| share(s.under_fit.counters, s.under_fit.counters_of)),
        "counters_of" => rows.iter().map(|(_, s)| s.under_fit.counters_of).collect::<Vec<_>>(),
        "terminations_text" => col(|s| share(s.under_text.terminations, s.under_text.terminations_of)),
        "terminations_fit" => col(|s| share(s.under_fit.terminations, s.under_fit.terminations_of)),
        "terminations_of" => rows.iter().map(|(_, s)| s.under_fit.terminations_of).collect::<Vec<_>>(),
        "clocks_text" => col(|s| share(s.under_text.clocks, s.under_text.clocks_of)),
        "clocks_fit" => col(|s| share(s.under_fit.clocks, s.under_fit.clocks_of)),
        "clocks_of" => rows.iter().map(|(_, s)| s.under_fit.clocks_of).collect::<Vec<_>>(),
        "undecided_games" => rows.iter().map(|(_, s)| s.undecided as u64).collect::<Vec<_>>(),
        "not_described" => rows.iter().map(|(_, s)| s.undescribed.join("; ")).collect::<Vec<_>>(),
    )
}

/// The sum of the files' summaries of one event: their games, agreement
/// and undecided games added, their departures and rules not described
/// each named once, with the files that have them.
fn by_event(fitted: &BTreeMap<String, FileFit>) -> Vec<(String, FitSummary)> {
    let mut events: BTreeMap<&str, FitSummary> = BTreeMap::new();
    for (file, f) in fitted {
        let s = &f.summary;
        let e = events.entry(&s.event).or_default();
        e.event = s.event.clone();
        e.games += s.games;
        e.undecided += s.undecided;
        for (sum, add) in [
            (&mut e.under_text, &s.under_text),
            (&mut e.under_fit, &s.under_fit),
        ] {
            sum.counters += add.counters;
            sum.counters_of += add.counters_of;
            sum.terminations += add.terminations;
            sum.terminations_of += add.terminations_of;
            sum.clocks += add.clocks;
            sum.clocks_of += add.clocks_of;
            sum.tags += add.tags;
            sum.tags_of += add.tags_of;
        }
        for d in &s.departures {
            e.departures.push(format!("{file}: {d}"));
        }
        for u in &s.undescribed {
            e.undescribed.push(format!("{file}: {u}"));
        }
    }
    events
        .into_iter()
        .map(|(name, s)| (name.to_string(), s))
        .collect()
}

/// The acceptance tables: `fit_acceptance` (a row per file),
/// `fit_acceptance_by_event` and `findings_per_game` (per file and code:
/// the games it fires in, its findings, and its findings per game).
pub(super) fn tables(
    o: &Outcome,
    fitted: &BTreeMap<String, FileFit>,
) -> Result<Vec<(&'static str, DataFrame)>, super::TableError> {
    let files: Vec<(String, FitSummary)> = fitted
        .iter()
        .map(|(f, x)| (f.clone(), x.summary.clone()))
        .collect();
    let per_file = agreement_table("file", &files)?;
    let per_event = agreement_table("event_name", &by_event(fitted))?;
    // findings per game, by file and code
    let mut games_in: BTreeMap<&str, u64> = BTreeMap::new();
    let mut counts: BTreeMap<(&str, &str), (u64, u64)> = BTreeMap::new();
    for g in &o.games {
        *games_in.entry(&g.file).or_default() += 1;
        let mut seen: Vec<&str> = Vec::new();
        for f in &g.findings {
            let c = counts.entry((&g.file, &f.code)).or_default();
            c.1 += 1;
            if !seen.contains(&&*f.code) {
                seen.push(&f.code);
                c.0 += 1;
            }
        }
    }
    let per_game = df!(
        "file" => counts.keys().map(|k| k.0).collect::<Vec<_>>(),
        "code" => counts.keys().map(|k| k.1).collect::<Vec<_>>(),
        "games" => counts.keys().map(|k| games_in.get(k.0).copied().unwrap_or(0)).collect::<Vec<_>>(),
        "games_with" => counts.values().map(|c| c.0).collect::<Vec<_>>(),
        "findings" => counts.values().map(|c| c.1).collect::<Vec<_>>(),
        "per_game" => counts.iter().map(|(k, c)| {
            let n = games_in.get(k.0).copied().unwrap_or(0);
            share(c.1, n)
        }).collect::<Vec<_>>(),
    )?;
    Ok(vec![
        ("fit_acceptance", per_file),
        ("fit_acceptance_by_event", per_event),
        ("findings_per_game", per_game),
    ])
}

//! The events of a batch: each event's case file built from its games, and
//! the ruleset's event-level rules run on it.

use std::sync::Arc;

use super::{BatchConfig, EventOutcome};
use crate::rules::analysis::Ruleset;

/// Build each event's case file from the games audited under the batch's
/// ruleset and run the ruleset's event-level rules on it (not on a shard:
/// a shard holds only part of each event). Under a folder of rulesets,
/// `chosen` gives each file's ruleset, by its path as shown: an event is
/// judged under its first game's.
pub(super) fn events(
    infos: crate::facts::event::Grouped,
    cfg: &BatchConfig,
    chosen: &std::collections::HashMap<String, Arc<Ruleset>>,
) -> Vec<EventOutcome> {
    let of = |file: &str| match &cfg.audit.shelf {
        Some(_) => chosen.get(file),
        None => cfg.audit.ruleset.as_ref(),
    };
    let scoring = |g: &crate::facts::event::GameInfo| match of(&g.file) {
        Some(r) => (&r.scoring[..], &r.tiebreaks[..]),
        None => (&[][..], &[][..]),
    };
    let detectors = crate::rules::eval::Detectors::default();
    crate::facts::event::build(infos, &scoring)
        .map(|case| {
            let first = case.games.iter().min_by_key(|g| g.order);
            let rs = first.and_then(|g| of(&g.file));
            let mut out = EventOutcome {
                games: case.games.len(),
                variant: None,
                findings: Vec::new(),
                indeterminate: Vec::new(),
                skipped: None,
                case,
            };
            if let Err(why) = judge_event(&mut out, rs.map(|r| &**r), cfg, &detectors) {
                out.skipped = Some(why.to_string());
            }
            // the games, their sides and the items are only for the rules
            // (the findings already name what they are about): one
            // event's at a time are kept
            out.case.items = Vec::new();
            out.case.games = Vec::new();
            out.case.sides = Vec::new();
            out
        })
        .collect()
}

/// Why the event-level rules were not run on an event.
#[derive(Debug, thiserror::Error)]
enum Skipped {
    #[error("no ruleset")]
    NoRuleset,
    /// The batch is shard `k` of `n`.
    #[error(
        "shard {k}/{n} holds only part of the event; run the event-level rules on the whole archive"
    )]
    Shard { k: u64, n: u64 },
    #[error("its first game's header could not be read again: {0}")]
    Header(#[source] crate::facts::event::HeaderError),
    #[error(transparent)]
    Variant(#[from] crate::rules::eval::UnknownVariant),
}

/// Run the event-level rules on one event; `Err` says why they were not.
fn judge_event(
    out: &mut EventOutcome,
    rs: Option<&crate::rules::analysis::Ruleset>,
    cfg: &BatchConfig,
    detectors: &crate::rules::eval::Detectors,
) -> Result<(), Skipped> {
    let rs = rs.ok_or(Skipped::NoRuleset)?;
    if let Some((k, n)) = cfg.shard {
        return Err(Skipped::Shard { k, n });
    }
    let header = out.case.games[0].header().map_err(Skipped::Header)?;
    let replay = crate::replay::Replay::empty();
    let tl = crate::timeline::Timeline::build(&header, &replay);
    let prog = crate::rules::eval::Program::for_game(rs, cfg.audit.variant.as_deref(), &tl)?;
    out.variant = prog.variant.clone();
    let o = crate::rules::eval::run_event(&prog, &out.case, detectors);
    out.findings = o
        .finding_items
        .iter()
        .zip(o.findings)
        .filter(|(_, f)| cfg.audit.filter.keeps(f))
        .map(|(&i, f)| (out.case.about(i), f))
        .collect();
    out.indeterminate = o.indeterminate;
    Ok(())
}

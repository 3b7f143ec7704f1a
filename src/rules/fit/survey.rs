//! What a fit learns of a whole group before it searches, a block of
//! games at a time: the text's values (from the group's first game), the
//! values each fit tries, the rules a point is scored on, and the games
//! not replayed to their end. A group held whole is surveyed in one block;
//! one read a block at a time gives the same survey.

use std::collections::BTreeSet;

use super::search::scoring::Presence;
use super::time_controls::Readings;
use super::{Game, Unreplayed};
use crate::base::value::Value;
use crate::rules::analysis::{FIT_MAX_VALUES, FitSource, FitTarget, Ruleset};
use crate::rules::eval::{Program, UnknownVariant};
use crate::timeline::Timeline;

/// What a group's games give the whole fit, gathered block by block.
pub(super) struct Survey<'r> {
    rs: &'r Ruleset,
    forced: Option<&'r str>,
    /// The group's games, counted.
    pub(super) games: usize,
    /// The first game's path, and the text's values and variant there.
    first: Option<(String, Vec<Value>, Option<String>)>,
    presence: Presence,
    readings: Readings,
    /// For each fit `from terminations`: the TerminationDetails texts seen
    /// (the first [`FIT_MAX_VALUES`] in order), and whether the text's own
    /// value is among all of them.
    terminations: Vec<(BTreeSet<String>, bool)>,
    pub(super) unreplayed: Vec<Unreplayed>,
}

/// The survey of a group, complete.
pub(super) struct Surveyed {
    pub(super) games: usize,
    pub(super) first_path: String,
    pub(super) variant: Option<String>,
    /// The ruleset a point is scored on.
    pub(super) scoring: Ruleset,
    pub(super) text: Vec<Value>,
    pub(super) grids: Vec<Vec<Value>>,
    pub(super) unreplayed: Vec<Unreplayed>,
}

impl<'r> Survey<'r> {
    pub(super) fn new(rs: &'r Ruleset, forced: Option<&'r str>) -> Survey<'r> {
        Survey {
            rs,
            forced,
            games: 0,
            first: None,
            presence: Presence::of(rs),
            readings: Readings::default(),
            terminations: vec![(BTreeSet::new(), false); rs.fits.len()],
            unreplayed: Vec::new(),
        }
    }

    /// Add a block of the group's games, in the group's order.
    pub(super) fn add(&mut self, games: &[&Game]) -> Result<(), UnknownVariant> {
        for g in games {
            let tl = Timeline::build(&g.pgn, &g.replay);
            if self.first.is_none() {
                let base = Program::for_game(self.rs, self.forced, &tl)?;
                let text = text_values(self.rs, &base);
                self.first = Some((g.path.clone(), text, base.variant));
            }
            self.games += 1;
            self.presence.add(&tl);
            self.readings.add(&tl);
            self.add_termination(g);
        }
        self.unreplayed.extend(super::report::unreplayed(games));
        Ok(())
    }

    fn add_termination(&mut self, g: &Game) {
        let Some((_, text, _)) = &self.first else {
            return;
        };
        let Some(t) = g.pgn.tag("TerminationDetails").map(str::trim) else {
            return;
        };
        if t.is_empty() {
            return;
        }
        for ((f, own), (texts, seen)) in (self.rs.fits.iter().zip(text)).zip(&mut self.terminations)
        {
            if f.source != Some(FitSource::Terminations) {
                continue;
            }
            *seen |= matches!(own, Value::Str(o) if o.as_str() == t);
            if texts.len() < FIT_MAX_VALUES || texts.last().is_some_and(|l| l.as_str() > t) {
                texts.insert(t.to_string());
                if texts.len() > FIT_MAX_VALUES {
                    texts.pop_last();
                }
            }
        }
    }

    /// The survey complete; `None` where the group has no game.
    pub(super) fn finish(self) -> Option<Surveyed> {
        let (first_path, text, variant) = self.first?;
        let grids = (self.rs.fits.iter().zip(&text))
            .zip(self.terminations)
            .map(|((f, t), (texts, seen))| match f.source {
                None => f.grid.clone(),
                Some(FitSource::Record) => self.readings.candidates(t),
                // a text the games use is kept as it is (the text's own
                // value): only a wording the archive never uses is
                // replaced, by the one of its own that agrees best
                Some(FitSource::Terminations) if seen => vec![t.clone()],
                Some(FitSource::Terminations) => {
                    texts.into_iter().map(|t| Value::Str(t.into())).collect()
                }
            })
            .collect();
        Some(Surveyed {
            games: self.games,
            first_path,
            variant,
            scoring: super::search::scoring::scoring_ruleset(self.rs, &self.presence),
            text,
            grids,
            unreplayed: self.unreplayed,
        })
    }
}

/// The text's value of each fit, in the program `base`.
fn text_values(rs: &Ruleset, base: &Program<'_>) -> Vec<Value> {
    rs.fits
        .iter()
        .map(|f| match f.target {
            FitTarget::Const(i) => base.consts.get(i).cloned().unwrap_or_default(),
            FitTarget::Switch(s) => Value::Bool(base.switches.get(s).copied().unwrap_or(false)),
            FitTarget::TimeControl => base
                .time_control
                .as_deref()
                .map_or(Value::None, |t| Value::Str(t.tag_form().into())),
        })
        .collect()
}

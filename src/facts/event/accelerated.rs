//! The accelerated Swiss check of one game: whether its round could have
//! been paired without a game between a high-scoring lower-half program
//! and an upper-half one, and without a rematch.

use std::collections::{BTreeMap, BTreeSet};

use super::case::EventCase;
use super::game::round_number;
use super::matching::perfect_matching;
use crate::base::value::Value;
use crate::facts::standings::is_bye;
use crate::timeline::ScopeKind;

/// Why the accelerated Swiss check of a game has no answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PairingError {
    /// An entrant of `event` without a rating: there is no expected ranking.
    #[error("no expected ranking: {entrant} has no WhiteElo/BlackElo tag in {event}")]
    NoRating { entrant: String, event: String },
    /// Game `game` (1-based) has no round number.
    #[error("game {game} has no round number")]
    NoRound { game: usize },
    /// The search for a pairing of `round` ran out of its budget.
    #[error("round {round}: too many pairings to search for one that avoids the meeting")]
    TooMany { round: f64 },
}

impl EventCase {
    /// Which half of the expected ranking each entrant is in (`true`:
    /// upper), by rating; `Err` names an entrant without one.
    fn halves(&self) -> Result<BTreeMap<String, bool>, PairingError> {
        let mut rated: Vec<(String, f64)> = Vec::new();
        for it in self.items.iter().filter(|it| it.kind == ScopeKind::Entrant) {
            let name = it
                .fields
                .get("name")
                .map(Value::display)
                .unwrap_or_default();
            match it.fields.get("rating") {
                Some(Value::Num(r)) => rated.push((name, *r)),
                _ => {
                    return Err(PairingError::NoRating {
                        entrant: name,
                        event: self.name.to_string(),
                    });
                }
            }
        }
        rated.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let upper = rated.len().div_ceil(2);
        Ok(rated
            .into_iter()
            .enumerate()
            .map(|(k, (n, _))| (n, k < upper))
            .collect())
    }

    /// The accelerated Swiss check of game `gi` (the `accelerated_pairing` detector): `Some(why)` when the game pairs a lower-half program whose score before the round is at least `high_score` of the rounds played with an upper-half program, before round `until_round`, and the round could have been paired without any such game and without a rematch.
    pub fn accelerated_pairing(
        &self,
        gi: usize,
        until_round: f64,
        high_score: f64,
    ) -> Result<Option<String>, PairingError> {
        let halves = self.halves()?;
        let g = &self.games[gi];
        let Some(round) = round_number(g.tag("Round")) else {
            return Err(PairingError::NoRound { game: gi + 1 });
        };
        if round >= until_round {
            return Ok(None);
        }
        let (w, b) = &self.sides[gi];
        if is_bye(w) || is_bye(b) {
            return Ok(None);
        }
        let Value::Num(sw) = self.field(gi + 1, ScopeKind::EventGame, "white_score_before") else {
            return Ok(None);
        };
        let Value::Num(sb) = self.field(gi + 1, ScopeKind::EventGame, "black_score_before") else {
            return Ok(None);
        };
        let played_before = round - 1.0;
        let high = |s: f64| s >= high_score * played_before;
        let upper = |n: &str| halves.get(n).copied();
        let crossing = |x: &str, sx: f64, y: &str| {
            upper(x) == Some(false) && high(sx) && upper(y) == Some(true)
        };
        if !(crossing(w, sw, b) || crossing(b, sb, w)) {
            return Ok(None);
        }
        // the round's players and the pairs that met before it
        let mut players: Vec<String> = Vec::new();
        let mut met: BTreeSet<(String, String)> = BTreeSet::new();
        let mut scores: BTreeMap<String, f64> = BTreeMap::new();
        for (i, h) in self.games.iter().enumerate() {
            let r = round_number(h.tag("Round"));
            let (x, y) = &self.sides[i];
            if r == Some(round) {
                if is_bye(x) || is_bye(y) {
                    continue;
                }
                players.extend([x.clone(), y.clone()]);
                let item = i + 1;
                for (who, key) in [(x, "white_score_before"), (y, "black_score_before")] {
                    if let Value::Num(s) = self.field(item, ScopeKind::EventGame, key) {
                        scores.insert(who.clone(), s);
                    }
                }
            } else if r.is_some_and(|r| r < round) {
                met.insert((x.clone().min(y.clone()), x.clone().max(y.clone())));
            }
        }
        let allowed = |x: &String, y: &String| {
            let key = (x.clone().min(y.clone()), x.clone().max(y.clone()));
            let sx = scores.get(x).copied().unwrap_or(0.0);
            let sy = scores.get(y).copied().unwrap_or(0.0);
            !met.contains(&key) && !crossing(x, sx, y) && !crossing(y, sy, x)
        };
        let mut budget: u64 = 2_000_000;
        let mut pairs = Vec::new();
        let mut used = vec![false; players.len()];
        match perfect_matching(&players, &allowed, &mut used, &mut pairs, &mut budget) {
            Some(true) => Ok(Some(format!(
                "round {round} could have been paired without such a game and without a rematch: {}",
                pairs
                    .iter()
                    .map(|(a, b): &(usize, usize)| format!("{} - {}", players[*a], players[*b]))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
            Some(false) => Ok(None),
            None => Err(PairingError::TooMany { round }),
        }
    }
}

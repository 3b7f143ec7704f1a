//! Evaluation signatures: where two engines are wrong together.
//!
//! Move matching confuses "same code" with "same strength and era": two
//! unrelated engines of similar strength choose the same move about as
//! often as a program and its derivative. The score an engine reports
//! carries a second, sharper signal. In each position, the consensus is
//! the median of every engine's score (mates and scores beyond
//! [`CLIP_CP`] clipped); an engine's residual is how far its own score lies
//! from it. Engines that share evaluation code are wrong in the same
//! places, so their residuals correlate across positions; unrelated
//! engines' residuals hardly do.
//!
//! For each pair this module reports three signals over the positions both
//! answered:
//! - **move match**: the share of positions with the same move;
//! - **residual correlation**: Pearson's r of the two engines' residuals,
//!   over positions where at least [`MIN_SCORERS`] engines reported a score
//!   (positions where either engine reported none are skipped);
//! - **PV overlap**: the share of the first [`PV_PLIES`] plies of the two
//!   principal variations they have in common (as a common prefix, out of
//!   the shorter PV's length).
//!
//! Each value carries a 95% bootstrap interval: the positions are resampled
//! with replacement [`Settings::bootstrap`] times (a seeded PCG generator,
//! so the intervals are the same on every run).
//!
//! **The null.** A pair stands out against the field's unrelated pairs.
//! Its null is the pooled bootstrap replicates of every other pair of the
//! field (not the pair itself, not pairs declared related, and not pairs
//! the verdict flags: these are removed and the nulls recomputed until no
//! flag changes). Because each other pair contributes its whole resampling
//! distribution, the null holds the sampling noise of the suite as well as
//! the spread between pairs, so it stays meaningful with few engines where
//! a z-score against a handful of pair values would not. Each signal's z is
//! robust: (value − median) / (1.4826 × MAD) of the pooled null.
//!
//! **The verdict.** Each signal's z is robust: (value − median) / (1.4826
//! × MAD) of the pooled null, on Fisher's z = atanh r for the correlation
//! (which makes a correlation's spread the same near 0 and near 1). The
//! median and the MAD are what a related pair hiding in the null cannot
//! move, where a mean, a standard deviation or an empirical tail would be
//! pulled by it. A pair is flagged when its residual z reaches the normal
//! quantile of [`Settings::false_positive_rate`] (3.09 for 1 in 1,000) and
//! its moves agree at least as often as the null's median pair (move-match
//! z of [`Settings::moves_floor`] or more): the rate is the verdict's
//! false-positive rate for one pair of unrelated engines, under a normal
//! null with the field's centre and spread. Beside it, each signal reports
//! the share of the null's replicates at least as high, (1 + hits) / (1 +
//! replicates), the distribution-free check. Move matching alone is the
//! same test on the move-match share: a pair it flags is "flagged by
//! moves", and the verdict clears it when its evaluations are unrelated.
//!
//! Two engines alone have no field: their residuals need a consensus of at
//! least [`MIN_SCORERS`] engines and their z a null of other pairs. The
//! answers of a reference field over the same suite and limit
//! (`arbiter similarity --reference DIR`) supply both.

use serde::{Deserialize, Serialize};

mod analyze;
mod judge;
mod pairs;
mod robust;
mod shared;
#[cfg(test)]
mod tests;
mod text;

pub use analyze::{analyze, analyze_field};
pub use pairs::Pairs;
pub use robust::z_critical;
pub use text::text;

/// Scores beyond ±10 pawns, and mates, count as ±10 pawns.
pub const CLIP_CP: f64 = 1000.0;
/// Engines that must have scored a position for it to have a consensus.
pub const MIN_SCORERS: usize = 3;
/// How many plies of two PVs are compared.
pub const PV_PLIES: usize = 4;
/// The generator's seed: fixed, so that the intervals are reproducible.
pub const SEED: u64 = 0x6172_6269_7465_7221;

/// What one engine said in one position.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Said {
    pub mv: Option<String>,
    /// Centipawns from the side to move, clipped ([`clip`]).
    pub score: Option<f64>,
    pub pv: Vec<String>,
}

/// A score clipped to ±[`CLIP_CP`]; a mate counts as the clip, with its
/// sign. No score: `None`.
pub fn clip(cp: Option<i64>, mate: Option<i64>) -> Option<f64> {
    match (cp, mate) {
        (_, Some(m)) => Some(if m > 0 { CLIP_CP } else { -CLIP_CP }),
        (Some(cp), None) => Some((cp as f64).clamp(-CLIP_CP, CLIP_CP)),
        (None, None) => None,
    }
}

/// How the pairs are judged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Bootstrap resamples of the positions.
    pub bootstrap: usize,
    pub seed: u64,
    /// The verdict's false-positive rate: the largest p-value, against the
    /// field's unrelated pairs resampled, that flags a pair.
    pub false_positive_rate: f64,
    /// The move-match z a flagged pair must reach as well.
    pub moves_floor: f64,
    /// Pairs known to be related, kept out of every null.
    pub related: Vec<(String, String)>,
    /// Pairs with fewer shared positions get no verdict.
    pub min_positions: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            bootstrap: 1000,
            seed: SEED,
            false_positive_rate: 0.001,
            moves_floor: 0.0,
            related: Vec::new(),
            min_positions: 30,
        }
    }
}

/// One signal of one pair.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Signal {
    pub value: Option<f64>,
    /// 95% bootstrap interval (2.5th and 97.5th percentiles).
    pub ci: Option<[f64; 2]>,
    /// Robust z against the pair's null.
    pub z: Option<f64>,
    /// Share of the null's replicates at least as high: (1 + hits) / (1 +
    /// replicates).
    pub null_share: Option<f64>,
    /// Positions the signal was computed over.
    pub positions: usize,
}

/// One pair's evidence and verdict.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Pair {
    pub a: String,
    pub b: String,
    pub moves: Signal,
    pub residual: Signal,
    pub pv: Signal,
    /// Flagged by move matching alone: its move-match z reaches the
    /// critical z.
    pub flagged_by_moves: bool,
    /// Flagged by the verdict: the residual z reaches the critical z and
    /// the move-match z the floor.
    pub flagged: bool,
    /// The verdict's p-value: the normal tail beyond the residual z.
    pub p_value: Option<f64>,
    /// How many of the pair's own resamples the verdict flags, against the
    /// same null.
    pub resamples_flagged: usize,
    /// The pair's resamples with both a move match and a residual r.
    pub resamples_judged: usize,
    /// Replicates in the null (other pairs × resamples).
    pub null_replicates: usize,
    /// Pairs in the null.
    pub null_pairs: usize,
    /// Declared related (kept out of the other pairs' nulls).
    pub declared_related: bool,
    /// Why a signal or the verdict is missing.
    pub notes: Vec<String>,
}

/// The evaluation-signature analysis of a field.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Signature {
    pub engines: Vec<String>,
    pub positions: usize,
    /// Positions with a consensus (at least MIN_SCORERS scores).
    pub consensus_positions: usize,
    pub clip_cp: f64,
    pub min_scorers: usize,
    pub pv_plies: usize,
    pub settings: Option<Settings>,
    /// The residual z the false-positive rate asks for (its normal quantile).
    pub z_critical: f64,
    /// Pairs judged (with a null and enough shared positions).
    pub judged_pairs: usize,
    /// Expected false flags among them: false-positive rate × judged pairs.
    pub expected_false_flags: f64,
    /// The verdict's false-positive rate measured on the field: of the
    /// resamples of the pairs it does not flag (the field's unrelated
    /// pairs, as far as it can tell), how many it flags, out of how many.
    pub measured_false_positives: Option<(usize, usize)>,
    /// Sorted by residual z, highest first; pairs without one last, by
    /// name. The pairs with too few shared positions for a verdict are
    /// held as a few numbers each ([`Pairs`]).
    pub pairs: Pairs,
    /// What the field cannot support.
    pub notes: Vec<String>,
}

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

use std::collections::BTreeSet;

use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};

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
    /// Sorted by residual z, highest first; pairs without one last.
    pub pairs: Vec<Pair>,
    /// What the field cannot support.
    pub notes: Vec<String>,
}

/// What one pair shares in one position.
#[derive(Debug, Clone, Copy)]
struct Shared {
    position: usize,
    /// Both moved, and the same move.
    same_move: Option<bool>,
    /// Both residuals.
    resid: Option<(f64, f64)>,
    pv: Option<f64>,
}

/// The positions one pair shares, precomputed once (sparse: a passive
/// field has many positions and few shared).
struct PairData {
    a: usize,
    b: usize,
    shared: Vec<Shared>,
}

/// The three signals of a pair over positions weighted by `w` (the
/// bootstrap's counts; all ones for the sample itself).
fn stats(d: &PairData, w: &[u32]) -> [Option<f64>; 3] {
    let (mut same, mut both) = (0.0, 0.0);
    let (mut n, mut sx, mut sy, mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    let (mut pv_sum, mut pv_n) = (0.0, 0.0);
    for sh in &d.shared {
        let wp = w[sh.position];
        if wp == 0 {
            continue;
        }
        let wp = f64::from(wp);
        if let Some(s) = sh.same_move {
            both += wp;
            if s {
                same += wp;
            }
        }
        if let Some((x, y)) = sh.resid {
            n += wp;
            sx += wp * x;
            sy += wp * y;
            sxx += wp * x * x;
            syy += wp * y * y;
            sxy += wp * x * y;
        }
        if let Some(o) = sh.pv {
            pv_sum += wp * o;
            pv_n += wp;
        }
    }
    let m = (both > 0.0).then(|| same / both);
    let r = if n >= 3.0 {
        let vx = sxx - sx * sx / n;
        let vy = syy - sy * sy / n;
        let c = sxy - sx * sy / n;
        (vx > 0.0 && vy > 0.0).then(|| (c / (vx * vy).sqrt()).clamp(-1.0, 1.0))
    } else {
        None
    };
    let o = (pv_n > 0.0).then(|| pv_sum / pv_n);
    [m, r, o]
}

/// The median of a slice (sorted in place); `None` when empty.
fn median(v: &mut [f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let k = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[k]
    } else {
        (v[k - 1] + v[k]) / 2.0
    })
}

/// The q-quantile of sorted values (nearest rank).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let k = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[k - 1]
}

/// Median and robust scale (1.4826 × MAD) of a pool; `None` when the pool
/// is empty or has no spread.
fn centre_scale(pool: &[f64]) -> Option<(f64, f64)> {
    let mut v = pool.to_vec();
    let med = median(&mut v)?;
    let mut dev: Vec<f64> = pool.iter().map(|x| (x - med).abs()).collect();
    let mad = median(&mut dev)?;
    let scale = 1.4826 * mad;
    (scale > 0.0).then_some((med, scale))
}

/// The share of the first [`PV_PLIES`] plies two PVs have in common, out of
/// the shorter one's length.
fn pv_overlap(a: &[String], b: &[String]) -> Option<f64> {
    let len = a.len().min(b.len()).min(PV_PLIES);
    if len == 0 {
        return None;
    }
    let common = a
        .iter()
        .zip(b)
        .take(len)
        .take_while(|(x, y)| x == y)
        .count();
    Some(common as f64 / len as f64)
}

/// Analyse a field: `said[e][p]` is what engine `e` said in position `p`.
pub fn analyze(engines: &[String], said: &[Vec<Said>], settings: &Settings) -> Signature {
    let n = engines.len();
    let positions = said.iter().map(Vec::len).max().unwrap_or(0);
    let get = |e: usize, p: usize| said.get(e).and_then(|v| v.get(p));
    // the consensus: the median score of the engines that scored a position
    let consensus: Vec<Option<f64>> = (0..positions)
        .map(|p| {
            let mut v: Vec<f64> = (0..n).filter_map(|e| get(e, p)?.score).collect();
            if v.len() >= MIN_SCORERS {
                median(&mut v)
            } else {
                None
            }
        })
        .collect();
    let consensus_positions = consensus.iter().filter(|c| c.is_some()).count();
    let mut notes = Vec::new();
    if n < MIN_SCORERS {
        notes.push(format!(
            "{n} engine(s): a consensus needs the scores of at least {MIN_SCORERS}; add engines or a reference field (--reference DIR; bench/similarity/debian-d8 answers the shipped suite at depth 8)"
        ));
    } else if consensus_positions == 0 {
        notes.push(format!(
            "no position was scored by {MIN_SCORERS} engines or more: no residuals"
        ));
    }
    let resid = |e: usize, p: usize| -> Option<f64> { Some(get(e, p)?.score? - consensus[p]?) };
    let mut data = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            let mut d = PairData {
                a,
                b,
                shared: Vec::new(),
            };
            for p in 0..positions {
                let (Some(x), Some(y)) = (get(a, p), get(b, p)) else {
                    continue;
                };
                let sh = Shared {
                    position: p,
                    same_move: x.mv.as_ref().zip(y.mv.as_ref()).map(|(ma, mb)| ma == mb),
                    resid: resid(a, p).zip(resid(b, p)),
                    pv: pv_overlap(&x.pv, &y.pv),
                };
                if sh.same_move.is_some() || sh.resid.is_some() || sh.pv.is_some() {
                    d.shared.push(sh);
                }
            }
            data.push(d);
        }
    }
    // the sample and its bootstrap replicates
    let ones = vec![1u32; positions];
    let sample: Vec<[Option<f64>; 3]> = data.iter().map(|d| stats(d, &ones)).collect();
    let mut reps: Vec<Vec<[Option<f64>; 3]>> =
        vec![Vec::with_capacity(settings.bootstrap); data.len()];
    let mut rng = Pcg64::seed_from_u64(settings.seed);
    let mut w = vec![0u32; positions];
    if positions > 0 {
        for _ in 0..settings.bootstrap {
            w.iter_mut().for_each(|x| *x = 0);
            for _ in 0..positions {
                let k = ((u128::from(rng.next_u64()) * positions as u128) >> 64) as usize;
                w[k] += 1;
            }
            for (i, d) in data.iter().enumerate() {
                reps[i].push(stats(d, &w));
            }
        }
    }
    let counts: Vec<[usize; 3]> = data
        .iter()
        .map(|d| {
            [
                d.shared.iter().filter(|s| s.same_move.is_some()).count(),
                d.shared.iter().filter(|s| s.resid.is_some()).count(),
                d.shared.iter().filter(|s| s.pv.is_some()).count(),
            ]
        })
        .collect();
    let related = |d: &PairData| {
        settings.related.iter().any(|(x, y)| {
            (x == &engines[d.a] && y == &engines[d.b]) || (x == &engines[d.b] && y == &engines[d.a])
        })
    };
    let eligible: Vec<bool> = counts
        .iter()
        .map(|c| c[0] >= settings.min_positions.max(1))
        .collect();
    // the verdict, recomputed until the set of flagged pairs is stable
    let mut flagged: BTreeSet<usize> = BTreeSet::new();
    let mut pairs: Vec<Pair> = Vec::new();
    for _round in 0..20 {
        pairs = (0..data.len())
            .map(|i| {
                let null: Vec<usize> = (0..data.len())
                    .filter(|&q| {
                        q != i && eligible[q] && !related(&data[q]) && !flagged.contains(&q)
                    })
                    .collect();
                judge(
                    i,
                    &data,
                    &sample,
                    &reps,
                    &counts,
                    &null,
                    eligible[i],
                    settings,
                    engines,
                )
            })
            .collect();
        for (i, p) in pairs.iter_mut().enumerate() {
            p.declared_related = related(&data[i]);
        }
        let now: BTreeSet<usize> = pairs
            .iter()
            .enumerate()
            .filter(|(_, p)| p.flagged)
            .map(|(i, _)| i)
            .collect();
        if now == flagged {
            break;
        }
        flagged = now;
    }
    pairs.sort_by(|x, y| {
        match (x.residual.z, y.residual.z) {
            (Some(a), Some(b)) => b.total_cmp(&a),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        }
        .then_with(|| (&x.a, &x.b).cmp(&(&y.a, &y.b)))
    });
    let judged_pairs = pairs.iter().filter(|p| p.p_value.is_some()).count();
    let (hits, n) = pairs
        .iter()
        .filter(|p| !p.flagged)
        .fold((0usize, 0usize), |(h, t), p| {
            (h + p.resamples_flagged, t + p.resamples_judged)
        });
    let measured_false_positives = (n > 0).then_some((hits, n));
    Signature {
        engines: engines.to_vec(),
        judged_pairs,
        measured_false_positives,
        z_critical: z_critical(settings.false_positive_rate),
        expected_false_flags: judged_pairs as f64 * settings.false_positive_rate,
        positions,
        consensus_positions,
        clip_cp: CLIP_CP,
        min_scorers: MIN_SCORERS,
        pv_plies: PV_PLIES,
        settings: Some(settings.clone()),
        pairs,
        notes,
    }
}

/// One pair against its null.
#[allow(clippy::too_many_arguments)]
fn judge(
    i: usize,
    data: &[PairData],
    sample: &[[Option<f64>; 3]],
    reps: &[Vec<[Option<f64>; 3]>],
    counts: &[[usize; 3]],
    null: &[usize],
    eligible: bool,
    settings: &Settings,
    engines: &[String],
) -> Pair {
    let d = &data[i];
    let mut pair = Pair {
        a: engines[d.a].clone(),
        b: engines[d.b].clone(),
        null_pairs: null.len(),
        ..Pair::default()
    };
    // each signal: value, interval, and the null's centre and scale (only
    // for a pair that gets a verdict)
    let null = if eligible { null } else { &[] };
    let mut cs: [Option<(f64, f64)>; 3] = [None; 3];
    for k in 0..3 {
        let mut own: Vec<f64> = reps[i].iter().filter_map(|r| r[k]).collect();
        own.sort_by(f64::total_cmp);
        let pool: Vec<f64> = null
            .iter()
            .flat_map(|&q| reps[q].iter().filter_map(move |r| r[k]))
            .map(|v| scale(k, v))
            .collect();
        cs[k] = centre_scale(&pool);
        pair.null_replicates = pair.null_replicates.max(pool.len());
        let value = sample[i][k];
        let signal = Signal {
            value,
            ci: (!own.is_empty()).then(|| [quantile(&own, 0.025), quantile(&own, 0.975)]),
            z: value.zip(cs[k]).map(|(v, (c, s))| (scale(k, v) - c) / s),
            // the share of the null's replicates at least as high
            null_share: value.filter(|_| !pool.is_empty()).map(|v| {
                let hits = pool.iter().filter(|&&x| x >= scale(k, v)).count();
                (1 + hits) as f64 / (1 + pool.len()) as f64
            }),
            positions: counts[i][k],
        };
        match k {
            0 => pair.moves = signal,
            1 => pair.residual = signal,
            _ => pair.pv = signal,
        }
    }
    if !eligible {
        pair.notes.push(format!(
            "{} shared positions, fewer than {}: no verdict",
            counts[i][0], settings.min_positions
        ));
        return pair;
    }
    if null.is_empty() {
        pair.notes.push(
            "no other pair in the field to compare with: add engines or a reference field (--reference)"
                .into(),
        );
        return pair;
    }
    let zc = z_critical(settings.false_positive_rate);
    pair.flagged_by_moves = pair.moves.z.is_some_and(|z| z >= zc);
    let (Some(rz), Some(mz)) = (pair.residual.z, pair.moves.z) else {
        let null_has = |k: usize| null.iter().any(|&q| sample[q][k].is_some());
        pair.notes.push(if sample[i][1].is_none() {
            "no residual correlation (too few scored positions): no verdict".into()
        } else if !null_has(1) || !null_has(0) {
            "no other pair of the field has residuals to compare with: no verdict".into()
        } else {
            "the null has no spread: no verdict".into()
        });
        return pair;
    };
    pair.p_value = Some(standard_normal().sf(rz));
    pair.flagged = rz >= zc && mz >= settings.moves_floor;
    // how often the verdict flags the pair's own resamples, against the
    // same null: its stability when flagged, its false-positive rate when
    // the pair is unrelated
    if let (Some((mc, ms)), Some((rc, rs))) = (cs[0], cs[1]) {
        let (mut n, mut hit) = (0usize, 0usize);
        for rep in &reps[i] {
            if let (Some(m), Some(r)) = (rep[0], rep[1]) {
                n += 1;
                let flags = (scale(1, r) - rc) / rs >= zc && (m - mc) / ms >= settings.moves_floor;
                hit += usize::from(flags);
            }
        }
        pair.resamples_flagged = hit;
        pair.resamples_judged = n;
    }
    pair
}

fn standard_normal() -> Normal {
    Normal::new(0.0, 1.0).unwrap_or_else(|_| unreachable!("the standard normal exists"))
}

/// The z whose normal upper tail is the false-positive rate.
pub fn z_critical(false_positive_rate: f64) -> f64 {
    standard_normal().inverse_cdf(1.0 - false_positive_rate)
}

/// The scale a signal's z is computed on: Fisher's atanh for the
/// correlation (kept finite at ±1), the value itself for the shares.
fn scale(k: usize, v: f64) -> f64 {
    if k == 1 {
        v.clamp(-0.9999, 0.9999).atanh()
    } else {
        v
    }
}

/// The pairs as a text table, highest residual z first.
pub fn text(s: &Signature) -> String {
    let mut out = String::new();
    let set = s.settings.clone().unwrap_or_default();
    out.push_str(&format!(
        "evaluation signatures: {} positions, {} with a consensus (median of at least {} scores, clipped at ±{} cp); 95% intervals from {} resamples of the positions\n",
        s.positions, s.consensus_positions, s.min_scorers, s.clip_cp, set.bootstrap
    ));
    out.push_str(&format!(
        "verdict: residual z >= {:.2} (a false-positive rate of {} per unrelated pair; {:.3} false flags expected among {} pairs judged) and move-match z >= {}; z robust against the other pairs, resampled\n",
        s.z_critical, set.false_positive_rate, s.expected_false_flags, s.judged_pairs, set.moves_floor
    ));
    if let Some((hits, n)) = s.measured_false_positives {
        out.push_str(&format!(
            "measured on this field: the verdict flags {hits} of the {n} resamples of the pairs it does not flag\n"
        ));
    }
    for n in &s.notes {
        out.push_str(&format!("  note: {n}\n"));
    }
    out.push_str(&format!(
        "  {:>26}  {:>24}  {:>18}  {:>8}  {:>8}  pair\n",
        "residual r [95%] z", "move match % [95%] z", "PV overlap % [95%]", "p", "null >="
    ));
    let pct = |x: f64| 100.0 * x;
    let z = |z: Option<f64>| z.map_or("-".into(), |z| format!("{z:.1}"));
    let few = |p: &Pair| p.moves.positions < set.min_positions.max(1);
    for p in s.pairs.iter().filter(|p| !few(p)) {
        let resid = match (p.residual.value, p.residual.ci) {
            (Some(v), Some(c)) => format!("{v:.2} [{:.2}, {:.2}] {}", c[0], c[1], z(p.residual.z)),
            _ => "-".into(),
        };
        let moves = match (p.moves.value, p.moves.ci) {
            (Some(v), Some(c)) => format!(
                "{:.1} [{:.1}, {:.1}] {}",
                pct(v),
                pct(c[0]),
                pct(c[1]),
                z(p.moves.z)
            ),
            _ => "-".into(),
        };
        let pv = match (p.pv.value, p.pv.ci) {
            (Some(v), Some(c)) => format!("{:.1} [{:.1}, {:.1}]", pct(v), pct(c[0]), pct(c[1])),
            _ => "-".into(),
        };
        let pv_ = |p: Option<f64>| p.map_or("-".into(), |p| format!("{p:.1e}"));
        let mut verdict = String::new();
        if p.flagged {
            verdict.push_str("  FLAGGED");
            if p.resamples_judged > 0 {
                verdict.push_str(&format!(
                    " (in {:.0}% of resamples)",
                    100.0 * p.resamples_flagged as f64 / p.resamples_judged as f64
                ));
            }
        }
        if p.flagged_by_moves && !p.flagged {
            verdict.push_str("  (flagged by moves alone; cleared)");
        }
        if p.declared_related {
            verdict.push_str("  (declared related)");
        }
        out.push_str(&format!(
            "  {:>26}  {:>24}  {:>18}  {:>8}  {:>8}  {} - {}{}\n",
            resid,
            moves,
            pv,
            pv_(p.p_value),
            pv_(p.residual.null_share),
            p.a,
            p.b,
            verdict
        ));
        for n in &p.notes {
            out.push_str(&format!("      {n}\n"));
        }
    }
    let (shown, rest) = (
        s.pairs.iter().filter(|p| !few(p)).count(),
        s.pairs.iter().filter(|p| few(p)).count(),
    );
    if rest > 0 {
        out.push_str(&format!(
            "  {rest} other pair(s) share fewer than {} positions: no verdict (listed in similarity.json){}\n",
            set.min_positions,
            if shown == 0 { "; no pair can be judged" } else { "" }
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic pseudo-random sequence for synthetic fields.
    fn noise(seed: u64) -> impl FnMut() -> f64 {
        let mut rng = Pcg64::seed_from_u64(seed);
        move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    }

    /// A field of `k` unrelated engines and a derivative of engine 0 that
    /// shares its evaluation errors (scaled by `shared`), over `n`
    /// positions. Moves: every engine picks the "true" move with
    /// probability `agree`, else a move of its own.
    fn field(k: usize, n: usize, shared: f64, agree: f64) -> (Vec<String>, Vec<Vec<Said>>) {
        let mut r = noise(7);
        let truth: Vec<f64> = (0..n).map(|_| 400.0 * r()).collect();
        let mut names: Vec<String> = (0..k).map(|i| format!("e{i}")).collect();
        names.push("derivative".into());
        let mut said: Vec<Vec<Said>> = Vec::new();
        let mut parent_err = Vec::new();
        for e in 0..=k {
            let mut v = Vec::new();
            for p in 0..n {
                let own = 100.0 * r();
                let err = if e == k {
                    shared * parent_err[p] + (1.0 - shared) * own
                } else {
                    own
                };
                if e == 0 {
                    parent_err.push(own);
                }
                let mv = if r() + 0.5 < agree {
                    "best".to_string()
                } else {
                    format!("m{e}-{p}")
                };
                v.push(Said {
                    mv: Some(mv.clone()),
                    score: Some(truth[p] + err),
                    pv: vec![mv, "reply".into()],
                });
            }
            said.push(v);
        }
        (names, said)
    }

    #[test]
    fn a_planted_derivative_stands_out_and_unrelated_pairs_do_not() {
        let (names, said) = field(6, 300, 0.9, 0.5);
        let s = analyze(&names, &said, &Settings::default());
        let top = &s.pairs[0];
        assert_eq!((top.a.as_str(), top.b.as_str()), ("e0", "derivative"));
        let r = top.residual.value.unwrap();
        assert!(r > 0.8, "{r}");
        let ci = top.residual.ci.unwrap();
        assert!(ci[0] < r && r < ci[1] && ci[0] > 0.6, "{ci:?}");
        assert!(top.flagged, "{top:?}");
        assert!(top.p_value.unwrap() < 1e-3, "{top:?}");
        assert!(
            top.resamples_flagged > 900 && top.resamples_judged == 1000,
            "{top:?}"
        );
        let (hits, n) = s.measured_false_positives.unwrap();
        assert_eq!(n, 20 * 1000, "the 20 unflagged pairs, resampled");
        assert!(hits < 200, "{hits}");
        // no replicate of the 20 other pairs reaches it
        assert_eq!(top.null_replicates, 20_000);
        assert_eq!(top.residual.null_share, Some(1.0 / 20_001.0));
        assert!((z_critical(0.001) - 3.0902).abs() < 1e-3);
        assert_eq!(top.null_pairs, 20, "the other 20 pairs of 7 engines");
        for p in &s.pairs[1..] {
            assert!(!p.flagged, "{p:?}");
            assert!(p.residual.value.unwrap() < 0.4, "{p:?}");
        }
    }

    #[test]
    fn shared_moves_without_shared_evaluation_are_cleared() {
        // e1 and e2 pick the same moves as each other far more often than
        // the field, but their evaluations are unrelated
        let (names, mut said) = field(6, 300, 0.0, 0.4);
        let copied: Vec<Option<String>> = said[1].iter().map(|x| x.mv.clone()).collect();
        for (p, (x, mv)) in said[2].iter_mut().zip(copied).enumerate() {
            if p % 4 != 0 {
                x.mv = mv;
            }
        }
        let s = analyze(&names, &said, &Settings::default());
        let p = s.pairs.iter().find(|p| p.a == "e1" && p.b == "e2").unwrap();
        assert!(p.flagged_by_moves, "{p:?}");
        assert!(!p.flagged, "{p:?}");
        assert!(p.residual.z.unwrap() < 2.0, "{p:?}");
    }

    #[test]
    fn mates_are_clipped_and_missing_scores_skipped() {
        assert_eq!(clip(Some(5000), None), Some(CLIP_CP));
        assert_eq!(clip(Some(-20), None), Some(-20.0));
        assert_eq!(clip(None, Some(-3)), Some(-CLIP_CP));
        assert_eq!(clip(Some(40), Some(2)), Some(CLIP_CP));
        assert_eq!(clip(None, None), None);
        let (names, mut said) = field(4, 100, 0.0, 0.5);
        for x in &mut said[1][..40] {
            x.score = None;
        }
        let s = analyze(&names, &said, &Settings::default());
        let p = s.pairs.iter().find(|p| p.a == "e0" && p.b == "e1").unwrap();
        assert_eq!(p.residual.positions, 60);
        assert_eq!(p.moves.positions, 100);
    }

    #[test]
    fn two_engines_alone_say_what_is_missing() {
        let (names, said) = field(1, 100, 0.9, 0.5);
        let s = analyze(&names, &said, &Settings::default());
        assert_eq!(s.consensus_positions, 0);
        assert!(s.notes[0].contains("--reference"), "{:?}", s.notes);
        let p = &s.pairs[0];
        assert!(p.residual.z.is_none() && !p.flagged);
        assert!(p.notes.iter().any(|n| n.contains("no other pair")), "{p:?}");
    }

    #[test]
    fn the_same_field_gives_the_same_intervals() {
        let (names, said) = field(4, 120, 0.5, 0.5);
        let a = analyze(&names, &said, &Settings::default());
        let b = analyze(&names, &said, &Settings::default());
        assert_eq!(a, b);
        let c = analyze(
            &names,
            &said,
            &Settings {
                seed: 1,
                ..Settings::default()
            },
        );
        assert_ne!(a.pairs[0].residual.ci, c.pairs[0].residual.ci);
    }

    #[test]
    fn declared_relatives_stay_out_of_the_other_pairs_null() {
        let (names, said) = field(4, 150, 0.5, 0.5);
        let plain = analyze(&names, &said, &Settings::default());
        let other = |s: &Signature| {
            s.pairs
                .iter()
                .find(|p| p.a == "e1" && p.b == "e2")
                .unwrap()
                .clone()
        };
        // 5 engines, 10 pairs: 9 in the null of each
        assert_eq!(other(&plain).null_pairs, 9);
        let declared = analyze(
            &names,
            &said,
            &Settings {
                related: vec![("derivative".into(), "e0".into())],
                ..Settings::default()
            },
        );
        assert_eq!(other(&declared).null_pairs, 8);
        let p = declared
            .pairs
            .iter()
            .find(|p| p.a == "e0" && p.b == "derivative")
            .unwrap();
        assert!(p.declared_related);
        // the declared pair is still judged, against the others
        assert_eq!(p.null_pairs, 9);
        assert!(text(&declared).contains("e0 - derivative"));
        assert!(text(&declared).contains("(declared related)"));
    }

    #[test]
    fn pv_overlap_is_a_common_prefix() {
        let v = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(pv_overlap(&v("a b c d e"), &v("a b x d e")), Some(0.5));
        assert_eq!(pv_overlap(&v("a"), &v("a b c")), Some(1.0));
        assert_eq!(pv_overlap(&v("x b"), &v("a b")), Some(0.0));
        assert_eq!(pv_overlap(&[], &v("a")), None);
    }
}

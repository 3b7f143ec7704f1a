//! The analysis of a field: the consensus and the pairs' shared
//! positions, the bootstrap resamples, and the verdicts recomputed until
//! the flagged pairs are stable.

use std::collections::BTreeSet;

use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use super::judge::judge;
use super::robust::z_critical;
use super::shared::{PairData, consensus, pair_data, stats};
use super::{CLIP_CP, MIN_SCORERS, PV_PLIES, Pair, Said, Settings, Signature};

/// Analyse a field: `said[e][p]` is what engine `e` said in position `p`.
pub fn analyze(engines: &[String], said: &[Vec<Said>], settings: &Settings) -> Signature {
    let positions = said.iter().map(Vec::len).max().unwrap_or(0);
    let field: Vec<Vec<(usize, Said)>> = (0..positions)
        .map(|p| {
            said.iter()
                .enumerate()
                .filter_map(|(e, v)| Some((e, v.get(p)?.clone())))
                .collect()
        })
        .collect();
    analyze_field(engines, &field, settings)
}

/// [`analyze`] of a field given position by position: `field[p]` lists
/// each engine that said something in position `p` (in the engines'
/// order) and what; an engine not listed said nothing there.
pub fn analyze_field(
    engines: &[String],
    field: &[Vec<(usize, Said)>],
    settings: &Settings,
) -> Signature {
    let n = engines.len();
    let positions = field.len();
    let consensus = consensus(field);
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
    let data = pair_data(field, n, &consensus);
    // the sample and its bootstrap replicates
    let (sample, reps) = resample(&data, positions, settings);
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
    let mut pairs = verdicts(engines, &data, &sample, &reps, &counts, settings);
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

/// The three signals of each pair over the sample, and over each of
/// `settings.bootstrap` resamples of the positions.
#[allow(clippy::type_complexity)]
fn resample(
    data: &[PairData],
    positions: usize,
    settings: &Settings,
) -> (Vec<[Option<f64>; 3]>, Vec<Vec<[Option<f64>; 3]>>) {
    let ones = vec![1u32; positions];
    let sample: Vec<[Option<f64>; 3]> = data.iter().map(|d| stats(d, &ones)).collect();
    // a pair that shares no position has no value in any resample: its
    // replicates are not kept (a field of many engines has many such)
    let mut reps: Vec<Vec<[Option<f64>; 3]>> = data
        .iter()
        .map(|d| {
            Vec::with_capacity(if d.shared.is_empty() {
                0
            } else {
                settings.bootstrap
            })
        })
        .collect();
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
                if !d.shared.is_empty() {
                    reps[i].push(stats(d, &w));
                }
            }
        }
    }
    (sample, reps)
}

/// Each pair judged against the field's other pairs, recomputed until the
/// set of flagged pairs is stable.
fn verdicts(
    engines: &[String],
    data: &[PairData],
    sample: &[[Option<f64>; 3]],
    reps: &[Vec<[Option<f64>; 3]>],
    counts: &[[usize; 3]],
    settings: &Settings,
) -> Vec<Pair> {
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
                    data,
                    sample,
                    reps,
                    counts,
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
    pairs
}

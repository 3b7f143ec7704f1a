//! The analysis of a field: the consensus and the pairs' shared
//! positions, the bootstrap resamples, and the verdicts recomputed until
//! the flagged pairs are stable.

use std::collections::{BTreeMap, BTreeSet};

use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64;

use super::judge::{interval, judge};
use super::pairs::{Pairs, Rest, Shown};
use super::robust::z_critical;
use super::shared::{PairData, Replicate, consensus, pair_data, stats};
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
    // the pairs with enough shared positions for a verdict, held whole
    // with their resamples; the others only counted
    let (judged, left): (Vec<usize>, Vec<usize>) =
        (0..data.len()).partition(|&i| counts[i][0] >= settings.min_positions.max(1));
    let ones = vec![1u32; positions];
    let sample: Vec<[Option<f64>; 3]> = judged.iter().map(|&i| stats(&data[i], &ones)).collect();
    let reps = replicates(&data, &judged, positions, settings);
    let held_data: Vec<&PairData> = judged.iter().map(|&i| &data[i]).collect();
    let held_counts: Vec<[usize; 3]> = judged.iter().map(|&i| counts[i]).collect();
    let (mut pairs, null_pairs) =
        verdicts(engines, &held_data, &sample, &reps, &held_counts, settings);
    drop(reps);
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
    let rest = rest(
        engines,
        &data,
        &counts,
        &left,
        (positions, null_pairs),
        settings,
    );
    let pairs = Pairs::new(pairs, rest);
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

/// Replicates held at a time for the pairs that get no verdict (the
/// generator is replayed for each batch of pairs): 3 MB; in the tests,
/// one pair of 1,000 resamples.
#[cfg(not(test))]
const HELD_REPLICATES: usize = 1 << 17;
#[cfg(test)]
const HELD_REPLICATES: usize = 1000;

/// The three signals of the pairs `which` over each of
/// `settings.bootstrap` resamples of the positions (a pair that shares no
/// position has none). The resamples are the same whichever pairs are
/// asked for.
fn replicates(
    data: &[PairData],
    which: &[usize],
    positions: usize,
    settings: &Settings,
) -> Vec<Vec<Replicate>> {
    let mut reps: Vec<Vec<Replicate>> = (which.iter())
        .map(|&i| {
            Vec::with_capacity(if data[i].shared.is_empty() {
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
            for (r, &i) in reps.iter_mut().zip(which) {
                if !data[i].shared.is_empty() {
                    r.push(Replicate::new(stats(&data[i], &w)));
                }
            }
        }
    }
    reps
}

/// The pairs `left` (too few shared positions for a verdict): the order
/// of their names, and for those that share a position their counts,
/// values and intervals, from resamples made a batch of pairs at a time.
fn rest(
    engines: &[String],
    data: &[PairData],
    counts: &[[usize; 3]],
    left: &[usize],
    (positions, null_pairs): (usize, usize),
    settings: &Settings,
) -> Rest {
    let key = |i: usize| (data[i].a as u32, data[i].b as u32);
    let mut order: Vec<(u32, u32)> = left.iter().map(|&i| key(i)).collect();
    order.sort_by(|x, y| {
        let name = |(a, b): (u32, u32)| (&engines[a as usize], &engines[b as usize]);
        name(*x).cmp(&name(*y))
    });
    let sharing: Vec<usize> = (left.iter().copied())
        .filter(|&i| !data[i].shared.is_empty())
        .collect();
    let mut shown = BTreeMap::new();
    let ones = vec![1u32; positions];
    let batch = (HELD_REPLICATES / settings.bootstrap.max(1)).max(1);
    for chunk in sharing.chunks(batch) {
        let reps = replicates(data, chunk, positions, settings);
        for (&i, reps) in chunk.iter().zip(&reps) {
            let s = Shown {
                positions: counts[i],
                value: stats(&data[i], &ones),
                ci: [0, 1, 2].map(|k| interval(reps, k)),
            };
            shown.insert(key(i), s);
        }
    }
    let related = (left.iter().copied())
        .filter(|&i| is_related(engines, &data[i], settings))
        .map(key)
        .collect();
    Rest {
        names: engines.to_vec(),
        order,
        shown,
        related,
        null_pairs,
        min_positions: settings.min_positions,
    }
}

/// Whether `--related` declares the pair related.
fn is_related(engines: &[String], d: &PairData, settings: &Settings) -> bool {
    settings.related.iter().any(|(x, y)| {
        (x == &engines[d.a] && y == &engines[d.b]) || (x == &engines[d.b] && y == &engines[d.a])
    })
}

/// Each pair with enough shared positions judged against the others,
/// recomputed until the set of flagged pairs is stable; and the pairs in
/// the null of a pair that is not judged (every pair judged, not related,
/// not flagged).
fn verdicts(
    engines: &[String],
    data: &[&PairData],
    sample: &[[Option<f64>; 3]],
    reps: &[Vec<Replicate>],
    counts: &[[usize; 3]],
    settings: &Settings,
) -> (Vec<Pair>, usize) {
    let related: Vec<bool> = data
        .iter()
        .map(|d| is_related(engines, d, settings))
        .collect();
    // the verdict, recomputed until the set of flagged pairs is stable
    let mut flagged: BTreeSet<usize> = BTreeSet::new();
    let mut pairs: Vec<Pair> = Vec::new();
    let mut null_pairs = 0;
    for _round in 0..20 {
        let null_of = |i: Option<usize>| -> Vec<usize> {
            (0..data.len())
                .filter(|&q| Some(q) != i && !related[q] && !flagged.contains(&q))
                .collect()
        };
        null_pairs = null_of(None).len();
        pairs = (0..data.len())
            .map(|i| {
                let null = null_of(Some(i));
                judge(i, data, sample, reps, counts, &null, settings, engines)
            })
            .collect();
        for (i, p) in pairs.iter_mut().enumerate() {
            p.declared_related = related[i];
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
    (pairs, null_pairs)
}

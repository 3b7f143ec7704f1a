//! One pair against its null: each signal's value, interval and robust z,
//! and the verdict.

use statrs::distribution::ContinuousCDF;

use super::robust::{centre_scale, quantile, scale, standard_normal, z_critical};
use super::shared::{PairData, Replicate};
use super::{Pair, Settings, Signal};

/// The 95% interval of signal `k` over a pair's resamples (2.5th and
/// 97.5th percentiles, nearest rank); `None` when no resample has it.
pub(super) fn interval(reps: &[Replicate], k: usize) -> Option<[f64; 2]> {
    let mut own: Vec<f64> = reps.iter().filter_map(|r| r.get(k)).collect();
    own.sort_by(f64::total_cmp);
    (!own.is_empty()).then(|| [quantile(&own, 0.025), quantile(&own, 0.975)])
}

/// One pair (with enough shared positions for a verdict) against its null.
#[allow(clippy::too_many_arguments)]
pub(super) fn judge(
    i: usize,
    data: &[&PairData],
    sample: &[[Option<f64>; 3]],
    reps: &[Vec<Replicate>],
    counts: &[[usize; 3]],
    null: &[usize],
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
    // each signal: value, interval, and the null's centre and scale
    let mut cs: [Option<(f64, f64)>; 3] = [None; 3];
    for k in 0..3 {
        let mut pool: Vec<f64> = null
            .iter()
            .flat_map(|&q| reps[q].iter().filter_map(move |r| r.get(k)))
            .map(|v| scale(k, v))
            .collect();
        cs[k] = centre_scale(&mut pool);
        pair.null_replicates = pair.null_replicates.max(pool.len());
        let value = sample[i][k];
        let signal = Signal {
            value,
            ci: interval(&reps[i], k),
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
            if let (Some(m), Some(r)) = (rep.get(0), rep.get(1)) {
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

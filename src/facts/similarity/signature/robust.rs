//! Robust statistics for the verdict: the median, a quantile, the centre
//! and scale of a null, the normal quantile, and the scale a signal's z
//! is computed on.

use statrs::distribution::{ContinuousCDF, Normal};

/// The median of a slice (reordered in place: the middle values are
/// selected, not the whole slice sorted); `None` when empty.
pub(super) fn median(v: &mut [f64]) -> Option<f64> {
    let n = v.len();
    if n == 0 {
        return None;
    }
    let (below, &mut mid, _) = v.select_nth_unstable_by(n / 2, f64::total_cmp);
    if n % 2 == 1 {
        return Some(mid);
    }
    // the value just below the middle: the largest of the lower half
    let before = below.iter().copied().max_by(f64::total_cmp)?;
    Some((before + mid) / 2.0)
}

/// The q-quantile of sorted values (nearest rank).
pub(super) fn quantile(sorted: &[f64], q: f64) -> f64 {
    let k = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[k - 1]
}

/// Median and robust scale (1.4826 × MAD) of a pool; `None` when the pool
/// is empty or has no spread. The pool is reordered.
pub(super) fn centre_scale(pool: &mut [f64]) -> Option<(f64, f64)> {
    let med = median(pool)?;
    let mut dev: Vec<f64> = pool.iter().map(|x| (x - med).abs()).collect();
    let mad = median(&mut dev)?;
    let scale = 1.4826 * mad;
    (scale > 0.0).then_some((med, scale))
}

pub(super) fn standard_normal() -> Normal {
    Normal::new(0.0, 1.0).unwrap_or_else(|_| unreachable!("the standard normal exists"))
}

/// The z whose normal upper tail is the false-positive rate.
pub fn z_critical(false_positive_rate: f64) -> f64 {
    standard_normal().inverse_cdf(1.0 - false_positive_rate)
}

/// The scale a signal's z is computed on: Fisher's atanh for the
/// correlation (kept finite at ±1), the value itself for the shares.
pub(super) fn scale(k: usize, v: f64) -> f64 {
    if k == 1 {
        v.clamp(-0.9999, 0.9999).atanh()
    } else {
        v
    }
}

//! What each pair of engines shares, position by position (the same move,
//! both residuals from the consensus, the PVs' overlap), and the three
//! signals over positions weighted by a resample.

use super::robust::median;
use super::{MIN_SCORERS, PV_PLIES, Said};

/// What one pair shares in one position.
#[derive(Debug, Clone, Copy)]
pub(super) struct Shared {
    pub position: usize,
    /// Both moved, and the same move.
    pub same_move: Option<bool>,
    /// Both residuals.
    pub resid: Option<(f64, f64)>,
    pub pv: Option<f64>,
}

/// The positions one pair shares, precomputed once (sparse: a passive
/// field has many positions and few shared).
pub(super) struct PairData {
    pub a: usize,
    pub b: usize,
    pub shared: Vec<Shared>,
}

/// One pair's three signals in one resample, 24 bytes: a missing signal
/// is NaN (no signal is ever NaN: each is a share or a correlation of
/// finite, clipped scores).
#[derive(Debug, Clone, Copy)]
pub(super) struct Replicate([f64; 3]);

impl Replicate {
    pub fn new(signals: [Option<f64>; 3]) -> Replicate {
        Replicate(signals.map(|v| v.unwrap_or(f64::NAN)))
    }

    /// Signal `k`.
    pub fn get(&self, k: usize) -> Option<f64> {
        Some(self.0[k]).filter(|v| !v.is_nan())
    }
}

/// The three signals of a pair over positions weighted by `w` (the
/// bootstrap's counts; all ones for the sample itself).
pub(super) fn stats(d: &PairData, w: &[u32]) -> [Option<f64>; 3] {
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

/// The share of the first [`PV_PLIES`] plies two PVs have in common, out of
/// the shorter one's length.
pub(super) fn pv_overlap(a: &[String], b: &[String]) -> Option<f64> {
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

/// What the engines said in each position: for position `p`, each engine
/// that said something there and what (by engine, in order). An engine
/// that said nothing in a position is not listed: a passive field has
/// many engines and positions, and few engines in each position.
pub(super) type Field = [Vec<(usize, Said)>];

/// The consensus of each position: the median score of the engines that
/// scored it, when at least [`MIN_SCORERS`] did.
pub(super) fn consensus(field: &Field) -> Vec<Option<f64>> {
    field
        .iter()
        .map(|said| {
            let mut v: Vec<f64> = said.iter().filter_map(|(_, s)| s.score).collect();
            if v.len() >= MIN_SCORERS {
                median(&mut v)
            } else {
                None
            }
        })
        .collect()
}

/// Each pair of the `n` engines (in order) with the positions it shares,
/// found position by position (the pairs of the engines in each).
pub(super) fn pair_data(field: &Field, n: usize, consensus: &[Option<f64>]) -> Vec<PairData> {
    let mut data = Vec::with_capacity(n * n.saturating_sub(1) / 2);
    for a in 0..n {
        for b in a + 1..n {
            data.push(PairData {
                a,
                b,
                shared: Vec::new(),
            });
        }
    }
    // the place of pair (a, b), a < b, in that order
    let at = |a: usize, b: usize| a * (2 * n - a - 1) / 2 + (b - a - 1);
    for (p, said) in field.iter().enumerate() {
        let resid = |s: &Said| -> Option<f64> { Some(s.score? - consensus[p]?) };
        for (i, (a, x)) in said.iter().enumerate() {
            for (b, y) in &said[i + 1..] {
                let sh = Shared {
                    position: p,
                    same_move: x.mv.as_ref().zip(y.mv.as_ref()).map(|(ma, mb)| ma == mb),
                    resid: resid(x).zip(resid(y)),
                    pv: pv_overlap(&x.pv, &y.pv),
                };
                if sh.same_move.is_some() || sh.resid.is_some() || sh.pv.is_some() {
                    data[at(*a, *b)].shared.push(sh);
                }
            }
        }
    }
    data
}

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

/// The consensus of each of `positions`: the median score of the `n`
/// engines that scored it, when at least [`MIN_SCORERS`] did.
pub(super) fn consensus(said: &[Vec<Said>], n: usize, positions: usize) -> Vec<Option<f64>> {
    let get = |e: usize, p: usize| said.get(e).and_then(|v| v.get(p));
    // the consensus: the median score of the engines that scored a position
    (0..positions)
        .map(|p| {
            let mut v: Vec<f64> = (0..n).filter_map(|e| get(e, p)?.score).collect();
            if v.len() >= MIN_SCORERS {
                median(&mut v)
            } else {
                None
            }
        })
        .collect()
}

/// Each pair of the `n` engines (in order) with the positions it shares.
pub(super) fn pair_data(
    said: &[Vec<Said>],
    n: usize,
    positions: usize,
    consensus: &[Option<f64>],
) -> Vec<PairData> {
    let get = |e: usize, p: usize| said.get(e).and_then(|v| v.get(p));
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
    data
}

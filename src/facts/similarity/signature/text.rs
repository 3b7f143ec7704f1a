//! The signature analysis as a text table, highest residual z first.

use super::{Pair, Signature};

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
    for p in s.pairs.held.iter().filter(|p| !few(p)) {
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
    // the pairs not held all have too few
    let (shown, rest) = (
        s.pairs.held.iter().filter(|p| !few(p)).count(),
        s.pairs.held.iter().filter(|p| few(p)).count() + s.pairs.unheld(),
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

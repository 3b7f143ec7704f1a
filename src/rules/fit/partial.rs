//! What a change of one fitted value can change: the rules a point is
//! scored on that read the value (through a constant computed from it, a
//! `let` or a clock field), so that a point one value away from one
//! already evaluated evaluates only those, and takes the rest from it.
//!
//! An adjudication that reads the value brings every adjudication with it
//! (which one ends a game depends on all of them); a variant whose
//! `applies when` reads it makes the point evaluated whole.

use crate::rules::analysis::{CExpr, Check, FitTarget, Ruleset};
use crate::timeline::{Kind, MoveField};

/// How a point that changes one fit is evaluated.
pub(super) enum Partial {
    /// Every rule of the scoring ruleset.
    Full,
    /// Only `rs`'s rules: the counter and clock rules marked, and every
    /// adjudication where `adjudications`. Where none of them reads a
    /// clock and the fit is not the time control, `rs` has no time
    /// control (the clocks are not run) and `tags` is false: the tags'
    /// agreement is the base point's.
    Rules {
        rs: Box<Ruleset>,
        /// For each `let`, whether it reads none of the fits: its column
        /// at the base point is taken, not made again.
        take: Vec<bool>,
        counters: Vec<bool>,
        clocks: Vec<bool>,
        adjudications: bool,
        tags: bool,
    },
}

impl Partial {
    /// Whether a rule reads both fits (a fit evaluated whole reads every
    /// rule).
    pub(super) fn shares_rules(&self, other: &Partial) -> bool {
        match (self, other) {
            (Partial::Rules { rs: a, .. }, Partial::Rules { rs: b, .. }) => {
                a.rules.iter().any(|x| b.rules.iter().any(|y| y.id == x.id))
            }
            _ => true,
        }
    }
}

/// What reads the targets: each constant and `let`, found once.
pub(super) struct Reads<'r> {
    rs: &'r Ruleset,
    targets: Vec<FitTarget>,
    consts: Vec<bool>,
    lets: Vec<bool>,
}

impl Reads<'_> {
    /// Whether `e` reads a target (directly, or through a constant or a
    /// `let` that does).
    pub(super) fn reads(&self, e: &CExpr) -> bool {
        let here = match e {
            CExpr::Const(j) => self.consts.get(*j).copied().unwrap_or(false),
            CExpr::Let(l) => self.lets.get(*l).copied().unwrap_or(false),
            CExpr::Switch(s) => self.targets.contains(&FitTarget::Switch(*s)),
            CExpr::Move(MoveField::Clock(_), _) => self.targets.contains(&FitTarget::TimeControl),
            CExpr::Field(Kind::Game, f) => {
                self.targets.contains(&FitTarget::TimeControl) && f.starts_with("rules_")
            }
            _ => false,
        };
        let mut found = here;
        e.each_child(&mut |x| found = found || self.reads(x));
        found
    }

    /// Mark every constant and `let` that reads the target, until no more
    /// do.
    fn settle(&mut self) {
        loop {
            let mut changed = false;
            for j in 0..self.rs.consts.len() {
                let by_variant = self
                    .rs
                    .variants
                    .iter()
                    .flat_map(|v| &v.consts)
                    .any(|(k, e)| *k == j && self.reads(e));
                if !self.consts[j] && (self.reads(&self.rs.consts[j].1) || by_variant) {
                    self.consts[j] = true;
                    changed = true;
                }
            }
            for l in 0..self.rs.lets.len() {
                if !self.lets[l] && self.reads(&self.rs.lets[l].expr) {
                    self.lets[l] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }
}

/// The ids of the rules of `scoring` that read `target` themselves (not
/// through another adjudication).
pub(super) fn reading(scoring: &Ruleset, target: FitTarget) -> Vec<String> {
    let r = Reads::of(scoring, &[target]);
    scoring
        .rules
        .iter()
        .filter(|rule| rule.expressions().any(|e| r.reads(e)))
        .map(|rule| rule.id.clone())
        .collect()
}

impl<'r> Reads<'r> {
    /// What of `rs` reads `targets`.
    pub(super) fn of(rs: &'r Ruleset, targets: &[FitTarget]) -> Reads<'r> {
        let mut r = Reads {
            rs,
            targets: targets.to_vec(),
            consts: vec![false; rs.consts.len()],
            lets: vec![false; rs.lets.len()],
        };
        for t in targets {
            if let FitTarget::Const(i) = t
                && let Some(c) = r.consts.get_mut(*i)
            {
                *c = true;
            }
        }
        r.settle();
        r
    }
}

/// The evaluation of a point that changes `targets` only, over `scoring`
/// (whose counter rules are `counters` and clock rules `clocks`, in the
/// search's order).
pub(super) fn partial(
    scoring: &Ruleset,
    targets: &[FitTarget],
    counters: &[String],
    clocks: &[String],
) -> Partial {
    let r = Reads::of(scoring, targets);
    if scoring
        .variants
        .iter()
        .filter_map(|v| v.applies.as_ref())
        .any(|a| r.reads(a))
    {
        return Partial::Full;
    }
    let reading: Vec<bool> = scoring
        .rules
        .iter()
        .map(|rule| rule.expressions().any(|e| r.reads(e)))
        .collect();
    let adjudications = scoring
        .rules
        .iter()
        .zip(&reading)
        .any(|(rule, reads)| *reads && matches!(rule.check, Check::Adjudicate { .. }));
    let mut rs = scoring.clone();
    let mut keep = reading.iter();
    rs.rules.retain(|rule| {
        let reads = keep.next().copied().unwrap_or(true);
        reads || (adjudications && matches!(rule.check, Check::Adjudicate { .. }))
    });
    rs.evaluator = std::sync::OnceLock::new();
    let tags = targets.contains(&FitTarget::TimeControl);
    let clocked = Reads::of(&rs, &[FitTarget::TimeControl]);
    let reads_clocks = rs
        .rules
        .iter()
        .any(|rule| rule.expressions().any(|e| clocked.reads(e)));
    if !tags && !reads_clocks {
        rs.time_control = None;
        for v in &mut rs.variants {
            v.time_control = None;
        }
    }
    prune_lets(&mut rs);
    let has = |id: &String| rs.rules.iter().any(|x| x.id == *id);
    Partial::Rules {
        counters: counters.iter().map(has).collect(),
        clocks: clocks.iter().map(has).collect(),
        adjudications,
        tags,
        take: r.lets.iter().map(|reads| !reads).collect(),
        rs: Box::new(rs),
    }
}

/// Make every `let` that none of `rs`'s rules reads (directly or through
/// other `let`s) a `none` literal: a point evaluates only what it scores,
/// and a streak no kept rule reads would be counted at every move of every
/// game for nothing. Such a `let` changes nothing the rules give: a `let`
/// yields no finding, and only what a rule reads reaches its verdict.
pub(super) fn prune_lets(rs: &mut Ruleset) {
    fn mark(e: &CExpr, needed: &mut [bool]) {
        if let CExpr::Let(l) = e
            && let Some(n) = needed.get_mut(*l)
        {
            *n = true;
        }
        e.each_child(&mut |x| mark(x, needed));
    }
    let mut needed = vec![false; rs.lets.len()];
    for rule in &rs.rules {
        for e in rule.expressions() {
            mark(e, &mut needed);
        }
    }
    for v in &rs.variants {
        for e in v.applies.iter().chain(v.consts.iter().map(|(_, e)| e)) {
            mark(e, &mut needed);
        }
    }
    for (_, e) in &rs.consts {
        mark(e, &mut needed);
    }
    // what the needed `let`s read, until nothing more is
    loop {
        let before = needed.iter().filter(|n| **n).count();
        for l in (0..rs.lets.len()).rev() {
            if needed[l] {
                mark(&rs.lets[l].expr, &mut needed);
            }
        }
        if needed.iter().filter(|n| **n).count() == before {
            break;
        }
    }
    for (l, keep) in needed.iter().enumerate() {
        if !keep {
            rs.lets[l].expr = CExpr::Lit(crate::base::value::Value::None);
        }
    }
    rs.evaluator = std::sync::OnceLock::new();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prune_keeps_what_the_rules_read_through_lets_and_nothing_else() {
        let src = r#"ruleset t "t" {
  regulation "r"
}
const limit = 3 fit 1 to 5 step 1
let zeroing on move = move.capture
let run on move = streak(true, reset: zeroing)
let unread on move = streak(move.check)
rule t.long "Long" {
  cite "1" "a run"
  severity warning
  forbid on move when run > limit
}
"#;
        let mut rs = crate::rules::compile("t.rules", src).unwrap();
        prune_lets(&mut rs);
        let pruned = |l: &str| {
            let x = rs.lets.iter().find(|x| x.name == l).unwrap();
            matches!(x.expr, CExpr::Lit(crate::base::value::Value::None))
        };
        assert!(!pruned("zeroing"), "read through `run`");
        assert!(!pruned("run"), "read by the rule");
        assert!(pruned("unread"), "read by nothing");
    }
}

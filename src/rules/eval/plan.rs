//! A ruleset's plan, found once per ruleset: its stateful calls, what each
//! `let` and rule reads, what reads each switch, and which `let`s and rules
//! each kind of event triggers.

use super::columnar::Columnar;
use super::compiled::Code;
use super::ctx::Ctx;
use super::reads::{Depends, Inputs, adjudication_inputs, stateful_calls};
use super::{Kept, memo};
use crate::rules::analysis::{CExpr, Check, Ruleset, Stateful};
use crate::timeline::Kind;

/// What the evaluator reads of a ruleset's structure, found the first time
/// the ruleset runs and kept with it (not found again for every game): the
/// stateful calls each `let` and rule advances, what each reads, what reads
/// each switch, and the `let`s and rules each kind of event triggers.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// The slots of the stateful calls each `let` advances on its events:
    /// those of its expression, in order.
    pub(super) let_calls: Vec<Vec<usize>>,
    /// The same for each rule: those of the expressions it evaluates
    /// ([`RuleDef::evaluated`]), in order.
    pub(super) rule_calls: Vec<Vec<usize>>,
    /// What each `let` reads directly.
    pub(super) let_inputs: Vec<Inputs>,
    /// What each adjudication evaluates (empty for the other rules).
    pub(super) rule_inputs: Vec<Inputs>,
    /// For each switch, the adjudications that read it and the `let`s that
    /// read it and that an adjudication reads ([`Depends::on`]).
    pub(super) depends: Vec<Depends>,
    /// The `let`s and rules each kind of event triggers, in the ruleset's
    /// order: a `let` on that kind, a `forbid` or `require` on it, and every
    /// adjudication on a move. A kind not listed triggers none.
    pub(super) by_kind: Vec<(Kind, Vec<usize>, Vec<usize>)>,
    /// For each switch, whether an adjudication reads it directly or has
    /// stateful calls of its own (then a shadow evaluates it at every
    /// move, whatever its `let`s).
    pub(super) direct: Vec<bool>,
    /// The adjudications, in the rules' order.
    pub(super) adjudications: Vec<usize>,
    /// Whether the ruleset judges a game's start position: one of its
    /// adjudications reads `move.start` (directly or through its `let`s),
    /// so its manager may end a game there.
    pub(super) starts: bool,
    /// Every `let`, rule condition and stateful call, compiled.
    pub(super) code: std::sync::Arc<Code>,
    /// The `let`s and rule conditions evaluated a column at a time.
    pub(super) columns: Columnar,
    /// The engine options' runs already judged, where the ruleset lets
    /// them be skipped (`memo`).
    pub(super) options: Option<std::sync::Arc<memo::OptionMemo>>,
}

impl Plan {
    /// The plan of a ruleset, found once and kept with it.
    pub(super) fn of(rs: &Ruleset) -> &Plan {
        Kept::of(rs).plan.get_or_init(|| Plan::find(rs))
    }

    pub(super) fn find<'r>(rs: &'r Ruleset) -> Plan {
        // every stateful call, at its slot
        let mut statefuls: Vec<Option<&'r Stateful>> = vec![None; rs.slots];
        let mut slots_of = |exprs: &mut dyn Iterator<Item = &'r CExpr>| {
            let mut found = Vec::new();
            for e in exprs {
                stateful_calls(e, &mut found);
            }
            found
                .into_iter()
                .map(|s| {
                    if let Some(at) = statefuls.get_mut(s.slot) {
                        *at = Some(s);
                    }
                    s.slot
                })
                .collect::<Vec<usize>>()
        };
        let let_calls = rs
            .lets
            .iter()
            .map(|l| slots_of(&mut std::iter::once(&l.expr)))
            .collect();
        let rule_calls: Vec<Vec<usize>> = rs
            .rules
            .iter()
            .map(|rule| slots_of(&mut rule.evaluated()))
            .collect();
        let let_inputs: Vec<Inputs> = rs.lets.iter().map(|l| Inputs::of([&l.expr])).collect();
        let rule_inputs: Vec<Inputs> = rs.rules.iter().map(adjudication_inputs).collect();
        let depends: Vec<Depends> = (0..rs.switches.len())
            .map(|s| Depends::on(&let_inputs, &rule_inputs, s))
            .collect();
        let mut kinds: Vec<Kind> = vec![Kind::Move];
        for k in rs
            .lets
            .iter()
            .map(|l| l.on)
            .chain(rs.rules.iter().filter_map(|r| match &r.check {
                Check::Forbid { on, .. } | Check::Require { on, .. } => Some(*on),
                _ => None,
            }))
        {
            if !kinds.contains(&k) {
                kinds.push(k);
            }
        }
        let by_kind = kinds
            .into_iter()
            .map(|kind| {
                let lets = (0..rs.lets.len())
                    .filter(|&j| rs.lets[j].on == kind)
                    .collect();
                let rules = (0..rs.rules.len())
                    .filter(|&r| match &rs.rules[r].check {
                        Check::Manual(_) => false,
                        Check::Adjudicate { .. } => kind == Kind::Move,
                        Check::Forbid { on, .. } | Check::Require { on, .. } => *on == kind,
                    })
                    .collect();
                (kind, lets, rules)
            })
            .collect();
        let code = std::sync::Arc::new(Code::of(rs, &statefuls));
        let adjudications: Vec<usize> = (0..rs.rules.len())
            .filter(|&r| matches!(rs.rules[r].check, Check::Adjudicate { .. }))
            .collect();
        let starts = adjudications
            .iter()
            .any(|&r| rs.reads_move_start(&rs.rules[r]));
        let direct = (0..rs.switches.len())
            .map(|sw| {
                adjudications.iter().any(|&r| {
                    depends[sw].rules[r]
                        && (!rule_calls[r].is_empty() || rule_inputs[r].switches.contains(&sw))
                })
            })
            .collect();
        let columns = Columnar::of(rs, &rule_calls);
        Plan {
            options: memo::OptionMemo::of(rs).map(std::sync::Arc::new),
            columns,
            direct,
            adjudications,
            starts,
            code,
            let_calls,
            rule_calls,
            let_inputs,
            rule_inputs,
            depends,
            by_kind,
        }
    }

    /// The indices of the `let`s and of the rules that events of `kind`
    /// trigger.
    pub(super) fn triggered(&self, kind: Kind) -> (&[usize], &[usize]) {
        match self.by_kind.iter().find(|(k, ..)| *k == kind) {
            Some((_, lets, rules)) => (lets, rules),
            None => (&[], &[]),
        }
    }
}

// the walk's step through the plan's stateful calls: here, so that the
// walk (`ctx`) does not depend on the plan
impl Ctx<'_, '_> {
    /// Advance stateful calls (a `let`'s or a rule's, by their slots in [`Plan`]) for the
    /// current event, in order.
    #[inline]
    pub(super) fn advance(&mut self, plan: &Plan, calls: &[usize]) {
        for &slot in calls {
            if let Some(Some(code)) = plan.code.statefuls.get(slot) {
                self.advance_one(code);
            }
        }
    }
}

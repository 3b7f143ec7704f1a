//! A game's columns: its moves, and the `let`s and conditions evaluated
//! over them, the real pass's and each switch's shadow's; and the moves
//! at which the per-move pass has something to do.

use super::col::Col;
use super::cols::Cols;
use super::column::Column;
use super::fields::field_column;
use super::prepared::{Moves, Prepared, moves};
use crate::rules::analysis::{Check, RuleDef, Ruleset};
use crate::rules::eval::ctx::Run;
use crate::rules::eval::plan::Plan;
use crate::rules::eval::reads::Inputs;
use crate::rules::eval::typed::Truth;
use crate::rules::eval::verdicts::{Verdict, verdict_with};
use crate::timeline::{Kind, MoveFacts, MoveField, Timeline};

/// A shadow's `let`s and rule conditions where they differ from the real
/// pass's (`None` elsewhere).
pub(in crate::rules::eval) struct ShadowColumns {
    /// Whether any `let` differs anywhere in the game.
    pub(in crate::rules::eval) any: bool,
    pub(in crate::rules::eval) lets: Vec<Option<Col>>,
    pub(in crate::rules::eval) rules: Vec<Option<Column<Truth>>>,
}

/// A game's columns: the real pass's, and each shadow's where it differs.
pub(in crate::rules::eval) struct GameColumns<'g> {
    /// Each `let`'s column, where it is one and was made here (see
    /// [`GameColumns::let_col`]).
    pub(in crate::rules::eval) lets: Vec<Option<Col>>,
    /// The columns given by another run, read where `lets` has none and
    /// `take` says so ([`Given::lets`]).
    given: Option<(&'g [Option<Col>], &'g [bool])>,
    /// Each rule's condition, where it is a column, as [`Ctx::truth`] gives
    /// it.
    pub(in crate::rules::eval) rules: Vec<Option<Column<Truth>>>,
    /// For each shadow (in the order of the flipped switches): its `let`s
    /// and conditions where they differ from the real pass's.
    pub(in crate::rules::eval) shadows: Vec<ShadowColumns>,
}

impl GameColumns<'_> {
    /// `let` `j`'s column, where it is one: made here, or given.
    #[inline]
    pub(in crate::rules::eval) fn let_col(&self, j: usize) -> Option<&Col> {
        match &self.lets[j] {
            Some(c) => Some(c),
            None => {
                let (cols, take) = self.given?;
                if *take.get(j)? {
                    cols.get(j)?.as_ref()
                } else {
                    None
                }
            }
        }
    }

    /// Every `let`'s column, the given ones copied.
    pub(in crate::rules::eval) fn into_lets(self) -> Vec<Option<Col>> {
        let mut lets = self.lets;
        for (j, l) in lets.iter_mut().enumerate() {
            if l.is_none()
                && let Some((cols, take)) = self.given
                && take.get(j).copied().unwrap_or(false)
            {
                *l = cols.get(j).cloned().flatten();
            }
        }
        lets
    }

    /// The moves at which the per-move pass has something to do, when the
    /// columns hold every `let` and rule on moves (else `None`: it visits
    /// every move): where a rule's condition decides something (a finding,
    /// an adjudication, an undecided rule), and where a shadow's `let`
    /// differs from the real pass's (and the move after, where its marks
    /// are cleared). A shadow whose adjudications read its switch directly,
    /// or keep state, needs every move.
    pub(in crate::rules::eval) fn busy(
        &self,
        plan: &Plan,
        rs: &Ruleset,
        flipped: &[usize],
        n: usize,
    ) -> Option<Vec<bool>> {
        let (on_lets, on_rules) = plan.triggered(Kind::Move);
        if on_lets.iter().any(|&j| self.let_col(j).is_none())
            || on_rules.iter().any(|&ri| self.rules[ri].is_none())
            || flipped.iter().any(|&s| plan.direct[s])
        {
            return None;
        }
        let mut busy = vec![false; n];
        for &ri in on_rules {
            let Some(c) = &self.rules[ri] else { continue };
            // whether each truth decides something, found once per rule
            let decides = [Truth::True, Truth::False, Truth::Unknown, Truth::Other].map(|t| {
                match &rs.rules[ri].check {
                    Check::Adjudicate { .. } => matches!(t, Truth::True | Truth::Unknown),
                    check => !matches!(verdict_with(check, t), Verdict::Holds),
                }
            });
            match c {
                Column::K(t) if decides[*t as usize] => busy.fill(true),
                Column::K(_) => {}
                Column::C(c) => {
                    for (b, t) in busy.iter_mut().zip(c.iter()) {
                        *b |= decides[*t as usize];
                    }
                }
            }
        }
        for shadow in self.shadows.iter().filter(|s| s.any) {
            for (j, own) in shadow.lets.iter().enumerate() {
                let (Some(own), Some(real)) = (own, self.let_col(j)) else {
                    continue;
                };
                own.differences(real, n, |r| {
                    busy[r] = true;
                    if let Some(next) = busy.get_mut(r + 1) {
                        *next = true;
                    }
                });
            }
        }
        Some(busy)
    }
}

/// The game's moves, when the ruleset has columns and every move event is
/// a move (else `None`: the per-move pass evaluates everything).
pub(in crate::rules::eval) fn rows<'t>(plan: &Plan, tl: &Timeline<'t>) -> Option<Moves<'t>> {
    if !plan.columns.any() {
        return None;
    }
    moves(tl)
}

/// What a game's columns may be taken from instead of made: its fields
/// kept by a search (`prepared`), and `let` columns of another run with,
/// for each `let`, whether its column is taken from them.
#[derive(Clone, Copy)]
pub(in crate::rules::eval) struct Given<'a> {
    pub(in crate::rules::eval) prepared: Option<&'a Prepared<'a>>,
    /// The given columns, and for each `let` whether its column is read
    /// from them (not copied: the points of a scan read the current
    /// point's).
    pub(in crate::rules::eval) lets: Option<(&'a [Option<Col>], &'a [bool])>,
}

/// Evaluate the ruleset's columns over a game's moves (`rows`), and each
/// shadow's (the switches of `flipped` flipped, in turn).
pub(in crate::rules::eval) fn evaluate<'g>(
    plan: &Plan,
    rs: &Ruleset,
    run: &Run<'_, '_>,
    moves: &Moves<'_>,
    switches: &[bool],
    flipped: &[usize],
    given: Given<'g>,
) -> GameColumns<'g> {
    let kept = given.prepared;
    let cp = &plan.columns;
    let (rows, events) = (&moves.facts[..], &moves.events[..]);
    // a field that is not a clock's is the same at every point of a fit:
    // made once where the game is prepared
    let fields: Vec<(MoveField, std::sync::Arc<Col>)> = cp
        .fields
        .iter()
        .map(|&f| match kept {
            Some(k) if !matches!(f, MoveField::Clock(_)) => {
                (f, k.field(f, || field_column(run, rows, f)))
            }
            _ => (f, std::sync::Arc::new(field_column(run, rows, f))),
        })
        .collect();
    type Game<'c, 'r, 't> = (
        &'c Run<'c, 't>,
        &'c [MoveFacts<'r>],
        &'c [usize],
        &'c [(MoveField, std::sync::Arc<Col>)],
        Option<(&'c [Option<Col>], &'c [bool])>,
    );
    fn view<'c, 'r, 't>(
        (run, rows, events, fields, given): Game<'c, 'r, 't>,
        switches: &'c [bool],
        lets: &'c [Option<Col>],
        overlay: &'c [Option<Col>],
        detectors: bool,
    ) -> Cols<'c, 'r, 't> {
        Cols {
            run,
            rows,
            events,
            switches,
            lets,
            overlay,
            states: &[],
            fields,
            given,
            detectors,
        }
    }
    let game = (run, rows, events, &fields[..], given.lets);
    // a rule's condition, where it has one
    fn condition(rule: &RuleDef, v: Cols<'_, '_, '_>) -> Option<Column<Truth>> {
        match &rule.check {
            Check::Adjudicate { when, .. }
            | Check::Forbid {
                when: Some(when), ..
            }
            | Check::Require { when, .. } => Some(v.truth(when).into_owned()),
            _ => None,
        }
    }
    let mut lets: Vec<Option<Col>> = vec![None; rs.lets.len()];
    for (j, calls) in cp.lets.iter().enumerate() {
        if let Some(calls) = calls {
            // given: read there, not made
            if let Some((cols, take)) = given.lets
                && take.get(j).copied().unwrap_or(false)
                && let Some(Some(_)) = cols.get(j)
            {
                continue;
            }
            let c = view(game, switches, &lets, &[], cp.let_effects[j])
                .let_column(&rs.lets[j].expr, calls);
            lets[j] = Some(c);
        }
    }
    let rules: Vec<Option<Column<Truth>>> = (0..rs.rules.len())
        .map(|ri| {
            if cp.rules[ri] {
                condition(
                    &rs.rules[ri],
                    view(game, switches, &lets, &[], cp.effects[ri]),
                )
            } else {
                None
            }
        })
        .collect();
    let mut shadows = Vec::with_capacity(flipped.len());
    for &s in flipped {
        let mut sw = switches.to_vec();
        if let Some(b) = sw.get_mut(s) {
            *b = !*b;
        }
        let depends = &plan.depends[s];
        // what reads the switch, or a `let` whose shadow differs
        let reads = |i: &Inputs, own: &[Option<Col>]| {
            i.switches.contains(&s) || i.lets.iter().any(|&l| own[l].is_some())
        };
        let mut own: Vec<Option<Col>> = vec![None; rs.lets.len()];
        for (j, calls) in cp.lets.iter().enumerate() {
            let real = lets[j].as_ref().or_else(|| {
                let (cols, take) = given.lets?;
                if *take.get(j)? {
                    cols.get(j)?.as_ref()
                } else {
                    None
                }
            });
            let (Some(calls), Some(real)) = (calls, real) else {
                continue;
            };
            if !depends.lets[j] || !reads(&plan.let_inputs[j], &own) {
                continue;
            }
            let c =
                view(game, &sw, &lets, &own, cp.let_effects[j]).let_column(&rs.lets[j].expr, calls);
            if !c.same(real, rows.len()) {
                own[j] = Some(c);
            }
        }
        let conditions = (0..rs.rules.len())
            .map(|ri| {
                if cp.rules[ri] && depends.rules[ri] && reads(&plan.rule_inputs[ri], &own) {
                    condition(&rs.rules[ri], view(game, &sw, &lets, &own, cp.effects[ri]))
                } else {
                    None
                }
            })
            .collect();
        shadows.push(ShadowColumns {
            any: own.iter().any(Option::is_some),
            lets: own,
            rules: conditions,
        });
    }
    GameColumns {
        lets,
        given: given.lets,
        rules,
        shadows,
    }
}

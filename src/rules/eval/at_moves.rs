//! An expression's value at each of a game's moves, its `let`s read from
//! another run's kept columns: for the fit, which asks what a part of a
//! rule gives at a point of values without running the rules again.

use super::columns::Prepared;
use super::ctx::{Ctx, DetectorCache, Run};
use super::program::Program;
use super::{Detectors, LetColumns};
use crate::base::value::Value;
use crate::rules::analysis::{Builtin, CExpr};
use crate::timeline::{Kind, MoveField, Timeline};

impl LetColumns {
    /// Whether the column of `let` number `j` is kept.
    fn holds(&self, j: usize) -> bool {
        matches!(self.0.get(j), Some(Some(_)))
    }
}

/// Whether `e` reads nothing but literals, constants, switches, the game's
/// fields, the move's own fields (no clock's: those depend on the time
/// control) and `let`s whose columns `lets` holds, through operators, `if`
/// and the builtins of values: no stateful call, no detector.
fn readable(e: &CExpr, lets: &LetColumns) -> bool {
    let here = match e {
        CExpr::Lit(_) | CExpr::Const(_) | CExpr::Switch(_) => true,
        CExpr::Let(j) => lets.holds(*j),
        CExpr::Move(f, _) => !matches!(f, MoveField::Clock(_)),
        CExpr::Field(k, _) => *k == Kind::Game,
        CExpr::Unary(..)
        | CExpr::Binary(..)
        | CExpr::Short(..)
        | CExpr::If(..)
        | CExpr::List(_) => true,
        CExpr::Call(f, _) => *f != Builtin::Tag,
        CExpr::Stateful(_) | CExpr::Detector(..) => false,
    };
    let mut ok = here;
    e.each_child(&mut |x| ok = ok && readable(x, lets));
    ok
}

/// The value of each of `exprs` at each of the game's moves (`prepared`'s
/// rows), in order,
/// under `prog`'s constants and switches, each `let` it reads taken from
/// `lets` (the columns a run of the same game kept, [`Tallied::keep`]):
/// what the walk gives at that move. `None` for an expression that reads
/// what the columns do not hold, a stateful call or a detector; all `None`
/// where a move event of the game is not a move.
pub fn values_at_moves(
    prog: &Program<'_>,
    tl: &Timeline<'_>,
    prepared: &Prepared<'_>,
    lets: &LetColumns,
    exprs: &[&CExpr],
) -> Vec<Option<Vec<Value>>> {
    let mut out: Vec<Option<Vec<Value>>> = vec![None; exprs.len()];
    let todo: Vec<usize> = (0..exprs.len())
        .filter(|&k| readable(exprs[k], lets))
        .collect();
    if todo.is_empty() {
        return out;
    }
    let Some(moves) = &prepared.rows else {
        return out;
    };
    let run = Run {
        tl: Some(tl),
        scope: None,
        consts: &prog.consts,
        detectors: &Detectors::default(),
        clock: &[],
        time_control: None,
        cache: &DetectorCache::default(),
        game: &[],
    };
    let mut read = Vec::new();
    for &k in &todo {
        read_lets(exprs[k], &mut read);
        out[k] = Some(Vec::with_capacity(moves.facts.len()));
    }
    let mut values = vec![Value::None; prog.ruleset.lets.len()];
    let (mut notes, mut evidence) = (Vec::new(), Vec::new());
    for (r, (facts, &i)) in moves.facts.iter().zip(&moves.events).enumerate() {
        for &j in &read {
            if let (Some(slot), Some(Some(col))) = (values.get_mut(j), lets.0.get(j)) {
                *slot = col.value_at(r);
            }
        }
        let mut ctx = Ctx {
            run: &run,
            i,
            switches: &prog.switches,
            lets: &values,
            overlay: None,
            slots: &mut [],
            notes: &mut notes,
            evidence: &mut evidence,
            facts: Some(facts),
        };
        for &k in &todo {
            let v = ctx.eval(exprs[k]);
            if let Some(col) = &mut out[k] {
                col.push(v);
            }
        }
    }
    out
}

/// The `let`s `e` reads itself, each once.
fn read_lets(e: &CExpr, out: &mut Vec<usize>) {
    if let CExpr::Let(j) = e
        && !out.contains(j)
    {
        out.push(*j);
    }
    e.each_child(&mut |x| read_lets(x, out));
}

//! Values of a fit that one game cannot tell apart. A numeric constant the
//! rules read only as a threshold (`abs(move.score) <= draw_eval`,
//! `move.pieces <= tb_pieces`: a comparison whose other side reads only the
//! move's own fields) changes a game's evaluation only where some move's
//! side of a comparison lies between two of its values. For each game the
//! values of such a fit fall into classes, each value with every value that
//! gives every move the same comparisons; two points whose values are in
//! the same classes give that game the same score, so a scan evaluates each
//! game once per class, not once per value (the streaks of every threshold
//! of a grid from one evaluation each).
//!
//! Nothing is assumed of how the rules use the comparison: only that every
//! reading of the constant is one, and that the other side is worked out
//! here as the evaluator works it out (the same numbers, `abs`, `floor`,
//! `ceil`, `round`, `+ - * /`). Anything else makes the fit ineligible, and
//! its values are then each a class of their own.

use std::collections::HashMap;

use crate::base::value::Value;
use crate::rules::analysis::{Builtin, CExpr, FitTarget, Ruleset};
use crate::rules::syntax::ast::{BinOp, UnOp};
use crate::timeline::{Data, MoveField, Timeline};

/// One comparison of the constant: `x op f(c)` (or `f(c) op x`, kept with
/// the operator turned round), `x` read from the move's fields alone.
#[derive(Debug, Clone)]
struct Atom {
    op: BinOp,
    x: CExpr,
    f: CExpr,
}

/// For each fit, each game's class of each of its values (none: every
/// value is a class of its own).
#[derive(Debug, Default)]
pub(super) struct Classes {
    fits: Vec<Option<FitClasses>>,
}

/// The classes of one fit's values.
#[derive(Debug)]
struct FitClasses {
    /// The values classed: the fit's grid and the text's value.
    values: Vec<Value>,
    /// Per game, each value's class: the place in `values` of the first
    /// value that gives the game the same comparisons.
    class: Vec<Vec<u32>>,
}

impl Classes {
    /// The classes of every fit of `rs` that the scoring ruleset reads as a
    /// threshold only, over `timelines`; `values[k]` are the values fit `k`
    /// may take.
    pub(super) fn of(
        rs: &Ruleset,
        scoring: &Ruleset,
        values: &[Vec<Value>],
        timelines: &[Timeline<'_>],
    ) -> Classes {
        let fits = (rs.fits.iter().zip(values))
            .map(|(fit, values)| {
                let FitTarget::Const(c) = fit.target else {
                    return None;
                };
                if fit.source.is_some() || !values.iter().all(|v| matches!(v, Value::Num(_))) {
                    return None;
                }
                let atoms = atoms(scoring, c)?;
                let class = timelines
                    .iter()
                    .map(|tl| classes(&atoms, values, tl))
                    .collect();
                Some(FitClasses {
                    values: values.clone(),
                    class,
                })
            })
            .collect();
        Classes { fits }
    }

    /// The class of value `v` of fit `k` in game `i`: the same for two
    /// values exactly where the game cannot tell them apart. `None` where
    /// the fit has no classes, or `v` is not among its values.
    pub(super) fn class(&self, k: usize, i: usize, v: &Value) -> Option<u32> {
        let f = self.fits.get(k)?.as_ref()?;
        let at = f.values.iter().position(|x| x == v)?;
        f.class.get(i)?.get(at).copied()
    }
}

/// Every comparison in which the scoring ruleset reads constant `c`, or
/// none where it reads it otherwise anywhere (or another constant or a
/// variant's condition reads it).
fn atoms(rs: &Ruleset, c: usize) -> Option<Vec<Atom>> {
    let mut out = Vec::new();
    for (j, (_, e)) in rs.consts.iter().enumerate() {
        if j != c && reads(e, c) {
            return None;
        }
    }
    for v in &rs.variants {
        if v.applies.as_ref().is_some_and(|e| reads(e, c))
            || v.consts.iter().any(|(j, e)| *j != c && reads(e, c))
        {
            return None;
        }
    }
    let exprs =
        (rs.lets.iter().map(|l| &l.expr)).chain(rs.rules.iter().flat_map(|r| r.expressions()));
    for e in exprs {
        if !collect(e, c, &mut out) {
            return None;
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Whether `e` reads constant `c`.
fn reads(e: &CExpr, c: usize) -> bool {
    let mut found = matches!(e, CExpr::Const(j) if *j == c);
    e.each_child(&mut |x| found = found || reads(x, c));
    found
}

/// Gather into `out` the comparisons of `e` that read `c`; false where `e`
/// reads `c` outside such a comparison.
fn collect(e: &CExpr, c: usize, out: &mut Vec<Atom>) -> bool {
    if let CExpr::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) = e {
        let (ra, rb) = (reads(a, c), reads(b, c));
        if ra || rb {
            return match (ra, rb) {
                (false, true) if of_move(a) && of_const(b, c) => {
                    out.push(Atom {
                        op: *op,
                        x: (**a).clone(),
                        f: (**b).clone(),
                    });
                    true
                }
                (true, false) if of_const(a, c) && of_move(b) => {
                    out.push(Atom {
                        op: turned(*op),
                        x: (**b).clone(),
                        f: (**a).clone(),
                    });
                    true
                }
                _ => false,
            };
        }
    }
    if matches!(e, CExpr::Const(j) if *j == c) {
        return false;
    }
    let mut ok = true;
    e.each_child(&mut |x| ok = ok && collect(x, c, out));
    ok
}

/// `a op b` as `b op' a`.
fn turned(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        other => other,
    }
}

/// Whether `e` is arithmetic over numbers and constant `c` alone.
fn of_const(e: &CExpr, c: usize) -> bool {
    match e {
        CExpr::Const(j) => *j == c,
        CExpr::Lit(Value::Num(_)) => true,
        _ => arithmetic(e, &mut |x| of_const(x, c)),
    }
}

/// Whether `e` is arithmetic over numbers and the move's own fields (no
/// clock's: those read the time control, which may be fitted).
fn of_move(e: &CExpr) -> bool {
    match e {
        CExpr::Move(MoveField::Clock(_), _) => false,
        CExpr::Move(..) | CExpr::Lit(Value::Num(_)) => true,
        _ => arithmetic(e, &mut of_move),
    }
}

/// Whether `e` is `-a`, `a + b` (`- * /`) or `abs`, `floor`, `ceil`,
/// `round` of one argument, each argument passing `leaf`.
fn arithmetic(e: &CExpr, leaf: &mut dyn FnMut(&CExpr) -> bool) -> bool {
    match e {
        CExpr::Unary(UnOp::Neg, a) => leaf(a),
        CExpr::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, a, b) => {
            leaf(a) && leaf(b)
        }
        CExpr::Call(Builtin::Abs | Builtin::Floor | Builtin::Ceil | Builtin::Round, args) => {
            args.len() == 1 && leaf(&args[0])
        }
        _ => false,
    }
}

/// The number `e` gives, as the evaluator works it out (none for anything
/// not a finite number: a comparison with it is false or unknown, whatever
/// the constant's value); `field` reads a move's field, `c` is the
/// constant's value.
fn number(e: &CExpr, field: &dyn Fn(MoveField) -> Value, c: f64) -> Option<f64> {
    let r = match e {
        CExpr::Lit(Value::Num(n)) => *n,
        CExpr::Const(_) => c,
        CExpr::Move(f, _) => match field(*f) {
            Value::Num(n) => n,
            _ => return None,
        },
        CExpr::Unary(UnOp::Neg, a) => -number(a, field, c)?,
        CExpr::Binary(op, a, b) => {
            let (x, y) = (number(a, field, c)?, number(b, field, c)?);
            match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div if y == 0.0 => return None,
                BinOp::Div => x / y,
                _ => return None,
            }
        }
        CExpr::Call(f, args) if args.len() == 1 => {
            let x = number(&args[0], field, c)?;
            match f {
                Builtin::Abs => x.abs(),
                Builtin::Floor => x.floor(),
                Builtin::Ceil => x.ceil(),
                Builtin::Round => x.round(),
                _ => return None,
            }
        }
        _ => return None,
    };
    r.is_finite().then_some(r)
}

/// One game's class of each of `values`: the place of the first value
/// whose comparisons, at every move, are the same.
fn classes(atoms: &[Atom], values: &[Value], tl: &Timeline<'_>) -> Vec<u32> {
    let no_field = |_: MoveField| Value::None;
    // each atom's move side at every move (the constant is not read there)
    let sides: Vec<Vec<Option<f64>>> = atoms
        .iter()
        .map(|a| {
            (tl.events.iter())
                .filter_map(|e| match &e.data {
                    Data::Move(p) => Some(tl.move_facts(p)),
                    _ => None,
                })
                .map(|m| number(&a.x, &|f| m.get(f), 0.0))
                .collect()
        })
        .collect();
    let mut first: HashMap<Vec<u8>, u32> = HashMap::new();
    (values.iter().enumerate())
        .map(|(at, v)| {
            let Value::Num(v) = v else { return at as u32 };
            let mut signature = Vec::new();
            for (a, xs) in atoms.iter().zip(&sides) {
                // a threshold that is not a number: the value is a class of
                // its own
                let Some(t) = number(&a.f, &no_field, *v) else {
                    return at as u32;
                };
                signature.extend(xs.iter().map(|x| match x {
                    None => 2,
                    Some(x) => u8::from(match a.op {
                        BinOp::Lt => *x < t,
                        BinOp::Le => *x <= t,
                        BinOp::Gt => *x > t,
                        _ => *x >= t,
                    }),
                }));
            }
            *first.entry(signature).or_insert(at as u32)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::pgn::{GameChunk, parse_game};

    const RULES: &str = r#"ruleset t "t" {
  regulation "r"
}
const band = 1 fit 0 to 3 step 0.5
const plies = 2 fit 1 to 3 step 1
const base = 0 fit -1 to 1 step 1
let quiet on move = streak(abs(move.score) <= band)
rule t.quiet "Quiet" {
  cite "1" "a run"
  severity warning
  forbid on move when quiet >= plies
}
rule t.counter "Counter" {
  cite "1" "a count"
  severity warning
  forbid on move when move.ply + base > 100
}
"#;

    /// A threshold read only against the move's own fields gets classes:
    /// the values no move's comparison tells apart share one. A constant
    /// compared with a `let`, or read in arithmetic with a move's field,
    /// gets none.
    #[test]
    fn a_threshold_s_values_are_classed_by_the_comparisons_they_give() {
        let rs = crate::rules::compile("t.rules", RULES).unwrap();
        // the movers' scores: 0.40, -1.20, 2.60, 0.10 pawns
        let text = "[Event \"E\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 {+0.40/20 1s} e5 {-1.20/20 1s} 2. Nf3 {+2.60/20 1s} Nc6 {+0.10/20 1s} *\n";
        let pgn = parse_game(&GameChunk::of_text(0, 0, 1, text.as_bytes().to_vec()));
        let replay = crate::replay::replay(&pgn);
        let tl = Timeline::build(&pgn, &replay);
        let values: Vec<Vec<Value>> = rs.fits.iter().map(|f| f.grid.clone()).collect();
        let classes = Classes::of(&rs, &rs, &values, std::slice::from_ref(&tl));
        let band: Vec<Option<u32>> = values[0].iter().map(|v| classes.class(0, 0, v)).collect();
        // 0: none within; 0.5 and 1: 0.40 and 0.10; 1.5 to 2.5: and 1.20;
        // 3: all four
        let expected = [0, 1, 1, 3, 3, 3, 6].map(Some);
        assert_eq!(band, expected);
        assert_eq!(
            classes.class(1, 0, &Value::Num(2.0)),
            None,
            "compared with a let"
        );
        assert_eq!(
            classes.class(2, 0, &Value::Num(0.0)),
            None,
            "read in arithmetic"
        );
        assert_eq!(
            classes.class(0, 0, &Value::Num(0.25)),
            None,
            "not a value of the grid"
        );
    }
}

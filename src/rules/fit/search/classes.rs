//! Values of a fit that one game cannot tell apart. A numeric constant the
//! rules read only as a threshold (`abs(move.score) <= draw_eval`,
//! `draw_count >= draw_plies`: a comparison whose other side does not read
//! it) changes a game's evaluation only where some move's side of a
//! comparison lies between two of its values. For each game the values of
//! such a fit fall into classes, each value with every value that gives
//! every move the same comparisons; two points whose values are in the
//! same classes give that game the same score, so a scan evaluates each
//! game once per class, not once per value (the streaks of every threshold
//! of a grid from one evaluation each).
//!
//! A comparison matters only at the moves where what it is joined to by
//! `and` is not false (`floor(move.ply / 2) >= draw_from_move and
//! draw_count >= draw_plies`: the move number only where the streak is
//! long enough): there an `and` is false whatever the comparison gives.
//! The other side of a comparison and what it is joined to are read at
//! the scan's current point, from its `let` columns, and must read none of
//! the values the scan changes.
//!
//! Nothing is assumed of how the rules use the comparison: only that every
//! reading of the constant is one, and that its constant side is worked
//! out here as the evaluator works it out (the same numbers, `abs`,
//! `floor`, `ceil`, `round`, `+ - * /`); the other side and the joined
//! parts are the evaluator's own values ([`values_at_moves`]). Anything
//! else leaves the fit's values each a class of its own.

use std::collections::HashMap;

use crate::base::value::Value;
use crate::rules::analysis::{Builtin, CExpr, FitTarget, Ruleset};
use crate::rules::eval::{LetColumns, Prepared, Program, values_at_moves};
use crate::rules::fit::partial::Reads;
use crate::rules::syntax::ast::{BinOp, UnOp};
use crate::timeline::{Kind, Timeline};

/// The fitted value as a reading of the rules gives it: a threshold
/// (`x op f(c)`, or `f(c) op x` kept with the operator turned round, for a
/// numeric constant), or read otherwise (a switch, a flag, arithmetic),
/// where any two values may differ. With the parts joined to it by `and`
/// on the way from its rule's or `let`'s root.
#[derive(Debug)]
struct Atom<'r> {
    compare: Option<(BinOp, &'r CExpr, &'r CExpr)>,
    joined: Vec<&'r CExpr>,
}

/// A reading's other side at every move (a threshold's; empty otherwise),
/// and where it matters (none: at every move).
type Side = (Vec<Option<f64>>, Option<Vec<bool>>);

/// The fitted value's place in the ruleset.
#[derive(Debug, Clone, Copy)]
enum Leaf {
    Const(usize),
    Switch(usize),
}

impl Leaf {
    fn is(self, e: &CExpr) -> bool {
        match (self, e) {
            (Leaf::Const(c), CExpr::Const(j)) => c == *j,
            (Leaf::Switch(s), CExpr::Switch(j)) => s == *j,
            _ => false,
        }
    }
}

/// For each fit, every comparison in which the scoring ruleset reads it
/// (none: it is read otherwise somewhere, and its values are each a class
/// of their own).
#[derive(Debug, Default)]
pub(super) struct Classes<'r> {
    fits: Vec<Option<Vec<Atom<'r>>>>,
}

/// Where one game's classes are worked out: the program at the scan's
/// current point (the game's variant's), the game, its `let` columns
/// there, and what reads the values the scan changes.
pub(super) struct At<'a, 'r> {
    pub(super) prog: &'a Program<'r>,
    pub(super) tl: &'a Timeline<'a>,
    pub(super) prepared: &'a Prepared<'a>,
    pub(super) lets: &'a LetColumns,
    pub(super) changed: &'a Reads<'a>,
}

impl<'r> Classes<'r> {
    /// The readings of every constant and switch of `rs` that the scoring
    /// ruleset reads only in its `let`s and rules on moves.
    pub(super) fn of(rs: &Ruleset, scoring: &'r Ruleset) -> Classes<'r> {
        let fits = (rs.fits.iter())
            .map(|fit| match fit.target {
                _ if fit.source.is_some() => None,
                FitTarget::Const(c) => atoms(scoring, Leaf::Const(c)),
                FitTarget::Switch(s) => atoms(scoring, Leaf::Switch(s)),
                FitTarget::TimeControl => None,
            })
            .collect();
        Classes { fits }
    }

    /// One game's class of each of `values` of fit `k` (the place among
    /// them of the first value that gives every move the same readings
    /// where they matter), at `at`. `None` where the fit has no readings
    /// here, a threshold's value is not a number, or a comparison's other
    /// side cannot be read there.
    pub(super) fn of_game(&self, k: usize, values: &[&Value], at: &At<'_, '_>) -> Option<Vec<u32>> {
        let atoms = self.fits.get(k)?.as_ref()?;
        // every side and joined part the readings need, each read once, at
        // every move (none where it reads a changed value, or cannot be
        // read here)
        let mut exprs: Vec<&CExpr> = Vec::new();
        for a in atoms {
            for e in a
                .compare
                .iter()
                .map(|(_, x, _)| *x)
                .chain(a.joined.iter().copied())
            {
                if !at.changed.reads(e) && !exprs.iter().any(|x| std::ptr::eq(*x, e)) {
                    exprs.push(e);
                }
            }
        }
        let read = values_at_moves(at.prog, at.tl, at.prepared, at.lets, &exprs);
        let of = |e: &CExpr| -> Option<&Vec<Value>> {
            let k = exprs.iter().position(|x| std::ptr::eq(*x, e))?;
            read[k].as_ref()
        };
        let any_move = at.tl.events.iter().any(|e| e.kind == Kind::Move);
        // each threshold's other side at every move, and where each reading
        // matters (no joined part false there)
        let mut sides: Vec<Side> = Vec::with_capacity(atoms.len());
        for a in atoms {
            let xs: Vec<Option<f64>> = match a.compare {
                Some((_, x, _)) => (of(x)?.iter())
                    .map(|x| match x {
                        Value::Num(n) if n.is_finite() => Some(*n),
                        _ => None,
                    })
                    .collect(),
                None => Vec::new(),
            };
            // none: everywhere (no joined part could be read)
            let mut matters: Option<Vec<bool>> = None;
            for j in &a.joined {
                // a part that reads a changed value, or cannot be read
                // here, is taken as not false
                if let Some(vs) = of(j) {
                    let m = matters.get_or_insert_with(|| vec![true; vs.len()]);
                    for (m, v) in m.iter_mut().zip(vs) {
                        *m = *m && *v != Value::Bool(false);
                    }
                }
            }
            sides.push((xs, matters));
        }
        let mut first: HashMap<Vec<u8>, u32> = HashMap::new();
        let mut out = Vec::with_capacity(values.len());
        for (place, v) in values.iter().enumerate() {
            let mut signature = Vec::new();
            for (a, (xs, matters)) in atoms.iter().zip(&sides) {
                let Some((op, _, f)) = a.compare else {
                    // read otherwise: the value itself, where it matters
                    let somewhere = matters.as_ref().map_or(any_move, |m| m.contains(&true));
                    if somewhere {
                        signature.extend((place as u32).to_le_bytes());
                        signature.push(5);
                    }
                    continue;
                };
                let Value::Num(v) = v else { return None };
                // a threshold that is not a number: the value is a class
                // of its own
                let Some(t) = number(f, *v) else {
                    signature.extend((place as u32).to_le_bytes());
                    signature.push(4);
                    continue;
                };
                let matters = |r: usize| matters.as_ref().is_none_or(|m| m[r]);
                signature.extend(xs.iter().enumerate().map(|(r, x)| match (x, matters(r)) {
                    (_, false) => 3,
                    (None, true) => 2,
                    (Some(x), true) => u8::from(match op {
                        BinOp::Lt => *x < t,
                        BinOp::Le => *x <= t,
                        BinOp::Gt => *x > t,
                        _ => *x >= t,
                    }),
                }));
            }
            let n = first.len() as u32;
            out.push(*first.entry(signature).or_insert(n));
        }
        Some(out)
    }
}

/// Every reading of `leaf` in the scoring ruleset, or none where another
/// constant or a variant reads it, or a `let` or rule on events other than
/// moves.
fn atoms(rs: &Ruleset, leaf: Leaf) -> Option<Vec<Atom<'_>>> {
    let mut out = Vec::new();
    for (j, (_, e)) in rs.consts.iter().enumerate() {
        if !matches!(leaf, Leaf::Const(c) if c == j) && reads(e, leaf) {
            return None;
        }
    }
    for v in &rs.variants {
        if v.applies.as_ref().is_some_and(|e| reads(e, leaf))
            || (v.consts.iter())
                .any(|(j, e)| !matches!(leaf, Leaf::Const(c) if c == *j) && reads(e, leaf))
        {
            return None;
        }
    }
    let lets = (rs.lets.iter()).map(|l| (l.on, &l.expr));
    let rules = (rs.rules.iter()).flat_map(|r| {
        let on = r.on();
        r.expressions().map(move |e| (on.unwrap_or(Kind::Game), e))
    });
    for (on, e) in lets.chain(rules) {
        if !reads(e, leaf) {
            continue;
        }
        if on != Kind::Move || !collect(e, leaf, &mut Vec::new(), &mut out) {
            return None;
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Whether `e` reads `leaf`.
fn reads(e: &CExpr, leaf: Leaf) -> bool {
    let mut found = leaf.is(e);
    e.each_child(&mut |x| found = found || reads(x, leaf));
    found
}

/// Gather into `out` the readings of `leaf` in `e`, each with the parts
/// joined to it by `and` (`joined`, those on the way to `e`); false where
/// a comparison reads it on both sides.
fn collect<'r>(
    e: &'r CExpr,
    leaf: Leaf,
    joined: &mut Vec<&'r CExpr>,
    out: &mut Vec<Atom<'r>>,
) -> bool {
    if let (
        Leaf::Const(c),
        CExpr::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b),
    ) = (leaf, e)
    {
        let (ra, rb) = (reads(a, leaf), reads(b, leaf));
        let compare = match (ra, rb) {
            (false, true) if of_const(b, c) => Some((*op, &**a, &**b)),
            (true, false) if of_const(a, c) => Some((turned(*op), &**b, &**a)),
            (true, true) => return false,
            _ => None,
        };
        if compare.is_some() {
            out.push(Atom {
                compare,
                joined: joined.clone(),
            });
            return true;
        }
    }
    if leaf.is(e) {
        out.push(Atom {
            compare: None,
            joined: joined.clone(),
        });
        return true;
    }
    match e {
        // a stateful call keeps what its parts gave at one move for the
        // moves after it (a detector, for the game): an `and` outside it
        // false at one move does not make them matter less there
        CExpr::Stateful(_) | CExpr::Detector(..) => {
            let mut inside = Vec::new();
            let mut ok = true;
            e.each_child(&mut |x| ok = ok && collect(x, leaf, &mut inside, out));
            ok
        }
        CExpr::Binary(BinOp::And, a, b) | CExpr::Short(BinOp::And, a, b) => {
            joined.push(b);
            let left = collect(a, leaf, joined, out);
            joined.pop();
            joined.push(a);
            let right = left && collect(b, leaf, joined, out);
            joined.pop();
            right
        }
        _ => {
            let mut ok = true;
            e.each_child(&mut |x| ok = ok && collect(x, leaf, joined, out));
            ok
        }
    }
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

/// The number the constant side of a comparison gives, as the evaluator
/// works it out, `c` being the constant's value (none for anything not a
/// finite number: a comparison with it is false or unknown, whatever the
/// constant's value).
fn number(e: &CExpr, c: f64) -> Option<f64> {
    let r = match e {
        CExpr::Lit(Value::Num(n)) => *n,
        CExpr::Const(_) => c,
        CExpr::Unary(UnOp::Neg, a) => -number(a, c)?,
        CExpr::Binary(op, a, b) => {
            let (x, y) = (number(a, c)?, number(b, c)?);
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
            let x = number(&args[0], c)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::pgn::{GameChunk, parse_game};
    use crate::rules::eval::{Detectors, Overrides, Tallied, run_tallied};

    const RULES: &str = r#"ruleset t "t" {
  regulation "r"
}
const band = 1 fit 0 to 3 step 0.5
const plies = 1 fit 1 to 3 step 1
const base = 0 fit -1 to 1 step 1
const from = 1 fit 1 to 3 step 1
const loud = false fit [true, false]
const strict = false fit [true, false]
let quiet on move = streak(abs(move.score) <= band)
rule t.quiet "Quiet" {
  cite "1" "a run"
  severity warning
  forbid on move when quiet >= plies
}
rule t.loud "Loud" {
  cite "1" "a loud move"
  severity warning
  forbid on move when loud and abs(move.score) > 5
}
rule t.strict "Strict" {
  cite "1" "a strict move"
  severity warning
  forbid on move when strict and abs(move.score) > 2
}
rule t.late "Late and quiet" {
  cite "1" "a late run"
  severity warning
  forbid on move when move.ply >= from and quiet >= plies
}
rule t.counter "Counter" {
  cite "1" "a count"
  severity warning
  forbid on move when move.ply + base > 100
}
"#;

    /// A threshold gets classes: the values no move's comparison tells
    /// apart share one, whether the other side is the move's own field or
    /// a `let` that does not read it; and a comparison joined by `and` to a
    /// part false at a move does not tell values apart there. A constant
    /// read in arithmetic is told apart wherever it is read; a flag only
    /// where what it is joined to is not false. A threshold's grid with a
    /// value not a number gets none.
    #[test]
    fn a_threshold_s_values_are_classed_by_the_comparisons_they_give() {
        let rs = crate::rules::compile("t.rules", RULES).unwrap();
        // the movers' scores: 0.40, -1.20, 2.60, 0.10 pawns
        let text = "[Event \"E\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 {+0.40/20 1s} e5 {-1.20/20 1s} 2. Nf3 {+2.60/20 1s} Nc6 {+0.10/20 1s} *\n";
        let pgn = parse_game(&GameChunk::of_text(0, 0, 1, text.as_bytes().to_vec()));
        let replay = crate::replay::replay(&pgn);
        let tl = Timeline::build(&pgn, &replay);
        let prog = Program::with(&rs, None, &Overrides::default()).unwrap();
        let keep = Tallied {
            given: None,
            keep: true,
        };
        let detectors = Detectors::default();
        let prepared = Prepared::new(&tl);
        let out = run_tallied(&prog, &tl, &prepared, &detectors, "t", keep);
        let lets = out.lets.expect("the columns kept");
        let classes = Classes::of(&rs, &rs);
        let of = |k: usize, values: &[Value]| {
            let changed = Reads::of(&rs, &[rs.fits[k].target]);
            let at = At {
                prog: &prog,
                tl: &tl,
                prepared: &prepared,
                lets: &lets,
                changed: &changed,
            };
            let values: Vec<&Value> = values.iter().collect();
            classes.of_game(k, &values, &at)
        };
        // 0: none within; 0.5 and 1: 0.40 and 0.10; 1.5 to 2.5: and 1.20;
        // 3: all four
        assert_eq!(of(0, &rs.fits[0].grid), Some(vec![0, 1, 1, 2, 2, 2, 3]));
        // at band 1, `quiet` is 1, 0, 0, 1: a run of 1 at plies 1 and 4,
        // none longer
        assert_eq!(of(1, &rs.fits[1].grid), Some(vec![0, 1, 1]), "a let");
        // `move.ply >= from` matters at plies 1 and 4 only, where `quiet`
        // reaches `plies`: from 2 and 3 differ at ply 2 alone
        assert_eq!(of(3, &rs.fits[3].grid), Some(vec![0, 1, 1]), "joined");
        // a flag joined to a part false at every move (no score beyond 5
        // pawns), and to one true at ply 3 (2.60)
        assert_eq!(of(4, &rs.fits[4].grid), Some(vec![0, 0]), "never read");
        assert_eq!(of(5, &rs.fits[5].grid), Some(vec![0, 1]), "read at ply 3");
        // inside a stateful call, a reading is joined only to what is
        // inside it: `move.ply >= 3` outside the streak leaves every move
        // of its argument in play
        let late = crate::rules::compile(
            "late.rules",
            &RULES.replace(
                "forbid on move when loud and abs(move.score) > 5",
                "forbid on move when move.ply >= 3 and streak(abs(move.score) <= band and move.ply >= 1) >= 2",
            ),
        )
        .unwrap();
        let inside = Classes::of(&late, &late);
        let joined: Vec<usize> = (inside.fits[0].as_ref().unwrap().iter())
            .map(|a| a.joined.len())
            .collect();
        assert_eq!(joined, vec![0, 1], "the streak's own and, not the rule's");
        // read in arithmetic, at every move: each value a class of its own
        assert_eq!(of(2, &rs.fits[2].grid), Some(vec![0, 1, 2]), "arithmetic");
        assert_eq!(
            of(0, &[Value::Num(1.0), Value::Bool(true)]),
            None,
            "not a number"
        );
    }
}

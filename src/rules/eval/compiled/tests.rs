//! The closures held to the walk on generated expressions, at each move
//! of a game and with no move; and the generator and sample values the
//! columns' tests share.

use super::*;
use crate::base::value::Value;
use crate::rules::analysis::{Builtin, CExpr};
use crate::rules::eval::Detectors;
use crate::rules::eval::ctx::{Ctx, DetectorCache, Run};
use crate::rules::syntax::ast::{BinOp, UnOp};
use crate::timeline::{Kind, MoveField, Timeline};

/// A small generator of expressions, deterministic (a linear
/// congruential sequence), over every node the compiler knows and some
/// it hands back to the walk.
pub(in crate::rules::eval) struct Gen(pub(in crate::rules::eval) crate::test_rng::Lcg);

impl Gen {
    pub(in crate::rules::eval) fn next(&mut self, n: usize) -> usize {
        self.0.below(n)
    }

    fn leaf(&mut self, values: usize) -> CExpr {
        match self.next(6) {
            5 => {
                // a field of the game, one the list has or not
                let names: Vec<&'static str> = crate::timeline::fields_of(Kind::Game).collect();
                match self.next(names.len() + 1) {
                    i if i < names.len() => CExpr::Field(Kind::Game, names[i]),
                    _ => CExpr::Field(Kind::Game, "no_such_field"),
                }
            }
            0 => CExpr::Lit(sample_values()[self.next(values)].clone()),
            1 => CExpr::Const(self.next(values + 1)),
            2 => CExpr::Let(self.next(values + 1)),
            3 => CExpr::Switch(self.next(3)),
            _ => {
                let fields = [
                    (MoveField::Side, "side"),
                    (MoveField::Capture, "capture"),
                    (MoveField::Book, "book"),
                    (MoveField::Score, "score"),
                    (MoveField::Depth, "depth"),
                    (MoveField::San, "san"),
                    (MoveField::RecordedR50, "recorded_r50"),
                ];
                let (f, name) = fields[self.next(fields.len())];
                CExpr::Move(f, name)
            }
        }
    }

    pub(in crate::rules::eval) fn expr(&mut self, depth: u32, values: usize) -> CExpr {
        if depth == 0 {
            return self.leaf(values);
        }
        let sub = |g: &mut Gen| Box::new(g.expr(depth - 1, values));
        let ops = BinOp::ALL;
        let one = [Builtin::Abs, Builtin::Floor, Builtin::Ceil, Builtin::Round];
        match self.next(9) {
            0 => self.leaf(values),
            1 => CExpr::Unary(
                if self.next(2) == 0 {
                    UnOp::Not
                } else {
                    UnOp::Neg
                },
                sub(self),
            ),
            2 | 3 => CExpr::Binary(ops[self.next(ops.len())], sub(self), sub(self)),
            4 => CExpr::Short(
                if self.next(2) == 0 {
                    BinOp::And
                } else {
                    BinOp::Or
                },
                sub(self),
                sub(self),
            ),
            5 => CExpr::If(sub(self), sub(self), sub(self)),
            6 => CExpr::Call(one[self.next(one.len())], vec![*sub(self)]),
            7 => CExpr::Call(
                if self.next(2) == 0 {
                    Builtin::Min
                } else {
                    Builtin::Max
                },
                vec![*sub(self), *sub(self)],
            ),
            // builtins the compiler hands to the walk
            _ => match self.next(4) {
                0 => CExpr::Call(Builtin::Abs, vec![*sub(self), *sub(self)]),
                1 => CExpr::Call(Builtin::Contains, vec![*sub(self), *sub(self)]),
                // a column of its own (a `let` over `previous` in it)
                2 => CExpr::Call(Builtin::Coalesce, vec![*sub(self), *sub(self)]),
                _ => CExpr::List(vec![*sub(self), *sub(self)]),
            },
        }
    }
}

pub(in crate::rules::eval) fn sample_values() -> Vec<Value> {
    vec![
        Value::Str("black".into()),
        Value::Num(2.0),
        Value::Num(-3.5),
        Value::Num(0.0),
        Value::Num(10.0),
        Value::Bool(true),
        Value::Bool(false),
        Value::Str("white".into()),
        Value::Str("x".into()),
        Value::List(vec![Value::Num(2.0), Value::Str("white".into())]),
        Value::None,
        Value::Unknown,
    ]
}

/// Every compiled closure gives what the walk gives on the same
/// expression, as a value, a number and a truth: over the operators,
/// builtins, `if`, `not`, `-`, short cuts, `in`, literals, constants,
/// `let`s (one past the end too), switches and fields of the move
/// (`move.side == white` among them), every kind of value on either
/// side, to a depth of four; at each move of a TCEC game (book moves,
/// engine moves, both sides, a capture) and with no move at all.
#[test]
fn compiled_expressions_give_what_the_walk_gives() {
    let pgn = "[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n\
        1. e4 {book} d5 {book} 2. exd5 {d=20, sd=30, mt=1000, tl=60000, n=5000, pv=exd5 Qxd5, wv=0.35, R50=50, Rd=-11, Rr=-11,} \
        Qxd5 {d=1, sd=1, mt=0, tl=59000, n=0, pv=, wv=0.30, R50=50, Rd=-11, Rr=-11,} 3. Nc3 *\n";
    let chunk = crate::ingest::pgn::GameChunk::of_text(0, 0, 1, pgn.as_bytes().to_vec());
    let game = crate::ingest::pgn::parse_game(&chunk);
    let replay = crate::replay::replay(&game);
    let tl = Timeline::build(&game, &replay);
    let facts: Vec<_> = replay.plies.iter().map(|p| tl.move_facts(p)).collect();
    assert_eq!(facts.len(), 5, "every move of the game replays");
    for at in facts.iter().map(Some).chain([None]) {
        walk_and_closures_agree(at);
    }
}

fn walk_and_closures_agree(facts: Option<&crate::timeline::MoveFacts<'_>>) {
    let values = sample_values();
    let detectors = Detectors::default();
    let cache = DetectorCache::default();
    // the game's fields, each with one of the sample values, listed as
    // a game's evaluation lists them; and no list at all
    let game: Vec<(&'static str, Value)> = crate::timeline::fields_of(Kind::Game)
        .zip(values.iter().cycle())
        .map(|(n, v)| (n, v.clone()))
        .collect();
    for listed in [&game[..], &[]] {
        let mut run = Run::bare(&values, &detectors, &cache);
        run.game = listed;
        agree_on(&run, &values, facts);
    }
}

fn agree_on(run: &Run<'_, '_>, values: &[Value], facts: Option<&crate::timeline::MoveFacts<'_>>) {
    let (mut notes, mut evidence) = (Vec::new(), Vec::new());
    let mut ctx = Ctx {
        run,
        i: 0,
        switches: &[true, false],
        lets: values,
        overlay: None,
        slots: &mut [],
        notes: &mut notes,
        evidence: &mut evidence,
        facts,
    };
    // the shapes compiled in place, each way round
    let field = |f, name| Box::new(CExpr::Move(f, name));
    let lit = |v: Value| Box::new(CExpr::Lit(v));
    let mut fixed = Vec::new();
    for (f, name) in [
        (MoveField::Side, "side"),
        (MoveField::Capture, "capture"),
        (MoveField::Score, "score"),
    ] {
        for v in values.iter().chain(&[Value::Num(0.35), Value::Num(-0.35)]) {
            for op in [BinOp::Eq, BinOp::Ne] {
                fixed.push(CExpr::Binary(op, field(f, name), lit(v.clone())));
                fixed.push(CExpr::Binary(op, lit(v.clone()), field(f, name)));
            }
        }
    }
    // `lower(x)` against a literal, each way round: texts in ASCII or
    // not, literals in lower case or not, and every sample value
    let texts = [
        "HaSh",
        "hash",
        "ÉCOLE",
        "école",
        "\u{212A}",
        "Kelvin \u{212A}",
        "x",
    ];
    let inputs: Vec<Value> = texts
        .iter()
        .map(|t| Value::Str((*t).into()))
        .chain(values.iter().cloned())
        .collect();
    for x in &inputs {
        for l in ["hash", "école", "k", "Hash", "x", ""] {
            let low = || Box::new(CExpr::Call(Builtin::Lower, vec![CExpr::Lit(x.clone())]));
            for op in [BinOp::Eq, BinOp::Ne] {
                fixed.push(CExpr::Binary(op, low(), lit(Value::Str(l.into()))));
                fixed.push(CExpr::Binary(op, lit(Value::Str(l.into())), low()));
            }
        }
    }
    // lists of literals (made once when compiled), nested too, as
    // values and on the right of `in`
    let listed = || {
        Box::new(CExpr::List(vec![
            CExpr::Lit(Value::Str("white".into())),
            CExpr::Lit(Value::Num(2.0)),
            CExpr::List(vec![CExpr::Lit(Value::Bool(true))]),
        ]))
    };
    for v in values {
        fixed.push(CExpr::Binary(BinOp::In, lit(v.clone()), listed()));
    }
    fixed.push(*listed());
    let mut g = Gen(crate::test_rng::Lcg(15));
    let mut kinds = std::collections::BTreeSet::new();
    for n in 0..5_000 {
        let e = match fixed.pop() {
            Some(e) => e,
            None => g.expr(1 + n % 4, values.len()),
        };
        let want = ctx.eval(&e);
        assert_eq!(value(&e)(&mut ctx), want, "{e:?}");
        assert_eq!(
            format!("{:?}", num(&e)(&mut ctx)),
            format!("{:?}", ctx.num(&e)),
            "{e:?}"
        );
        assert_eq!(truth(&e)(&mut ctx), ctx.truth(&e), "{e:?}");
        kinds.insert(want.type_name());
    }
    // the sample reaches every kind of result
    assert_eq!(kinds.len(), 6, "{kinds:?}");
}

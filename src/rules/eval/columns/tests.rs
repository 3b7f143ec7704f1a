//! The columns held to the walk: coded values, columns held as one value,
//! their differences, and every node and stateful call on generated
//! expressions at each move of a game.

use super::col::{Col, same_value, typed, typed_one};
use super::cols::Cols;
use super::column::{Buf, Column, same_num, settled};
use super::game::rows;
use super::prepared::Moves;
use crate::base::value::{Text, Value};
use crate::rules::analysis::{Builtin, CExpr, Detector, Stateful, StatefulFn};
use crate::rules::eval::Detectors;
use crate::rules::eval::columnar::{Columnar, calls_detector, columnar, moves_fields};
use crate::rules::eval::compiled::tests::{Gen, sample_values};
use crate::rules::eval::ctx::{Ctx, DetectorCache, Run, Slot};
use crate::rules::eval::plan::Plan;
use crate::rules::eval::typed::identical;
use crate::rules::eval::typed::{Num, Truth};
use crate::rules::syntax::ast::{BinOp, UnOp};
use crate::timeline::{Kind, MoveField, Timeline};

/// A game of several moves of each kind: book moves, searched moves of
/// both sides, moves without search (a recapture, and one no innocent
/// cause explains), captures, an evaluation past the win rule's, and a
/// move with no comment.
const PGN: &str = "[Event \"E\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n\
    1. e4 {book} d5 {book} 2. exd5 {d=20, sd=30, mt=1000, tl=60000, n=5000, pv=exd5 Qxd5, wv=0.35, R50=50, Rd=-11, Rr=-11,} \
    Qxd5 {d=1, sd=1, mt=0, tl=59000, n=0, pv=, wv=0.30, R50=50, Rd=-11, Rr=-11,} \
    3. Nc3 {d=22, sd=31, mt=2000, tl=58000, n=9000, pv=Nc3 Qa5, wv=0.05, R50=49, Rd=-11, Rr=-11,} \
    Qa5 {d=18, sd=25, mt=1500, tl=57000, n=7000, pv=Qa5 d4, wv=-11.50, R50=48, Rd=-11, Rr=9,} \
    4. d4 {d=24, sd=33, mt=2500, tl=56500, n=11000, pv=d4 c6, wv=0.20, R50=50, Rd=-11, Rr=-11,} \
    Nf6 {d=1, sd=1, mt=0, tl=57000, n=0, pv=, wv=0.10, R50=49, Rd=-11, Rr=-11,} 5. Nf3 {d=25, sd=40, mt=3000, tl=55000, n=12000, pv=Nf3, wv=12.00, R50=47, Rd=-11, Rr=8,} e6 *\n";

/// A coded column's values are told apart as [`identical`] tells them:
/// every kind against every kind, `-0` against `0`, a not-a-number
/// against itself, texts made apart and the same text shared.
#[test]
fn coded_values_are_told_apart_as_identical_tells_them() {
    let shared = Value::Str("white".into());
    let mut values = sample_values();
    values.extend([
        Value::Num(-0.0),
        Value::Num(f64::NAN),
        Value::List(vec![Value::Num(2.0)]),
        Value::List(vec![Value::Num(-0.0)]),
        Value::List(vec![Value::Num(0.0)]),
        shared.clone(),
        shared,
        Value::Str(Text::from_static("white")),
    ]);
    for a in &values {
        for b in &values {
            assert_eq!(same_value(a, b), identical(a, b), "{a:?} {b:?}");
        }
    }
}

/// A column is held as one value only where every move's value is the
/// same to every reader: `0` and `-0`, two not-a-numbers of different
/// bits, and none and unknown stay apart; a column of no moves stays a
/// column.
#[test]
fn a_column_is_one_value_only_where_every_move_is_the_same() {
    let nums = |v: &[Num]| settled(v.iter().copied().collect::<Buf<Num>>());
    let one = |c: &Column<Num>| match c {
        Column::K(x) => Some(*x),
        Column::C(_) => None,
    };
    assert!(matches!(one(&nums(&[Num::Is(1.5); 4])), Some(Num::Is(x)) if x == 1.5));
    assert!(matches!(one(&nums(&[Num::Other; 3])), Some(Num::Other)));
    assert!(matches!(one(&nums(&[Num::Is(2.0)])), Some(Num::Is(x)) if x == 2.0));
    for apart in [
        vec![Num::Is(0.0), Num::Is(-0.0)],
        vec![Num::Is(f64::NAN), Num::Is(-f64::NAN)],
        vec![Num::Other, Num::Unknown],
        vec![Num::Is(1.0), Num::Is(1.0), Num::Other],
        vec![Num::Unknown, Num::Is(0.0)],
    ] {
        let c = nums(&apart);
        assert!(one(&c).is_none(), "{apart:?} held as one value");
        for (r, x) in apart.iter().enumerate() {
            assert!(same_num(c.at(r), x));
        }
    }
    assert!(matches!(nums(&[]), Column::C(v) if v.is_empty()));
    let truths = |v: &[Truth]| settled(v.iter().copied().collect::<Buf<Truth>>());
    assert!(matches!(
        truths(&[Truth::False; 5]),
        Column::K(Truth::False)
    ));
    assert!(matches!(
        truths(&[Truth::False, Truth::Other]),
        Column::C(_)
    ));
    // values are not compared: a column of them stays one
    let same = Value::Str("white".into());
    let values: Buf<Value> = [same.clone(), same].into_iter().collect();
    assert!(matches!(settled(values), Column::C(_)));
}

/// Two columns differ, for [`Col::differences`] and [`Col::same`], at
/// exactly the moves where [`identical`] tells their values apart:
/// columns of numbers, of truths and of other values (`-0` and `0`,
/// none and unknown among them), each made per move or one for every
/// move, every kind against every kind.
#[test]
fn columns_differ_where_identical_tells_values_apart() {
    let picks: [Vec<Value>; 3] = [
        vec![
            Value::Num(1.0),
            Value::Num(0.0),
            Value::Num(-0.0),
            Value::None,
            Value::Unknown,
        ],
        vec![Value::Bool(true), Value::Bool(false), Value::Unknown],
        vec![Value::Str("white".into()), Value::Num(2.0), Value::None],
    ];
    let mut rng = crate::test_rng::Lcg(7);
    let n = 9;
    let column = |rng: &mut crate::test_rng::Lcg| {
        let kind = &picks[rng.below(picks.len())];
        if rng.below(4) == 0 {
            typed_one(kind[rng.below(kind.len())].clone())
        } else {
            typed((0..n).map(|_| kind[rng.below(kind.len())].clone()))
        }
    };
    for _ in 0..2000 {
        let (a, b) = (column(&mut rng), column(&mut rng));
        let want: Vec<usize> = (0..n)
            .filter(|&r| !identical(&a.value_ref(r), &b.value_ref(r)))
            .collect();
        let mut got = Vec::new();
        a.differences(&b, n, |r| got.push(r));
        assert_eq!(got, want, "{a:?} against {b:?}");
        assert_eq!(a.same(&b, n), want.is_empty(), "{a:?} against {b:?}");
    }
}

/// Every generated expression a column can hold gives, at each move of
/// the game, what the walk gives there, as a value, a number and a
/// truth (to the bit: `-0` is not `0`); and every stateful call over
/// generated arguments, `reset`, `over` and `per` gives what stepping a
/// slot with the walk's values at each move gives.
#[test]
fn columns_give_what_the_walk_gives_at_every_move() {
    let chunk = crate::ingest::pgn::GameChunk::of_text(0, 0, 1, PGN.as_bytes().to_vec());
    let game = crate::ingest::pgn::parse_game(&chunk);
    let replay = crate::replay::replay(&game);
    let tl = Timeline::build(&game, &replay);
    // the moves as a game's evaluation finds them
    let moves = Moves {
        facts: Vec::new(),
        events: Vec::new(),
    };
    let plan = Plan {
        columns: Columnar {
            lets: vec![Some(Vec::new())],
            ..Default::default()
        },
        ..Default::default()
    };
    let moves = rows(&plan, &tl).unwrap_or(moves);
    let (rows, events) = (&moves.facts, &moves.events);
    assert_eq!(rows.len(), 10, "every move of the game replays");
    let values = sample_values();
    let detectors = Detectors::default();
    let cache = DetectorCache::default();
    let game_fields: Vec<(&'static str, Value)> = crate::timeline::fields_of(Kind::Game)
        .zip(values.iter().cycle())
        .map(|(n, v)| (n, v.clone()))
        .collect();
    let mut run = Run::bare(&values, &detectors, &cache);
    run.game = &game_fields;
    run.tl = Some(&tl);
    let switches = [true, false];
    // each `let` a column of one of the sample values
    let lets: Vec<Option<Col>> = values.iter().map(|v| Some(typed_one(v.clone()))).collect();
    let column_lets: Vec<Option<Vec<Stateful>>> = values.iter().map(|_| Some(Vec::new())).collect();
    let view = Cols {
        run: &run,
        rows,
        events,
        switches: &switches,
        lets: &lets,
        overlay: &[],
        states: &[],
        fields: &[],
        given: None,
        detectors: true,
    };
    let (mut notes, mut evidence) = (Vec::new(), Vec::new());
    let mut walk = |r: usize, f: &mut dyn FnMut(&mut Ctx<'_, '_>)| {
        let mut ctx = Ctx {
            run: &run,
            i: events[r],
            switches: &switches,
            lets: &values,
            overlay: None,
            slots: &mut [],
            notes: &mut notes,
            evidence: &mut evidence,
            facts: rows.get(r),
        };
        f(&mut ctx)
    };
    let mut g = Gen(crate::test_rng::Lcg(21));
    let mut probe = Probe {
        column_lets: &column_lets,
        g: &mut g,
        values: values.len(),
        walk: &mut walk,
    };
    nodes_give_what_the_walk_gives(view, &mut probe);
    stateful_calls_give_what_the_walk_gives(view, &mut probe);
}

/// What the checks of the columns against the walk share: the `let`s
/// evaluated a column at a time, the expressions' generator, the number of
/// sample values (the constants and `let`s) and the walk.
struct Probe<'p, 'w> {
    column_lets: &'p [Option<Vec<Stateful>>],
    g: &'p mut Gen,
    values: usize,
    walk: &'p mut Walk<'w>,
}

/// A walk at one move of the game: its number among the moves, and what
/// to do in its context.
type Walk<'w> = dyn FnMut(usize, &mut dyn FnMut(&mut Ctx<'_, '_>)) + 'w;

/// Every node a column can hold, of [`fixed_nodes`] and then generated
/// over `values` sample values (the constants and `let`s), gives at each
/// move what the walk gives there, as a value, a number and a truth.
fn nodes_give_what_the_walk_gives(view: Cols<'_, '_, '_>, probe: &mut Probe<'_, '_>) {
    let (column_lets, values) = (probe.column_lets, probe.values);
    let (g, walk) = (&mut *probe.g, &mut *probe.walk);
    let mut kinds = std::collections::BTreeSet::new();
    let (mut tried, mut held) = (0, 0);
    let mut fixed = fixed_nodes();
    let (mut flagged, mut coded, mut settled) = (0, 0, 0);
    while held < 3_000 {
        tried += 1;
        let e = match fixed.pop() {
            Some(e) => e,
            None => g.expr(1 + tried % 4, values),
        };
        if !columnar(&e, column_lets) {
            continue;
        }
        held += 1;
        // as the evaluation of a `let` or condition sets it
        let view = Cols {
            detectors: calls_detector(&e),
            ..view
        };
        let (v, n, t) = (view.value(&e), view.num(&e), view.truth(&e));
        if matches!(&*v, Col::D(_)) {
            coded += 1;
        }
        // a node that reads a field of the move and is one value at
        // every move
        let mut read = Vec::new();
        moves_fields(&e, &mut read);
        if !read.is_empty() && v.one().is_some() {
            settled += 1;
        }
        for r in 0..view.n() {
            walk(r, &mut |ctx| {
                let want = ctx.eval(&e);
                assert_eq!(
                    format!("{:?}", v.value_at(r)),
                    format!("{want:?}"),
                    "{e:?} at {r}"
                );
                assert_eq!(
                    format!("{:?}", n.at(r)),
                    format!("{:?}", ctx.num(&e)),
                    "{e:?} at {r}"
                );
                assert_eq!(*t.at(r), ctx.truth(&e), "{e:?} at {r}");
                kinds.insert(want.type_name());
                if matches!(e, CExpr::Detector(..)) && want == Value::Bool(true) {
                    flagged += 1;
                }
            });
        }
    }
    // the sample reaches every kind of result, and most expressions
    // are columns (those that are not call the builtins of text or
    // make lists)
    assert_eq!(kinds.len(), 6, "{kinds:?}");
    assert!(held * 2 > tried, "{held} of {tried}");
    // the hidden book flags the run of searchless moves
    assert!(flagged > 0, "no move flagged");
    // some columns are coded (a few texts, or truths and none; a
    // column of one text is held as that value)
    assert!(coded > 40, "{coded} coded columns");
    // and some nodes over the moves are one value for every move (a
    // field the same at every move, what reads only such fields, and
    // the `and` and `or` that one side decides)
    assert!(settled > 500, "{settled} settled columns");
}

/// The nodes tried before the generated ones (the last first).
/// `a op b`.
fn bin(op: BinOp, a: CExpr, b: CExpr) -> CExpr {
    CExpr::Binary(op, Box::new(a), Box::new(b))
}

fn fixed_nodes() -> Vec<CExpr> {
    // the detectors, walked at each move (the hidden book's parameters
    // found once, or at each move where one of them is a field)
    let lit = |v: Value| CExpr::Lit(v);
    let hidden = |run: CExpr| {
        CExpr::Detector(
            Detector::HiddenBook,
            vec![
                ("min_run".to_string(), run),
                ("max_nodes".to_string(), lit(Value::Num(1000.0))),
                ("max_depth".to_string(), lit(Value::Num(1.0))),
                ("max_time".to_string(), lit(Value::Num(100.0))),
                ("tb_pieces".to_string(), CExpr::Const(1)),
            ],
        )
    };
    let choice = |f: MoveField, a: &str, b: &str| {
        CExpr::If(
            Box::new(CExpr::Move(f, "flag")),
            Box::new(lit(Value::Str(a.into()))),
            Box::new(lit(Value::Str(b.into()))),
        )
    };
    vec![
        hidden(lit(Value::Num(1.0))),
        hidden(lit(Value::Num(2.0))),
        hidden(CExpr::Move(MoveField::Depth, "depth")),
        bin(BinOp::Eq, hidden(CExpr::Const(1)), lit(Value::Bool(true))),
        CExpr::Detector(
            Detector::Tablebase,
            vec![("fifty_move_rule".to_string(), lit(Value::Bool(true)))],
        ),
        // the side against each text it can be compared with
        bin(
            BinOp::Eq,
            CExpr::Move(MoveField::Side, "side"),
            lit(Value::Str("black".into())),
        ),
        bin(
            BinOp::Ne,
            lit(Value::Str("white".into())),
            CExpr::Move(MoveField::Side, "side"),
        ),
        bin(
            BinOp::Eq,
            CExpr::Move(MoveField::Side, "side"),
            lit(Value::Str("White".into())),
        ),
        // a detector walked only where the other side of `and` or
        // `or` leaves the result open
        CExpr::Binary(
            BinOp::And,
            Box::new(CExpr::Move(MoveField::Capture, "capture")),
            Box::new(CExpr::Binary(
                BinOp::Ne,
                Box::new(CExpr::Detector(
                    Detector::Tablebase,
                    vec![("fifty_move_rule".to_string(), lit(Value::Bool(true)))],
                )),
                Box::new(lit(Value::None)),
            )),
        ),
        CExpr::Short(
            BinOp::Or,
            Box::new(CExpr::Move(MoveField::Book, "book")),
            Box::new(bin(
                BinOp::Eq,
                hidden(lit(Value::Num(1.0))),
                lit(Value::Bool(true)),
            )),
        ),
        // coded columns against each other: texts chosen by two
        // conditions, and a side's name against a choice of it
        bin(
            BinOp::Eq,
            choice(MoveField::Capture, "a", "b"),
            choice(MoveField::Book, "b", "c"),
        ),
        CExpr::Binary(
            BinOp::Ne,
            Box::new(CExpr::Move(MoveField::Side, "side")),
            Box::new(CExpr::If(
                Box::new(CExpr::Move(MoveField::Capture, "capture")),
                Box::new(lit(Value::Str("white".into()))),
                Box::new(CExpr::Move(MoveField::Side, "side")),
            )),
        ),
    ]
}

/// Every stateful call over generated arguments, `reset`, `over` and
/// `per` gives what stepping a slot with the walk's values at each move
/// gives.
fn stateful_calls_give_what_the_walk_gives(view: Cols<'_, '_, '_>, probe: &mut Probe<'_, '_>) {
    let (column_lets, values) = (probe.column_lets, probe.values);
    let (g, walk) = (&mut *probe.g, &mut *probe.walk);
    let funcs = [
        StatefulFn::Streak,
        StatefulFn::Count,
        StatefulFn::Sum,
        StatefulFn::Since,
        StatefulFn::Last,
        StatefulFn::Previous,
    ];
    let moving = moving_parts();
    let mut part = |g: &mut Gen, depth: u32| {
        if g.next(3) > 0 {
            return moving[g.next(moving.len())].clone();
        }
        loop {
            let e = g.expr(depth, values);
            if columnar(&e, column_lets) {
                return e;
            }
        }
    };
    let mut seen = std::collections::BTreeSet::new();
    for k in 0..1_200 {
        let maybe = |g: &mut Gen, p: &mut dyn FnMut(&mut Gen, u32) -> CExpr| {
            if g.next(3) == 0 {
                return None;
            }
            let depth = 1 + g.next(3) as u32;
            Some(p(g, depth))
        };
        let s = Stateful {
            slot: 0,
            func: funcs[k % funcs.len()],
            arg: part(g, 1 + (k % 3) as u32),
            over: maybe(g, &mut part),
            reset: maybe(g, &mut part),
            per: maybe(g, &mut part),
            on: Kind::Move,
        };
        let got = view.stateful(&s);
        let mut slot = Slot::default();
        for r in 0..view.n() {
            walk(r, &mut |ctx| {
                let reset = s
                    .reset
                    .as_ref()
                    .is_some_and(|e| ctx.truth(e) == Truth::True);
                let over = s.over.as_ref().is_none_or(|e| ctx.truth(e) == Truth::True);
                let arg = match s.func {
                    StatefulFn::Streak | StatefulFn::Count | StatefulFn::Since => {
                        Value::Bool(ctx.truth(&s.arg) == Truth::True)
                    }
                    StatefulFn::Sum => ctx.num(&s.arg).value(),
                    _ => ctx.eval(&s.arg),
                };
                let key = s.per.as_ref().map(|e| ctx.eval(e));
                slot.step(s.func, reset, over, arg, key.as_ref());
            });
            assert_eq!(
                format!("{:?}", got.value_at(r)),
                format!("{:?}", slot.current),
                "{s:?} at {r}"
            );
            seen.insert((k % funcs.len(), slot.current.display()));
        }
    }
    // streaks, counts and sums reach several values each, and `since`,
    // `last` and `previous` both truths and values of the move
    for (f, least) in [(0, 4), (1, 4), (2, 4), (3, 2), (4, 4), (5, 4)] {
        let n = seen.iter().filter(|(g, _)| *g == f).count();
        assert!(n >= least, "{:?}: {n} values", funcs[f]);
    }
}

/// The parts of a stateful call that change from move to move, or that
/// are one value at every move.
fn moving_parts() -> Vec<CExpr> {
    // the parts of a stateful call: a generated expression, or one of
    // the move's that change from move to move (so that streaks run,
    // are cut and reset, and keys differ)
    let field = |f, name| Box::new(CExpr::Move(f, name));
    let num = |x| Box::new(CExpr::Lit(Value::Num(x)));
    vec![
        CExpr::Move(MoveField::Capture, "capture"),
        CExpr::Move(MoveField::Book, "book"),
        CExpr::Move(MoveField::Score, "score"),
        CExpr::Move(MoveField::Depth, "depth"),
        CExpr::Move(MoveField::Side, "side"),
        CExpr::Binary(
            BinOp::Eq,
            field(MoveField::Side, "side"),
            Box::new(CExpr::Lit(Value::Str("white".into()))),
        ),
        CExpr::Binary(BinOp::Ge, field(MoveField::Score, "score"), num(0.1)),
        CExpr::Binary(
            BinOp::Le,
            Box::new(CExpr::Call(
                Builtin::Abs,
                vec![CExpr::Move(MoveField::Score, "score")],
            )),
            num(0.32),
        ),
        CExpr::Binary(BinOp::Gt, field(MoveField::Depth, "depth"), num(19.0)),
        CExpr::Unary(UnOp::Not, field(MoveField::Capture, "capture")),
        // a key that is a text at some moves and a truth at others,
        // the same text either way (`per` keys by the text)
        CExpr::If(
            field(MoveField::Capture, "capture"),
            Box::new(CExpr::Lit(Value::Str("false".into()))),
            field(MoveField::Book, "book"),
        ),
        // one value at every move: a reset that always holds, an
        // `over` or argument that never does, a sum of zeros or of
        // none (which the columns give at once) and of ones (which
        // they count)
        CExpr::Lit(Value::Bool(true)),
        CExpr::Lit(Value::Bool(false)),
        CExpr::Lit(Value::Num(0.0)),
        CExpr::Lit(Value::Num(-0.0)),
        CExpr::Lit(Value::Num(1.0)),
        CExpr::Lit(Value::None),
    ]
}

//! The unboxed numbers and truths, and the walk through them, held to
//! what the language defines on values.

use super::ctx::{Ctx, DetectorCache, Run};
use super::typed::{Num, Truth};
use super::*;
use crate::rules::analysis::Builtin;
use crate::rules::syntax::ast::BinOp;

/// The operators as the language defines them on values: what the
/// unboxed paths must give.
fn binary(op: BinOp, x: Value, y: Value) -> Value {
    use Value::*;
    match op {
        BinOp::And => match (&x, &y) {
            (Bool(false), _) | (_, Bool(false)) => Bool(false),
            (Unknown, _) | (_, Unknown) => Unknown,
            (Bool(true), Bool(true)) => Bool(true),
            _ => Bool(false),
        },
        BinOp::Or => match (&x, &y) {
            (Bool(true), _) | (_, Bool(true)) => Bool(true),
            (Unknown, _) | (_, Unknown) => Unknown,
            _ => Bool(false),
        },
        _ if matches!(x, Unknown) || matches!(y, Unknown) => Unknown,
        BinOp::Eq => Bool(x == y),
        BinOp::Ne => Bool(x != y),
        BinOp::In => match y {
            List(l) => Bool(l.contains(&x)),
            _ => Bool(false),
        },
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => match (x, y) {
            (Num(a), Num(b)) => Bool(match op {
                BinOp::Lt => a < b,
                BinOp::Le => a <= b,
                BinOp::Gt => a > b,
                _ => a >= b,
            }),
            _ => Bool(false),
        },
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => match (x, y) {
            (Num(a), Num(b)) => {
                let r = match op {
                    BinOp::Add => a + b,
                    BinOp::Sub => a - b,
                    BinOp::Mul => a * b,
                    _ if b == 0.0 => return None,
                    _ => a / b,
                };
                if r.is_finite() { Num(r) } else { None }
            }
            _ => None,
        },
    }
}

/// `abs`, `floor`, `ceil`, `round`, `min` and `max` as the language
/// defines them on values (`unknown` if an argument is, none unless
/// every argument is a number).
fn builtin_on_values(f: Builtin, x: &Value, y: &Value) -> Value {
    if matches!(x, Value::Unknown) || matches!(y, Value::Unknown) {
        return Value::Unknown;
    }
    let one: fn(f64) -> f64 = match f {
        Builtin::Abs => f64::abs,
        Builtin::Floor => f64::floor,
        Builtin::Ceil => f64::ceil,
        Builtin::Round => f64::round,
        _ => {
            return match (x, y) {
                (Value::Num(a), Value::Num(b)) => Value::Num(if f == Builtin::Min {
                    a.min(*b)
                } else {
                    a.max(*b)
                }),
                _ => Value::None,
            };
        }
    };
    match x {
        Value::Num(a) => Value::Num(one(*a)),
        _ => Value::None,
    }
}

/// Two values the same to every reader (a NaN is the same NaN).
macro_rules! assert_same {
    ($got:expr, $want:expr, $($what:tt)+) => {{
        let (got, want) = (&$got, &$want);
        assert!(
            typed::identical(got, want),
            "{}: {got:?}, expected {want:?}",
            format!($($what)+)
        );
    }};
}

/// The unboxed paths, and `eval` and `builtin` through them, give what
/// the language defines on values (`binary`, `builtin_on_values`), for
/// every operator and numeric builtin and every kind of value on either
/// side; `not` and `-` likewise.
#[test]
fn unboxed_logic_and_arithmetic_agree_with_values() {
    let values = [
        Value::Num(2.0),
        Value::Num(-3.5),
        Value::Num(0.0),
        Value::Num(f64::MAX),
        // the edges of floats: a signed zero, a sum that overflows,
        // the infinities and NaN
        Value::Num(-0.0),
        Value::Num(1e300),
        Value::Num(f64::INFINITY),
        Value::Num(f64::NEG_INFINITY),
        Value::Num(f64::NAN),
        Value::Num(-f64::NAN),
        Value::Bool(true),
        Value::Bool(false),
        Value::Str("x".into()),
        Value::List(vec![Value::Num(2.0)]),
        Value::None,
        Value::Unknown,
    ];
    let detectors = Detectors::default();
    let cache = DetectorCache::default();
    let run = Run::bare(&[], &detectors, &cache);
    let (mut notes, mut evidence) = (Vec::new(), Vec::new());
    let mut ctx = Ctx::stateless(&run, &[], 0, None, &mut notes, &mut evidence);
    for x in &values {
        for y in &values {
            for op in [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div] {
                let want = binary(op, x.clone(), y.clone());
                assert_same!(
                    Num::of(x).arith(op, Num::of(y)).value(),
                    want,
                    "{x:?} {op:?} {y:?}"
                );
            }
            for op in [BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge] {
                let want = binary(op, x.clone(), y.clone());
                assert_same!(
                    Num::of(x).compare(op, Num::of(y)).value(),
                    want,
                    "{x:?} {op:?} {y:?}"
                );
            }
            // and the whole path, eval through num and truth
            for op in BinOp::ALL {
                let e = CExpr::Binary(
                    op,
                    Box::new(CExpr::Lit(x.clone())),
                    Box::new(CExpr::Lit(y.clone())),
                );
                let want = binary(op, x.clone(), y.clone());
                assert_same!(ctx.eval(&e), want, "eval {x:?} {op:?} {y:?}");
            }
            let and = binary(BinOp::And, x.clone(), y.clone());
            assert_same!(
                Truth::of(x).and(Truth::of(y)).value(),
                and,
                "{x:?} and {y:?}"
            );
            let or = binary(BinOp::Or, x.clone(), y.clone());
            assert_same!(Truth::of(x).or(Truth::of(y)).value(), or, "{x:?} or {y:?}");
            for f in [Builtin::Min, Builtin::Max] {
                let want = builtin_on_values(f, x, y);
                assert_same!(
                    Num::of(x).call2(f, Num::of(y)).value(),
                    want,
                    "{f:?}({x:?}, {y:?})"
                );
                let got = ctx.builtin(f, [x.clone(), y.clone()]);
                assert_same!(got, want, "builtin {f:?}({x:?}, {y:?})");
            }
        }
        let not = match x {
            Value::Unknown => Value::Unknown,
            Value::Bool(b) => Value::Bool(!b),
            _ => Value::Bool(true),
        };
        assert_same!(Truth::of(x).not().value(), not, "not {x:?}");
        let neg = match x {
            Value::Unknown => Value::Unknown,
            Value::Num(n) => Value::Num(-n),
            _ => Value::None,
        };
        assert_same!(Num::of(x).neg().value(), neg, "- {x:?}");
        for f in [Builtin::Abs, Builtin::Floor, Builtin::Ceil, Builtin::Round] {
            let want = builtin_on_values(f, x, &Value::None);
            assert_same!(Num::of(x).call1(f).value(), want, "{f:?}({x:?})");
            let got = ctx.builtin(f, [x.clone(), Value::None]);
            assert_same!(got, want, "builtin {f:?}({x:?})");
        }
    }
}

/// A ruleset of `rulesets/`, compiled.
fn shipped(name: &str) -> Ruleset {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(root.join("rulesets").join(name)).unwrap();
    crate::rules::compile(name, &src).unwrap()
}

/// Every game of a file of `tests/fixtures/`, read and replayed.
fn fixture_games(name: &str) -> Vec<(crate::ingest::pgn::PgnGame, crate::replay::Replay)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::File::open(root.join("tests/fixtures").join(name)).unwrap();
    let mut games = crate::ingest::pgn::GameSplitter::new(std::io::BufReader::new(file));
    let mut out = Vec::new();
    while let Some(chunk) = games.next_chunk().unwrap() {
        let pgn = crate::ingest::pgn::parse_game(&chunk);
        let replay = crate::replay::replay(&pgn);
        out.push((pgn, replay));
    }
    out
}

/// A tallied run counts, for each `forbid` and `require` rule, as many
/// violations as the same run makes findings of that rule, and makes none
/// of them; its adjudication and its undecided ply are the run's. On the
/// generated archive of counter conventions, under the text's values (its
/// counters disagree) and under a variant that reads other fields.
#[test]
fn a_tallied_run_counts_what_the_run_finds() {
    let rs = shipped("tcec-s15.rules");
    let detectors = Detectors::default();
    let (mut counted, mut games_seen) = (0, 0);
    for (pgn, replay) in fixture_games("fit/conventions.pgn") {
        let tl = Timeline::build(&pgn, &replay);
        let pre = Prepared::new(&tl);
        let prog = Program::for_game(&rs, None, &tl).unwrap();
        let made = run_prepared(&prog, &tl, &pre, &detectors, "g.pgn");
        let tallied = run_tallied(&prog, &tl, &pre, &detectors, "g.pgn", Tallied::default());
        assert_eq!(tallied.tally.len(), rs.rules.len());
        assert!(made.tally.is_empty());
        for (k, rule) in rs.rules.iter().enumerate() {
            let found = made.findings.iter().filter(|f| f.rule == rule.id).count();
            let left = tallied
                .findings
                .iter()
                .filter(|f| f.rule == rule.id)
                .count();
            assert_eq!(tallied.tally[k] as usize + left, found, "rule {}", rule.id);
            if matches!(rule.check, Check::Forbid { .. } | Check::Require { .. }) {
                assert_eq!(left, 0, "rule {} made a finding", rule.id);
            }
            counted += tallied.tally[k];
        }
        assert_eq!(
            tallied.computed.map(|c| (c.rule, c.ply)),
            made.computed.map(|c| (c.rule, c.ply))
        );
        assert_eq!(tallied.undecided_from, made.undecided_from);
        games_seen += 1;
    }
    assert!(
        games_seen > 0 && counted > 0,
        "{games_seen} games, {counted} counted"
    );
}

/// A tallied run that takes its `let` columns from a run at other values
/// gives what a run that makes them gives, where it takes only the `let`s
/// that read none of the values changed; and the columns are read: taking
/// every `let`, the counter the changed constant reaches is wrong.
#[test]
fn a_run_given_the_lets_that_read_no_changed_value_gives_the_same() {
    let rs = shipped("tcec-s15.rules");
    // the draw rule's band: its streak is a column
    let changed = rs.consts.iter().position(|(n, _)| n == "draw_eval");
    let changed = changed.expect("the ruleset has draw_eval");
    // the `let`s that read the constant, directly or through earlier ones
    fn reads(e: &CExpr, c: usize, lets: &[bool]) -> bool {
        let mut found = match e {
            CExpr::Const(j) => *j == c,
            CExpr::Let(l) => lets.get(*l).copied().unwrap_or(true),
            _ => false,
        };
        e.each_child(&mut |x| found |= reads(x, c, lets));
        found
    }
    let mut fresh: Vec<bool> = Vec::new();
    for l in &rs.lets {
        let r = reads(&l.expr, changed, &fresh);
        fresh.push(r);
    }
    assert!(fresh.iter().any(|f| *f) && fresh.iter().any(|f| !*f));
    let take: Vec<bool> = fresh.iter().map(|f| !f).collect();
    let all = vec![true; rs.lets.len()];
    let over = Overrides {
        consts: vec![(changed, Value::Num(0.2))],
        ..Overrides::default()
    };
    let detectors = Detectors::default();
    let mut wrong_when_all_taken = 0;
    for (pgn, replay) in fixture_games("fit/conventions.pgn") {
        let tl = Timeline::build(&pgn, &replay);
        let pre = Prepared::new(&tl);
        let at_text = Program::for_game(&rs, None, &tl).unwrap();
        let keep = Tallied {
            given: None,
            keep: true,
        };
        let kept = run_tallied(&at_text, &tl, &pre, &detectors, "g", keep).lets;
        let kept = kept.expect("the run keeps its columns");
        let prog = Program::for_game_with(&rs, None, &tl, &over).unwrap();
        let made = run_tallied(&prog, &tl, &pre, &detectors, "g", Tallied::default());
        let given = |mask| Tallied {
            given: Some((&kept, mask)),
            keep: false,
        };
        let taken = run_tallied(&prog, &tl, &pre, &detectors, "g", given(&take[..]));
        assert_eq!(taken.tally, made.tally);
        assert_eq!(
            taken.computed.map(|c| (c.rule, c.ply)),
            made.computed.as_ref().map(|c| (c.rule.clone(), c.ply))
        );
        let stale = run_tallied(&prog, &tl, &pre, &detectors, "g", given(&all[..]));
        wrong_when_all_taken += usize::from(stale.tally != made.tally);
    }
    assert!(wrong_when_all_taken > 0, "the given columns were not read");
}

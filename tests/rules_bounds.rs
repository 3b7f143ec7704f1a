//! The rule language's bounds on hostile rulesets (issue 60): long chains
//! of `let`s, constants and variants are checked in linear time, a variant
//! chain past its limit is an error at its place, and expressions exactly
//! at the nesting and height limits are analysed, evaluated and fitted on a
//! thread with a 2 MiB stack (rayon's workers' size), in a debug build.

use super::arbiter;
use std::path::Path;
use std::sync::Arc;

const HEAD: &str = "ruleset t \"T\" { regulation \"r\" }\n";

fn here() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A rule `r.ID` that forbids `cond` on every move.
fn rule(id: &str, cond: &str) -> String {
    format!("rule r.{id} \"{id}\" {{\n  cite \"1\" \"q\"\n  forbid on move when {cond}\n}}\n")
}

/// `arbiter rules check` on `text`: its exit status and its output.
fn check(text: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("t.rules");
    std::fs::write(&p, text).unwrap();
    let o = arbiter(&["rules", "check", &p.to_string_lossy()]);
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code(), out)
}

/// Chains of 2,000 `let`s, each naming the one before twice (once through
/// an `if`: retyped at each use, that took 2^2000 steps), and 15,000 that
/// each name the one before (retyped, that overflowed the stack at
/// 100,000; the ruleset's 100,000-token limit now comes first).
#[test]
fn a_chain_of_lets_checks() {
    for (n, value) in [
        (2_000, "a{p} + a{p}"),
        (2_000, "if a{p} > 1 then a{p} else a{p}"),
        (15_000, "a{p}"),
    ] {
        let mut text = format!("{HEAD}let a0 on move = move.ply\n");
        for i in 1..n {
            let v = value.replace("{p}", &(i - 1).to_string());
            text.push_str(&format!("let a{i} on move = {v}\n"));
        }
        text.push_str(&rule("x", &format!("a{} > 0", n - 1)));
        let (code, out) = check(&text);
        assert_eq!(code, Some(0), "{n} lets of {value}: {out}");
        assert!(out.contains("ok: ruleset t (T), 1 rules"), "{out}");
    }
}

/// The same chains of constants, every tenth of the first 1,000 (whose
/// values are finite) with a `fit` clause (each
/// clause once read every constant's value again), folded once each.
#[test]
fn a_chain_of_constants_checks() {
    for (n, value) in [
        (2_000, "c{p} + c{p}"),
        (2_000, "if c{p} > 1 then c{p} else c{p}"),
        (20_000, "c{p}"),
    ] {
        let mut text = format!("{HEAD}const c0 = 1\n");
        for i in 1..n {
            let v = value.replace("{p}", &(i - 1).to_string());
            let fit = if i % 10 == 0 && n <= 2_000 && i < 1_000 {
                " fit [1, 2]"
            } else {
                ""
            };
            text.push_str(&format!("const c{i} = {v}{fit}\n"));
        }
        text.push_str(&rule("x", &format!("c{} > move.ply", n - 1)));
        let (code, out) = check(&text);
        assert_eq!(code, Some(0), "{n} constants of {value}: {out}");
        assert!(out.contains("ok: ruleset t (T), 1 rules"), "{out}");
    }
}

/// A variant may have 32 ancestors; the first with 33 is an error at its
/// `extends`, however long the chain goes on. 8,000 variants side by
/// side check (each name was compared with every one before).
#[test]
fn a_variant_chain_is_bounded_at_its_place() {
    let chain = |n: usize| {
        let mut text = format!("{HEAD}const k = 1\nvariant v0 {{ const k = 0 }}\n");
        for i in 1..n {
            text.push_str(&format!(
                "variant v{i} extends v{} {{ const k = {i} }}\n",
                i - 1
            ));
        }
        text + &rule("x", "move.ply > k")
    };
    let (code, out) = check(&chain(33));
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("33 variants"), "{out}");
    for n in [34, 5_000] {
        let (code, out) = check(&chain(n));
        assert_eq!(code, Some(2), "{out}");
        assert!(
            out.contains("error: variant `v33` extends a chain of more than 32 variants"),
            "{out}"
        );
        // v33 is on line 36 (after the header, `const k` and v0 … v32);
        // `extends` names its parent from column 21
        assert!(out.contains("t.rules:36:21"), "{out}");
    }
    let mut text = format!("{HEAD}const k = 1\ntime-control tc {{ period all moves in 2h }}\n");
    for i in 0..8_000 {
        text.push_str(&format!(
            "variant v{i} {{ const k = {i} time-control tc }}\n"
        ));
    }
    let (code, out) = check(&(text + &rule("x", "move.ply > k")));
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("8000 variants"), "{out}");
}

/// An expression of one kind of nesting: `m` levels of it around a chain of
/// `n` operators, a condition in all. The chain's operands read the game
/// and the fitted constant `k`.
fn nested(kind: &str, m: usize, n: usize) -> String {
    let num = |n: usize| {
        let mut s = String::from("move.ply");
        for i in 0..n {
            s.push_str(if i % 2 == 0 { " + k" } else { " - move.ply" });
        }
        s
    };
    let truth = |n: usize| {
        let mut s = String::from("move.ply > k");
        for i in 0..n {
            s.push_str(if i % 2 == 0 {
                " or k > 0"
            } else {
                " and move.ply > 0"
            });
        }
        s
    };
    let open = |o: &str, c: &str| (o.repeat(m), c.repeat(m));
    match kind {
        "chain +-" => format!("{} > 0", num(n)),
        "chain */" => {
            let mut s = String::from("move.ply");
            for i in 0..n {
                s.push_str(if i % 2 == 0 { " * k" } else { " / k" });
            }
            format!("{s} >= 1")
        }
        "chain and-or" => truth(n),
        "parentheses" => {
            let (o, c) = open("(", ")");
            format!("{o}{}{c} > 0", num(n))
        }
        "not" => format!("{}({})", "not ".repeat(m), truth(n)),
        "unary minus" => format!("{}({}) != 0.5", "- ".repeat(m), num(n)),
        "list" => {
            let (o, c) = open("[", "]");
            format!("move.ply in [1, {o}{}{c}, move.ply]", num(n))
        }
        "if" => {
            let (o, c) = open("if move.ply > 0 then ", " else false");
            format!("{o}({}){c}", truth(n))
        }
        "call" => {
            let (o, c) = open("abs(", ")");
            format!("{o}{}{c} >= 0", num(n))
        }
        "stateful" => format!("count({}) > 0", truth(n)),
        _ => unreachable!("{kind}"),
    }
}

/// The kinds of nesting [`nested`] writes.
const KINDS: [&str; 10] = [
    "chain +-",
    "chain */",
    "chain and-or",
    "parentheses",
    "not",
    "unary minus",
    "list",
    "if",
    "call",
    "stateful",
];

fn compiles(cond: &str) -> Result<(), String> {
    let text = format!("{HEAD}const k = 1 fit [1, 2]\n{}", rule("x", cond));
    arbiter::rules::compile("t.rules", &text)
        .map(|_| ())
        .map_err(|e| e.render("t.rules", &text))
}

/// The most levels `m` of `kind` accepted (the nesting limit), then the
/// longest chain inside them (the height limit): one operator more is
/// refused as too high, so the expression is exactly at both limits.
fn at_the_limits(kind: &str) -> String {
    let mut m = 0;
    if !kind.starts_with("chain") && kind != "stateful" {
        while compiles(&nested(kind, m + 1, 1)).is_ok() {
            m += 1;
        }
        let refused = compiles(&nested(kind, m + 1, 1)).unwrap_err();
        assert!(refused.contains("nested more than 32 levels"), "{refused}");
    }
    let mut n = 0;
    while compiles(&nested(kind, m, n + 1)).is_ok() {
        n += 1;
    }
    let refused = compiles(&nested(kind, m, n + 1)).unwrap_err();
    assert!(
        refused.contains("expression more than 128 operators deep"),
        "{kind}: {refused}"
    );
    assert!(n >= 90, "{kind}: {m} levels, a chain of only {n}");
    nested(kind, m, n)
}

/// Every kind of nesting exactly at the limits, in rules, a `let`, a
/// stateful call and constants, on a thread with a 2 MiB stack (debug
/// build): the analysis, an audit of a game (whose rules fire on every
/// move) and a fit over `k` all end, and every rule fires.
#[test]
fn expressions_at_the_limits_run_on_a_small_stack() {
    let mut text = format!("{HEAD}const k = 1 fit [1, 2]\n");
    let mut c = String::from("1");
    for _ in 0..127 {
        c.push_str(" + 1");
    }
    text.push_str(&format!("const deep = {c}\n"));
    // 30 unary minus around 97 operators: 128 levels too
    let w = format!("1{}", " + 1".repeat(97));
    text.push_str(&format!("const wide = {}({w})\n", "- ".repeat(30)));
    let mut ids = Vec::new();
    for (i, kind) in KINDS.iter().enumerate() {
        let cond = at_the_limits(kind);
        if *kind != "stateful" {
            text.push_str(&format!("let l{i} on move = {cond}\n"));
        }
        text.push_str(&rule(&format!("k{i}"), &cond));
        ids.push(format!("r.k{i}"));
    }
    text.push_str(&rule("lets", "l0 and l4 and l8 and deep >= wide"));
    ids.push("r.lets".into());
    let pgn = here().join("samples/kasparov-deep-junior-2003.pgn");
    let run = move || {
        let rs = arbiter::rules::compile("t.rules", &text).expect("at the limits, it compiles");
        let rs = Arc::new(rs);
        let games = arbiter::pipeline::fit::read_games(&pgn).unwrap();
        let config = arbiter::pipeline::Config {
            ruleset: Some(rs.clone()),
            clocks: true,
            ..Default::default()
        };
        let a = arbiter::pipeline::audit_game("g.pgn", games[0].pgn.clone(), &config);
        let fired: Vec<String> = a.findings.iter().map(|f| f.rule.clone()).collect();
        let list: Vec<_> = games.iter().collect();
        let detectors = arbiter::rules::eval::Detectors::default();
        let fit = arbiter::rules::fit::fit_group(&rs, "g", &list, None, &detectors)
            .map(|f| f.evaluations)
            .map_err(|e| e.to_string());
        (fired, fit)
    };
    let (fired, fit) = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(run)
        .unwrap()
        .join()
        .expect("no stack overflow on 2 MiB");
    for id in &ids {
        assert!(fired.contains(id), "{id} did not fire: {fired:?}");
    }
    let evaluations = fit.unwrap();
    assert!(evaluations >= 2, "the fit tried both values: {evaluations}");
}

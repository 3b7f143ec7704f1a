//! Ruleset diagnostics: each kind of mistake is reported at its exact line,
//! column and width, with what was expected (see just's error tests).

use arbiter::rules::compile;

const HEAD: &str = "ruleset t \"T\" { regulation \"r\" }\n";

/// Compile `body` after a header line; return (line, column, len, message, help).
/// The rendered diagnostic is compared whole with its snapshot
/// (`tests/snapshots/cli__rules_lang__TEST.snap`).
fn err(body: &str) -> (usize, usize, usize, String, String) {
    let src = format!("{HEAD}{body}");
    let e = compile("t.rules", &src).expect_err("must not compile");
    snapshot(&e.render("t.rules", &src));
    (
        e.pos.line,
        e.pos.column,
        e.pos.len,
        e.message,
        e.help.unwrap_or_default(),
    )
}

/// Compare a rendered diagnostic with the snapshot named after the test
/// (libtest runs each test on a thread of its name), numbered from the
/// second one a test makes.
fn snapshot(rendered: &str) {
    thread_local!(static MADE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) });
    let n = MADE.with(|m| {
        m.set(m.get() + 1);
        m.get()
    });
    let thread = std::thread::current();
    let test = thread
        .name()
        .expect("a test runs on a thread named after it");
    let test = test.rsplit("::").next().unwrap_or(test);
    let name = if n == 1 {
        test.to_string()
    } else {
        format!("{test}-{n}")
    };
    insta::assert_snapshot!(name, rendered);
}

#[track_caller]
fn at(body: &str, line: usize, column: usize, len: usize, message: &str) -> String {
    let (l, c, n, m, h) = err(body);
    assert_eq!((l, c, n), (line, column, len), "position of {m:?}");
    assert!(m.contains(message), "message {m:?} lacks {message:?}");
    h
}

#[test]
fn unexpected_character() {
    at("const a = 3 @ 4\n", 2, 13, 1, "unexpected character `@`");
}

#[test]
fn unterminated_string() {
    at("const a = \"open\n", 2, 11, 1, "unterminated string");
}

#[test]
fn unknown_unit() {
    let h = at("const a = 5parsecs\n", 2, 12, 7, "unknown unit `parsecs`");
    assert!(h.contains("ms, s, m"));
}

#[test]
fn unknown_declaration_with_suggestion() {
    let h = at("rul x \"t\" {}\n", 2, 1, 3, "unknown declaration `rul`");
    assert_eq!(h, "did you mean `rule`?");
}

#[test]
fn unknown_rule_item_with_suggestion() {
    let h = at(
        "rule a.b \"t\" {\n  cyte \"1\" \"x\"\n}\n",
        3,
        3,
        4,
        "unknown rule item `cyte`",
    );
    assert_eq!(h, "did you mean `cite`?");
}

#[test]
fn unknown_field_with_suggestion() {
    let h = at(
        "rule a.b \"t\" {\n  cite \"1\" \"x\"\n  forbid on move when abs(move.scor) <= 0.08\n}\n",
        4,
        32,
        4,
        "`move` has no field `scor`",
    );
    assert_eq!(h, "did you mean `score`?");
}

#[test]
fn unknown_name_with_suggestion() {
    let h = at(
        "const draw_eval = 0.08\nrule a.b \"t\" {\n  cite \"1\" \"x\"\n  forbid on move when move.score <= draw_evl\n}\n",
        5,
        37,
        8,
        "unknown name `draw_evl`",
    );
    assert_eq!(h, "did you mean `draw_eval`?");
}

#[test]
fn unknown_event_kind_with_suggestion() {
    let h = at(
        "rule a.b \"t\" {\n  cite \"1\" \"x\"\n  forbid on mov\n}\n",
        4,
        13,
        3,
        "unknown event kind `mov`",
    );
    assert_eq!(h, "did you mean `move`?");
}

#[test]
fn rule_without_citation() {
    let h = at(
        "rule a.b \"t\" {\n  forbid on move\n}\n",
        2,
        6,
        3,
        "rule `a.b` cites no clause",
    );
    assert!(h.contains("cite"));
}

#[test]
fn rule_without_check() {
    at(
        "rule a.b \"t\" {\n  cite \"1\" \"x\"\n}\n",
        2,
        6,
        3,
        "does not say what it checks",
    );
}

#[test]
fn two_checks_in_one_rule() {
    at(
        "rule a.b \"t\" {\n  cite \"1\" \"x\"\n  manual \"look\"\n  forbid on move\n}\n",
        5,
        3,
        6,
        "already says what it checks",
    );
}

#[test]
fn duplicate_rule_id() {
    at(
        "rule a.b \"t\" {\n  cite \"1\" \"x\"\n  manual \"m\"\n}\nrule a.b \"u\" {\n  cite \"1\" \"x\"\n  manual \"m\"\n}\n",
        6,
        6,
        3,
        "rule `a.b` is already defined on line 2",
    );
}

#[test]
fn unknown_severity_with_suggestion() {
    let h = at(
        "rule a.b \"t\" {\n  cite \"1\" \"x\"\n  severity eror\n  manual \"m\"\n}\n",
        4,
        12,
        4,
        "unknown severity `eror`",
    );
    assert_eq!(h, "did you mean `error`?");
}

#[test]
fn condition_that_is_not_a_condition() {
    at(
        "rule a.b \"t\" {\n  cite \"1\" \"x\"\n  forbid on move when move.score + 1\n}\n",
        4,
        23,
        14,
        "expected a condition",
    );
}

#[test]
fn type_error_in_comparison() {
    at(
        "rule a.b \"t\" {\n  cite \"1\" \"x\"\n  forbid on move when move.san < 3\n}\n",
        4,
        23,
        8,
        "`<` needs a number, found a string",
    );
}

#[test]
fn field_of_another_event_kind() {
    at(
        "rule a.b \"t\" {\n  cite \"1\" \"x\"\n  forbid on option when move.capture\n}\n",
        4,
        25,
        4,
        "`move` fields are not available here",
    );
}

#[test]
fn event_value_in_a_constant() {
    at("const a = move.ply\n", 2, 11, 8, "changes during the game");
}

#[test]
fn stateful_call_nested_or_in_message() {
    at(
        "let x on move = streak(count(move.capture) > 1)\n",
        2,
        24,
        19,
        "`count` keeps state across events",
    );
    at(
        "rule a.b \"t\" {\n  cite \"1\" \"x\"\n  message \"{count(true)}\"\n  forbid on move\n}\n",
        4,
        13,
        11,
        "`count` keeps state across events",
    );
}

#[test]
fn unknown_function_with_suggestion() {
    let h = at(
        "let x on move = streek(true)\n",
        2,
        17,
        6,
        "unknown function `streek`",
    );
    assert_eq!(h, "did you mean `streak`?");
}

#[test]
fn wrong_argument_count() {
    at(
        "let x on move = abs(1, 2)\n",
        2,
        17,
        9,
        "`abs` takes 1 argument, found 2",
    );
}

#[test]
fn variant_inheritance_cycle() {
    at(
        "variant a extends b { }\nvariant b extends c { }\nvariant c extends a { }\n",
        4,
        19,
        1,
        "variant inheritance cycle: a → b → c → a",
    );
}

#[test]
fn unknown_parent_variant() {
    let h = at(
        "variant div-1 { }\nvariant sf extends div1 { }\n",
        3,
        20,
        4,
        "unknown variant `div1`",
    );
    assert_eq!(h, "did you mean `div-1`?");
}

#[test]
fn chained_comparison() {
    at(
        "rule a.b \"t\" {\n  cite \"1\" \"x\"\n  forbid on move when 1 < move.ply < 3\n}\n",
        4,
        36,
        1,
        "comparisons cannot be chained",
    );
}

#[test]
fn missing_header() {
    let e = compile("t.rules", "const a = 1\n").unwrap_err();
    assert_eq!((e.pos.line, e.pos.column), (1, 1));
    assert!(e.message.contains("no `ruleset` header"));
}

#[test]
fn deep_nesting_is_refused_not_a_stack_overflow() {
    let deep = format!("const a = {}1{}\n", "(".repeat(10_000), ")".repeat(10_000));
    let (l, _, _, m, _) = err(&deep);
    assert_eq!(l, 2);
    assert!(m.contains("nested more than 32 levels"), "{m}");
    let nots = format!("let x on move = {}true\n", "not ".repeat(10_000));
    let (_, _, _, m, _) = err(&nots);
    assert!(m.contains("nested more than 32 levels"), "{m}");
}

#[test]
fn huge_numbers_are_refused() {
    at("const a = 99999999999999999999\n", 2, 11, 20, "too large");
}

#[test]
fn rendered_error_has_file_line_column_and_caret() {
    let src = format!(
        "{HEAD}rule a.b \"t\" {{\n  cite \"1\" \"x\"\n  forbid on move when abs(move.scor) <= 0.08\n}}\n"
    );
    let e = compile("x.rules", &src).unwrap_err();
    let r = e.render("x.rules", &src);
    assert!(r.contains("--> x.rules:4:32"), "{r}");
    assert!(r.contains(" |                                ^^^^"), "{r}");
    assert!(r.contains("= help: did you mean `score`?"), "{r}");
    snapshot(&r);
}

#[test]
fn the_shipped_rulesets_compile() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "rules") {
            let src = std::fs::read_to_string(&p).unwrap();
            if let Err(e) = compile(&p.display().to_string(), &src) {
                panic!("{}", e.render(&p.display().to_string(), &src));
            }
            n += 1;
        }
    }
    assert!(n >= 1);
}

/// Mangled rulesets get an error, never a panic: delete, duplicate or
/// replace bytes at many places in the real TCEC ruleset.
#[test]
fn mangled_rulesets_never_panic() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/rulesets/tcec-s15.rules"
    ))
    .unwrap();
    let bytes = src.as_bytes();
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..800 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let at = (x as usize) % bytes.len();
        let mut m = bytes.to_vec();
        match x % 3 {
            0 => {
                m.remove(at);
            }
            1 => m.insert(at, m[at]),
            _ => m[at] = b"{}()[]\"=.,:-#x9 \n"[(x >> 40) as usize % 17],
        }
        let Ok(text) = String::from_utf8(m) else {
            continue;
        };
        let r = std::panic::catch_unwind(|| {
            if let Err(e) = compile("m.rules", &text) {
                let _ = e.render("m.rules", &text);
            }
        });
        assert!(
            r.is_ok(),
            "panic on a mangled ruleset (mutation at byte {at})"
        );
    }
}

/// `and` and `or` skip their right side when the left decides, but only
/// where the right side calls no detector: a detector's notes and evidence
/// are part of what a rule reports, so it is always evaluated.
#[test]
fn and_or_skip_only_a_right_side_without_a_detector() {
    use arbiter::rules::analysis::{CExpr, Check};
    use arbiter::rules::syntax::ast::BinOp;
    let src = format!(
        "{HEAD}let plain on move = move.capture and move.check\n\
         rule a.b \"X\" {{\n  cite \"1\" \"q\"\n  forbid on move when move.capture and hidden_book(min_run: 2) == true\n}}\n"
    );
    let rs = compile("t.rules", &src).unwrap();
    assert!(
        matches!(rs.lets[0].expr, CExpr::Short(BinOp::And, ..)),
        "{:?}",
        rs.lets[0].expr
    );
    let Check::Forbid { when: Some(w), .. } = &rs.rules[0].check else {
        panic!("a forbid rule")
    };
    assert!(matches!(w, CExpr::Binary(BinOp::And, ..)), "{w:?}");
}

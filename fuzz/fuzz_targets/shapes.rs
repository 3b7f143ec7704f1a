//! Rulesets of a hostile shape: long chains of every binary operator and
//! deep nesting of every kind (parentheses, `not`, unary minus, lists,
//! `if`, calls), built from a list of layers, each wrapped around the one
//! before. The `rules_shapes` fuzz target and `tests/properties.rs` share
//! it.

/// The kinds of layer: 13 binary operators, then 7 kinds of nesting.
pub const KINDS: usize = 20;

/// The binary operators, in the order of the kinds.
const OPS: [&str; 13] = [
    "+", "-", "*", "/", "and", "or", "<", "<=", ">", ">=", "==", "!=", "in",
];

/// An expression being built: its text, and whether it is a condition
/// (else a number).
struct Built {
    text: String,
    truth: bool,
}

impl Built {
    /// As a number (a condition becomes `if … then 1 else 0`).
    fn num(self) -> String {
        if self.truth {
            format!("if {} then 1 else 0", self.text)
        } else {
            self.text
        }
    }

    /// As a condition (a number becomes `… > 0`).
    fn truth(self) -> String {
        if self.truth {
            self.text
        } else {
            format!("({}) > 0", self.text)
        }
    }
}

/// One layer of kind `kind % KINDS`, `count` times, around `e`; `leaf` is
/// the number a chain's other operands read.
fn layer(e: Built, kind: usize, count: usize, leaf: &str) -> Built {
    let kind = kind % KINDS;
    let chain = |first: String, op: &str, operand: &str| {
        let mut s = format!("({first})");
        for _ in 0..count {
            s.push(' ');
            s.push_str(op);
            s.push(' ');
            s.push_str(operand);
        }
        s
    };
    let nest = |open: &str, inner: String, close: &str| {
        let mut s = open.repeat(count);
        s.push_str(&inner);
        s.push_str(&close.repeat(count));
        s
    };
    let (text, truth) = match kind {
        0..4 => (chain(e.num(), OPS[kind], leaf), false),
        4 | 5 => (chain(e.truth(), OPS[kind], &format!("{leaf} > 1")), true),
        // comparisons do not chain: past one, a diagnostic
        6..12 => (chain(e.num(), OPS[kind], leaf), true),
        // `in` does not chain either: a list of `count` more items
        12 => (
            format!("({}) in [{leaf}{}]", e.num(), ", 1".repeat(count)),
            true,
        ),
        13 => (nest("(", e.text, ")"), e.truth),
        14 => (nest("not ", format!("({})", e.truth()), ""), true),
        15 => (nest("- ", format!("({})", e.num()), ""), false),
        16 => (format!("{leaf} in {}", nest("[", e.num(), ", 1]")), true),
        17 => {
            let truth = e.truth;
            let other = if truth { "false" } else { "0" };
            let close = format!(" else {other}");
            (nest(&format!("if {leaf} > 0 then "), e.text, &close), truth)
        }
        18 => (nest("abs(", e.num(), ")"), false),
        _ => (nest("max(1, ", e.num(), ")"), false),
    };
    Built { text, truth }
}

/// A ruleset whose `let`, constant and rule are `layers` (kind, count)
/// wrapped one around the other, innermost first.
pub fn ruleset(layers: &[(usize, usize)]) -> String {
    let expr = |leaf: &str| {
        let mut e = Built {
            text: leaf.to_string(),
            truth: false,
        };
        for &(kind, count) in layers {
            e = layer(e, kind, count, leaf);
        }
        e
    };
    let game = expr("move.ply");
    let truth = game.truth;
    // a call is not a constant: then the constant is plain
    let calls = layers.iter().any(|&(kind, _)| kind % KINDS >= 18);
    let constant = if calls {
        "0".to_string()
    } else {
        expr("k").num()
    };
    let value = if truth { "if x then 1 else 0" } else { "x" };
    format!(
        "ruleset t \"T\" {{ regulation \"r\" }}\n\
         const k = 2 fit [1, 2]\n\
         const c = {constant}\n\
         let x on move = {}\n\
         rule r.x \"x\" {{\n  cite \"1\" \"q\"\n  forbid on move when ({value}) > c\n}}\n",
        game.text
    )
}

/// The layers a fuzzer's bytes give: each three bytes a kind and a count
/// (up to 65,535), at most 8 layers.
pub fn layers(data: &[u8]) -> Vec<(usize, usize)> {
    data.chunks_exact(3)
        .take(8)
        .map(|b| (b[0] as usize, u16::from_le_bytes([b[1], b[2]]) as usize))
        .collect()
}

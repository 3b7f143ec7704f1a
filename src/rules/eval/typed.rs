//! Unboxed values for the walk: a number and a four-state truth, so that
//! arithmetic, comparisons and logic make no `Value` on the way.

use crate::base::value::Value;
use crate::rules::analysis::Builtin;
use crate::rules::syntax::ast::BinOp;

/// A value as arithmetic and comparisons see it: a number, `unknown` (a
/// detector could not decide), or anything else (none, text, a boolean, a
/// list), which makes arithmetic `none` and a comparison false.
#[derive(Debug, Clone, Copy)]
pub(super) enum Num {
    Is(f64),
    Unknown,
    Other,
}

impl Num {
    pub(super) fn of(v: &Value) -> Num {
        match v {
            Value::Num(n) => Num::Is(*n),
            Value::Unknown => Num::Unknown,
            _ => Num::Other,
        }
    }

    pub(super) fn neg(self) -> Num {
        match self {
            Num::Is(n) => Num::Is(-n),
            other => other,
        }
    }

    /// `+ - * /`: `unknown` if either side is, a finite number, or none
    /// (not numbers, a division by zero, an overflow).
    #[inline]
    pub(super) fn arith(self, op: BinOp, y: Num) -> Num {
        match (self, y) {
            (Num::Unknown, _) | (_, Num::Unknown) => Num::Unknown,
            (Num::Is(a), Num::Is(b)) => {
                let r = match op {
                    BinOp::Add => a + b,
                    BinOp::Sub => a - b,
                    BinOp::Mul => a * b,
                    _ if b == 0.0 => return Num::Other,
                    _ => a / b,
                };
                if r.is_finite() {
                    Num::Is(r)
                } else {
                    Num::Other
                }
            }
            _ => Num::Other,
        }
    }

    /// `abs`, `floor`, `ceil`, `round` (the others give none).
    #[inline]
    pub(super) fn call1(self, f: Builtin) -> Num {
        match self {
            Num::Is(x) => match f {
                Builtin::Abs => Num::Is(x.abs()),
                Builtin::Floor => Num::Is(x.floor()),
                Builtin::Ceil => Num::Is(x.ceil()),
                Builtin::Round => Num::Is(x.round()),
                _ => Num::Other,
            },
            other => other,
        }
    }

    /// `min`, `max` (the others give none).
    pub(super) fn call2(self, f: Builtin, y: Num) -> Num {
        match (self, y) {
            (Num::Unknown, _) | (_, Num::Unknown) => Num::Unknown,
            (Num::Is(a), Num::Is(b)) => match f {
                Builtin::Min => Num::Is(a.min(b)),
                Builtin::Max => Num::Is(a.max(b)),
                _ => Num::Other,
            },
            _ => Num::Other,
        }
    }

    /// `< <= > >=`: `unknown` if either side is, false unless both are
    /// numbers.
    #[inline]
    pub(super) fn compare(self, op: BinOp, y: Num) -> Truth {
        match (self, y) {
            (Num::Unknown, _) | (_, Num::Unknown) => Truth::Unknown,
            (Num::Is(a), Num::Is(b)) => Truth::from(match op {
                BinOp::Lt => a < b,
                BinOp::Le => a <= b,
                BinOp::Gt => a > b,
                _ => a >= b,
            }),
            _ => Truth::False,
        }
    }

    pub(super) fn value(self) -> Value {
        match self {
            Num::Is(n) => Value::Num(n),
            Num::Unknown => Value::Unknown,
            Num::Other => Value::None,
        }
    }
}

/// A value as logic sees it: true, false, `unknown`, or anything else
/// (which `and` and `or` read as false, and `not` makes true).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Truth {
    // (their places index tables of what each truth gives)
    True = 0,
    False = 1,
    Unknown = 2,
    Other = 3,
}

impl Truth {
    pub(super) fn of(v: &Value) -> Truth {
        match v {
            Value::Bool(b) => Truth::from(*b),
            Value::Unknown => Truth::Unknown,
            _ => Truth::Other,
        }
    }

    pub(super) fn not(self) -> Truth {
        match self {
            Truth::Unknown => Truth::Unknown,
            Truth::True => Truth::False,
            _ => Truth::True,
        }
    }

    pub(super) fn and(self, y: Truth) -> Truth {
        match (self, y) {
            (Truth::False, _) | (_, Truth::False) => Truth::False,
            (Truth::Unknown, _) | (_, Truth::Unknown) => Truth::Unknown,
            (Truth::True, Truth::True) => Truth::True,
            _ => Truth::False,
        }
    }

    pub(super) fn or(self, y: Truth) -> Truth {
        match (self, y) {
            (Truth::True, _) | (_, Truth::True) => Truth::True,
            (Truth::Unknown, _) | (_, Truth::Unknown) => Truth::Unknown,
            _ => Truth::False,
        }
    }

    /// The value `and`, `or`, `not` and the comparisons make: a boolean
    /// or `unknown` (`Other` is never their result).
    pub(super) fn value(self) -> Value {
        match self {
            Truth::True => Value::Bool(true),
            Truth::Unknown => Value::Unknown,
            Truth::False | Truth::Other => Value::Bool(false),
        }
    }
}

impl From<bool> for Truth {
    fn from(b: bool) -> Truth {
        if b { Truth::True } else { Truth::False }
    }
}

/// Whether two values are the same to every reader: equal, and a number
/// with the same bits (`-0` is not `0` to a message).
pub(super) fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Num(x), Value::Num(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

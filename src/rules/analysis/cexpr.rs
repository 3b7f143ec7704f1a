//! A compiled expression ([`CExpr`]) and what it names: the builtin
//! functions, the stateful functions and their calls, and the detectors.

use crate::base::value::{Type, Value};
use crate::rules::syntax::ast::{BinOp, UnOp};
use crate::timeline::{self, Kind};

/// A compiled expression.
#[derive(Debug, Clone)]
pub enum CExpr {
    Lit(Value),
    Const(usize),
    Let(usize),
    Switch(usize),
    Field(Kind, &'static str),
    /// A field of the current `move`, resolved once (its name kept for
    /// messages and types).
    Move(timeline::MoveField, &'static str),
    Unary(UnOp, Box<CExpr>),
    Binary(BinOp, Box<CExpr>, Box<CExpr>),
    /// An `and` or `or` whose right side calls no detector: the right side
    /// is evaluated only when the left does not decide (`false and …`,
    /// `true or …`). Skipping it changes nothing but the time: without a
    /// detector an expression has no effect but its value.
    Short(BinOp, Box<CExpr>, Box<CExpr>),
    If(Box<CExpr>, Box<CExpr>, Box<CExpr>),
    List(Vec<CExpr>),
    Call(Builtin, Vec<CExpr>),
    Stateful(Box<Stateful>),
    Detector(Detector, Vec<(String, CExpr)>),
}

impl CExpr {
    /// Call `f` on each expression directly inside this one, in order (a
    /// stateful call's argument, then `over`, `reset` and `per`). Every walk
    /// over compiled expressions goes through here.
    pub fn each_child<'e>(&'e self, f: &mut impl FnMut(&'e CExpr)) {
        match self {
            CExpr::Unary(_, a) => f(a),
            CExpr::Binary(_, a, b) | CExpr::Short(_, a, b) => {
                f(a);
                f(b);
            }
            CExpr::If(a, b, c) => {
                f(a);
                f(b);
                f(c);
            }
            CExpr::List(l) | CExpr::Call(_, l) => l.iter().for_each(f),
            CExpr::Detector(_, params) => params.iter().for_each(|(_, x)| f(x)),
            CExpr::Stateful(s) => {
                f(&s.arg);
                [&s.over, &s.reset, &s.per]
                    .into_iter()
                    .flatten()
                    .for_each(f);
            }
            CExpr::Lit(_)
            | CExpr::Const(_)
            | CExpr::Let(_)
            | CExpr::Switch(_)
            | CExpr::Field(..)
            | CExpr::Move(..) => {}
        }
    }
}

/// The one table of the rule language's builtin functions: each written
/// once, with its name, its arguments' types (`Any`: not checked) and what
/// it gives. The analyzer resolves a call through it, types it by it, and a
/// test holds docs/rules-language.md to it; the evaluator matches every
/// builtin without a catch-all, so a builtin added here does not compile
/// until it is evaluated.
macro_rules! builtins {
    ($( $(#[$doc:meta])* $v:ident = $name:literal ( $($arg:ident),* ) -> $ret:ident ; )*) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Builtin {
            $( $(#[$doc])* $v, )*
        }

        impl Builtin {
            /// Every builtin, in the table's order.
            pub const ALL: &'static [Builtin] = &[$(Builtin::$v),*];

            /// Its name in the language.
            pub fn name(self) -> &'static str {
                match self {
                    $(Builtin::$v => $name,)*
                }
            }

            /// The types of its arguments, in order (`Any`: not checked).
            pub fn args(self) -> &'static [Type] {
                match self {
                    $(Builtin::$v => &[$(Type::$arg),*],)*
                }
            }

            /// The type of what it gives.
            pub fn returns(self) -> Type {
                match self {
                    $(Builtin::$v => Type::$ret,)*
                }
            }
        }
    };
}

builtins! {
    Abs = "abs"(Num) -> Num;
    Min = "min"(Num, Num) -> Num;
    Max = "max"(Num, Num) -> Num;
    Floor = "floor"(Num) -> Num;
    Ceil = "ceil"(Num) -> Num;
    Round = "round"(Num) -> Num;
    Lower = "lower"(Any) -> Str;
    Contains = "contains"(Any, Any) -> Bool;
    StartsWith = "starts_with"(Any, Any) -> Bool;
    Tag = "tag"(Any) -> Str;
    Coalesce = "coalesce"(Any, Any) -> Any;
    /// A time control written `[moves/]base[+increment]` (a TimeControl
    /// tag, `-each tc=`): its base in ms.
    TcBase = "tc_base"(Str) -> Num;
    /// Its increment in ms (0 when none is written).
    TcIncrement = "tc_increment"(Str) -> Num;
    /// Its moves (none: all the game's).
    TcMoves = "tc_moves"(Str) -> Num;
    /// The one factor that scales the second control's base and
    /// increment to the first's, within the digits the first writes.
    TcScale = "tc_scale"(Str, Str) -> Num;
    /// A number written as text (a tag's value, `0.4384108055671342`):
    /// digits with at most one point, and a sign.
    Number = "number"(Str) -> Num;
    /// The n-th word (from 0) of a text, its words parted by white space
    /// (`word("TCEC Season 25 - Premier", 2)` is `"25"`).
    Word = "word"(Str, Num) -> Str;
}

impl Builtin {
    /// The builtin of this name.
    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::ALL.iter().copied().find(|b| b.name() == name)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatefulFn {
    /// Consecutive in-scope events where the condition held.
    Streak,
    /// In-scope events where the condition held.
    Count,
    /// Running sum of a number over in-scope events.
    Sum,
    /// Whether the condition has held at this or any earlier in-scope event.
    Since,
    /// The value at the previous in-scope event.
    Previous,
    /// The value at the latest in-scope event, this one included.
    Last,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detector {
    /// Syzygy WDL of the position after the move, with the fifty-move rule.
    Tablebase,
    /// Hidden opening-book use: the move is one of a run of unexplained
    /// moves without search (src/detect/hidden_book.rs).
    HiddenBook,
    /// Move similarity between engines (a later stage brings the detector).
    Similarity,
    /// An accelerated Swiss pairing that the rules forbade and the round
    /// could have avoided (src/event.rs).
    AcceleratedPairing,
}

impl Detector {
    pub fn name(self) -> &'static str {
        match self {
            Detector::Tablebase => "tablebase",
            Detector::HiddenBook => "hidden_book",
            Detector::Similarity => "similarity",
            Detector::AcceleratedPairing => "accelerated_pairing",
        }
    }

    pub(super) fn params(self) -> &'static [&'static str] {
        match self {
            Detector::Tablebase => &["fifty_move_rule"],
            Detector::HiddenBook => &[
                "min_run",
                "max_nodes",
                "max_depth",
                "max_time",
                "tb_pieces",
                "kept_tree",
                "zero_nodes_unknown",
            ],
            Detector::Similarity => &[
                "signal",
                "threshold",
                "false_positive_rate",
                "min_positions",
                "against",
            ],
            Detector::AcceleratedPairing => &["until_round", "high_score"],
        }
    }
}

#[derive(Debug, Clone)]
pub struct Stateful {
    pub slot: usize,
    pub func: StatefulFn,
    pub arg: CExpr,
    pub over: Option<CExpr>,
    pub reset: Option<CExpr>,
    pub per: Option<CExpr>,
    /// The event kind whose events drive it.
    pub on: Kind,
}

#[cfg(test)]
mod tests {
    use super::Builtin;

    /// Every builtin is written in docs/rules-language.md, as `name(`.
    #[test]
    fn every_builtin_is_documented() {
        let doc = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/docs/rules-language.md"
        ))
        .unwrap();
        for b in Builtin::ALL {
            assert!(
                doc.contains(&format!("`{}(", b.name())),
                "{} is not documented",
                b.name()
            );
            assert_eq!(Builtin::from_name(b.name()), Some(*b));
        }
    }
}

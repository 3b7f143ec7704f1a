//! The syntax tree of a ruleset, as written (names not yet resolved).

use super::error::Pos;

#[derive(Debug, Clone, PartialEq)]
pub struct Name {
    pub text: String,
    pub pos: Pos,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub pos: Pos,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    Add,
    Sub,
    Mul,
    Div,
}

impl BinOp {
    /// Every operator, in the order of the enum (for tests that go over
    /// them all).
    #[cfg(test)]
    pub(crate) const ALL: [BinOp; 13] = [
        BinOp::Or,
        BinOp::And,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::In,
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
    ];

    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::In => "in",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Not,
    Neg,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Num(f64),
    /// Milliseconds.
    Duration(f64),
    Str(String),
    Bool(bool),
    None,
    List(Vec<Expr>),
    /// A constant, `let`, switch, or built-in name.
    Name(String),
    /// `kind.field`
    Field(Name, Name),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `f(args, key: value)`
    Call(Name, Vec<Expr>, Vec<(Name, Expr)>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
}

/// A string with `{expr}` holes.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    pub parts: Vec<TemplatePart>,
    pub pos: Pos,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TemplatePart {
    Text(String),
    Expr(Expr),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Cite {
    pub clause: String,
    pub quote: String,
    pub pos: Pos,
}

#[derive(Debug, Clone, PartialEq)]
pub enum RuleKind {
    /// No machine can judge it; a human must.
    Manual(String),
    /// End the game with this result when the condition first holds.
    Adjudicate {
        result: Box<Expr>,
        records: Option<Box<Expr>>,
        when: Box<Expr>,
    },
    /// Every event of this kind where the condition holds is a violation.
    Forbid { on: Name, when: Option<Expr> },
    /// Every event of this kind where the condition fails is a violation.
    Require { on: Name, when: Expr },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    pub id: Name,
    pub title: String,
    pub cites: Vec<Cite>,
    pub severity: Option<Name>,
    pub sanction: Option<String>,
    pub doc: Option<String>,
    pub message: Option<Template>,
    pub kind: Option<(RuleKind, Pos)>,
    pub pos: Pos,
    /// Byte range of the whole rule in the source.
    pub end: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Period {
    /// `None` for `rest`.
    pub moves: Option<(f64, Pos)>,
    pub time: Expr,
    pub increment: Option<Expr>,
    pub at_least: bool,
    pub pos: Pos,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TimeControl {
    pub name: Name,
    pub periods: Vec<Period>,
    pub carry_over: bool,
    /// The game-clock settings of the operator log give the time used, not
    /// the time left.
    pub settings_show_used: bool,
    /// `start_credit DURATION`: what each clock starts with beyond the
    /// first period's time.
    pub start_credit: Option<Expr>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum VariantItem {
    Const(Name, Expr),
    Switch(Name, bool, Pos),
    TimeControl(Name),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    pub name: Name,
    pub extends: Option<Name>,
    pub applies: Option<Expr>,
    pub items: Vec<VariantItem>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Meta {
    pub id: Name,
    pub title: String,
    pub regulation: Option<String>,
    pub format: Option<String>,
    pub scoring: Vec<(Name, Expr)>,
    pub tiebreaks: Vec<Name>,
    pub time_control: Option<Name>,
    /// `time-control NAME fit from record`: the fit may replace the time
    /// control by the one the record's tag or clocks show (the position is
    /// the word `fit`'s).
    pub time_control_fit: Option<Pos>,
    /// `applies when EXPR`: the records the ruleset is for, when it is one
    /// of a folder of rulesets (`--rules DIR`); over `game.*` and tags.
    pub applies: Option<Expr>,
    /// `extends "FILE"`: the ruleset this one builds on (the file as
    /// written, and where).
    pub extends: Option<(String, Pos)>,
}

/// The values `arbiter rules fit` may try for a constant: `fit FROM to TO
/// step STEP`, or `fit [A, B, …]`.
#[derive(Debug, Clone, PartialEq)]
pub enum FitGrid {
    Range {
        from: Box<Expr>,
        to: Box<Expr>,
        step: Box<Expr>,
    },
    List(Vec<Expr>),
    /// `fit from SOURCE`: values the archive itself holds, found when the
    /// fit reads it (`terminations`: its TerminationDetails texts).
    From(Name),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Ruleset(Meta),
    /// A constant, and the `fit` clause that marks it as fittable (the
    /// position is the word `fit`'s).
    Const(Name, Expr, Option<(Pos, FitGrid)>),
    Switch {
        name: Name,
        default: bool,
        doc: String,
        /// The word `fit`, where the switch may be fitted.
        fit: Option<Pos>,
    },
    Let {
        name: Name,
        on: Name,
        expr: Expr,
    },
    TimeControl(TimeControl),
    Variant(Variant),
    Rule(Box<Rule>),
    /// `drop rule ID`: a rule of the ruleset this one extends, left out.
    Drop(Name),
}

//! The values a rule can see, their types and their texts.
/// The text of a string value: a name known when arbiter was built
/// (`white`, a field's fixed words) or a shared string. Cloning never copies
/// the text, so a rule reading `move.side` on every move allocates nothing.
#[derive(Clone)]
pub enum Text {
    Static(&'static str),
    Shared(std::sync::Arc<str>),
}

impl Text {
    pub const fn from_static(s: &'static str) -> Text {
        Text::Static(s)
    }

    pub fn as_str(&self) -> &str {
        match self {
            Text::Static(s) => s,
            Text::Shared(s) => s,
        }
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text::Shared(s.into())
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::Shared(s.into())
    }
}
/// A value a rule can see.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value {
    Num(f64),
    Bool(bool),
    Str(Text),
    List(Vec<Value>),
    /// The source does not record this value.
    #[default]
    None,
    /// A detector could not decide (e.g. no tablebase for the position).
    Unknown,
}

impl Value {
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Num(_) => "number",
            Value::Bool(_) => "boolean",
            Value::Str(_) => "string",
            Value::List(_) => "list",
            Value::None => "none",
            Value::Unknown => "unknown",
        }
    }

    pub fn display(&self) -> String {
        match self {
            Value::Num(n) => fmt_num(*n),
            Value::Bool(b) => b.to_string(),
            Value::Str(s) => s.to_string(),
            Value::List(l) => format!(
                "[{}]",
                l.iter().map(Value::display).collect::<Vec<_>>().join(", ")
            ),
            Value::None => "none".into(),
            Value::Unknown => "unknown".into(),
        }
    }
}

/// Numbers print without a trailing `.0` when whole.
pub fn fmt_num(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}
/// Field types, for the analyzer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Type {
    Num,
    Bool,
    Str,
    Any,
}

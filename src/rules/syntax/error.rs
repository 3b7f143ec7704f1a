//! Ruleset diagnostics: every mistake is reported at `file:line:column`
//! with a caret under the offending text, what was expected, and a "did you
//! mean" where a name is close to a known one.

use std::fmt;

use crate::base::diagnostic::Diagnostic;

/// Where in a ruleset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    /// Byte offset.
    pub offset: usize,
    /// Length in bytes (at least 1 when shown).
    pub len: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl Pos {
    /// The file's first character: where a mistake of the whole file is
    /// shown.
    pub const START: Pos = Pos {
        offset: 0,
        len: 1,
        line: 1,
        column: 1,
    };
}

/// A mistake in a ruleset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    pub pos: Pos,
    pub message: String,
    pub help: Option<String>,
}

impl RuleError {
    pub fn new(pos: Pos, message: impl Into<String>) -> Self {
        RuleError {
            pos,
            message: message.into(),
            help: None,
        }
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Render like a compiler (with `annotate-snippets`, see
    /// [`Diagnostic`]): message, `--> file:line:column`, the source line, a
    /// caret under the span and the help.
    pub fn render(&self, path: &str, src: &str) -> String {
        Diagnostic {
            message: &self.message,
            path,
            src,
            offset: self.pos.offset,
            len: self.pos.len,
            label: None,
            help: self.help.as_deref(),
        }
        .render()
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.pos.line, self.pos.column, self.message)?;
        if let Some(h) = &self.help {
            write!(f, " ({h})")?;
        }
        Ok(())
    }
}

impl std::error::Error for RuleError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_under_the_span() {
        let src = "rule a \"t\" {\n  severity fatal\n}\n";
        let e = RuleError::new(
            Pos {
                offset: 24,
                len: 5,
                line: 2,
                column: 12,
            },
            "unknown severity `fatal`",
        )
        .help("expected error, warning or info");
        let r = e.render("x.rules", src);
        assert!(r.contains("--> x.rules:2:12"), "{r}");
        assert!(
            r.contains("2 |   severity fatal\n  |            ^^^^^"),
            "{r}"
        );
    }
}

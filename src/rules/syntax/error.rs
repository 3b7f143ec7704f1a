//! Ruleset diagnostics: every mistake is reported at `file:line:column`
//! with a caret under the offending text, what was expected, and a "did you
//! mean" where a name is close to a known one.

use std::fmt;

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

    /// Render like a compiler: message, location, the source line and a
    /// caret under the span.
    pub fn render(&self, path: &str, src: &str) -> String {
        let line_text = src
            .lines()
            .nth(self.pos.line.saturating_sub(1))
            .unwrap_or("");
        let gutter = self.pos.line.to_string().len();
        let pad = " ".repeat(gutter);
        let col = self.pos.column.max(1);
        let avail = line_text.chars().count().saturating_sub(col - 1).max(1);
        let width = src
            .get(self.pos.offset..self.pos.offset + self.pos.len)
            .map_or(1, |s| s.chars().take_while(|&c| c != '\n').count())
            .clamp(1, avail);
        // a long line is shown as a window around the column, and control
        // characters as U+FFFD: the source is untrusted text
        let chars: Vec<char> = line_text.chars().collect();
        const WINDOW: usize = 100;
        let (from, to) = if chars.len() <= WINDOW + 20 {
            (0, chars.len())
        } else {
            let from = (col - 1).saturating_sub(WINDOW / 2).min(chars.len());
            (from, (from + WINDOW).min(chars.len()))
        };
        let shown: String = chars[from..to]
            .iter()
            .map(|&c| {
                if c.is_control() && c != '\t' {
                    '\u{FFFD}'
                } else {
                    c
                }
            })
            .collect();
        let (pre, post) = (
            if from > 0 { "…" } else { "" },
            if to < chars.len() { "…" } else { "" },
        );
        let caret_at = (col - 1).saturating_sub(from) + pre.chars().count();
        let width = width.min(to.saturating_sub(col - 1).max(1));
        let mut out = format!(
            "error: {}\n{pad}--> {path}:{}:{}\n{pad} |\n{} | {pre}{shown}{post}\n{pad} | {}{}",
            self.message,
            self.pos.line,
            col,
            self.pos.line,
            " ".repeat(caret_at),
            "^".repeat(width)
        );
        if let Some(h) = &self.help {
            out.push_str(&format!("\n{pad} = help: {h}"));
        }
        out
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

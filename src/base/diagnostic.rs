//! Diagnostics shown the way rustc and cargo show theirs, rendered by
//! `annotate-snippets`: the message, `--> file:line:column`, the source
//! line, a caret under the offending text and a `= help:`. The rule
//! language's errors and the inputs' errors (logs, case files) are both
//! shown this way.
//!
//! The output is plain text, without colour: it goes to standard error and
//! into tests that compare it byte for byte. The sources are untrusted, so
//! every control character of the shown line (C0 and C1) and of the
//! messages is replaced before rendering (the crate replaces C0 controls,
//! not C1 ones such as U+009B, which some terminals read as an escape).
//! Long lines are cut around the caret by the crate itself.

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};

/// One error at one place of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic<'a> {
    /// What is wrong (after `error: `).
    pub message: &'a str,
    /// The file, as shown to the user.
    pub path: &'a str,
    /// The whole text of the file.
    pub src: &'a str,
    /// Byte offset of the offending text in `src`.
    pub offset: usize,
    /// Its length in bytes (cut at the end of its line; a caret is shown
    /// even when it is 0).
    pub len: usize,
    /// A word under the caret, if any.
    pub label: Option<&'a str>,
    /// What to do, after `= help: `.
    pub help: Option<&'a str>,
}

impl Diagnostic<'_> {
    /// The rendered diagnostic, plain text, without a final line ending.
    pub fn render(&self) -> String {
        let (line_no, line_start, line) = line_of(self.src, self.offset);
        let line = line.strip_suffix('\n').unwrap_or(line);
        let line = line.strip_suffix('\r').unwrap_or(line);
        let start = (self.offset - line_start).min(line.len());
        let end = floor_boundary(line, start.saturating_add(self.len).min(line.len()));
        let start = floor_boundary(line, start);
        let (shown, from, to) = sanitized(line, start, end.max(start));
        let message = clean(self.message);
        let label = self.label.map(clean);
        let help = self.help.map(clean);
        let mut annotation = AnnotationKind::Primary.span(from..to);
        if let Some(l) = &label {
            annotation = annotation.label(l.as_str());
        }
        let mut group = Level::ERROR.primary_title(message.as_str()).element(
            Snippet::source(shown.as_str())
                .line_start(line_no)
                .path(self.path)
                .annotation(annotation),
        );
        if let Some(h) = &help {
            group = group.element(Level::HELP.message(h.as_str()));
        }
        Renderer::plain().render(&[group])
    }
}

/// The 1-based number of the line holding byte `offset` (clamped to the
/// text), where that line starts, and the line with its line ending.
fn line_of(src: &str, offset: usize) -> (usize, usize, &str) {
    let offset = floor_boundary(src, offset.min(src.len()));
    let start = src[..offset].rfind('\n').map_or(0, |p| p + 1);
    let end = src[offset..]
        .find('\n')
        .map_or(src.len(), |p| offset + p + 1);
    let line_no = 1 + src.as_bytes()[..start]
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    (line_no, start, &src[start..end])
}

/// The largest char boundary of `s` at or before `i`.
fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// `line` with its control characters replaced by U+FFFD (tabs kept: the
/// crate expands them), and the byte range `start..end` moved to match.
fn sanitized(line: &str, start: usize, end: usize) -> (String, usize, usize) {
    let mut out = String::with_capacity(line.len());
    let (mut from, mut to) = (None, None);
    for (i, c) in line.char_indices() {
        if i == start {
            from = Some(out.len());
        }
        if i == end {
            to = Some(out.len());
        }
        out.push(if c.is_control() && c != '\t' {
            '\u{FFFD}'
        } else {
            c
        });
    }
    let n = out.len();
    (out, from.unwrap_or(n), to.unwrap_or(n))
}

/// A message with its control characters replaced by U+FFFD.
pub fn clean(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect()
}

/// Text for the terminal: its control characters replaced by U+FFFD,
/// line breaks and tabs kept.
pub fn for_terminal(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(src: &str, offset: usize, len: usize) -> String {
        Diagnostic {
            message: "bad",
            path: "x.txt",
            src,
            offset,
            len,
            label: None,
            help: Some("do better"),
        }
        .render()
    }

    #[test]
    fn caret_under_the_span_with_file_line_and_column() {
        let r = at("first\nsecond line\n", 13, 4);
        insta::assert_snapshot!(r);
    }

    #[test]
    fn control_characters_are_never_shown() {
        let r = at("a\u{1b}[31m\u{9b}b x\n", 10, 1);
        assert!(!r.contains('\u{1b}') && !r.contains('\u{9b}'), "{r:?}");
        assert!(r.contains("x.txt:1:10"), "{r}");
        let r = Diagnostic {
            message: "m\u{1b}[2J",
            ..Diagnostic {
                message: "",
                path: "p",
                src: "",
                offset: 0,
                len: 0,
                label: None,
                help: Some("h\u{9b}"),
            }
        }
        .render();
        assert!(!r.contains('\u{1b}') && !r.contains('\u{9b}'), "{r:?}");
    }

    #[test]
    fn positions_past_the_text_or_inside_a_character_are_clamped() {
        for (src, offset, len) in [("", 0, 1), ("é\n", 1, 9), ("ab", 7, 3), ("a\nb\n", 4, 1)] {
            let r = at(src, offset, len);
            assert!(r.starts_with("error: bad\n"), "{r}");
        }
    }

    #[test]
    fn a_long_line_is_cut_around_the_caret() {
        let src = format!("{}HERE{}\n", "a".repeat(500), "b".repeat(500));
        let r = at(&src, 500, 4);
        assert!(r.lines().all(|l| l.chars().count() < 200), "{r}");
        assert!(r.contains("HERE") && r.contains("x.txt:1:501"), "{r}");
    }
}

//! Positions in a ruleset's source: a byte offset's line and column, the
//! span of two positions, and the lexing of a message's hole in place.

use crate::rules::syntax::error::{Pos, RuleError};
use crate::rules::syntax::lexer::{Token, lex};

pub(super) fn span(a: Pos, b: Pos) -> Pos {
    Pos {
        len: (b.offset + b.len).saturating_sub(a.offset),
        ..a
    }
}

/// Position of a byte offset in `src`.
pub fn pos_of(src: &str, offset: usize, len: usize) -> Pos {
    let start = Pos {
        offset: 0,
        len: 0,
        line: 1,
        column: 1,
    };
    pos_after(src, start, offset, len)
}

/// Position of byte `offset` of `src`, counted on from `known`, a position
/// at or before it: the source before `known` is not scanned again (each
/// hole of a message was found from the start of the file, a scan of the
/// whole ruleset per hole).
pub(super) fn pos_after(src: &str, known: Pos, offset: usize, len: usize) -> Pos {
    let end = offset.min(src.len());
    let from = known.offset.min(end);
    let between = &src.as_bytes()[from..end];
    let column = match memchr::memrchr(b'\n', between) {
        Some(nl) => src[from + nl + 1..end].chars().count() + 1,
        None => known.column + src[from..end].chars().count(),
    };
    Pos {
        offset,
        len,
        line: known.line + memchr::memchr_iter(b'\n', between).count(),
        column,
    }
}

/// Lex `src[from..to]`, keeping positions relative to the whole source;
/// `known` is a position at or before `from`.
pub(super) fn lex_from(
    src: &str,
    known: Pos,
    from: usize,
    to: usize,
) -> Result<Vec<Token>, RuleError> {
    let base = pos_after(src, known, from, 0);
    let fix = |mut p: Pos| {
        if p.line == 1 {
            p.column += base.column - 1;
        }
        p.line += base.line - 1;
        p.offset += from;
        p
    };
    match lex(&src[from..to]) {
        Ok(toks) => Ok(toks
            .into_iter()
            .map(|t| Token {
                tok: t.tok,
                pos: fix(t.pos),
            })
            .collect()),
        Err(mut e) => {
            e.pos = fix(e.pos);
            Err(e)
        }
    }
}

/// The index of the `}` closing the hole that opens at `open` (skipping
/// single-quoted strings inside it).
pub(super) fn hole_end(s: &str, open: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = open + 1;
    let mut quoted = false;
    while i < b.len() {
        match b[i] {
            b'\\' if quoted => i += 1,
            b'\'' => quoted = !quoted,
            b'}' if !quoted => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod position_tests {
    use super::*;

    /// A position counted from the start of the source, or on from any
    /// position before it, is the line and column found by going through
    /// the source a character at a time.
    #[test]
    fn a_position_counted_on_is_the_position_counted_from_the_start() {
        let src = "ruleset x \"t\" {\n  let a on move = 1 # é\n\n  rule r \"ü{move.ply}\" {\r\n cite \"c\"\n}\n}";
        let stepped = |offset: usize| {
            let (mut line, mut column) = (1, 1);
            for c in src[..offset].chars() {
                if c == '\n' {
                    (line, column) = (line + 1, 1);
                } else {
                    column += 1;
                }
            }
            Pos {
                offset,
                len: 3,
                line,
                column,
            }
        };
        for known in 0..=src.len() {
            if !src.is_char_boundary(known) {
                continue;
            }
            let k = pos_of(src, known, 0);
            assert_eq!(pos_of(src, known, 3), stepped(known), "{known}");
            for offset in known..=src.len() {
                if src.is_char_boundary(offset) {
                    assert_eq!(
                        pos_after(src, k, offset, 3),
                        stepped(offset),
                        "{known} {offset}"
                    );
                }
            }
        }
    }
}

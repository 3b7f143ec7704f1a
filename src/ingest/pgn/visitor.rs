//! The visitor's state, and the scanner that walks the movetext in step
//! with pgn-reader's callbacks: it places each token the reader hands
//! over, and reports the tokens the reader skips.

use std::rc::Rc;

use pgn_reader::SanPlus;

use super::game::{MAX_PROBLEMS_PER_KIND, PgnGame, PgnProblem, ProblemKind};
use super::source::PtrMap;
use crate::base::span::{LineIndex, Span};
use crate::ingest::text::{GameText, decode_text};

/// How much of a game [`super::reader::read_game`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    Whole,
    /// The tags alone: the reader stops where the movetext begins (its
    /// comments are not typed, its moves not made).
    Tags,
}

/// The bytes that end a movetext token (white space, the brackets of
/// comments and variations, the glyphs' `!`, `?` and `$`, `;`, `.` and
/// `*`), as one load each: [`token_end`] asks it of every byte of every
/// move.
static ENDS_TOKEN: [bool; 256] = {
    let mut t = [false; 256];
    let ends = b" \t\n\r{}()!?$;.*";
    let mut i = 0;
    while i < ends.len() {
        t[ends[i] as usize] = true;
        i += 1;
    }
    t
};

/// A movetext token found by the scanner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tok {
    Filler,
    Comment,
    VarOpen,
    VarClose,
    Outcome,
    San,
    Junk,
    End,
}

pub(super) struct GameVisitor<'c, 'g> {
    /// How much of the game is read: with [`Part::Tags`], the reader
    /// stops where the movetext begins.
    pub(super) part: Part,
    /// The game's bytes, shared with the PVs typed from them.
    pub(super) chunk: &'c std::sync::Arc<GameText>,
    pub(super) map: Rc<PtrMap>,
    pub(super) index: LineIndex<'c>,
    /// Scanner position in the chunk.
    pub(super) cursor: usize,
    pub(super) game: &'g mut PgnGame,
    /// The names of the game's tags, once it has more than
    /// [`FEW_TAGS`]: a duplicate is then found in constant time, so that
    /// a tag section of a hundred thousand tags is read in linear time.
    pub(super) tag_names: Option<std::collections::HashSet<compact_str::CompactString>>,
    /// A move's SAN as it prints, to compare with the token as written;
    /// one buffer for the game's moves.
    pub(super) san_print: Vec<u8>,
}

/// Up to this many tags, a duplicate is looked for along the list.
pub(super) const FEW_TAGS: usize = 32;

impl GameVisitor<'_, '_> {
    /// Whether the game already has a tag named `name`; remembered.
    pub(super) fn seen_tag(&mut self, name: &str) -> bool {
        let tags = &self.game.tags;
        if tags.len() < FEW_TAGS {
            return tags.iter().any(|t| t.name == name);
        }
        let names = self
            .tag_names
            .get_or_insert_with(|| tags.iter().map(|t| t.name.clone()).collect());
        !names.insert(name.into())
    }
}

impl GameVisitor<'_, '_> {
    /// Place a slice the reader handed us; verified against the chunk.
    pub(super) fn locate(&self, s: &[u8]) -> Option<usize> {
        if let Some(off) = self.place(s) {
            return Some(off);
        }
        // Fall back to a forward search from the scanner.
        if s.is_empty() {
            return None;
        }
        memchr::memmem::find(&self.chunk[self.cursor..], s).map(|i| self.cursor + i)
    }

    /// A slice the reader handed us without the part of it that lies in
    /// the padding after the chunk ([`super::source::TrackedSlice`]):
    /// `None` when all of it does.
    pub(super) fn clip<'s>(&self, s: &'s [u8]) -> Option<&'s [u8]> {
        let base = self.map.ptr.get();
        let off = (self.map.offset.get() as i128) + (s.as_ptr() as usize as i128) - (base as i128);
        let Ok(off) = usize::try_from(off) else {
            return Some(s);
        };
        let len = self.chunk.len();
        if off >= len && !s.is_empty() {
            return None;
        }
        Some(&s[..s.len().min(len.saturating_sub(off))])
    }

    /// Where a slice the reader handed us lies in the chunk, by where the
    /// reader's buffer was last filled from, confirmed byte for byte.
    pub(super) fn place(&self, s: &[u8]) -> Option<usize> {
        let ptr = s.as_ptr() as usize;
        let base = self.map.ptr.get();
        // The buffer position `base` held chunk offset `map.offset` at the
        // last read; the slice may lie before or after it.
        let off = (self.map.offset.get() as i128) + (ptr as i128) - (base as i128);
        usize::try_from(off)
            .ok()
            .filter(|&off| self.chunk.get(off..off + s.len()) == Some(s))
    }

    pub(super) fn problem(&mut self, kind: ProblemKind, message: String, span: Option<Span>) {
        let n = self.game.moves.len();
        self.game.push_problem(PgnProblem {
            kind,
            message,
            span,
            before_move: n,
        });
    }

    /// The next token at or after `pos`: (kind, start, end). A comment
    /// whose `{` is at `known`'s start ends at its end, without a search
    /// (see [`GameVisitor::comment`]).
    pub(super) fn token(
        &self,
        mut pos: usize,
        known: Option<(usize, usize)>,
    ) -> (Tok, usize, usize) {
        let c: &[u8] = self.chunk;
        while pos < c.len() {
            match c[pos] {
                b' ' | b'\t' | b'\r' | b'\n' | b'.' => pos += 1,
                b'%' if pos == 0 || c[pos - 1] == b'\n' => {
                    pos = memchr::memchr(b'\n', &c[pos..]).map_or(c.len(), |i| pos + i);
                }
                _ => break,
            }
        }
        if pos >= c.len() {
            return (Tok::End, pos, pos);
        }
        let start = pos;
        let rest = &c[pos..];
        let line_end = |p: usize| memchr::memchr(b'\n', &c[p..]).map_or(c.len(), |i| p + i);
        match rest[0] {
            b';' => (Tok::Filler, start, line_end(pos)),
            b'{' => match known {
                Some((at, end)) if at == start => (Tok::Comment, start, end),
                _ => {
                    let end = memchr::memchr(b'}', &c[pos..]).map_or(c.len(), |i| pos + i + 1);
                    (Tok::Comment, start, end)
                }
            },
            b'(' => (Tok::VarOpen, start, pos + 1),
            b')' => (Tok::VarClose, start, pos + 1),
            b'*' => (Tok::Outcome, start, pos + 1),
            b'$' => {
                let n = rest[1..].iter().take_while(|b| b.is_ascii_digit()).count();
                if n == 0 {
                    (Tok::Junk, start, token_end(c, pos + 1))
                } else {
                    (Tok::Filler, start, pos + 1 + n)
                }
            }
            b'!' | b'?' => {
                let n = rest
                    .iter()
                    .take(2)
                    .take_while(|b| matches!(b, b'!' | b'?'))
                    .count();
                (Tok::Filler, start, pos + n)
            }
            // every outcome starts with `1`, `0` or `½`'s first byte: a
            // move (a letter) is not compared with them
            b'0' | b'1' | 0xC2
                if let Some(marker) = OUTCOMES.iter().find(|m| rest.starts_with(m)) =>
            {
                (Tok::Outcome, start, pos + marker.len())
            }
            _ => {
                let end = token_end(c, pos);
                let word = &c[pos..end];
                if word.iter().all(u8::is_ascii_digit) {
                    // a move number (its dots are skipped like white space)
                    return (Tok::Filler, start, end);
                }
                match SanPlus::from_ascii(word) {
                    Ok(_) => (Tok::San, start, end),
                    // castling written with zeros, which the reader takes
                    // as castling too
                    Err(_) if zero_castling(word) => (Tok::San, start, end),
                    Err(_) => (Tok::Junk, start, end),
                }
            }
        }
    }

    /// Advance the scanner to the next token of kind `want`, recording junk on
    /// the way. Returns its (start, end), or `None` (scanner unchanged) when
    /// something else came first.
    pub(super) fn seek(&mut self, want: Tok) -> Option<(usize, usize)> {
        self.seek_known(want, None)
    }

    /// [`GameVisitor::seek`], with a comment's place known (see
    /// [`GameVisitor::token`]).
    #[inline]
    pub(super) fn seek_known(
        &mut self,
        want: Tok,
        known: Option<(usize, usize)>,
    ) -> Option<(usize, usize)> {
        let mut pos = self.cursor;
        // the junk on the way, reported once the token is found: the first
        // that a game keeps, and a count of the others
        let mut junk = Vec::new();
        let mut more = 0;
        loop {
            let (tok, start, end) = self.token(pos, known);
            if tok == want {
                for (s, e) in junk {
                    self.report_junk(s, e);
                }
                self.game.omit(ProblemKind::UnparsableToken, more);
                self.cursor = end;
                return Some((start, end));
            }
            match tok {
                Tok::Filler | Tok::VarClose => pos = end,
                Tok::Junk => {
                    if junk.len() < MAX_PROBLEMS_PER_KIND {
                        junk.push((start, end));
                    } else {
                        more += 1;
                    }
                    pos = end;
                }
                _ => return None,
            }
        }
    }

    pub(super) fn report_junk(&mut self, start: usize, end: usize) {
        if !self.game.keeps(ProblemKind::UnparsableToken) {
            // counted: its message is not made
            return;
        }
        let shown = String::from_utf8_lossy(&self.chunk[start..end.min(start + 40)]).into_owned();
        let span = self.index.span(start, end - start);
        self.problem(
            ProblemKind::UnparsableToken,
            format!(
                "unparsable movetext token {shown:?}: expected a move in SAN, a move number, an annotation glyph, a comment, a variation or a result"
            ),
            Some(span),
        );
    }

    pub(super) fn decode<T>(&mut self, bytes: &[u8], what: std::fmt::Arguments<'_>, span: Span) -> T
    where
        T: for<'s> From<&'s str> + FromIterator<char>,
    {
        let (text, latin1) = decode_text(bytes);
        if latin1 {
            self.problem(
                ProblemKind::Encoding,
                format!("{what} is not valid UTF-8; read as Windows-1252 (Latin-1)"),
                Some(span),
            );
        }
        text
    }

    /// Skip a variation starting at `(` (at `start`), like the reader does.
    pub(super) fn skip_variation(&mut self, start: usize) -> usize {
        let c: &[u8] = self.chunk;
        let mut depth = 0usize;
        let mut pos = start + 1;
        while pos < c.len() {
            match c[pos] {
                b'(' => depth += 1,
                b')' => {
                    if depth == 0 {
                        return pos + 1;
                    }
                    depth -= 1;
                }
                b'{' => {
                    pos = memchr::memchr(b'}', &c[pos..]).map_or(c.len(), |i| pos + i);
                }
                b';' => {
                    pos = memchr::memchr(b'\n', &c[pos..]).map_or(c.len(), |i| pos + i);
                    continue;
                }
                // a blank line does not end it: the reader is given the
                // blank lines inside the movetext as spaces (GameChunk::gaps),
                // and the movetext ends at the chunk's end
                b'\n' if c.get(pos + 1) == Some(&b'[') => {
                    self.unclosed_variation(start, depth + 1);
                    return pos;
                }
                _ => {}
            }
            pos += 1;
        }
        self.unclosed_variation(start, depth + 1);
        c.len()
    }

    /// A variation still open where the movetext ends: everything after
    /// its `(`, the result included, was read as part of it.
    fn unclosed_variation(&mut self, start: usize, open: usize) {
        let span = self.index.span(start, 1);
        self.problem(
            ProblemKind::Syntax,
            format!(
                "variation not closed: {open} `(` from here on have no `)` before the movetext ends; the moves and the result after it were read as part of the variation"
            ),
            Some(span),
        );
    }
}

pub(super) const OUTCOMES: [&[u8]; 8] = [
    b"1-0",
    b"0-1",
    b"1/2-1/2",
    "½-½".as_bytes(),
    "1–0".as_bytes(),
    "0–1".as_bytes(),
    "1—0".as_bytes(),
    "0—1".as_bytes(),
];

fn token_end(c: &[u8], from: usize) -> usize {
    c[from..]
        .iter()
        .position(|&b| ENDS_TOKEN[usize::from(b)])
        .map_or(c.len(), |i| from + i)
        .max(from + 1)
        .min(c.len())
}

/// `0-0` or `0-0-0`, with a check or mate sign or not: castling as some
/// programs write it, with zeros for the letter O.
fn zero_castling(word: &[u8]) -> bool {
    let bare = word
        .strip_suffix(b"+")
        .or_else(|| word.strip_suffix(b"#"))
        .unwrap_or(word);
    bare == b"0-0" || bare == b"0-0-0"
}

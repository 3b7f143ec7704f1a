//! Source locations.
//!
//! Every fact arbiter reports can be traced back to the bytes it came from.
//! A [`Span`] is an absolute byte range in one input file together with the
//! 1-based line and column of its first byte, so that a committee can open the
//! file at the cited place.

use serde::Serialize;

/// A byte range in one input file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Span {
    /// Byte offset of the first byte, from the start of the file.
    pub offset: u64,
    /// Length in bytes.
    pub len: u64,
    /// 1-based line of the first byte.
    pub line: u64,
    /// 1-based column (in bytes) of the first byte.
    pub column: u64,
}

/// Maps offsets inside one in-memory chunk of a file to absolute spans.
///
/// The chunk starts at `base_offset` on line `base_line`, column 1, and its
/// lines after the first start at `starts` (the place after each `\n`, as
/// the splitter notes them: the chunk is not searched again). Lookups are
/// expected to move forward through the chunk; the index keeps a cursor so
/// a whole pass costs time linear in the number of lines.
#[derive(Debug)]
pub struct LineIndex<'a> {
    len: usize,
    starts: &'a [u32],
    base_offset: u64,
    base_line: u64,
    /// How many of `starts` lie at or before the last lookup.
    passed: usize,
}

impl<'a> LineIndex<'a> {
    pub fn new(chunk: &[u8], starts: &'a [u32], base_offset: u64, base_line: u64) -> Self {
        LineIndex {
            len: chunk.len(),
            starts,
            base_offset,
            base_line,
            passed: 0,
        }
    }

    /// The span of `chunk[start..start + len]`.
    pub fn span(&mut self, start: usize, len: usize) -> Span {
        let start = start.min(self.len);
        // back (rare: a correction after a failed lookup), then forward
        while self.passed > 0 && self.starts[self.passed - 1] as usize > start {
            self.passed -= 1;
        }
        while self
            .starts
            .get(self.passed)
            .is_some_and(|&s| s as usize <= start)
        {
            self.passed += 1;
        }
        let line_start = match self.passed {
            0 => 0,
            n => self.starts[n - 1] as usize,
        };
        Span {
            offset: self.base_offset + start as u64,
            len: len as u64,
            line: self.base_line + self.passed as u64,
            column: (start - line_start) as u64 + 1,
        }
    }
}

/// Where each line of `bytes` after the first starts: the place after each
/// `\n`, as [`crate::ingest::pgn::GameSplitter`] notes them while it cuts
/// the lines. (A chunk is at most `MAX_GAME_BYTES`, so its places fit.)
pub fn line_starts(bytes: &[u8]) -> Vec<u32> {
    memchr::memchr_iter(b'\n', bytes)
        .map(|nl| (nl + 1) as u32)
        .collect()
}

/// Spans for the lines of a text given one after another, each with its
/// line ending: a text in memory (`lines_with_spans`) and a file read line
/// by line are numbered alike.
#[derive(Debug, Default)]
pub struct LineSpans {
    offset: u64,
    line: u64,
}

impl LineSpans {
    /// The next line without its line ending, and its span: byte offset,
    /// length, 1-based line number, column 1.
    pub fn next<'a>(&mut self, raw: &'a str) -> (Span, &'a str) {
        let text = raw.trim_end_matches(['\n', '\r']);
        self.line += 1;
        let span = Span {
            offset: self.offset,
            len: text.len() as u64,
            line: self.line,
            column: 1,
        };
        self.offset += raw.len() as u64;
        (span, text)
    }
}

/// The lines of a text (without their line ending), each with its span:
/// byte offset, length, 1-based line number, column 1.
pub fn lines_with_spans(text: &str) -> impl Iterator<Item = (Span, &str)> {
    let mut spans = LineSpans::default();
    text.split_inclusive('\n').map(move |raw| spans.next(raw))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_are_one_based_and_absolute() {
        let text = b"ab\ncd\n\nef";
        let starts = line_starts(text);
        let mut idx = LineIndex::new(text, &starts, 100, 10);
        assert_eq!(
            idx.span(0, 1),
            Span {
                offset: 100,
                len: 1,
                line: 10,
                column: 1
            }
        );
        assert_eq!(
            idx.span(4, 1),
            Span {
                offset: 104,
                len: 1,
                line: 11,
                column: 2
            }
        );
        assert_eq!(
            idx.span(7, 2),
            Span {
                offset: 107,
                len: 2,
                line: 13,
                column: 1
            }
        );
        // backwards lookups still give the right answer
        assert_eq!(
            idx.span(1, 1),
            Span {
                offset: 101,
                len: 1,
                line: 10,
                column: 2
            }
        );
    }
}

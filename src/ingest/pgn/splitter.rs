//! [`GameSplitter`]: a PGN stream cut into one [`GameChunk`] per game,
//! read once, in order, through a bounded buffer, each chunk with its
//! offset, line, line starts and the longest token the reader must hold.

use std::io::{self, BufRead};

use super::cut::Cut;
use super::token_reach::longest_token;
use crate::ingest::text::{GameText, wide_encoding};

/// Games longer than this are reported and skipped, so that one corrupt game
/// cannot exhaust memory.
pub const MAX_GAME_BYTES: usize = 8 << 20;

/// One game's raw bytes and where they start in the file.
#[derive(Debug)]
pub struct GameChunk {
    /// 0-based index of the game in its file.
    pub index: usize,
    /// Byte offset of the chunk's first byte.
    pub offset: u64,
    /// 1-based line of the chunk's first byte.
    pub line: u64,
    /// Its text, shared with the PVs typed from it
    /// ([`crate::ingest::comments::PvText`]).
    pub bytes: std::sync::Arc<GameText>,
    /// The game was longer than [`MAX_GAME_BYTES`]; `bytes` holds only the
    /// first part.
    pub oversize: Option<u64>,
    /// What the PGN reader must hold at once to read `bytes` (see
    /// [`longest_token`]): the splitter finds it as it reads the lines.
    pub longest_token: usize,
    /// Where each line of `bytes` after the first starts: the place after
    /// each `\n` ([`crate::base::span::line_starts`]). The splitter notes them as it cuts the
    /// lines, so that the spans of the game's tokens are numbered without
    /// a second search of its text.
    pub line_starts: Vec<u32>,
    /// The blank lines inside the movetext that more of the game's
    /// movetext follows, each from the line end before them to the start
    /// of the line after them. pgn-reader ends a game's movetext at a blank
    /// line: it is given the text with these line ends made spaces, so that
    /// the moves and the result after them are read.
    pub gaps: Vec<(u32, u32)>,
}

impl GameChunk {
    /// A chunk of a whole game's text, as the splitter would make it.
    pub fn of_text(index: usize, offset: u64, line: u64, bytes: Vec<u8>) -> GameChunk {
        GameChunk {
            index,
            offset,
            line,
            longest_token: longest_token(&bytes),
            line_starts: crate::base::span::line_starts(&bytes),
            gaps: super::cut::gaps(&bytes),
            bytes: std::sync::Arc::new(GameText::new(bytes)),
            oversize: None,
        }
    }
}

/// Splits a PGN stream into game chunks.
///
/// A game ends where a tag line (`[` at the start of a line, outside any
/// comment) follows movetext. An unterminated `{` comment would otherwise
/// swallow the rest of the file: a blank line followed by a well-formed tag
/// line ends the game even inside a comment, so the next game is still read.
#[derive(Debug)]
pub struct GameSplitter<R> {
    input: R,
    pub(super) offset: u64,
    pub(super) line: u64,
    next_index: usize,
    /// A line already read that starts the next chunk.
    carry: Option<Vec<u8>>,
    done: bool,
    /// The length of the last game read: the next one's buffer is made
    /// that large (to the next power of two) at once, so that a game's text
    /// is one allocation, not one per doubling.
    hint: usize,
    /// The last game's number of lines: its line starts' vector is made
    /// that large (rounded up to a power of two), not grown from empty.
    line_hint: usize,
    /// Every line is read and copied on its own (the tests compare the
    /// buffered way with it).
    line_at_a_time: bool,
}

/// A UTF-8 byte-order mark.
const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// How far [`GameSplitter::take_buffered`] went.
enum Buffered {
    /// The next line starts the next game; it is left in the reader.
    Boundary,
    /// Every byte of the reader's buffer was taken.
    Drained,
    /// The next line must be read on its own: it runs past the buffer, or
    /// ends in a CR, starts with a byte-order mark, or makes the game too
    /// large (or the input has ended).
    Stopped,
}

impl<R: BufRead> GameSplitter<R> {
    pub fn new(input: R) -> Self {
        GameSplitter {
            input,
            offset: 0,
            line: 1,
            next_index: 0,
            carry: None,
            done: false,
            hint: 0,
            line_hint: 0,
            line_at_a_time: false,
        }
    }

    /// A splitter that reads and copies every line on its own, as it did
    /// before lines were taken from the reader's buffer in runs.
    #[cfg(test)]
    pub(super) fn line_at_a_time(mut self) -> Self {
        self.line_at_a_time = true;
        self
    }

    /// Take the whole lines in the reader's buffer into the game, up to the
    /// next game or a line that must be read on its own (see [`Buffered`]),
    /// and copy them onto the game's text at once: one copy for a run of
    /// lines, not one a line. A line ending in LF or CRLF is kept as it is,
    /// so a run is the file's bytes.
    fn take_buffered(
        &mut self,
        cut: &mut Cut,
        bytes: &mut Vec<u8>,
        line_starts: &mut Vec<u32>,
        total: &mut u64,
    ) -> io::Result<Buffered> {
        let avail = loop {
            match self.input.fill_buf() {
                Ok(b) => break b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        let base = bytes.len();
        let mut pos = 0;
        let mut how = Buffered::Stopped;
        while pos < avail.len() {
            let rest = &avail[pos..];
            let end = match memchr::memchr2(b'\n', b'\r', rest) {
                Some(i) if rest[i] == b'\n' => i + 1,
                Some(i) if rest.get(i + 1) == Some(&b'\n') => i + 2,
                // a lone CR (kept as an LF), a CR at the buffer's end, or
                // no line end in the buffer
                _ => break,
            };
            let line = &rest[..end];
            if line.starts_with(&BOM) || base + pos + end > MAX_GAME_BYTES {
                break;
            }
            if !cut.take(line, base + pos, true, line_starts) {
                how = Buffered::Boundary;
                break;
            }
            self.offset += end as u64;
            self.line += 1;
            *total += end as u64;
            pos += end;
        }
        if pos > 0 && pos == avail.len() {
            how = Buffered::Drained;
        }
        bytes.extend_from_slice(&avail[..pos]);
        self.input.consume(pos);
        Ok(how)
    }

    /// The underlying reader.
    pub fn into_inner(self) -> R {
        self.input
    }

    /// Reads one line (with its `\n`) onto the end of `line`, from `start`
    /// (what was there from `start` on is dropped), keeping at most
    /// `MAX_GAME_BYTES + 1` bytes of it. Returns the true length.
    ///
    /// A line ends at LF, CRLF, or a CR alone (old Mac files, and files
    /// whose parts were joined from different systems): a lone CR is kept
    /// as an LF, the same length, so every offset is the file's and the
    /// line numbers are those an editor shows.
    fn read_line(&mut self, line: &mut Vec<u8>, start: usize) -> io::Result<Option<u64>> {
        line.truncate(start);
        let mut total: u64 = 0;
        // the previous buffer ended with a CR: the line ends here, with
        // this buffer's LF if it starts with one
        let mut after_cr = false;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if after_cr {
                if buf.first() == Some(&b'\n') {
                    if line.len() - start <= MAX_GAME_BYTES {
                        line.push(b'\n');
                    }
                    total += 1;
                    self.input.consume(1);
                } else if line.len() > start && line.last() == Some(&b'\r') {
                    *line.last_mut().unwrap() = b'\n';
                }
                break;
            }
            if buf.is_empty() {
                break;
            }
            let (take, found, lone_cr) = match memchr::memchr2(b'\n', b'\r', buf) {
                Some(i) if buf[i] == b'\n' => (i + 1, true, false),
                Some(i) => match buf.get(i + 1) {
                    Some(b'\n') => (i + 2, true, false),
                    Some(_) => (i + 1, true, true),
                    None => {
                        after_cr = true;
                        (i + 1, false, false)
                    }
                },
                None => (buf.len(), false, false),
            };
            let room = (MAX_GAME_BYTES + 1).saturating_sub(line.len() - start);
            line.extend_from_slice(&buf[..take.min(room)]);
            if lone_cr && take <= room {
                *line.last_mut().unwrap() = b'\n';
            }
            total += take as u64;
            self.input.consume(take);
            if found {
                break;
            }
        }
        Ok(if total == 0 { None } else { Some(total) })
    }

    /// Refuse UTF-16 (and UTF-32) input at its first bytes: read as bytes
    /// it would be a stream of NULs and half-characters, not PGN.
    fn check_encoding(&mut self) -> io::Result<()> {
        let head = loop {
            match self.input.fill_buf() {
                Ok(b) => break b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        let what = wide_encoding(head);
        if head.starts_with(&BOM) {
            // a UTF-8 byte-order mark (Windows tools write one): skip it,
            // keeping offsets those of the file
            self.input.consume(3);
            self.offset = 3;
            return Ok(());
        }
        match what {
            Some(w) => Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "line 1: the file is {w}; arbiter reads PGN as UTF-8 (or Latin-1): convert it, e.g. `iconv -f UTF-16 -t UTF-8`"
                ),
            )),
            None => Ok(()),
        }
    }

    /// The next game chunk, or `None` at the end of the input.
    pub fn next_chunk(&mut self) -> io::Result<Option<GameChunk>> {
        if self.done {
            return Ok(None);
        }
        if self.offset == 0
            && self.carry.is_none()
            && let Err(e) = self.check_encoding()
        {
            self.done = true;
            return Err(e);
        }
        let mut chunk = GameChunk {
            index: self.next_index,
            offset: self.offset,
            line: self.line,
            bytes: Default::default(),
            oversize: None,
            longest_token: 0,
            line_starts: Vec::with_capacity(self.line_hint.next_power_of_two()),
            gaps: Vec::new(),
        };
        let mut bytes: Vec<u8> =
            Vec::with_capacity(self.hint.next_power_of_two().min(MAX_GAME_BYTES));
        let mut total: u64 = 0;
        let mut cut = Cut::default();
        // once the game is too large, each line is read into a buffer of
        // its own and dropped
        let mut spill: Vec<u8> = Vec::new();
        loop {
            let keep = chunk.oversize.is_none();
            if keep && self.carry.is_none() && !self.line_at_a_time {
                match self.take_buffered(
                    &mut cut,
                    &mut bytes,
                    &mut chunk.line_starts,
                    &mut total,
                )? {
                    Buffered::Boundary => break,
                    Buffered::Drained => continue,
                    Buffered::Stopped => {}
                }
            }
            // one line the buffered way does not take: read onto the end of
            // the game's text
            let (buf, start) = if keep {
                let start = bytes.len();
                (&mut bytes, start)
            } else {
                (&mut spill, 0)
            };
            let len = match self.carry.take() {
                Some(l) => {
                    buf.truncate(start);
                    buf.extend_from_slice(&l);
                    l.len() as u64
                }
                None => match self.read_line(buf, start)? {
                    Some(n) => n,
                    None => {
                        buf.truncate(start);
                        self.done = true;
                        break;
                    }
                },
            };
            let line = &mut buf[start..];
            // a byte-order mark at the start of a later line (files joined
            // with `cat`): blank it, keeping every offset, so that the tag
            // line after it is seen
            if line.starts_with(&BOM) {
                line[..3].copy_from_slice(b"   ");
            }
            // the line is kept, and followed for the longest token, unless
            // it makes the game too large
            let kept = keep && start + line.len() <= MAX_GAME_BYTES && (line.len() as u64) >= len;
            if !cut.take(line, start, kept, &mut chunk.line_starts) {
                self.carry = Some(buf[start..].to_vec());
                buf.truncate(start);
                break;
            }
            self.offset += len;
            self.line += 1;
            total += len;
            if keep && !kept {
                chunk.oversize = Some(0);
                buf.truncate(start);
            }
        }
        if total == 0 {
            return Ok(None);
        }
        if chunk.oversize.is_none() && bytes.iter().all(u8::is_ascii_whitespace) {
            // blank lines between or after games are not a game
            return self.next_chunk();
        }
        if chunk.oversize.is_some() {
            chunk.oversize = Some(total);
        }
        // A line without its final newline does not start a new line.
        if bytes.last().is_some_and(|&b| b != b'\n') && self.done {
            self.line -= 1;
        }
        self.hint = bytes.len();
        self.line_hint = chunk.line_starts.len();
        chunk.longest_token = cut.reach.finish(bytes.len());
        chunk.gaps = std::mem::take(&mut cut.gaps);
        chunk.bytes = std::sync::Arc::new(GameText::new(bytes));
        self.next_index += 1;
        Ok(Some(chunk))
    }
}

//! PGN ingest: stream games out of a file, with every token's source span.
//!
//! The file is read once, in order, through a bounded buffer: [`GameSplitter`]
//! cuts it into one chunk per game (tracking the byte offset and line of each
//! chunk), and [`parse_game`] reads a chunk with pgn-reader's visitor. Memory
//! is bounded by the largest game, never by the file.
//!
//! pgn-reader reports tokens without positions, so arbiter recovers them: tag
//! values and comments are located exactly (and verified byte for byte against
//! the chunk), and a small scanner walks the movetext in step with the
//! reader's callbacks to place each move and outcome. The scanner also finds
//! the tokens pgn-reader skips silently (an unknown piece letter, binary
//! garbage): these become [`PgnProblem`]s, never lost data.

use std::cell::Cell;
use std::io::{self, BufRead, Read};
use std::ops::ControlFlow;
use std::rc::Rc;

use pgn_reader::{Nag, Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};

use super::annotations::{Annotations, CommentSource, parse_comment_from};
use crate::base::span::{LineIndex, Span};

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
    /// ([`super::annotations::PvText`]).
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
            bytes: std::sync::Arc::new(GameText::new(bytes)),
            oversize: None,
        }
    }
}

/// A game's bytes, checked as UTF-8 once, where the splitter cuts them from
/// the file (on the thread that reads it). Nearly every game is UTF-8: its
/// tags, moves and comments are then read as slices of its text, without a
/// check of their own; a game that is not keeps its bytes, and each piece
/// is decoded as before.
#[derive(Debug)]
pub enum GameText {
    Utf8(String),
    Bytes(Vec<u8>),
}

impl GameText {
    pub fn new(bytes: Vec<u8>) -> GameText {
        match String::from_utf8(bytes) {
            Ok(text) => GameText::Utf8(text),
            Err(e) => GameText::Bytes(e.into_bytes()),
        }
    }

    /// The text of bytes `start..end`: `None` when the game is not UTF-8 or
    /// the range does not fall on characters' boundaries.
    pub fn text(&self, start: usize, end: usize) -> Option<&str> {
        match self {
            GameText::Utf8(text) => text.get(start..end),
            GameText::Bytes(_) => None,
        }
    }
}

impl Default for GameText {
    fn default() -> GameText {
        GameText::Utf8(String::new())
    }
}

impl std::ops::Deref for GameText {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            GameText::Utf8(text) => text.as_bytes(),
            GameText::Bytes(bytes) => bytes,
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
    offset: u64,
    line: u64,
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

/// The lexical state of the game being cut, followed line by line.
#[derive(Debug, Default)]
struct Cut {
    reach: TokenReach,
    in_comment: bool,
    movetext: bool,
    /// The line before was blank.
    prev_blank: bool,
    /// A line of the game has been taken.
    started: bool,
}

impl Cut {
    /// Take `line`, which starts at `start` in the game's text, into the
    /// game, or return `false` when it starts the next game (a tag line
    /// after movetext, or a well-formed tag line after a blank line inside
    /// a comment never closed). Where it is not `kept` (it would make the
    /// game too large), only the lexical state follows it.
    fn take(&mut self, line: &[u8], start: usize, kept: bool, line_starts: &mut Vec<u32>) -> bool {
        let trimmed = trim_start(line);
        let is_tag = trimmed.first() == Some(&b'[');
        if self.started
            && is_tag
            && ((!self.in_comment && self.movetext)
                || (self.in_comment && self.prev_blank && is_well_formed_tag(trimmed)))
        {
            return false;
        }
        self.started = true;
        self.prev_blank = trimmed.iter().all(|b| b.is_ascii_whitespace());
        if !self.in_comment && (is_tag && !self.movetext || line.first() == Some(&b'%')) {
            // a tag line (brackets and braces inside the value are text) or
            // an escape line
            if kept {
                self.reach.follow(line, start);
            }
        } else if self.movetext && kept {
            // nearly every line: its braces found once for both
            self.reach
                .follow_movetext(line, start, &mut self.in_comment);
        } else {
            scan_line(line, &mut self.in_comment, &mut self.movetext);
            if kept {
                self.reach.follow(line, start);
            }
        }
        if kept && line.last() == Some(&b'\n') {
            // the line's only `\n` ends it; the game is at most
            // MAX_GAME_BYTES, so its places fit
            line_starts.push((start + line.len()) as u32);
        }
        true
    }
}

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

/// Whether text starting with `head` is UTF-16 or UTF-32 (named, with how
/// it shows), which arbiter does not read: by its byte-order mark, or by
/// every other byte being NUL.
pub fn wide_encoding(head: &[u8]) -> Option<&'static str> {
    match head {
        [0xFF, 0xFE, 0, 0, ..] | [0, 0, 0xFE, 0xFF, ..] => Some("UTF-32 (byte-order mark)"),
        [0xFF, 0xFE, ..] => Some("UTF-16LE (byte-order mark FF FE)"),
        [0xFE, 0xFF, ..] => Some("UTF-16BE (byte-order mark FE FF)"),
        [a, 0, b, 0, ..] if a.is_ascii() && b.is_ascii() && *a != 0 => {
            Some("UTF-16LE (no byte-order mark: every other byte is NUL)")
        }
        [0, a, 0, b, ..] if a.is_ascii() && b.is_ascii() && *a != 0 => {
            Some("UTF-16BE (no byte-order mark: every other byte is NUL)")
        }
        _ => None,
    }
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
    fn line_at_a_time(mut self) -> Self {
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
        chunk.bytes = std::sync::Arc::new(GameText::new(bytes));
        self.next_index += 1;
        Ok(Some(chunk))
    }
}

/// Follow a movetext line's lexical state: inside a `{…}` comment or not,
/// and whether movetext has begun (anything but white space; `;` ends the
/// line's text). Once movetext has begun, only braces and `;` matter, and
/// they are found with memchr rather than a byte at a time.
fn scan_line(line: &[u8], in_comment: &mut bool, movetext: &mut bool) {
    let mut i = 0;
    while i < line.len() {
        if *in_comment {
            match memchr::memchr(b'}', &line[i..]) {
                Some(k) => {
                    *in_comment = false;
                    i += k + 1;
                }
                None => return,
            }
        } else if *movetext {
            match memchr::memchr2(b'{', b';', &line[i..]) {
                Some(k) if line[i + k] == b'{' => {
                    *in_comment = true;
                    i += k + 1;
                }
                _ => return,
            }
        } else {
            match line[i] {
                b'{' => {
                    *in_comment = true;
                    *movetext = true;
                }
                b';' => {
                    *movetext = true;
                    return;
                }
                b' ' | b'\t' | b'\r' | b'\n' => {}
                _ => *movetext = true,
            }
            i += 1;
        }
    }
}

fn trim_start(line: &[u8]) -> &[u8] {
    let n = line
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r'))
        .count();
    &line[n..]
}

/// `[Name "` with a name of letters, digits and underscores.
fn is_well_formed_tag(line: &[u8]) -> bool {
    let body = &line[1..];
    let name_len = body
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    if name_len == 0 {
        return false;
    }
    let rest = trim_start(&body[name_len..]);
    rest.first() == Some(&b'"')
}

/// A tag pair as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    /// Inline (no allocation) up to 24 bytes, as nearly every tag's name
    /// and value are.
    pub name: compact_str::CompactString,
    pub value: compact_str::CompactString,
    /// The span of the value (between the quotes).
    pub span: Span,
}

/// A comment and what arbiter understood of it.
#[derive(Debug, Clone)]
pub struct Comment {
    /// The span of the whole `{…}`: the text is read from the file there.
    pub span: Span,
    /// What the comment says, typed (its plain text in `annotations.text`).
    pub annotations: Annotations,
}

/// One mainline move as written.
#[derive(Debug, Clone)]
pub struct PgnMove {
    pub san: SanPlus,
    /// The move token exactly as written (inline up to 24 bytes: no
    /// allocation for a move).
    pub written: compact_str::CompactString,
    pub span: Option<Span>,
    /// Where the comments that follow the move (before the next move) lie
    /// in the game's `comments`: read them with [`PgnGame::comments_of`].
    /// A move holds none inline (a move is about 100 bytes, a comment
    /// about 460), so a record without comments writes no room for them.
    pub comment_range: std::ops::Range<u32>,
    pub nags: Vec<u8>,
}

/// What kind of problem the reader met.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemKind {
    /// The syntax is broken in a way the reader could not recover from
    /// within the game (unterminated tag or comment, game too large).
    Syntax,
    /// A movetext token that is neither a move, a move number, an annotation
    /// glyph, a comment, a variation nor a result.
    UnparsableToken,
    /// A tag or comment that is not valid UTF-8 (decoded as Windows-1252).
    Encoding,
    /// A malformed value inside a machine-written comment.
    Annotation,
    /// The same tag appears twice.
    DuplicateTag,
}

/// A problem found while reading a game.
#[derive(Debug, Clone)]
pub struct PgnProblem {
    pub kind: ProblemKind,
    pub message: String,
    pub span: Option<Span>,
    /// Number of mainline moves read before the problem.
    pub before_move: usize,
}

/// One game as read from the file, before any replay.
#[derive(Debug, Clone)]
pub struct PgnGame {
    /// 0-based index of the game in its file.
    pub index: usize,
    /// Byte offset and line where the game's text starts.
    pub offset: u64,
    pub line: u64,
    pub tags: Vec<Tag>,
    /// Comments before the first move (game comments such as TCEC's
    /// engine options).
    pub preamble: Vec<Comment>,
    pub moves: Vec<PgnMove>,
    /// The comments after the first move, in order: each move's are a run
    /// of them (`PgnMove::comment_range`).
    pub comments: Vec<Comment>,
    /// The termination marker in the movetext (`1-0`, `0-1`, `1/2-1/2`,
    /// `*`), if any, and its span.
    pub outcome: Option<(String, Option<Span>)>,
    /// Variations skipped (each `(` at any depth counts once).
    pub variations: u32,
    pub problems: Vec<PgnProblem>,
}

thread_local! {
    /// The lists of moves and of comments of the last game dropped on this
    /// thread, emptied: the next game read here fills them, with no
    /// allocation and no copy as they grow (140 moves with a comment each
    /// are about 80 KB that doubling copied about once more).
    static SPARE_MOVES: std::cell::Cell<Vec<PgnMove>> =
        const { std::cell::Cell::new(Vec::new()) };
    static SPARE_COMMENTS: std::cell::Cell<Vec<Comment>> =
        const { std::cell::Cell::new(Vec::new()) };
}

/// A list longer than this (a game of more than 1,024 plies, or comments)
/// is not kept for the next game.
const SPARE_MAX: usize = 1024;

/// The spare list of moves of this thread, if any (empty, with room).
fn spare_moves() -> Vec<PgnMove> {
    SPARE_MOVES.try_with(|s| s.take()).unwrap_or_default()
}

/// The spare list of comments of this thread, if any (empty, with room).
fn spare_comments() -> Vec<Comment> {
    SPARE_COMMENTS.try_with(|s| s.take()).unwrap_or_default()
}

/// Keep `list`, emptied, in `spare` for the next game read on this thread,
/// unless the spare already has as much room or `list` is too large.
fn keep_spare<T: 'static>(
    spare: &'static std::thread::LocalKey<std::cell::Cell<Vec<T>>>,
    mut list: Vec<T>,
) {
    list.clear();
    if list.capacity() > 0 && list.capacity() <= SPARE_MAX {
        let _ = spare.try_with(|s| {
            let old = s.take();
            s.set(if old.capacity() >= list.capacity() {
                old
            } else {
                list
            });
        });
    }
}

impl Drop for PgnGame {
    /// The game's lists of moves and of comments, emptied, are kept for the
    /// next game read on this thread.
    fn drop(&mut self) {
        keep_spare(&SPARE_MOVES, std::mem::take(&mut self.moves));
        keep_spare(&SPARE_COMMENTS, std::mem::take(&mut self.comments));
    }
}

impl PgnGame {
    /// The comments that follow `mv`, one of this game's moves.
    pub fn comments_of(&self, mv: &PgnMove) -> &[Comment] {
        let r = mv.comment_range.start as usize..mv.comment_range.end as usize;
        self.comments.get(r).unwrap_or(&[])
    }

    /// The first value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    pub fn tag_entry(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name == name)
    }
}

/// Decode bytes as UTF-8, falling back to Windows-1252 (every byte one
/// char: Latin-1, with the printable characters Windows puts at 0x80-0x9F,
/// e.g. `€` and `…`), into a `String` or a `CompactString` (inline up to
/// 24 bytes). Returns whether the fallback was used.
pub fn decode_text<T>(bytes: &[u8]) -> (T, bool)
where
    T: for<'s> From<&'s str> + FromIterator<char>,
{
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.into(), false),
        Err(_) => (bytes.iter().map(|&b| windows_1252(b)).collect(), true),
    }
}

/// One byte of Windows-1252 text. The five bytes it leaves undefined
/// (0x81, 0x8D, 0x8F, 0x90, 0x9D) are read as in Latin-1, so no byte is lost.
fn windows_1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}',
        '\u{2021}', '\u{2C6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}',
        '\u{8F}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}',
        '\u{2014}', '\u{2DC}', '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}', '\u{17E}',
        '\u{178}',
    ];
    match b {
        0x80..=0x9F => HIGH[usize::from(b - 0x80)],
        _ => b as char,
    }
}

/// The tags of the game whose chunk starts at byte `offset`, line `line`
/// of a file (as [`GameChunk`] gave them), read again from the file.
pub fn read_tags_at(path: &std::path::Path, offset: u64, line: u64) -> io::Result<Vec<Tag>> {
    use std::io::{Seek, SeekFrom};
    let mut file = std::fs::File::open(path)?;
    file.seek(SeekFrom::Start(offset))?;
    let mut splitter = GameSplitter::new(io::BufReader::new(file));
    let Some(mut chunk) = splitter.next_chunk()? else {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!("no game at byte {offset} any more: the file changed"),
        ));
    };
    chunk.offset = offset;
    chunk.line = line;
    Ok(std::mem::take(&mut read_game(&chunk, Part::Tags).tags))
}

/// How much of a game [`read_game`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Whole,
    /// The tags alone: the reader stops where the movetext begins (its
    /// comments are not typed, its moves not made).
    Tags,
}

/// Read one game chunk.
pub fn parse_game(chunk: &GameChunk) -> PgnGame {
    read_game(chunk, Part::Whole)
}

fn read_game(chunk: &GameChunk, part: Part) -> PgnGame {
    // the lines that open with a tag at the chunk's start, one tag each
    // nearly always: the list made that large at once, not grown
    let tag_lines = std::iter::once(0)
        .chain(chunk.line_starts.iter().map(|&s| s as usize))
        .take_while(|&s| chunk.bytes.get(s) == Some(&b'['))
        .count();
    let mut game = PgnGame {
        index: chunk.index,
        offset: chunk.offset,
        line: chunk.line,
        tags: Vec::with_capacity(tag_lines),
        preamble: Vec::new(),
        moves: spare_moves(),
        comments: spare_comments(),
        outcome: None,
        variations: 0,
        problems: Vec::new(),
    };
    if let Some(total) = chunk.oversize {
        // the tags are still read (they head the text that was kept), so
        // that the report names the game; its movetext is skipped
        let head_end = chunk
            .bytes
            .windows(2)
            .position(|w| w == b"\n\n")
            .or_else(|| chunk.bytes.windows(4).position(|w| w == b"\r\n\r\n"));
        if let Some(end) = head_end
            && chunk.bytes.first() == Some(&b'[')
        {
            let mut bytes = chunk.bytes[..end].to_vec();
            bytes.extend_from_slice(b"\n\n*\n");
            let header = GameChunk::of_text(chunk.index, chunk.offset, chunk.line, bytes);
            let mut h = parse_game(&header);
            game.tags = std::mem::take(&mut h.tags);
            game.problems.extend(
                std::mem::take(&mut h.problems)
                    .into_iter()
                    .filter(|p| p.kind != ProblemKind::Syntax),
            );
        }
        let mut idx = LineIndex::new(&chunk.bytes, &chunk.line_starts, chunk.offset, chunk.line);
        game.problems.push(PgnProblem {
            kind: ProblemKind::Syntax,
            message: format!(
                "game text is {total} bytes, more than the {MAX_GAME_BYTES} bytes arbiter reads for one game; its tags were read, its moves skipped"
            ),
            span: Some(idx.span(0, 0)),
            before_move: 0,
        });
        return game;
    }
    let bytes = &chunk.bytes;
    let map = Rc::new(PtrMap::default());
    let source = TrackedSlice {
        data: bytes,
        pos: 0,
        map: Rc::clone(&map),
    };
    let limit = chunk.longest_token.max(255);
    let mut reader = Reader::build(source)
        .set_supported_tag_line_length(limit)
        .set_supported_comment_length(limit)
        .finish();
    let mut visitor = GameVisitor {
        part,
        chunk: bytes,
        map,
        index: LineIndex::new(bytes, &chunk.line_starts, chunk.offset, chunk.line),
        cursor: 0,
        game: &mut game,
    };
    let result = reader.read_game(&mut visitor);
    match result {
        // whatever follows the game in the chunk was scanned by `end_game`
        Ok(_) => {}
        Err(e) => {
            let at = visitor.cursor;
            let span = visitor.index.span(at, 0);
            let n = visitor.game.moves.len();
            visitor.game.problems.push(PgnProblem {
                kind: ProblemKind::Syntax,
                message: format!("{e} (reading stopped here; the rest of this game is ignored)"),
                span: Some(span),
                before_move: n,
            });
        }
    }
    game
}

/// An upper bound on what the reader must hold at once to read the chunk
/// as if it held all of it: the longest line (a tag line, or any token but
/// a comment, lies within one) and the longest `{…}` from a brace to the
/// next closing one (an unclosed brace: to the end), plus the braces. The
/// reader shifts its buffer for every token it reads, so a buffer the size
/// of the whole game (as this once was) costs time quadratic in the game.
fn longest_token(bytes: &[u8]) -> usize {
    let mut longest = 0;
    let mut start = 0;
    for nl in memchr::memchr_iter(b'\n', bytes) {
        longest = longest.max(nl - start);
        start = nl + 1;
    }
    longest = longest.max(bytes.len() - start);
    let mut at = 0;
    while let Some(open) = memchr::memchr(b'{', &bytes[at..]).map(|i| at + i) {
        match memchr::memchr(b'}', &bytes[open..]) {
            Some(close) => {
                longest = longest.max(close + 1);
                at = open + close + 1;
            }
            None => {
                longest = longest.max(bytes.len() - open);
                break;
            }
        }
    }
    (longest + 2).min(bytes.len().max(1))
}

/// [`longest_token`] found a line at a time, as the splitter reads them:
/// each line the splitter keeps ends with its only `\n` (a lone CR is kept
/// as one), except a last line without one.
#[derive(Debug, Default)]
struct TokenReach {
    longest: usize,
    /// Bytes since the last `\n`.
    line: usize,
    /// Where the `{` not yet closed is, in the chunk.
    open: Option<usize>,
}

impl TokenReach {
    /// Count `line`'s bytes into the current line's length; at its `\n`,
    /// the line is done and may be the longest.
    fn count_line(&mut self, line: &[u8]) {
        self.line += line.len();
        if line.last() == Some(&b'\n') {
            self.longest = self.longest.max(self.line - 1);
            self.line = 0;
        }
    }

    /// Follow `line`, which starts at `at` in the chunk.
    fn follow(&mut self, line: &[u8], at: usize) {
        self.count_line(line);
        let mut i = 0;
        loop {
            match self.open {
                Some(open) => match memchr::memchr(b'}', &line[i..]) {
                    Some(j) => {
                        self.longest = self.longest.max(at + i + j + 1 - open);
                        self.open = None;
                        i += j + 1;
                    }
                    None => return,
                },
                None => match memchr::memchr(b'{', &line[i..]) {
                    Some(j) => {
                        self.open = Some(at + i + j);
                        i += j + 1;
                    }
                    None => return,
                },
            }
        }
    }

    /// [`TokenReach::follow`] and [`scan_line`] at once, for a line of
    /// movetext once movetext has begun: each `{`, `}` and `;` is found
    /// once and told to both. `in_comment` is [`scan_line`]'s state, which
    /// a `;` outside a comment stops for the rest of the line (braces after
    /// it are text to the game but still count here, as in `follow`).
    fn follow_movetext(&mut self, line: &[u8], at: usize, in_comment: &mut bool) {
        self.count_line(line);
        // scan_line's state still follows this line (no `;` yet)
        let mut scanning = true;
        for i in memchr::memchr3_iter(b'{', b'}', b';', line) {
            match line[i] {
                b'{' => {
                    if self.open.is_none() {
                        self.open = Some(at + i);
                    }
                    if scanning {
                        *in_comment = true;
                    }
                }
                b'}' => {
                    if let Some(open) = self.open.take() {
                        self.longest = self.longest.max(at + i + 1 - open);
                    }
                    if scanning {
                        *in_comment = false;
                    }
                }
                _ => {
                    if scanning && !*in_comment {
                        scanning = false;
                    }
                }
            }
        }
    }

    /// The bound for a chunk of `len` bytes.
    fn finish(&self, len: usize) -> usize {
        let mut longest = self.longest.max(self.line);
        if let Some(open) = self.open {
            longest = longest.max(len - open);
        }
        (longest + 2).min(len.max(1))
    }
}

/// Records which chunk offset the reader's buffer pointer corresponds to at
/// the last read, so that slices handed to the visitor can be placed.
#[derive(Debug, Default)]
struct PtrMap {
    ptr: Cell<usize>,
    offset: Cell<usize>,
}

#[derive(Debug)]
struct TrackedSlice<'a> {
    data: &'a [u8],
    pos: usize,
    map: Rc<PtrMap>,
}

impl Read for TrackedSlice<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.map.ptr.set(buf.as_ptr() as usize);
        self.map.offset.set(self.pos);
        let n = buf.len().min(self.data.len() - self.pos);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
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
enum Tok {
    Filler,
    Comment,
    VarOpen,
    VarClose,
    Outcome,
    San,
    Junk,
    End,
}

struct GameVisitor<'c, 'g> {
    /// How much of the game is read: with [`Part::Tags`], the reader
    /// stops where the movetext begins.
    part: Part,
    /// The game's bytes, shared with the PVs typed from them.
    chunk: &'c std::sync::Arc<GameText>,
    map: Rc<PtrMap>,
    index: LineIndex<'c>,
    /// Scanner position in the chunk.
    cursor: usize,
    game: &'g mut PgnGame,
}

impl GameVisitor<'_, '_> {
    /// Place a slice the reader handed us; verified against the chunk.
    fn locate(&self, s: &[u8]) -> Option<usize> {
        if let Some(off) = self.place(s) {
            return Some(off);
        }
        // Fall back to a forward search from the scanner.
        if s.is_empty() {
            return None;
        }
        memchr::memmem::find(&self.chunk[self.cursor..], s).map(|i| self.cursor + i)
    }

    /// Where a slice the reader handed us lies in the chunk, by where the
    /// reader's buffer was last filled from, confirmed byte for byte.
    fn place(&self, s: &[u8]) -> Option<usize> {
        let ptr = s.as_ptr() as usize;
        let base = self.map.ptr.get();
        // The buffer position `base` held chunk offset `map.offset` at the
        // last read; the slice may lie before or after it.
        let off = (self.map.offset.get() as i128) + (ptr as i128) - (base as i128);
        usize::try_from(off)
            .ok()
            .filter(|&off| self.chunk.get(off..off + s.len()) == Some(s))
    }

    fn problem(&mut self, kind: ProblemKind, message: String, span: Option<Span>) {
        let n = self.game.moves.len();
        self.game.problems.push(PgnProblem {
            kind,
            message,
            span,
            before_move: n,
        });
    }

    /// The next token at or after `pos`: (kind, start, end). A comment
    /// whose `{` is at `known`'s start ends at its end, without a search
    /// (see [`GameVisitor::comment`]).
    fn token(&self, mut pos: usize, known: Option<(usize, usize)>) -> (Tok, usize, usize) {
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
                    Err(_) => (Tok::Junk, start, end),
                }
            }
        }
    }

    /// Advance the scanner to the next token of kind `want`, recording junk on
    /// the way. Returns its (start, end), or `None` (scanner unchanged) when
    /// something else came first.
    fn seek(&mut self, want: Tok) -> Option<(usize, usize)> {
        self.seek_known(want, None)
    }

    /// [`GameVisitor::seek`], with a comment's place known (see
    /// [`GameVisitor::token`]).
    fn seek_known(&mut self, want: Tok, known: Option<(usize, usize)>) -> Option<(usize, usize)> {
        let mut pos = self.cursor;
        let mut junk = Vec::new();
        loop {
            let (tok, start, end) = self.token(pos, known);
            if tok == want {
                for (s, e) in junk {
                    self.report_junk(s, e);
                }
                self.cursor = end;
                return Some((start, end));
            }
            match tok {
                Tok::Filler | Tok::VarClose => pos = end,
                Tok::Junk => {
                    junk.push((start, end));
                    pos = end;
                }
                _ => return None,
            }
        }
    }

    fn report_junk(&mut self, start: usize, end: usize) {
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

    fn decode<T>(&mut self, bytes: &[u8], what: std::fmt::Arguments<'_>, span: Span) -> T
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
    fn skip_variation(&mut self, start: usize) -> usize {
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
                b'\n' if matches!(c.get(pos + 1), Some(b'[' | b'\n')) => {
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

const OUTCOMES: [&[u8]; 8] = [
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

impl Visitor for GameVisitor<'_, '_> {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        let at_value = self.locate(value.0);
        let at = at_value.or_else(|| self.locate(name));
        let span = match at {
            Some(off) => {
                self.cursor = self.cursor.max(off + value.0.len());
                self.index.span(off, value.0.len())
            }
            None => self.index.span(self.cursor, 0),
        };
        // the reader keeps the white space between a name and its value
        // beyond the first space (Banksia writes a tab there)
        let (name, _) = decode_text(name.trim_ascii());
        // what the value is, made into a text only for a problem
        let raw = value.decode();
        // without escapes, the value is where it was found in the game's text
        let in_game = match (&raw, at_value) {
            (std::borrow::Cow::Borrowed(_), Some(off)) => self.chunk.text(off, off + raw.len()),
            _ => None,
        };
        let value = match in_game {
            Some(text) => compact_str::CompactString::new(text),
            None => self.decode(&raw, format_args!("tag {name}"), span),
        };
        if self.game.tags.iter().any(|t| t.name == name) {
            self.problem(
                ProblemKind::DuplicateTag,
                format!("tag {name} appears more than once; the first value is used"),
                Some(span),
            );
        }
        self.game.tags.push(Tag { name, value, span });
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
        if self.part == Part::Tags {
            return ControlFlow::Break(());
        }
        // The scanner starts after the last tag line.
        if self.game.tags.is_empty() {
            self.cursor = 0;
        } else if let Some(nl) = memchr::memchr(b'\n', &self.chunk[self.cursor..]) {
            self.cursor += nl + 1;
        }
        ControlFlow::Continue(())
    }

    fn san(&mut self, _: &mut (), san: SanPlus) -> ControlFlow<()> {
        let (written, span) = match self.seek(Tok::San) {
            Some((s, e)) => {
                let w = match self.chunk.text(s, e) {
                    Some(text) => compact_str::CompactString::new(text),
                    None => compact_str::CompactString::from_utf8_lossy(&self.chunk[s..e]),
                };
                (w, Some(self.index.span(s, e - s)))
            }
            None => (compact_str::format_compact!("{san}"), None),
        };
        // its comments, none yet, start where the game's list ends (a game
        // is at most MAX_GAME_BYTES, so the places fit)
        let at = self.game.comments.len() as u32;
        self.game.moves.push(PgnMove {
            san,
            written,
            span,
            comment_range: at..at,
            nags: Vec::new(),
        });
        ControlFlow::Continue(())
    }

    fn nag(&mut self, _: &mut (), nag: Nag) -> ControlFlow<()> {
        if let Some(m) = self.game.moves.last_mut() {
            m.nags.push(nag.0);
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _: &mut (), comment: RawComment<'_>) -> ControlFlow<()> {
        let body = comment.0;
        // Where the reader's slice lies, confirmed byte for byte: the
        // reader ends a comment at its first `}`, so with a `{` right before
        // the slice and a `}` right after it, the comment's place is known
        // and the scanner need not search its text for the `}` again.
        debug_assert!(
            !body.contains(&b'}'),
            "the reader ends a comment at its first `}}`"
        );
        let known = self.place(body).and_then(|off| {
            let open = off.checked_sub(1)?;
            let close = off + body.len();
            (open >= self.cursor
                && self.chunk[open] == b'{'
                && self.chunk.get(close) == Some(&b'}'))
            .then_some((open, close + 1))
        });
        // The scanner finds the comment (and any junk before it); the reader's
        // slice confirms it.
        let (start, end) = match self.seek_known(Tok::Comment, known) {
            Some(found) => found,
            None => match self.locate(body) {
                Some(off) if off > 0 => {
                    let end = (off + body.len() + 1).min(self.chunk.len());
                    self.cursor = self.cursor.max(end);
                    (off - 1, end)
                }
                _ => (self.cursor, self.cursor),
            },
        };
        let span = self.index.span(start, end - start);
        // typed from the reader's bytes: the text itself is not kept (its
        // span is), so a comment in UTF-8 is not copied
        // the body follows the `{` where the comment was found: its text is
        // then a slice of the game's, already checked as UTF-8
        let opens = self.chunk.get(start) == Some(&b'{');
        // (where the comment is the known one, its body was compared with
        // the game's text already)
        let compared = known.is_some_and(|(at, _)| at == start);
        let in_game = opens
            .then(|| self.chunk.text(start + 1, start + 1 + body.len()))
            .flatten()
            .filter(|text| compared || text.as_bytes() == body);
        let decoded = match in_game.map_or_else(|| std::str::from_utf8(body), Ok) {
            Ok(text) => std::borrow::Cow::Borrowed(text),
            Err(_) => std::borrow::Cow::Owned(self.decode(body, format_args!("comment"), span)),
        };
        // typed where it is stored, not moved there
        let c = Comment {
            span,
            annotations: Annotations::default(),
        };
        let game = &mut self.game;
        let before_move = game.moves.len();
        let list = match game.moves.last_mut() {
            Some(m) => {
                game.comments.push(c);
                m.comment_range.end = game.comments.len() as u32;
                &mut game.comments[..]
            }
            None => {
                game.preamble.push(c);
                &mut game.preamble[..]
            }
        };
        if let Some(stored) = list.last_mut() {
            // the body follows the `{` where the comment was found
            let src = match &decoded {
                std::borrow::Cow::Borrowed(body) if opens => Some(CommentSource {
                    text: self.chunk,
                    body,
                    at: start + 1,
                }),
                _ => None,
            };
            parse_comment_from(&decoded, &mut stored.annotations, src.as_ref());
            for p in &stored.annotations.problems {
                game.problems.push(PgnProblem {
                    kind: ProblemKind::Annotation,
                    message: p.clone(),
                    span: Some(span),
                    before_move,
                });
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut ()) -> ControlFlow<(), Skip> {
        if let Some((s, _)) = self.seek(Tok::VarOpen) {
            let end = self.skip_variation(s);
            self.game.variations += 1 + self.chunk[s + 1..end]
                .iter()
                .filter(|&&b| b == b'(')
                .count() as u32;
            self.cursor = end;
        } else {
            self.game.variations += 1;
        }
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, _: &mut (), outcome: Outcome) -> ControlFlow<()> {
        let span = self
            .seek(Tok::Outcome)
            .map(|(s, e)| self.index.span(s, e - s));
        self.game.outcome = Some((outcome.to_string(), span));
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: ()) {
        // Whatever follows the last token must be filler.
        let mut pos = self.cursor;
        loop {
            let (tok, start, end) = self.token(pos, None);
            match tok {
                Tok::End => break,
                Tok::Junk => self.report_junk(start, end),
                _ => {}
            }
            pos = end.max(start + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(text: &[u8]) -> Vec<PgnGame> {
        let mut sp = GameSplitter::new(text);
        let mut out = Vec::new();
        while let Some(c) = sp.next_chunk().unwrap() {
            out.push(parse_game(&c));
        }
        out
    }

    /// Each move's comments are the run of the game's that follow it, in
    /// order: the runs follow each other from the first comment after the
    /// first move to the last, a move without comments has none, those
    /// before the first move are the preamble's, and a variation's are
    /// skipped with it; a game read after a game with more comments has
    /// only its own.
    #[test]
    fn a_moves_comments_are_its_run_of_the_games() {
        let text = b"[Event \"A\"]\n\n{before} 1. e4 {one} {two} e5 $1 {three} 2. Nf3 (2. Nc3 {in a variation}) Nc6 {four} 3. Bb5 a6 {five} *\n\n[Event \"B\"]\n\n1. d4 d5 {six} *\n";
        let g = games(text);
        let texts = |g: &PgnGame, i: usize| -> Vec<String> {
            g.comments_of(&g.moves[i])
                .iter()
                .map(|c| c.annotations.text.clone())
                .collect()
        };
        assert_eq!(g[0].preamble.len(), 1);
        assert_eq!(texts(&g[0], 0), ["one", "two"]);
        assert_eq!(texts(&g[0], 1), ["three"]);
        assert!(texts(&g[0], 2).is_empty());
        assert_eq!(texts(&g[0], 3), ["four"]);
        assert!(texts(&g[0], 4).is_empty());
        assert_eq!(texts(&g[0], 5), ["five"]);
        assert!(texts(&g[1], 0).is_empty());
        assert_eq!(texts(&g[1], 1), ["six"]);
        assert_eq!(g[1].comments.len(), 1);
        // read again once the first games are dropped: on the spare list
        let first = g[0].comments.len();
        drop(g);
        let g = games(b"[Event \"B\"]\n\n1. d4 d5 {six} *\n");
        assert_eq!(texts(&g[0], 1), ["six"]);
        assert!(g[0].comments.len() == 1 && g[0].comments.capacity() >= first);
        for game in &g {
            let mut at = 0;
            for m in &game.moves {
                assert_eq!(m.comment_range.start, at);
                at = m.comment_range.end;
            }
            assert_eq!(at as usize, game.comments.len());
        }
    }

    /// A game's list of moves, once the game is dropped, is the next
    /// game's on the same thread: emptied (the next game has its own moves
    /// only) and with its room (no allocation as the next game grows).
    #[test]
    fn a_dropped_games_moves_are_the_next_games_list_emptied() {
        let long =
            games(b"[Event \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n");
        let room = long[0].moves.capacity();
        assert_eq!(long[0].moves.len(), 10);
        drop(long);
        let short = games(b"[Event \"B\"]\n\n1. d4 {a comment} d5 *\n");
        let m = &short[0].moves;
        assert_eq!(m.len(), 2);
        assert_eq!((m[0].written.as_str(), m[1].written.as_str()), ("d4", "d5"));
        assert_eq!(short[0].comments_of(&m[0]).len(), 1);
        assert!(short[0].comments_of(&m[1]).is_empty());
        assert!(m.capacity() >= room, "{} < {room}", m.capacity());
    }

    /// `n` of `pieces` (a power of two of them) joined, each picked by the
    /// top bits of a step of `rng`.
    fn joined(rng: &mut crate::test_rng::Lcg, pieces: &[&[u8]], n: usize) -> Vec<u8> {
        let bits = pieces.len().trailing_zeros();
        let mut out = Vec::new();
        for _ in 0..n {
            out.extend_from_slice(pieces[(rng.step() >> (64 - bits)) as usize]);
        }
        out
    }

    /// 3,000 texts of 1 to 32 times `per` of `pieces`, from `seed`, each
    /// with the size of the reader's buffer to read it through (one of
    /// `rooms`).
    fn generated(
        seed: u64,
        pieces: &[&[u8]],
        per: usize,
        rooms: [usize; 4],
    ) -> Vec<(Vec<u8>, usize)> {
        let mut rng = crate::test_rng::Lcg(seed);
        (0..3000)
            .map(|_| {
                let n = 1 + (rng.step() >> 59) as usize;
                let text = joined(&mut rng, pieces, n * per);
                (text, rooms[(rng.step() >> 62) as usize])
            })
            .collect()
    }

    /// What a test compares of a chunk.
    #[derive(Debug, PartialEq)]
    struct Seen {
        index: usize,
        offset: u64,
        line: u64,
        oversize: Option<u64>,
        longest_token: usize,
        bytes: Vec<u8>,
        line_starts: Vec<u32>,
    }

    /// Every chunk of `text` read through a buffer of `room` bytes, taking
    /// lines in runs or one at a time, and where the splitter ends (its
    /// offset and line).
    fn cut_all(text: &[u8], room: usize, line_at_a_time: bool) -> (Vec<Seen>, (u64, u64)) {
        let mut sp = GameSplitter::new(std::io::BufReader::with_capacity(room, text));
        if line_at_a_time {
            sp = sp.line_at_a_time();
        }
        let mut seen = Vec::new();
        while let Some(c) = sp.next_chunk().unwrap() {
            seen.push(Seen {
                index: c.index,
                offset: c.offset,
                line: c.line,
                oversize: c.oversize,
                longest_token: c.longest_token,
                bytes: c.bytes.to_vec(),
                line_starts: c.line_starts,
            });
        }
        (seen, (sp.offset, sp.line))
    }

    /// Pieces of PGN text, joined at random into the splitter's tests'
    /// inputs.
    const PIECES: [&[u8]; 16] = [
        b"[Event \"E\"]\n",
        b"[Site \"{x\"]\r\n",
        b"\n",
        b"\r\n",
        b"\r",
        b"1. e4 ",
        b"{a comment} ",
        b"{open ",
        b"close} ",
        b"}",
        b"{",
        b"; rest {\n",
        b"% escape }\n",
        b"\xEF\xBB\xBF[Event \"F\"]\n",
        b"1-0\n",
        b"e5 Nf3 Nc6 Bb5 a6 ",
    ];

    /// A game's tags read alone (as an event's header is read again) are
    /// the tags the whole game's reading finds, name, value and place, and
    /// nothing of its movetext is read: on generated texts of tags (with
    /// braces in their values, and after blank lines), movetext, comments
    /// and byte-order marks.
    #[test]
    fn tags_read_alone_are_the_whole_readings_tags() {
        let mut with_moves = 0;
        for (text, _) in generated(0x2545_F491_4F6C_DD1D, &PIECES, 3, [1; 4]) {
            let mut sp = GameSplitter::new(&text[..]);
            while let Ok(Some(c)) = sp.next_chunk() {
                let whole = parse_game(&c);
                let alone = read_game(&c, Part::Tags);
                let shown = String::from_utf8_lossy(&c.bytes);
                assert_eq!(alone.tags, whole.tags, "{shown:?}");
                assert!(
                    alone.moves.is_empty() && alone.preamble.is_empty(),
                    "{shown:?}"
                );
                with_moves += usize::from(!whole.moves.is_empty());
            }
        }
        assert!(with_moves > 1000, "games with moves: {with_moves}");
    }

    /// The bound and the line starts the splitter finds a line at a time
    /// are the ones `longest_token` and `line_starts` find over the whole
    /// chunk, on generated texts of tags, movetext, braces opened and
    /// closed across lines or never, LF, CRLF and lone CR line ends (a CR
    /// at the end of the reader's buffer too), and joined files'
    /// byte-order marks.
    #[test]
    fn the_splitters_token_bound_and_line_starts_are_the_chunks() {
        let mut chunks = 0;
        for (text, room) in generated(0x9E37_79B9_7F4A_7C15, &PIECES, 3, [5, 13, 64, 8192]) {
            let mut sp = GameSplitter::new(std::io::BufReader::with_capacity(room, &text[..]));
            while let Ok(Some(c)) = sp.next_chunk() {
                let shown = String::from_utf8_lossy(&c.bytes);
                assert_eq!(c.longest_token, longest_token(&c.bytes), "{shown:?}");
                assert_eq!(
                    c.line_starts,
                    crate::base::span::line_starts(&c.bytes),
                    "{shown:?}"
                );
                chunks += 1;
            }
        }
        assert!(chunks > 3000, "the texts make games: {chunks}");
    }

    /// Lines taken from the reader's buffer in runs make the same chunks as
    /// lines read one at a time (their text, place, line, bound, line
    /// starts and size), on generated texts of tags, movetext, comments
    /// left open, blank lines, LF, CRLF and lone CR line ends, byte-order
    /// marks and lines longer than the buffer, read through buffers of 1 to
    /// 8,192 bytes.
    #[test]
    fn lines_taken_in_runs_make_the_chunks_lines_read_one_at_a_time_make() {
        // the pieces above, and lines that end in their own ways or run
        // past the buffer
        let long = [&b"{"[..], &[b'x'; 300][..], b"}\n"].concat();
        let more: [&[u8]; 16] = [
            b"{open\n",
            b"; rest {\r\n",
            &long,
            b"e5 Nf3 Nc6 Bb5 a6\n",
            b"  [Round \"1\"]\n",
            b"\n\n",
            b"[Event \"G\"]\r\n\r\n",
            b"1. d4 d5 2. c4 *\r",
            b"{x}\r\n",
            b"\r\r",
            b"Nf6 ",
            b"0-1\r\n",
            b"\xEF\xBB\xBF",
            b"   \n",
            b"[",
            b"\"]\n",
        ];
        let pieces: Vec<&[u8]> = PIECES.iter().chain(&more).copied().collect();
        let mut chunks = 0;
        for (text, room) in generated(0x2545_F491_4F6C_DD1D, &pieces, 4, [1, 7, 64, 8192]) {
            let runs = cut_all(&text, room, false);
            let lines = cut_all(&text, room, true);
            assert_eq!(runs, lines, "{:?}", String::from_utf8_lossy(&text));
            chunks += runs.0.len();
        }
        assert!(chunks > 3000, "the texts make games: {chunks}");
    }

    /// A game of many lines that grows past [`MAX_GAME_BYTES`] is cut and
    /// sized the same way when its lines are taken in runs, and the game
    /// after it is read whole.
    #[test]
    fn a_game_too_large_is_cut_the_same_when_lines_are_taken_in_runs() {
        let line = [&b"e4 {"[..], &[b'x'; 1000][..], b"}\n"].concat();
        let mut text = b"[Event \"big\"]\n\n".to_vec();
        while text.len() <= MAX_GAME_BYTES + 3 * line.len() {
            text.extend_from_slice(&line);
        }
        let next = b"[Event \"next\"]\n\n1. d4 d5 *\n";
        text.extend_from_slice(b"*\n\n");
        text.extend_from_slice(next);
        // a buffer whose edges fall anywhere in the game, not where its
        // limit does (8 MiB is a multiple of 64 KiB)
        let runs = cut_all(&text, 10_007, false);
        assert_eq!(runs, cut_all(&text, 10_007, true));
        let [big, after] = &runs.0[..] else {
            panic!("two games: {}", runs.0.len());
        };
        assert_eq!(big.oversize, Some((text.len() - next.len()) as u64));
        assert!(big.bytes.len() <= MAX_GAME_BYTES);
        assert_eq!(after.bytes, next);
    }

    /// The fused walk of a movetext line gives what `scan_line` and
    /// `TokenReach::follow` give, one after the other, on generated lines
    /// of braces, `;`, moves and line ends, from either comment state and
    /// with a brace left open from an earlier line or not.
    #[test]
    fn a_movetext_lines_braces_are_followed_as_scan_line_and_follow_do() {
        // eight pieces, between the bars
        let pieces: Vec<&[u8]> = b"{|}|;|e4 |{d=1, pv=e4}| |}{|;{"
            .split(|&c| c == b'|')
            .collect();
        assert_eq!(pieces.len(), 8);
        let mut rng = crate::test_rng::Lcg(0x2545_F491_4F6C_DD1D);
        let mut differing_states = 0;
        for _ in 0..20_000 {
            let n = (rng.step() >> 61) as usize;
            let mut line = joined(&mut rng, &pieces, n);
            if rng.step() >> 63 == 1 {
                line.push(b'\n');
            }
            let at = (rng.step() >> 60) as usize;
            let start_comment = rng.step() >> 63 == 1;
            let mut before = TokenReach {
                longest: (rng.step() >> 62) as usize,
                line: (rng.step() >> 62) as usize,
                open: (rng.step() >> 63 == 1).then_some(0),
            };
            differing_states += usize::from(before.open.is_some() != start_comment);
            let mut fused = TokenReach { ..before };
            let (mut in_scan, mut movetext) = (start_comment, true);
            scan_line(&line, &mut in_scan, &mut movetext);
            before.follow(&line, at);
            let mut in_fused = start_comment;
            fused.follow_movetext(&line, at, &mut in_fused);
            let shown = String::from_utf8_lossy(&line);
            assert_eq!(in_fused, in_scan, "{shown:?} from {start_comment}");
            assert_eq!(
                (fused.longest, fused.line, fused.open),
                (before.longest, before.line, before.open),
                "{shown:?}"
            );
        }
        assert!(differing_states > 1000, "{differing_states}");
    }

    #[test]
    fn a_pv_is_a_span_of_the_games_text_unless_its_comment_was_rewritten() {
        use crate::ingest::annotations::PvText;
        let text = b"[Event \"e\"]\n\n1. e4 {d=20, pv=e4 e5 Nf3, wv=0.30,} e5 {[%clk 1:00:00] d=19, pv=e5 Nf3 Nc6, wv=0.20,} 2. Nf3 {d=18, [%clk 1:00:00] pv=Nf3 Nc6, wv=0.10,} Nc6 {d=18, pv=Nc6 Caf\xe9, wv=0.10,} *\n";
        let g = &games(text)[0];
        let pv = |i: usize| {
            g.comments_of(&g.moves[i])[0]
                .annotations
                .tcec()
                .and_then(|t| t.pv.clone())
                .unwrap()
        };
        // as written in the game: a span of its bytes, no copy
        assert!(matches!(pv(0), PvText::Span { .. }), "{:?}", pv(0));
        assert_eq!(&*pv(0), "e4 e5 Nf3");
        // a `[%…]` command with the text on one side of it: the text is
        // still the game's
        assert!(matches!(pv(1), PvText::Span { .. }), "{:?}", pv(1));
        assert_eq!(&*pv(1), "e5 Nf3 Nc6");
        // a command with text on both sides, and a comment decoded from
        // Latin-1: the text was rewritten, so the PV owns its copy
        assert!(matches!(pv(2), PvText::Owned(_)), "{:?}", pv(2));
        assert_eq!(&*pv(2), "Nf3 Nc6");
        assert!(matches!(pv(3), PvText::Owned(_)), "{:?}", pv(3));
        assert_eq!(&*pv(3), "Nc6 Caf\u{e9}");
        // the JSON form is the text either way
        assert_eq!(serde_json::json!(pv(0)), serde_json::json!("e4 e5 Nf3"));
        assert_eq!(pv(0), PvText::Owned("e4 e5 Nf3".into()));
    }

    /// A game is checked as UTF-8 once, where it is cut from the file; its
    /// tags, moves, comments and PVs are then slices of its text. A game
    /// that is not UTF-8 is read piece by piece as before: the same text
    /// where a piece is UTF-8, Windows-1252 (reported) where it is not.
    #[test]
    fn a_games_text_is_checked_once_and_read_in_slices() {
        use crate::ingest::annotations::PvText;
        let game = |site: &[u8], note: &[u8]| {
            let mut text = b"[Event \"Caf\xc3\xa9 \\\"Open\\\"\"]\n[Site \"".to_vec();
            text.extend_from_slice(site);
            text.extend_from_slice(b"\"]\n\n1. e4 {d=20, pv=e4 e5, wv=0.30,} e5 {");
            text.extend_from_slice(note);
            text.extend_from_slice(b"} *\n");
            let mut sp = GameSplitter::new(&text[..]);
            let chunk = sp.next_chunk().unwrap().unwrap();
            let utf8 = matches!(*chunk.bytes, GameText::Utf8(_));
            (utf8, parse_game(&chunk))
        };
        // what both readings give: the same tags, comment text and PV
        let same = |g: &PgnGame| {
            assert_eq!(g.tag("Event"), Some("Caf\u{e9} \"Open\""));
            assert_eq!(g.tag("Site"), Some("M\u{fc}nchen"));
            let notes = |i: usize| &g.comments_of(&g.moves[i])[0].annotations;
            assert_eq!(notes(1).text, "Gr\u{fc}\u{df}e \u{2654}");
            let pv = notes(0).tcec().and_then(|t| t.pv.clone()).unwrap();
            assert_eq!(&*pv, "e4 e5");
            pv
        };
        let (utf8, g) = game(
            "M\u{fc}nchen".as_bytes(),
            "Gr\u{fc}\u{df}e \u{2654}".as_bytes(),
        );
        assert!(utf8);
        assert!(matches!(same(&g), PvText::Span { .. }));
        assert!(g.problems.is_empty(), "{:?}", g.problems);
        // the same game with a Latin-1 tag: its other pieces read the same
        let (utf8, g) = game(b"M\xfcnchen", "Gr\u{fc}\u{df}e \u{2654}".as_bytes());
        assert!(!utf8);
        same(&g);
        assert_eq!(g.problems.len(), 1, "{:?}", g.problems);
        assert_eq!(g.problems[0].kind, ProblemKind::Encoding);
        assert!(
            g.problems[0].message.contains("tag Site"),
            "{}",
            g.problems[0].message
        );
    }

    #[test]
    fn spans_point_at_the_source() {
        let text = b"[Event \"E\"]\n[White \"W\"]\n\n1. e4 {a comment} e5 2. Nf3 1-0\n\n[Event \"F\"]\n\n1. d4 *\n";
        let g = games(text);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].tags[1].span.line, 2);
        assert_eq!(g[0].tags[1].span.column, 9);
        let m = &g[0].moves;
        assert_eq!(m.len(), 3);
        let s = m[0].span.unwrap();
        assert_eq!((s.line, s.column, s.len), (4, 4, 2));
        let c = g[0].comments_of(&m[0])[0].span;
        assert_eq!(
            &text[c.offset as usize..(c.offset + c.len) as usize],
            b"{a comment}"
        );
        let s = m[2].span.unwrap();
        assert_eq!(
            &text[s.offset as usize..(s.offset + s.len) as usize],
            b"Nf3"
        );
        assert_eq!(g[1].line, 6);
        assert_eq!(g[1].moves[0].span.unwrap().line, 8);
        assert_eq!(g[0].outcome.as_ref().unwrap().0, "1-0");
        assert!(g[0].problems.is_empty());
    }

    #[test]
    fn unknown_piece_letter_is_reported_at_its_place() {
        let g = games(b"[Event \"E\"]\n\n1. e4 e5 2. Zf3 Nc6 *\n");
        let p = &g[0].problems;
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].kind, ProblemKind::UnparsableToken);
        assert_eq!(p[0].before_move, 2);
        let s = p[0].span.unwrap();
        assert_eq!((s.line, s.column), (3, 13));
    }

    /// Every way of writing a result ends the movetext without a problem,
    /// the other GUIs' dashes and `½` included; a token that only starts
    /// like one is reported where it stands.
    #[test]
    fn results_in_every_form_are_not_junk_and_look_alikes_are() {
        let unparsable = |m: &str| {
            let text = format!("[Event \"E\"]\n\n1. e4 e5 {m}\n");
            let g = games(text.as_bytes());
            g[0].problems
                .iter()
                .filter(|p| p.kind == ProblemKind::UnparsableToken)
                .count()
        };
        for m in OUTCOMES
            .iter()
            .map(|m| std::str::from_utf8(m).unwrap())
            .chain(["*"])
        {
            assert_eq!(unparsable(m), 0, "{m}");
        }
        for m in ["1x0", "0-", "½", "1/2", "01-"] {
            assert_eq!(unparsable(m), 1, "{m}");
        }
    }

    #[test]
    fn variations_are_counted_and_skipped() {
        let g = games(b"1. e4 (1. d4 d5 (1... Nf6)) e5 (1... c5 {x}) 2. Nf3 *\n");
        assert_eq!(g[0].variations, 3);
        assert_eq!(g[0].moves.len(), 3);
        assert!(g[0].problems.is_empty(), "{:?}", g[0].problems);
    }

    #[test]
    fn unterminated_comment_does_not_swallow_the_next_game() {
        let g =
            games(b"[Event \"A\"]\n\n1. e4 {never closed e5 *\n\n[Event \"B\"]\n\n1. d4 d5 *\n");
        assert_eq!(g.len(), 2);
        assert!(g[0].problems.iter().any(|p| p.kind == ProblemKind::Syntax));
        assert_eq!(g[1].moves.len(), 2);
        assert_eq!(g[1].tag("Event"), Some("B"));
    }

    #[test]
    fn latin1_is_decoded_and_reported() {
        let g = games(b"[White \"M\xfcller\"]\n\n1. e4 *\n");
        assert_eq!(g[0].tag("White"), Some("M\u{fc}ller"));
        assert_eq!(g[0].problems[0].kind, ProblemKind::Encoding);
    }

    #[test]
    fn windows_1252_and_a_joined_files_byte_order_mark() {
        let g = games(
            b"[Event \"a\x85\x80\"]\r\n\r\n1. e4 *\r\n\r\n\xEF\xBB\xBF[Event \"b\"]\n\n1. d4 *\n",
        );
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].tag("Event"), Some("a\u{2026}\u{20AC}"));
        assert_eq!(g[0].problems[0].kind, ProblemKind::Encoding);
        assert_eq!(g[1].tag("Event"), Some("b"));
        assert_eq!(g[1].moves.len(), 1);
        assert!(g[1].problems.is_empty(), "{:?}", g[1].problems);
    }

    #[test]
    fn a_lone_cr_ends_a_line() {
        let text = b"[Event \"cr\"]\r[Result \"*\"]\r\r1. e4 {+0.10/10 1.0s} e5\r2. Nf3 Nc6 *\r\r[Event \"next\"]\r\n[Result \"*\"]\n\n1. d4 d5 *\r";
        let g = games(text);
        assert_eq!(g.len(), 2);
        assert!(g[0].problems.is_empty(), "{:?}", g[0].problems);
        assert_eq!(g[0].moves.len(), 4);
        let s = g[0].moves[2].span.unwrap();
        assert_eq!((s.line, s.column), (5, 4));
        assert_eq!(
            &text[s.offset as usize..(s.offset + s.len) as usize],
            b"Nf3"
        );
        assert_eq!(g[1].line, 7);
        assert_eq!(g[1].moves.len(), 2);
        // a CR at the very end of the reader's buffer (13 bytes), then its
        // LF, or not
        for (text, kept) in [
            (
                &b"[Event \"ab\"]\r\n\r\n1. e4 *\r\n"[..],
                &b"[Event \"ab\"]\r\n\r\n1. e4 *\r\n"[..],
            ),
            (
                b"[Event \"ab\"]\r\r1. e4 *\r",
                b"[Event \"ab\"]\n\n1. e4 *\n",
            ),
        ] {
            let mut sp = GameSplitter::new(std::io::BufReader::with_capacity(13, text));
            let c = sp.next_chunk().unwrap().unwrap();
            assert_eq!(
                String::from_utf8_lossy(&c.bytes),
                String::from_utf8_lossy(kept)
            );
            let g = parse_game(&c);
            assert_eq!(g.moves.len(), 1);
            assert_eq!(g.moves[0].span.unwrap().line, 3);
        }
    }

    #[test]
    fn long_tag_value_is_read_whole() {
        let mut text = b"[Annotator \"".to_vec();
        text.extend(std::iter::repeat_n(b'x', 1 << 20));
        text.extend_from_slice(b"\"]\n\n1. e4 *\n\n[Event \"next\"]\n\n1. d4 *\n");
        let g = games(&text);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].tag("Annotator").unwrap().len(), 1 << 20);
        assert_eq!(g[1].moves.len(), 1);
    }
}

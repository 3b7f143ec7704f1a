//! One game chunk read with pgn-reader: the whole game, or its tags alone
//! (an event's header read again from the file).

use std::io;
use std::rc::Rc;

use pgn_reader::Reader;

use super::game::{PgnGame, PgnProblem, ProblemKind, Tag, spare_comments, spare_moves};
use super::source::{PtrMap, TrackedSlice};
use super::splitter::{GameChunk, GameSplitter, MAX_GAME_BYTES};
use super::visitor::{GameVisitor, Part};
use crate::base::span::LineIndex;

/// The tags of the game whose chunk starts at byte `offset`, line `line`
/// of a file's text (as [`GameChunk`] gave them), read again from the file
/// (decoded again where it is compressed).
pub fn read_tags_at(path: &std::path::Path, offset: u64, line: u64) -> io::Result<Vec<Tag>> {
    // a compressed file is decoded up to there
    let text = crate::base::decode::open_at(path, offset)?;
    let mut splitter = GameSplitter::new(io::BufReader::new(text));
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

/// Read one game chunk.
pub fn parse_game(chunk: &GameChunk) -> PgnGame {
    read_game(chunk, Part::Whole)
}

pub(super) fn read_game(chunk: &GameChunk, part: Part) -> PgnGame {
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
        written: Vec::new(),
        nags: Vec::new(),
        nag_moves: Vec::new(),
        outcome: None,
        variations: 0,
        problems: Vec::new(),
        unread: Default::default(),
    };
    if let Some(total) = chunk.oversize {
        read_oversize(chunk, total, &mut game);
        return game;
    }
    let bytes = &chunk.bytes;
    let map = Rc::new(PtrMap::default());
    let limit = chunk.longest_token.max(255);
    // the blank lines inside the movetext, which would end it for the
    // reader, made spaces in a copy of the text it reads (the places it
    // hands back are those of the text itself)
    let patched = close_gaps(bytes, &chunk.gaps);
    let source = TrackedSlice {
        data: patched.as_deref().unwrap_or(bytes),
        pos: 0,
        map: Rc::clone(&map),
        // at least what the reader asks for before a token
        pad: limit + 4,
    };
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
        tag_names: None,
        san_print: Vec::new(),
    };
    let result = reader.read_game(&mut visitor);
    match result {
        // whatever follows the game in the chunk was scanned by `end_game`
        Ok(_) => {}
        Err(e) => {
            let at = visitor.cursor;
            let span = visitor.index.span(at, 0);
            let n = visitor.game.moves.len();
            visitor.game.push_problem(PgnProblem {
                kind: ProblemKind::Syntax,
                message: format!("{e} (reading stopped here; the rest of this game is ignored)"),
                span: Some(span),
                before_move: n,
            });
        }
    }
    game
}

/// A game larger than [`MAX_GAME_BYTES`]: the tags are still read, those
/// of the tag lines that head the text kept, so that the report names the
/// game; its movetext is skipped, and a problem says what was read.
fn read_oversize(chunk: &GameChunk, total: u64, game: &mut PgnGame) {
    let bytes = &chunk.bytes;
    // the lines that open with a tag at the start of what was kept
    let tag_end = chunk
        .line_starts
        .iter()
        .map(|&s| s as usize)
        .chain(std::iter::once(bytes.len()))
        .find(|&s| bytes.get(s) != Some(&b'['))
        .filter(|_| bytes.first() == Some(&b'['))
        .unwrap_or(0);
    if tag_end > 0 {
        let mut head = bytes[..tag_end].to_vec();
        head.extend_from_slice(b"\n\n*\n");
        let header = GameChunk::of_text(chunk.index, chunk.offset, chunk.line, head);
        let mut h = parse_game(&header);
        game.tags = std::mem::take(&mut h.tags);
        for p in std::mem::take(&mut h.problems) {
            if p.kind != ProblemKind::Syntax {
                game.push_problem(p);
            }
        }
    }
    // every line kept is a tag line: the tag section went on past what
    // was kept (or its blank line was the one too many), so its tags may
    // not all have been read
    game.unread.tags_cut = tag_end == bytes.len();
    let n = game.tags.len();
    let what = match (game.unread.tags_cut, n) {
        (false, _) if tag_end > 0 => "its tags were read, its moves skipped".to_string(),
        (false, _) => "it has no tag section; its moves were skipped".to_string(),
        (true, 0) => {
            "its first line alone is larger than that: no tag was read, and its moves were skipped"
                .to_string()
        }
        (true, n) => format!(
            "its tag section is larger than that: its first {n} tag{} read, the rest of its tags and its moves skipped",
            if n == 1 { " was" } else { "s were" }
        ),
    };
    let mut idx = LineIndex::new(bytes, &chunk.line_starts, chunk.offset, chunk.line);
    game.push_problem(PgnProblem {
        kind: ProblemKind::Syntax,
        message: format!(
            "game text is {total} bytes, more than the {MAX_GAME_BYTES} bytes arbiter reads for one game; {what}"
        ),
        span: Some(idx.span(0, 0)),
        before_move: 0,
    });
}

/// `bytes` with the line ends of each gap that pgn-reader would end the
/// movetext at (a `\n` before an empty line) made spaces: the same length,
/// so every place is unchanged. `None` when there is no gap.
fn close_gaps(bytes: &[u8], gaps: &[(u32, u32)]) -> Option<Vec<u8>> {
    if gaps.is_empty() {
        return None;
    }
    let mut copy = bytes.to_vec();
    for &(from, to) in gaps {
        for i in from as usize..(to as usize).min(bytes.len()) {
            let next = &bytes[i + 1..];
            if bytes[i] == b'\n' && (next.starts_with(b"\n") || next.starts_with(b"\r\n")) {
                copy[i] = b' ';
            }
        }
    }
    Some(copy)
}

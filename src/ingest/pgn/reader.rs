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

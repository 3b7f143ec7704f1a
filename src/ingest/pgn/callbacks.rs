//! pgn-reader's callbacks: each tag, move, glyph, comment, variation and
//! outcome recorded in the game with its span, and each comment typed
//! where it is stored.

use std::ops::ControlFlow;

use pgn_reader::{Nag, Outcome, RawComment, RawTag, SanPlus, Skip, Visitor};

use super::game::{MAX_MOVES, PgnMove, PgnProblem, ProblemKind, Tag};
use super::visitor::{GameVisitor, Part, Tok};
use crate::ingest::comments::{Annotations, Comment, CommentSource, parse_comment_from};
use crate::ingest::text::decode_text;

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
        let (name, _): (compact_str::CompactString, _) = decode_text(name.trim_ascii());
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
        if self.seen_tag(&name) {
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
        if self.game.moves.len() >= MAX_MOVES {
            // past the cap: found (the scanner moves on), counted, not kept
            let span = self.seek(Tok::San).map(|(s, e)| self.index.span(s, e - s));
            let unread = &mut self.game.unread;
            if unread.moves_past == 0 {
                unread.first_past = span;
            }
            unread.moves_past += 1;
            return ControlFlow::Continue(());
        }
        let span = match self.seek(Tok::San) {
            Some((s, e)) => {
                // kept only where the SAN prints otherwise (the print is
                // ASCII: a token of other bytes differs)
                self.san_print.clear();
                san.append_ascii_to(&mut self.san_print);
                if self.san_print[..] != self.chunk[s..e] {
                    let w = match self.chunk.text(s, e) {
                        Some(text) => compact_str::CompactString::new(text),
                        None => compact_str::CompactString::from_utf8_lossy(&self.chunk[s..e]),
                    };
                    let at = self.game.moves.len() as u32;
                    self.game.written.push((at, w));
                }
                Some(self.index.span(s, e - s))
            }
            None => None,
        };
        // its comments, none yet, start where the game's list ends (a game
        // is at most MAX_GAME_BYTES, so the places fit)
        let at = self.game.comments.len() as u32;
        self.game.moves.push(PgnMove {
            san,
            span,
            comment_range: at..at,
        });
        ControlFlow::Continue(())
    }

    fn nag(&mut self, _: &mut (), nag: Nag) -> ControlFlow<()> {
        if self.game.unread.moves_past > 0 {
            return ControlFlow::Continue(());
        }
        if let Some(last) = self.game.moves.len().checked_sub(1) {
            let (at, start) = (last as u32, self.game.nags.len() as u32);
            if self.game.nag_moves.last().is_none_or(|&(m, _)| m != at) {
                self.game.nag_moves.push((at, start));
            }
            self.game.nags.push(nag.0);
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _: &mut (), comment: RawComment<'_>) -> ControlFlow<()> {
        // a comment never closed, read on into the padding after the chunk
        let Some(body) = self.clip(comment.0) else {
            return ControlFlow::Continue(());
        };
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
        if self.game.unread.moves_past > 0 {
            // a comment of a move not kept
            return ControlFlow::Continue(());
        }
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
        let mut problems = Vec::new();
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
            problems.clone_from(&stored.annotations.problems);
        }
        for message in problems {
            game.push_problem(PgnProblem {
                kind: ProblemKind::Annotation,
                message,
                span: Some(span),
                before_move,
            });
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
        let past = self.game.unread.moves_past;
        if past > 0 {
            self.game.push_problem(PgnProblem {
                kind: ProblemKind::Syntax,
                message: format!(
                    "the game has {past} more move{} than the {MAX_MOVES} arbiter reads for one game \
                     (no game can have more than 17,697 plies under the 75-move rule); \
                     from here on they were counted, not read",
                    if past == 1 { "" } else { "s" }
                ),
                span: self.game.unread.first_past,
                before_move: MAX_MOVES,
            });
        }
    }
}

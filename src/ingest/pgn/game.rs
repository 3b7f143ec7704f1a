//! One game as read from the file, before any replay: its tags, moves and
//! comments and the problems met, and its lists kept for the next game
//! read on the same thread.

use pgn_reader::SanPlus;

use crate::base::span::Span;
use crate::ingest::comments::Comment;

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

/// One mainline move as written.
#[derive(Debug, Clone)]
pub struct PgnMove {
    pub san: SanPlus,
    /// The move token as written is [`PgnGame::written_of`]: nearly every
    /// move is written as its SAN says it, and only the others keep their
    /// text (a text in each move took 24 bytes a move).
    pub span: Option<Span>,
    /// Where the comments that follow the move (before the next move) lie
    /// in the game's `comments`: read them with [`PgnGame::comments_of`].
    /// A move holds none inline (a move is about 60 bytes, a comment
    /// about 460), so a record without comments writes no room for them.
    /// Its annotation glyphs are in the game's `nags`, not here (a list in
    /// each move took 24 bytes a move, most of them empty).
    pub comment_range: std::ops::Range<u32>,
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

impl ProblemKind {
    /// Every kind, in the order of [`PgnGame::omitted`].
    pub const ALL: [ProblemKind; 5] = [
        ProblemKind::Syntax,
        ProblemKind::UnparsableToken,
        ProblemKind::Encoding,
        ProblemKind::Annotation,
        ProblemKind::DuplicateTag,
    ];
}

/// At most this many problems of one kind are kept for a game (its first
/// ones); the others are counted ([`PgnGame::omitted`]), so that a game of a
/// million stray tokens holds a hundred of them, not a million messages. A
/// kind is one finding code ([`crate::findings::MAX_FINDINGS_PER_CODE`]).
pub const MAX_PROBLEMS_PER_KIND: usize = crate::findings::MAX_FINDINGS_PER_CODE;

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
    /// The move tokens written otherwise than their SAN prints (`0-0`,
    /// `e8Q`), each with its move's index, in order
    /// ([`PgnGame::written_of`]).
    pub written: Vec<(u32, compact_str::CompactString)>,
    /// The annotation glyphs (`$1`, `!`) in order, one byte each
    /// ([`PgnGame::nags_of`]).
    pub nags: Vec<u8>,
    /// For each move with glyphs, its index and where its glyphs start in
    /// `nags` (they run to the next entry's start).
    pub nag_moves: Vec<(u32, u32)>,
    /// The termination marker in the movetext (`1-0`, `0-1`, `1/2-1/2`,
    /// `*`), if any, and its span.
    pub outcome: Option<(String, Option<Span>)>,
    /// Variations skipped (each `(` at any depth counts once).
    pub variations: u32,
    /// The problems met, at most [`MAX_PROBLEMS_PER_KIND`] of a kind
    /// (added with [`PgnGame::push_problem`]).
    pub problems: Vec<PgnProblem>,
    /// What was read only in part: the problems not kept, and a tag
    /// section too large to read whole.
    pub unread: Unread,
}

/// What of a game was read only in part.
#[derive(Debug, Clone, Default)]
pub struct Unread {
    /// The problems of each kind ([`ProblemKind::ALL`]'s order) past
    /// [`MAX_PROBLEMS_PER_KIND`]: counted, not kept.
    pub omitted: [u64; 5],
    /// The problems of each kind kept.
    kept: [usize; 5],
    /// The game was larger than arbiter reads and its tag section was cut
    /// with it: its tags were not all read (those read are kept), so that
    /// a tag missing from them may be in the file.
    pub tags_cut: bool,
    /// The mainline moves past [`MAX_MOVES`]: counted, not kept, and the
    /// place of the first of them.
    pub moves_past: u64,
    pub first_past: Option<Span>,
}

/// A game keeps at most this many mainline moves: more than any game can
/// have under the 75-move rule and fivefold repetition (17,697 plies), so
/// that a game's memory stays bounded. The moves past it are counted and a
/// problem says where they start; the replay stops there.
pub const MAX_MOVES: usize = 20_000;

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
pub(super) fn spare_moves() -> Vec<PgnMove> {
    SPARE_MOVES.try_with(|s| s.take()).unwrap_or_default()
}

/// The spare list of comments of this thread, if any (empty, with room).
pub(super) fn spare_comments() -> Vec<Comment> {
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
    /// Whether a problem of `kind` is kept: it is while the game holds
    /// fewer than [`MAX_PROBLEMS_PER_KIND`] of them; otherwise it is counted
    /// in [`Unread::omitted`] (and `false` says not to make its message).
    pub(super) fn keeps(&mut self, kind: ProblemKind) -> bool {
        let k = kind as usize;
        if self.unread.kept[k] < MAX_PROBLEMS_PER_KIND {
            true
        } else {
            self.unread.omitted[k] += 1;
            false
        }
    }

    /// Add a problem, or count it where the game holds enough of its kind
    /// ([`PgnGame::keeps`]).
    pub fn push_problem(&mut self, p: PgnProblem) {
        if self.keeps(p.kind) {
            self.unread.kept[p.kind as usize] += 1;
            self.problems.push(p);
        }
    }

    /// Count `n` problems of `kind` not kept (found past those kept).
    pub(super) fn omit(&mut self, kind: ProblemKind, n: u64) {
        self.unread.omitted[kind as usize] += n;
    }

    /// The problems of `kind` not kept.
    pub fn omitted(&self, kind: ProblemKind) -> u64 {
        self.unread.omitted[kind as usize]
    }

    /// The comments that follow `mv`, one of this game's moves.
    pub fn comments_of(&self, mv: &PgnMove) -> &[Comment] {
        let r = mv.comment_range.start as usize..mv.comment_range.end as usize;
        self.comments.get(r).unwrap_or(&[])
    }

    /// The move token of move `index` (0-based) exactly as written.
    pub fn written_of(&self, index: usize) -> compact_str::CompactString {
        let i = u32::try_from(index).unwrap_or(u32::MAX);
        match self.written.binary_search_by_key(&i, |(m, _)| *m) {
            Ok(k) => self.written[k].1.clone(),
            Err(_) => (self.moves.get(index)).map_or_else(Default::default, |m| {
                compact_str::format_compact!("{}", m.san)
            }),
        }
    }

    /// The annotation glyphs after move `index` (0-based).
    pub fn nags_of(&self, index: usize) -> &[u8] {
        let i = u32::try_from(index).unwrap_or(u32::MAX);
        let k = self.nag_moves.partition_point(|&(m, _)| m < i);
        match self.nag_moves.get(k) {
            Some(&(m, from)) if m == i => {
                let to = self
                    .nag_moves
                    .get(k + 1)
                    .map_or(self.nags.len(), |&(_, s)| s as usize);
                self.nags.get(from as usize..to).unwrap_or(&[])
            }
            _ => &[],
        }
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

    /// The termination the record states, and where: the TerminationDetails
    /// tag, else the text a match manager appended to the last move's
    /// comment (cutechess-cli, fastchess and cutechess-ob write `…, White
    /// wins by adjudication` there and no such tag).
    pub fn recorded_ending(&self) -> Option<Ending<'_>> {
        if let Some(t) = self.tag_entry("TerminationDetails") {
            return Some(Ending {
                text: t.value.trim(),
                span: Some(t.span),
                in_comment: false,
            });
        }
        let last = self.moves.last()?;
        let comments = self.comments_of(last);
        let text = crate::ingest::comments::MoveComments::of(comments).ending()?;
        Some(Ending {
            text,
            span: comments
                .iter()
                .find(|c| c.annotations.form.is_some())
                .map(|c| c.span),
            in_comment: true,
        })
    }
}

/// The termination a record states ([`PgnGame::recorded_ending`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ending<'a> {
    /// The text, trimmed: `TCEC win rule`, `White wins by adjudication`.
    pub text: &'a str,
    /// Where it is written: the tag, or the last move's comment.
    pub span: Option<Span>,
    /// Written after the last move's comment, not in a tag.
    pub in_comment: bool,
}

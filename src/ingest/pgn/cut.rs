//! The lexical state of the game being cut, followed line by line: inside
//! a `{…}` comment or not, whether movetext has begun, whether it has
//! ended with a result, and so where the next game starts.

use super::token_reach::TokenReach;
use super::visitor::OUTCOMES;

/// The lexical state of the game being cut, followed line by line.
#[derive(Debug, Default)]
pub(super) struct Cut {
    pub(super) reach: TokenReach,
    in_comment: bool,
    movetext: bool,
    /// The line before was blank.
    prev_blank: bool,
    /// A line of the game has been taken.
    started: bool,
    /// The last word of the movetext outside comments is a result
    /// (`1-0`, `0-1`, `1/2-1/2`, `*`): a blank line then ends the game.
    ended: bool,
    /// Where the blank lines since the last line of movetext (outside a
    /// comment) start, if there are some: the escape (`%`) and `;` lines
    /// among them do not end them.
    blank_from: Option<usize>,
    /// The blank lines inside the movetext that movetext follows, each
    /// from the line end before them to the start of the line after them
    /// (see [`super::splitter::GameChunk::gaps`]).
    pub(super) gaps: Vec<(u32, u32)>,
}

impl Cut {
    /// Take `line`, which starts at `start` in the game's text, into the
    /// game, or return `false` when it starts the next game: a tag line
    /// after movetext, a well-formed tag line after a blank line inside a
    /// comment never closed, or movetext after a blank line that follows
    /// the game's result (a game without tags, as python-chess reads it).
    /// Movetext after a blank line that follows no result is the same
    /// game's: the blank lines are noted as a gap. Where it is not `kept`
    /// (it would make the game too large), only the lexical state follows
    /// it.
    pub(super) fn take(
        &mut self,
        line: &[u8],
        start: usize,
        kept: bool,
        line_starts: &mut Vec<u32>,
    ) -> bool {
        let trimmed = trim_start(line);
        let is_tag = trimmed.first() == Some(&b'[');
        let blank = trimmed.iter().all(|b| b.is_ascii_whitespace());
        if self.started
            && is_tag
            && ((!self.in_comment && self.movetext)
                || (self.in_comment && self.prev_blank && is_well_formed_tag(trimmed)))
        {
            return false;
        }
        // movetext again after blank lines (outside a comment): the next
        // game's, or this one's
        let after_gap = match self.blank_from {
            Some(from)
                if !blank
                    && !self.in_comment
                    && line.first() != Some(&b'%')
                    && trimmed.first() != Some(&b';') =>
            {
                Some(from)
            }
            _ => None,
        };
        if let Some(from) = after_gap {
            if self.ended {
                return false;
            }
            // from the line end before the blank lines (movetext began on
            // an earlier line, so there is one)
            self.gaps
                .push((from.saturating_sub(1) as u32, start as u32));
            self.blank_from = None;
        }
        self.started = true;
        self.prev_blank = blank;
        if blank && self.movetext && !self.in_comment {
            self.blank_from.get_or_insert(start);
        }
        let comment_before = self.in_comment;
        if !self.in_comment && (is_tag && !self.movetext || line.first() == Some(&b'%')) {
            // a tag line (brackets and braces inside the value are text) or
            // an escape line
            if kept {
                self.reach.follow(line, start);
            }
        } else if self.movetext && kept {
            // nearly every line: its braces found once for the token reach,
            // the comment state and the last word
            let word = self
                .reach
                .follow_movetext(line, start, &mut self.in_comment);
            if !blank && let Some(word) = word {
                self.ended = is_result(word);
            }
        } else {
            scan_line(line, &mut self.in_comment, &mut self.movetext);
            if kept {
                self.reach.follow(line, start);
            }
            if self.movetext
                && !blank
                && let Some(word) = last_word(line, comment_before)
            {
                self.ended = is_result(word);
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

/// The blank lines inside the movetext of a game's whole text `bytes`,
/// as [`Cut::take`] notes them (up to where the next game would start).
pub(super) fn gaps(bytes: &[u8]) -> Vec<(u32, u32)> {
    let mut cut = Cut::default();
    let mut starts = Vec::new();
    let mut at = 0;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        if !cut.take(line, at, false, &mut starts) {
            break;
        }
        at += line.len();
    }
    cut.gaps
}

/// The last word of a movetext line outside its comments (`{…}`, and a
/// `;` comment to the line's end), for a line that starts inside a comment
/// or not; `None` when it has no word outside them. Found as
/// [`TokenReach::follow_movetext`] finds it for the lines it follows.
pub(super) fn last_word(line: &[u8], mut in_comment: bool) -> Option<&[u8]> {
    TokenReach::default().follow_movetext(line, 0, &mut in_comment)
}

/// A game's termination marker, or a move with `*` written onto it.
fn is_result(word: &[u8]) -> bool {
    word.ends_with(b"*") || OUTCOMES.contains(&word)
}

/// Follow a movetext line's lexical state: inside a `{…}` comment or not,
/// and whether movetext has begun (anything but white space; `;` ends the
/// line's text). Once movetext has begun, only braces and `;` matter, and
/// they are found with memchr rather than a byte at a time.
pub(super) fn scan_line(line: &[u8], in_comment: &mut bool, movetext: &mut bool) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The last word outside comments, for lines that start inside a
    /// comment or not (`None`: no word outside them).
    #[test]
    fn the_last_word_outside_comments() {
        let cases: [(&[u8], Option<&str>, Option<&str>); 16] = [
            (
                b"9. gxh5 {+1.04/16 0.230s} Rxh5 {-0.37/10}\n",
                Some("Rxh5"),
                Some("Rxh5"),
            ),
            (b"41. Kf2 1-0\n", Some("1-0"), None),
            (
                b"41. Kf2 {mate} 1-0 {adjudicated}\n",
                Some("1-0"),
                Some("1-0"),
            ),
            (b"1-0\n", Some("1-0"), None),
            (b"   \n", None, None),
            (b"{a whole comment}\n", None, None),
            (b"e4 ; a rest-of-line comment 1-0\n", Some("e4"), None),
            (
                b"e4 {open ; not a comment here} e5 ; {not a comment} 0-1\n",
                Some("e5"),
                Some("e5"),
            ),
            (b"} e5 1/2-1/2\n", Some("1/2-1/2"), Some("1/2-1/2")),
            (b"text inside} 0-1 {x\n", Some("0-1"), Some("0-1")),
            (b"{ a { b } c *\n", Some("*"), Some("*")),
            (b"Nf3*\n", Some("Nf3*"), None),
            (b"}}}\n", Some("}}}"), Some("}}")),
            (b"{{{\n", None, None),
            (b";\n", None, None),
            (b"12. Qxf7# {White mates} 1-0", Some("1-0"), Some("1-0")),
        ];
        for (line, outside, inside) in cases {
            for (start_inside, expected) in [(false, outside), (true, inside)] {
                assert_eq!(
                    last_word(line, start_inside),
                    expected.map(str::as_bytes),
                    "{:?}, starting in a comment: {start_inside}",
                    String::from_utf8_lossy(line)
                );
            }
        }
    }
}

//! The lexical state of the game being cut, followed line by line: inside
//! a `{…}` comment or not, whether movetext has begun, and so where the
//! next game starts.

use super::token_reach::TokenReach;

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
}

impl Cut {
    /// Take `line`, which starts at `start` in the game's text, into the
    /// game, or return `false` when it starts the next game (a tag line
    /// after movetext, or a well-formed tag line after a blank line inside
    /// a comment never closed). Where it is not `kept` (it would make the
    /// game too large), only the lexical state follows it.
    pub(super) fn take(
        &mut self,
        line: &[u8],
        start: usize,
        kept: bool,
        line_starts: &mut Vec<u32>,
    ) -> bool {
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

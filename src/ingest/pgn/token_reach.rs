//! How much the PGN reader must hold at once to read a game: its longest
//! line or `{…}` comment, found over a whole chunk or a line at a time as
//! the splitter reads them.

/// An upper bound on what the reader must hold at once to read the chunk
/// as if it held all of it: the longest line (a tag line, or any token but
/// a comment, lies within one) and the longest `{…}` from a brace to the
/// next closing one (an unclosed brace: to the end), plus the braces. The
/// reader shifts its buffer for every token it reads, so a buffer the size
/// of the whole game (as this once was) costs time quadratic in the game.
pub(super) fn longest_token(bytes: &[u8]) -> usize {
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
pub(super) struct TokenReach {
    pub(super) longest: usize,
    /// Bytes since the last `\n`.
    pub(super) line: usize,
    /// Where the `{` not yet closed is, in the chunk.
    pub(super) open: Option<usize>,
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
    pub(super) fn follow(&mut self, line: &[u8], at: usize) {
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

    /// [`TokenReach::follow`] and [`super::cut::scan_line`] at once, for a line of
    /// movetext once movetext has begun: each `{`, `}` and `;` is found
    /// once and told to both. `in_comment` is [`super::cut::scan_line`]'s state, which
    /// a `;` outside a comment stops for the rest of the line (braces after
    /// it are text to the game but still count here, as in `follow`).
    ///
    /// Gives back the line's last word outside its comments (a `{…}`, and a
    /// `;` comment to the line's end), found in the same pass over the line
    /// (`super::cut::last_word` asks it for a line it does not follow).
    #[inline]
    pub(super) fn follow_movetext<'l>(
        &mut self,
        line: &'l [u8],
        at: usize,
        in_comment: &mut bool,
    ) -> Option<&'l [u8]> {
        self.count_line(line);
        // scan_line's state still follows this line (no `;` yet)
        let mut scanning = true;
        // the last word outside comments so far, and where the text outside
        // comments now being read starts
        let mut word = None;
        let mut from = 0;
        for i in memchr::memchr3_iter(b'{', b'}', b';', line) {
            match line[i] {
                b'{' => {
                    if self.open.is_none() {
                        self.open = Some(at + i);
                    }
                    if scanning {
                        if !*in_comment {
                            word = tail_word(&line[from..i]).or(word);
                        }
                        *in_comment = true;
                    }
                }
                b'}' => {
                    if let Some(open) = self.open.take() {
                        self.longest = self.longest.max(at + i + 1 - open);
                    }
                    if scanning {
                        if *in_comment {
                            from = i + 1;
                        }
                        *in_comment = false;
                    }
                }
                _ => {
                    if scanning && !*in_comment {
                        word = tail_word(&line[from..i]).or(word);
                        scanning = false;
                    }
                }
            }
        }
        if scanning && !*in_comment {
            word = tail_word(&line[from..]).or(word);
        }
        word
    }

    /// The bound for a chunk of `len` bytes.
    pub(super) fn finish(&self, len: usize) -> usize {
        let mut longest = self.longest.max(self.line);
        if let Some(open) = self.open {
            longest = longest.max(len - open);
        }
        (longest + 2).min(len.max(1))
    }
}

/// The last white-space separated word of `text`, if any.
fn tail_word(text: &[u8]) -> Option<&[u8]> {
    let end = text.iter().rposition(|b| !b.is_ascii_whitespace())? + 1;
    let start = text[..end]
        .iter()
        .rposition(u8::is_ascii_whitespace)
        .map_or(0, |i| i + 1);
    Some(&text[start..end])
}

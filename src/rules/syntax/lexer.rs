//! The lexer: source text → tokens, each with its offset, length, line and
//! column.

use super::error::{Pos, RuleError};

/// A token of the rule language.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Ident(String),
    Num(f64),
    /// A duration literal, in milliseconds (`30m`, `2h`, `5s`, `250ms`).
    Duration(f64),
    Str(String),
    LBrace,
    RBrace,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Colon,
    Dot,
    /// `=`
    Assign,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    Plus,
    Minus,
    Star,
    Slash,
    Eof,
}

impl Tok {
    /// How the token is named in "expected … found …".
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Num(n) => format!("number `{n}`"),
            Tok::Duration(_) => "a duration".into(),
            Tok::Str(_) => "a string".into(),
            Tok::Eof => "the end of the file".into(),
            other => format!("`{}`", other.symbol()),
        }
    }

    pub fn symbol(&self) -> &'static str {
        match self {
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Comma => ",",
            Tok::Colon => ":",
            Tok::Dot => ".",
            Tok::Assign => "=",
            Tok::Eq => "==",
            Tok::Ne => "!=",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            _ => "",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub pos: Pos,
}

/// Longest ruleset accepted, so that positions fit and work stays bounded.
pub const MAX_SOURCE: usize = 4 << 20;

/// Most tokens (names, numbers, texts and signs; not comments) a ruleset
/// may hold: more than twenty times the largest shipped ruleset's (4,401),
/// and few enough that checking any ruleset stays within arbiter's memory
/// bound (a token and the tree made of it take a few hundred bytes).
pub const MAX_TOKENS: usize = 100_000;

pub fn lex(src: &str) -> Result<Vec<Token>, RuleError> {
    if src.len() > MAX_SOURCE {
        return Err(RuleError::new(
            Pos::START,
            format!(
                "ruleset is {} bytes; at most {MAX_SOURCE} are accepted",
                src.len()
            ),
        ));
    }
    let mut lx = Lexer {
        src,
        bytes: src.as_bytes(),
        i: 0,
        line: 1,
        line_start: 0,
        counted: (0, 0, 1),
        out: Vec::new(),
    };
    lx.run()?;
    Ok(lx.out)
}

struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    i: usize,
    line: usize,
    line_start: usize,
    /// The last column counted: its line's start, its offset and its
    /// column. The next token's column is counted on from there, so a long
    /// line is gone through once, not once per token.
    counted: (usize, usize, usize),
    out: Vec<Token>,
}

impl Lexer<'_> {
    fn pos(&self, start: usize) -> Pos {
        Pos {
            offset: start,
            len: self.i - start,
            line: self.line,
            column: self.src[self.line_start..start].chars().count() + 1,
        }
    }

    /// The column of byte `start`, on the line that starts at `line_start`.
    fn column(&mut self, line_start: usize, start: usize) -> usize {
        let (from, column) = match self.counted {
            (l, off, col) if l == line_start && off <= start => (off, col),
            _ => (line_start, 1),
        };
        let column = column + self.src[from..start].chars().count();
        self.counted = (line_start, start, column);
        column
    }

    fn push(&mut self, tok: Tok, start: usize, line: usize, line_start: usize) {
        let column = self.column(line_start, start);
        self.out.push(Token {
            tok,
            pos: Pos {
                offset: start,
                len: self.i - start,
                line,
                column,
            },
        });
    }

    fn run(&mut self) -> Result<(), RuleError> {
        while self.i < self.bytes.len() {
            self.within_limit()?;
            let start = self.i;
            let c = self.bytes[self.i];
            match c {
                b'\n' => {
                    self.i += 1;
                    self.line += 1;
                    self.line_start = self.i;
                }
                b' ' | b'\t' | b'\r' => self.i += 1,
                b'#' => {
                    while self.i < self.bytes.len() && self.bytes[self.i] != b'\n' {
                        self.i += 1;
                    }
                }
                b'"' | b'\'' => self.string()?,
                b'0'..=b'9' => self.number()?,
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                    while self.i < self.bytes.len()
                        && (self.bytes[self.i].is_ascii_alphanumeric()
                            || self.bytes[self.i] == b'_')
                    {
                        self.i += 1;
                    }
                    let s = self.src[start..self.i].to_string();
                    self.push(Tok::Ident(s), start, self.line, self.line_start);
                }
                _ => {
                    let two = self.bytes.get(self.i..self.i + 2);
                    let (tok, n) = match (c, two) {
                        (_, Some(b"==")) => (Tok::Eq, 2),
                        (_, Some(b"!=")) => (Tok::Ne, 2),
                        (_, Some(b"<=")) => (Tok::Le, 2),
                        (_, Some(b">=")) => (Tok::Ge, 2),
                        (b'{', _) => (Tok::LBrace, 1),
                        (b'}', _) => (Tok::RBrace, 1),
                        (b'(', _) => (Tok::LParen, 1),
                        (b')', _) => (Tok::RParen, 1),
                        (b'[', _) => (Tok::LBracket, 1),
                        (b']', _) => (Tok::RBracket, 1),
                        (b',', _) => (Tok::Comma, 1),
                        (b':', _) => (Tok::Colon, 1),
                        (b'.', _) => (Tok::Dot, 1),
                        (b'=', _) => (Tok::Assign, 1),
                        (b'<', _) => (Tok::Lt, 1),
                        (b'>', _) => (Tok::Gt, 1),
                        (b'+', _) => (Tok::Plus, 1),
                        (b'-', _) => (Tok::Minus, 1),
                        (b'*', _) => (Tok::Star, 1),
                        (b'/', _) => (Tok::Slash, 1),
                        _ => {
                            let ch = self.src[start..].chars().next().unwrap_or('?');
                            self.i += ch.len_utf8();
                            return Err(RuleError::new(
                                self.pos(start),
                                format!("unexpected character `{}`", ch.escape_debug()),
                            )
                            .help(
                                "expected a name, a number, a string, an operator or a bracket",
                            ));
                        }
                    };
                    self.i += n;
                    self.push(tok, start, self.line, self.line_start);
                }
            }
        }
        self.within_limit()?;
        let (line, ls) = (self.line, self.line_start);
        self.push(Tok::Eof, self.i, line, ls);
        Ok(())
    }

    /// Refuse the first token past [`MAX_TOKENS`], where it stands.
    fn within_limit(&self) -> Result<(), RuleError> {
        match self.out.get(MAX_TOKENS) {
            Some(past) => Err(RuleError::new(
                past.pos,
                format!(
                    "ruleset has more than {MAX_TOKENS} tokens (names, numbers, texts and signs); \
                     this is the first one past that limit"
                ),
            )),
            None => Ok(()),
        }
    }

    /// A string in double or single quotes (single quotes let a message's
    /// `{…}` hole hold a string: `"{if x then 'yes' else 'no'}"`).
    fn string(&mut self) -> Result<(), RuleError> {
        let start = self.i;
        let quote = self.bytes[start];
        let (line, line_start) = (self.line, self.line_start);
        self.i += 1;
        let mut s = String::new();
        loop {
            let Some(&c) = self.bytes.get(self.i) else {
                let p = Pos {
                    offset: start,
                    len: 1,
                    line,
                    column: self.src[line_start..start].chars().count() + 1,
                };
                return Err(RuleError::new(p, "unterminated string").help("close it with `\"`"));
            };
            match c {
                q if q == quote => {
                    self.i += 1;
                    break;
                }
                b'\\' => {
                    let esc = self.bytes.get(self.i + 1).copied();
                    match esc {
                        Some(b'"') => s.push('"'),
                        Some(b'\'') => s.push('\''),
                        Some(b'\\') => s.push('\\'),
                        Some(b'n') => s.push('\n'),
                        _ => {
                            let save = self.i;
                            self.i += 2.min(self.bytes.len() - self.i);
                            let mut p = self.pos(save);
                            p.len = self.i - save;
                            return Err(RuleError::new(p, "unknown escape in string").help(
                                "use \\\" for a quote, \\\\ for a backslash, \\n for a new line",
                            ));
                        }
                    }
                    self.i += 2;
                }
                b'\n' => {
                    s.push('\n');
                    self.i += 1;
                    self.line += 1;
                    self.line_start = self.i;
                }
                _ => {
                    let ch = self.src[self.i..].chars().next().unwrap_or('\u{fffd}');
                    s.push(ch);
                    self.i += ch.len_utf8();
                }
            }
        }
        self.push(Tok::Str(s), start, line, line_start);
        Ok(())
    }

    fn number(&mut self) -> Result<(), RuleError> {
        let start = self.i;
        while self.i < self.bytes.len() && self.bytes[self.i].is_ascii_digit() {
            self.i += 1;
        }
        if self.bytes.get(self.i) == Some(&b'.')
            && self.bytes.get(self.i + 1).is_some_and(u8::is_ascii_digit)
        {
            self.i += 1;
            while self.i < self.bytes.len() && self.bytes[self.i].is_ascii_digit() {
                self.i += 1;
            }
        }
        let text = &self.src[start..self.i];
        let n: f64 = text
            .parse()
            .map_err(|_| RuleError::new(self.pos(start), format!("`{text}` is not a number")))?;
        if !n.is_finite() || n > 1e15 {
            return Err(
                RuleError::new(self.pos(start), format!("number `{text}` is too large"))
                    .help("numbers must be below 10^15"),
            );
        }
        // a unit glued to the number makes a duration
        let unit_start = self.i;
        while self.i < self.bytes.len() && self.bytes[self.i].is_ascii_alphabetic() {
            self.i += 1;
        }
        let unit = &self.src[unit_start..self.i];
        if unit.is_empty() {
            self.push(Tok::Num(n), start, self.line, self.line_start);
            return Ok(());
        }
        let ms = match unit {
            "ms" => 1.0,
            "s" => 1000.0,
            "m" | "min" => 60_000.0,
            "h" => 3_600_000.0,
            _ => {
                let mut p = self.pos(unit_start);
                p.len = self.i - unit_start;
                return Err(RuleError::new(p, format!("unknown unit `{unit}`"))
                    .help("durations take ms, s, m (or min) or h, e.g. `30m`"));
            }
        };
        self.push(Tok::Duration(n * ms), start, self.line, self.line_start);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn tokens_and_positions() {
        let t = lex("rule a.b-c \"x\" # c\n  when 0.08 <= 30m").unwrap();
        assert_eq!(t[0].tok, Tok::Ident("rule".into()));
        assert_eq!(t[2].tok, Tok::Dot);
        assert_eq!(t[4].tok, Tok::Minus);
        assert_eq!(t[6].tok, Tok::Str("x".into()));
        assert_eq!((t[7].pos.line, t[7].pos.column), (2, 3));
        assert_eq!(t[8].tok, Tok::Num(0.08));
        assert_eq!(t[9].tok, Tok::Le);
        assert_eq!(t[10].tok, Tok::Duration(1_800_000.0));
        assert_eq!((t[10].pos.column, t[10].pos.len), (16, 3));
    }

    #[test]
    fn strings_span_lines_and_escape() {
        assert_eq!(
            toks("\"a\\\"b\nc\""),
            vec![Tok::Str("a\"b\nc".into()), Tok::Eof]
        );
    }

    #[test]
    fn errors_have_positions() {
        let e = lex("x = 3 @").unwrap_err();
        assert_eq!((e.pos.line, e.pos.column, e.pos.len), (1, 7, 1));
        let e = lex("a\n \"open").unwrap_err();
        assert_eq!((e.pos.line, e.pos.column), (2, 2));
        let e = lex("t = 5parsecs").unwrap_err();
        assert_eq!((e.pos.column, e.pos.len), (6, 7));
    }

    /// [`MAX_TOKENS`] tokens are read (comments not counted); the next is
    /// refused where it stands.
    #[test]
    fn tokens_past_the_limit_are_refused_at_the_first_one_past() {
        // "1," is two tokens: MAX_TOKENS of them, the Eof after
        let at_limit = "# a comment\n".to_string() + &"1,".repeat(MAX_TOKENS / 2);
        assert_eq!(lex(&at_limit).unwrap().len(), MAX_TOKENS + 1);
        let past = format!("{at_limit}\n 7");
        let e = lex(&past).unwrap_err();
        assert_eq!((e.pos.line, e.pos.column, e.pos.len), (3, 2, 1));
        assert!(
            e.message.contains("more than 100000 tokens"),
            "{}",
            e.message
        );
    }
}

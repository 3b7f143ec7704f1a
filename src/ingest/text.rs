//! A game's text: its bytes, checked as UTF-8 once where the splitter cuts
//! them; the Windows-1252 reading of a piece that is not UTF-8; and the
//! wide encodings (UTF-16, UTF-32) arbiter does not read. It lies beside
//! `pgn`, not in it, because `comments` keeps PVs as spans of it and `pgn`
//! calls `comments`.

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

//! The byte-level lexing the comment parsers share: a split at an ASCII
//! byte or at white space, a trim, comma-separated items and `key=value`
//! pairs, each with a fast path for the ASCII of machine-written comments.

/// `s.split_once(c)` for an ASCII `c`, found by a plain loop: the comments'
/// short pieces end sooner than `str`'s searcher is set up.
#[inline]
pub(super) fn split_byte(s: &str, c: u8) -> Option<(&str, &str)> {
    debug_assert!(c.is_ascii());
    let i = s.bytes().position(|b| b == c)?;
    // an ASCII byte is a character of its own: both sides are `str`s
    Some((&s[..i], &s[i + 1..]))
}

/// A byte that is white space to `char::is_whitespace` on its own: the
/// ASCII white space `str::trim` and `str::split_whitespace` stop at (it
/// has the vertical tab, which `u8::is_ascii_whitespace` has not).
#[inline]
pub(in crate::ingest) fn ascii_white(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// `s.split_once(char::is_whitespace)`, a byte at a time while the text is
/// ASCII (the first byte that is not falls back to it).
pub(super) fn split_white(s: &str) -> Option<(&str, &str)> {
    let b = s.as_bytes();
    for (k, &c) in b.iter().enumerate() {
        if c >= 0x80 {
            return s.split_once(char::is_whitespace);
        }
        if ascii_white(c) {
            // an ASCII byte: character boundaries on both sides
            return Some((&s[..k], &s[k + 1..]));
        }
    }
    None
}

/// `str::trim`, with a fast path for the ASCII white space of machine-written
/// comments (Unicode white space at either end falls back to `str::trim`).
#[inline]
pub(super) fn trim(s: &str) -> &str {
    let b = s.as_bytes();
    let mut i = 0;
    let mut j = b.len();
    while i < j && ascii_white(b[i]) {
        i += 1;
    }
    while j > i && ascii_white(b[j - 1]) {
        j -= 1;
    }
    if i < j && (b[i] >= 0x80 || b[j - 1] >= 0x80) {
        return s.trim();
    }
    // i and j stand next to ASCII bytes: character boundaries
    &s[i..j]
}

/// The comma-separated items of a comment, each trimmed.
#[inline]
pub(super) fn items(s: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    let mut commas = memchr::memchr_iter(b',', s.as_bytes()).chain(std::iter::once(s.len()));
    std::iter::from_fn(move || {
        let end = commas.next()?;
        let item = &s[start..end];
        start = end + 1;
        Some(trim(item))
    })
}

/// A `key=value` item split at its first `=`, both sides trimmed.
#[inline]
pub(super) fn key_value(item: &str) -> Option<(&str, &str)> {
    // keys are short: a loop finds the `=` sooner than memchr's set-up
    let (key, value) = split_byte(item, b'=')?;
    Some((trim(key), trim(value)))
}

/// The first `,` in `b` from `from` on (or `b.len()`), for the short values:
/// eight bytes at a time (the classic zero-byte test on the word xor
/// `,,,,,,,,`, whose lowest flagged byte is exact), bytes one by one for
/// the last few.
#[inline]
pub(super) fn comma_near(b: &[u8], from: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut e = from;
    while e + 8 <= b.len() {
        let word = u64::from_le_bytes(b[e..e + 8].try_into().expect("eight bytes"));
        let x = word ^ (ONES * u64::from(b','));
        let found = x.wrapping_sub(ONES) & !x & HIGHS;
        if found != 0 {
            return e + (found.trailing_zeros() / 8) as usize;
        }
        e += 8;
    }
    while e < b.len() && b[e] != b',' {
        e += 1;
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::comments::test_texts::generated;

    /// `split_white` is `split_once(char::is_whitespace)`, and `trim` is
    /// `str::trim`, on texts of ASCII and Unicode white space, letters and
    /// bytes beyond ASCII, in every place.
    #[test]
    fn the_white_space_splits_as_str_does() {
        let mut split = 0;
        for text in generated(" \t\n\r\x0b\x0c\u{a0}\u{2003}\u{85}clk0:1é€x,", 12, 100_000) {
            assert_eq!(
                split_white(&text),
                text.split_once(char::is_whitespace),
                "{text:?}"
            );
            assert_eq!(trim(&text), text.trim(), "{text:?}");
            split += usize::from(split_white(&text).is_some());
        }
        assert!(split > 10_000, "{split}");
    }

    /// `split_byte` is `str::split_once` for each ASCII byte the forms
    /// split at, on texts with multi-byte characters too.
    #[test]
    fn split_byte_is_split_once() {
        for t in generated(",/ =é+\u{2003}0a", 12, 50_000) {
            for c in [b',', b'/', b' ', b'='] {
                assert_eq!(split_byte(&t, c), t.split_once(char::from(c)), "{t:?} {c}");
            }
        }
    }

    #[test]
    fn the_fast_trim_is_str_trim() {
        let cases = [
            "",
            " ",
            "d=30",
            "  d=30 ",
            "\t\r\nwv=0.27\x0b\x0c",
            "\u{a0}pv=e4\u{a0}",
            "\u{85}x",
            "x\u{2003}",
            "\u{3000}\u{3000}",
            "\x1cR50=50\x1f",
            " é ",
            "é",
            " \u{a0} ",
        ];
        for c in cases {
            assert_eq!(trim(c), c.trim(), "{c:?}");
        }
        let text = b"d=1, mt=90906, tl=3514094,,x,, wv=0.27 ,R50=50, mb=+0+0+0+0+0,,";
        for from in 0..=text.len() {
            let want = text[from..]
                .iter()
                .position(|&c| c == b',')
                .map_or(text.len(), |p| from + p);
            assert_eq!(comma_near(text, from), want, "{from}");
        }
        let split: Vec<&str> = items(" d=1 ,, pv=e4 e5 ,\u{a0}book").collect();
        assert_eq!(
            split,
            [" d=1 ,, pv=e4 e5 ,\u{a0}book".split(',').map(str::trim)]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
        );
        assert_eq!(key_value(" R50 = 49 "), Some(("R50", "49")));
        assert_eq!(key_value("a=b=c"), Some(("a", "b=c")));
        assert_eq!(key_value("book"), None);
    }
}

//! Which comment is TCEC's (its first item is `book` or a TCEC
//! `key=value`), and the TCEC keys as numbers, for a dispatch without
//! string compares.

use super::lex::{items, key_value};

/// Whether a (trimmed) comment is TCEC's: its first item is `book` or a
/// TCEC `key=value`.
pub(super) fn looks_like_tcec(s: &str) -> bool {
    match leading_key(s) {
        Some(code) => is_tcec_key(code),
        None => first_item_is_tcec(s),
    }
}

/// The [`key_code`] of `s`'s first item's key where `s` starts with it
/// (letters and digits right before an `=`, nearly every comment): the
/// key that the item's first `=` and its trimmed left side give, found
/// without cutting the item out. `None` for any other start.
fn leading_key(s: &str) -> Option<u32> {
    let b = s.as_bytes();
    let k = b.iter().position(|c| !KEY_BYTE[usize::from(*c)])?;
    (k > 0 && b[k] == b'=').then(|| key_code(&b[..k]))
}

/// [`looks_like_tcec`] for any comment: its first item, trimmed, is `book`
/// or cut at its first `=` into a TCEC key.
fn first_item_is_tcec(s: &str) -> bool {
    // An ASCII byte that is neither a letter nor white space (as `trim`
    // tells it: the vertical tab too) starts the first item once trimmed
    // (or makes it empty, or its key empty): it is not `book`, and no TCEC
    // key starts with it. Other GUIs' comments (`+0.27/30 90.906s`) are
    // told apart here without cutting an item.
    if let Some(&b) = s.as_bytes().first()
        && b.is_ascii()
        && !b.is_ascii_alphabetic()
        && !char::from(b).is_whitespace()
    {
        return false;
    }
    let first = items(s).next().unwrap_or("");
    if first == "book" {
        return true;
    }
    match key_value(first) {
        Some((k, _)) => is_tcec_key(key_code(k.as_bytes())),
        None => false,
    }
}

/// Whether `code` is one of the TCEC keys (a first item with one marks a
/// TCEC comment).
fn is_tcec_key(code: u32) -> bool {
    const KEYS: [u32; 16] = [
        key_code(b"d"),
        key_code(b"sd"),
        key_code(b"pd"),
        key_code(b"mt"),
        key_code(b"tl"),
        key_code(b"s"),
        key_code(b"n"),
        key_code(b"pv"),
        key_code(b"tb"),
        key_code(b"h"),
        key_code(b"ph"),
        key_code(b"wv"),
        key_code(b"R50"),
        key_code(b"Rd"),
        key_code(b"Rr"),
        key_code(b"mb"),
    ];
    code != 0 && KEYS.contains(&code)
}

/// Whether a byte is an ASCII letter or digit (`u8::is_ascii_alphanumeric`),
/// as one load: the key loop of [`super::tcec::parse_tcec`] asks it of every byte of
/// every key.
pub(super) static KEY_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).is_ascii_alphanumeric();
        i += 1;
    }
    t
};

/// A key of up to three bytes as one number (its length in the top byte),
/// for a dispatch without string compares; 0 for a longer key.
#[inline]
pub(super) const fn key_code(k: &[u8]) -> u32 {
    match k.len() {
        1 => 1 << 24 | k[0] as u32,
        2 => 2 << 24 | k[0] as u32 | (k[1] as u32) << 8,
        3 => 3 << 24 | k[0] as u32 | (k[1] as u32) << 8 | (k[2] as u32) << 16,
        _ => 0,
    }
}

/// The TCEC keys as [`key_code`]s.
pub(super) mod key {
    use super::key_code;
    pub const D: u32 = key_code(b"d");
    pub const SD: u32 = key_code(b"sd");
    pub const PD: u32 = key_code(b"pd");
    pub const MT: u32 = key_code(b"mt");
    pub const TL: u32 = key_code(b"tl");
    pub const S: u32 = key_code(b"s");
    pub const N: u32 = key_code(b"n");
    pub const PV: u32 = key_code(b"pv");
    pub const TB: u32 = key_code(b"tb");
    pub const H: u32 = key_code(b"h");
    pub const PH: u32 = key_code(b"ph");
    pub const WV: u32 = key_code(b"wv");
    pub const R50: u32 = key_code(b"R50");
    pub const R50_LOWER: u32 = key_code(b"r50");
    pub const RD: u32 = key_code(b"Rd");
    pub const RR: u32 = key_code(b"Rr");
    pub const MB: u32 = key_code(b"mb");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut for a comment that starts with its key answers as the
    /// whole first item does, wherever it answers.
    #[test]
    fn a_leading_key_is_the_first_items_key() {
        let cases = [
            "d=30, sd=44",
            "R50=50, Rd=-11",
            "wv=0.27",
            "mb=+0+0+0+0+0,",
            "x=1, d=3",
            "depth=3, d=30",
            "d =30",
            "d= 30",
            "book, mb=+0+0+0+0+0,",
            "book",
            "=3",
            "d",
            "d,=3",
            "Rr=-11",
            "pv=e4 e5, d=3",
            "1.2s",
            "+0.35/24 1.2s",
            "é=3",
        ];
        let mut answered = 0;
        for s in cases {
            if let Some(code) = leading_key(s) {
                answered += 1;
                let first = items(s).next().unwrap_or("");
                let (key, _) = key_value(first).expect("an item with `=`");
                assert_eq!(code, key_code(key.as_bytes()), "{s}");
                assert_eq!(is_tcec_key(code), first_item_is_tcec(s), "{s}");
            }
        }
        assert_eq!(answered, 9);
    }

    /// The first item's test without cutting it, where the first byte is
    /// an ASCII byte neither a letter nor white space, answers as cutting
    /// it does: for every such first byte, and every other start too
    /// (letters, white space, a Unicode space, a comma, an `=`), before
    /// the texts of each TCEC key and of the other GUIs' comments.
    #[test]
    fn the_first_items_shortcut_is_the_item() {
        let general = |s: &str| {
            let first = items(s).next().unwrap_or("");
            first == "book"
                || key_value(first).is_some_and(|(k, _)| is_tcec_key(key_code(k.as_bytes())))
        };
        let mut starts: Vec<String> = (0u8..128).map(|b| char::from(b).to_string()).collect();
        starts.extend(["", "\u{a0}", "\u{3000}", "é", "  ", " ,"].map(String::from));
        let tails = [
            "",
            "d=30",
            "book",
            "book, d=3",
            "=3",
            ",d=3",
            "+0.27/30 90.906s",
            "d",
            "sd=4, x",
            "ook",
            "R50=1",
            "[%clk 0:01:00]",
        ];
        let mut n = 0;
        for start in &starts {
            for tail in tails {
                let s = format!("{start}{tail}");
                assert_eq!(first_item_is_tcec(&s), general(&s), "{s:?}");
                n += 1;
            }
        }
        assert!(n > 1500, "{n}");
    }
}

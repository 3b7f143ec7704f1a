//! Whether a text looks like PGN at all, from its first bytes: a file that
//! is not (a `Cargo.toml`, a binary) is refused rather than read as games
//! that are all errors.

use crate::ingest::text::wide_encoding;

/// What a PGN file shows early, said when a file shows neither.
pub const EXPECTED: &str = "expected a tag pair such as [Event \"...\"] or movetext such as 1. e4 in the first 64 KiB, found neither";

/// Whether `head`, a file's first bytes, looks like PGN: it has a tag pair
/// (`[Name "` at the start of a line) or a move after a move number
/// (`1. e4`, `12...Nf6`, `3. O-O`). Text that is empty or blank, and text
/// in UTF-16 or UTF-32 (which the splitter names), pass: what they hold is
/// said when they are read.
pub fn looks_like_pgn(head: &[u8]) -> bool {
    head.iter().all(u8::is_ascii_whitespace)
        || wide_encoding(head).is_some()
        || head.split(|&b| b == b'\n').any(tag_line)
        || has_numbered_move(head)
}

/// `[Name "` after blanks (and a byte-order mark) at the start of `line`.
fn tag_line(line: &[u8]) -> bool {
    let line = line.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(line);
    let Some(rest) = line.trim_ascii_start().strip_prefix(b"[") else {
        return false;
    };
    let name = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let after = &rest[name..];
    let blanks = after
        .iter()
        .take_while(|b| **b == b' ' || **b == b'\t')
        .count();
    name > 0 && blanks > 0 && after.get(blanks) == Some(&b'"')
}

/// A move number (digits and a dot, at the start of a token) followed by
/// what starts a move in SAN.
fn has_numbered_move(text: &[u8]) -> bool {
    memchr::memchr_iter(b'.', text).any(|dot| {
        let digits = text[..dot]
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let start = dot - digits;
        let token_start = start == 0 || !text[start - 1].is_ascii_alphanumeric();
        if digits == 0 || !token_start {
            return false;
        }
        let rest = &text[dot..];
        let skip = rest
            .iter()
            .take_while(|b| **b == b'.' || **b == b' ')
            .count();
        match rest.get(skip..skip + 3) {
            Some([b'O', b'-', b'O']) => true,
            Some([a, b, _]) => {
                (b"KQRBN".contains(a) && (b"abcdefgh12345678x".contains(b)))
                    || ((b'a'..=b'h').contains(a) && (b"12345678x".contains(b)))
            }
            _ => false,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::looks_like_pgn;

    /// Tags or numbered moves are PGN, blank text passes; a Cargo.toml, a
    /// JSON file and binary bytes are not PGN.
    #[test]
    fn pgn_is_told_from_what_is_not() {
        for yes in [
            &b"[Event \"x\"]\n"[..],
            b"\xEF\xBB\xBF[Site \"y\"]",
            b"  [White\t\"A\"]",
            b"1. e4 e5 1-0",
            b"12...Nf6",
            b"{c} 3. O-O",
            b"",
            b" \n\t",
        ] {
            assert!(looks_like_pgn(yes), "{}", String::from_utf8_lossy(yes));
        }
        let cargo = include_bytes!("../../../Cargo.toml");
        let binary: Vec<u8> = (0..65536u32)
            .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
            .collect();
        for no in [
            &cargo[..],
            b"{\"version\": \"1.0\", \"list\": [1.5, 2.25]}",
            b"[package]\nname = \"x\"\n",
            &binary,
        ] {
            assert!(
                !looks_like_pgn(no),
                "{}",
                String::from_utf8_lossy(&no[..no.len().min(80)])
            );
        }
    }
}

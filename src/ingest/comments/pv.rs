//! A principal variation's text, kept as a span of its game's bytes where
//! it can be (no copy), and where a comment's text lies in those bytes.

use serde::Serialize;

use crate::ingest::text::GameText;

/// A principal variation's text (SAN, space separated). Read from the
/// game's own bytes it is a span of them, shared with every other PV of the
/// game, so typing a move's comment allocates nothing for it; a PV from a
/// comment that had to be rewritten first (decoded from Latin-1, or with
/// `[%…]` commands taken out) owns its text.
#[derive(Clone)]
pub enum PvText {
    Span {
        text: std::sync::Arc<GameText>,
        start: u32,
        len: u32,
    },
    Owned(Box<str>),
}

impl PvText {
    /// The PV `value`, a slice of `src.body` when it comes from there.
    pub(super) fn new(src: Option<&CommentSource<'_>>, value: &str) -> PvText {
        if let Some(src) = src {
            let body = src.body.as_ptr() as usize;
            let at = value.as_ptr() as usize;
            if at >= body && at + value.len() <= body + src.body.len() {
                let start = src.at + (at - body);
                // the span is checked against the game's bytes, so a span
                // never reads anything but the PV itself: the same memory
                // (nearly always: the comment's body is a slice of the
                // game's text) is the PV without a compare of its bytes
                let same = src
                    .text
                    .get(start..start + value.len())
                    .is_some_and(|s| std::ptr::eq(s, value.as_bytes()) || s == value.as_bytes());
                if same
                    && let (Ok(start), Ok(len)) = (u32::try_from(start), u32::try_from(value.len()))
                {
                    return PvText::Span {
                        text: src.text.clone(),
                        start,
                        len,
                    };
                }
            }
        }
        PvText::Owned(value.into())
    }
}

impl std::ops::Deref for PvText {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            PvText::Span { text, start, len } => {
                let (start, len) = (*start as usize, *len as usize);
                // made from a `&str` of the same bytes (`PvText::new`)
                match text.text(start, start + len) {
                    Some(pv) => pv,
                    None => std::str::from_utf8(text.get(start..start + len).unwrap_or_default())
                        .unwrap_or_default(),
                }
            }
            PvText::Owned(s) => s,
        }
    }
}

impl std::fmt::Debug for PvText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

impl PartialEq for PvText {
    fn eq(&self, other: &PvText) -> bool {
        **self == **other
    }
}

impl Serialize for PvText {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

/// Where a comment's text lies in its game's bytes: `body`, the text as the
/// reader gave it, starts at byte `at` of `text`. With it a PV is kept as a
/// span of the game's bytes instead of a copy.
#[derive(Debug, Clone, Copy)]
pub struct CommentSource<'a> {
    pub text: &'a std::sync::Arc<GameText>,
    pub body: &'a str,
    pub at: usize,
}

/// Give `pvs` (one game's) a text of their own: the PVs alone, one after
/// another, in place of the game's whole text that their spans keep alive.
/// What each PV reads is unchanged; a game held long after it is read (a
/// fit) then holds its PVs, not its text.
pub fn repack(pvs: &mut [&mut PvText]) {
    let mut text = String::with_capacity(pvs.iter().map(|p| p.len()).sum());
    let mut at = Vec::with_capacity(pvs.len());
    for p in pvs.iter() {
        at.push(text.len());
        text.push_str(p);
    }
    let text = std::sync::Arc::new(GameText::Utf8(text));
    for (p, start) in pvs.iter_mut().zip(at) {
        if let (Ok(start), Ok(len)) = (u32::try_from(start), u32::try_from(p.len())) {
            **p = PvText::Span {
                text: text.clone(),
                start,
                len,
            };
        }
    }
}

#[cfg(test)]
mod repack_tests {
    use super::*;

    #[test]
    fn repacked_pvs_read_the_same_and_let_the_game_text_go() {
        let game = std::sync::Arc::new(GameText::Utf8("{pv=e4 e5} {pv=Nf3} x".into()));
        let span = |start, len| PvText::Span {
            text: game.clone(),
            start,
            len,
        };
        let (mut a, mut b, mut c) = (span(4, 5), span(15, 3), PvText::Owned("d4".into()));
        repack(&mut [&mut a, &mut b, &mut c]);
        assert_eq!((&*a, &*b, &*c), ("e4 e5", "Nf3", "d4"));
        // the game's text is held by nothing but this test now
        assert_eq!(std::sync::Arc::strong_count(&game), 1);
        match &a {
            PvText::Span { text, .. } => assert_eq!(&text[..], b"e4 e5Nf3d4"),
            PvText::Owned(_) => panic!("a repacked PV is a span of the new text"),
        }
    }
}

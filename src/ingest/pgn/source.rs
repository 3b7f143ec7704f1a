//! The chunk's bytes as pgn-reader reads them, with where each read put
//! them, so that the slices the reader hands back are placed in the chunk.

use std::cell::Cell;
use std::io::{self, Read};
use std::rc::Rc;

/// Records which chunk offset the reader's buffer pointer corresponds to at
/// the last read, so that slices handed to the visitor can be placed.
#[derive(Debug, Default)]
pub(super) struct PtrMap {
    pub(super) ptr: Cell<usize>,
    pub(super) offset: Cell<usize>,
}

/// The chunk, then `pad` bytes of a blank line and spaces after it.
///
/// The reader asks for as many bytes as its longest token before each
/// token, and where fewer are left it moves what is left to the start of
/// its buffer and reads again. At the end of the input that move was made
/// for every token of the last buffer, so a game of one long line (a
/// million glyphs, a megabyte of stray braces) took time quadratic in its
/// length. With the padding the reader always has that many bytes until
/// the chunk's own are read, and the blank line ends the game's movetext
/// there, as the end of the input did. Nothing in the padding is placed in
/// the chunk: a comment the reader reads into it is cut at the chunk's end
/// ([`super::visitor::GameVisitor::clip`]).
#[derive(Debug)]
pub(super) struct TrackedSlice<'a> {
    pub(super) data: &'a [u8],
    pub(super) pos: usize,
    pub(super) map: Rc<PtrMap>,
    pub(super) pad: usize,
}

impl Read for TrackedSlice<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.map.ptr.set(buf.as_ptr() as usize);
        self.map.offset.set(self.pos);
        let len = self.data.len();
        let n = buf.len().min(len + self.pad - self.pos);
        let real = n.min(len.saturating_sub(self.pos));
        if real > 0 {
            buf[..real].copy_from_slice(&self.data[self.pos..self.pos + real]);
        }
        for (i, b) in buf[real..n].iter_mut().enumerate() {
            // the padding's first two bytes are a blank line
            *b = if self.pos + real + i < len + 2 {
                b'\n'
            } else {
                b' '
            };
        }
        self.pos += n;
        Ok(n)
    }
}

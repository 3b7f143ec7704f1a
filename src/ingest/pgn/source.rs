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

#[derive(Debug)]
pub(super) struct TrackedSlice<'a> {
    pub(super) data: &'a [u8],
    pub(super) pos: usize,
    pub(super) map: Rc<PtrMap>,
}

impl Read for TrackedSlice<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.map.ptr.set(buf.as_ptr() as usize);
        self.map.offset.set(self.pos);
        let n = buf.len().min(self.data.len() - self.pos);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

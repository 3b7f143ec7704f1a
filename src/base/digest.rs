//! SHA-256 digests: every input a report names is recorded by the digest
//! of the very bytes that were read.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use sha2::{Digest, Sha256};

/// Wraps a reader, hashing and counting every byte read through it.
#[derive(Debug)]
pub struct HashingReader<R> {
    inner: R,
    hasher: Sha256,
    bytes: u64,
}

impl<R: Read> HashingReader<R> {
    pub fn new(inner: R) -> Self {
        HashingReader {
            inner,
            hasher: Sha256::new(),
            bytes: 0,
        }
    }

    /// Hex SHA-256 and byte count of everything read so far.
    pub fn finish(self) -> (String, u64) {
        (hex(&self.hasher.finalize()), self.bytes)
    }
}

impl<R: Read> Read for HashingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
}

/// Hex SHA-256 of a file, read as it streams by.
pub fn sha256_file(path: &Path) -> io::Result<String> {
    let mut input = HashingReader::new(File::open(path)?);
    io::copy(&mut input, &mut io::sink())?;
    Ok(input.finish().0)
}

/// Hex SHA-256 of bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Bytes (a digest) as lowercase hex: two digits a byte, the high half
/// first (a `format!` per byte cost more than the hash of a short text,
/// and the batch's summary hashes every game's path for its anchor).
fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digest in lowercase hex, the high half of each byte first: the
    /// published SHA-256 of "abc" and of nothing, and every byte value.
    #[test]
    fn digests_are_written_in_lowercase_hex() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        let every: Vec<u8> = (0..=255).collect();
        let want: String = every.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex(&every), want);
    }
}

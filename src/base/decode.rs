//! An input opened as people pass it around: a file as it is, gzipped or
//! zstd-compressed, or standard input (`-`). The compression is told by
//! the file's first bytes, not by its name. The text is decoded as it is
//! read, never held whole; the SHA-256 and the size recorded are those of
//! the bytes read from the disk (or the pipe), before decoding.

use std::fs::File;
use std::io::{self, BufReader, Cursor, Read};
use std::path::Path;

use super::digest::HashingReader;

/// The path that names standard input on the command line.
pub const STDIN: &str = "-";

/// How a report names standard input.
pub const STDIN_SHOWN: &str = "<stdin>";

/// How much decoded text is read ahead, to be looked at before the rest
/// ([`Decoded::head`]).
pub const HEAD_BYTES: usize = 64 << 10;

/// Whether `path` names standard input (`-`).
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == STDIN
}

/// `path` as a report names it: `<stdin>` for `-`.
pub fn shown(path: &Path) -> String {
    if is_stdin(path) {
        STDIN_SHOWN.to_string()
    } else {
        path.display().to_string()
    }
}

/// Where the bytes come from.
#[derive(Debug)]
enum Source {
    File(File),
    Stdin(io::Stdin),
}

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Source::File(f) => f.read(buf),
            Source::Stdin(s) => s.read(buf),
        }
    }
}

/// The raw bytes: the first few, read to tell the compression, then the
/// rest; all of them hashed as they are read.
type Raw = io::Chain<Cursor<Vec<u8>>, HashingReader<Source>>;

/// A decoder of compressed bytes.
enum Decoder {
    Gzip(Box<flate2::bufread::MultiGzDecoder<BufReader<Raw>>>),
    Zstd(Box<zstd::stream::read::Decoder<'static, BufReader<Raw>>>),
}

impl Decoder {
    fn name(&self) -> &'static str {
        match self {
            Decoder::Gzip(_) => "gzip",
            Decoder::Zstd(_) => "zstd",
        }
    }

    fn into_raw(self) -> Raw {
        match self {
            Decoder::Gzip(r) => r.into_inner().into_inner(),
            Decoder::Zstd(r) => r.finish().into_inner(),
        }
    }
}

impl Read for Decoder {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let said = |what: &str, e: io::Error| io::Error::new(e.kind(), format!("{what}: {e}"));
        match self {
            Decoder::Gzip(r) => r.read(buf).map_err(|e| said("gzip", e)),
            Decoder::Zstd(r) => r.read(buf).map_err(|e| said("zstd", e)),
        }
    }
}

/// How much decoded text the decoding thread hands over at once.
const BLOCK_BYTES: usize = 256 << 10;

/// A compressed input decoded on a thread of its own, a few blocks ahead
/// of its reader (at most [`BLOCKS`] wait: the memory stays bounded), so
/// that the decoding runs beside the cutting into games rather than
/// before it.
struct Threaded {
    how: &'static str,
    blocks: Option<std::sync::mpsc::Receiver<io::Result<Vec<u8>>>>,
    block: Cursor<Vec<u8>>,
    /// Gives the raw bytes back, to be hashed to their end.
    thread: std::thread::JoinHandle<Raw>,
}

/// Blocks of decoded text that may wait.
const BLOCKS: usize = 4;

impl Threaded {
    fn start(mut decoder: Decoder) -> io::Result<Threaded> {
        let how = decoder.name();
        let (tx, blocks) = std::sync::mpsc::sync_channel(BLOCKS);
        let thread = std::thread::Builder::new()
            .name(format!("arbiter-{how}"))
            .spawn(move || {
                loop {
                    let mut block = vec![0u8; BLOCK_BYTES];
                    match fill(&mut decoder, &mut block) {
                        Ok(0) => break,
                        Ok(n) => {
                            block.truncate(n);
                            // the reader gone: nothing more is decoded
                            if tx.send(Ok(block)).is_err() {
                                break;
                            }
                        }
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            break;
                        }
                    }
                }
                decoder.into_raw()
            })?;
        Ok(Threaded {
            how,
            blocks: Some(blocks),
            block: Cursor::new(Vec::new()),
            thread,
        })
    }

    /// The raw bytes, once the decoding thread has stopped (told to stop
    /// if it has not).
    fn into_raw(mut self) -> Raw {
        drop(self.blocks.take());
        match self.thread.join() {
            Ok(raw) => raw,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}

impl Read for Threaded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.block.position() as usize >= self.block.get_ref().len() {
            let Some(blocks) = &self.blocks else {
                return Ok(0);
            };
            match blocks.recv() {
                Ok(Ok(block)) => self.block = Cursor::new(block),
                Ok(Err(e)) => {
                    self.blocks = None;
                    return Err(e);
                }
                // the end of the text
                Err(_) => {
                    self.blocks = None;
                    return Ok(0);
                }
            }
        }
        self.block.read(buf)
    }
}

/// The text as it is read: as stored, or decoded on a thread.
enum Stream {
    Plain(Raw),
    Decoded(Box<Threaded>),
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stream::Plain(_) => "Plain",
            Stream::Decoded(t) => t.how,
        })
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(r) => r.read(buf),
            Stream::Decoded(t) => t.read(buf),
        }
    }
}

/// An input being read: its text, decoded, the first [`HEAD_BYTES`] read
/// already ([`Decoded::head`]).
#[derive(Debug)]
pub struct Decoded {
    head: Cursor<Vec<u8>>,
    stream: Stream,
}

/// A compression arbiter does not read, told by its first bytes: its name.
fn unsupported(magic: &[u8]) -> Option<&'static str> {
    match magic {
        [0xFD, b'7', b'z', b'X', b'Z', 0, ..] => Some("xz"),
        [b'B', b'Z', b'h', b'1'..=b'9', 0x31, 0x41, 0x59, 0x26, ..] => Some("bzip2"),
        [b'P', b'K', 3, 4, ..] => Some("zip"),
        [b'7', b'z', 0xBC, 0xAF, 0x27, 0x1C, ..] => Some("7z"),
        _ => None,
    }
}

/// Read into `buf` until it is full or the input ends; the bytes read.
fn fill(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match input.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Open `path` (`-`: standard input), a regular file only, and start
/// decoding it: plain text, gzip (`1f 8b`: every member, as `cat a.gz
/// b.gz` makes) or zstd (`28 b5 2f fd`: every frame). xz, bzip2, zip and 7z
/// are refused by their first bytes, said by name.
pub fn open(path: &Path) -> io::Result<Decoded> {
    let source = if is_stdin(path) {
        Source::Stdin(io::stdin())
    } else {
        Source::File(super::files::open_regular(path)?)
    };
    let mut hashed = HashingReader::new(source);
    let mut magic = vec![0u8; 10];
    let n = fill(&mut hashed, &mut magic)?;
    magic.truncate(n);
    if let Some(name) = unsupported(&magic) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{name} is not supported (arbiter reads PGN text, gzip and zstd); refused: decompress it first"
            ),
        ));
    }
    let kind = match magic.as_slice() {
        [0x1F, 0x8B, ..] => 1,
        [0x28, 0xB5, 0x2F, 0xFD, ..] => 2,
        _ => 0,
    };
    let raw: Raw = Cursor::new(magic).chain(hashed);
    let stream = match kind {
        1 => Stream::Decoded(Box::new(Threaded::start(Decoder::Gzip(Box::new(
            flate2::bufread::MultiGzDecoder::new(BufReader::with_capacity(1 << 16, raw)),
        )))?)),
        2 => Stream::Decoded(Box::new(Threaded::start(Decoder::Zstd(Box::new(
            zstd::stream::read::Decoder::with_buffer(BufReader::with_capacity(1 << 16, raw))?,
        )))?)),
        _ => Stream::Plain(raw),
    };
    let mut d = Decoded {
        head: Cursor::new(Vec::new()),
        stream,
    };
    let mut head = vec![0u8; HEAD_BYTES];
    let n = fill(&mut d.stream, &mut head)?;
    head.truncate(n);
    d.head = Cursor::new(head);
    Ok(d)
}

/// The decoded text of `path` from byte `offset` of it on (to read a
/// game again where it was found): a plain file is sought, a compressed
/// one decoded up to there. Standard input (`-`, or `<stdin>` as a report
/// names it) cannot be read again: an error.
pub fn open_at(path: &Path, offset: u64) -> io::Result<Box<dyn Read + Send>> {
    use std::io::{Seek, SeekFrom};
    if is_stdin(path) || path.as_os_str() == STDIN_SHOWN {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "standard input cannot be read again",
        ));
    }
    let mut file = super::files::open_regular(path)?;
    let mut magic = [0u8; 4];
    let n = fill(&mut file, &mut magic)?;
    if !matches!(&magic[..n], [0x1F, 0x8B, ..] | [0x28, 0xB5, 0x2F, 0xFD]) {
        file.seek(SeekFrom::Start(offset))?;
        return Ok(Box::new(file));
    }
    let mut d = open(path)?;
    io::copy(&mut (&mut d).take(offset), &mut io::sink())?;
    Ok(Box::new(d))
}

impl Decoded {
    /// The first [`HEAD_BYTES`] of the decoded text (all of it when
    /// shorter), as read ahead.
    pub fn head(&self) -> &[u8] {
        self.head.get_ref()
    }

    /// The compression, by name, if any.
    pub fn compression(&self) -> Option<&'static str> {
        match &self.stream {
            Stream::Plain(_) => None,
            Stream::Decoded(t) => Some(t.how),
        }
    }

    /// Hex SHA-256 and byte count of the raw bytes read so far (all of
    /// them once the text has been read to its end).
    pub fn finish(self) -> (String, u64) {
        let raw = match self.stream {
            Stream::Plain(r) => r,
            Stream::Decoded(t) => t.into_raw(),
        };
        raw.into_inner().1.finish()
    }
}

impl Read for Decoded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if (self.head.position() as usize) < self.head.get_ref().len() {
            return self.head.read(buf);
        }
        self.stream.read(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::digest::sha256_hex;
    use std::io::Write;

    fn read_all(path: &Path) -> (Vec<u8>, Option<&'static str>, (String, u64)) {
        let mut d = open(path).unwrap();
        let how = d.compression();
        let mut text = Vec::new();
        d.read_to_end(&mut text).unwrap();
        (text, how, d.finish())
    }

    /// Plain, gzip (two members) and zstd (two frames) give the same text,
    /// told by their bytes whatever their names; the hash and size are the
    /// file's on disk.
    #[test]
    fn compressed_files_are_told_by_their_bytes_and_hashed_as_stored() {
        let dir = tempfile::tempdir().unwrap();
        let text: Vec<u8> = (0..20_000)
            .flat_map(|i| format!("[Round \"{i}\"]\n\n1. e4 *\n\n").into_bytes())
            .collect();
        let half = text.len() / 2;
        let mut gz = Vec::new();
        for part in [&text[..half], &text[half..]] {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(part).unwrap();
            gz.extend(e.finish().unwrap());
        }
        let mut zst = Vec::new();
        for part in [&text[..half], &text[half..]] {
            zst.extend(zstd::stream::encode_all(part, 3).unwrap());
        }
        for (name, bytes, how) in [
            ("a.pgn", &text, None),
            ("b.pgn", &gz, Some("gzip")),
            ("c.txt", &zst, Some("zstd")),
        ] {
            let p = dir.path().join(name);
            std::fs::write(&p, bytes).unwrap();
            let (got, h, (sha, n)) = read_all(&p);
            assert!(got == text, "{name}");
            assert_eq!(h, how);
            assert_eq!(sha, sha256_hex(bytes));
            assert_eq!(n, bytes.len() as u64);
        }
    }

    /// A compressed input left before its end stops its decoding thread:
    /// finished early it gives the hash of what was read so far, dropped
    /// it leaves nothing waiting.
    #[test]
    fn a_decoding_left_early_stops() {
        let dir = tempfile::tempdir().unwrap();
        let text = vec![b'x'; 8 << 20];
        let p = dir.path().join("x.gz");
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&text).unwrap();
        std::fs::write(&p, e.finish().unwrap()).unwrap();
        let mut d = open(&p).unwrap();
        let mut some = vec![0u8; 1000];
        d.read_exact(&mut some).unwrap();
        let (_, bytes) = d.finish();
        assert!(bytes > 0);
        drop(open(&p).unwrap());
    }

    /// A text read again from an offset: a plain file sought, a gzipped one
    /// decoded up to there, the same bytes; standard input refused.
    #[test]
    fn a_text_is_read_again_from_an_offset() {
        let dir = tempfile::tempdir().unwrap();
        let text = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n";
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(text).unwrap();
        let (plain, gz) = (dir.path().join("a.pgn"), dir.path().join("a.pgn.gz"));
        std::fs::write(&plain, text).unwrap();
        std::fs::write(&gz, e.finish().unwrap()).unwrap();
        for p in [&plain, &gz] {
            let mut got = Vec::new();
            open_at(p, 21).unwrap().read_to_end(&mut got).unwrap();
            assert_eq!(got, &text[21..], "{}", p.display());
        }
        for stdin in ["-", "<stdin>"] {
            let e = open_at(Path::new(stdin), 0).err().unwrap().to_string();
            assert_eq!(e, "standard input cannot be read again");
        }
    }

    /// xz and bzip2 are refused by name; a short file and an empty one are
    /// read as they are; a corrupt gzip stream is an error that says gzip.
    #[test]
    fn what_is_not_read_is_said() {
        let dir = tempfile::tempdir().unwrap();
        let xz = dir.path().join("a.pgn.xz");
        std::fs::write(&xz, b"\xFD7zXZ\0\0\x04rest").unwrap();
        let e = open(&xz).unwrap_err().to_string();
        assert!(e.starts_with("xz is not supported"), "{e}");
        let bz = dir.path().join("a.pgn.bz2");
        std::fs::write(&bz, b"BZh91AY&SYrest").unwrap();
        let e = open(&bz).unwrap_err().to_string();
        assert!(e.starts_with("bzip2 is not supported"), "{e}");
        for short in [&b""[..], b"*", b"1. e4"] {
            let p = dir.path().join("s.pgn");
            std::fs::write(&p, short).unwrap();
            assert_eq!(read_all(&p).0, short);
        }
        let bad = dir.path().join("bad.pgn.gz");
        std::fs::write(
            &bad,
            b"\x1F\x8B\x08\0\0\0\0\0\0\x03garbage that is no deflate",
        )
        .unwrap();
        let mut text = Vec::new();
        let e = match open(&bad) {
            Ok(mut d) => d.read_to_end(&mut text).unwrap_err(),
            Err(e) => e,
        };
        assert!(e.to_string().starts_with("gzip: "), "{e}");
    }
}

//! Files read and written with care. Only regular files are opened for
//! reading: a FIFO would block the run, a device such as `/dev/zero` would
//! never end. A report is written to a temporary name in its own folder
//! and renamed when complete, so an interrupted run leaves no partial
//! report under the report's name.

use std::fs::{File, Metadata};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// What a file that is not a regular one is, in words.
pub fn kind(m: &Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = m.file_type();
    if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else {
        "not a file"
    }
}

/// The error for a path that is not a regular file (`m` its metadata).
pub fn not_regular(m: &Metadata) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("not a regular file ({}); refused", kind(m)),
    )
}

/// The metadata of `path` (links followed), or an error if it is not a
/// regular file.
pub fn regular(path: &Path) -> io::Result<Metadata> {
    let m = std::fs::metadata(path)?;
    if m.is_file() {
        Ok(m)
    } else {
        Err(not_regular(&m))
    }
}

/// Why [`open_checked`] opened nothing: the file system's error, or the
/// path is not a regular file (what it is, in words: see [`kind`]).
#[derive(Debug)]
pub enum OpenError {
    Io(io::Error),
    NotRegular(&'static str),
}

/// Open `path` for reading if it is a regular file; a FIFO, a device, a
/// socket or a folder is refused from its metadata, without being opened.
pub fn open_checked(path: &Path) -> Result<File, OpenError> {
    let m = std::fs::metadata(path).map_err(OpenError::Io)?;
    if !m.is_file() {
        return Err(OpenError::NotRegular(kind(&m)));
    }
    let file = File::open(path).map_err(OpenError::Io)?;
    // the path may have been replaced between the two looks
    let m = file.metadata().map_err(OpenError::Io)?;
    if m.is_file() {
        Ok(file)
    } else {
        Err(OpenError::NotRegular(kind(&m)))
    }
}

/// [`open_checked`], its refusal as an `io::Error`.
pub fn open_regular(path: &Path) -> io::Result<File> {
    open_checked(path).map_err(|e| match e {
        OpenError::Io(e) => e,
        OpenError::NotRegular(what) => io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("not a regular file ({what}); refused"),
        ),
    })
}

/// The whole of the regular file `path`, refused without reading more than
/// `cap + 1` bytes when it is longer than `cap` (the error names its size).
pub fn read_capped(path: &Path, cap: usize) -> io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let len = file.metadata()?.len();
    let too_large = |len: u64| {
        io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("is {len} bytes; at most {cap} are accepted"),
        )
    };
    if len > cap as u64 {
        return Err(too_large(len));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(cap));
    file.take(cap as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > cap {
        // it grew while read
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// A file written under a temporary name beside `dest` (`.NAME.PID-N.part`)
/// and renamed to `dest` by [`Atomic::commit`]. Dropped without a commit,
/// or stopped by a signal ([`super::cleanup`]), the temporary file is
/// removed. A link at `dest` is replaced, not
/// written through.
#[derive(Debug)]
pub struct Atomic {
    file: Option<io::BufWriter<File>>,
    tmp: PathBuf,
    dest: PathBuf,
    /// The temporary file, listed for removal on a signal.
    _listed: super::cleanup::Leftover,
}

impl Atomic {
    /// Start writing `dest`.
    pub fn create(dest: &Path) -> io::Result<Atomic> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = dest
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "names no file to write"))?;
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let tmp = dest.with_file_name(format!(
            ".{}.{}-{n}.part",
            name.to_string_lossy(),
            std::process::id()
        ));
        let (file, listed) = super::cleanup::Leftover::make(|| {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)?;
            Ok::<_, io::Error>((file, tmp.clone()))
        })?;
        Ok(Atomic {
            file: Some(io::BufWriter::with_capacity(1 << 16, file)),
            _listed: listed,
            tmp,
            dest: dest.to_path_buf(),
        })
    }

    /// Everything written: the file takes its name.
    pub fn commit(mut self) -> io::Result<()> {
        if let Some(file) = self.file.take() {
            file.into_inner().map_err(io::IntoInnerError::into_error)?;
        }
        std::fs::rename(&self.tmp, &self.dest)
    }

    fn file(&mut self) -> &mut io::BufWriter<File> {
        self.file
            .as_mut()
            .expect("an Atomic is written only before its commit")
    }
}

impl Write for Atomic {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file().write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file().write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}

impl Drop for Atomic {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Write `bytes` to `dest` through a temporary name ([`Atomic`]).
pub fn write_atomic(dest: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = Atomic::create(dest)?;
    f.write_all(bytes)?;
    f.commit()
}

/// `a/b/../c` → `a/c`, without touching the file system, so reports name
/// files the way a reader would.
pub fn normalize(p: &std::path::Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in p.components() {
        match c {
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out.iter().map(|c| c.as_os_str()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report is under its name only once complete: written to a
    /// temporary name, renamed at the commit; dropped before, nothing is
    /// left. What was there before stays until the commit.
    #[test]
    fn atomic_files_appear_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("r.txt");
        std::fs::write(&dest, "old").unwrap();
        let mut f = Atomic::create(&dest).unwrap();
        f.write_all(b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&dest).unwrap(), "old");
        f.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&dest).unwrap(), "new");
        let mut f = Atomic::create(&dest).unwrap();
        f.write_all(b"partial").unwrap();
        drop(f);
        assert_eq!(std::fs::read_to_string(&dest).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["r.txt"]);
    }

    /// A FIFO and a device are refused unopened; a file over the cap is
    /// refused, naming its size.
    #[test]
    fn only_regular_files_within_their_cap_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("f.pgn");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let e = open_regular(&fifo).unwrap_err().to_string();
            assert_eq!(e, "not a regular file (a FIFO); refused");
        }
        let e = open_regular(Path::new("/dev/zero"))
            .unwrap_err()
            .to_string();
        assert_eq!(e, "not a regular file (a device); refused");
        let big = dir.path().join("big");
        std::fs::write(&big, vec![b'x'; 11]).unwrap();
        let e = read_capped(&big, 10).unwrap_err().to_string();
        assert_eq!(e, "is 11 bytes; at most 10 are accepted");
        assert_eq!(read_capped(&big, 11).unwrap().len(), 11);
    }
}

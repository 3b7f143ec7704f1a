//! [`Transcript`]: where an engine's traffic is written as it is made (the
//! transcript form of `docs/engine-log.md`), never held whole in memory.

use std::fmt;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use crate::base::time::format_timestamp;

struct Sink {
    out: Box<dyn Write + Send>,
    /// The first write that failed; later lines are dropped, and
    /// [`Transcript::finish`] returns it.
    error: Option<io::Error>,
}

/// A transcript being written: one line at a time, to a file (or any
/// writer). Clones write to the same place, so that the recording can add
/// its own lines (a header, the failure) around an engine's traffic.
#[derive(Clone)]
pub struct Transcript(Arc<Mutex<Sink>>);

impl fmt::Debug for Transcript {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Transcript")
    }
}

impl Transcript {
    pub fn new(out: impl Write + Send + 'static) -> Self {
        Transcript(Arc::new(Mutex::new(Sink {
            out: Box::new(out),
            error: None,
        })))
    }

    /// A transcript written to a new file at `path` (an existing one is
    /// replaced).
    pub fn create(path: &Path) -> io::Result<Self> {
        Ok(Self::new(BufWriter::new(std::fs::File::create(path)?)))
    }

    /// A transcript nobody keeps.
    pub fn discard() -> Self {
        Self::new(io::sink())
    }

    /// One line as it is (a `# key: value` line); a line break inside it
    /// would start another line, and is written as a blank.
    pub fn line(&self, text: &str) {
        let mut s = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if s.error.is_some() {
            return;
        }
        let text = text.replace(['\n', '\r'], " ");
        if let Err(e) = writeln!(s.out, "{text}") {
            s.error = Some(e);
        }
    }

    /// One line of traffic at `ms`: `>` to the engine, `<` from it, `!` what
    /// arbiter saw.
    pub fn entry(&self, ms: i64, dir: char, text: &str) {
        self.line(&format!("{} {dir} {text}", format_timestamp(ms)));
    }

    /// Flush what is written; the first error of any write.
    pub fn finish(&self) -> io::Result<()> {
        let mut s = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(e) = s.error.take() {
            return Err(e);
        }
        s.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_are_written_as_they_come_and_stay_one_line_each() {
        let buf = Shared::default();
        let t = Transcript::new(buf.clone());
        t.line("# side: white");
        t.clone().entry(0, '<', "info string a\nb");
        t.finish().unwrap();
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert_eq!(
            text,
            "# side: white\n1970-01-01T00:00:00.000Z < info string a b\n"
        );
    }
}

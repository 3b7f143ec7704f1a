//! Log files read from disk: the operator logs whole (they are small and
//! written by people; one over [`MAX_OPERATOR_LOG`] is refused), the engine
//! logs as they stream by. Every line is read with a cap
//! ([`MAX_LOG_LINE`]): a longer line is an error at its line, skipped to
//! its end without being held. A log that is not a regular file (a FIFO, a
//! device) is refused before it is opened. Each keeps the SHA-256 of its
//! bytes for the report.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

use crate::base::diagnostic::Diagnostic;
use crate::base::digest::{HashingReader, sha256_hex};
use crate::ingest::engine::EngineLog;

/// The longest line a log may have, in bytes, its line ending not
/// counted. A longer line is reported at its line (an `engine-log-syntax`
/// or `operator-log-syntax` finding) and skipped without being held.
pub const MAX_LOG_LINE: usize = 64 * 1024;

/// The largest operator log read, in bytes: it is written by people and
/// read whole (a day of events is a few hundred lines).
pub const MAX_OPERATOR_LOG: u64 = 4 * 1024 * 1024;

/// Why a log file could not be read; `path` is the file as shown.
#[derive(Debug, thiserror::Error)]
pub enum LogFileError {
    #[error("arbiter: {path}: {source}")]
    Io { path: String, source: io::Error },
    /// A FIFO, a device, a socket or a folder given as a log (`what` says
    /// which); it is not opened (opening a FIFO waits for a writer).
    #[error("arbiter: {path}: not a regular file ({what}); a log must be a regular file")]
    NotRegular { path: String, what: &'static str },
    /// An operator log over [`MAX_OPERATOR_LOG`] bytes.
    #[error(
        "arbiter: {path}: the operator log is over {} MiB; an operator log holds the people's events, one a line", MAX_OPERATOR_LOG >> 20
    )]
    TooLarge { path: String },
    /// A log in UTF-16 or UTF-32 (`encoding` names which).
    #[error(
        "arbiter: {path}: line 1: the file is {encoding}; logs are read as UTF-8: convert it, e.g. `iconv -f UTF-16 -t UTF-8`"
    )]
    Wide {
        path: String,
        encoding: &'static str,
    },
    /// An operator log with bytes that are not UTF-8, at `line`:`column`
    /// (1-based), `offset` bytes into the file, the first of them `byte`;
    /// `rendered` is the diagnostic with the line and a caret.
    #[error("{rendered}")]
    NotUtf8 {
        path: String,
        line: usize,
        column: usize,
        offset: usize,
        byte: u8,
        rendered: String,
    },
    /// A fastchess log of several games without its game lines.
    #[error(
        "arbiter: {path}: a fastchess log of {games} games without the lines that tell them apart (`Game N between A and B starting`, written with `-log level=trace`): its engine traffic cannot be given to its games"
    )]
    Undelimited { path: String, games: u64 },
    #[error("arbiter: a thread reading the engine logs failed")]
    Thread,
}

/// An engine log read from a file, or one game of a match-long log.
#[derive(Debug, Clone)]
pub struct LoadedEngineLog {
    pub path: String,
    pub sha256: String,
    pub log: EngineLog,
    /// The game of a match-long log this is (`None`: the log is read
    /// whole and joins by its `# round:`).
    pub part: Option<Part>,
}

/// One game of a match-long log, and what the whole file held.
#[derive(Debug, Clone)]
pub struct Part {
    pub segment: crate::ingest::engine::Segment,
    pub file: std::sync::Arc<FileSplit>,
}

/// A match-long log as a whole: how its lines were attributed and the
/// engine traffic no game claimed.
#[derive(Debug, Clone, PartialEq)]
pub struct FileSplit {
    pub lines: crate::ingest::engine::LineCount,
    pub stray: Option<(crate::base::span::Span, u64)>,
    pub games: usize,
    /// The games come in pairs of swapped colours (`engine::Split::paired`).
    pub paired: bool,
}

/// Read engine log files side by side, on at most `threads` threads (this
/// one among them), each taking the next log not yet taken (a log is read
/// as it streams by, on one core; a committee's logs, one per engine, can
/// be as large as the games' archive). The logs come back in the order
/// given, and where any cannot be read, the error of the first of those in
/// that order, whichever thread finished first.
pub fn read_engine_logs(
    paths: &[PathBuf],
    threads: usize,
) -> Result<Vec<crate::ingest::logs::LoadedEngineLog>, LogFileError> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    // take logs until none is left: (its place, what reading it gave)
    let take = || {
        let mut read = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(p) = paths.get(i) else {
                return read;
            };
            read.push((i, read_engine_log_games(p)));
        }
    };
    let mut read = std::thread::scope(|s| {
        let others: Vec<_> = (1..threads.min(paths.len()))
            .map(|_| s.spawn(take))
            .collect();
        let mut read = take();
        for o in others {
            match o.join() {
                Ok(r) => read.extend(r),
                Err(_) => {
                    return Err(LogFileError::Thread);
                }
            }
        }
        Ok(read)
    })?;
    read.sort_unstable_by_key(|&(i, _)| i);
    let mut logs = Vec::new();
    for (_, r) in read {
        logs.extend(r?);
    }
    Ok(logs)
}

/// Read an engine log file as [`read_engine_log`] does, a match-long log
/// split per game (`engine::Splitter`): one entry per game, in the order
/// the games started; a log read whole is one entry.
pub fn read_engine_log_games(path: &Path) -> Result<Vec<LoadedEngineLog>, LogFileError> {
    use crate::ingest::engine::{Read, Splitter};
    let (shown, sha256, read) = stream_engine_log(path, Splitter::default())?;
    // a fastchess log without game lines: read again, split at each game's
    // `ucinewgame`
    let read = match read {
        Read::Undelimited(..) => stream_engine_log(path, Splitter::by_newgame())?.2,
        r => r,
    };
    let path = shown;
    Ok(match read {
        Read::Undelimited(_, games) => return Err(LogFileError::Undelimited { path, games }),
        Read::Whole(log) => vec![LoadedEngineLog {
            path,
            sha256,
            log,
            part: None,
        }],
        Read::Split(split) => {
            let file = std::sync::Arc::new(FileSplit {
                lines: split.lines,
                stray: split.stray,
                games: split.games.len(),
                paired: split.paired,
            });
            split
                .games
                .into_iter()
                .map(|(segment, log)| LoadedEngineLog {
                    path: path.clone(),
                    sha256: sha256.clone(),
                    log,
                    part: Some(Part {
                        segment,
                        file: file.clone(),
                    }),
                })
                .collect()
        }
    })
}

/// Read an engine log file as it streams by: each line is folded into its
/// engine's activities at once (see `engine::Reader`), so a log of any
/// length is read in the memory its searches take. A byte-order mark is
/// dropped and UTF-16 refused, as for operator logs (`log_text`); bytes
/// that are not UTF-8 are replaced line by line (the same replacement as
/// for the whole text: a line ending is never part of a UTF-8 sequence).
pub fn read_engine_log(path: &Path) -> Result<crate::ingest::logs::LoadedEngineLog, LogFileError> {
    use crate::ingest::engine::{Read, Splitter};
    let (path, sha256, read) = stream_engine_log(path, Splitter::whole())?;
    let log = match read {
        Read::Whole(log) | Read::Undelimited(log, _) => log,
        Read::Split(_) => unreachable!("a whole splitter never splits"),
    };
    Ok(LoadedEngineLog {
        path,
        sha256,
        log,
        part: None,
    })
}

/// The lines of the log at `path` read by `reader` as they stream by: the
/// path as shown, the file's SHA-256 and what was read.
fn stream_engine_log(
    path: &Path,
    mut reader: crate::ingest::engine::Splitter,
) -> Result<(String, String, crate::ingest::engine::Read), LogFileError> {
    let shown = path.display().to_string();
    let failed = |source: io::Error| LogFileError::Io {
        path: shown.clone(),
        source,
    };
    let file = open_regular(path, &shown)?;
    let mut input = BufReader::with_capacity(1 << 16, HashingReader::new(file));
    if let Some(w) = crate::ingest::text::wide_encoding(input.fill_buf().map_err(failed)?) {
        return Err(wide_error(&shown, w));
    }
    let mut buf = Vec::new();
    let mut spans = Spans::default();
    let mut first = true;
    loop {
        let raw_len = match next_line(&mut input, &mut buf, MAX_LOG_LINE).map_err(failed)? {
            Next::End => break,
            Next::Line => None,
            Next::Long { len, raw } => Some((len, raw)),
        };
        if let Some((len, raw)) = raw_len {
            first = false;
            reader.long_line(spans.skip(len, raw), len, MAX_LOG_LINE);
            continue;
        }
        let bytes = if first {
            buf.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(&buf)
        } else {
            &buf[..]
        };
        first = false;
        // `from_utf8_lossy`'s result, its own loop only where the line is
        // not UTF-8 (`str::from_utf8` checks ASCII a word at a time)
        let raw = match std::str::from_utf8(bytes) {
            Ok(text) => std::borrow::Cow::Borrowed(text),
            Err(_) => String::from_utf8_lossy(bytes),
        };
        let (span, text) = spans.next(&raw);
        reader.line(span, text);
    }
    let sha256 = input.into_inner().finish().0;
    Ok((shown, sha256, reader.finish()))
}

/// A line read by [`next_line`].
#[derive(Debug, PartialEq)]
enum Next {
    /// The end of the input.
    End,
    /// A line, in the buffer with its line ending.
    Line,
    /// A line longer than the cap, skipped: `len` bytes without its line
    /// ending, `raw` with it. The buffer is left empty.
    Long { len: u64, raw: u64 },
}

/// Read the next line of `input` into `buf` (its `\n` included), holding
/// at most `cap` bytes of it: a longer line is read on to its `\n` (or the
/// end of the input) without being kept, and its length returned.
fn next_line(input: &mut impl BufRead, buf: &mut Vec<u8>, cap: usize) -> io::Result<Next> {
    buf.clear();
    // the bytes of an over-long line read so far, `\n` not counted
    let mut long: Option<u64> = None;
    loop {
        let avail = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(match long {
                Some(len) => Next::Long { len, raw: len },
                None if buf.is_empty() => Next::End,
                None => Next::Line,
            });
        }
        let newline = avail.iter().position(|&b| b == b'\n');
        let text = newline.unwrap_or(avail.len());
        match &mut long {
            Some(len) => *len += text as u64,
            None if buf.len() + text > cap => {
                long = Some((buf.len() + text) as u64);
                buf.clear();
            }
            None => buf.extend_from_slice(&avail[..newline.map_or(text, |n| n + 1)]),
        }
        let used = newline.map_or(text, |n| n + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(match long {
                Some(len) => Next::Long { len, raw: len + 1 },
                None => Next::Line,
            });
        }
    }
}

/// The spans of a log's lines as they are read (the same as
/// `base::span::LineSpans`), with lines skipped by their length.
#[derive(Default)]
struct Spans {
    offset: u64,
    line: u64,
}

impl Spans {
    /// The next line without its line ending, and its span.
    fn next<'a>(&mut self, raw: &'a str) -> (crate::base::span::Span, &'a str) {
        let text = raw.trim_end_matches(['\n', '\r']);
        let span = self.skip(text.len() as u64, raw.len() as u64);
        (span, text)
    }

    /// The span of a line of `len` bytes, `raw` with its line ending.
    fn skip(&mut self, len: u64, raw: u64) -> crate::base::span::Span {
        self.line += 1;
        let span = crate::base::span::Span {
            offset: self.offset,
            len,
            line: self.line,
            column: 1,
        };
        self.offset += raw;
        span
    }
}

/// Open `path` if it is a regular file (its links followed); anything else
/// is refused from its metadata, before it is opened.
pub(crate) fn open_regular(path: &Path, shown: &str) -> Result<File, LogFileError> {
    use crate::base::files::{OpenError, open_checked};
    open_checked(path).map_err(|e| match e {
        OpenError::Io(source) => LogFileError::Io {
            path: shown.to_string(),
            source,
        },
        OpenError::NotRegular(what) => LogFileError::NotRegular {
            path: shown.to_string(),
            what,
        },
    })
}

/// The error for a log in UTF-16 or UTF-32.
pub(crate) fn wide_error(shown: &str, encoding: &'static str) -> LogFileError {
    LogFileError::Wide {
        path: shown.to_string(),
        encoding,
    }
}

/// An operator log read from a file.
#[derive(Debug, Clone)]
pub struct LoadedLog {
    pub path: String,
    pub sha256: String,
    pub log: crate::ingest::operator::OperatorLog,
    /// The Round it belongs to, from its setup event.
    pub round: Option<String>,
}

impl LoadedLog {
    /// Read the operator log `path`: at most [`MAX_OPERATOR_LOG`] bytes,
    /// each line at most [`MAX_LOG_LINE`].
    pub fn read(path: &Path) -> Result<LoadedLog, LogFileError> {
        use std::io::Read as _;
        let shown = path.display().to_string();
        let failed = |source: io::Error| LogFileError::Io {
            path: shown.clone(),
            source,
        };
        let mut bytes = Vec::new();
        open_regular(path, &shown)?
            .take(MAX_OPERATOR_LOG + 1)
            .read_to_end(&mut bytes)
            .map_err(failed)?;
        if bytes.len() as u64 > MAX_OPERATOR_LOG {
            return Err(LogFileError::TooLarge { path: shown });
        }
        let text = log_text(&shown, &bytes)?;
        let mut log = crate::ingest::operator::parse_capped(&text, MAX_LOG_LINE);
        for e in &mut log.events {
            e.source = shown.clone();
        }
        let round = log
            .events
            .iter()
            .find(|e| e.kind == crate::ingest::operator::OpKind::Setup)
            .and_then(|e| match e.fields.get("round") {
                Some(crate::ingest::operator::FieldValue::Str(s)) => Some(s.clone()),
                Some(crate::ingest::operator::FieldValue::Num(n)) => {
                    Some(crate::base::value::fmt_num(*n))
                }
                _ => None,
            });
        Ok(LoadedLog {
            path: shown,
            sha256: sha256_hex(&bytes),
            log,
            round,
        })
    }
}

/// An operator log's text: UTF-8 without a byte-order mark. UTF-16 is
/// refused with the way to convert it, and other bytes that are not UTF-8
/// with their place (the log is written by people and tools). Engine logs,
/// where an engine may print anything, are read by `read_engine_log`,
/// which replaces such bytes.
pub fn log_text(shown: &str, bytes: &[u8]) -> Result<String, LogFileError> {
    if let Some(w) = crate::ingest::text::wide_encoding(bytes) {
        return Err(wide_error(shown, w));
    }
    let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(t) => Ok(t.to_string()),
        Err(e) => {
            // rendered with the place and the line, the byte shown as U+FFFD
            let at = e.valid_up_to();
            let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
            let column = 1 + at
                - bytes[..at]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |p| p + 1);
            let text = String::from_utf8_lossy(bytes);
            let message = format!("not UTF-8 text (byte {at}, 0x{:02X})", bytes[at]);
            let rendered = Diagnostic {
                message: &message,
                path: shown,
                src: &text,
                offset: at,
                len: '\u{FFFD}'.len_utf8(),
                label: Some("not UTF-8"),
                help: Some("the log must be UTF-8"),
            }
            .render();
            Err(LogFileError::NotUtf8 {
                path: shown.to_string(),
                line,
                column,
                offset: at,
                byte: bytes[at],
                rendered,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine logs come back in the order given, the same on one thread
    /// as on several, and the error is the first failing log's in that
    /// order.
    #[test]
    fn engine_logs_read_alike_on_any_number_of_threads() {
        let mut paths: Vec<PathBuf> = Vec::new();
        let mut dirs = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples")];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.file_name().is_some_and(|n| n == "engine.log") {
                    paths.push(p);
                }
            }
        }
        paths.sort();
        assert!(paths.len() >= 4, "the samples hold engine logs");
        let shown = |logs: Vec<crate::ingest::logs::LoadedEngineLog>| -> Vec<String> {
            logs.iter()
                .map(|l| format!("{} {} {:?}", l.path, l.sha256, l.log))
                .collect()
        };
        let one = shown(read_engine_logs(&paths, 1).unwrap());
        assert_eq!(one.len(), paths.len());
        for (l, p) in one.iter().zip(&paths) {
            assert!(l.starts_with(&p.display().to_string()));
        }
        for threads in [2, 3, 64] {
            assert_eq!(shown(read_engine_logs(&paths, threads).unwrap()), one);
        }
        let mut broken = paths.clone();
        broken.insert(2, PathBuf::from("no-such-first.log"));
        broken.push(PathBuf::from("no-such-second.log"));
        for threads in [1, 2, 64] {
            let e = read_engine_logs(&broken, threads).unwrap_err();
            assert!(e.to_string().contains("no-such-first.log"), "{e}");
        }
    }
}

//! [`Engine`]: a real UCI engine driven over its pipes. It runs in a
//! process group of its own ([`super::process`]); its traffic goes to a
//! [`Transcript`] as it is made. Its output is read in lines of at most
//! [`MAX_LINE`] bytes, at most [`MAX_OUTPUT`] bytes while arbiter waits
//! for one answer, through a bounded channel: an engine that floods its
//! output is stopped, and memory stays flat.

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::error::EngineError;
use super::process::{Group, hold_if_stopping};
use super::transcript::Transcript;

/// The longest line an engine may write (64 KiB; a UCI line is a few
/// hundred bytes). An engine writing a longer one is stopped.
pub const MAX_LINE: usize = 64 * 1024;

/// The most an engine may write while arbiter waits for one answer (64
/// MiB). An engine writing more is stopped.
pub const MAX_OUTPUT: usize = 64 * 1024 * 1024;

/// Lines read ahead of the one being handled, at most.
const AHEAD: usize = 1024;

/// How often a waiting arbiter looks whether the engine has ended.
const POLL: Duration = Duration::from_millis(100);

/// How long the whole handshake (`uci` to the last `readyok`) may take:
/// an engine that loads a large network or tablebases answers within a
/// few seconds; one that hangs is stopped well under 10 s.
pub const HANDSHAKE: Duration = Duration::from_secs(8);

/// How long a search of `movetime` ms may take before the engine is
/// stopped: three times the time plus 3 s (50 ms: 3.15 s), so that an
/// engine that overruns a little is not stopped, and one that hangs is
/// stopped soon after.
pub fn movetime_timeout(ms: u64) -> Duration {
    Duration::from_millis(ms.saturating_mul(3).saturating_add(3_000))
}

pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// How long an engine may think.
#[derive(Debug, Clone, Copy)]
pub enum Limit {
    MoveTime(u64),
    Depth(u32),
    /// Base and increment, ms: real clocks, sent with `go wtime … btime …`.
    Clock(u64, u64),
}

/// What the reader thread hands on.
enum Out {
    Line(i64, String),
    /// A line longer than [`MAX_LINE`]: nothing more is read.
    TooLong,
}

/// Read one line of at most `cap` bytes into `buf` (without its line
/// ending). `None` at the end; `Some(false)` for a line longer than `cap`
/// (what was read of it stays unread).
fn read_line(r: &mut impl BufRead, buf: &mut Vec<u8>, cap: usize) -> Option<bool> {
    buf.clear();
    loop {
        let avail = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if avail.is_empty() {
            return (!buf.is_empty()).then_some(true);
        }
        let (chunk, used, ends) = match memchr::memchr(b'\n', avail) {
            Some(i) => (&avail[..i], i + 1, true),
            None => (avail, avail.len(), false),
        };
        if buf.len() + chunk.len() > cap {
            return Some(false);
        }
        buf.extend_from_slice(chunk);
        r.consume(used);
        if ends {
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Some(true);
        }
    }
}

/// A running engine.
#[derive(Debug)]
pub struct Engine {
    group: Group,
    stdin: ChildStdin,
    lines: Receiver<Out>,
    log: Transcript,
    pub name: String,
    cmd: String,
}

impl Engine {
    /// Start `cmd` (split at blanks), writing its traffic to `log`.
    pub fn start(cmd: &str, log: Transcript) -> Result<Engine, EngineError> {
        let mut parts = cmd.split_whitespace();
        let prog = parts.next().ok_or(EngineError::EmptyCommand)?;
        let mut command = Command::new(prog);
        command
            .args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let (group, stdin, stdout) =
            Group::spawn(&mut command).map_err(|source| EngineError::Start {
                cmd: cmd.to_string(),
                source,
            })?;
        let stdin = stdin.ok_or(EngineError::NoStdin)?;
        let stdout = stdout.ok_or(EngineError::NoStdout)?;
        let (tx, rx) = sync_channel(AHEAD);
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            while let Some(whole) = read_line(&mut r, &mut buf, MAX_LINE) {
                let out = if whole {
                    Out::Line(now_ms(), String::from_utf8_lossy(&buf).into_owned())
                } else {
                    Out::TooLong
                };
                if tx.send(out).is_err() || !whole {
                    break;
                }
            }
        });
        let e = Engine {
            group,
            stdin,
            lines: rx,
            log,
            name: cmd.to_string(),
            cmd: cmd.to_string(),
        };
        e.note(&format!("start {cmd}"));
        Ok(e)
    }

    /// The engine's process group (its leader's pid).
    pub fn pgid(&self) -> i32 {
        self.group.pgid()
    }

    fn note(&self, what: &str) {
        self.log.entry(now_ms(), '!', what);
    }

    /// An error of this engine, reported unless a signal is stopping the
    /// run (then the handler ends the process, and the error is not said).
    fn fail(&self, e: EngineError) -> EngineError {
        hold_if_stopping();
        e
    }

    /// Stop the whole group now and note how it ended.
    fn stop(&mut self) {
        let ended = self.group.end(Duration::ZERO);
        self.note(&ended.note());
    }

    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.log.entry(now_ms(), '>', line);
        match writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush()) {
            Ok(()) => Ok(()),
            Err(source) => {
                let e = EngineError::StoppedReading {
                    cmd: self.cmd.clone(),
                    source,
                };
                Err(self.fail(e))
            }
        }
    }

    /// Read lines until one starts with `prefix`; every line is logged.
    pub fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<String, EngineError> {
        self.wait_seen(prefix, timeout, &mut |_| {})
    }

    /// [`Engine::wait_for`], showing `seen` every line read.
    fn wait_seen(
        &mut self,
        prefix: &str,
        timeout: Duration,
        seen: &mut dyn FnMut(&str),
    ) -> Result<String, EngineError> {
        let mut deadline = Instant::now() + timeout;
        let mut read = 0usize;
        // the engine itself ended, though a helper may hold its output open
        let mut gone = false;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let e = match self.lines.recv_timeout(left.min(POLL)) {
                Ok(Out::Line(t, line)) => {
                    self.log.entry(t, '<', &line);
                    read += line.len() + 1;
                    if let Some(v) = line.strip_prefix("id name ") {
                        self.name = v.trim().to_string();
                    }
                    if line.split_whitespace().next() == Some(prefix) {
                        return Ok(line);
                    }
                    seen(&line);
                    if read <= MAX_OUTPUT {
                        continue;
                    }
                    self.stop();
                    EngineError::Flood {
                        cmd: self.cmd.clone(),
                        prefix: prefix.to_string(),
                        mib: MAX_OUTPUT >> 20,
                    }
                }
                Ok(Out::TooLong) => {
                    self.stop();
                    EngineError::LineTooLong {
                        cmd: self.cmd.clone(),
                        kib: MAX_LINE >> 10,
                    }
                }
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {
                    if !gone && self.group.exited() {
                        // what it wrote before it ended may still come
                        gone = true;
                        deadline = Instant::now() + POLL * 2;
                    }
                    continue;
                }
                Err(RecvTimeoutError::Timeout) if gone => self.ended(prefix, Duration::ZERO),
                Err(RecvTimeoutError::Timeout) => {
                    self.stop();
                    EngineError::Timeout {
                        cmd: self.cmd.clone(),
                        prefix: prefix.to_string(),
                        timeout,
                    }
                }
                // its output closed: it has ended, or is about to
                Err(RecvTimeoutError::Disconnected) => self.ended(prefix, Duration::from_secs(5)),
            };
            return Err(self.fail(e));
        }
    }

    /// The engine ended (or closed its output) while arbiter waited for
    /// `prefix`: give it `grace` to end, stop its group, and say how it
    /// ended.
    fn ended(&mut self, prefix: &str, grace: Duration) -> EngineError {
        let ended = self.group.end(grace);
        self.note(&ended.note());
        EngineError::Exited {
            cmd: self.cmd.clone(),
            status: ended.describe(),
            prefix: prefix.to_string(),
        }
    }

    pub fn init(&mut self, options: &[(String, String)]) -> Result<(), EngineError> {
        // one deadline for the whole handshake
        let until = Instant::now() + HANDSHAKE;
        self.send("uci")?;
        self.handshake("uciok", until)?;
        for (k, v) in options {
            self.send(&format!("setoption name {k} value {v}"))?;
        }
        self.send("isready")?;
        self.handshake("readyok", until)?;
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.handshake("readyok", until)?;
        Ok(())
    }

    /// Wait for `prefix` until `until`, the end of the handshake; a
    /// timeout names the handshake's whole time.
    fn handshake(&mut self, prefix: &str, until: Instant) -> Result<String, EngineError> {
        let left = until.saturating_duration_since(Instant::now());
        self.wait_for(prefix, left).map_err(|e| match e {
            EngineError::Timeout { cmd, prefix, .. } => EngineError::Timeout {
                cmd,
                prefix,
                timeout: HANDSHAKE,
            },
            e => e,
        })
    }

    /// Search a position; returns the bestmove (UCI) and the time it took.
    pub fn search(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
        limit: Limit,
        clocks: (u64, u64),
    ) -> Result<(String, u64), EngineError> {
        self.search_seen(fen, moves, limit, clocks, &mut |_| {})
    }

    /// [`Engine::search`], showing `seen` every line the engine wrote
    /// before its bestmove.
    pub fn search_seen(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
        limit: Limit,
        clocks: (u64, u64),
        seen: &mut dyn FnMut(&str),
    ) -> Result<(String, u64), EngineError> {
        let pos = match fen {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".to_string(),
        };
        let pos = if moves.is_empty() {
            pos
        } else {
            format!("{pos} moves {}", moves.join(" "))
        };
        self.send(&pos)?;
        let (go, timeout) = match limit {
            Limit::MoveTime(ms) => (format!("go movetime {ms}"), movetime_timeout(ms)),
            Limit::Depth(d) => (format!("go depth {d}"), Duration::from_secs(120)),
            Limit::Clock(_, inc) => (
                format!(
                    "go wtime {} btime {} winc {inc} binc {inc}",
                    clocks.0, clocks.1
                ),
                Duration::from_millis(
                    clocks
                        .0
                        .max(clocks.1)
                        .saturating_add(inc)
                        .saturating_add(10_000),
                ),
            ),
        };
        let started = Instant::now();
        self.send(&go)?;
        let line = self.wait_seen("bestmove", timeout, seen)?;
        let mv = line.split_whitespace().nth(1).unwrap_or("").to_string();
        Ok((mv, started.elapsed().as_millis() as u64))
    }

    /// Say `quit`, give the engine 5 s to end, then stop its whole group
    /// (helpers it left running too); the rest of its output is logged.
    pub fn quit(mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        self.log.entry(now_ms(), '>', "quit");
        let ended = self.group.end(Duration::from_secs(5));
        // the group is gone, so its output has closed: log what is left
        let until = Instant::now() + Duration::from_secs(1);
        while let Ok(Out::Line(t, line)) = self
            .lines
            .recv_timeout(until.saturating_duration_since(Instant::now()))
        {
            self.log.entry(t, '<', &line);
        }
        self.note(&ended.note());
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // never leave an engine process behind; the log says how it ended
        if !self.group.has_ended() {
            self.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hanging_engine_is_stopped_well_under_10_s() {
        // `record --movetime 50` with an engine that never answers `go`
        assert_eq!(movetime_timeout(50), Duration::from_millis(3150));
        assert!(movetime_timeout(2000) < Duration::from_secs(10));
        // one that never answers `uci`
        assert!(HANDSHAKE < Duration::from_secs(10));
        // a long search still has room to overrun
        assert_eq!(movetime_timeout(60_000), Duration::from_secs(183));
    }

    #[test]
    fn lines_are_read_up_to_the_cap() {
        let text = b"uciok\r\nabcdefghij\nlast";
        let mut r = BufReader::with_capacity(4, &text[..]);
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut r, &mut buf, 8), Some(true));
        assert_eq!(buf, b"uciok");
        assert_eq!(read_line(&mut r, &mut buf, 8), Some(false));
        let mut r = BufReader::new(&b"a\nlast"[..]);
        assert_eq!(read_line(&mut r, &mut buf, 8), Some(true));
        assert_eq!(read_line(&mut r, &mut buf, 8), Some(true));
        assert_eq!(buf, b"last");
        assert_eq!(read_line(&mut r, &mut buf, 8), None);
    }
}

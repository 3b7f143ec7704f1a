//! Engine processes. Each engine is started as the leader of a process
//! group of its own, so that a wrapper script's child and any helper the
//! engine forks are in that group too, and the whole group is killed
//! (SIGKILL) on a timeout, a crash, a signal and a normal end. The live
//! groups are listed, so that the one signal handler every command
//! installs ([`stop_on_signal`]) can stop them all.

use std::io;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

/// The status of a run stopped by a signal, as the README's table says.
pub const INTERRUPTED: i32 = 130;

/// An engine group on the live list: its id, group id and leader.
type Entry = (u64, Pid, Arc<Mutex<Child>>);

fn live() -> &'static Mutex<Vec<Entry>> {
    static LIVE: OnceLock<Mutex<Vec<Entry>>> = OnceLock::new();
    LIVE.get_or_init(|| Mutex::new(Vec::new()))
}

/// Set once a signal arrived: from then on the handler is the only way
/// out, and an engine's end is never reported as its failure.
static STOPPING: AtomicBool = AtomicBool::new(false);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Whether a signal is stopping the run.
pub fn stopping() -> bool {
    STOPPING.load(Ordering::SeqCst)
}

/// If a signal is stopping the run, wait here for the handler to end the
/// process: what failed then failed because the handler stopped it.
pub fn hold_if_stopping() {
    while stopping() {
        std::thread::park_timeout(Duration::from_secs(1));
    }
}

/// On SIGINT, SIGTERM or SIGHUP: kill every live engine group, reap the
/// engines, remove the temporary files and folders still listed
/// ([`crate::base::cleanup`]), say one line and exit with [`INTERRUPTED`]. Installed once,
/// for every command (`cli::run`). The live list stays locked until the
/// exit, so no engine can start, and no engine's end be reported, after
/// the signal.
pub fn stop_on_signal() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        let _ = ctrlc::set_handler(|| {
            let mut list = lock(live());
            STOPPING.store(true, Ordering::SeqCst);
            let engines = list.len();
            let (killed, left) = kill_groups(&mut list);
            crate::base::cleanup::remove_all();
            let mut line = match engines {
                0 => "arbiter: interrupted; no engine was running".to_string(),
                n => format!(
                    "arbiter: interrupted; {n} engine{} stopped, {killed} process{} killed",
                    plural(n, ""),
                    plural(killed, "es")
                ),
            };
            if left > 0 {
                line.push_str(&format!(", {left} still running"));
            }
            notice!("{line}");
            std::process::exit(INTERRUPTED);
        });
    });
}

fn plural(n: usize, s: &'static str) -> &'static str {
    match (n, s) {
        (1, _) => "",
        (_, "") => "s",
        _ => s,
    }
}

/// Kill every group of `list` and reap its leader; the processes killed,
/// and those still running after a second.
fn kill_groups(list: &mut Vec<Entry>) -> (usize, usize) {
    let before: usize = list
        .iter()
        .map(|(_, pgid, _)| members(*pgid).map_or(1, |m| m.len()))
        .sum();
    for (_, pgid, child) in list.iter() {
        let _ = killpg(*pgid, Signal::SIGKILL);
        let mut ch = lock(child);
        let _ = ch.kill();
        let _ = ch.wait();
    }
    let deadline = Instant::now() + Duration::from_secs(1);
    let still = || -> usize {
        list.iter()
            .map(|(_, pgid, _)| members(*pgid).map_or(0, |m| m.len()))
            .sum()
    };
    let mut left = still();
    while left > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
        left = still();
    }
    list.clear();
    (before.saturating_sub(left), left)
}

/// The processes of group `pgid` that have not ended (zombies left out),
/// read from `/proc`; `None` where there is no `/proc`.
pub fn members(pgid: Pid) -> Option<Vec<i32>> {
    let dir = std::fs::read_dir("/proc").ok()?;
    let mut out = Vec::new();
    for entry in dir.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // after the command's closing parenthesis: state, ppid, pgrp
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let mut f = rest.split_whitespace();
        let state = f.next();
        let pgrp: Option<i32> = f.nth(1).and_then(|s| s.parse().ok());
        if pgrp == Some(pgid.as_raw()) && state != Some("Z") && state != Some("X") {
            out.push(pid);
        }
    }
    Some(out)
}

/// How an engine process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ended {
    /// Its status, when it could be read.
    pub status: Option<ExitStatus>,
    /// arbiter killed it (it had not ended by itself).
    pub killed: bool,
}

impl Ended {
    /// As the transcript's `! exit …` line gives it: the code, or
    /// `killed` (by arbiter), `signal N` or `unknown`.
    pub fn note(&self) -> String {
        match (self.killed, self.status) {
            (true, _) => "exit killed".into(),
            (false, Some(s)) => match (s.code(), s.signal()) {
                (Some(c), _) => format!("exit {c}"),
                (None, Some(sig)) => format!("exit signal {sig}"),
                (None, None) => "exit unknown".into(),
            },
            (false, None) => "exit unknown".into(),
        }
    }

    /// In words: `exit status 3`, `killed by signal 11`.
    pub fn describe(&self) -> String {
        match (self.killed, self.status) {
            (true, _) => "stopped by arbiter".into(),
            (false, Some(s)) => match (s.code(), s.signal()) {
                (Some(c), _) => format!("exit status {c}"),
                (None, Some(sig)) => format!("killed by signal {sig}"),
                (None, None) => "exit status unknown".into(),
            },
            (false, None) => "exit status unknown".into(),
        }
    }
}

/// A started engine: the leader of its own process group, on the live
/// list until [`Group::end`].
#[derive(Debug)]
pub struct Group {
    id: u64,
    pgid: Pid,
    child: Arc<Mutex<Child>>,
    ended: Option<Ended>,
}

/// A spawned engine and its pipes.
pub type Spawned = (Group, Option<ChildStdin>, Option<ChildStdout>);

impl Group {
    /// Start `cmd` as the leader of a new process group and put it on the
    /// live list, under the list's lock: a signal cannot come between.
    pub fn spawn(cmd: &mut Command) -> io::Result<Spawned> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let mut list = lock(live());
        let mut child = cmd.process_group(0).spawn()?;
        let (stdin, stdout) = (child.stdin.take(), child.stdout.take());
        let pgid = Pid::from_raw(i32::try_from(child.id()).unwrap_or(i32::MAX));
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        let child = Arc::new(Mutex::new(child));
        list.push((id, pgid, Arc::clone(&child)));
        let group = Group {
            id,
            pgid,
            child,
            ended: None,
        };
        Ok((group, stdin, stdout))
    }

    /// The group's id (the leader's pid).
    pub fn pgid(&self) -> i32 {
        self.pgid.as_raw()
    }

    /// Whether the leader has ended (it is reaped then, and its status
    /// kept for [`Group::end`]).
    pub fn exited(&self) -> bool {
        matches!(lock(&self.child).try_wait(), Ok(Some(_)))
    }

    /// Whether [`Group::end`] was called.
    pub fn has_ended(&self) -> bool {
        self.ended.is_some()
    }

    /// Wait at most `grace` for the leader to end by itself; then kill the
    /// whole group, reap the leader and take the group off the live list.
    /// How the leader ended. Called again, it says the same.
    pub fn end(&mut self, grace: Duration) -> Ended {
        if let Some(e) = self.ended {
            return e;
        }
        let deadline = Instant::now() + grace;
        let mut status = None;
        loop {
            let mut ch = lock(&self.child);
            match ch.try_wait() {
                Ok(Some(s)) => {
                    status = Some(s);
                    break;
                }
                Ok(None) if Instant::now() < deadline => {
                    drop(ch);
                    std::thread::sleep(Duration::from_millis(10));
                }
                _ => break,
            }
        }
        // The helpers of a leader that ended keep the group (and so its
        // id) alive; a group with no process left is refused (ESRCH).
        let _ = killpg(self.pgid, Signal::SIGKILL);
        let killed = status.is_none();
        if killed {
            let mut ch = lock(&self.child);
            let _ = ch.kill();
            status = ch.wait().ok();
        }
        // after a signal the handler holds the list: wait for it to exit
        lock(live()).retain(|(id, ..)| *id != self.id);
        let e = Ended { status, killed };
        self.ended = Some(e);
        e
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        // never leave an engine's process behind
        self.end(Duration::ZERO);
    }
}

//! The one way this tool runs another program: every process it spawns
//! (git for `diff`, `--since`, provenance and the hooks' checks; the command
//! of `policy run --op spawn`) goes through [`Bounded`], under a time limit
//! and, for what is kept of its output, a size limit.
//!
//! The child leads a process group of its own, so the limit reaches whatever
//! it started too. At the time limit a watchdog thread asks the group to stop
//! (SIGTERM) and, after a grace period, forces it (SIGKILL); the watchdog
//! stays armed until the caller has read the child's output and reaped it,
//! so neither a child that never exits nor a grandchild that holds its pipes
//! open can make the caller wait forever. Dropped early (an error on the
//! way), the child is killed and reaped: never left running.
//!
//! [`capture`] keeps at most a given number of bytes of each stream (git's
//! objects and messages); [`digest`] keeps none, streaming each through
//! SHA-256 (the command of `policy run`, whose record holds sizes and
//! digests), so its memory is bounded whatever it prints.

use std::io::{self, Read, Write};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::Duration;

use sha2::{Digest, Sha256};

/// How long a child may run, and how long it is given to stop when asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub timeout: Duration,
    /// Between SIGTERM and SIGKILL; zero forces at once.
    pub grace: Duration,
}

/// A running child and the watchdog that stops it at its time limit.
pub struct Bounded {
    child: Arc<Mutex<Child>>,
    fired: Arc<AtomicBool>,
    stop: Option<mpsc::Sender<()>>,
    watchdog: Option<JoinHandle<()>>,
}

/// A spawned child's pipes, taken out of it (each `None` unless piped).
pub struct Pipes {
    pub stdin: Option<ChildStdin>,
    pub stdout: Option<ChildStdout>,
    pub stderr: Option<ChildStderr>,
}

/// How hard to stop the child.
#[derive(Clone, Copy)]
enum Stop {
    /// Ask (SIGTERM to the group).
    Ask,
    /// Force (SIGKILL to the group).
    Force,
}

impl Bounded {
    /// Starts `cmd` (its stdio as the caller set it) in a process group of
    /// its own, with the watchdog armed.
    pub fn spawn(cmd: &mut Command, limits: Limits) -> io::Result<(Bounded, Pipes)> {
        let mut child = own_group(cmd).spawn()?;
        let pipes = Pipes {
            stdin: child.stdin.take(),
            stdout: child.stdout.take(),
            stderr: child.stderr.take(),
        };
        let child = Arc::new(Mutex::new(child));
        let fired = Arc::new(AtomicBool::new(false));
        let (stop, stopped) = mpsc::channel::<()>();
        let (watched, flag) = (Arc::clone(&child), Arc::clone(&fired));
        let watchdog = std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(limits.timeout) {
                flag.store(true, Ordering::SeqCst);
                if limits.grace.is_zero() {
                    signal(&watched, Stop::Force);
                    return;
                }
                signal(&watched, Stop::Ask);
                if let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(limits.grace) {
                    signal(&watched, Stop::Force);
                }
            }
        });
        let run = Bounded {
            child,
            fired,
            stop: Some(stop),
            watchdog: Some(watchdog),
        };
        Ok((run, pipes))
    }

    /// Stops the child (and its group) at once: its output went past what
    /// the caller keeps.
    pub fn kill(&self) {
        signal(&self.child, Stop::Force);
    }

    /// Whether the time limit was reached and the child was signalled.
    pub fn timed_out(&self) -> bool {
        self.fired.load(Ordering::SeqCst)
    }

    /// Waits for the child to exit, with the watchdog still armed (it stops
    /// a child that never exits). The watchdog stays armed until
    /// [`Bounded::disarm`] or the drop.
    pub fn wait(&mut self) -> io::Result<ExitStatus> {
        let mut pause = Duration::from_micros(200);
        loop {
            if let Some(status) = lock(&self.child).try_wait()? {
                return Ok(status);
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(10));
        }
    }

    /// Stops the watchdog: once the child is reaped and its output read.
    pub fn disarm(&mut self) {
        self.stop.take();
        if let Some(w) = self.watchdog.take() {
            let _ = w.join();
        }
    }
}

/// Whatever stopped the caller early, the child is not left running nor
/// waited on forever: it is killed (a no-op once it has exited) and reaped.
impl Drop for Bounded {
    fn drop(&mut self) {
        self.disarm();
        let mut child = lock(&self.child);
        let _ = child.kill();
        let _ = child.wait();
    }
}

fn lock(child: &Mutex<Child>) -> std::sync::MutexGuard<'_, Child> {
    child.lock().unwrap_or_else(|e| e.into_inner())
}

/// Unix: the child leads a process group of its own, so a stop reaches
/// whatever it started. Windows: no process groups; see [`signal`].
fn own_group(cmd: &mut Command) -> &mut Command {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(cmd, 0);
    cmd
}

#[cfg(unix)]
fn signal(child: &Mutex<Child>, how: Stop) {
    use rustix::process::{Pid, Signal, kill_process_group};
    let sig = match how {
        Stop::Ask => Signal::TERM,
        Stop::Force => Signal::KILL,
    };
    // The group is the child's own (process_group(0)): its id is the
    // child's. A failure (the group is gone) is ignored, as before.
    if let Some(pgid) = Pid::from_raw(lock(child).id() as i32) {
        let _ = kill_process_group(pgid, sig);
    }
}

/// Windows has no polite stop for a console child: it is terminated at
/// once (`TerminateProcess`), and what it started is not reached (no job
/// object; README "Platforms").
#[cfg(windows)]
fn signal(child: &Mutex<Child>, _how: Stop) {
    let _ = lock(child).kill();
}

/// The name of the signal that ended the child, if one did (`SIGKILL`).
pub fn ending_signal(status: &ExitStatus) -> Option<String> {
    #[cfg(unix)]
    {
        std::os::unix::process::ExitStatusExt::signal(status).map(signal_name)
    }
    #[cfg(windows)]
    {
        let _ = status;
        None
    }
}

#[cfg(unix)]
fn signal_name(sig: i32) -> String {
    let name = match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        _ => return format!("SIG{sig}"),
    };
    name.to_string()
}

/// What [`capture`] kept of a child that ran to its end or was stopped.
#[derive(Debug)]
pub struct Captured {
    pub status: ExitStatus,
    /// At most `stdout_max` bytes.
    pub stdout: Vec<u8>,
    /// At most `stderr_max` bytes (the rest is read and dropped).
    pub stderr: Vec<u8>,
    /// The child printed more than `stdout_max` bytes and was stopped.
    pub overflowed: bool,
    pub timed_out: bool,
    /// Reading its stdout failed (what was read is in `stdout`).
    pub read_error: Option<io::Error>,
}

/// Runs `cmd` (stdin as the caller set it) to its end within `limits`,
/// keeping at most `stdout_max` bytes of its stdout (past that it is
/// stopped at once) and `stderr_max` of its stderr. `Err` only when it
/// cannot be started.
pub fn capture(
    cmd: &mut Command,
    limits: Limits,
    stdout_max: u64,
    stderr_max: u64,
) -> io::Result<Captured> {
    cmd.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let (mut run, pipes) = Bounded::spawn(cmd, limits)?;
    let mut stderr = pipes.stderr.ok_or_else(unpiped)?;
    let messages = std::thread::spawn(move || {
        let mut kept = Vec::new();
        let _ = (&mut stderr).take(stderr_max).read_to_end(&mut kept);
        let _ = io::copy(&mut stderr, &mut io::sink());
        kept
    });
    let mut stdout = Vec::new();
    let read = pipes
        .stdout
        .ok_or_else(unpiped)?
        .take(stdout_max.saturating_add(1))
        .read_to_end(&mut stdout);
    let overflowed = stdout.len() as u64 > stdout_max;
    if overflowed {
        run.kill();
        stdout.truncate(stdout_max as usize);
    }
    // A child that cannot be waited on is killed and reaped by the drop.
    let status = run.wait()?;
    let stderr = messages.join().unwrap_or_default();
    run.disarm();
    Ok(Captured {
        status,
        stdout,
        stderr,
        overflowed,
        timed_out: run.timed_out(),
        read_error: read.err(),
    })
}

/// A child's output stream that was not piped: nothing can be read.
fn unpiped() -> io::Error {
    io::Error::other("the child's output is not piped")
}

/// What [`digest`] saw of a child.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Digested {
    /// `None` when a signal ended the child.
    pub exit_code: Option<i32>,
    /// The signal's name (`SIGKILL`), when one ended the child.
    pub signal: Option<String>,
    /// Whether the time limit was reached and the child was signalled.
    pub timed_out: bool,
    pub stdout_bytes: u64,
    pub stdout_sha256: String,
    pub stderr_bytes: u64,
    pub stderr_sha256: String,
}

/// Where a child's output is passed on to as it arrives (the caller's
/// stderr, say), besides being digested; `None` digests only.
pub type Echo = Option<fn() -> Box<dyn Write + Send>>;

/// Runs `cmd` (stdin as the caller set it) within `limits` and waits for it
/// and for its output streams to close (a grandchild may hold them; the
/// time limit stops it too). Its stdout and stderr are counted and digested,
/// never kept, and with `echo` passed on as they arrive.
pub fn digest(cmd: &mut Command, limits: Limits, echo: Echo) -> io::Result<Digested> {
    cmd.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let (mut run, pipes) = Bounded::spawn(cmd, limits)?;
    let out = digest_stream(pipes.stdout.ok_or_else(unpiped)?, echo);
    let err = digest_stream(pipes.stderr.ok_or_else(unpiped)?, echo);
    let status = run.wait()?;
    let (stdout_bytes, stdout_sha256) = out.join().unwrap_or_default();
    let (stderr_bytes, stderr_sha256) = err.join().unwrap_or_default();
    run.disarm();
    Ok(Digested {
        exit_code: status.code(),
        signal: ending_signal(&status),
        timed_out: run.timed_out(),
        stdout_bytes,
        stdout_sha256,
        stderr_bytes,
        stderr_sha256,
    })
}

fn digest_stream(mut r: impl Read + Send + 'static, echo: Echo) -> JoinHandle<(u64, String)> {
    std::thread::spawn(move || {
        let mut hasher = Sha256::new();
        let mut total = 0u64;
        let mut buf = [0u8; 16 * 1024];
        let mut sink = echo.map(|make| make());
        loop {
            match r.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    hasher.update(&buf[..n]);
                    total += n as u64;
                    // A sink that fails stops being written to; the
                    // digest goes on, so the record stays true.
                    if let Some(w) = &mut sink
                        && w.write_all(&buf[..n]).and_then(|_| w.flush()).is_err()
                    {
                        sink = None;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let hex: String = hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        (total, hex)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use std::process::Stdio;
    use std::time::Instant;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.args(["-c", script])
            .current_dir(Path::new("/"))
            .stdin(Stdio::null());
        c
    }

    fn limits(timeout_ms: u64, grace_ms: u64) -> Limits {
        Limits {
            timeout: Duration::from_millis(timeout_ms),
            grace: Duration::from_millis(grace_ms),
        }
    }

    #[test]
    fn capture_keeps_the_output_up_to_its_limit() {
        let c = capture(
            &mut sh("printf abc; printf err >&2"),
            limits(10_000, 0),
            10,
            2,
        )
        .unwrap();
        assert!(c.status.success());
        assert_eq!(
            (c.stdout.as_slice(), c.stderr.as_slice()),
            (&b"abc"[..], &b"er"[..])
        );
        assert!(!c.overflowed && !c.timed_out);
        // Past the limit: stopped at once, not read to its end.
        let start = Instant::now();
        let c = capture(&mut sh("yes"), limits(60_000, 0), 1000, 100).unwrap();
        assert!(c.overflowed);
        assert_eq!(c.stdout.len(), 1000);
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn capture_stops_a_child_and_its_grandchildren_at_the_time_limit() {
        // The grandchild holds stdout open after its parent is gone.
        let start = Instant::now();
        let c = capture(&mut sh("sleep 30 & exit 0"), limits(300, 0), 100, 100).unwrap();
        assert!(c.timed_out);
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn digest_counts_real_bytes_and_hashes_output() {
        let d = digest(
            &mut sh("printf 'é'; printf 'ab' >&2; exit 7"),
            limits(15_000, 2000),
            None,
        )
        .unwrap();
        assert_eq!(d.exit_code, Some(7));
        assert_eq!(d.signal, None);
        assert!(!d.timed_out);
        assert_eq!(d.stdout_bytes, 2);
        let hex = |b: &[u8]| -> String {
            Sha256::digest(b)
                .iter()
                .map(|x| format!("{x:02x}"))
                .collect()
        };
        assert_eq!(d.stdout_sha256, hex("é".as_bytes()));
        assert_eq!((d.stderr_bytes, d.stderr_sha256), (2, hex(b"ab")));
    }

    #[test]
    fn a_child_that_ignores_sigterm_is_killed() {
        let start = Instant::now();
        let d = digest(&mut sh("trap '' TERM; sleep 30"), limits(200, 200), None).unwrap();
        assert!(start.elapsed() < Duration::from_secs(10));
        assert!(d.timed_out);
        assert_eq!(d.exit_code, None);
        assert_eq!(d.signal.as_deref(), Some("SIGKILL"));
    }

    #[test]
    fn a_polite_child_ends_on_sigterm() {
        let start = Instant::now();
        let d = digest(&mut sh("exec sleep 30"), limits(100, 20_000), None).unwrap();
        assert!(start.elapsed() < Duration::from_secs(10));
        assert!(d.timed_out);
        assert_eq!(d.signal.as_deref(), Some("SIGTERM"));
    }

    #[test]
    fn a_missing_program_is_an_error() {
        let mut c = Command::new("/nonexistent/prog");
        assert!(digest(&mut c, limits(1000, 0), None).is_err());
        assert!(capture(&mut c, limits(1000, 0), 1, 1).is_err());
    }
}

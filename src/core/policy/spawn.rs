//! Running a child under a hard time limit, for `policy run --op spawn`.
//!
//! The reference (policy-reference.md §7) relies on `spawnSync`'s timeout,
//! which sends SIGTERM once and then waits forever, buffers at most 1 MiB and
//! counts UTF-16 units. Here the child gets its own process group, so that
//! the limit reaches whatever it started too; at the limit the group gets
//! SIGTERM, and SIGKILL after a grace period. Output is streamed through
//! SHA-256 and counted in bytes, without a size cap and without keeping it.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

/// What the child did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpawnOutcome {
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

/// Limits of one run.
#[derive(Debug, Clone, Copy)]
pub struct SpawnLimits {
    pub timeout: Duration,
    /// Between SIGTERM and SIGKILL.
    pub grace: Duration,
}

impl Default for SpawnLimits {
    fn default() -> Self {
        SpawnLimits {
            timeout: Duration::from_secs(15),
            grace: Duration::from_secs(2),
        }
    }
}

/// Where a spawned command's output is passed on to as it arrives (the
/// caller's stderr, say), besides being digested; `None` digests only.
pub type Echo = Option<fn() -> Box<dyn Write + Send>>;

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
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        (
            total,
            crate::core::config::block::lower_hex(&hasher.finalize()),
        )
    })
}

/// How hard to stop the child at the limit.
#[derive(Clone, Copy)]
enum Stop {
    /// Ask (SIGTERM to the group).
    Ask,
    /// Force (SIGKILL to the group).
    Force,
}

/// Unix: the child leads a process group of its own, so the limit reaches
/// whatever it started. Windows: no process groups; see [`stop`].
fn own_group(cmd: &mut Command) -> &mut Command {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(cmd, 0);
    cmd
}

#[cfg(unix)]
fn stop(child: &mut Child, how: Stop) {
    let sig = match how {
        Stop::Ask => libc::SIGTERM,
        Stop::Force => libc::SIGKILL,
    };
    signal_group(child.id(), sig);
}

/// Windows has no polite stop for a console child: at the limit it is
/// terminated at once (`TerminateProcess`), and what it started is not
/// reached (no job object; README "Platforms").
#[cfg(windows)]
fn stop(child: &mut Child, _how: Stop) {
    let _ = child.kill();
}

/// The name of the signal that ended the child, if one did.
fn ending_signal(status: &ExitStatus) -> Option<String> {
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
fn signal_group(pgid: u32, sig: libc::c_int) {
    // SAFETY: kill(2) with a negative pid signals a process group; it has no
    // memory-safety preconditions. The group is the child's own (setpgid 0).
    unsafe {
        libc::kill(-(pgid as libc::pid_t), sig);
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

/// Runs `program args...` in `cwd` with the inherited environment and no
/// stdin, and waits for it (and for its output streams to close) within the
/// limits. Its stdout and stderr are digested and, with `echo`, passed on
/// as they arrive.
pub fn run_bounded(
    program: &str,
    args: &[String],
    cwd: &Path,
    limits: SpawnLimits,
    echo: Echo,
) -> std::io::Result<SpawnOutcome> {
    let mut child = own_group(
        Command::new(program)
            .args(args)
            .current_dir(cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )
    .spawn()?;
    let out = digest_stream(child.stdout.take().expect("piped stdout"), echo);
    let err = digest_stream(child.stderr.take().expect("piped stderr"), echo);

    let deadline = Instant::now() + limits.timeout;
    let mut status = None;
    let mut terminated_at: Option<Instant> = None;
    let mut killed = false;
    loop {
        if status.is_none() {
            status = child.try_wait()?;
        }
        // Done once the child is reaped and nothing holds its pipes open
        // (a background grandchild would).
        if status.is_some() && out.is_finished() && err.is_finished() {
            break;
        }
        let now = Instant::now();
        match terminated_at {
            None if now >= deadline => {
                stop(&mut child, Stop::Ask);
                terminated_at = Some(now);
            }
            Some(t) if !killed && now >= t + limits.grace => {
                stop(&mut child, Stop::Force);
                killed = true;
            }
            _ => {}
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let status = status.expect("reaped");
    let (stdout_bytes, stdout_sha256) = out.join().unwrap_or_default();
    let (stderr_bytes, stderr_sha256) = err.join().unwrap_or_default();
    Ok(SpawnOutcome {
        exit_code: status.code(),
        signal: ending_signal(&status),
        timed_out: terminated_at.is_some(),
        stdout_bytes,
        stdout_sha256,
        stderr_bytes,
        stderr_sha256,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, limits: SpawnLimits) -> SpawnOutcome {
        run_bounded(
            "sh",
            &["-c".into(), script.into()],
            Path::new("/"),
            limits,
            None,
        )
        .unwrap()
    }

    #[test]
    fn counts_real_bytes_and_hashes_output() {
        let o = sh(
            "printf 'é'; printf 'ab' >&2; exit 7",
            SpawnLimits::default(),
        );
        assert_eq!(o.exit_code, Some(7));
        assert_eq!(o.signal, None);
        assert!(!o.timed_out);
        assert_eq!(o.stdout_bytes, 2);
        assert_eq!(
            o.stdout_sha256,
            crate::core::policy::sha256_hex("é".as_bytes())
        );
        assert_eq!(o.stderr_bytes, 2);
        assert_eq!(o.stderr_sha256, crate::core::policy::sha256_hex(b"ab"));
    }

    #[test]
    fn a_child_that_ignores_sigterm_is_killed() {
        let limits = SpawnLimits {
            timeout: Duration::from_millis(200),
            grace: Duration::from_millis(200),
        };
        let start = Instant::now();
        let o = sh("trap '' TERM; sleep 30", limits);
        assert!(start.elapsed() < Duration::from_secs(10));
        assert!(o.timed_out);
        assert_eq!(o.exit_code, None);
        assert_eq!(o.signal.as_deref(), Some("SIGKILL"));
    }

    #[test]
    fn a_polite_child_ends_on_sigterm() {
        let limits = SpawnLimits {
            timeout: Duration::from_millis(100),
            grace: Duration::from_secs(20),
        };
        let start = Instant::now();
        let o = sh("exec sleep 30", limits);
        assert!(start.elapsed() < Duration::from_secs(10));
        assert!(o.timed_out);
        assert_eq!(o.signal.as_deref(), Some("SIGTERM"));
    }

    #[test]
    fn a_missing_program_is_an_error() {
        assert!(
            run_bounded(
                "/nonexistent/prog",
                &[],
                Path::new("/"),
                SpawnLimits::default(),
                None
            )
            .is_err()
        );
    }
}

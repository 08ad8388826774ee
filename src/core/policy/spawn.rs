//! Running `policy run --op spawn`'s command under a hard time limit,
//! through the tool's one bounded spawner ([`crate::core::process`]).
//!
//! The seed engine relies on Node's `spawnSync` timeout,
//! which sends SIGTERM once and then waits forever, buffers at most 1 MiB and
//! counts UTF-16 units. Here the child gets its own process group, so that
//! the limit reaches whatever it started too; at the limit the group gets
//! SIGTERM, and SIGKILL after a grace period. Output is streamed through
//! SHA-256 and counted in bytes, never kept (so its memory is bounded
//! whatever it prints), and passed on as it arrives.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::core::process::{self, Limits};

pub use crate::core::process::{Digested as SpawnOutcome, Echo};

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
    let mut cmd = Command::new(program);
    cmd.args(args).current_dir(cwd).stdin(Stdio::null());
    let limits = Limits {
        timeout: limits.timeout,
        grace: limits.grace,
    };
    process::digest(&mut cmd, limits, echo)
}

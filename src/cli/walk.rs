//! What a walk could not read or did not follow, as every command that
//! walks a tree shows it: `scan`, `check`, `trust` (README "Links,
//! unreadable paths and hostile files").

use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::cli::terminal::Values;
use crate::core::env::Env;
use crate::core::paths::display::{describe_targets, display_path};
use crate::core::review::discover::Discovery;

pub use crate::cli::json_out::{JsonNotFollowed, JsonUnreadable};

/// The `not followed:` lines, one per link, as data: a link's name and
/// destination come from the tree under review, so a printer escapes each
/// line whole as stdout's rule says (a name cannot start a line of its own).
pub fn not_followed_lines(found: &Discovery, paths: &[String], env: &Env) -> Vec<String> {
    let outside = describe_targets(paths, env);
    found
        .not_followed
        .iter()
        .map(|n| n.describe(&env.cwd, &outside))
        .collect()
}

/// The `not followed:` lines, one per link, on stdout, each escaped whole.
pub fn print_not_followed(
    found: &Discovery,
    paths: &[String],
    env: &Env,
    io: &mut Io<'_>,
) -> Result<(), CliError> {
    write_not_followed(&not_followed_lines(found, paths, env), io)
}

/// Writes [`not_followed_lines`] on stdout, each escaped whole.
pub fn write_not_followed(lines: &[String], io: &mut Io<'_>) -> Result<(), CliError> {
    let values = Values;
    for line in lines {
        writeln!(io.out, "{}", values.text(line))?;
    }
    Ok(())
}

/// The warnings of the paths a walk could not read, as data: one per
/// unreadable path, then their count; none when every path was read.
pub fn unreadable_warnings(found: &Discovery, paths: &[String], env: &Env) -> Vec<String> {
    let mut out: Vec<String> = found
        .unreadable
        .iter()
        .map(|u| {
            format!(
                "cannot read {}: {}",
                display_path(&u.path, &env.cwd),
                u.reason
            )
        })
        .collect();
    let n = found.unreadable.len();
    if n > 0 {
        let what = if n == 1 { "path" } else { "paths" };
        out.push(format!(
            "{n} {what} under {} could not be read; a config there was not reviewed",
            describe_targets(paths, env)
        ));
    }
    out
}

/// A `Warning: ` line on stderr per unreadable path, then their count.
/// Returns whether there was any (the command then exits 1).
pub fn warn_unreadable(found: &Discovery, paths: &[String], env: &Env, io: &mut Io<'_>) -> bool {
    write_warnings(&unreadable_warnings(found, paths, env), io);
    !found.unreadable.is_empty()
}

/// One `Warning: ` line on stderr per message.
pub fn write_warnings(warnings: &[String], io: &mut Io<'_>) {
    for w in warnings {
        io.warn(w);
    }
}

/// A command that stopped before its result: the warnings it had to say
/// first (the store's, what a walk could not read), and its error.
pub struct Failed {
    pub warnings: Vec<String>,
    pub error: CliError,
}

impl Failed {
    /// An error with nothing said before it.
    pub fn bare(error: CliError) -> Failed {
        Failed {
            warnings: Vec::new(),
            error,
        }
    }

    /// Says the warnings on stderr and gives the error back, for `main` to
    /// print.
    pub fn print(self, io: &mut Io<'_>) -> CliError {
        write_warnings(&self.warnings, io);
        self.error
    }
}

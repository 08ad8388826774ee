//! What a walk could not read or did not follow, as every command that
//! walks a tree shows it: `scan`, `check`, `trust` (README "Links,
//! unreadable paths and hostile files").

use crate::cli::terminal::Values;
use crate::cli::{CliError, Io};
use crate::core::env::Env;
use crate::core::paths::display::{describe_targets, display_path};
use crate::core::review::discover::Discovery;

pub use crate::cli::json_out::{JsonNotFollowed, JsonUnreadable};

/// The `not followed:` lines, one per link, on stdout. A link's name and
/// destination come from the tree under review: each line is escaped whole
/// as stdout's rule says, so a name cannot start a line of its own.
pub fn print_not_followed(
    found: &Discovery,
    paths: &[String],
    env: &Env,
    io: &mut Io<'_>,
) -> Result<(), CliError> {
    let values = Values;
    let outside = describe_targets(paths, env);
    for n in &found.not_followed {
        let line = n.describe(&env.cwd, &outside);
        writeln!(io.out, "{}", values.text(&line))?;
    }
    Ok(())
}

/// A `Warning: ` line on stderr per unreadable path, then their count.
/// Returns whether there was any (the command then exits 1).
pub fn warn_unreadable(found: &Discovery, paths: &[String], env: &Env, io: &mut Io<'_>) -> bool {
    for w in unreadable_warnings(found, paths, env) {
        io.warn(w);
    }
    !found.unreadable.is_empty()
}

/// The texts of [`warn_unreadable`]'s lines (without `Warning: `), for a
/// command that decides before it prints.
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

//! `ignore`'s and `unignore`'s results as text: one line per config.

use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::cli::terminal::Values;
use crate::cli::walk::write_warnings;
use crate::core::env::Env;
use crate::core::paths::display::display_path;
use crate::core::review::report::ConfigState;
use crate::core::review::results::{IgnoreResult, UnignoreResult};

/// The warnings said on the way, then what became of each config.
pub fn print_ignore(result: &IgnoreResult, io: &mut Io<'_>) -> Result<(), CliError> {
    write_warnings(&result.warnings, io);
    let values = Values;
    for (path, state, added) in &result.configs {
        let path = values.text(path);
        let line = match state {
            ConfigState::NeverTrusted | ConfigState::Changed if *added => {
                format!("Ignored {path}")
            }
            ConfigState::NeverTrusted | ConfigState::Changed | ConfigState::Ignored => {
                format!("Already ignored {path}")
            }
            ConfigState::Trusted => format!("Not ignored (trusted; untrust it first) {path}"),
            ConfigState::NoRequest => format!("Not ignored (asks for nothing) {path}"),
            ConfigState::Error => format!("Not ignored (does not load) {path}"),
        };
        writeln!(io.out, "{line}")?;
    }
    Ok(())
}

/// For each path, the configs taken off the list, or that there was none.
pub fn print_unignore(result: &UnignoreResult, env: &Env, io: &mut Io<'_>) -> Result<(), CliError> {
    let values = Values;
    for (target, keys) in &result.paths {
        if keys.is_empty() {
            writeln!(
                io.out,
                "No ignored config at or under {}",
                values.text(target)
            )?;
        }
        for k in keys {
            writeln!(
                io.out,
                "Unignored {}",
                values.text(&display_path(k, &env.cwd))
            )?;
        }
    }
    Ok(())
}

//! `untrust`'s result as text: what went, per PATH or per missing config.

use crate::cli::io::Io;
use crate::cli::terminal::Values;
use crate::core::env::Env;
use crate::core::paths::display::{describe_target, display_path};
use crate::core::review::trust::outcome::{Removed, Untrusted};

pub fn print(untrusted: &Untrusted, env: &Env, io: &mut Io<'_>) -> std::io::Result<()> {
    let values = Values;
    match &untrusted.removed {
        Removed::Missing(gone) => {
            if gone.is_empty() {
                writeln!(
                    io.out,
                    "No missing configs in {}",
                    values.text(&untrusted.store)
                )?;
            }
            for key in gone {
                writeln!(
                    io.out,
                    "Removed trust for missing {}",
                    values.text(&display_path(key, &env.cwd))
                )?;
            }
        }
        Removed::Paths(paths) => {
            for p in paths {
                let target = describe_target(&p.path, env);
                let target = values.text(&target);
                match p.removed.len() {
                    0 => writeln!(io.out, "No trusted config at or under {target}"),
                    1 => writeln!(io.out, "Removed trust for 1 config file under {target}"),
                    n => writeln!(io.out, "Removed trust for {n} config files under {target}"),
                }?;
            }
        }
    }
    Ok(())
}

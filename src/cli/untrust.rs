//! `untrust PATH...` (also `--untrust PATH`) and `untrust --missing`
//! (goccia-reference.md §12.3, §15.4).

use crate::cli::args::{GlobalArgs, UntrustArgs, check_paths};
use crate::cli::{CliError, CliResult, Io, load_store_for_write, store_failure};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::display::{describe_target, display_path};
use crate::core::review::trust::{untrust_missing, untrust_root, untrust_roots};

pub fn run(g: &GlobalArgs, args: &UntrustArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
    if !args.missing
        && let Err(e) = check_paths("--untrust", &args.paths)
    {
        return Err(CliError::usage(e.0));
    }
    let (loc, store) = load_store_for_write(g, &[], env, io)?;
    if args.missing {
        return match untrust_missing(&loc, store) {
            Ok(gone) if gone.is_empty() => {
                writeln!(io.out, "No missing configs in {}", loc.path)?;
                Ok(exit::SUCCESS)
            }
            Ok(gone) => {
                let values = io.escaping.out();
                for key in &gone {
                    writeln!(
                        io.out,
                        "Removed trust for missing {}",
                        values.text(&display_path(key, &env.cwd))
                    )?;
                }
                Ok(exit::SUCCESS)
            }
            Err(e) => Err(store_failure(&e)),
        };
    }
    let roots: Vec<String> = args.paths.iter().map(|p| untrust_root(p, env)).collect();
    let counts = match untrust_roots(&loc, store, &roots) {
        Ok(c) => c,
        Err(e) => return Err(store_failure(&e)),
    };
    for (path, n) in args.paths.iter().zip(counts) {
        let target = describe_target(path, env);
        match n {
            0 => writeln!(io.out, "No trusted config at or under {target}"),
            1 => writeln!(io.out, "Removed trust for 1 config file under {target}"),
            n => writeln!(io.out, "Removed trust for {n} config files under {target}"),
        }?;
    }
    Ok(exit::SUCCESS)
}

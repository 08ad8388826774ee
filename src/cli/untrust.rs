//! `untrust PATH...` (also `--untrust PATH`) and `untrust --missing`
//! (goccia-reference.md §12.3, §15.4).

use crate::cli::args::{GlobalArgs, UntrustArgs, check_paths};
use crate::cli::{Io, load_store_for_write, store_failure};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::display::{describe_target, display_path};
use crate::core::review::trust::{untrust_missing, untrust_root, untrust_roots};

pub fn run(g: &GlobalArgs, args: &UntrustArgs, env: &Env, io: &mut Io<'_>) -> u8 {
    if !args.missing
        && let Err(e) = check_paths("--untrust", &args.paths)
    {
        io.error(e.0);
        return exit::USAGE;
    }
    let (loc, store) = match load_store_for_write(g, &[], env, io) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if args.missing {
        return match untrust_missing(&loc, store) {
            Ok(gone) if gone.is_empty() => {
                let _ = writeln!(io.out, "No missing configs in {}", loc.path);
                exit::SUCCESS
            }
            Ok(gone) => {
                let values = io.escaping.out();
                for key in &gone {
                    let _ = writeln!(
                        io.out,
                        "Removed trust for missing {}",
                        values.text(&display_path(key, &env.cwd))
                    );
                }
                exit::SUCCESS
            }
            Err(e) => store_failure(&e, io),
        };
    }
    let roots: Vec<String> = args.paths.iter().map(|p| untrust_root(p, env)).collect();
    let counts = match untrust_roots(&loc, store, &roots) {
        Ok(c) => c,
        Err(e) => return store_failure(&e, io),
    };
    for (path, n) in args.paths.iter().zip(counts) {
        let target = describe_target(path, env);
        let _ = match n {
            0 => writeln!(io.out, "No trusted config at or under {target}"),
            1 => writeln!(io.out, "Removed trust for 1 config file under {target}"),
            n => writeln!(io.out, "Removed trust for {n} config files under {target}"),
        };
    }
    exit::SUCCESS
}

//! `untrust PATH...` (also `--untrust PATH`) and `untrust --missing`
//! (goccia-reference.md §12.3, §15.4), with `--json` (README "JSON
//! contract").

use crate::cli::args::{GlobalArgs, UntrustArgs, check_paths};
use crate::cli::json_out::{JsonRemoved, JsonUntrust, JsonUntrustPath, Schema, to_json};
use crate::cli::terminal::Values;
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
    let removed_of = |keys: &[String]| -> Vec<JsonRemoved> {
        keys.iter()
            .map(|k| JsonRemoved {
                key: k.clone(),
                path: display_path(k, &env.cwd),
            })
            .collect()
    };
    if args.missing {
        let gone = untrust_missing(&loc, store).map_err(|e| store_failure(&e))?;
        if args.json {
            io.out.write_all(
                to_json(&JsonUntrust {
                    schema: Schema::default(),
                    store: loc.path.clone(),
                    missing: true,
                    removed: removed_of(&gone),
                    paths: Vec::new(),
                })
                .as_bytes(),
            )?;
            return Ok(exit::SUCCESS);
        }
        if gone.is_empty() {
            writeln!(io.out, "No missing configs in {}", Values.text(&loc.path))?;
        }
        let values = Values;
        for key in &gone {
            writeln!(
                io.out,
                "Removed trust for missing {}",
                values.text(&display_path(key, &env.cwd))
            )?;
        }
        return Ok(exit::SUCCESS);
    }
    let roots: Vec<String> = args.paths.iter().map(|p| untrust_root(p, env)).collect();
    let removed = match untrust_roots(&loc, store, &roots) {
        Ok(c) => c,
        Err(e) => return Err(store_failure(&e)),
    };
    if args.json {
        io.out.write_all(
            to_json(&JsonUntrust {
                schema: Schema::default(),
                store: loc.path.clone(),
                missing: false,
                removed: removed_of(&removed.concat()),
                paths: args
                    .paths
                    .iter()
                    .zip(&roots)
                    .zip(&removed)
                    .map(|((path, root), keys)| JsonUntrustPath {
                        path: path.clone(),
                        root: root.clone(),
                        removed: keys.len(),
                    })
                    .collect(),
            })
            .as_bytes(),
        )?;
        return Ok(exit::SUCCESS);
    }
    for (path, keys) in args.paths.iter().zip(&removed) {
        let target = describe_target(path, env);
        let target = Values.text(&target);
        match keys.len() {
            0 => writeln!(io.out, "No trusted config at or under {target}"),
            1 => writeln!(io.out, "Removed trust for 1 config file under {target}"),
            n => writeln!(io.out, "Removed trust for {n} config files under {target}"),
        }?;
    }
    Ok(exit::SUCCESS)
}

//! `ignore PATH...` and `unignore PATH...` (issue 31): refuse configs and
//! stop being asked about them until they change. Recorded in the per-user
//! state directory (`core::review::ignore`), never in the trust store:
//! GocciaScript still refuses to run an ignored config.

use crate::cli::args::{GlobalArgs, IgnoreArgs, UnignoreArgs, check_paths};
use crate::cli::report::store_or_empty_warned;
use crate::cli::report::unreadable_exit;
use crate::cli::terminal::Values;
use crate::cli::walk::warn_unreadable;
use crate::cli::{CliError, CliResult, Io};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::display::{describe_target, display_path};
use crate::core::paths::expand_file_name;
use crate::core::paths::key::is_under;
use crate::core::review::discover::discover_paths;
use crate::core::review::ignore::{ignore_dir, update_ignores};
use crate::core::review::report::ConfigState;
use crate::core::review::scan::report_for;
use crate::core::review::trust::untrust_root;
use crate::core::store::utc_timestamp_now;

/// Why the CLI cannot keep an ignore list without a state directory.
const NO_STATE_DIR: &str = "no state directory to keep the ignore list in (set GOCCIA_TRUST_STATE_DIR, XDG_STATE_HOME or HOME)";

pub fn run_ignore(g: &GlobalArgs, args: &IgnoreArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
    if let Err(e) = check_paths("ignore", &args.paths) {
        return Err(CliError::usage(e.0));
    }
    for path in &args.paths {
        let expanded = expand_file_name(path, &env.cwd, &env.home);
        if std::fs::metadata(&expanded).is_err() {
            return Err(CliError::failed(format!("ignore path not found: {path}")));
        }
    }
    let dir = ignore_dir(env).ok_or_else(|| CliError::failed(NO_STATE_DIR))?;
    let (store, _, store_error, _) = store_or_empty_warned(g, &args.paths, env, io);
    if let Some(problem) = store_error {
        return Err(CliError::failed(problem));
    }
    // Every path is walked and every config loaded before anything is
    // written: a path with no config fails the command, which then
    // changes nothing.
    let mut reports = Vec::new();
    let mut unreadable = false;
    for path in &args.paths {
        let found = discover_paths(std::slice::from_ref(path), env, &|_| {}, &|| false)
            .map_err(|e| CliError::new(exit::FAILURE, e))?;
        unreadable |= warn_unreadable(&found, std::slice::from_ref(path), env, io);
        if found.keys.is_empty() {
            return Err(CliError::failed(format!(
                "ignore: no config at or under {path}"
            )));
        }
        reports.extend(found.keys.iter().map(|k| report_for(k, env, &store)));
    }
    reports.sort_by(|a, b| a.key.cmp(&b.key));
    reports.dedup_by(|a, b| a.key == b.key);
    let now = utc_timestamp_now();
    let added = update_ignores(&dir, |list| {
        let added: Vec<bool> = reports
            .iter()
            .map(|r| match (r.state.needs_review(), r.sha256()) {
                (true, Some(sha)) => list.ignore(&r.key, sha, &now),
                _ => false,
            })
            .collect();
        let changed = added.iter().any(|a| *a);
        (added, changed)
    })
    .map_err(CliError::failed)?;
    let values = Values;
    for (r, added) in reports.iter().zip(added) {
        let path = values.text(&r.display_path);
        let line = match r.state {
            ConfigState::NeverTrusted | ConfigState::Changed if added => format!("Ignored {path}"),
            ConfigState::NeverTrusted | ConfigState::Changed | ConfigState::Ignored => {
                format!("Already ignored {path}")
            }
            ConfigState::Trusted => format!("Not ignored (trusted; untrust it first) {path}"),
            ConfigState::NoRequest => format!("Not ignored (asks for nothing) {path}"),
            ConfigState::Error => format!("Not ignored (does not load) {path}"),
        };
        writeln!(io.out, "{line}")?;
    }
    Ok(unreadable_exit(unreadable))
}

pub fn run_unignore(_: &GlobalArgs, args: &UnignoreArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
    if let Err(e) = check_paths("unignore", &args.paths) {
        return Err(CliError::usage(e.0));
    }
    let dir = ignore_dir(env).ok_or_else(|| CliError::failed(NO_STATE_DIR))?;
    // A config gone from disk can still be unignored, as `untrust` can.
    let roots: Vec<String> = args.paths.iter().map(|p| untrust_root(p, env)).collect();
    let removed = update_ignores(&dir, |list| {
        let removed: Vec<Vec<String>> = roots
            .iter()
            .map(|root| {
                let keys: Vec<String> = list
                    .ignored
                    .keys()
                    .filter(|k| is_under(k, root))
                    .cloned()
                    .collect();
                for k in &keys {
                    list.unignore(k);
                }
                keys
            })
            .collect();
        let changed = removed.iter().any(|r| !r.is_empty());
        (removed, changed)
    })
    .map_err(CliError::failed)?;
    let values = Values;
    for (path, keys) in args.paths.iter().zip(&removed) {
        if keys.is_empty() {
            let target = describe_target(path, env);
            writeln!(
                io.out,
                "No ignored config at or under {}",
                values.text(&target)
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
    Ok(exit::SUCCESS)
}

//! `check INPUT... [--json]`: what a GocciaScript run over these inputs that
//! honours every grant would decide. Writes nothing; exit 2 with the report
//! of docs/src/compatibility.md#the-untrusted-run-report when a config would block the run.
//!
//! [`decide`] finds each input's governing config and every config under a
//! directory input, and loads them against the store, printing nothing; the
//! printers of `cli::print::{text,json,ci}::check` render its
//! [`CheckResult`].

use rayon::prelude::*;

use crate::cli::args::{CheckArgs, OutputFormat};
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, CliResult};
use crate::cli::load::StoreView;
use crate::cli::outcome;
use crate::cli::print;
use crate::cli::walk::{Failed, not_followed_lines, unreadable_warnings};
use crate::core::env::Env;
use crate::core::paths::expand_without_trailing_separator;
use crate::core::paths::input::InputProblem;
use crate::core::paths::key::TrustKey;
use crate::core::review::check::{StoreProblem, governing_config};
use crate::core::review::discover::{CONFIG_NAMES, discover_paths};
use crate::core::review::results::CheckResult;
use crate::core::review::scan::report_for;
use crate::core::store::{Store, StoreError};

pub fn run(ctx: &mut Ctx<'_, '_>, args: &CheckArgs) -> CliResult {
    let decided = decide(ctx, args);
    let (env, io) = (ctx.env, &mut *ctx.io);
    let result = decided.map_err(|f| f.print(io))?;
    let format = args.format;
    let outcome = outcome::check::decide(&result, format.is_ci());
    match format {
        OutputFormat::Json => print::json::check::print(&result, &outcome, io)?,
        f if f.is_ci() => print::ci::check::print(&result, f == OutputFormat::Github, env, io)?,
        _ => print::text::check::print(&result, &outcome, io)?,
    }
    if let Some(error) = outcome.error(|b| print::text::check::report(&result, b, env)) {
        return Err(error);
    }
    Ok(outcome.exit_code())
}

/// Finds and loads every config the inputs involve, printing nothing;
/// `outcome::check::decide` then decides how the check ends.
pub fn decide(ctx: &Ctx<'_, '_>, args: &CheckArgs) -> Result<CheckResult, Failed> {
    let (g, env) = (ctx.globals, ctx.env);
    // Where the store is comes first: a `--trust-store` naming a directory
    // is refused before anything runs (docs/src/compatibility.md#store-location),
    // while a store that cannot be located or read only changes the report.
    let view = StoreView::read(g.trust_store.as_deref(), &args.inputs, env);
    if let Err(e) = &view.located
        && !matches!(e, StoreError::Unlocatable { .. })
    {
        return Err(Failed::bare(CliError::failed(e)));
    }
    let (dirs, config_input) = sort_inputs(&args.inputs, env).map_err(Failed::bare)?;
    // Who else could have written the store, on every run: each `trusted`
    // is only as good as the store.
    let store_warnings = view.warnings();
    // Each input's governing config; a directory input also brings every
    // config under it, since the files there are governed by those.
    let mut keys: Vec<TrustKey> = Vec::new();
    let mut inputs = Vec::new();
    for input in &args.inputs {
        let governing = governing_config(input, env);
        inputs.push((input.clone(), governing.as_ref().map(|k| k.0.clone())));
        keys.extend(governing);
    }
    let found = match discover_paths(&dirs, env, &|_| {}, &|| false) {
        Ok(found) => found,
        Err(e) => {
            let error = CliError::failed(e);
            let warnings = store_warnings;
            return Err(Failed { warnings, error });
        }
    };
    keys.extend(found.keys.iter().cloned());
    keys.sort();
    keys.dedup();
    let (store, store_path, store_problem) = read_located(view);
    let reports = keys
        .par_iter()
        .map(|k| report_for(k, env, &store))
        .collect();
    Ok(CheckResult {
        inputs,
        config_input,
        not_followed: not_followed_lines(&found, &dirs, env),
        unreadable: unreadable_warnings(&found, &dirs, env),
        found,
        reports,
        store_path,
        store_problem,
        store_warnings,
        trust_store_as_typed: g.trust_store.clone(),
        args: args.inputs.clone(),
        runner: args.runner.clone(),
    })
}

/// The directory inputs, and whether a config file is among the inputs.
/// Each input must exist, as GocciaScript fails on a missing input: a
/// mistyped CI step must not pass.
fn sort_inputs(inputs: &[String], env: &Env) -> Result<(Vec<String>, bool), CliError> {
    let mut dirs = Vec::new();
    let mut config_input = false;
    for input in inputs {
        let expanded = expand_without_trailing_separator(input, &env.cwd, &env.home);
        match crate::core::paths::input::check_input(&expanded) {
            Ok(kind) if kind.is_dir() => dirs.push(input.clone()),
            Ok(_) => {
                let name = expanded.rsplit('/').next().unwrap_or_default();
                config_input |= CONFIG_NAMES.contains(&name);
            }
            Err(InputProblem::Missing) => {
                return Err(CliError::failed(format!(
                    "{input}: no such file or directory"
                )));
            }
            Err(e) => return Err(CliError::failed(format!("{input}: {}", e.reason()))),
        }
    }
    Ok((dirs, config_input))
}

/// The store `view` read, its path and why it counts as empty, if it
/// does.
fn read_located(view: StoreView) -> (Store, Option<String>, Option<StoreProblem>) {
    match view.located {
        Err(StoreError::Unlocatable { problem }) => (
            Store::default(),
            None,
            Some(StoreProblem::CannotLocate(problem)),
        ),
        Err(e) => (
            Store::default(),
            None,
            Some(StoreProblem::CannotLocate(e.to_string())),
        ),
        Ok((loc, Ok(s))) => (s, Some(loc.path), None),
        Ok((loc, Err(e))) => (
            Store::default(),
            Some(loc.path),
            Some(StoreProblem::Unreadable(e.to_string())),
        ),
    }
}

//! `check INPUT... [--json]`: what a GocciaScript run over these inputs that
//! honours every grant would decide. Writes nothing; exit 2 with the report
//! of goccia-reference.md §12.1 when a config would block the run.

use rayon::prelude::*;
use serde::Serialize;

use crate::cli::args::{CheckArgs, GlobalArgs, OutputFormat};
use crate::cli::ci_out;
use crate::cli::json_out::{JsonConfig, Schema, to_json};
use crate::cli::paint::{STYLED, mark};
use crate::cli::report::{unreadable_exit, worst_exit};
use crate::cli::terminal::Values;
use crate::cli::walk::{JsonNotFollowed, JsonUnreadable, print_not_followed, warn_unreadable};
use crate::cli::{CliError, CliResult, Io, issues_text, print_store_warnings, store_issues};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::expand_without_trailing_separator;
use crate::core::paths::key::TrustKey;
use crate::core::review::check::{ReportContext, StoreProblem, governing_config, untrusted_report};
use crate::core::review::destination::destinations;
use crate::core::review::discover::{CONFIG_NAMES, discover_paths};
use crate::core::review::report::ConfigReport;
use crate::core::review::scan::report_for;
use crate::core::store::{Store, StoreError, locate_store, read_store};
use crate::tui::views::detail::state_role;

#[derive(Serialize)]
struct JsonInput {
    input: String,
    config: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonCheck {
    schema: Schema,
    inputs: Vec<JsonInput>,
    configs: Vec<JsonConfig>,
    blocked: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    store_error: Option<String>,
    store_warnings: Vec<String>,
    unreadable: Vec<JsonUnreadable>,
    not_followed: Vec<JsonNotFollowed>,
}

pub fn run(g: &GlobalArgs, args: &CheckArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
    // Where the store is comes first: a `--trust-store` naming a directory
    // is refused before anything runs (goccia-permissions.md "The store"),
    // while a store that cannot be located or read only changes the report.
    let location = match locate_store(g.trust_store.as_deref(), env) {
        Ok(loc) => Ok(loc),
        Err(StoreError::Unlocatable { problem }) => Err(problem),
        Err(e) => return Err(CliError::failed(e)),
    };
    // Each input must exist, as GocciaScript fails on a missing input: a
    // mistyped CI step must not pass.
    let mut dirs = Vec::new();
    // A config file among the inputs (the pre-commit hook passes the staged
    // ones): a GocciaScript run over it means nothing, so the report then
    // suggests only trusting.
    let mut config_input = false;
    for input in &args.inputs {
        let expanded = expand_without_trailing_separator(input, &env.cwd, &env.home);
        match std::fs::metadata(&expanded) {
            Ok(meta) if meta.is_dir() => dirs.push(input.clone()),
            Ok(_) => {
                let name = expanded.rsplit('/').next().unwrap_or_default();
                config_input |= CONFIG_NAMES.contains(&name);
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(CliError::failed(format!(
                    "{input}: no such file or directory"
                )));
            }
            Err(e) => {
                return Err(CliError::failed(format!(
                    "{input}: {}",
                    crate::core::review::discover::io_reason(&e)
                )));
            }
        }
    }
    // Who else could have written the store, on every run: each `trusted`
    // below is only as good as the store.
    let store_warnings = match &location {
        Ok(loc) => issues_text(&store_issues(loc, &args.inputs, env)),
        Err(_) => Vec::new(),
    };
    print_store_warnings(&store_warnings, io);
    // Each input's governing config; a directory input also brings every
    // config under it, since the files there are governed by those.
    let mut keys: Vec<TrustKey> = Vec::new();
    let mut per_input = Vec::new();
    for input in &args.inputs {
        let governing = governing_config(input, env);
        per_input.push(JsonInput {
            input: input.clone(),
            config: governing.as_ref().map(|k| k.as_str().to_string()),
        });
        keys.extend(governing);
    }
    let found = match discover_paths(&dirs, env, &|_| {}, &|| false) {
        Ok(found) => found,
        Err(e) => return Err(CliError::failed(e)),
    };
    keys.extend(found.keys.iter().cloned());
    keys.sort();
    keys.dedup();

    let (store, store_path, problem) = match location {
        Err(reason) => (
            Store::default(),
            None,
            Some(StoreProblem::CannotLocate(reason)),
        ),
        Ok(loc) => match read_store(&loc.path) {
            Ok(s) => (s, Some(loc.path), None),
            Err(e) => (
                Store::default(),
                Some(loc.path),
                Some(StoreProblem::Unreadable(e.to_string())),
            ),
        },
    };
    let reports: Vec<ConfigReport> = keys
        .par_iter()
        .map(|k| report_for(k, env, &store))
        .collect();
    let format = args.format.chosen(args.json);
    if format.is_ci() {
        // Every finding at once, errors included; the exit code is the
        // text report's: a config's error class, 2 when a run would be
        // blocked, 1 for what could not be read.
        let unreadable = warn_unreadable(&found, &dirs, env, io);
        let blocked = reports.iter().any(|r| r.state.needs_review());
        let code = exit::worst(
            exit::worst(
                worst_exit(&reports),
                if blocked { exit::USAGE } else { exit::SUCCESS },
            ),
            unreadable_exit(unreadable),
        );
        let findings = ci_out::findings(&reports, None, &found.unreadable, env);
        return ci_out::write(format == OutputFormat::Github, &findings, env, io, code);
    }
    // Every config is loaded before anything runs: the first that fails
    // ends the command with its own error and exit class.
    if let Some(err) = reports.iter().find_map(|r| r.error()) {
        return Err(CliError::new(err.class.code(), err));
    }
    let blocking: Vec<&ConfigReport> = reports.iter().filter(|r| r.state.needs_review()).collect();
    if format == OutputFormat::Json {
        let doc = JsonCheck {
            schema: Schema::default(),
            inputs: per_input,
            configs: reports.iter().map(JsonConfig::from).collect(),
            blocked: !blocking.is_empty(),
            store_error: problem.as_ref().map(|p| match p {
                StoreProblem::CannotLocate(r) => {
                    format!("cannot locate the per-user trust store ({r})")
                }
                StoreProblem::Unreadable(m) => m.clone(),
            }),
            store_warnings,
            unreadable: found.unreadable.iter().map(JsonUnreadable::from).collect(),
            not_followed: found
                .not_followed
                .iter()
                .map(JsonNotFollowed::from)
                .collect(),
        };
        io.out.write_all(to_json(&doc).as_bytes())?;
    }
    // A config may hide in what could not be read: that fails the check
    // (exit 1) unless the run is blocked anyway (exit 2).
    let unreadable = warn_unreadable(&found, &dirs, env, io);
    if blocking.is_empty() {
        if format != OutputFormat::Json {
            let values = Values;
            for r in &reports {
                let r = values.report(r);
                let state = mark(state_role(r.state), &format!("({})", r.state.label()));
                writeln!(io.out, "{} {state}", r.display_path)?;
                for d in destinations(&r.lines, r.targets()) {
                    writeln!(io.out, "{}", d.render())?;
                }
            }
            print_not_followed(&found, &dirs, env, io)?;
        }
        return Ok(unreadable_exit(unreadable));
    }
    if format != OutputFormat::Json {
        print_not_followed(&found, &dirs, env, io)?;
    }
    // The report's lines: every value in them escaped here, as it is
    // made of config paths, the store's path and problem, and arguments.
    let values = Values;
    let text = |s: &str| values.text(s).into_owned();
    let store_path = store_path.as_deref().map(text);
    let typed = g.trust_store.as_deref().map(text);
    let inputs: Vec<String> = args.inputs.iter().map(|a| text(a)).collect();
    let runner = text(&args.runner);
    let ctx = ReportContext {
        env,
        store_path: store_path.as_deref(),
        store_problem: problem.map(|p| match p {
            StoreProblem::CannotLocate(r) => StoreProblem::CannotLocate(text(&r)),
            StoreProblem::Unreadable(m) => StoreProblem::Unreadable(text(&m)),
        }),
        trust_store_as_typed: typed.as_deref(),
        original_args: &inputs,
        runner: &runner,
        suggest_runs: !config_input,
        style: STYLED,
    };
    let shown: Vec<ConfigReport> = blocking
        .iter()
        .map(|r| values.report(r).into_owned())
        .collect();
    let shown: Vec<&ConfigReport> = shown.iter().collect();
    // Blocked (exit 2) wins over what could not be read (exit 1), which
    // the `Warning: ` lines above already named.
    Err(CliError::report(
        exit::worst(exit::USAGE, unreadable_exit(unreadable)),
        untrusted_report(&shown, &ctx),
    ))
}

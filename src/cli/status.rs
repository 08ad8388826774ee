//! `status [PATH] [--tree] [--json]`: one line for a prompt or a script
//! when a config governing PATH (or, with `--tree`, any config of the tree)
//! would stop a GocciaScript run, nothing when none would. Reads only what
//! it must: the store once, the governing config and its extends chain, and
//! no walk without `--tree`. Never trusts, never prompts.

use crate::core::review::ignore::{IgnoreList, ignore_dir, load_ignores};
use rayon::prelude::*;
use serde::Serialize;

use crate::cli::json_out::{JsonError, Schema, to_json};
use crate::cli::walk::{JsonUnreadable, warn_unreadable};
use crate::cli::{CliError, CliResult, Io, issues_text, print_store_warnings, store_issues};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::expand_without_trailing_separator;
use crate::core::paths::key::TrustKey;
use crate::core::review::check::governing_config;
use crate::core::review::discover::{Discovery, discover_paths};
use crate::core::review::notice::Tally;
use crate::core::review::report::ConfigReport;
use crate::core::review::scan::report_for;
use crate::core::store::{Store, locate_store, read_store};

/// Say in one line whether the configs governing PATH (default `.`) are
/// trusted: nothing and exit 0 when each is trusted or needs no trust;
/// otherwise `goccia: 1 changed, 1 never trusted (run goccia-trust to
/// review)` and exit 1. For shell prompts and scripts.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct StatusArgs {
    /// A directory or file (default `.`): its nearest config, whose hash
    /// covers its extends chain.
    #[arg(value_hint = clap::ValueHint::AnyPath)]
    pub path: Option<String>,
    /// Every config of the tree under PATH (the walk `scan` uses) instead
    /// of the one governing PATH.
    #[arg(long)]
    pub tree: bool,
    /// One JSON document (schema 1, `schemas/status.schema.json`).
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonStatus {
    schema: Schema,
    path: String,
    tree: bool,
    configs: Vec<JsonStatusConfig>,
    changed: usize,
    never_trusted: usize,
    errors: usize,
    needs_review: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    notice: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    store_error: Option<String>,
    store_warnings: Vec<String>,
    unreadable: Vec<JsonUnreadable>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonStatusConfig {
    key: String,
    path: String,
    state: &'static str,
    /// The config and each file of its extends chain, in load order.
    files: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<JsonError>,
}

/// What `status` found: the reports, the walk (with `--tree`), and why the
/// store could not be used.
pub struct StatusFindings {
    pub reports: Vec<ConfigReport>,
    pub found: Option<Discovery>,
    pub store_error: Option<String>,
    pub store_warnings: Vec<String>,
    /// The ignore list could not be read: nothing counts as ignored.
    pub ignore_problem: Option<String>,
}

impl StatusFindings {
    pub fn tally(&self) -> Tally {
        let mut t = Tally::of(&self.reports);
        t.unreadable = self.found.as_ref().map_or(0, |f| f.unreadable.len());
        t.store_unreadable = self.store_error.is_some();
        t
    }
}

/// Reads the store once and the configs `status` looks at: the one
/// governing `path`, or with `tree` every config under it.
pub fn findings(
    trust_store: Option<&str>,
    path: &str,
    tree: bool,
    env: &Env,
) -> Result<StatusFindings, CliError> {
    let expanded = expand_without_trailing_separator(path, &env.cwd, &env.home);
    if std::fs::metadata(&expanded).is_err() {
        return Err(CliError::failed(format!(
            "{path}: no such file or directory"
        )));
    }
    let (store, store_error, store_warnings) = match locate_store(trust_store, env) {
        Err(e) => (Store::default(), Some(e.to_string()), Vec::new()),
        Ok(loc) => {
            let warnings = issues_text(&store_issues(&loc, &[path.to_string()], env));
            match read_store(&loc.path) {
                Ok(s) => (s, None, warnings),
                Err(e) => (Store::default(), Some(e.to_string()), warnings),
            }
        }
    };
    let (keys, found): (Vec<TrustKey>, Option<Discovery>) = if tree {
        let found = discover_paths(&[path.to_string()], env, &|_| {}, &|| false)
            .map_err(CliError::failed)?;
        (found.keys.clone(), Some(found))
    } else {
        (governing_config(path, env).into_iter().collect(), None)
    };
    // Without a store there is nothing to compare with: a config would
    // show as never trusted, which is not known. The notice says the store
    // is unreadable instead, and the configs are not read.
    // A config refused on purpose (`ignore`) gives no notice until it
    // changes; an ignore list that cannot be read ignores nothing.
    let (ignores, ignore_problem) = match ignore_dir(env) {
        Some(dir) => load_ignores(&dir),
        None => (IgnoreList::default(), None),
    };
    let reports = if store_error.is_some() {
        Vec::new()
    } else {
        keys.par_iter()
            .map(|k| {
                let mut r = report_for(k, env, &store);
                ignores.apply(&mut r);
                r
            })
            .collect()
    };
    Ok(StatusFindings {
        reports,
        found,
        store_error,
        store_warnings,
        ignore_problem,
    })
}

/// `trust_store`: `--trust-store=` as given.
pub fn run(trust_store: Option<&str>, args: &StatusArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
    let path = args.path.clone().unwrap_or_else(|| ".".to_string());
    let f = findings(trust_store, &path, args.tree, env)?;
    print_store_warnings(&f.store_warnings, io);
    if let Some(problem) = &f.ignore_problem {
        io.warn(problem);
    }
    if let Some(e) = &f.store_error {
        io.warn(format_args!("{e}; no config can be judged"));
    }
    for r in &f.reports {
        if let Some(e) = r.error() {
            io.warn(e);
        }
    }
    if let Some(found) = &f.found {
        warn_unreadable(found, std::slice::from_ref(&path), env, io);
    }
    let tally = f.tally();
    let line = tally.line();
    if args.json {
        let doc = JsonStatus {
            schema: Schema::default(),
            path: path.clone(),
            tree: args.tree,
            configs: f
                .reports
                .iter()
                .map(|r| JsonStatusConfig {
                    key: r.key.clone(),
                    path: r.display_path.clone(),
                    state: r.state.json_name(),
                    files: r.files.clone(),
                    error: r.error().map(|e| JsonError {
                        message: e.to_string(),
                        exit: e.class.code(),
                    }),
                })
                .collect(),
            changed: tally.changed,
            never_trusted: tally.never_trusted,
            errors: tally.errors,
            needs_review: tally.any(),
            notice: line.clone(),
            store_error: f.store_error.clone(),
            store_warnings: f.store_warnings.clone(),
            unreadable: f
                .found
                .iter()
                .flat_map(|d| d.unreadable.iter().map(JsonUnreadable::from))
                .collect(),
        };
        io.out.write_all(to_json(&doc).as_bytes())?;
    } else if let Some(line) = &line {
        writeln!(io.out, "{line}")?;
    }
    Ok(if tally.any() {
        exit::FAILURE
    } else {
        exit::SUCCESS
    })
}

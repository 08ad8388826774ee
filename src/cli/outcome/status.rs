//! `status`'s result ([`StatusResult`]) and what it is made of
//! ([`findings`], which the git hooks' notice uses too): decided with no
//! output, below both `cli::status` and `cli::print`.

use std::sync::mpsc;
use std::time::Duration;

use rayon::prelude::*;

use crate::cli::error::CliError;
use crate::cli::load::StoreView;
use crate::cli::walk::unreadable_warnings;
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::expand_without_trailing_separator;
use crate::core::paths::key::TrustKey;
use crate::core::review::check::governing_config;
use crate::core::review::discover::{Discovery, discover_paths};
use crate::core::review::ignore::{IgnoreList, ignore_dir, load_ignores};
use crate::core::review::notice::{ConfigSummary, Tally};
use crate::core::review::scan::report_for;

/// What `status` found: each config's summary, the walk (with `--tree`), and why the
/// store could not be used.
pub struct StatusFindings {
    /// One per config, in key order: what the notice and the JSON show
    /// of its report (the report itself is dropped as soon as it is made).
    pub reports: Vec<ConfigSummary>,
    pub found: Option<Discovery>,
    pub store_error: Option<String>,
    pub store_warnings: Vec<String>,
    /// A store warning is one a writer refuses on (others can write the
    /// store, or it lies in the tree under review).
    pub store_unsafe: bool,
    /// The ignore list could not be read: nothing counts as ignored.
    pub ignore_problem: Option<String>,
}

impl StatusFindings {
    pub fn tally(&self) -> Tally {
        let mut t = Tally::of(&self.reports);
        t.unreadable = self.found.as_ref().map_or(0, |f| f.unreadable.len());
        t.store_unreadable = self.store_error.is_some();
        t.store_unsafe = self.store_unsafe;
        t.ignore_unusable = self.ignore_problem.is_some();
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
    if crate::core::paths::input::check_input(&expanded).is_err() {
        return Err(CliError::failed(format!(
            "{path}: no such file or directory"
        )));
    }
    // Each config's entry is read back from the file as its summary is
    // made: the store's keys are all a status holds of it.
    let view = StoreView::read_on_demand(trust_store, &[path.to_string()], env);
    let store_unsafe = view.is_unsafe();
    let store_warnings = view.warnings();
    let (store, _, store_error) = view.or_empty();
    let (keys, found): (Vec<TrustKey>, Option<Discovery>) = if tree {
        let mut found = discover_paths(&[path.to_string()], env, &|_| {}, &|| false)
            .map_err(CliError::failed)?;
        // Taken, not copied: the walk's keys are read once, here, and each
        // is let go of as its summary (which holds the key) is made.
        (std::mem::take(&mut found.keys), Some(found))
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
        keys.into_par_iter()
            .map(|k| {
                let mut r = report_for(&k, env, &store);
                ignores.apply(&mut r);
                ConfigSummary::of(r)
            })
            .collect()
    };
    Ok(StatusFindings {
        reports,
        found,
        store_error,
        store_warnings,
        store_unsafe,
        ignore_problem,
    })
}

/// `status`'s result: what was found, the warnings to give, the notice
/// and the exit code, the same whatever the format. Computing it writes
/// nothing.
pub struct StatusResult {
    /// PATH as given (default `.`).
    pub path: String,
    /// `--tree`.
    pub tree: bool,
    pub found: StatusFindings,
    /// Every `Warning:` line, in order: the store's warnings, the ignore
    /// list's problem, why the store cannot be used, each config's error,
    /// each path the walk could not read.
    pub warnings: Vec<String>,
    pub tally: Tally,
    /// The one line (`goccia: 1 changed, ...`); `None` when nothing needs
    /// review.
    pub notice: Option<String>,
    /// 1 when something needs review or cannot be judged, else 0.
    pub code: u8,
}

impl StatusResult {
    /// The status's exit code ([`StatusResult::code`]).
    pub fn exit_code(&self) -> u8 {
        self.code
    }

    /// What `found` says about PATH (`path`, as given), and with `tree`
    /// about the tree under it.
    pub fn of(path: String, tree: bool, found: StatusFindings, env: &Env) -> StatusResult {
        let mut warnings = found.store_warnings.clone();
        warnings.extend(found.ignore_problem.clone());
        if let Some(e) = &found.store_error {
            warnings.push(format!("{e}; no config can be judged"));
        }
        warnings.extend(
            found
                .reports
                .iter()
                .filter_map(|r| Some(r.error.as_ref()?.to_string())),
        );
        if let Some(walk) = &found.found {
            warnings.extend(unreadable_warnings(walk, std::slice::from_ref(&path), env));
        }
        let tally = found.tally();
        StatusResult {
            notice: tally.line(),
            code: if tally.any() {
                exit::FAILURE
            } else {
                exit::SUCCESS
            },
            path,
            tree,
            found,
            warnings,
            tally,
        }
    }
}

/// `status --prompt`'s result: what the prompt shows. The command exits 0
/// whatever it is, since a prompt framework shows nothing of a command
/// that fails (starship's custom module) and a shell hook must not change
/// the user's `$?`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptLine {
    /// The notice, or `None` when a run would not be refused.
    Checked(Option<String>),
    /// The check could not be made (PATH is gone, say): why.
    Failed(String),
    /// The check took longer than the time limit and was given up.
    TooSlow,
}

/// How long `status --prompt` may take: `GOCCIA_TRUST_PROMPT_TIME_LIMIT_MS`,
/// else 300 ms (under starship's own 500 ms `command_timeout`, after which
/// starship would show nothing).
pub fn prompt_time_limit() -> Duration {
    crate::core::env::GOCCIA_TRUST_PROMPT_TIME_LIMIT_MS
        .read()
        .parse::<u64>()
        .ok()
        .map(Duration::from_millis)
        .unwrap_or(Duration::from_millis(300))
}

impl PromptLine {
    /// `status`'s line for `path` (with `tree`, the tree under it) within
    /// the time limit. The check runs
    /// apart so the prompt can give up on it: it only reads, and ends with
    /// the process.
    pub fn decide(trust_store: Option<&str>, path: String, tree: bool, env: &Env) -> PromptLine {
        let (send, recv) = mpsc::channel();
        let (store, env2) = (trust_store.map(str::to_string), env.clone());
        std::thread::spawn(move || {
            let _ = send.send(findings(store.as_deref(), &path, tree, &env2));
        });
        match recv.recv_timeout(prompt_time_limit()) {
            Ok(Ok(f)) => PromptLine::Checked(f.tally().line()),
            Ok(Err(CliError::Message { message, .. })) => PromptLine::Failed(message),
            Ok(Err(_)) => PromptLine::Failed("an error".to_string()),
            Err(_) => PromptLine::TooSlow,
        }
    }
}

//! Starting the interactive review from the command line.

use std::sync::Arc;

use crate::cli::args::{ColorChoice, GlobalArgs, TuiArgs};
use crate::cli::error::{CliError, CliResult};
use crate::cli::policy_trust::{policy_label, review_policy};
use crate::cli::review::Judged;
use crate::core::env::{Env, UserDir};
use crate::core::exit;
use crate::core::revision::since::locate;
use crate::core::store::locate_store;
use crate::core::team::signers::AllowedSigners;
use crate::style::theme::{ColorChoice as ThemeColor, load_theme};
use crate::tui::Ending;
use crate::tui::core_backend::CoreBackend;

pub fn run(g: &GlobalArgs, path: &str, review: &TuiArgs, env: &Env) -> CliResult {
    let color = match g.color {
        ColorChoice::Auto => ThemeColor::Auto,
        ColorChoice::Always => ThemeColor::Always,
        ColorChoice::Never => ThemeColor::Never,
    };
    let mut theme = match load_theme(
        g.theme.as_deref(),
        color,
        env.user_dir(UserDir::Config).as_deref(),
        // `--color=auto` gives mono where the CLI would print no colour on
        // a terminal: NO_COLOR, TERM=dumb, CLICOLOR=0.
        !env.auto_colour(true),
    ) {
        Ok(t) => t,
        Err(e) => return Err(CliError::usage(e)),
    };
    // ASCII where the locale has no UTF-8, with --ascii, or when the
    // theme says so.
    theme.ascii |= g.ascii || env.ascii_locale;
    // crossterm drops every colour under NO_COLOR on its own; tell it what
    // --color decided, so `--color=always` means colour as documented.
    match g.color {
        ColorChoice::Always => crossterm::style::force_color_output(true),
        ColorChoice::Never => crossterm::style::force_color_output(false),
        ColorChoice::Auto => {}
    }
    let expanded = crate::core::paths::expand_file_name(path, &env.cwd, &env.home);
    if crate::core::paths::input::check_input(&expanded).is_err() {
        return Err(CliError::failed(format!("path not found: {path}")));
    }
    // `--since BASE`: the repository and the revision are checked before the
    // terminal is taken (exit 2 with git's message, as `diff` says it); the
    // revision's configs are read by the review's first scan, on a worker.
    let since = match &review.since {
        Some(rev) => Some((rev.clone(), since_root(path, rev, env)?)),
        None => None,
    };
    let store = locate_store(g.trust_store.as_deref(), env).map_err(|e| e.to_string());
    // Judged as `scan --policy` judges the same tree, and refused as it
    // refuses (exit 2, naming the file), before the terminal is taken.
    let policy = match &review.policy {
        Some(file) => {
            let paths = [path.to_string()];
            let p = review_policy(
                Some(file),
                review.policy_sha256.as_deref(),
                store.as_ref().ok(),
                &paths,
                env,
            )?;
            let label = policy_label(&p);
            Some((p, label))
        }
        None => None,
    };
    // The allowed signers reviews are judged by, refused as `inspect`
    // refuses them (exit 2), before the terminal is taken.
    let reviewed_by = review_signers(path, review, store.as_ref().ok(), env)?;
    let mut backend = CoreBackend::new(env.clone(), store);
    backend.reviewed_by = reviewed_by;
    backend.watching = !g.no_watch;
    backend.policy = policy;
    backend.since = since;
    match crate::tui::run_tui(path, Arc::new(backend), theme, env.editor()) {
        Ok(Ending::Quit) => Ok(exit::SUCCESS),
        // The terminal is restored; exit as a shell reports a signal.
        Ok(Ending::Signal(sig)) => Ok((128 + sig) as u8),
        Err(e) => Err(CliError::failed(format!(
            "the interactive review failed: {e}"
        ))),
    }
}

/// The allowed signers the review judges signed reviews by: `--reviewed-by
/// FILE`, else `allowed_signers` in the store's directory when it exists,
/// checked as `inspect` checks them (outside the reviewed tree, writable
/// by you alone, strictly parsed: exit 2 otherwise); `None` without
/// either: each good signature is then only `unchecked`.
pub fn review_signers(
    path: &str,
    review: &TuiArgs,
    store: Option<&crate::core::store::StoreLocation>,
    env: &Env,
) -> Result<Option<AllowedSigners>, CliError> {
    let default = store
        .map(|loc| loc.dir().join("allowed_signers"))
        .filter(|f| f.is_file())
        .map(|f| f.to_string_lossy().into_owned());
    let Some(file) = review.reviewed_by.clone().or(default) else {
        return Ok(None);
    };
    let paths = [path.to_string()];
    Ok(Judged::load(Some(&file), None, &paths, env)?.signers)
}

/// The root of the repository holding `path` (the directory it names, or
/// the one holding the config file it names), once `rev` is known to name a
/// tree there: `diff`'s usage errors (exit 2, git's message) otherwise,
/// and the review's own (exit 1) for a PATH that does not exist.
pub fn since_root(path: &str, rev: &str, env: &Env) -> Result<String, CliError> {
    let expanded = crate::core::paths::expand_file_name(path, &env.cwd, &env.home);
    let Ok(kind) = crate::core::paths::input::check_input(&expanded) else {
        return Err(CliError::failed(format!("path not found: {path}")));
    };
    let dir = if kind.is_dir() {
        expanded
    } else {
        std::path::Path::new(&expanded)
            .parent()
            .and_then(|p| p.to_str())
            .filter(|p| !p.is_empty())
            .unwrap_or(".")
            .to_string()
    };
    locate(&dir, rev).map_err(|e| CliError::usage(e.0))
}

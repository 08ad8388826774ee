//! `ignore PATH...` and `unignore PATH...` (issue 31): refuse configs and
//! stop being asked about them until they change. Recorded in the per-user
//! state directory (`core::review::ignore`), never in the trust store:
//! GocciaScript still refuses to run an ignored config.
//!
//! Each command plans (walks and loads, printing nothing), records, and
//! hands its outcome (`cli::outcome::ignore`, with its exit code) to
//! `cli::print::text::ignore`.

use crate::cli::args::{IgnoreArgs, UnignoreArgs, check_paths};
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, CliResult};
use crate::cli::load::StoreView;
use crate::cli::outcome::ignore::{IgnoreOutcome, UnignoreOutcome};
use crate::cli::print;
use crate::cli::walk::{Failed, unreadable_warnings};
use crate::core::exit;
use crate::core::paths::display::describe_target;
use crate::core::paths::expand_file_name;
use crate::core::paths::key::is_under;
use crate::core::review::discover::discover_paths;
use crate::core::review::ignore::IgnoreAs;
use crate::core::review::ignore::{ignore_dir, update_ignores};
use crate::core::review::report::ConfigReport;
use crate::core::review::results::{IgnoreResult, UnignoreResult};
use crate::core::review::scan::report_for;
use crate::core::review::trust::untrust_root;
use crate::core::store::utc_timestamp_now;

/// Why the CLI cannot keep an ignore list without a state directory.
const NO_STATE_DIR: &str = "no state directory to keep the ignore list in (set GOCCIA_TRUST_STATE_DIR, XDG_STATE_HOME or HOME)";

pub fn run_ignore(ctx: &mut Ctx<'_, '_>, args: &IgnoreArgs) -> CliResult {
    let decided = decide_ignore(ctx, args);
    let outcome = decided.map_err(|f| f.print(ctx.io))?;
    print::text::ignore::print_ignore(&outcome.result, ctx.io)?;
    Ok(outcome.exit_code())
}

/// Plans, then records: the configs under the paths that need review go
/// on the ignore list, printing nothing.
pub fn decide_ignore(ctx: &Ctx<'_, '_>, args: &IgnoreArgs) -> Result<IgnoreOutcome, Failed> {
    let (plan, dir) = plan_ignore(ctx, args)?;
    let result = record_ignore(plan, &dir)?;
    Ok(IgnoreOutcome { result })
}

/// An `ignore` planned: the warnings so far, every config loaded.
struct IgnorePlan {
    warnings: Vec<String>,
    reports: Vec<ConfigReport>,
    unreadable: bool,
}

/// Every path is walked and every config loaded before anything is
/// written: a path with no config fails the command, which then changes
/// nothing.
fn plan_ignore(
    ctx: &Ctx<'_, '_>,
    args: &IgnoreArgs,
) -> Result<(IgnorePlan, std::path::PathBuf), Failed> {
    let (g, env) = (ctx.globals, ctx.env);
    let bare = |e: CliError| Failed::bare(e);
    check_paths("ignore", &args.paths).map_err(|e| bare(CliError::usage(e.0)))?;
    for path in &args.paths {
        let expanded = expand_file_name(path, &env.cwd, &env.home);
        if crate::core::paths::input::check_input(&expanded).is_err() {
            return Err(bare(CliError::failed(format!(
                "ignore path not found: {path}"
            ))));
        }
    }
    let dir = ignore_dir(env).ok_or_else(|| bare(CliError::failed(NO_STATE_DIR)))?;
    let view = StoreView::read(g.trust_store.as_deref(), &args.paths, env);
    let mut warnings = view.warnings();
    let (store, _, store_error) = view.or_empty();
    if let Some(problem) = store_error {
        let error = CliError::failed(problem);
        return Err(Failed { warnings, error });
    }
    let mut reports = Vec::new();
    let mut unreadable = false;
    for path in &args.paths {
        let paths = std::slice::from_ref(path);
        let found = match discover_paths(paths, env, &|_| {}, &|| false) {
            Ok(found) => found,
            Err(e) => {
                let error = CliError::new(exit::FAILURE, e);
                return Err(Failed { warnings, error });
            }
        };
        warnings.extend(unreadable_warnings(&found, paths, env));
        unreadable |= !found.unreadable.is_empty();
        if found.keys.is_empty() {
            let error = CliError::failed(format!("ignore: no config at or under {path}"));
            return Err(Failed { warnings, error });
        }
        reports.extend(found.keys.iter().map(|k| report_for(k, env, &store)));
    }
    reports.sort_by(|a, b| a.key.cmp(&b.key));
    reports.dedup_by(|a, b| a.key == b.key);
    let plan = IgnorePlan {
        warnings,
        reports,
        unreadable,
    };
    Ok((plan, dir))
}

/// Records each config that needs review in the ignore list.
fn record_ignore(plan: IgnorePlan, dir: &std::path::Path) -> Result<IgnoreResult, Failed> {
    let now = utc_timestamp_now();
    let reports = &plan.reports;
    let added = update_ignores(dir, |list| {
        let added: Vec<bool> = reports
            .iter()
            .map(|r| match (r.state.needs_review(), IgnoreAs::of(r)) {
                (true, Some(as_now)) => list.ignore(&r.key, &as_now, &now),
                _ => false,
            })
            .collect();
        let changed = added.iter().any(|a| *a);
        (added, changed)
    });
    let added = match added {
        Ok(added) => added,
        Err(e) => {
            let error = CliError::failed(e);
            let warnings = plan.warnings;
            return Err(Failed { warnings, error });
        }
    };
    let configs = reports
        .iter()
        .zip(added)
        .map(|(r, added)| (r.display_path.clone(), r.state, added))
        .collect();
    Ok(IgnoreResult {
        warnings: plan.warnings,
        configs,
        unreadable: plan.unreadable,
    })
}

pub fn run_unignore(ctx: &mut Ctx<'_, '_>, args: &UnignoreArgs) -> CliResult {
    let outcome = decide_unignore(ctx, args)?;
    print::text::ignore::print_unignore(&outcome.result, ctx.env, ctx.io)?;
    Ok(outcome.exit_code())
}

/// Takes every ignored config at or under each path off the list,
/// printing nothing.
pub fn decide_unignore(
    ctx: &Ctx<'_, '_>,
    args: &UnignoreArgs,
) -> Result<UnignoreOutcome, CliError> {
    let env = ctx.env;
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
    let paths = args
        .paths
        .iter()
        .zip(removed)
        .map(|(path, keys)| (describe_target(path, env), keys))
        .collect();
    Ok(UnignoreOutcome {
        result: UnignoreResult { paths },
    })
}

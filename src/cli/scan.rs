//! `scan [PATH...] [--json]`: every effective config and its state. A store
//! that cannot be read makes every config count as untrusted, and the
//! problem is named; a config that fails to load is an error row, and the
//! exit code reports the worst error class at the end.
//!
//! [`decide`] walks the paths and reads the store, the ignore list and
//! (for JSON) the viewed marks, printing nothing; the printers of
//! `cli::print::{text,json,ci}::scan` render its [`ScanResult`]. Each
//! config is loaded as its row is written ([`ScanResult::for_each_config`]),
//! so a scan holds its reports a batch at a time, not all at once.

use std::cell::RefCell;

use crate::cli::args::{OutputFormat, ScanArgs};
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, CliResult};
use crate::cli::load::StoreView;
use crate::cli::outcome::scan::{ReviewsOf, ScanSink, stream_reviewed};
use crate::cli::print;
use crate::cli::scan_reviews::ScanReviews;
use crate::cli::walk::{Failed, not_followed_lines, unreadable_warnings};
use crate::core::exit;
use crate::core::review::discover::discover_paths;
use crate::core::review::ignore::{IgnoreList, ignore_dir, load_ignores};
use crate::core::review::progress::{Progress, load_progress, progress_dir};
use crate::core::review::report::ConfigReport;
use crate::core::review::results::ScanResult;
use crate::core::review::trust::missing_entries_on_demand;
use crate::core::revision::provenance::deleted_by;
use crate::core::revision::review_provenance::{Listing, MAX_LISTED};

pub fn run(ctx: &mut Ctx<'_, '_>, args: &ScanArgs) -> CliResult {
    // Never taken and ignored: only scan --json shows reviews.
    if args.reviewed_by.is_some() && (args.policy.is_some() || args.format != OutputFormat::Json) {
        return Err(CliError::usage(
            "--reviewed-by shows signed reviews in scan --json only, not with --policy; review list shows them as text",
        ));
    }
    if args.policy.is_some() {
        return crate::cli::policy_trust::scan_with_policy(ctx, args);
    }
    // scan --json judges each config's signed reviews: the allowed
    // signers are checked (exit 2) before anything is scanned.
    let reviews = match args.format {
        OutputFormat::Json => Some(ScanReviews::load(
            args.reviewed_by.as_deref(),
            ctx.globals.trust_store.as_deref(),
            &paths_or_dot(&args.paths),
            ctx.env,
        )?),
        _ => None,
    };
    let decided = decide(ctx, args);
    let (env, io) = (ctx.env, &mut *ctx.io);
    for w in reviews.iter().flat_map(ScanReviews::warnings) {
        io.warn(w);
    }
    let format = args.format;
    let result = decided.map_err(|f| f.print(io))?;
    // Who changed what, on a terminal only (piped text stays as it was),
    // and for a changed config only: git is read for nothing else.
    let on_terminal = io.escaping.stdout_is_terminal();
    let listing = RefCell::new(Listing::default());
    let who = |r: &ConfigReport| {
        if on_terminal {
            listing.borrow_mut().next(r, env)
        } else {
            None
        }
    };
    // Who deleted each missing config, the same way, for the first 100.
    let asked = std::cell::Cell::new(0);
    let deleted = |key: &str| {
        asked.set(asked.get() + 1);
        (on_terminal && asked.get() <= MAX_LISTED).then(|| deleted_by(key))
    };
    let mut sink: Box<dyn ScanSink> = match format {
        OutputFormat::Json => Box::new(print::json::scan::Json),
        f if f.is_ci() => Box::new(print::ci::scan::Ci {
            github: f == OutputFormat::Github,
            env,
        }),
        _ => Box::new(print::text::scan::Text {
            who: &who,
            deleted: &deleted,
            env,
        }),
    };
    let judge = reviews
        .as_ref()
        .map(|r| move |c: &ConfigReport| r.of(c, env));
    let judge = judge.as_ref().map(|j| j as &ReviewsOf<'_>);
    let outcome = stream_reviewed(&result, env, judge, sink.as_mut(), io)?;
    Ok(outcome.exit_code())
}

/// Walks the paths and reads what the scan shows them against, printing
/// nothing. The configs are loaded as they stream to the printer, so the
/// scan's outcome (`outcome::scan::ScanOutcome`, its exit code) is decided
/// by [`stream`], not here.
pub fn decide(ctx: &Ctx<'_, '_>, args: &ScanArgs) -> Result<ScanResult, Failed> {
    let (g, env, format) = (ctx.globals, ctx.env, args.format);
    let paths = paths_or_dot(&args.paths);
    // Each entry is read back from the file as its config's row is made:
    // the store's keys are all a scan holds of it.
    let view = StoreView::read_on_demand(g.trust_store.as_deref(), &paths, env);
    let store_warnings = view.warnings();
    let (store, _, store_error) = view.or_empty();
    let failed = |warnings, e: &dyn std::fmt::Display| Failed {
        warnings,
        error: CliError::new(exit::FAILURE, e),
    };
    let missing = match missing_entries_on_demand(&store, &paths, env) {
        Ok(missing) => missing,
        Err(e) => return Err(failed(store_warnings, &e)),
    };
    let found = match discover_paths(&paths, env, &|_| {}, &|| false) {
        Ok(found) => found,
        Err(e) => return Err(failed(store_warnings, &e)),
    };
    let (ignores, ignore_problem) = match ignore_dir(env) {
        Some(dir) => load_ignores(&dir),
        None => (IgnoreList::default(), None),
    };
    let progress = (format == OutputFormat::Json).then(|| match progress_dir(env) {
        Some(dir) => load_progress(&dir),
        None => (Progress::default(), None),
    });
    Ok(ScanResult {
        not_followed: not_followed_lines(&found, &paths, env),
        unreadable: unreadable_warnings(&found, &paths, env),
        store,
        store_error,
        store_warnings,
        ignores,
        ignore_problem,
        progress,
        found,
        missing,
    })
}

/// The paths given, else `.`.
fn paths_or_dot(paths: &[String]) -> Vec<String> {
    if paths.is_empty() {
        vec![".".to_string()]
    } else {
        paths.to_vec()
    }
}

//! `list [--json] [--exit-code]`, also spelled `--list-trusted`: every store
//! entry with `(changed)`, `(missing)` or `(unreadable: …)`
//! (docs/src/compatibility.md#the-store-listing); `list --ignored`: the ignore list.
//!
//! [`decide`] reads the store, printing nothing, into an outcome
//! (`cli::outcome::list`) that streams each entry, checked against its
//! config as it is now, to the printer and decides the exit code;
//! [`decide_ignored`] reads the ignore list and each ignored config. The
//! printers of `cli::print::{text,json}::list` render them.

use crate::cli::args::ListArgs;
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, CliResult};
use crate::cli::load::StoreView;
use crate::cli::outcome::list::{IgnoredOutcome, ListOutcome};
use crate::cli::print;
use crate::cli::walk::Failed;
use crate::core::config::load_config;
use crate::core::paths::key::TrustKey;
use crate::core::review::ignore::{Ignored, ignore_dir, ignore_path, load_ignores};
use crate::core::review::listing::{Detail, config_exists};
use crate::core::review::results::{IgnoredNow, IgnoredResult, ListResult};

pub fn run(ctx: &mut Ctx<'_, '_>, args: &ListArgs) -> CliResult {
    if args.ignored {
        let outcome = decide_ignored(ctx)?;
        let (env, io) = (ctx.env, &mut *ctx.io);
        if args.json {
            print::json::list::print_ignored(&outcome.result, env, io)?;
        } else {
            print::text::list::print_ignored(&outcome.result, io)?;
        }
        return Ok(outcome.exit_code());
    }
    let decided = decide(ctx, args);
    let (env, io) = (ctx.env, &mut *ctx.io);
    let outcome = decided.map_err(|f| f.print(io))?;
    // Each entry is checked against its config as the printer reaches it.
    let code = outcome.stream(env, |result, entries| {
        if args.json {
            print::json::list::print(result, entries, env, io)
        } else {
            print::text::list::print(result, entries, io)
        }
    })?;
    // The process ends right after: the store is left to it rather than
    // freed string by string on this one thread.
    std::mem::forget(outcome);
    Ok(code)
}

/// Reads the store, printing nothing; its entries are checked against
/// their configs as they are printed (`ListOutcome::stream`). The text
/// shows each entry's summary and `~` lines; JSON shows the stored block's
/// lines too.
pub fn decide(ctx: &Ctx<'_, '_>, args: &ListArgs) -> Result<ListOutcome, Failed> {
    let (g, env) = (ctx.globals, ctx.env);
    let view = StoreView::read(g.trust_store.as_deref(), &[], env);
    let store_warnings = view.warnings();
    let (location, store) = view
        .located
        .map_err(|e| Failed::bare(CliError::failed(e)))?;
    let store = match store {
        Ok(store) => store,
        Err(e) => {
            let error = CliError::failed(e);
            let warnings = store_warnings;
            return Err(Failed { warnings, error });
        }
    };
    let detail = if args.json {
        Detail::Lines
    } else {
        Detail::Targets
    };
    let result = ListResult {
        location,
        store,
        detail,
        store_warnings,
    };
    Ok(ListOutcome {
        result,
        exit_code_asked: args.exit_code,
    })
}

/// Reads the ignore list and each ignored config as it is now, printing
/// nothing.
pub fn decide_ignored(ctx: &Ctx<'_, '_>) -> Result<IgnoredOutcome, CliError> {
    let env = ctx.env;
    let Some(dir) = ignore_dir(env) else {
        return Err(CliError::failed(
            "no state directory to keep the ignore list in (set GOCCIA_TRUST_STATE_DIR, XDG_STATE_HOME or HOME)",
        ));
    };
    let (list, problem) = load_ignores(&dir);
    let now = |key: &str, ignored: &Ignored| match load_config(&TrustKey(key.to_string()), env) {
        Ok(s) if s.sha256 == ignored.sha256 => IgnoredNow::Current,
        Ok(_) => IgnoredNow::Changed,
        Err(_) if config_exists(key) => IgnoredNow::Changed,
        Err(_) => IgnoredNow::Missing,
    };
    let rows = list
        .ignored
        .iter()
        .map(|(k, i)| (k.clone(), i.clone(), now(k, i)))
        .collect();
    let result = IgnoredResult {
        file: ignore_path(&dir).display().to_string(),
        problem,
        rows,
    };
    Ok(IgnoredOutcome { result })
}

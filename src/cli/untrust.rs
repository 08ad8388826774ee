//! `untrust PATH...` (also `--untrust PATH`) and `untrust --missing`
//! (docs/src/compatibility.md#untrust-lines), with `--json` (README "JSON
//! contract"): remove the entries, then print what went in the chosen
//! format.

use crate::cli::args::{UntrustArgs, check_paths};
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, CliResult};
use crate::cli::load::{StoreView, store_failure};
use crate::cli::outcome::untrust::UntrustOutcome;
use crate::cli::print::{json, text};
use crate::core::review::trust::outcome::{Removed, Untrusted, UntrustedPath};
use crate::core::review::trust::{untrust_missing, untrust_root, untrust_roots};

pub fn run(ctx: &mut Ctx<'_, '_>, args: &UntrustArgs) -> CliResult {
    if !args.missing
        && let Err(e) = check_paths("--untrust", &args.paths)
    {
        return Err(CliError::usage(e.0));
    }
    let outcome = decide(ctx, args)?;
    let (env, io) = (ctx.env, &mut *ctx.io);
    if args.json {
        json::untrust::print(&outcome.untrusted, env, io)?;
    } else {
        text::untrust::print(&outcome.untrusted, env, io)?;
    }
    Ok(outcome.exit_code())
}

/// Removes the entries `args` name, under the store lock. Writes only the
/// store's warnings.
pub fn decide(ctx: &mut Ctx<'_, '_>, args: &UntrustArgs) -> Result<UntrustOutcome, CliError> {
    let (g, env, io) = (ctx.globals, ctx.env, &mut *ctx.io);
    let (loc, store) = StoreView::read(g.trust_store.as_deref(), &[], env).checked(true, io)?;
    let removed = if args.missing {
        Removed::Missing(untrust_missing(&loc, store).map_err(|e| store_failure(&e))?)
    } else {
        let roots: Vec<String> = args.paths.iter().map(|p| untrust_root(p, env)).collect();
        let removed = untrust_roots(&loc, store, &roots).map_err(|e| store_failure(&e))?;
        Removed::Paths(
            args.paths
                .iter()
                .zip(roots)
                .zip(removed)
                .map(|((path, root), removed)| UntrustedPath {
                    path: path.clone(),
                    root,
                    removed,
                })
                .collect(),
        )
    };
    let untrusted = Untrusted {
        store: loc.path,
        removed,
    };
    Ok(UntrustOutcome { untrusted })
}

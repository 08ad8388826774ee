//! `trust --yes|--dry-run --reviewed-by FILE [--min-reviews N] [--revoked
//! FILE] [--reviewed-by-sha256 HEX] PATH...` (docs/src/signed-reviews.md):
//! records exactly the new and changed configs whose current portable
//! digest has N signed reviews from distinct keys and people that the
//! user's allowed_signers file lists; the others are left, each with why.
//!
//! What was verified is what is recorded: under the store lock each config
//! is read again and recorded only when its block, hash and every target
//! equal what was listed (`core::review::trust::trust_as_shown`); the
//! portable digest is made of exactly those and the config's place in its
//! repository, so a config whose digest changed since is refused.

use std::collections::BTreeMap;

use crate::cli::args::TrustArgs;
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, CliResult};
use crate::cli::io::Io;
use crate::cli::load::StoreView;
use crate::cli::outcome::review::ReviewTrust;
use crate::cli::print::text;
use crate::cli::review::{Judged, Reviews, place};
use crate::cli::trust;
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::display::display_path;
use crate::core::review::trust::Shown;
use crate::core::review::trust::outcome::TrustListing;

pub fn run(ctx: &mut Ctx<'_, '_>, args: &TrustArgs) -> CliResult {
    let (g, env, io) = (ctx.globals, ctx.env, &mut *ctx.io);
    trust::check_args(args, env)?;
    let Some(file) = args.reviewed_by.as_deref() else {
        return Err(CliError::usage("--reviewed-by needs a FILE"));
    };
    check_usage(args)?;
    let judged = Judged::load_pinned(
        Some(file),
        args.reviewed_by_sha256.as_deref(),
        args.revoked.as_deref(),
        &args.paths,
        env,
    )?;
    let required = args.min_reviews.unwrap_or(1);
    judged.can_meet(required, file)?;
    if let Some(s) = &judged.signers {
        for w in &s.warnings {
            io.warn(w);
        }
    }
    // `--quiet` never hides what `--yes` records.
    if args.yes && !args.dry_run {
        io.escaping.unmute();
    }
    let view = StoreView::read(g.trust_store.as_deref(), &args.paths, env);
    let store_warnings = view.warnings();
    let (loc, store) = view.checked(!args.dry_run, io)?;
    let listing = trust::list(args, (loc, store, store_warnings), env, io)?;
    if let Some(nothing) = listing.nothing_to_do() {
        text::trust::nothing_to_do(nothing, &listing, io)?;
        return Ok(exit::SUCCESS);
    }
    let mut outcome = judge(&listing, &judged, required, args.dry_run, env);
    if !args.dry_run {
        record(&listing, &mut outcome, env, io)?;
    }
    text::review::review_trust(&outcome, io)?;
    Ok(outcome.exit_code())
}

/// `--reviewed-by` gates unattended trust, as `--policy` does; the
/// combinations not supported yet are refused rather than half-applied.
fn check_usage(args: &TrustArgs) -> Result<(), CliError> {
    if !args.yes && !args.dry_run {
        return Err(CliError::usage(
            "--reviewed-by gates unattended trust; add --yes (or --dry-run to see which configs have their reviews)",
        ));
    }
    if args.policy.is_some() || !args.expect.is_empty() {
        return Err(CliError::usage(
            "--reviewed-by does not combine with --policy or --expect yet; run them as two steps",
        ));
    }
    if args.json {
        return Err(CliError::usage(
            "--reviewed-by has no --json output yet; review verify --json reports the same judgement",
        ));
    }
    Ok(())
}

/// Each listed config judged by its reviews of its current version.
fn judge(
    listing: &TrustListing,
    judged: &Judged,
    required: usize,
    dry_run: bool,
    env: &Env,
) -> ReviewTrust {
    let judge = judged.judge();
    let mut files = BTreeMap::new();
    let mut notes = Vec::new();
    let configs = listing
        .plan
        .candidates
        .iter()
        .map(|c| {
            let s = &c.snapshot;
            let placed = place(&s.key, &s.full_block(), &s.targets);
            let shown = display_path(s.key.as_str(), &env.cwd);
            let mut reviews = Reviews {
                judge: &judge,
                files: &mut files,
                notes: &mut notes,
            };
            let r = reviews.judge(shown, s.requests_grants(), placed);
            let met = r.problem.is_none() && r.count >= required;
            (r, met)
        })
        .collect();
    ReviewTrust {
        configs,
        files: notes,
        required,
        dry_run,
        store: display_path(&listing.loc.path, &env.cwd),
        refused: Vec::new(),
    }
}

/// Records the configs with their reviews, each re-read and re-hashed
/// under the store lock; one that changed since is refused (and said).
fn record(
    listing: &TrustListing,
    outcome: &mut ReviewTrust,
    env: &Env,
    io: &mut Io<'_>,
) -> Result<(), CliError> {
    let shown: Vec<Shown> = listing
        .plan
        .candidates
        .iter()
        .zip(&outcome.configs)
        .filter(|(_, (_, met))| *met)
        .map(|(c, _)| Shown::of_snapshot(&c.snapshot))
        .collect();
    if shown.is_empty() {
        return Ok(());
    }
    let o = trust::record(&listing.loc, &shown, env)?;
    text::trust::refused(&o, io);
    for r in &o.commit.refused {
        let shown = display_path(&r.key, &env.cwd);
        for (c, met) in outcome.configs.iter_mut() {
            if c.shown == shown {
                *met = false;
            }
        }
        outcome.refused.push(shown);
    }
    Ok(())
}

//! `trust --yes|--dry-run --reviewed-by FILE [--min-reviews N] [--revoked
//! FILE] [--reviewed-by-sha256 HEX] PATH...` (docs/src/signed-reviews.md):
//! records exactly the new and changed configs whose current portable
//! digest has N signed reviews from distinct keys and people that the
//! user's allowed_signers file lists; the others are left, each with why.
//! With `--policy`/`--expect` the policy gate judges the same listing and
//! a config is recorded only when both pass; every decision is recorded
//! first (`cli::policy_trust`), naming who reviewed it.
//!
//! What was verified is what is recorded: under the store lock each config
//! is read again and recorded only when its block, hash and every target
//! equal what was listed (`core::review::trust::trust_as_shown`); the
//! portable digest is made of exactly those and the config's place in its
//! repository, so a config whose digest changed since is refused.

use std::path::PathBuf;

use crate::cli::args::TrustArgs;
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, CliResult};
use crate::cli::io::Io;
use crate::cli::load::StoreView;
use crate::cli::outcome::review::{GateLeft, ReviewTrust};
use crate::cli::policy_trust;
use crate::cli::print::{json, text};
use crate::cli::review::{Judged, Reviews, place};
use crate::cli::trust;
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::display::display_path;
use crate::core::policy::{ReviewedBy, Verdict};
use crate::core::review::trust::Shown;
use crate::core::review::trust::outcome::{Gate, TrustListing, TrustOutcome};

pub fn run(ctx: &mut Ctx<'_, '_>, args: &TrustArgs) -> CliResult {
    let (g, env, io) = (ctx.globals, ctx.env, &mut *ctx.io);
    trust::check_args(args, env)?;
    let Some(file) = args.reviewed_by.as_deref() else {
        return Err(CliError::usage("--reviewed-by needs a FILE"));
    };
    check_usage(args)?;
    let expected = trust::expected_hashes(&args.expect).map_err(CliError::usage)?;
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
    // With `--policy`/`--expect`, the policy is checked before anything is
    // listed, as the policy gate alone does.
    let policy = if args.policy.is_some() || !args.expect.is_empty() {
        Some(policy_trust::gate_policy(args, &loc, env)?)
    } else {
        None
    };
    let listing = trust::list_judged(
        args,
        (loc, store, store_warnings),
        policy.as_ref().map(|(p, _)| p),
        env,
        io,
    )?;
    let mut outcome = judge(&listing, &judged, required, args.dry_run, env);
    if let Some((p, _)) = &policy {
        outcome.policy = Some((p.source.to_string(), p.sha256.clone()));
    }
    if let Some(nothing) = listing.nothing_to_do() {
        if args.json {
            json::review::review_trust(&outcome, io)?;
        } else {
            text::trust::nothing_to_do(nothing, &listing, io)?;
        }
        return Ok(exit::SUCCESS);
    }
    let gate = policy.map(|(policy, records)| {
        let mut gate = Gate {
            policy,
            expected,
            judged: Vec::new(),
        };
        gate.judge(&listing);
        apply_gate(&mut outcome, &gate);
        (gate, records)
    });
    if !args.dry_run {
        record_gated(&listing, &mut outcome, gate.as_ref(), env, io)?;
    }
    let gate = gate.as_ref().map(|(g, _)| g);
    if args.json {
        json::review::review_trust(&outcome, io)?;
    } else {
        text::review::review_trust(&outcome, gate, args.verbose, io)?;
    }
    Ok(outcome.exit_code())
}

/// `--reviewed-by` gates unattended trust, as `--policy` does.
fn check_usage(args: &TrustArgs) -> Result<(), CliError> {
    if !args.yes && !args.dry_run {
        return Err(CliError::usage(
            "--reviewed-by gates unattended trust; add --yes (or --dry-run to see which configs have their reviews)",
        ));
    }
    Ok(())
}

/// Both gates must pass: a config the policy (or `--expect`) leaves out is
/// not trusted, whatever its reviews.
fn apply_gate(outcome: &mut ReviewTrust, gate: &Gate<'_>) {
    outcome.policy = Some((gate.policy.source.to_string(), gate.policy.sha256.clone()));
    outcome.gate = gate
        .judged
        .iter()
        .map(|j| {
            j.left_out_reason().map(|reason| GateLeft {
                verdict: j.verdict,
                expect_refused: j.expect_refusal.is_some(),
                reason,
            })
        })
        .collect();
    for (i, (_, met)) in outcome.configs.iter_mut().enumerate() {
        *met = *met
            && gate
                .judged
                .get(i)
                .is_some_and(|j| j.verdict == Verdict::Allowed);
    }
}

/// Who reviewed each config, for its decision record.
fn reviewed_by(outcome: &ReviewTrust) -> Vec<ReviewedBy> {
    let (file, sha256) = &outcome.allowed_signers;
    outcome
        .configs
        .iter()
        .map(|(c, _)| ReviewedBy {
            principals: c.reviewers().to_vec(),
            allowed_signers: file.clone(),
            sha256: sha256.clone(),
            required: outcome.required,
        })
        .collect()
}

/// Records what passed; with the policy gate, every decision is on disk
/// (naming who reviewed it) before anything is trusted, and the records of
/// what was trusted say so after.
fn record_gated(
    listing: &TrustListing,
    outcome: &mut ReviewTrust,
    gate: Option<&(Gate<'_>, PathBuf)>,
    env: &Env,
    io: &mut Io<'_>,
) -> Result<(), CliError> {
    let written = match gate {
        Some((g, records)) => Some(policy_trust::write_records_reviewed(
            records,
            g,
            reviewed_by(outcome),
        )?),
        None => None,
    };
    let recorded = record(listing, outcome, env, io)?;
    if let (Some((g, _)), Some(w), Some(o)) = (gate, written, recorded) {
        policy_trust::mark_trusted(g, w, &o, &listing.loc.path)?;
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
    let mut reviews = Reviews::new(&judge, judged);
    let configs = listing
        .plan
        .candidates
        .iter()
        .map(|c| {
            let s = &c.snapshot;
            let placed = place(&s.key, &s.full_block(), &s.targets);
            let shown = display_path(s.key.as_str(), &env.cwd);
            let r = reviews.judge(shown, s.requests_grants(), placed);
            let met = r.problem().is_none() && r.count() >= required;
            (r, met)
        })
        .collect();
    ReviewTrust {
        configs,
        files: reviews.notes,
        required,
        dry_run,
        store: display_path(&listing.loc.path, &env.cwd),
        refused: Vec::new(),
        allowed_signers: judged
            .signers
            .as_ref()
            .map(|s| (s.file.clone(), s.sha256.clone()))
            .unwrap_or_default(),
        policy: None,
        gate: Vec::new(),
    }
}

/// Records the configs with their reviews, each re-read and re-hashed
/// under the store lock; one that changed since is refused (and said).
/// What the store recorded, or `None` when nothing passed.
fn record(
    listing: &TrustListing,
    outcome: &mut ReviewTrust,
    env: &Env,
    io: &mut Io<'_>,
) -> Result<Option<TrustOutcome>, CliError> {
    let shown: Vec<Shown> = listing
        .plan
        .candidates
        .iter()
        .zip(&outcome.configs)
        .filter(|(_, (_, met))| *met)
        .map(|(c, _)| Shown::of_snapshot(&c.snapshot))
        .collect();
    if shown.is_empty() {
        return Ok(None);
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
    Ok(Some(o))
}

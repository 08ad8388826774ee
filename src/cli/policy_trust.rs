//! The policy side of `trust --yes --policy FILE [--expect SHA256]...
//! PATH...` and `scan --policy FILE`: the policy (given or shipped, its
//! provenance checked), the decision records of a gated trust (every
//! decision is recorded before anything is trusted), and `scan --policy`.
//! The gated trust itself runs in `cli::trust`, which imports this file,
//! never the other way round.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::cli::args::{OutputFormat, ScanArgs, TrustArgs};
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, CliResult};
use crate::cli::load::{StoreView, print_store_warnings};
use crate::cli::outcome::policy::PolicyScan;
use crate::cli::walk;
use crate::core::env::Env;
use crate::core::policy::gate::decide;
use crate::core::policy::record::RecordError;
use crate::core::policy::{
    ConfigTrust, Expectation, LoadContext, Policy, RecordHandle, ReviewedBy, RunConfig, RunSummary,
    Verdict, check_provenance, load_policy, mark_config_trusted, parse_pin, state_dir,
    trees_under_review, write_config_decision, write_run_summary,
};
use crate::core::review::discover::discover_paths;
use crate::core::review::scan::report_and_snapshot;
use crate::core::review::trust::missing_entries;
use crate::core::review::trust::outcome::{Gate, TrustOutcome};
use crate::core::store::StoreLocation;

/// The policy, given or shipped, for judging the configs under `paths`: `.`
/// and every relative root mean the trees under review (never the working
/// directory), the store's directory (when there is a store) is always
/// denied, and a workspace covering `/`, `$HOME`, a protected root, the
/// store or the records' directory is refused (exit 2).
///
/// A policy file must also come from outside the trees under review and be
/// writable by its owner alone, unless `pin` (`--policy-sha256`) names its
/// exact content (exit 2 otherwise, naming the rule).
fn policy_for(
    file: Option<&str>,
    pin: Option<&str>,
    store: Option<&StoreLocation>,
    paths: &[String],
    records: Option<&Path>,
    env: &Env,
) -> Result<Policy, CliError> {
    let fail = |e: String| CliError::usage(e);
    let pin = pin.map(parse_pin).transpose().map_err(fail)?;
    let trees = trees_under_review(paths, env);
    let ctx = LoadContext {
        env,
        anchors: &trees,
        store_dir: store.map_or(Path::new(""), StoreLocation::dir),
        state_dir: records,
    };
    let policy = load_policy(file, &ctx).map_err(|e| fail(e.to_string()))?;
    check_provenance(&policy, paths, &trees, pin.as_deref(), env)
        .map_err(|e| fail(e.to_string()))?;
    Ok(policy)
}

/// The policy of a review that writes nothing (`scan --policy`, and the
/// interactive review's `--policy`), judged as `trust --policy` judges: the
/// same anchoring and refusals as [`policy_for`], and the decision records'
/// directory denied too. Refused with exit 2, naming the file and the rule.
pub fn review_policy(
    file: Option<&str>,
    pin: Option<&str>,
    store: Option<&StoreLocation>,
    paths: &[String],
    env: &Env,
) -> Result<Policy, CliError> {
    let records = state_dir(None, env).ok();
    let mut policy = policy_for(file, pin, store, paths, records.as_deref(), env)?;
    if let Some(records) = &records {
        policy.deny_also(records, env);
    }
    Ok(policy)
}

pub use crate::cli::print::text::trust::policy_label;

/// The policy of a gated trust and the decision records' directory (which
/// it denies too).
pub fn gate_policy(
    args: &TrustArgs,
    loc: &StoreLocation,
    env: &Env,
) -> Result<(Policy, PathBuf), CliError> {
    let records = state_dir(args.state_dir.as_deref(), env);
    let mut policy = policy_for(
        args.policy.as_deref(),
        args.policy_sha256.as_deref(),
        Some(loc),
        &args.paths,
        records.as_deref().ok(),
        env,
    )?;
    let records = records.map_err(CliError::failed)?;
    policy.deny_also(&records, env);
    Ok((policy, records))
}

/// The records of one gated run: one per decision, and the run's summary.
pub struct Written {
    handles: Vec<RecordHandle>,
    run: (RecordHandle, RunSummary),
    /// With `--reviewed-by`: who reviewed each judged config, in order.
    reviewed: Vec<ReviewedBy>,
}

/// What each decision is recorded as; `reviewed` (empty without
/// `--reviewed-by`) says who reviewed each, in the gate's order.
fn config_trusts<'g>(gate: &'g Gate<'_>, reviewed: &'g [ReviewedBy]) -> Vec<ConfigTrust<'g>> {
    gate.judged
        .iter()
        .enumerate()
        .map(|(i, j)| ConfigTrust {
            config_key: j.snapshot.key.as_str(),
            block_sha256: &j.snapshot.sha256,
            policy: &gate.policy,
            decision: &j.decision,
            expect: (!gate.expected.is_empty()).then(|| Expectation {
                hashes: &gate.expected,
                matched: j.expect_refusal.is_none(),
            }),
            reviews: reviewed.get(i),
        })
        .collect()
}

/// Every decision is on disk before anything is trusted, then one summary
/// per run beside them; a record that cannot be written stops the command
/// with nothing trusted.
pub fn write_records(records: &Path, gate: &Gate<'_>) -> Result<Written, CliError> {
    write_records_reviewed(records, gate, Vec::new())
}

/// [`write_records`] for `trust --policy --reviewed-by`: each decision
/// record also names who reviewed the config (`reviewed`, in the gate's
/// order) and the allowed signers that decided it.
pub fn write_records_reviewed(
    records: &Path,
    gate: &Gate<'_>,
    reviewed: Vec<ReviewedBy>,
) -> Result<Written, CliError> {
    let nothing = |e: RecordError| CliError::failed(format!("{e}; nothing was trusted"));
    let handles = config_trusts(gate, &reviewed)
        .iter()
        .map(|trust| write_config_decision(records, trust))
        .collect::<Result<Vec<_>, _>>()
        .map_err(nothing)?;
    let configs = gate
        .judged
        .iter()
        .zip(&handles)
        .map(|(j, h)| RunConfig {
            config_key: j.snapshot.key.as_str().to_string(),
            block_sha256: j.snapshot.sha256.clone(),
            verdict: j.verdict,
            record: h.path.display().to_string(),
        })
        .collect();
    let summary = RunSummary::new(&gate.policy, configs);
    let run = write_run_summary(records, &summary).map_err(nothing)?;
    Ok(Written {
        handles,
        run: (run, summary),
        reviewed,
    })
}

/// The records of what was trusted (what `outcome` recorded and did not
/// refuse) now say so, and the run's summary what it trusted.
pub fn mark_trusted(
    gate: &Gate<'_>,
    written: Written,
    outcome: &TrustOutcome,
    store: &str,
) -> Result<(), CliError> {
    let recorded =
        |e: RecordError| CliError::failed(format!("{e}; the trust was recorded in {store}"));
    for ((j, trust), handle) in gate
        .judged
        .iter()
        .zip(&config_trusts(gate, &written.reviewed))
        .zip(&written.handles)
    {
        let key = j.snapshot.key.as_str();
        let recorded_now = outcome.shown.iter().any(|k| k == key) && !outcome.refused(key);
        if j.verdict == Verdict::Allowed && recorded_now {
            mark_config_trusted(handle, trust).map_err(recorded)?;
        }
    }
    let (handle, mut summary) = written.run;
    summary.executed = true;
    summary.trusted = outcome
        .shown
        .iter()
        .filter(|k| !outcome.refused(k))
        .cloned()
        .collect();
    handle.update(&summary).map_err(recorded)
}

/// `scan --policy FILE`: the verdicts beside the states; writes nothing.
/// The exit code is the outcome's (`PolicyScan::exit_code`).
pub fn scan_with_policy(ctx: &mut Ctx<'_, '_>, args: &ScanArgs) -> CliResult {
    let scan = judge_tree(ctx, args)?;
    let (env, io) = (ctx.env, &mut *ctx.io);
    let format = args.format;
    if format.is_ci() {
        if let Some(problem) = &scan.store_error {
            io.warn(format_args!("{problem}; every config counts as untrusted"));
        }
        walk::warn_unreadable(&scan.found, &scan.paths, env, io);
        let findings = crate::cli::ci_out::findings(
            &scan.reports,
            Some(&scan.decisions),
            &scan.found.unreadable,
            env,
        );
        crate::cli::ci_out::write(format == OutputFormat::Github, &findings, env, io)?;
        return Ok(scan.exit_code());
    }
    if format == OutputFormat::Json {
        crate::cli::print::json::scan::judged(&scan, io)?;
    } else {
        crate::cli::print::text::scan::judged(&scan, env, io)?;
    }
    walk::warn_unreadable(&scan.found, &scan.paths, env, io);
    Ok(scan.exit_code())
}

/// Walks the paths and judges every config found; one load per config
/// serves both its state and its verdict.
fn judge_tree(ctx: &mut Ctx<'_, '_>, args: &ScanArgs) -> Result<PolicyScan, CliError> {
    let (g, env, io) = (ctx.globals, ctx.env, &mut *ctx.io);
    let paths = if args.paths.is_empty() {
        vec![".".to_string()]
    } else {
        args.paths.clone()
    };
    let view = StoreView::read(g.trust_store.as_deref(), &paths, env);
    let store_warnings = view.warnings();
    print_store_warnings(&store_warnings, io);
    let (store, location, store_error) = view.or_empty();
    let policy = review_policy(
        args.policy.as_deref(),
        args.policy_sha256.as_deref(),
        location.as_ref(),
        &paths,
        env,
    )?;
    let missing = missing_entries(&store, &paths, env);
    let found = discover_paths(&paths, env, &|_| {}, &|| false).map_err(CliError::failed)?;
    let ignores = crate::cli::load::ignores_warned(env, io);
    let (reports, decisions) = found
        .keys
        .par_iter()
        .map(|key| {
            let (mut report, snapshot) = report_and_snapshot(key, env, &store);
            ignores.apply(&mut report);
            let decision = snapshot
                .filter(|s| s.requests_grants())
                .map(|s| decide(&policy, &s, env));
            (report, decision)
        })
        .unzip();
    Ok(PolicyScan {
        paths,
        policy,
        found,
        reports,
        decisions,
        store_error,
        store_warnings,
        missing,
    })
}

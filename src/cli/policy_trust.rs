//! `trust --yes --policy FILE [--expect SHA256]... PATH...` and
//! `scan --policy FILE`: CI trust bootstrap gated by a reviewed policy. Only
//! configs whose every request the policy ALLOWS (and, with `--expect`,
//! whose block hash was reviewed) are recorded; every decision is recorded
//! before anything is trusted.

use std::path::Path;

use rayon::prelude::*;
use serde::Serialize;

use crate::cli::args::{GlobalArgs, ScanArgs, TrustArgs};
use crate::cli::json_out::{JsonConfig, JsonPolicy, JsonPolicyFile, JsonTrust, Schema, to_json};
use crate::cli::paint::mark;
use crate::cli::report::{
    plan_failure, print_listing_end, print_nothing_to_do, render_table, report_commit,
    store_or_empty_warned, unreadable_exit, worst_exit,
};
use crate::cli::terminal::Values;
use crate::cli::walk;
use crate::cli::{CliError, CliResult, Io, load_store_checked, store_failure};
use crate::core::config::ConfigSnapshot;
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::display::{
    common_directory, count_config_files, describe_targets, display_path, shell_quote,
};
use crate::core::policy::gate::decide;
use crate::core::policy::{
    ConfigDecision, ConfigTrust, Expectation, LoadContext, OperationDecision, Policy, RecordHandle,
    RequestKind, RunConfig, RunSummary, Verdict, check_provenance, expect_refusal, load_policy,
    mark_config_trusted, parse_pin, state_dir, trees_under_review, write_config_decision,
    write_run_summary,
};
use crate::core::review::report::ConfigReport;
use crate::core::review::scan::report_and_snapshot;
use crate::core::review::trust::{Shown, WhenChanged, plan_trust, trust_as_shown};
use crate::core::store::StoreLocation;
use crate::tui::theme::Role;
use crate::tui::views::detail::verdict_role;

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

/// How a policy is named wherever it gates something: its path and the
/// SHA-256 of the bytes that were judged with.
pub fn policy_label(policy: &Policy) -> String {
    format!("{} (sha256 {})", policy.source, policy.sha256)
}

/// One config's outcome under the gate.
struct Judged<'a> {
    snapshot: &'a ConfigSnapshot,
    changed: bool,
    /// The policy's verdict, or DENIED when `--expect` refused the hash.
    verdict: Verdict,
    /// The policy's decision on every request, kept even when `--expect`
    /// refused the block, so that the output and the record show them.
    decision: ConfigDecision,
    expect_refusal: Option<String>,
}

/// `--expect` values, lower-cased; anything but 64 hex digits is refused.
fn expected_hashes(values: &[String]) -> Result<Vec<String>, String> {
    values
        .iter()
        .map(|v| {
            if v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit()) {
                Ok(v.to_ascii_lowercase())
            } else {
                Err(format!(
                    "--expect needs a block SHA-256 (64 hex digits), got {}",
                    shell_quote(v)
                ))
            }
        })
        .collect()
}

pub fn trust_with_policy(
    g: &GlobalArgs,
    args: &TrustArgs,
    env: &Env,
    io: &mut Io<'_>,
    mut doc: Option<&mut JsonTrust>,
) -> CliResult {
    // `--quiet` never hides what `--yes` records (the verdicts say what).
    if args.yes && !args.dry_run {
        io.escaping.unmute();
    }
    if !args.yes && !args.dry_run {
        return Err(CliError::usage(
            "--policy and --expect gate unattended trust; add --yes (or --dry-run to see the verdicts)",
        ));
    }
    let expected = expected_hashes(&args.expect).map_err(CliError::usage)?;
    let (loc, store) = load_store_checked(g, &args.paths, !args.dry_run, env, io)?;
    let records = state_dir(args.state_dir.as_deref(), env);
    let mut policy = policy_for(
        args.policy.as_deref(),
        args.policy_sha256.as_deref(),
        Some(&loc),
        &args.paths,
        records.as_deref().ok(),
        env,
    )?;
    let records = records.map_err(CliError::failed)?;
    policy.deny_also(&records, env);
    let mut plan = plan_trust(&args.paths, env, &store).map_err(|e| plan_failure(&e, io))?;
    crate::cli::report::leave_out_ignored_said(&mut plan, &args.paths, env, io)?;
    if let Some(d) = doc.as_deref_mut() {
        d.store = loc.path.clone();
        d.store_warnings =
            crate::cli::issues_text(&crate::cli::store_issues(&loc, &args.paths, env));
        d.policy = Some(JsonPolicyFile {
            path: policy.source.to_string(),
            sha256: policy.sha256.clone(),
        });
        d.listed(&plan, &store, env);
    }
    let targets = describe_targets(&args.paths, env);
    if let Some(code) = print_nothing_to_do(&plan, &targets, io)? {
        return Ok(code);
    }

    let judged: Vec<Judged<'_>> = plan
        .candidates
        .iter()
        .map(|c| {
            let decision = decide(&policy, &c.snapshot, env);
            let sha = &c.snapshot.sha256;
            let refused = !expected.is_empty() && !expected.contains(sha);
            Judged {
                snapshot: &c.snapshot,
                changed: c.changed,
                verdict: if refused {
                    Verdict::Denied
                } else {
                    decision.verdict
                },
                decision,
                expect_refusal: refused.then(|| expect_refusal(sha)),
            }
        })
        .collect();

    // Every decision is on disk before anything is trusted; a record that
    // cannot be written stops the command with nothing trusted.
    let expectations: Vec<Option<Expectation<'_>>> = judged
        .iter()
        .map(|j| {
            (!expected.is_empty()).then(|| Expectation {
                hashes: &expected,
                matched: j.expect_refusal.is_none(),
            })
        })
        .collect();
    let trusts: Vec<ConfigTrust<'_>> = judged
        .iter()
        .zip(&expectations)
        .map(|(j, expect)| ConfigTrust {
            config_key: j.snapshot.key.as_str(),
            block_sha256: &j.snapshot.sha256,
            policy: &policy,
            decision: &j.decision,
            expect: *expect,
        })
        .collect();
    let mut handles: Vec<RecordHandle> = Vec::new();
    // One summary per run, beside the decision records, written after them
    // and before anything is trusted.
    let mut run: Option<(RecordHandle, RunSummary)> = None;
    if !args.dry_run {
        for trust in &trusts {
            match write_config_decision(&records, trust) {
                Ok(h) => handles.push(h),
                Err(e) => return Err(CliError::failed(format!("{e}; nothing was trusted"))),
            }
        }
        let configs = judged
            .iter()
            .zip(&handles)
            .map(|(j, h)| RunConfig {
                config_key: j.snapshot.key.as_str().to_string(),
                block_sha256: j.snapshot.sha256.clone(),
                verdict: j.verdict,
                record: h.path.display().to_string(),
            })
            .collect();
        let summary = RunSummary::new(&policy, configs);
        match write_run_summary(&records, &summary) {
            Ok(h) => run = Some((h, summary)),
            Err(e) => return Err(CliError::failed(format!("{e}; nothing was trusted"))),
        }
    }

    writeln!(
        io.out,
        "Permission requests under {}, judged by policy {}:",
        Values.text(&targets),
        Values.text(&policy_label(&policy))
    )?;
    for j in &judged {
        print_judged(j, args.verbose, env, io)?;
    }
    print_listing_end(&plan, io)?;

    if let Some(d) = doc.as_deref_mut() {
        for j in &judged {
            let key = j.snapshot.key.as_str();
            if let Some(c) = d.configs.iter_mut().find(|c| c.key == key) {
                c.policy = Some(JsonPolicy::from(&j.decision));
            }
            let reason = match (&j.expect_refusal, j.verdict) {
                (Some(r), _) => Some(r.clone()),
                (None, Verdict::Allowed) => None,
                (None, Verdict::Denied) => Some("denied by the policy; not trusted".to_string()),
                (None, v) => Some(format!(
                    "{} by the policy: a person reviews and trusts it",
                    v.as_str()
                )),
            };
            if reason.is_some() {
                d.set_outcome(key, "leftOut", reason);
            }
        }
    }
    let mut commit_code = exit::SUCCESS;
    let allowed: Vec<&ConfigSnapshot> = judged
        .iter()
        .filter(|j| j.verdict == Verdict::Allowed)
        .map(|j| j.snapshot)
        .collect();
    if args.dry_run {
        writeln!(
            io.out,
            "Dry run: {} would be trusted in {}; nothing was written",
            count_config_files(allowed.len()),
            Values.text(&loc.path)
        )?;
    } else if !allowed.is_empty() {
        // What is recorded is what was judged and listed, re-checked under
        // the store lock; a config that changed since is left out. The
        // listing is delivered first: a stdout that cannot take it stops
        // the trust here.
        io.out.flush()?;
        let shown: Vec<Shown> = allowed.iter().map(|s| Shown::of_snapshot(s)).collect();
        let commit = match trust_as_shown(&loc, &shown, env, WhenChanged::LeaveOut) {
            Ok(c) => c,
            Err(e) => return Err(store_failure(&e)),
        };
        let refused = |key: &str| commit.refused.iter().any(|r| r.key == key);
        if let Some(d) = doc {
            for s in &shown {
                if refused(&s.key) {
                    d.set_outcome(
                        &s.key,
                        "refused",
                        Some(crate::cli::json_out::CHANGED_SINCE_SHOWN.into()),
                    );
                } else {
                    d.set_outcome(&s.key, "recorded", None);
                }
            }
        }
        // The records of what was trusted now say so.
        for ((j, trust), handle) in judged.iter().zip(&trusts).zip(&handles) {
            if j.verdict == Verdict::Allowed
                && !refused(j.snapshot.key.as_str())
                && let Err(e) = mark_config_trusted(handle, trust)
            {
                return Err(CliError::failed(format!(
                    "{e}; the trust was recorded in {}",
                    loc.path
                )));
            }
        }
        if let Some((handle, mut summary)) = run.take() {
            summary.executed = true;
            summary.trusted = shown
                .iter()
                .filter(|s| !refused(&s.key))
                .map(|s| s.key.to_string())
                .collect();
            if let Err(e) = handle.update(&summary) {
                return Err(CliError::failed(format!(
                    "{e}; the trust was recorded in {}",
                    loc.path
                )));
            }
        }
        commit_code = report_commit(&commit, &loc.path, io)?;
    } else {
        writeln!(io.out, "Nothing was trusted.")?;
    }

    let needs: Vec<&Judged<'_>> = judged
        .iter()
        .filter(|j| j.verdict == Verdict::NeedsAuth)
        .collect();
    let refused = judged.iter().filter(|j| j.expect_refusal.is_some()).count();
    let denied = judged
        .iter()
        .filter(|j| j.verdict == Verdict::Denied)
        .count()
        - refused;
    if !needs.is_empty() {
        let mut cmd = vec!["goccia-trust".to_string()];
        if let Some(typed) = &g.trust_store {
            cmd.push(shell_quote(&format!(
                "--trust-store={}",
                Values.text(typed)
            )));
        }
        match hand_off_directory(&needs, &judged, env) {
            Some(dir) => {
                cmd.push("--trust".into());
                cmd.push(shell_quote(&Values.text(&dir)));
            }
            None => {
                for j in &needs {
                    cmd.push("--trust".into());
                    cmd.push(shell_quote(
                        &Values.text(&display_path(j.snapshot.key.as_str(), &env.cwd)),
                    ));
                }
            }
        }
        writeln!(
            io.out,
            "{} need{} authorization; a person reviews and trusts {} with:\n  {}",
            count_config_files(needs.len()),
            if needs.len() == 1 { "s" } else { "" },
            if needs.len() == 1 { "it" } else { "them" },
            cmd.join(" ")
        )?;
    }
    if denied > 0 {
        writeln!(
            io.out,
            "{} denied by the policy; not trusted",
            count_config_files(denied)
        )?;
    }
    if refused > 0 {
        writeln!(
            io.out,
            "{} with a block sha256 not among --expect; not trusted",
            count_config_files(refused)
        )?;
    }
    // One precedence (`core::exit`): denied, then needs authorization, then
    // a config refused as changed since shown.
    let denied_exit = if denied + refused > 0 {
        exit::POLICY_DENIED
    } else {
        exit::SUCCESS
    };
    let needs_exit = if needs.is_empty() {
        exit::SUCCESS
    } else {
        exit::POLICY_NEEDS_AUTH
    };
    Ok(exit::worst_of([denied_exit, needs_exit, commit_code]))
}

/// GocciaScript's rule for more than three configs (goccia-reference.md
/// §12.1): one `--trust <common>/`, the deepest directory holding them all,
/// shown by the display rule (absolute when it is the working directory).
/// Only when no config the policy denied lies under it: a person following
/// the hand-off must not be walked into trusting what the gate refused.
fn hand_off_directory(needs: &[&Judged<'_>], judged: &[Judged<'_>], env: &Env) -> Option<String> {
    if needs.len() <= 3 {
        return None;
    }
    let common = common_directory(needs.iter().map(|j| j.snapshot.key.as_str()));
    let under = |key: &str| {
        common == "/"
            || key
                .strip_prefix(common.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
    };
    if judged
        .iter()
        .any(|j| j.verdict == Verdict::Denied && under(j.snapshot.key.as_str()))
    {
        return None;
    }
    let shown = if common == env.cwd {
        common.clone()
    } else {
        display_path(&common, &env.cwd)
    };
    Some(if shown.ends_with('/') {
        shown
    } else {
        format!("{shown}/")
    })
}

/// A config's request lines: one per group of requests sharing kind, risk,
/// class, verdict and reason. A group of up to three names its values
/// (`allow-read ./a, ./b: R0 …`); a larger one counts them (`allow-net: 36
/// hosts: R2 - NEEDS_AUTH — …`), as GocciaScript's hand-off names a
/// directory for more than three configs. With `verbose`, every request.
fn request_lines(ops: &[OperationDecision], verbose: bool) -> Vec<String> {
    if verbose {
        return ops.iter().map(request_line).collect();
    }
    let mut groups: Vec<Vec<&OperationDecision>> = Vec::new();
    for o in ops {
        let same = |g: &&mut Vec<&OperationDecision>| {
            g[0].operation.kind == o.operation.kind && g[0].verdict_shown() == o.verdict_shown()
        };
        match groups.iter_mut().find(same) {
            Some(g) => g.push(o),
            None => groups.push(vec![o]),
        }
    }
    groups
        .into_iter()
        .map(|g| {
            let first = g[0];
            let kind = first.operation.kind;
            if g.len() <= 3 {
                let values: Vec<String> = g.iter().map(|o| o.value_shown()).collect();
                return format!(
                    "{} {}: {}",
                    kind.name(),
                    values.join(", "),
                    first.verdict_shown()
                );
            }
            let noun = match kind {
                RequestKind::AllowNet | RequestKind::AllowNetPrivate => "hosts",
                RequestKind::AllowImportGithub => "specifiers",
                k if k.is_path() => "paths",
                _ => "requests",
            };
            format!(
                "{}: {} {noun}: {}",
                kind.name(),
                g.len(),
                first.verdict_shown()
            )
        })
        .collect()
}

fn print_judged(j: &Judged<'_>, verbose: bool, env: &Env, io: &mut Io<'_>) -> std::io::Result<()> {
    let shown = display_path(j.snapshot.key.as_str(), &env.cwd);
    let tag = if j.changed {
        mark(Role::Changed, "(changed)")
    } else {
        mark(Role::Untrusted, "(new)")
    };
    writeln!(
        io.out,
        "\n  {} {tag}: {}",
        Values.text(&shown),
        mark(verdict_role(j.verdict), j.verdict.as_str())
    )?;
    if let Some(reason) = &j.expect_refusal {
        writeln!(io.out, "    {}", Values.text(reason))?;
    }
    for line in request_lines(&j.decision.operations, verbose) {
        writeln!(io.out, "    {}", Values.text(&line))?;
    }
    Ok(())
}

/// One request as `trust --policy` and `scan --policy` print it (the
/// TUI's detail pane shows the same line).
fn request_line(o: &OperationDecision) -> String {
    o.line()
}

/// `scan --policy FILE`: the verdicts beside the states; writes nothing.
pub fn scan_with_policy(g: &GlobalArgs, args: &ScanArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
    let paths = if args.paths.is_empty() {
        vec![".".to_string()]
    } else {
        args.paths.clone()
    };
    let (store, location, store_error, store_warnings) = store_or_empty_warned(g, &paths, env, io);
    let policy = review_policy(
        args.policy.as_deref(),
        args.policy_sha256.as_deref(),
        location.as_ref(),
        &paths,
        env,
    )?;
    let found = match crate::core::review::discover::discover_paths(&paths, env, &|_| {}, &|| false)
    {
        Ok(k) => k,
        Err(e) => return Err(CliError::failed(e)),
    };
    let ignores = crate::cli::report::ignores_warned(env, io);
    // One load per config serves both its state and its verdict.
    let (reports, decisions): (Vec<ConfigReport>, Vec<Option<ConfigDecision>>) = found
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
    let format = args.format.chosen(args.json);
    if format.is_ci() {
        if let Some(problem) = &store_error {
            io.warn(format_args!("{problem}; every config counts as untrusted"));
        }
        let unreadable = walk::warn_unreadable(&found, &paths, env, io);
        let code = exit::worst(worst_exit(&reports), unreadable_exit(unreadable));
        let findings =
            crate::cli::ci_out::findings(&reports, Some(&decisions), &found.unreadable, env);
        return crate::cli::ci_out::write(
            format == crate::cli::args::OutputFormat::Github,
            &findings,
            env,
            io,
            code,
        );
    }
    if format == crate::cli::args::OutputFormat::Json {
        let configs: Vec<JsonConfig> = reports
            .iter()
            .zip(&decisions)
            .map(|(r, d)| {
                let mut c = JsonConfig::from(r);
                c.policy = d.as_ref().map(JsonPolicy::from);
                c
            })
            .collect();
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Doc {
            schema: Schema,
            configs: Vec<JsonConfig>,
            #[serde(skip_serializing_if = "Option::is_none")]
            store_error: Option<String>,
            store_warnings: Vec<String>,
            /// The policy the verdicts come from.
            policy: JsonPolicyFile,
            unreadable: Vec<walk::JsonUnreadable>,
            not_followed: Vec<walk::JsonNotFollowed>,
        }
        io.out.write_all(
            to_json(&Doc {
                schema: Schema::default(),
                configs,
                store_error,
                store_warnings,
                policy: JsonPolicyFile {
                    path: policy.source.to_string(),
                    sha256: policy.sha256.clone(),
                },
                unreadable: found.unreadable.iter().map(Into::into).collect(),
                not_followed: found.not_followed.iter().map(Into::into).collect(),
            })
            .as_bytes(),
        )?;
    } else {
        if let Some(problem) = &store_error {
            io.warn(format_args!("{problem}; every config counts as untrusted"));
        }
        writeln!(io.out, "Policy: {}", Values.text(&policy_label(&policy)))?;
        let shown: Vec<ConfigReport> = reports
            .iter()
            .map(|r| Values.report(r).into_owned())
            .collect();
        io.out.write_all(render_table(&shown).as_bytes())?;
        for (r, d) in shown.iter().zip(&decisions) {
            if let Some(d) = d {
                let verdict = mark(verdict_role(d.verdict), d.verdict.as_str());
                writeln!(io.out, "{}: {verdict}", r.display_path)?;
                for o in &d.operations {
                    writeln!(io.out, "    {}", Values.text(&request_line(o)))?;
                }
            }
        }
        walk::print_not_followed(&found, &paths, env, io)?;
    }
    // As `scan`: what could not be read fails the scan (a config may hide).
    let unreadable = walk::warn_unreadable(&found, &paths, env, io);
    Ok(exit::worst(
        worst_exit(&reports),
        unreadable_exit(unreadable),
    ))
}

//! `trust PATH... [--yes] [--dry-run]`, also spelled `--trust PATH [--yes]`:
//! list what each config asks for and what changed, confirm, record
//! (docs/src/compatibility.md#the-trust-listing-prompt-and-confirmation, #blank-paths-and-empty-variables).
//!
//! The steps, each deciding before anything is printed: list (a
//! [`TrustListing`]), print it in the chosen format, ask when a person is
//! there to answer, record (a [`TrustOutcome`]), print that. `--policy` and
//! `--expect` judge the listing first (`cli::policy_trust`).

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

use crate::cli::args::{GlobalArgs, TrustArgs, check_paths};
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, CliResult};
use crate::cli::io::Io;
use crate::cli::load::ignores_warned;
use crate::cli::load::{StoreView, store_failure};
use crate::cli::outcome::trust::{TrustEnd, TrustPrinter};
use crate::cli::policy_trust;
use crate::cli::print::text::trust::Reader;
use crate::cli::print::{json, text};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::display::{describe_targets, shell_quote};
use crate::core::paths::key::trust_key_for_path;
use crate::core::paths::{expand_file_name, pascal_trim};
use crate::core::policy::Policy;
use crate::core::review::ignore::leave_out_ignored;
use crate::core::review::trust::outcome::{Gate, GateEnd, TrustListing, TrustOutcome};
use crate::core::review::trust::{Shown, WhenChanged, plan_trust, trust_moved};
use crate::core::revision::review_provenance::{Why, authors_of_candidates, of_candidates};
use crate::core::store::{Store, StoreLocation};

pub fn run(ctx: &mut Ctx<'_, '_>, args: &TrustArgs) -> CliResult {
    let (g, env, io) = (ctx.globals, ctx.env, &mut *ctx.io);
    check_args(args, env)?;
    if args.policy.is_some() || !args.expect.is_empty() {
        return trust_with_policy(g, args, env, io);
    }
    // A dry run writes nothing: an unsafe store is only a warning there.
    let view = StoreView::read(g.trust_store.as_deref(), &args.paths, env);
    let store_warnings = view.warnings();
    let (loc, store) = view.checked(!args.dry_run, io)?;
    let mut listing = list(args, (loc, store, store_warnings), env, io)?;
    let why = why(args, &listing, env);
    let why = match why.is_empty() && authors_shown(args, io) {
        true => authors_of_candidates(&listing.plan.candidates, &listing.store, env),
        false => why,
    };
    let result = trust_listed(args, &mut listing, &why, env, io);
    // The process ends right after: what was listed is left to it rather
    // than freed string by string on this one thread (as `list` does).
    std::mem::forget(listing);
    result
}

/// The paths are given, well formed and exist.
pub(crate) fn check_args(args: &TrustArgs, env: &Env) -> Result<(), CliError> {
    if let Err(e) = check_paths("--trust", &args.paths) {
        return Err(CliError::usage(e.0));
    }
    for path in &args.paths {
        let expanded = expand_file_name(path, &env.cwd, &env.home);
        if crate::core::paths::input::check_input(&expanded).is_err() {
            return Err(CliError::failed(format!("--trust path not found: {path}")));
        }
    }
    Ok(())
}

/// The new and changed configs under the paths, with the ignored ones
/// left out (and said, on stderr, in every format).
pub(crate) fn list(
    args: &TrustArgs,
    store: (StoreLocation, Store, Vec<String>),
    env: &Env,
    io: &mut Io<'_>,
) -> Result<TrustListing, CliError> {
    list_judged(args, store, None, env, io)
}

/// [`list`], with a `policy` judging each config as it is listed.
pub(crate) fn list_judged(
    args: &TrustArgs,
    (loc, store, store_warnings): (StoreLocation, Store, Vec<String>),
    policy: Option<&Policy>,
    env: &Env,
    io: &mut Io<'_>,
) -> Result<TrustListing, CliError> {
    let mut plan = plan_trust(&args.paths, env, &store, policy).map_err(|e| {
        text::trust::plan_failure(&e, io);
        crate::cli::outcome::trust::plan_failed(&e)
    })?;
    let ignores = ignores_warned(env, io);
    let ignored = if ignores.ignored.is_empty() {
        Vec::new()
    } else {
        leave_out_ignored(&mut plan, &ignores, &named_files(&args.paths, env))
    };
    let listing = TrustListing {
        store_warnings,
        targets: describe_targets(&args.paths, env),
        loc,
        store,
        plan,
        ignored,
        dry_run: args.dry_run,
    };
    text::trust::left_out(&listing, env, io)?;
    Ok(listing)
}

/// `--why`: who changed each listed changed config, by key; nothing (and
/// no git read) without it.
fn why(args: &TrustArgs, listing: &TrustListing, env: &Env) -> Why {
    if args.why {
        of_candidates(&listing.plan.candidates, &listing.store, env)
    } else {
        Why::new()
    }
}

/// Whether the listing names the commit and author of each widening value
/// (issue 40 item 5): the `trust` subcommand's listing read on a terminal,
/// without `--why` (which says more) or `--json`. GocciaScript's spelling
/// (`--trust PATH`) and a listing piped keep GocciaScript's bytes.
fn authors_shown(args: &TrustArgs, io: &Io<'_>) -> bool {
    !args.why && !args.json && !args.goccia_spelling && reader(args, io).on_terminal
}

/// The trust keys of the paths that name a config file, not a directory:
/// those are trusted even when ignored.
fn named_files(paths: &[String], env: &Env) -> Vec<String> {
    paths
        .iter()
        .filter(|p| {
            let expanded = expand_file_name(p, &env.cwd, &env.home);
            crate::core::paths::input::is_file_like(expanded)
        })
        .map(|p| trust_key_for_path(p, env).0)
        .collect()
}

/// Lists, asks (or takes `--yes`), records and reports, in the chosen
/// format.
fn trust_listed(
    args: &TrustArgs,
    listing: &mut TrustListing,
    why: &Why,
    env: &Env,
    io: &mut Io<'_>,
) -> CliResult {
    let reader = reader(args, io);
    let mut printer: Box<dyn TrustPrinter> = if args.json {
        Box::new(json::trust::Json)
    } else {
        Box::new(text::trust::Text {
            reader: &reader,
            why: args.why,
        })
    };
    if let Some(nothing) = listing.nothing_to_do() {
        return end(
            printer.as_mut(),
            (listing, why),
            TrustEnd::Nothing(nothing),
            env,
            io,
        );
    }
    // `--quiet` never hides what a person is asked about, nor what
    // `--yes` records.
    if reader.prompting || (args.yes && !args.dry_run) {
        io.escaping.unmute();
    }
    printer.listing(listing, why, env, io)?;
    if args.dry_run {
        return end(printer.as_mut(), (listing, why), TrustEnd::DryRun, env, io);
    }
    if !args.json {
        // The listing is delivered before anything is recorded: a reader
        // gone, or a stdout that cannot take it, stops the trust here.
        io.out.flush()?;
    }
    if !args.yes && !confirmed(args, listing, &reader, io)? {
        return end(
            printer.as_mut(),
            (listing, why),
            TrustEnd::Declined,
            env,
            io,
        );
    }
    let outcome = record_listed(args, listing, env)?;
    let listing = &*listing;
    end(
        printer.as_mut(),
        (listing, why),
        TrustEnd::Recorded(&outcome),
        env,
        io,
    )
}

/// Records the listed configs. With `--yes` nobody waited between the
/// listing and now: a config whose files are as they were is recorded as
/// listed, not read again; an answered prompt reads every config again.
fn record_listed(
    args: &TrustArgs,
    listing: &mut TrustListing,
    env: &Env,
) -> Result<TrustOutcome, CliError> {
    let shown = match (args.yes, args.json) {
        // The text's end reads nothing of the listed configs: they move
        // into the entries recorded rather than being copied there.
        (true, false) => {
            let candidates = std::mem::take(&mut listing.plan.candidates);
            candidates.into_iter().map(Shown::from_candidate).collect()
        }
        (true, true) => listing
            .plan
            .candidates
            .iter()
            .map(Shown::of_candidate)
            .collect(),
        (false, _) => listing
            .plan
            .candidates
            .iter()
            .map(|c| Shown::of_snapshot(&c.snapshot))
            .collect(),
    };
    record_moved(&listing.loc, shown, env)
}

/// Without `--yes`: whether the person answered yes; an error when no one
/// can be asked.
fn confirmed(
    args: &TrustArgs,
    listing: &TrustListing,
    reader: &Reader,
    io: &mut Io<'_>,
) -> Result<bool, CliError> {
    if !reader.prompting {
        // GocciaScript's message for its spelling; the subcommand's own
        // name for `trust PATH`.
        let asked = if args.goccia_spelling {
            "--trust"
        } else {
            "trust"
        };
        return Err(CliError::usage(format!(
            "{asked} needs confirmation; re-run with --yes to trust without a prompt"
        )));
    }
    Ok(ask(listing.plan.candidates.len(), reader, io)?)
}

/// The end of a plain trust, in the printer's format (a config refused
/// because it changed since shown is said on stderr in every format);
/// returns its exit code.
fn end(
    printer: &mut dyn TrustPrinter,
    (listing, why): (&TrustListing, &Why),
    end: TrustEnd<'_>,
    env: &Env,
    io: &mut Io<'_>,
) -> CliResult {
    if let TrustEnd::Recorded(o) = &end {
        text::trust::refused(o, io);
    }
    printer.end(listing, why, &end, env, io)?;
    Ok(end.exit_code())
}

/// Who reads the listing, and where it goes: a person answers a prompt
/// only when stdin is a terminal and the listing can reach one; the
/// listing and prompt go to stderr when stdout is a file or a pipe (`|
/// tee` would otherwise show them twice).
fn reader(args: &TrustArgs, io: &Io<'_>) -> Reader {
    let escaping = io.escaping;
    let prompting = !args.yes
        && !args.dry_run
        && !args.json
        && std::io::stdin().is_terminal()
        && (escaping.stdout_is_terminal() || escaping.stderr_is_terminal());
    let on_stderr = prompting && !escaping.stdout_is_terminal();
    let on_terminal = if on_stderr {
        escaping.stderr_is_terminal()
    } else {
        escaping.stdout_is_terminal()
    };
    Reader {
        prompting,
        on_stderr,
        on_terminal,
    }
}

/// Asks `Trust N config files? [y/N]` where the listing went; `y` or `yes`
/// (any case, trimmed) is a yes, anything else (end of input too) a no.
fn ask(count: usize, reader: &Reader, io: &mut Io<'_>) -> std::io::Result<bool> {
    let prompt: &mut dyn Write = if reader.on_stderr { io.err } else { io.out };
    text::trust::prompt(count, prompt)?;
    let mut answer = String::new();
    let _ = std::io::stdin().lock().read_line(&mut answer);
    let answer = pascal_trim(&answer).to_ascii_lowercase();
    Ok(answer == "y" || answer == "yes")
}

/// Records what was shown, re-checked under the store lock; a config that
/// changed since is left out (exit 1).
pub(crate) fn record(
    loc: &StoreLocation,
    shown: &[Shown<'_>],
    env: &Env,
) -> Result<TrustOutcome, CliError> {
    record_moved(loc, shown.to_vec(), env)
}

/// [`record`], taking what was shown (what it owns is moved into the
/// entries recorded).
fn record_moved(
    loc: &StoreLocation,
    shown: Vec<Shown<'_>>,
    env: &Env,
) -> Result<TrustOutcome, CliError> {
    let keys = shown.iter().map(|s| s.key.to_string()).collect();
    let commit =
        trust_moved(loc, shown, env, WhenChanged::LeaveOut).map_err(|e| store_failure(&e))?;
    Ok(TrustOutcome::new(keys, commit))
}

/// `--expect` values, lower-cased; anything but 64 hex digits is refused.
pub(crate) fn expected_hashes(values: &[String]) -> Result<Vec<String>, String> {
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

/// `--policy`/`--expect`: the listing judged, every decision recorded,
/// and only what the gate allows trusted.
fn trust_with_policy(g: &GlobalArgs, args: &TrustArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
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
    let view = StoreView::read(g.trust_store.as_deref(), &args.paths, env);
    let store_warnings = view.warnings();
    let (loc, store) = view.checked(!args.dry_run, io)?;
    let (policy, records) = policy_trust::gate_policy(args, &loc, env)?;
    let listing = list_judged(args, (loc, store, store_warnings), Some(&policy), env, io)?;
    let why = why(args, &listing, env);
    let mut gate = Gate {
        policy,
        expected,
        judged: Vec::new(),
    };
    if let Some(nothing) = listing.nothing_to_do() {
        if args.json {
            json::trust::print(&listing, &why, Some(&gate), None, env, io)?;
        } else {
            text::trust::nothing_to_do(nothing, &listing, io)?;
        }
        return Ok(exit::SUCCESS);
    }
    gate.judge(&listing);
    let end = gate_listed(args, (&listing, &why), &gate, &records, env, io)?;
    if let Some(o) = &end.outcome {
        text::trust::refused(o, io);
    }
    if args.json {
        json::trust::print(&listing, &why, Some(&gate), end.outcome.as_ref(), env, io)?;
    } else {
        text::trust::gate_end(&end, &gate, &listing, g.trust_store.as_deref(), env, io)?;
    }
    Ok(end.code)
}

/// Records the decisions (not on a dry run), lists the verdicts as text,
/// trusts what the gate allowed, and marks its records; what it comes to.
fn gate_listed(
    args: &TrustArgs,
    (listing, why): (&TrustListing, &Why),
    gate: &Gate<'_>,
    records: &Path,
    env: &Env,
    io: &mut Io<'_>,
) -> Result<GateEnd, CliError> {
    let written = if args.dry_run {
        None
    } else {
        Some(policy_trust::write_records(records, gate)?)
    };
    if !args.json {
        text::trust::gate_listing(gate, (listing, why), args.verbose, env, io)?;
    }
    let mut outcome = None;
    if let Some(written) = written
        && gate.allowed().next().is_some()
    {
        if !args.json {
            // The listing is delivered first: a stdout that cannot take it
            // stops the trust here.
            io.out.flush()?;
        }
        let shown: Vec<Shown> = gate
            .allowed()
            .map(|j| Shown::of_snapshot(j.snapshot))
            .collect();
        let o = record(&listing.loc, &shown, env)?;
        policy_trust::mark_trusted(gate, written, &o, &listing.loc.path)?;
        outcome = Some(o);
    }
    Ok(GateEnd::new(gate, outcome, env))
}

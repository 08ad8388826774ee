//! `trust PATH... [--yes] [--dry-run]`, also spelled `--trust PATH [--yes]`:
//! list what each config asks for and what changed, confirm, record
//! (goccia-reference.md §12.2, §15.1–§15.3).

use std::io::{BufRead, IsTerminal, Write};

use crate::cli::args::{GlobalArgs, TrustArgs, check_paths};
use crate::cli::json_out::{CHANGED_SINCE_SHOWN, JsonTrust, to_json};
use crate::cli::report::{
    plan_failure, print_listing, print_listing_to, print_nothing_to_do, report_commit,
};
use crate::cli::terminal::Values;
use crate::cli::{
    CliError, CliResult, Io, issues_text, load_store_checked, store_failure, store_issues,
};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::display::{count_config_files, describe_targets};
use crate::core::paths::{expand_file_name, pascal_trim};
use crate::core::review::trust::{Shown, WhenChanged, plan_trust, trust_as_shown};

pub fn run(g: &GlobalArgs, args: &TrustArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
    if !args.json {
        return trust(g, args, env, io, None);
    }
    // `--json`: the same run with its text on stdout thrown away, then one
    // document of what became of each listed config. Warnings and errors
    // still go to stderr.
    let mut doc = JsonTrust {
        dry_run: args.dry_run,
        ..JsonTrust::default()
    };
    let code = {
        let mut sink = std::io::sink();
        let mut quiet = Io {
            out: &mut sink,
            err: &mut *io.err,
            escaping: io.escaping,
        };
        trust(g, args, env, &mut quiet, Some(&mut doc))?
    };
    io.out.write_all(to_json(&doc).as_bytes())?;
    Ok(code)
}

fn trust(
    g: &GlobalArgs,
    args: &TrustArgs,
    env: &Env,
    io: &mut Io<'_>,
    mut doc: Option<&mut JsonTrust>,
) -> CliResult {
    if let Err(e) = check_paths("--trust", &args.paths) {
        return Err(CliError::usage(e.0));
    }
    for path in &args.paths {
        let expanded = expand_file_name(path, &env.cwd, &env.home);
        if std::fs::metadata(&expanded).is_err() {
            return Err(CliError::failed(format!("--trust path not found: {path}")));
        }
    }
    if args.policy.is_some() || !args.expect.is_empty() {
        return crate::cli::policy_trust::trust_with_policy(g, args, env, io, doc);
    }
    // A dry run writes nothing: an unsafe store is only a warning there.
    let (loc, store) = load_store_checked(g, &args.paths, !args.dry_run, env, io)?;
    let mut plan = plan_trust(&args.paths, env, &store).map_err(|e| plan_failure(&e, io))?;
    crate::cli::report::leave_out_ignored_said(&mut plan, &args.paths, env, io)?;
    if let Some(d) = doc.as_deref_mut() {
        d.store = loc.path.clone();
        d.store_warnings = issues_text(&store_issues(&loc, &args.paths, env));
        d.listed(&plan, &store, env);
    }
    let targets = describe_targets(&args.paths, env);
    if let Some(code) = print_nothing_to_do(&plan, &targets, io)? {
        return Ok(code);
    }
    // A person answers a prompt only when stdin is a terminal and the
    // listing can reach one: the listing and prompt go to stderr when
    // stdout is a file or a pipe (`| tee` would otherwise show them twice).
    let prompting = !args.yes
        && !args.dry_run
        && !args.json
        && std::io::stdin().is_terminal()
        && (io.escaping.stdout_is_terminal() || io.escaping.stderr_is_terminal());
    // `--quiet` never hides what a person is asked about, nor what
    // `--yes` records.
    if prompting || (args.yes && !args.dry_run) {
        io.escaping.unmute();
    }
    let listing_on_stderr = prompting && !io.escaping.stdout_is_terminal();
    let count = count_config_files(plan.candidates.len());
    // A person reading the listing on a terminal gets a changed config
    // value by value (issue 30); a pipe or a file, GocciaScript's lines.
    let on_terminal = if listing_on_stderr {
        io.escaping.stderr_is_terminal()
    } else {
        io.escaping.stdout_is_terminal()
    };
    let by_value = on_terminal.then_some(&store);
    if listing_on_stderr {
        print_listing_to(&plan, &targets, env, by_value, io.err)?;
    } else {
        print_listing(&plan, &targets, env, by_value, io)?;
    }
    if args.dry_run {
        writeln!(
            io.out,
            "Dry run: {count} would be trusted in {}; nothing was written",
            Values.text(&loc.path)
        )?;
        return Ok(exit::SUCCESS);
    }
    // The listing is delivered before anything is recorded: a reader gone,
    // or a stdout that cannot take it, stops the trust here.
    io.out.flush()?;
    if !args.yes {
        if !prompting {
            return Err(CliError::usage(
                "--trust needs confirmation; re-run with --yes to trust without a prompt",
            ));
        }
        let prompt: &mut dyn Write = if listing_on_stderr { io.err } else { io.out };
        write!(prompt, "Trust {count}? [y/N] ")?;
        prompt.flush()?;
        let mut answer = String::new();
        let _ = std::io::stdin().lock().read_line(&mut answer);
        let answer = pascal_trim(&answer).to_ascii_lowercase();
        if answer != "y" && answer != "yes" {
            writeln!(io.out, "Nothing was trusted.")?;
            return Ok(exit::FAILURE);
        }
    }
    let shown: Vec<Shown> = plan
        .candidates
        .iter()
        .map(|c| Shown::of_snapshot(&c.snapshot))
        .collect();
    let result = match trust_as_shown(&loc, &shown, env, WhenChanged::LeaveOut) {
        Ok(commit) => {
            if let Some(d) = doc {
                for s in &shown {
                    if commit.refused.iter().any(|r| r.key == s.key) {
                        d.set_outcome(&s.key, "refused", Some(CHANGED_SINCE_SHOWN.into()));
                    } else {
                        d.set_outcome(&s.key, "recorded", None);
                    }
                }
            }
            report_commit(&commit, &loc.path, io)
        }
        Err(e) => Err(store_failure(&e)),
    };
    // The process ends right after: what was listed is left to it rather
    // than freed string by string on this one thread (as `list` does).
    std::mem::forget(plan);
    std::mem::forget(shown);
    std::mem::forget(store);
    result
}

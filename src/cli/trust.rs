//! `trust PATH... [--yes] [--dry-run]`, also spelled `--trust PATH [--yes]`:
//! list what each config asks for and what changed, confirm, record
//! (goccia-reference.md §12.2, §15.1–§15.3).

use std::io::{BufRead, IsTerminal, Write};

use crate::cli::args::{GlobalArgs, TrustArgs, check_paths};
use crate::cli::terminal::Values;
use crate::cli::{Io, load_store_checked, store_failure};
use crate::core::destination::with_destinations;
use crate::core::display::{count_config_files, describe_targets, display_path};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::paths::{expand_file_name, pascal_trim};
use crate::core::trust::{
    PlanError, Shown, TrustCommit, TrustPlan, WhenChanged, plan_trust, trust_as_shown,
};

pub fn run(g: &GlobalArgs, args: &TrustArgs, env: &Env, io: &mut Io<'_>) -> u8 {
    if let Err(e) = check_paths("--trust", &args.paths) {
        io.error(e.0);
        return exit::USAGE;
    }
    for path in &args.paths {
        let expanded = expand_file_name(path, &env.cwd, &env.home);
        if std::fs::metadata(&expanded).is_err() {
            io.error(format!("--trust path not found: {path}"));
            return exit::FAILURE;
        }
    }
    if args.policy.is_some() || !args.expect.is_empty() {
        return crate::cli::policy_trust::trust_with_policy(g, args, env, io);
    }
    // A dry run writes nothing: an unsafe store is only a warning there.
    let (loc, store) = match load_store_checked(g, &args.paths, !args.dry_run, env, io) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let plan = match plan_trust(&args.paths, env, &store) {
        Ok(plan) => plan,
        Err(e) => return plan_failure(&e, io),
    };
    let targets = describe_targets(&args.paths, env);
    if let Some(code) = print_nothing_to_do(&plan, &targets, io) {
        return code;
    }
    // A person answers a prompt only when stdin is a terminal and the
    // listing can reach one: then config text is escaped on every stream,
    // and the listing and prompt go to stderr when stdout is a file or a
    // pipe (`| tee` would otherwise show them twice, and raw).
    let prompting = !args.yes
        && !args.dry_run
        && std::io::stdin().is_terminal()
        && (io.escaping.stdout_is_terminal() || io.escaping.stderr_is_terminal());
    if prompting {
        io.escaping.prompting();
    }
    let listing_on_stderr = prompting && !io.escaping.stdout_is_terminal();
    let count = count_config_files(plan.candidates.len());
    if listing_on_stderr {
        let values = io.escaping.err();
        print_listing_to(&plan, &targets, env, io.err, values);
    } else {
        print_listing(&plan, &targets, env, io);
    }
    if args.dry_run {
        let _ = writeln!(
            io.out,
            "Dry run: {count} would be trusted in {}; nothing was written",
            loc.path
        );
        return exit::SUCCESS;
    }
    if !args.yes {
        if !prompting {
            let _ = io.out.flush();
            io.error("--trust needs confirmation; re-run with --yes to trust without a prompt");
            return exit::USAGE;
        }
        let prompt: &mut dyn Write = if listing_on_stderr { io.err } else { io.out };
        let _ = write!(prompt, "Trust {count}? [y/N] ");
        let _ = prompt.flush();
        let mut answer = String::new();
        let _ = std::io::stdin().lock().read_line(&mut answer);
        let answer = pascal_trim(&answer).to_ascii_lowercase();
        if answer != "y" && answer != "yes" {
            let _ = writeln!(io.out, "Nothing was trusted.");
            return exit::FAILURE;
        }
    }
    let shown: Vec<Shown> = plan
        .candidates
        .iter()
        .map(|c| Shown::of_snapshot(&c.snapshot))
        .collect();
    match trust_as_shown(&loc, &shown, env, WhenChanged::LeaveOut) {
        Ok(commit) => report_commit(&commit, &loc.path, io),
        Err(e) => store_failure(&e, io),
    }
}

/// `Trusted N …` for what was recorded, and one `Refused:` line on stderr
/// for each config that changed since it was listed (exit 1 then).
pub fn report_commit(commit: &TrustCommit, store_path: &str, io: &mut Io<'_>) -> u8 {
    for r in &commit.refused {
        let path = io.escaping.err().text(&r.display_path).into_owned();
        let _ = writeln!(io.err, "Refused: {path} changed since shown; not trusted");
    }
    if commit.recorded > 0 {
        let _ = writeln!(
            io.out,
            "Trusted {} in {store_path}",
            count_config_files(commit.recorded)
        );
    } else {
        let _ = writeln!(io.out, "Nothing was trusted.");
    }
    if commit.refused.is_empty() {
        exit::SUCCESS
    } else {
        exit::FAILURE
    }
}

/// A config that fails to load fails the command with its own error and exit
/// class; a walk failure is exit 1.
pub fn plan_failure(e: &PlanError, io: &mut Io<'_>) -> u8 {
    // Each quotes paths and text from the tree under review.
    match e {
        PlanError::Config(c) => {
            io.error_text(&c.to_string());
            c.class.code()
        }
        PlanError::Discover(d) => {
            io.error_text(&d.to_string());
            exit::FAILURE
        }
        PlanError::Unreadable { items, .. } => {
            let values = io.escaping.err();
            for u in items {
                let _ = writeln!(
                    io.err,
                    "Warning: cannot read {}: {}",
                    values.text(&u.path),
                    u.reason
                );
            }
            io.error_text(&e.to_string());
            exit::FAILURE
        }
    }
}

/// `No config under … requests permissions` and the already-trusted lines.
pub fn print_nothing_to_do(plan: &TrustPlan, targets: &str, io: &mut Io<'_>) -> Option<u8> {
    if plan.requesting() == 0 {
        let _ = writeln!(io.out, "No config under {targets} requests permissions");
        print_not_followed(plan, io);
        return Some(exit::SUCCESS);
    }
    if plan.candidates.is_empty() {
        if plan.unchanged == 1 {
            let _ = writeln!(io.out, "The config file under {targets} is already trusted");
        } else {
            let _ = writeln!(
                io.out,
                "All {} config files under {targets} are already trusted",
                plan.unchanged
            );
        }
        print_not_followed(plan, io);
        return Some(exit::SUCCESS);
    }
    None
}

/// The listing of §15.2 on stdout, escaped as stdout's rule says.
pub fn print_listing(plan: &TrustPlan, targets: &str, env: &Env, io: &mut Io<'_>) {
    let values = io.escaping.out();
    print_listing_to(plan, targets, env, io.out, values);
}

/// The listing of §15.2, ending with its always-present empty line, each
/// scope that leads elsewhere followed by its destination; config text
/// escaped as `values` says for the stream `w` is.
pub fn print_listing_to(
    plan: &TrustPlan,
    targets: &str,
    env: &Env,
    w: &mut dyn Write,
    values: Values,
) {
    let _ = writeln!(w, "Permission requests under {}:", values.text(targets));
    for c in &plan.candidates {
        let shown = display_path(c.snapshot.key.as_str(), &env.cwd);
        let tag = if c.changed { "changed" } else { "new" };
        let _ = writeln!(w, "\n  {} ({tag})", values.text(&shown));
        let lines = values.lines(&c.lines);
        let targets = values.pairs(&c.snapshot.targets.to_pairs());
        for line in with_destinations(&lines, &targets) {
            let _ = writeln!(w, "{}", line.render());
        }
    }
    listing_end(plan, w, values);
}

/// The end of every `--trust` listing: the skipped count, when any, then the
/// empty line that always precedes the ending (§15.2 steps 3 and 4).
pub fn print_listing_end(plan: &TrustPlan, io: &mut Io<'_>) {
    listing_end(plan, io.out, io.escaping.out());
}

fn listing_end(plan: &TrustPlan, w: &mut dyn Write, values: Values) {
    if !plan.not_followed.is_empty() {
        let _ = writeln!(w);
        for line in &plan.not_followed {
            let _ = writeln!(w, "  {}", values.text(line));
        }
    }
    if plan.unchanged > 0 {
        let _ = writeln!(
            w,
            "\n  {} more already trusted and unchanged.",
            plan.unchanged
        );
    }
    let _ = writeln!(w);
}

/// The directory links out of the paths, which were not walked: our
/// addition to GocciaScript's lines, so nothing behind them passes unseen.
fn print_not_followed(plan: &TrustPlan, io: &mut Io<'_>) {
    let values = io.escaping.out();
    for line in &plan.not_followed {
        let _ = writeln!(io.out, "{}", values.text(line));
    }
}

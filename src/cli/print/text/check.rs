//! `check`'s result as text: each config and its state when nothing would
//! block the run, else GocciaScript's report (docs/src/compatibility.md#the-untrusted-run-report) as
//! the command's error.

use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::cli::outcome::check::CheckOutcome;
use crate::cli::terminal::Values;
use crate::cli::walk::{write_not_followed, write_warnings};
use crate::core::env::Env;
use crate::core::review::check::{ReportContext, StoreProblem, untrusted_report};
use crate::core::review::destination::destinations;
use crate::core::review::report::ConfigReport;
use crate::core::review::results::CheckResult;
use crate::style::paint::{STYLED, mark};
use crate::style::roles::state_role;

pub fn print(
    result: &CheckResult,
    outcome: &CheckOutcome<'_>,
    io: &mut Io<'_>,
) -> Result<(), CliError> {
    write_warnings(&result.store_warnings, io);
    // Every config is loaded before anything runs: the first that fails
    // ends the command with its own error and exit class (the outcome's).
    if let CheckOutcome::LoadFailed(_) = outcome {
        return Ok(());
    }
    write_warnings(&result.unreadable, io);
    // A blocked run ends with GocciaScript's report ([`report`]) as the
    // outcome's error.
    if let CheckOutcome::Blocked(..) = outcome {
        write_not_followed(&result.not_followed, io)?;
        return Ok(());
    }
    let values = Values;
    for r in &result.reports {
        let r = values.report(r);
        let state = mark(state_role(r.state), &format!("({})", r.state.label()));
        writeln!(io.out, "{} {state}", r.display_path)?;
        for d in destinations(&r.lines, r.targets()) {
            writeln!(io.out, "{}", d.render())?;
        }
    }
    write_not_followed(&result.not_followed, io)?;
    Ok(())
}

/// GocciaScript's report of the configs that block the run, which the
/// outcome makes the command's error (`CheckOutcome::error`). Every value
/// in its lines is escaped here, as it is made of config paths, the
/// store's path and problem, and arguments.
pub fn report(result: &CheckResult, blocking: &[&ConfigReport], env: &Env) -> String {
    let values = Values;
    let text = |s: &str| values.text(s).into_owned();
    let store_path = result.store_path.as_deref().map(text);
    let typed = result.trust_store_as_typed.as_deref().map(text);
    let inputs: Vec<String> = result.args.iter().map(|a| text(a)).collect();
    let runner = text(&result.runner);
    let ctx = ReportContext {
        env,
        store_path: store_path.as_deref(),
        store_problem: result.store_problem.as_ref().map(|p| match p {
            StoreProblem::CannotLocate(r) => StoreProblem::CannotLocate(text(r)),
            StoreProblem::Unreadable(m) => StoreProblem::Unreadable(text(m)),
        }),
        trust_store_as_typed: typed.as_deref(),
        original_args: &inputs,
        runner: &runner,
        suggest_runs: !result.config_input,
        style: STYLED,
    };
    let shown: Vec<ConfigReport> = blocking
        .iter()
        .map(|r| values.report(r).into_owned())
        .collect();
    let shown: Vec<&ConfigReport> = shown.iter().collect();
    untrusted_report(&shown, &ctx)
}

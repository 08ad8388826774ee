//! `check`'s result where CI looks: SARIF or GitHub annotations, every
//! finding at once, errors included (`cli::ci_out`).

use crate::cli::ci_out;
use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::cli::walk::write_warnings;
use crate::core::env::Env;
use crate::core::review::results::CheckResult;

pub fn print(
    result: &CheckResult,
    github: bool,
    env: &Env,
    io: &mut Io<'_>,
) -> Result<(), CliError> {
    write_warnings(&result.store_warnings, io);
    write_warnings(&result.unreadable, io);
    let findings = ci_out::findings(&result.reports, None, &result.found.unreadable, env);
    ci_out::write(github, &findings, env, io)
}

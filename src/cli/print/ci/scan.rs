//! `scan`'s result where CI looks: SARIF or GitHub annotations, every
//! config's finding at once (`cli::ci_out`).

use crate::cli::ci_out;
use crate::cli::error::CliResult;
use crate::cli::io::Io;
use crate::cli::print::text::scan::warnings;
use crate::cli::walk::write_warnings;
use crate::core::env::Env;
use crate::core::review::report::worst_exit;
use crate::core::review::results::ScanResult;

pub fn print(result: &ScanResult, github: bool, env: &Env, io: &mut Io<'_>) -> CliResult {
    warnings(result, io);
    let mut reports = Vec::with_capacity(result.found.keys.len());
    let _ = result.for_each_config(env, |r| {
        reports.push(r);
        Ok::<_, std::convert::Infallible>(())
    });
    if let Some(problem) = &result.store_error {
        io.warn(format_args!("{problem}; every config counts as untrusted"));
    }
    write_warnings(&result.unreadable, io);
    let worst = worst_exit(&reports);
    let findings = ci_out::findings(&reports, None, &result.found.unreadable, env);
    ci_out::write(github, &findings, env, io, result.exit_code(worst))
}

//! `scan`'s result where CI looks: SARIF or GitHub annotations, every
//! config's finding at once (`cli::ci_out`).

use crate::cli::ci_out;
use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::cli::outcome::scan::{Configs, ScanSink};
use crate::cli::print::text::scan::warnings;
use crate::cli::walk::write_warnings;
use crate::core::env::Env;
use crate::core::review::results::ScanResult;

/// `scan` as SARIF (`github` false) or workflow commands: every config
/// gathered, then written at once.
pub struct Ci<'a> {
    pub github: bool,
    pub env: &'a Env,
}

impl ScanSink for Ci<'_> {
    fn write(
        &mut self,
        result: &ScanResult,
        configs: &Configs<'_>,
        io: &mut Io<'_>,
    ) -> Result<(), CliError> {
        warnings(result, io);
        let mut reports = Vec::with_capacity(result.found.keys.len());
        let _ = configs.each(|r| {
            reports.push(r);
            Ok::<_, std::convert::Infallible>(())
        });
        if let Some(problem) = &result.store_error {
            io.warn(format_args!("{problem}; every config counts as untrusted"));
        }
        write_warnings(&result.unreadable, io);
        let findings = ci_out::findings(&reports, None, &result.found.unreadable, self.env);
        ci_out::write(self.github, &findings, self.env, io)
    }
}

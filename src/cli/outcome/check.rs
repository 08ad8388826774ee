//! `check`'s outcome: how the check ends and its exit code, decided from
//! the result before a printer writes it.

use crate::cli::error::CliError;
use crate::core::error::ConfigError;
use crate::core::exit;
use crate::core::review::report::ConfigReport;
use crate::core::review::results::CheckResult;

/// How a check ends.
pub enum CheckOutcome<'a> {
    /// Text and JSON: the first config that fails to load ends the command
    /// with its own error and exit class.
    LoadFailed(&'a ConfigError),
    /// Text and JSON: these configs would block the run; GocciaScript's
    /// report is the command's error, exit 2, which wins over what could
    /// not be read (exit 1).
    Blocked(Vec<&'a ConfigReport>, u8),
    /// Text and JSON: nothing blocks; what could not be read still fails
    /// the check (a config may hide there).
    Clear(u8),
    /// SARIF and workflow commands: every finding counted (a config's
    /// error class, 2 when a run would be blocked, 1 for what could not be
    /// read), nothing is an error.
    Counted(u8),
}

impl CheckOutcome<'_> {
    pub fn exit_code(&self) -> u8 {
        match self {
            CheckOutcome::LoadFailed(e) => e.class.code(),
            CheckOutcome::Blocked(_, code)
            | CheckOutcome::Clear(code)
            | CheckOutcome::Counted(code) => *code,
        }
    }

    /// The error a check in text or JSON ends with, after its printer
    /// wrote: the first config's load error, or GocciaScript's report of
    /// the configs that block the run (`report` writes it), each with the
    /// outcome's code.
    pub fn error(&self, report: impl FnOnce(&[&ConfigReport]) -> String) -> Option<CliError> {
        match self {
            CheckOutcome::LoadFailed(e) => Some(CliError::new(self.exit_code(), e)),
            CheckOutcome::Blocked(blocking, code) => {
                Some(CliError::report(*code, report(blocking)))
            }
            CheckOutcome::Clear(_) | CheckOutcome::Counted(_) => None,
        }
    }
}

/// Decides how `result` ends, for a CI format (`ci`) or for people and
/// JSON.
pub fn decide(result: &CheckResult, ci: bool) -> CheckOutcome<'_> {
    if ci {
        return CheckOutcome::Counted(result.exit_code());
    }
    if let Some(err) = result.load_error() {
        return CheckOutcome::LoadFailed(err);
    }
    let blocking = result.blocking();
    if blocking.is_empty() {
        CheckOutcome::Clear(result.unreadable_exit())
    } else {
        let code = exit::worst(exit::USAGE, result.unreadable_exit());
        CheckOutcome::Blocked(blocking, code)
    }
}

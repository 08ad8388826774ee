//! `list`'s outcome: the store's entries against their configs
//! (`core::review::results::ListResult`) or the ignore list
//! (`IgnoredResult`), each with the exit code the command ends with. The
//! printers of `cli::print::{text,json}::list` write the result.

use crate::core::exit;
use crate::core::review::report::EntryStatus;
use crate::core::review::results::{IgnoredResult, ListResult};

/// `list`: the entries, and whether `--exit-code` was given.
pub struct ListOutcome {
    pub result: ListResult,
    /// `--exit-code`: a stale entry fails the command.
    pub exit_code_asked: bool,
}

impl ListOutcome {
    /// 0, but 1 with `--exit-code` when a trusted config is no longer the
    /// one that was trusted (changed, or does not load) or is gone: a CI
    /// step fails then.
    pub fn exit_code(&self) -> u8 {
        let stale = self
            .result
            .reports
            .iter()
            .any(|r| r.status != EntryStatus::Ok);
        if self.exit_code_asked && stale {
            exit::FAILURE
        } else {
            exit::SUCCESS
        }
    }
}

/// `list --ignored`: the ignore list, each config as it is now.
pub struct IgnoredOutcome {
    pub result: IgnoredResult,
}

impl IgnoredOutcome {
    /// Always 0: an ignored config that changed or is gone is shown, it
    /// fails nothing.
    pub fn exit_code(&self) -> u8 {
        exit::SUCCESS
    }
}

//! `list`'s outcome: the store's entries against their configs
//! (`core::review::results::ListResult`) or the ignore list
//! (`IgnoredResult`), each with the exit code the command ends with. The
//! entries stream from the store to the printer ([`Entries`]), which counts
//! a stale one as it passes; the printers of `cli::print::{text,json}::list`
//! write them and never decide a code.

use std::cell::Cell;

use crate::cli::error::CliError;
use crate::core::env::Env;
use crate::core::exit;
use crate::core::review::report::{EntryStatus, StoreEntryReport};
use crate::core::review::results::{IgnoredResult, ListResult};
use crate::core::store::StoredEntry;

/// `list`: the store, and whether `--exit-code` was given.
pub struct ListOutcome {
    pub result: ListResult,
    /// `--exit-code`: a stale entry fails the command.
    pub exit_code_asked: bool,
}

/// The entries of a listing, each checked against its config as a printer
/// asks for it (a long store's reports are never held together), with
/// whether any is stale noted on the way.
pub struct Entries<'a> {
    result: &'a ListResult,
    env: &'a Env,
    stale: Cell<bool>,
}

impl Entries<'_> {
    /// Hands each entry and its report to `each`, in store order; stops at
    /// `each`'s first error.
    pub fn each<E>(
        &self,
        mut each: impl FnMut(&str, &StoredEntry, StoreEntryReport) -> Result<(), E>,
    ) -> Result<(), E> {
        self.result
            .for_each_report(self.env, |key, stored, report| {
                if report.status != EntryStatus::Ok {
                    self.stale.set(true);
                }
                each(key, stored, report)
            })
    }
}

impl ListOutcome {
    /// Streams the entries through `print` and decides the exit code: 0,
    /// but 1 with `--exit-code` when a trusted config is no longer the one
    /// that was trusted (changed, or does not load) or is gone: a CI step
    /// fails then.
    pub fn stream(
        &self,
        env: &Env,
        print: impl FnOnce(&ListResult, &Entries<'_>) -> Result<(), CliError>,
    ) -> Result<u8, CliError> {
        let entries = Entries {
            result: &self.result,
            env,
            stale: Cell::new(false),
        };
        print(&self.result, &entries)?;
        Ok(if self.exit_code_asked && entries.stale.get() {
            exit::FAILURE
        } else {
            exit::SUCCESS
        })
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

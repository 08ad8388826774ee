//! `trust`'s outcome (without `--policy`): listing, then prompt, then
//! record, each step deciding before anything is printed. The listing
//! (`core::review::trust::outcome::TrustListing`) and how the trust ended
//! ([`TrustEnd`], with its exit code) are what both printers print: the
//! text and the JSON of [`TrustPrinter`].

use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::core::env::Env;
use crate::core::exit;
use crate::core::review::trust::PlanError;
use crate::core::review::trust::outcome::{NothingToDo, TrustListing, TrustOutcome};
use crate::core::revision::review_provenance::Why;

/// How a trust ended.
pub enum TrustEnd<'a> {
    /// Nothing to trust under the paths.
    Nothing(NothingToDo),
    /// `--dry-run`: nothing was written.
    DryRun,
    /// The person answered no: nothing was trusted (exit 1).
    Declined,
    /// What was shown was recorded, re-checked under the store lock.
    Recorded(&'a TrustOutcome),
}

impl TrustEnd<'_> {
    /// 0, but 1 when the person declined or a config changed since it was
    /// shown (the record's own code).
    pub fn exit_code(&self) -> u8 {
        match self {
            TrustEnd::Nothing(_) | TrustEnd::DryRun => exit::SUCCESS,
            TrustEnd::Declined => exit::FAILURE,
            TrustEnd::Recorded(o) => o.code,
        }
    }
}

/// A plan that failed, as the command's error: a config that fails to
/// load with its own error and exit class; a walk failure and paths that
/// could not be read (each a warning first) with exit 1.
pub fn plan_failed(e: &PlanError) -> CliError {
    match e {
        PlanError::Config(c) => CliError::new(c.class.code(), c),
        PlanError::Discover(d) => CliError::new(exit::FAILURE, d),
        PlanError::Unreadable { .. } => CliError::new(exit::FAILURE, e),
    }
}

/// A printer of `trust`: the listing before the prompt, and the end.
pub trait TrustPrinter {
    /// What is listed before anything is asked or recorded.
    fn listing(
        &mut self,
        listing: &TrustListing,
        why: &Why,
        env: &Env,
        io: &mut Io<'_>,
    ) -> Result<(), CliError>;

    /// How the trust ended.
    fn end(
        &mut self,
        listing: &TrustListing,
        why: &Why,
        end: &TrustEnd<'_>,
        env: &Env,
        io: &mut Io<'_>,
    ) -> Result<(), CliError>;
}

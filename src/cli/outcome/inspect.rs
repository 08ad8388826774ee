//! `inspect`'s outcome: one config and what the store holds for it
//! (`core::review::results::InspectResult`), with who changed what when it
//! changed, its signed reviews, and the exit code. The printers of
//! `cli::print::{text,json}::inspect` write it.

use crate::cli::outcome::review::OneConfig;
use crate::core::exit;
use crate::core::review::results::InspectResult;
use crate::core::revision::review_provenance::Provenance;

pub struct InspectOutcome {
    pub result: InspectResult,
    /// Who changed what, for a changed config only.
    pub provenance: Option<Provenance>,
    /// Its signed reviews; `None` where its repository has none.
    pub reviews: Option<OneConfig>,
}

impl InspectOutcome {
    /// Always 0 once the config is loaded: a config that fails to load or
    /// cannot be found is the command's error, with its own code, before
    /// there is an outcome.
    pub fn exit_code(&self) -> u8 {
        exit::SUCCESS
    }
}

//! `untrust`'s outcome: the entries removed under the store lock
//! (`core::review::trust::outcome::Untrusted`) and the exit code.
//! `cli::print::{text,json}::untrust` write it.

use crate::core::exit;
use crate::core::review::trust::outcome::Untrusted;

pub struct UntrustOutcome {
    pub untrusted: Untrusted,
}

impl UntrustOutcome {
    /// Always 0 once the store is written: a path with no entry under it
    /// is said, not an error; a store that cannot be read or written is
    /// the command's error before there is an outcome.
    pub fn exit_code(&self) -> u8 {
        exit::SUCCESS
    }
}

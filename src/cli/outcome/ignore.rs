//! `ignore`'s and `unignore`'s outcomes: what was recorded
//! (`core::review::results::{IgnoreResult, UnignoreResult}`) and the exit
//! code. `cli::print::text::ignore` writes them.

use crate::core::exit;
use crate::core::exit::unreadable_exit;
use crate::core::review::results::{IgnoreResult, UnignoreResult};

pub struct IgnoreOutcome {
    pub result: IgnoreResult,
}

impl IgnoreOutcome {
    /// 0, but 1 when part of a path could not be read (a config may hide
    /// there, and was not ignored).
    pub fn exit_code(&self) -> u8 {
        unreadable_exit(self.result.unreadable)
    }
}

pub struct UnignoreOutcome {
    pub result: UnignoreResult,
}

impl UnignoreOutcome {
    /// Always 0: a path with nothing ignored under it is said, not an
    /// error.
    pub fn exit_code(&self) -> u8 {
        exit::SUCCESS
    }
}

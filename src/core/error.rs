//! Errors of the core, each carrying the exit class GocciaScript gives it.

use std::fmt;

/// The exit class of a failure, as GocciaScript 0.14 assigns it: an invalid
/// value or runtime failure exits 1, a usage error (including a malformed
/// permission block) exits 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExitClass {
    /// Exit 1: invalid value, unreadable store, held lock, failed write.
    Invalid,
    /// Exit 2: usage error or malformed config block.
    Usage,
}

impl ExitClass {
    /// Its code in the one exit table ([`crate::core::exit`]).
    pub fn code(self) -> u8 {
        match self {
            ExitClass::Invalid => crate::core::exit::FAILURE,
            ExitClass::Usage => crate::core::exit::USAGE,
        }
    }
}

/// A config that cannot be loaded: the exact GocciaScript message (without
/// the `Error: ` prefix) and its exit class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub message: String,
    pub class: ExitClass,
}

impl ConfigError {
    pub fn invalid(message: impl Into<String>) -> Self {
        ConfigError {
            message: message.into(),
            class: ExitClass::Invalid,
        }
    }

    pub fn usage(message: impl Into<String>) -> Self {
        ConfigError {
            message: message.into(),
            class: ExitClass::Usage,
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConfigError {}

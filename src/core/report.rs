//! What the CLI and the TUI show about configs and store entries: states,
//! diff lines and per-config reports, computed from the config on disk and
//! the locked trust store.

use crate::core::error::ConfigError;

/// The state of a config against the store (DESIGN.md "States of a config").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ConfigState {
    /// Malformed or invalid: the exact message and exit class are in the report.
    Error,
    /// Asks for a grant and has no store entry.
    NeverTrusted,
    /// Its hash differs from the stored one, or a recorded target moved.
    Changed,
    /// Stored, same hash, no target moved.
    Trusted,
    /// Asks for nothing, or only denies.
    NoRequest,
}

impl ConfigState {
    /// The `scan --json` spelling.
    pub fn json_name(self) -> &'static str {
        match self {
            ConfigState::Error => "error",
            ConfigState::NeverTrusted => "never-trusted",
            ConfigState::Changed => "changed",
            ConfigState::Trusted => "trusted",
            ConfigState::NoRequest => "no-request",
        }
    }

    /// The human spelling.
    pub fn label(self) -> &'static str {
        match self {
            ConfigState::Error => "error",
            ConfigState::NeverTrusted => "never trusted",
            ConfigState::Changed => "changed",
            ConfigState::Trusted => "trusted",
            ConfigState::NoRequest => "no request",
        }
    }

    /// Whether a run would stop on this config until it is (re)trusted.
    pub fn needs_review(self) -> bool {
        matches!(self, ConfigState::NeverTrusted | ConfigState::Changed)
    }
}

/// One line of a block's description, compared with what was trusted
/// (goccia-reference.md §11).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffLine {
    /// In the stored block, not in the current one: `  - <line>`.
    Removed(String),
    /// In both: `    <line>`.
    Unchanged(String),
    /// In the current block only: `  + <line>`.
    Added(String),
    /// A path scope that now resolves elsewhere:
    /// `  ~ target of <scope>: <recorded> -> <current>`.
    Target {
        scope: String,
        recorded: String,
        current: String,
    },
}

impl DiffLine {
    /// The line exactly as GocciaScript prints it in reports and listings.
    pub fn render(&self) -> String {
        match self {
            DiffLine::Removed(l) => format!("  - {l}"),
            DiffLine::Unchanged(l) => format!("    {l}"),
            DiffLine::Added(l) => format!("  + {l}"),
            DiffLine::Target {
                scope,
                recorded,
                current,
            } => format!("  ~ target of {scope}: {recorded} -> {current}"),
        }
    }
}

/// The state of a store entry (DESIGN.md "States of a store entry").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryStatus {
    Ok,
    /// The config's hash differs or a recorded target moved.
    Changed,
    /// The key is not an existing file (a directory or dangling link counts).
    Missing,
    /// The config exists but fails to load; the message is its load error.
    Unreadable(ConfigError),
}

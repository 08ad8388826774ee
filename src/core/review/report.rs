//! What the CLI and the TUI show about configs and store entries: states,
//! diff lines and per-config reports, computed from the config on disk and
//! the locked trust store.

use crate::core::config::block::Block;
use crate::core::config::json::Json;
use crate::core::error::ConfigError;
use crate::core::review::style::{Emphasis, Styler, plain};
use crate::core::review::value_diff::{ValueChange, block_values, diff_values, value_summary};

/// The state of a config against the store (docs/src/compatibility.md#states-in-goccia-trust).
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
    /// Would be `NeverTrusted` or `Changed`, but the user ignored it as it
    /// is now (`review::ignore`): not asked about again until it changes.
    /// GocciaScript still refuses to run it.
    Ignored,
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
            ConfigState::Ignored => "ignored",
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
            ConfigState::Ignored => "ignored",
        }
    }

    /// Whether a run would stop on this config until it is (re)trusted.
    pub fn needs_review(self) -> bool {
        matches!(self, ConfigState::NeverTrusted | ConfigState::Changed)
    }
}

/// One line of a block's description, compared with what was trusted
/// (docs/src/compatibility.md#description-lines).
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
        self.render_styled(&plain)
    }

    /// [`DiffLine::render`] with its sign (`+`, `-`, `~`) styled by what
    /// the line is; the config's text beside it never is.
    pub fn render_styled(&self, style: Styler<'_>) -> String {
        match self {
            DiffLine::Removed(l) => format!("  {} {l}", style(Emphasis::Removed, "-")),
            DiffLine::Unchanged(l) => format!("    {l}"),
            DiffLine::Added(l) => format!("  {} {l}", style(Emphasis::Added, "+")),
            DiffLine::Target {
                scope,
                recorded,
                current,
            } => format!(
                "  {} target of {scope}: {recorded} -> {current}",
                style(Emphasis::Changed, "~")
            ),
        }
    }
}

/// The state of a store entry (docs/src/compatibility.md#states-in-goccia-trust).
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

/// What the store holds for a config, as shown beside its current state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredInfo {
    pub sha256: String,
    pub trusted_at: String,
    pub trusted_by: String,
    /// The stored block, re-serialized compactly, with its JSON.
    pub block: Block,
    pub targets: Vec<(String, String)>,
}

/// Everything known about one effective config: the row of `scan`, the
/// detail pane of the TUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigReport {
    /// The trust key (canonical directory + unresolved file name).
    pub key: String,
    /// The key relative to the working directory when strictly under it.
    pub display_path: String,
    pub state: ConfigState,
    /// The files of the extends chain, the config itself first.
    pub files: Vec<String>,
    /// The block's description lines; for `Changed`, the diff against the
    /// stored block followed by target lines.
    pub lines: Vec<DiffLine>,
    /// What reading the config gave: its block, hash and targets, or
    /// GocciaScript's error (then `state` is `Error`).
    pub outcome: Outcome,
    /// The store's entry for this key, if any.
    pub stored: Option<StoredInfo>,
}

/// How reading a config ended: one or the other, never a mix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Loaded(Loaded),
    Failed(ConfigError),
}

/// A config that loaded: what GocciaScript would hash and record for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// The normalized block, byte for byte, with its JSON.
    pub block: Block,
    /// Its SHA-256, lowercase hex.
    pub sha256: String,
    /// Where each path scope resolves now, scope → target.
    pub targets: Vec<(String, String)>,
}

/// One store entry checked against the disk: a row of `list` and of the
/// TUI's store view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreEntryReport {
    pub key: String,
    pub display_path: String,
    pub status: EntryStatus,
    pub trusted_at: String,
    pub trusted_by: String,
    /// The stored block's keys: `allow-net, allow-read, unsafe-shadowrealm`.
    pub summary: String,
    /// The stored block's lines, diffed against the current block when
    /// changed, then the `~` target lines; only the `~` lines when listed
    /// with `listing::Detail::Targets` (the `list` text).
    pub lines: Vec<DiffLine>,
}

impl ConfigReport {
    /// What loaded, unless the config failed.
    pub fn loaded(&self) -> Option<&Loaded> {
        match &self.outcome {
            Outcome::Loaded(l) => Some(l),
            Outcome::Failed(_) => None,
        }
    }

    /// What loaded, to change in a test double.
    #[cfg(any(test, feature = "test-support"))]
    pub fn loaded_mut(&mut self) -> Option<&mut Loaded> {
        match &mut self.outcome {
            Outcome::Loaded(l) => Some(l),
            Outcome::Failed(_) => None,
        }
    }

    /// The normalized block, unless the config failed.
    pub fn block(&self) -> Option<&str> {
        self.loaded().map(|l| l.block.as_str())
    }

    /// The normalized block's JSON, unless the config failed.
    pub fn block_json(&self) -> Option<&Json> {
        self.loaded().map(|l| l.block.json())
    }

    /// The block's SHA-256, unless the config failed.
    pub fn sha256(&self) -> Option<&str> {
        self.loaded().map(|l| l.sha256.as_str())
    }

    /// Where each path scope resolves now (none when the config failed).
    pub fn targets(&self) -> &[(String, String)] {
        self.loaded().map_or(&[], |l| l.targets.as_slice())
    }

    /// GocciaScript's error, when the config failed.
    pub fn error(&self) -> Option<&ConfigError> {
        match &self.outcome {
            Outcome::Failed(e) => Some(e),
            Outcome::Loaded(_) => None,
        }
    }

    /// The one-line summary of a config, shared by `scan` and the TUI:
    /// `+2 -1 ~1` (values) for a changed config, `3 requests`, `only denies`, or the
    /// first line of the error.
    pub fn summary(&self) -> String {
        if let Outcome::Failed(e) = &self.outcome {
            return error_summary(&e.message, &self.key);
        }
        match self.state {
            // Values, not lines (issue 12): one host swapped of thirty is
            // `+1 -1`, a value appended `+1`. A report without its blocks
            // (nothing to compare value by value) counts lines.
            ConfigState::Changed => match value_summary(&report_values(self)) {
                s if s.is_empty() => diff_summary(&self.lines),
                s => s,
            },
            ConfigState::NoRequest if self.lines.is_empty() => "asks for nothing".to_string(),
            ConfigState::NoRequest => "only denies".to_string(),
            ConfigState::Trusted
            | ConfigState::NeverTrusted
            | ConfigState::Error
            | ConfigState::Ignored => match request_count(&self.lines) {
                1 => "1 request".to_string(),
                n => format!("{n} requests"),
            },
        }
    }
}

/// The requests a config's lines show: an ignored config that changed since
/// it was trusted carries its diff, whose removed lines (the stored
/// version's) and link targets are not requests of the config.
fn request_count(lines: &[DiffLine]) -> usize {
    lines
        .iter()
        .filter(|l| matches!(l, DiffLine::Added(_) | DiffLine::Unchanged(_)))
        .count()
}

/// `+2 -1 ~1`: the counts of a changed config's diff, for one-line summaries.
pub fn diff_summary(lines: &[DiffLine]) -> String {
    let (mut add, mut del, mut moved) = (0, 0, 0);
    for l in lines {
        match l {
            DiffLine::Added(_) => add += 1,
            DiffLine::Removed(_) => del += 1,
            DiffLine::Target { .. } => moved += 1,
            DiffLine::Unchanged(_) => {}
        }
    }
    let mut parts = Vec::new();
    if add > 0 {
        parts.push(format!("+{add}"));
    }
    if del > 0 {
        parts.push(format!("-{del}"));
    }
    if moved > 0 {
        parts.push(format!("~{moved}"));
    }
    parts.join(" ")
}

/// The first line of a load error, without the config's own absolute path
/// in front: the row already names the config, and the path alone would
/// fill a summary column. Errors about another file of the chain keep its
/// path.
fn error_summary(message: &str, key: &str) -> String {
    let first = message.lines().next().unwrap_or("");
    match first.find(&format!("{key}: ")) {
        Some(at) => first[at + key.len() + 2..].to_string(),
        None => first.to_string(),
    }
}

/// A report's value-level view: for a changed config its diff against the
/// stored block, for any other config that loads its values all unchanged.
/// Empty when the config does not load.
pub fn report_values(r: &ConfigReport) -> Vec<ValueChange> {
    let Some(new) = r.block_json().map(block_values) else {
        return Vec::new();
    };
    let old = match (&r.stored, r.state) {
        (Some(s), ConfigState::Changed) => block_values(s.block.json()),
        _ => new.clone(),
    };
    diff_values(&old, &new, r.targets(), &moved_targets(&r.lines))
}

/// The `(scope, recorded, current)` of each re-targeted scope among a
/// comparison's lines: what [`diff_values`] marks `~`.
pub fn moved_targets(lines: &[DiffLine]) -> Vec<(String, String, String)> {
    lines
        .iter()
        .filter_map(|l| match l {
            DiffLine::Target {
                scope,
                recorded,
                current,
            } => Some((scope.clone(), recorded.clone(), current.clone())),
            _ => None,
        })
        .collect()
}

/// The exit code of a scan: the worst error class among its configs.
pub fn worst_exit(reports: &[ConfigReport]) -> u8 {
    crate::core::exit::worst_of(
        reports
            .iter()
            .filter_map(|r| r.error().map(|e| e.class.code())),
    )
}

#[cfg(test)]
mod tests {
    use super::error_summary;

    #[test]
    fn error_summary_drops_the_configs_own_path() {
        let key = "/home/u/repo/goccia.json";
        assert_eq!(
            error_summary(
                "/home/u/repo/goccia.json: Unexpected end of JSON input at line 2, column 1",
                key
            ),
            "Unexpected end of JSON input at line 2, column 1"
        );
        assert_eq!(
            error_summary("/home/u/base.json: not found", key),
            "/home/u/base.json: not found"
        );
    }
}

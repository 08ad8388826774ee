//! The one-line notice of `status` and the git hooks: how many of the
//! configs looked at would stop a GocciaScript run (changed since trusted,
//! never trusted) or could not be judged (a config that does not load, a
//! path the walk could not read, a store that cannot be read or that others
//! can write, an ignore list that cannot be used), or are ignored (refused
//! on purpose: GocciaScript still refuses to run them). No line when every
//! config is trusted or needs no trust: the line is silent only when a run
//! would not be refused.

use crate::core::error::ConfigError;
use crate::core::review::report::{ConfigReport, ConfigState, Outcome};

/// What a notice keeps of one config's report: its key, path, state,
/// files and error. The block, its lines and the store's entry are dropped
/// as each report is made, so `status --tree` holds a few strings per
/// config, not every config's report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigSummary {
    pub key: String,
    pub display_path: String,
    pub state: ConfigState,
    /// The files of the extends chain, the config itself first.
    pub files: Vec<String>,
    /// GocciaScript's error, when the config does not load.
    pub error: Option<ConfigError>,
}

impl ConfigSummary {
    /// The summary of `report`, its strings moved, not copied.
    pub fn of(report: ConfigReport) -> ConfigSummary {
        ConfigSummary {
            key: report.key,
            display_path: report.display_path,
            state: report.state,
            files: report.files,
            error: match report.outcome {
                Outcome::Failed(e) => Some(e),
                Outcome::Loaded(_) => None,
            },
        }
    }
}

/// What a notice counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub changed: usize,
    pub never_trusted: usize,
    /// Ignored configs (`ignore`): GocciaScript refuses them all the same.
    pub ignored: usize,
    /// Configs that do not load (malformed, invalid, unreadable).
    pub errors: usize,
    /// Paths the walk could not read (`--tree` only).
    pub unreadable: usize,
    /// The store could not be located or read: no config can be judged.
    pub store_unreadable: bool,
    /// Others can write the store (a `Refuse` safety issue): whatever it
    /// says is trusted is only as good as whoever last wrote it.
    pub store_unsafe: bool,
    /// The ignore list could not be used (unreadable, corrupt, or others
    /// can write it): nothing is treated as ignored.
    pub ignore_unusable: bool,
}

impl Tally {
    /// Counts the states of `reports`.
    pub fn of(reports: &[ConfigSummary]) -> Tally {
        let mut t = Tally::default();
        for r in reports {
            match r.state {
                ConfigState::Changed => t.changed += 1,
                ConfigState::NeverTrusted => t.never_trusted += 1,
                ConfigState::Error => t.errors += 1,
                // Refused on purpose (`ignore`): a run refuses it all the same.
                ConfigState::Ignored => t.ignored += 1,
                ConfigState::Trusted | ConfigState::NoRequest => {}
            }
        }
        t
    }

    /// Whether there is anything to say (and `status` exits 1).
    pub fn any(&self) -> bool {
        self.changed + self.never_trusted + self.ignored + self.errors + self.unreadable > 0
            || self.store_unreadable
            || self.store_unsafe
            || self.ignore_unusable
    }

    /// `goccia: 1 changed, 1 never trusted (run goccia-trust to review)`,
    /// or `None` when there is nothing to say. Fail closed: a store that
    /// cannot be read leaves every config unjudged, and says so.
    pub fn line(&self) -> Option<String> {
        if !self.any() {
            return None;
        }
        let mut parts = Vec::new();
        if self.store_unreadable {
            parts.push("trust store unreadable".to_string());
        }
        if self.store_unsafe {
            parts.push("trust store unsafe".to_string());
        }
        if self.ignore_unusable {
            parts.push("ignore list unusable".to_string());
        }
        if self.changed > 0 {
            parts.push(format!("{} changed", self.changed));
        }
        if self.never_trusted > 0 {
            parts.push(format!("{} never trusted", self.never_trusted));
        }
        if self.ignored > 0 {
            parts.push(format!("{} ignored", self.ignored));
        }
        if self.errors > 0 {
            let s = if self.errors == 1 { "" } else { "s" };
            parts.push(format!("{} config error{s}", self.errors));
        }
        if self.unreadable > 0 {
            let s = if self.unreadable == 1 { "" } else { "s" };
            parts.push(format!("{} unreadable path{s}", self.unreadable));
        }
        Some(format!(
            "goccia: {} (run goccia-trust to review)",
            parts.join(", ")
        ))
    }
}

/// How many configs the hooks' notice names before `+N more`.
pub const NAMED: usize = 5;

/// The hooks' notice after an operation (`what`: `this checkout`, `this
/// merge`, `this rebase`) that changed `changed` (absolute paths, each with
/// whether the operation added it): the configs it made need review, one
/// of whose files (the config or a base of its extends chain) it touched,
/// named with how (`added`, `changed`, `never trusted`, `config error`).
/// A config that needed review before and was untouched is left out.
/// `None` when there is none.
pub fn range_line(
    reports: &[ConfigSummary],
    changed: &std::collections::HashMap<String, bool>,
    what: &str,
) -> Option<String> {
    let named: Vec<String> = reports
        .iter()
        .filter(|r| r.state.needs_review() || r.state == ConfigState::Error)
        .filter(|r| {
            r.files
                .iter()
                .chain([&r.key])
                .any(|f| changed.contains_key(f))
        })
        .map(|r| {
            let how = match r.state {
                _ if changed.get(&r.key) == Some(&true) => "added",
                ConfigState::Changed => "changed",
                ConfigState::Error => "config error",
                _ => "never trusted",
            };
            format!("{} ({how})", r.display_path)
        })
        .collect();
    if named.is_empty() {
        return None;
    }
    let n = named.len();
    let mut list = named[..n.min(NAMED)].join(", ");
    if n > NAMED {
        list += &format!(", +{} more", n - NAMED);
    }
    let s = if n == 1 { "" } else { "s" };
    Some(format!(
        "goccia: {n} config{s} to review after {what}: {list} (run goccia-trust to review)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_to_say_is_no_line() {
        assert_eq!(Tally::default().line(), None);
    }

    #[test]
    fn the_line_names_each_count() {
        let t = Tally {
            changed: 1,
            never_trusted: 2,
            ignored: 1,
            errors: 1,
            unreadable: 3,
            ..Tally::default()
        };
        assert_eq!(
            t.line().unwrap(),
            "goccia: 1 changed, 2 never trusted, 1 ignored, 1 config error, 3 unreadable paths (run goccia-trust to review)"
        );
        let store = Tally {
            store_unreadable: true,
            ..Tally::default()
        };
        assert_eq!(
            store.line().unwrap(),
            "goccia: trust store unreadable (run goccia-trust to review)"
        );
        let unsafe_ = Tally {
            store_unsafe: true,
            ignore_unusable: true,
            ..Tally::default()
        };
        assert_eq!(
            unsafe_.line().unwrap(),
            "goccia: trust store unsafe, ignore list unusable (run goccia-trust to review)"
        );
    }
}

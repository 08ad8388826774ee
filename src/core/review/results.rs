//! The results of the read-only reviews and of `ignore`: what `scan`,
//! `check`, `inspect`, `list` and `ignore`/`unignore` found or did, decided
//! once and the same whatever the output format. Each command's `decide`
//! (in `cli`) fills one, which its outcome (`cli::outcome::<command>`)
//! wraps with the exit code; the printers of `cli::print` only render it.

use crate::core::config::ConfigSnapshot;
use crate::core::env::Env;
use crate::core::error::ConfigError;
use crate::core::exit;
use crate::core::paths::key::TrustKey;
use crate::core::review::check::StoreProblem;
use crate::core::review::discover::Discovery;
use crate::core::review::ignore::{IgnoreList, Ignored};
use crate::core::review::listing::{Detail, for_each_entry_report};
use crate::core::review::progress::Progress;
use crate::core::review::report::{ConfigReport, ConfigState, StoreEntryReport};
use crate::core::review::scan::for_each_report;
use crate::core::review::status::Comparison;
use crate::core::review::value_diff::ValueChange;
use crate::core::store::{Store, StoreLocation, StoreOnDemand, StoredEntry};

/// What a path that could not be read adds to the exit code: a config may
/// hide there.
fn unreadable_exit(found: &Discovery) -> u8 {
    if found.unreadable.is_empty() {
        exit::SUCCESS
    } else {
        exit::FAILURE
    }
}

/// The exit code of one config's report: its error class, if it has one.
pub fn config_exit(r: &ConfigReport) -> u8 {
    r.error().map_or(exit::SUCCESS, |e| e.class.code())
}

/// What a scan found, before any of it is printed.
pub struct ScanResult {
    /// The store as read, each entry read back as its config's row is
    /// made; empty when it could not be read.
    pub store: StoreOnDemand,
    /// Why the store could not be read: every config counts as untrusted.
    pub store_error: Option<String>,
    /// Who else could write the store, and the like (`Warning: ` lines).
    pub store_warnings: Vec<String>,
    /// The ignore list, applied to each report as it is loaded.
    pub ignores: IgnoreList,
    /// Why the ignore list was not used (it then ignores nothing).
    pub ignore_problem: Option<String>,
    /// The TUI's viewed marks, for `--json`, and why they could not be read.
    pub progress: Option<(Progress, Option<String>)>,
    /// The walk: the configs' keys, what it could not read or follow, the
    /// configs shadowed by another beside them.
    pub found: Discovery,
    /// Trusted configs under the paths that are gone: key, trusted at.
    pub missing: Vec<(String, String)>,
    /// The `not followed:` lines of the walk, unescaped.
    pub not_followed: Vec<String>,
    /// The warnings of what the walk could not read.
    pub unreadable: Vec<String>,
}

impl ScanResult {
    /// Each config's report, in key order, loaded as it is delivered and
    /// with the ignore list applied.
    pub fn for_each_config<E>(
        &self,
        env: &Env,
        mut each: impl FnMut(ConfigReport) -> Result<(), E>,
    ) -> Result<(), E> {
        for_each_report(&self.found.keys, env, &self.store, |mut r| {
            self.ignores.apply(&mut r);
            each(r)
        })
    }

    /// The exit code of the scan, given the worst exit code of its
    /// configs' errors: a config may hide in what could not be read, and
    /// that fails the scan.
    pub fn exit_code(&self, configs: u8) -> u8 {
        exit::worst(configs, unreadable_exit(&self.found))
    }
}

/// What a check found, before any of it is printed.
pub struct CheckResult {
    /// Each input as given, with the key of the config governing it.
    pub inputs: Vec<(String, Option<String>)>,
    /// Whether a config file is among the inputs: a GocciaScript run over
    /// it means nothing, so the report then suggests only trusting.
    pub config_input: bool,
    /// The walk of the inputs that are directories.
    pub found: Discovery,
    /// Every config involved, in key order, loaded against the store.
    pub reports: Vec<ConfigReport>,
    /// The store's path, when it could be located.
    pub store_path: Option<String>,
    /// Why the store could not be located or read (it then counts as empty).
    pub store_problem: Option<StoreProblem>,
    /// Who else could write the store, and the like (`Warning: ` lines).
    pub store_warnings: Vec<String>,
    /// The `not followed:` lines of the walk, unescaped.
    pub not_followed: Vec<String>,
    /// The warnings of what the walk could not read.
    pub unreadable: Vec<String>,
    /// What the blocked report repeats: `--trust-store` as typed, the
    /// inputs, the GocciaScript runner it names.
    pub trust_store_as_typed: Option<String>,
    pub args: Vec<String>,
    pub runner: String,
}

impl CheckResult {
    /// The configs that would block a GocciaScript run.
    pub fn blocking(&self) -> Vec<&ConfigReport> {
        self.reports
            .iter()
            .filter(|r| r.state.needs_review())
            .collect()
    }

    /// The first config that fails to load: it ends a text or JSON check
    /// with its own error and exit class.
    pub fn load_error(&self) -> Option<&ConfigError> {
        self.reports.iter().find_map(|r| r.error())
    }

    /// What could not be read adds exit 1.
    pub fn unreadable_exit(&self) -> u8 {
        unreadable_exit(&self.found)
    }

    /// The exit code with every finding counted (CI's): a config's error
    /// class, 2 when a run would be blocked, 1 for what could not be read.
    pub fn exit_code(&self) -> u8 {
        let blocked = if self.blocking().is_empty() {
            exit::SUCCESS
        } else {
            exit::USAGE
        };
        exit::worst(
            exit::worst(
                exit::worst_of(self.reports.iter().map(config_exit)),
                blocked,
            ),
            self.unreadable_exit(),
        )
    }

    /// The store's problem as JSON's `storeError` says it.
    pub fn store_error(&self) -> Option<String> {
        self.store_problem.as_ref().map(|p| match p {
            StoreProblem::CannotLocate(r) => {
                format!("cannot locate the per-user trust store ({r})")
            }
            StoreProblem::Unreadable(m) => m.clone(),
        })
    }
}

/// One config as GocciaScript computes it, and as the store holds it.
pub struct InspectResult {
    pub key: TrustKey,
    pub snapshot: ConfigSnapshot,
    /// The store's entry for it, if any.
    pub stored: Option<StoredEntry>,
    /// Its state, and its lines against the stored entry.
    pub comparison: Comparison,
    /// A changed config's values one by one.
    pub changes: Option<Vec<ValueChange>>,
    /// The config GocciaScript reads instead of this one, beside it.
    pub shadowed: Option<String>,
    /// Why the store could not be read (it then counts as empty).
    pub store_error: Option<String>,
    /// Who else could write the store, and the like (`Warning: ` lines).
    pub store_warnings: Vec<String>,
}

/// The store's entries, each against its config as it is now.
pub struct ListResult {
    pub location: StoreLocation,
    pub store: Store,
    /// How much of each stored block a report keeps.
    pub detail: Detail,
    /// Who else could write the store, and the like (`Warning: ` lines).
    pub store_warnings: Vec<String>,
}

impl ListResult {
    /// Whether the store has no entry.
    pub fn is_empty(&self) -> bool {
        self.store.iter().len() == 0
    }

    /// Each entry with its report, in store order, checked against the
    /// disk as it is delivered (a long store's reports are never held
    /// together); stops at `each`'s first error.
    pub fn for_each_report<E>(
        &self,
        env: &Env,
        each: impl FnMut(&str, &StoredEntry, StoreEntryReport) -> Result<(), E>,
    ) -> Result<(), E> {
        for_each_entry_report(&self.store, env, self.detail, each)
    }
}

/// The ignore list, each config against the one that was ignored.
pub struct IgnoredResult {
    /// The ignore list's file.
    pub file: String,
    /// Why the list could not be read (it then counts as empty).
    pub problem: Option<String>,
    /// Key, what was ignored, and whether that is the config now.
    pub rows: Vec<(String, Ignored, IgnoredNow)>,
}

/// An ignored config as it is now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IgnoredNow {
    /// Still the config that was ignored: the ignore applies.
    Current,
    /// Another config (or one that does not load): it asks again.
    Changed,
    /// Gone.
    Missing,
}

/// What `ignore` did: the warnings said on the way (the store's, what the
/// walk could not read), then each config with its state and whether it
/// was ignored now.
pub struct IgnoreResult {
    pub warnings: Vec<String>,
    /// Each config as shown (its path), in key order.
    pub configs: Vec<(String, ConfigState, bool)>,
    /// Whether a path could not be read (exit 1).
    pub unreadable: bool,
}

/// What `unignore` did: for each path as given, how it is described and
/// the keys it took off the list.
pub struct UnignoreResult {
    pub paths: Vec<(String, Vec<String>)>,
}

//! The seam between the TUI and the core. The TUI only ever talks to a
//! `TuiBackend`, so it can be driven by the in-memory fake in tests and by
//! the real core in the binary, and every call can run on a worker thread.

use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;

use crate::core::policy::ConfigDecision;
use crate::core::review::ignore::IgnoreAs;
use crate::core::review::ignore::IgnoreList;
use crate::core::review::progress::{Progress, ProgressChange};
use crate::core::review::report::{ConfigReport, StoreEntryReport};
use crate::core::revision::provenance::reviewed::ReviewedVersions;
use crate::core::revision::provenance::{Absent, ConfigProvenance, ValueOrigin};
use crate::core::revision::since::SinceBase;
use crate::core::team::each_config::ConfigReviews;

pub use crate::core::review::scan::ScanEvent;

/// One file of an extends chain, as read from disk for the inspect view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    pub path: String,
    /// The raw text, or why it could not be read.
    pub source: Result<String, String>,
}

/// Everything the inspect view shows for one config key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InspectData {
    pub key: String,
    /// The config itself first, then each file it extends.
    pub files: Vec<SourceFile>,
    /// The normalized block exactly as hashed, and its SHA-256.
    pub block: Option<String>,
    pub sha256: Option<String>,
    /// Scope -> where it resolves now.
    pub targets: Vec<(String, String)>,
    /// The load error, when the config does not load.
    pub error: Option<String>,
}

/// One config read again by [`TuiBackend::rescan_configs`].
#[derive(Debug, Clone)]
pub struct Rescanned {
    pub report: ConfigReport,
    /// The policy's decision, made from the same read, when judged.
    pub decision: Option<ConfigDecision>,
    /// Its signed reviews, judged from the same read; `None` where its
    /// repository has no reviews file.
    pub reviews: Option<ConfigReviews>,
}

/// A commit that went through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitOutcome {
    /// How many store entries were written or removed.
    pub count: usize,
    /// A one-line summary for the status bar, e.g.
    /// `Trusted 2 config files in /home/u/.config/goccia/trust.json`.
    pub message: String,
}

/// A commit that did not go through. Nothing was written in any case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommitError {
    /// What is on disk differs from what the user was shown. `current` holds
    /// the fresh reports of the configs that differ (possibly empty when a
    /// config vanished), so the TUI can show the new state at once.
    Stale {
        message: String,
        current: Vec<ConfigReport>,
    },
    /// Another process holds `trust.json.lock`.
    Locked(String),
    /// The store cannot be read or validated; it is never overwritten.
    StoreUnreadable(String),
    /// Any other failure (write, rename ...).
    Failed(String),
}

impl fmt::Display for CommitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommitError::Stale { message, .. } => {
                write!(f, "refused, changed since shown: {message}")
            }
            CommitError::Locked(m) => write!(f, "store is locked: {m}"),
            CommitError::StoreUnreadable(m) => write!(f, "store unreadable: {m}"),
            CommitError::Failed(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for CommitError {}

/// Everything the TUI asks of the core. Every method may block (disk, lock);
/// the TUI calls them only from worker threads, never from the render loop.
pub trait TuiBackend: Send + Sync + 'static {
    /// Walk `root` and report every effective config through `on_event`.
    /// When `on_event` returns `Break` the scan has been superseded by a
    /// newer one: stop as soon as convenient (no `Done` needed).
    fn scan(&self, root: &str, on_event: &mut dyn FnMut(ScanEvent) -> ControlFlow<()>);

    /// Every store entry, checked against the disk (ok / changed / missing /
    /// unreadable), in key byte order. `Err` when the store itself cannot be
    /// read (message shown in the status bar).
    fn store_entries(&self) -> Result<Vec<StoreEntryReport>, String>;

    /// Raw sources of the extends chain and the normalized block of `key`.
    fn inspect(&self, key: &str) -> Result<InspectData, String>;

    /// Record exactly what was shown: under the store lock, re-read and
    /// re-hash every config of `shown`; if any key's block, sha256, lines or
    /// targets differ from its report, write nothing and return `Stale`.
    fn trust(&self, shown: &[ConfigReport]) -> Result<CommitOutcome, CommitError>;

    /// Remove the entries with exactly these keys (no subtree expansion).
    fn untrust(&self, keys: &[String]) -> Result<CommitOutcome, CommitError>;

    /// Remove these entries, each only if its key is still missing under the
    /// lock (a config that came back is kept and reported as `Stale`).
    fn prune_missing(&self, keys: &[String]) -> Result<CommitOutcome, CommitError>;

    /// Why the store cannot be relied on while reviewing `root` (someone
    /// else can write it or its directory, a `--trust-store` inside the
    /// tree): shown as a banner on every run. Empty when all is well.
    fn store_warnings(&self, root: &str) -> Vec<String> {
        let _ = root;
        Vec::new()
    }

    /// The saved review progress (viewed marks, where each tree's review
    /// stopped), the name its session for `root` is kept under, and a
    /// problem to report when the saved progress could not be read (it is
    /// then ignored). No progress by default.
    fn load_progress(&self, root: &str) -> (Progress, String, Option<String>) {
        (Progress::default(), root.to_string(), None)
    }

    /// Watches `dirs` (replacing any earlier watch) and calls `on_change`,
    /// debounced, with the paths created, written, renamed or removed in
    /// them (an empty list when the system could not say which). `Err` says
    /// why nothing is watched (too many directories, watching off, the
    /// system refused). Off by default.
    fn watch(
        &self,
        dirs: &[String],
        on_change: Box<dyn Fn(Vec<String>) + Send>,
    ) -> Result<(), String> {
        let _ = (dirs, on_change);
        Err("off".to_string())
    }

    /// The configs of `keys` read again, each against the store as it is
    /// now and with the policy's decision on it (as a scan reports and
    /// judges it), for a refresh that concerns only them (`e`, an edit of a
    /// config file). `None` when that is not enough: a key is no longer a
    /// regular file (the tree must be walked again), or the backend cannot
    /// read one config alone (the default).
    fn rescan_configs(&self, keys: &[String]) -> Option<Vec<Rescanned>> {
        let _ = keys;
        None
    }

    /// The policy the review is judged by (`--policy`), named as every
    /// policy-gated listing names it: `<file> (sha256 <hex>)`. `None`
    /// without a policy (the default).
    fn policy_label(&self) -> Option<String> {
        None
    }

    /// The policy's decision on the config of `report`, made by the scan
    /// that produced `report` from the same read of the config (what `trust
    /// --yes --policy` would decide for it), handed over once. `None`
    /// without a policy, for a config that requests nothing or does not
    /// load, and when `report` is not what was judged (another sha256).
    fn take_decision(&self, report: &ConfigReport) -> Option<ConfigDecision> {
        let _ = report;
        None
    }

    /// The signed reviews of the config of `report`, judged by the scan
    /// that produced `report` from the same read, handed over once.
    /// `None` where its repository has no reviews file (the default), and
    /// when `report` is not what was judged (another sha256).
    fn take_reviews(&self, report: &ConfigReport) -> Option<ConfigReviews> {
        let _ = report;
        None
    }

    /// The versions of the config of `report` its outdated reviews were
    /// of (`reviews`' `earlier-version` digests), found in the last
    /// commits that touched its files; `Absent` with why (no repository,
    /// no git). Called on a worker, for one config at a time.
    fn reviewed_versions(
        &self,
        report: &ConfigReport,
        reviews: &ConfigReviews,
    ) -> Result<ReviewedVersions, Absent> {
        let _ = (report, reviews);
        Err(Absent {
            reason: "this review does not read git".to_string(),
        })
    }

    /// With `--since BASE`: BASE as given, known at once (nothing read).
    /// `None` (the default): configs are compared with the store.
    fn since_rev(&self) -> Option<String> {
        None
    }

    /// With `--since BASE`: the configs of BASE, read by the first call
    /// (on a worker, never the render loop) and kept for the next ones, or
    /// why they could not be read. `None` without `--since`.
    fn since_base(&self) -> Option<Result<Arc<SinceBase>, String>> {
        None
    }

    /// The ignore list (`core::review::ignore`) and a problem to report
    /// when it could not be used (it then ignores nothing). Empty by
    /// default.
    fn load_ignores(&self) -> (IgnoreList, Option<String>) {
        (IgnoreList::default(), None)
    }

    /// Ignores (`Some(sha256)`) or unignores (`None`) each key in the
    /// ignore list on disk, atomically; `Err` says why nothing was changed.
    fn set_ignored(&self, changes: &[(String, Option<IgnoreAs>)]) -> Result<(), String> {
        let _ = changes;
        Err("this review cannot keep an ignore list".to_string())
    }

    /// Whether this review says who changed what (issue 26): the TUI then
    /// asks [`TuiBackend::provenance`] about the selected changed config.
    /// Off by default.
    fn provenance_on(&self) -> bool {
        false
    }

    /// Who changed the config of `report` since it was trusted: the
    /// commits that touched its files since `trustedAt`, and the origin of
    /// each added value; with `--since BASE`, the commits of `BASE..HEAD`
    /// and the values added since BASE; `Absent` with why (no repository,
    /// no git). Called on a worker, for one config at a time.
    fn provenance(&self, report: &ConfigReport) -> Result<ConfigProvenance, Absent> {
        let _ = report;
        Err(Absent {
            reason: "this review does not read git".to_string(),
        })
    }

    /// Who changed the config of `report` since it was trusted, against
    /// the store even under `--since BASE`: what the trust confirmation
    /// names (its lines compare with the store). The same as
    /// [`TuiBackend::provenance`] for a review without `--since`.
    fn store_provenance(&self, report: &ConfigReport) -> Result<ConfigProvenance, Absent> {
        self.provenance(report)
    }

    /// Who deleted the missing config `key` (its store entry's key): the
    /// commit of HEAD's history that deleted the file, `not committed`
    /// when HEAD still holds it, or why it is not known; `Absent` with why
    /// (no repository, no git). Called on a worker, for one at a time,
    /// only when [`TuiBackend::provenance_on`].
    fn deleted_by(&self, key: &str) -> Result<ValueOrigin, Absent> {
        let _ = key;
        Err(Absent {
            reason: "this review does not read git".to_string(),
        })
    }

    /// Saves what this review changed of the progress (merged with what
    /// another review saved meanwhile); `Err` says why it was not.
    fn save_progress(&self, change: &ProgressChange) -> Result<(), String> {
        let _ = change;
        Ok(())
    }
}

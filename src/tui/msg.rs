//! Messages into `update` and the effects it asks for. Every message from a
//! worker carries the job it belongs to, so results of a superseded scan are
//! recognised and dropped.

use crossterm::event::{KeyEvent, MouseEvent};

use crate::core::review::report::{ConfigReport, DiffLine, StoreEntryReport};
use crate::tui::backend::{CommitError, CommitOutcome, InspectData};

#[derive(Debug)]
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    /// Animation clock (spinner), about ten a second.
    Tick,
    ScanProgress {
        job: u64,
        dirs: u64,
        configs: u64,
    },
    /// Reports found since the last batch (the worker batches them so a
    /// 10,000-config scan is not 10,000 redraws).
    ScanFound {
        job: u64,
        reports: Vec<ConfigReport>,
    },
    /// The policy's decisions on configs of the last `ScanFound` (sent
    /// right after it), by key, with the sha256 of the block judged.
    ScanJudged {
        job: u64,
        decisions: Vec<(String, String, crate::core::policy::ConfigDecision)>,
    },
    /// The signed reviews of configs of the last `ScanFound` (sent
    /// right after it), by key, with the sha256 of the block judged; only
    /// configs whose repository has a reviews file.
    ScanReviewed {
        job: u64,
        reviews: Vec<(
            String,
            String,
            crate::core::team::each_config::ConfigReviews,
        )>,
    },
    ScanFailed {
        job: u64,
        message: String,
    },
    /// The review is judged by this policy (`--policy`): its label.
    Policy(String),
    /// `--since BASE`: the revision's configs, or why they could not be read.
    SinceBase(Result<std::sync::Arc<crate::core::revision::since::SinceBase>, String>),
    /// The walk's unreadable paths, links not followed, shadowed config
    /// files, and the store entries under the root whose config is gone,
    /// as lines.
    ScanWalk {
        job: u64,
        unreadable: Vec<String>,
        not_followed: Vec<String>,
        shadowed: Vec<crate::core::review::scan::NotReviewed>,
        missing: Vec<crate::core::review::scan::NotReviewed>,
    },
    ScanDone {
        job: u64,
        dirs: u64,
        configs: u64,
    },
    /// The store's warnings for the banner, checked again with every scan.
    StoreWarnings(Vec<String>),
    StoreLoaded {
        job: u64,
        result: Result<Vec<StoreEntryReport>, String>,
    },
    /// The saved review progress, the session name of the tree, and why
    /// the saved progress was ignored, if it was.
    ProgressLoaded {
        progress: Box<crate::core::review::progress::Progress>,
        tree: String,
        problem: Option<String>,
    },
    /// Something changed on disk in a watched directory: these paths (none
    /// when the system could not say which).
    FilesChanged(Vec<String>),
    /// Configs read again alone (`Effect::RescanConfigs`); `None` asks for
    /// a full rescan.
    ConfigsRescanned {
        rescanned: Option<Vec<crate::tui::backend::Rescanned>>,
    },
    /// Nothing is watched, and why (`too many directories`, ...).
    WatchOff(String),
    /// The editor `e` opened on the config `key` has returned: `Err` says
    /// why it failed.
    Edited {
        key: String,
        result: Result<(), String>,
    },
    /// Saving the review progress failed.
    ProgressNotSaved(String),
    /// The ignore list, and why it could not be used (then it ignores
    /// nothing).
    IgnoresLoaded {
        ignores: Box<crate::core::review::ignore::IgnoreList>,
        problem: Option<String>,
    },
    /// Changing the ignore list failed: why, and the list as it is on
    /// disk (what is shown instead of what was asked).
    IgnoreNotSaved {
        why: String,
        ignores: Box<crate::core::review::ignore::IgnoreList>,
    },
    Inspected {
        key: String,
        result: Result<InspectData, String>,
    },
    Committed {
        result: Result<CommitOutcome, CommitError>,
    },
    /// Who changed the config `key` (as it was with `sha256`) since it was
    /// trusted (`Effect::Provenance`).
    Provenance {
        key: String,
        sha256: String,
        result: Box<
            Result<
                crate::core::revision::provenance::ConfigProvenance,
                crate::core::revision::provenance::Absent,
            >,
        >,
    },
    /// Who deleted the missing config `key` (`Effect::DeletedBy`).
    /// The versions a config's outdated reviews were of, read for the
    /// block of `sha256`.
    ReviewedVersions {
        key: String,
        sha256: String,
        result: Box<
            Result<
                crate::core::revision::provenance::reviewed::ReviewedVersions,
                crate::core::revision::provenance::Absent,
            >,
        >,
    },
    DeletedBy {
        key: String,
        result: Result<
            crate::core::revision::provenance::ValueOrigin,
            crate::core::revision::provenance::Absent,
        >,
    },
}

/// A store entry about to be removed, as the confirmation shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removal {
    pub key: String,
    pub display_path: String,
    pub trusted_at: String,
    /// The stored block's description lines.
    pub lines: Vec<String>,
}

/// A store change the user is asked to confirm; confirming sends exactly
/// this to the backend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pending {
    Trust(Vec<ConfigReport>),
    Untrust(Vec<Removal>),
    Prune(Vec<Removal>),
}

impl Pending {
    pub fn len(&self) -> usize {
        match self {
            Pending::Trust(v) => v.len(),
            Pending::Untrust(v) | Pending::Prune(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn keys(&self) -> Vec<String> {
        match self {
            Pending::Trust(v) => v.iter().map(|r| r.key.clone()).collect(),
            Pending::Untrust(v) | Pending::Prune(v) => v.iter().map(|r| r.key.clone()).collect(),
        }
    }
}

/// The stored lines of a report: for a changed config, the removed and
/// unchanged lines of its diff are what the store holds.
pub fn stored_lines(lines: &[DiffLine]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| match l {
            DiffLine::Removed(s) | DiffLine::Unchanged(s) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    Scan {
        job: u64,
        root: String,
    },
    LoadStore {
        job: u64,
    },
    /// Read these configs again, alone (an edit concerns only them).
    RescanConfigs {
        keys: Vec<String>,
    },
    Inspect {
        key: String,
    },
    Commit(Pending),
    LoadProgress {
        root: String,
    },
    /// Watch these directories for changes (replacing the last watch).
    Watch {
        dirs: Vec<String>,
    },
    /// What this review changed of the progress, to merge into the file.
    SaveProgress(Box<crate::core::review::progress::ProgressChange>),
    LoadIgnores,
    /// Ignore (as the config is shown: its sha256 and targets) or unignore
    /// (`None`) each key, in the ignore list on disk.
    SetIgnored(Vec<(String, Option<crate::core::review::ignore::IgnoreAs>)>),
    /// Read who changed this config since it was trusted (git).
    Provenance(Box<ConfigReport>),
    /// Read who changed this config since it was trusted, against the
    /// store whatever `--since` says: the trust confirmation's lines
    /// compare with the store (answered as `Msg::Provenance`).
    StoreProvenance(Box<ConfigReport>),
    /// Read who deleted this missing config (its key): the commit of
    /// HEAD's history that deleted the file (git).
    DeletedBy(String),
    /// Read the versions this config's outdated reviews were of (git).
    ReviewedVersions(
        Box<ConfigReport>,
        Box<crate::core::team::each_config::ConfigReviews>,
    ),
    /// Open this config in the user's editor. The event loop runs it (it
    /// owns the terminal: the TUI is suspended meanwhile), then sends
    /// `Msg::Edited`.
    Edit {
        key: String,
    },
    /// End the review: the event loop saves where it stopped and leaves.
    Quit,
}

//! Every effective config at or under some paths, each with its state against
//! the store. Discovery, loading and hashing run in parallel; the result is
//! in key byte order whatever the parallelism.

use rayon::prelude::*;

use crate::core::config::block::Block;
use crate::core::config::{ConfigSnapshot, load_config};
use crate::core::env::Env;
use crate::core::paths::display::display_path;
use crate::core::paths::key::TrustKey;
use crate::core::review::batched::for_each_made;
use crate::core::review::discover::{DiscoverError, Discovery, WalkProgress, discover_paths};
use crate::core::review::report::{
    ConfigReport, ConfigState, DiffLine, Loaded, Outcome, StoredInfo,
};
use crate::core::review::status::{Comparison, compare};
use crate::core::store::{Store, StoredEntries, StoredEntry};

/// What a scan reports while it runs, for callers that show results as
/// they come (the TUI). [`scan_streaming`] sends `Progress` and `Found`; a
/// TUI backend adds `Walk`, `Done` or `Failed`. A backend sends `Progress` as often as
/// it likes (the TUI throttles), each `Found` as soon as the config is
/// loaded and compared with the store, and exactly one `Done` at the end.
#[derive(Debug, Clone)]
pub enum ScanEvent {
    Progress {
        dirs: u64,
        configs: u64,
    },
    Found(Box<ConfigReport>),
    /// The scan could not run at all (root missing, store unreadable ...).
    /// Per-config failures are `Found` reports in the `Error` state instead.
    Failed(String),
    /// What the walk could not read, and the directory links it did not
    /// follow because they lead out of the tree, as lines to show; sent
    /// before `Done` when any is not empty. `shadowed` are config files
    /// GocciaScript does not read because a higher-priority name sits in
    /// the same directory; `missing` are store entries under the scanned
    /// path whose config is gone.
    Walk {
        unreadable: Vec<String>,
        not_followed: Vec<String>,
        shadowed: Vec<NotReviewed>,
        missing: Vec<NotReviewed>,
    },
    Done {
        dirs: u64,
        configs: u64,
    },
}

/// A file the walk found that GocciaScript does not read (shadowed by a
/// higher-priority name beside it), or a store entry under the scanned
/// path whose config is gone: a row of the review, never trusted, never
/// hashed (issue 30).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotReviewed {
    /// The file's absolute path (for a missing config, its trust key).
    pub key: String,
    /// `key` relative to the working directory when under it.
    pub display_path: String,
    /// A shadowed file: the file GocciaScript reads instead, as shown.
    pub by: Option<String>,
    /// A missing config: when its entry was recorded.
    pub trusted_at: Option<String>,
    /// The line `scan` prints for it (`shadowed: …`, `missing: …`).
    pub line: String,
}

/// The report of each of `keys`, in their order, made in parallel a batch
/// at a time and handed to `each`: a caller that writes each report out
/// and drops it (`scan`'s output) never holds more than a few batches,
/// however many configs the walk found. The next batch is made while
/// `each` takes the last one. Stops at the first error `each` returns.
pub fn for_each_report<E>(
    keys: &[TrustKey],
    env: &Env,
    store: &(impl StoredEntries + ?Sized),
    mut each: impl FnMut(ConfigReport) -> Result<(), E>,
) -> Result<(), E> {
    for_each_made(keys, |key| report_for(key, env, store), |_, r| each(r))
}

/// Like [`for_each_report`], but sends progress and each report as soon as it is ready
/// (in no particular order), for the TUI. Once `stop` returns true the scan
/// winds down without walking or loading anything more (its results are
/// then incomplete), so a superseded scan does not compete with its
/// successor for the cores. Returns the walk, whose `keys` are the configs
/// reported.
///
/// `on_loaded` gets each config's report and the snapshot it was made from
/// (when the config loads) just before the report is sent, so a caller can
/// judge the config from the very read that is shown (the TUI's policy
/// verdicts) without reading it again.
pub fn scan_streaming(
    paths: &[String],
    env: &Env,
    store: &Store,
    on_event: &(dyn Fn(ScanEvent) + Sync),
    on_loaded: &(dyn Fn(&ConfigReport, &ConfigSnapshot) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Discovery, DiscoverError> {
    let progress = |p: WalkProgress| {
        on_event(ScanEvent::Progress {
            dirs: p.dirs as u64,
            configs: p.configs as u64,
        })
    };
    let found = discover_paths(paths, env, &progress, stop)?;
    found.keys.par_iter().for_each(|key| {
        if !stop() {
            let (report, snapshot) = report_and_snapshot(key, env, store);
            if let Some(s) = &snapshot {
                on_loaded(&report, s);
            }
            on_event(ScanEvent::Found(Box::new(report)));
        }
    });
    Ok(found)
}

/// One config's report against the store: made from the snapshot's own
/// strings, moved rather than copied, as the snapshot is not kept.
pub fn report_for(
    key: &TrustKey,
    env: &Env,
    store: &(impl StoredEntries + ?Sized),
) -> ConfigReport {
    // An entry that cannot be read back as it was validated is the row's
    // error: the config is shown against nothing else.
    let stored = match store.stored(key.as_str()) {
        Ok(stored) => stored,
        Err(e) => {
            let error = crate::core::error::ConfigError::invalid(e.to_string());
            return failed_report(key, env, None, error);
        }
    };
    let stored = stored.as_deref();
    match load_config(key, env) {
        Ok(snapshot) => {
            let comparison = compare(&snapshot, stored);
            let ConfigSnapshot {
                files,
                block,
                sha256,
                targets,
                ..
            } = snapshot;
            let loaded = Loaded {
                block,
                sha256,
                targets: targets.into_pairs(),
            };
            report(key, env, stored, comparison, files, Outcome::Loaded(loaded))
        }
        Err(error) => failed_report(key, env, stored, error),
    }
}

/// The report of a config that does not load.
fn failed_report(
    key: &TrustKey,
    env: &Env,
    stored: Option<&StoredEntry>,
    error: crate::core::error::ConfigError,
) -> ConfigReport {
    let comparison = Comparison {
        state: ConfigState::Error,
        lines: Vec::<DiffLine>::new(),
    };
    let files = vec![key.as_str().to_string()];
    report(key, env, stored, comparison, files, Outcome::Failed(error))
}

/// A report from its parts: what every report of `key` shares (its
/// paths, its stored entry) and what loading it gave.
fn report(
    key: &TrustKey,
    env: &Env,
    stored: Option<&StoredEntry>,
    comparison: Comparison,
    files: Vec<String>,
    outcome: Outcome,
) -> ConfigReport {
    ConfigReport {
        key: key.as_str().to_string(),
        display_path: display_path(key.as_str(), &env.cwd),
        state: comparison.state,
        files,
        lines: comparison.lines,
        outcome,
        stored: stored.map(stored_info),
    }
}

/// One config's report against the store, with the snapshot it was made
/// from (absent when the config does not load), for callers that go on to
/// judge or record the config without reading it again.
pub fn report_and_snapshot(
    key: &TrustKey,
    env: &Env,
    store: &Store,
) -> (ConfigReport, Option<ConfigSnapshot>) {
    let stored = store.get(key.as_str());
    match load_config(key, env) {
        Ok(snapshot) => {
            let comparison = compare(&snapshot, stored);
            let loaded = Loaded {
                block: snapshot.block.clone(),
                sha256: snapshot.sha256.clone(),
                targets: snapshot.targets.to_pairs(),
            };
            let files = snapshot.files.clone();
            let report = report(key, env, stored, comparison, files, Outcome::Loaded(loaded));
            (report, Some(snapshot))
        }
        Err(error) => (failed_report(key, env, stored, error), None),
    }
}

pub fn stored_info(entry: &StoredEntry) -> StoredInfo {
    StoredInfo {
        sha256: entry.sha256.to_hex(),
        trusted_at: entry.trusted_at.to_string(),
        trusted_by: entry.trusted_by.to_string(),
        block: Block::from_json(entry.block.value().into_owned()),
        targets: entry.target_pairs(),
    }
}

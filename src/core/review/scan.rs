//! Every effective config at or under some paths, each with its state against
//! the store. Discovery, loading and hashing run in parallel; the result is
//! in key byte order whatever the parallelism.

use rayon::prelude::*;

use crate::core::config::{ConfigSnapshot, load_config};
use crate::core::env::Env;
use crate::core::paths::display::display_path;
use crate::core::paths::key::TrustKey;
use crate::core::review::discover::{DiscoverError, Discovery, WalkProgress, discover_paths};
use crate::core::review::report::{ConfigReport, ConfigState, DiffLine, StoredInfo};
use crate::core::review::status::compare;
use crate::core::store::{Store, StoredEntry};

/// Progress and results of a scan, for callers that show them as they come.
#[derive(Debug, Clone)]
pub enum ScanEvent {
    Progress(WalkProgress),
    Config(Box<ConfigReport>),
}

/// The keys of every effective config at or under each path, de-duplicated
/// and in key byte order.
pub fn discover_all(
    paths: &[String],
    env: &Env,
    progress: &(dyn Fn(WalkProgress) + Sync),
) -> Result<Vec<TrustKey>, DiscoverError> {
    discover_paths(paths, env, progress, &|| false).map(|d| d.keys)
}

/// Reports for every config at or under `paths`, in key byte order.
pub fn scan(
    paths: &[String],
    env: &Env,
    store: &Store,
) -> Result<Vec<ConfigReport>, DiscoverError> {
    scan_walk(paths, env, store).map(|(reports, _)| reports)
}

/// [`scan`], with what the walk could not read or did not follow (its
/// `keys` are those of the reports).
pub fn scan_walk(
    paths: &[String],
    env: &Env,
    store: &Store,
) -> Result<(Vec<ConfigReport>, Discovery), DiscoverError> {
    let found = discover_paths(paths, env, &|_| {}, &|| false)?;
    let reports = found
        .keys
        .par_iter()
        .map(|key| report_for(key, env, store))
        .collect();
    Ok((reports, found))
}

/// Like [`scan`], but sends progress and each report as soon as it is ready
/// (in no particular order), for the TUI. Once `stop` returns true the scan
/// winds down without walking or loading anything more (its results are
/// then incomplete), so a superseded scan does not compete with its
/// successor for the cores. Returns the walk, whose `keys` are the configs
/// reported.
pub fn scan_streaming(
    paths: &[String],
    env: &Env,
    store: &Store,
    on_event: &(dyn Fn(ScanEvent) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Discovery, DiscoverError> {
    let progress = |p| on_event(ScanEvent::Progress(p));
    let found = discover_paths(paths, env, &progress, stop)?;
    found.keys.par_iter().for_each(|key| {
        if !stop() {
            on_event(ScanEvent::Config(Box::new(report_for(key, env, store))));
        }
    });
    Ok(found)
}

/// One config's report against the store.
pub fn report_for(key: &TrustKey, env: &Env, store: &Store) -> ConfigReport {
    report_and_snapshot(key, env, store).0
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
    let display = display_path(key.as_str(), &env.cwd);
    let stored_info = stored.map(stored_info);
    match load_config(key, env) {
        Ok(snapshot) => {
            let comparison = compare(&snapshot, stored);
            let report = ConfigReport {
                key: key.as_str().to_string(),
                display_path: display,
                state: comparison.state,
                files: snapshot.files.clone(),
                lines: comparison.lines,
                block: Some(snapshot.block.as_str().to_string()),
                sha256: Some(snapshot.sha256.clone()),
                targets: snapshot.targets.to_pairs(),
                stored: stored_info,
                error: None,
            };
            (report, Some(snapshot))
        }
        Err(error) => {
            let report = ConfigReport {
                key: key.as_str().to_string(),
                display_path: display,
                state: ConfigState::Error,
                files: vec![key.as_str().to_string()],
                lines: Vec::<DiffLine>::new(),
                block: None,
                sha256: None,
                targets: Vec::new(),
                stored: stored_info,
                error: Some(error),
            };
            (report, None)
        }
    }
}

pub fn stored_info(entry: &StoredEntry) -> StoredInfo {
    StoredInfo {
        sha256: entry.sha256.clone(),
        trusted_at: entry.trusted_at.clone(),
        trusted_by: entry.trusted_by.clone(),
        block: entry.block.to_compact(),
        targets: entry.targets.clone(),
    }
}

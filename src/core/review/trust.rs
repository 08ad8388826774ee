//! Trusting and untrusting: what `--trust` would record, recording it under
//! the store lock, and removing entries (docs/src/compatibility.md#the-trust-listing-prompt-and-confirmation, #untrust-lines,
//! #blank-paths-and-empty-variables).

use std::borrow::Cow;

use rayon::prelude::*;

use crate::core::config::block::Block;
use crate::core::config::targets::Targets;
use crate::core::config::{ConfigSnapshot, HashedConfig, load_config, load_hashed};
use crate::core::env::Env;
use crate::core::error::ConfigError;
use crate::core::paths::display::{describe_targets, display_path};
use crate::core::paths::key::TrustKey;
use crate::core::paths::key::{is_under, trust_key_for_directory, trust_key_for_path};
use crate::core::policy::gate::decide;
use crate::core::policy::{ConfigDecision, Policy};
use crate::core::review::discover::{DiscoverError, Shadowed, Unreadable, discover_paths};
use crate::core::review::listing::config_exists;
use crate::core::review::report::ConfigState;
use crate::core::review::report::{ConfigReport, DiffLine, moved_targets};
use crate::core::review::scan::report_and_snapshot;
use crate::core::review::status::compare;
use crate::core::review::value_diff::{ValueChange, block_values, diff_values};
use crate::core::store::Sha256;
use crate::core::store::{
    LOCK_TIMEOUT, Store, StoreError, StoreLocation, StoreOnDemand, StoredBlock, StoredEntries,
    StoredEntry, read_store, update_read_store, update_store_locked, utc_timestamp_now,
};

/// `trustedBy` of every entry this tool writes.
pub fn trusted_by() -> String {
    format!("goccia-trust {}", env!("CARGO_PKG_VERSION"))
}

/// A config that `--trust` lists: new, or changed since trusted. It
/// keeps what the listing, its printers and the record read
/// ([`ListedConfig`]), not the loaded snapshot.
#[derive(Debug, Clone)]
pub struct TrustCandidate {
    pub snapshot: ListedConfig,
    /// `false` for `(new)`, `true` for `(changed)`.
    pub changed: bool,
    /// A changed config's lines against its store entry (the diff and the
    /// target lines); empty for a new one, whose lines are its
    /// description lines, made again when printed ([`Self::lines`]).
    changes: Vec<DiffLine>,
    /// Its files as they were when it was loaded (`None` where the
    /// platform gives no stamp).
    pub stamp: Option<Stamp>,
    /// With `--policy`: the policy's decision, made as the config was
    /// loaded (the request it judges is not kept).
    pub decision: Option<ConfigDecision>,
}

/// The metadata of a config's files (its extends chain, in its order),
/// each as a link and as what it leads to: size, modification and change
/// times, inode and device. A file rewritten, replaced or re-linked has
/// another stamp.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp(Vec<[i64; 10]>);

impl Stamp {
    /// The stamp of `files` now; `None` when one cannot be read.
    #[cfg(unix)]
    pub fn of(files: &[String]) -> Option<Stamp> {
        use std::os::unix::fs::MetadataExt;
        // Size, inode and device as their 64 bits (compared, never
        // computed with), so each file's stamp is 80 bytes.
        let fields = |m: std::fs::Metadata| {
            [m.len(), m.ino(), m.dev()]
                .map(|v| i64::from_ne_bytes(v.to_ne_bytes()))
                .into_iter()
                .chain([m.mtime(), m.mtime_nsec(), m.ctime(), m.ctime_nsec()])
        };
        let mut stamps = Vec::with_capacity(files.len());
        for file in files {
            let link = std::fs::symlink_metadata(file).ok()?;
            let target = std::fs::metadata(file).ok()?;
            let mut all = [0i64; 10];
            // The link's size, inode and times, then the target's, less
            // its device (the link's says where both are).
            for (slot, value) in all
                .iter_mut()
                .zip(fields(link).chain(fields(target).skip(2)))
            {
                *slot = value;
            }
            stamps.push(all);
        }
        Some(Stamp(stamps))
    }

    #[cfg(not(unix))]
    pub fn of(_files: &[String]) -> Option<Stamp> {
        None
    }

    /// Whether every one of `files` (those it was made of) has the stamp
    /// it had.
    fn unchanged(&self, files: &[String]) -> bool {
        Stamp::of(files).is_some_and(|now| now == *self)
    }
}

impl TrustCandidate {
    /// Its lines: a new config's description lines, each unchanged; a
    /// changed config's diff against its store entry and target lines.
    pub fn lines(&self) -> std::borrow::Cow<'_, [DiffLine]> {
        if self.changed {
            std::borrow::Cow::Borrowed(&self.changes)
        } else {
            let lines = self.snapshot.lines().into_iter();
            std::borrow::Cow::Owned(lines.map(DiffLine::Unchanged).collect())
        }
    }

    /// A changed config's values compared with its store entry `stored`,
    /// value by value (issue 30: what the prompt shows on a terminal, as
    /// the detail pane and `scan` do); empty for a new config, or when
    /// there is no entry to compare with.
    pub fn values(&self, stored: Option<&StoredEntry>) -> Vec<ValueChange> {
        let Some(stored) = stored.filter(|_| self.changed) else {
            return Vec::new();
        };
        diff_values(
            &block_values(&stored.block.value()),
            &block_values(&self.snapshot.json()),
            &self.snapshot.targets.to_pairs(),
            &moved_targets(&self.changes),
        )
    }
}

/// What `--trust PATH...` found.
#[derive(Debug, Clone, Default)]
pub struct TrustPlan {
    /// New or changed configs, in key byte order.
    pub candidates: Vec<TrustCandidate>,
    /// Requesting configs already trusted and unchanged.
    pub unchanged: usize,
    /// Candidates taken out because they are ignored
    /// (`review::ignore::leave_out_ignored`).
    pub left_out: usize,
    /// Our lines after GocciaScript's listing: `not followed: …` for the
    /// directory links out of the paths, `shadowed: …` for each config
    /// file a higher-priority one shadows, `missing: …` for each trusted
    /// config under the paths that is gone.
    pub notes: Vec<String>,
    /// The same links as data (`trust --json`).
    pub not_followed_links: Vec<crate::core::review::discover::NotFollowed>,
    /// The shadowed config files as data, in path order (`trust --json`).
    pub shadowed: Vec<Shadowed>,
    /// The trusted configs under the paths that are gone, as data: each
    /// key and when it was trusted, in the store's order (`trust --json`).
    pub missing: Vec<(String, String)>,
}

impl TrustPlan {
    pub fn requesting(&self) -> usize {
        self.candidates.len() + self.unchanged
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error(transparent)]
    Discover(#[from] DiscoverError),
    #[error("{0}")]
    Config(ConfigError),
    /// Part of the paths could not be read: a config may hide there, so
    /// nothing is trusted. Paths are shown relative to the working directory.
    #[error(
        "{} under {targets} could not be read; nothing was trusted",
        if items.len() == 1 { "1 path".to_string() } else { format!("{} paths", items.len()) }
    )]
    Unreadable {
        items: Vec<Unreadable>,
        targets: String,
    },
}

/// Scans and loads every config at or under `paths` and compares it with the
/// store; with a `policy`, judges each config listed as it is loaded. A
/// config that fails to load fails the plan with its own error (the first
/// in key order, as GocciaScript processes them).
pub fn plan_trust(
    paths: &[String],
    env: &Env,
    store: &Store,
    policy: Option<&Policy>,
) -> Result<TrustPlan, PlanError> {
    let found = discover_paths(paths, env, &|_| {}, &|| false)?;
    let targets = describe_targets(paths, env);
    if !found.unreadable.is_empty() {
        let items = found
            .unreadable
            .into_iter()
            .map(|u| Unreadable {
                path: display_path(&u.path, &env.cwd),
                reason: u.reason,
            })
            .collect();
        return Err(PlanError::Unreadable { items, targets });
    }
    // Each config's files are stamped as it is loaded, so that `--yes`
    // records it without reading it again when nothing changed since; it
    // is compared with the store (and judged) on the same thread, and only
    // what the listing needs of it is kept.
    let planned: Vec<Result<Planned, ConfigError>> = found
        .keys
        .par_iter()
        .map(|k| load_config(k, env).map(|s| Planned::of(s, store, policy, env)))
        .collect();
    let not_followed = found
        .not_followed
        .iter()
        .map(|n| n.describe(&env.cwd, &targets));
    let shadowed = found.shadowed.iter().map(|s| s.describe(&env.cwd));
    let missing = missing_entries(store, paths, env);
    let missing_lines = missing.iter().map(|(key, _)| missing_line(key, &env.cwd));
    let mut plan = TrustPlan {
        notes: not_followed.chain(shadowed).chain(missing_lines).collect(),
        not_followed_links: found.not_followed.clone(),
        shadowed: found.shadowed.clone(),
        missing,
        ..TrustPlan::default()
    };
    // The candidates are moved into a vector of their exact size: one
    // grown by doubling holds up to twice their bytes at once.
    let count = planned
        .iter()
        .filter(|p| matches!(p, Ok(Planned::Candidate(_))))
        .count();
    plan.candidates.reserve_exact(count);
    for result in planned {
        match result.map_err(PlanError::Config)? {
            Planned::NoRequest => {}
            Planned::Trusted => plan.unchanged += 1,
            Planned::Candidate(c) => plan.candidates.push(*c),
        }
    }
    Ok(plan)
}

/// One loaded config, compared with the store.
enum Planned {
    NoRequest,
    Trusted,
    /// Boxed: the vector of every config's outcome holds a pointer each.
    Candidate(Box<TrustCandidate>),
}

impl Planned {
    fn of(snapshot: ConfigSnapshot, store: &Store, policy: Option<&Policy>, env: &Env) -> Planned {
        let stamp = Stamp::of(&snapshot.files);
        let comparison = compare(&snapshot, store.get(snapshot.key.as_str()));
        match comparison.state {
            ConfigState::NoRequest => Planned::NoRequest,
            ConfigState::Trusted => Planned::Trusted,
            state => {
                let decision = policy.map(|p| decide(p, &snapshot, env));
                let changed = state == ConfigState::Changed;
                // A new config's lines are its description lines, which
                // the listing makes again from the block it keeps.
                let mut changes = if changed {
                    comparison.lines
                } else {
                    Vec::new()
                };
                changes.shrink_to_fit();
                Planned::Candidate(Box::new(TrustCandidate {
                    snapshot: ListedConfig::of(snapshot),
                    changed,
                    changes,
                    stamp,
                    decision,
                }))
            }
        }
    }
}

/// The digest of `hex`, a block's hash as this program computes it (64
/// lower-case hex digits, always).
#[allow(clippy::expect_used)] // our own SHA-256's hex: cannot fail
fn digest(hex: &str) -> Sha256 {
    Sha256::from_hex(hex).expect("a computed SHA-256 is 64 lower-case hex digits")
}

/// The store entry that trusting this snapshot records now.
pub fn entry_for(sha256: &str, block: &Block, targets: &Targets, trusted_at: &str) -> StoredEntry {
    StoredEntry {
        sha256: digest(sha256),
        block: block.json().clone().into(),
        targets: StoredEntry::boxed_targets(targets.as_pairs().iter().cloned()),
        trusted_at: trusted_at.into(),
        trusted_by: trusted_by().into(),
    }
}

/// What a reviewer was shown of one config, and so all a trust of it may
/// record: its block, the block's hash, and where each path scope resolved.
/// Borrowed from the listing (or the reports) that showed it, or moved out
/// of a listing nothing reads after the record ([`Shown::from_candidate`]):
/// recording 20,000 configs copies nothing of them but what it must.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown<'a> {
    pub key: Cow<'a, str>,
    pub sha256: Cow<'a, str>,
    /// The normalized block's text; `None` when it is `recorded`'s.
    block: Option<Cow<'a, str>>,
    pub targets: Cow<'a, [(String, String)]>,
    /// Its files when it was listed: while they have this stamp, it is
    /// recorded as listed, without reading it again (`trust --yes`).
    pub stamp: Option<(Cow<'a, Stamp>, Cow<'a, [String]>)>,
    /// With the stamp: the block as the entry records it, made from the
    /// block's JSON when it was listed (never parsed again).
    pub recorded: Option<Cow<'a, StoredBlock>>,
}

impl<'a> Shown<'a> {
    /// A candidate that `trust --yes` records: with the stamp of its
    /// files when it was listed, so that it is read again only if one of
    /// them changed since.
    pub fn of_candidate(c: &'a TrustCandidate) -> Shown<'a> {
        let s = &c.snapshot;
        Shown {
            stamp: c
                .stamp
                .as_ref()
                .map(|t| (Cow::Borrowed(t), Cow::Borrowed(s.files.as_slice()))),
            block: s.normalized().map(Cow::Borrowed),
            recorded: Some(Cow::Borrowed(&s.block)),
            ..Shown::of_snapshot(s)
        }
    }

    /// [`Shown::of_candidate`], moved out of the candidate: for a listing
    /// that nothing reads after the record.
    pub fn from_candidate(c: TrustCandidate) -> Shown<'static> {
        let TrustCandidate {
            snapshot: s, stamp, ..
        } = c;
        let (key, files, sha256, block, normalized, targets) = s.into_parts();
        Shown {
            key: Cow::Owned(key.0),
            sha256: Cow::Owned(sha256),
            block: normalized.map(|n| Cow::Owned(n.into())),
            targets: Cow::Owned(targets.into_pairs()),
            stamp: stamp.map(|t| (Cow::Owned(t), Cow::Owned(files))),
            recorded: Some(Cow::Owned(block)),
        }
    }

    /// A listed config, read again under the lock before it is recorded.
    pub fn of_snapshot(s: &'a ListedConfig) -> Shown<'a> {
        Shown {
            key: Cow::Borrowed(s.key.as_str()),
            sha256: Cow::Borrowed(&s.sha256),
            block: Some(Cow::Borrowed(s.block_text())),
            targets: Cow::Borrowed(s.targets.as_pairs()),
            stamp: None,
            recorded: None,
        }
    }

    /// A report that shows no block (a config that failed to load) binds to
    /// an empty one, which no config on disk matches: it is never recorded.
    pub fn of_report(r: &'a ConfigReport) -> Shown<'a> {
        Shown {
            key: Cow::Borrowed(&r.key),
            sha256: Cow::Borrowed(r.sha256().unwrap_or_default()),
            block: Some(Cow::Borrowed(r.block().unwrap_or_default())),
            targets: Cow::Borrowed(r.targets()),
            stamp: None,
            recorded: None,
        }
    }

    /// The normalized block's text, as shown.
    pub fn block(&self) -> &str {
        match (&self.block, &self.recorded) {
            (Some(text), _) => text,
            (None, Some(recorded)) => recorded.as_str(),
            (None, None) => "",
        }
    }

    /// The entry recorded as listed, when the files still have the stamp
    /// they had then (what it records is taken out of `self`, which is
    /// spent); else `None`, and it is to be read again.
    fn take_unchanged(&mut self, trusted_at: &str) -> Option<(String, StoredEntry)> {
        let (stamp, files) = self.stamp.as_ref()?;
        if self.recorded.is_none() || !stamp.unchanged(files) {
            return None;
        }
        let entry = StoredEntry {
            sha256: digest(&self.sha256),
            block: self.recorded.take()?.into_owned(),
            targets: StoredEntry::boxed_targets(std::mem::take(&mut self.targets).into_owned()),
            trusted_at: trusted_at.into(),
            trusted_by: trusted_by().into(),
        };
        Some((std::mem::take(&mut self.key).into_owned(), entry))
    }

    /// Whether the config, read again now, is what was shown.
    fn matches(&self, now: &HashedConfig) -> bool {
        now.sha256 == self.sha256
            && now.block.as_str() == self.block()
            && now.targets.as_pairs() == &*self.targets
    }
}

/// What to do when some configs changed between the listing and the commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhenChanged {
    /// Leave the changed configs out and record the others (the CLI).
    LeaveOut,
    /// Record nothing at all (the TUI, which then shows the new state).
    RecordNothing,
}

/// The outcome of [`trust_as_shown`].
#[derive(Debug, Clone, Default)]
pub struct TrustCommit {
    /// How many configs were recorded.
    pub recorded: usize,
    /// The configs that changed since shown, as they are now (in the order
    /// given); none of them was recorded.
    pub refused: Vec<ConfigReport>,
}

/// Records exactly what was shown, or nothing: under the store lock, each
/// config is read, hashed and its targets resolved again (links re-read,
/// not remembered), and recorded only when block, hash and every target
/// equal what was shown. The configs are read once, under the lock (there
/// is no unlocked first pass: what was shown is new or changed, so a write
/// is what is expected); the store is re-read there too, so the caller's
/// own read of it is not needed. Nothing shown takes no lock.
pub fn trust_as_shown(
    loc: &StoreLocation,
    shown: &[Shown<'_>],
    env: &Env,
    when_changed: WhenChanged,
) -> Result<TrustCommit, StoreError> {
    // Borrowed, each `Shown` is a few pointers: its data is copied only
    // into the entries recorded.
    trust_moved(loc, shown.to_vec(), env, when_changed)
}

/// [`trust_as_shown`], taking what was shown: what it owns (a listing
/// moved out with [`Shown::from_candidate`]) goes into the entries it
/// records without being copied.
pub fn trust_moved(
    loc: &StoreLocation,
    shown: Vec<Shown<'_>>,
    env: &Env,
    when_changed: WhenChanged,
) -> Result<TrustCommit, StoreError> {
    if shown.is_empty() {
        return Ok(TrustCommit::default());
    }
    let now = utc_timestamp_now();
    let count = shown.len();
    // The store is updated once (the closure is called once).
    let mut shown = Some(shown);
    update_store_locked(loc, LOCK_TIMEOUT, |store| {
        // What a one-shot command remembered of the disk while listing is
        // exactly what must not be trusted here.
        crate::core::paths::realpath::forget();
        let checked = check_shown(shown.take().unwrap_or_default(), &now, env);
        let mut commit = TrustCommit::default();
        for key in checked.iter().filter_map(|c| c.as_ref().err()) {
            // Read once more: it is shown as it is now.
            let (report, _) = report_and_snapshot(&TrustKey(key.clone()), env, store);
            commit.refused.push(report);
        }
        if when_changed == WhenChanged::RecordNothing && !commit.refused.is_empty() {
            return Ok(commit);
        }
        // The entries go from the checked list into the store, which grows
        // once to its new size (not by doubling, with both copies alive).
        commit.recorded = count - commit.refused.len();
        store.reserve(commit.recorded);
        for (key, entry) in checked.into_iter().flatten() {
            store.put(key, entry);
        }
        Ok(commit)
    })
    .map(|u| u.value)
}

/// Each shown config checked under the lock, on every thread: the entry
/// that records it, or its key when it is no longer what was shown. One
/// whose files kept their stamp is recorded as listed; any other is read
/// as far as the hash and the targets, which is all the check needs.
fn check_shown(
    shown: Vec<Shown<'_>>,
    now: &str,
    env: &Env,
) -> Vec<Result<(String, StoredEntry), String>> {
    shown
        .into_par_iter()
        .map(|mut s| {
            if let Some(recorded) = s.take_unchanged(now) {
                return Ok(recorded);
            }
            let key = TrustKey(s.key.to_string());
            match load_hashed(&key, env).ok().filter(|c| s.matches(c)) {
                Some(c) => {
                    let entry = entry_for(&c.sha256, &c.block.into_block(), &c.targets, now);
                    Ok((c.key.0, entry))
                }
                None => Err(key.0),
            }
        })
        .collect()
}

/// Removes the entries with these keys, but only if every one is still
/// missing under the lock: `Err(n)` (nothing removed) when `n` came back.
pub fn prune_if_still_missing(
    loc: &StoreLocation,
    keys: &[String],
) -> Result<Result<usize, usize>, StoreError> {
    let current = read_store(&loc.path)?;
    update_read_store(loc, current, LOCK_TIMEOUT, |store| {
        let back = keys.iter().filter(|k| config_exists(k)).count();
        if back > 0 {
            return Ok(Err(back));
        }
        Ok(Ok(keys
            .iter()
            .filter(|k| store.remove(k).is_some())
            .count()))
    })
    .map(|u| u.value)
}

/// The key prefix a `--untrust` argument removes entries at or under.
pub fn untrust_root(arg: &str, env: &Env) -> String {
    let expanded = crate::core::paths::expand_without_trailing_separator(arg, &env.cwd, &env.home);
    if crate::core::paths::input::is_directory(&expanded) {
        trust_key_for_directory(arg, env)
    } else {
        trust_key_for_path(arg, env).0
    }
}

/// Removes, per root, the entries equal to it or under it, saving the store
/// only when something goes. Returns the keys each root removed (in store
/// order).
pub fn untrust_roots(
    loc: &StoreLocation,
    current: Store,
    roots: &[String],
) -> Result<Vec<Vec<String>>, StoreError> {
    // `current` decides whether anything goes; the removal is then applied
    // again under the lock to the store as it is on disk.
    update_read_store(loc, current, LOCK_TIMEOUT, |store| {
        Ok(roots
            .iter()
            .map(|root| store.retain(|k, _| !is_under(k, root)))
            .collect())
    })
    .map(|u| u.value)
}

/// The store's entries at or under `paths` whose config is gone (the key
/// is not an existing file): deleted since they were trusted.
pub fn missing_under<'s>(
    store: &'s Store,
    paths: &[String],
    env: &Env,
) -> Vec<(&'s str, &'s crate::core::store::StoredEntry)> {
    let gone = gone_under(paths, env);
    store.iter().filter(|(key, _)| gone(key)).collect()
}

/// Whether a key is under one of `paths` and its config is gone.
fn gone_under(paths: &[String], env: &Env) -> impl Fn(&str) -> bool {
    let roots: Vec<String> = paths.iter().map(|p| untrust_root(p, env)).collect();
    move |key| roots.iter().any(|r| is_under(key, r)) && !config_exists(key)
}

/// [`missing_entries`] of a store read on demand (`scan`): the entry of
/// each gone config is read back for when it was trusted.
pub fn missing_entries_on_demand(
    store: &StoreOnDemand,
    paths: &[String],
    env: &Env,
) -> Result<Vec<(String, String)>, StoreError> {
    let gone = gone_under(paths, env);
    let mut missing = Vec::new();
    for key in store.keys().filter(|key| gone(key)) {
        if let Some(entry) = store.stored(key)? {
            missing.push((key.to_string(), entry.trusted_at.to_string()));
        }
    }
    Ok(missing)
}

/// [`missing_under`] as data: each gone config's key and when it was
/// trusted, in the store's order (`trust --json`, `scan --policy`).
pub fn missing_entries(store: &Store, paths: &[String], env: &Env) -> Vec<(String, String)> {
    missing_under(store, paths, env)
        .into_iter()
        .map(|(key, e)| (key.to_string(), e.trusted_at.to_string()))
        .collect()
}

/// `missing: tools/release/goccia.json (…)`, the key relative to `cwd`.
pub fn missing_line(key: &str, cwd: &str) -> String {
    format!(
        "missing: {} (trusted, now gone; goccia-trust untrust --missing removes the entry)",
        display_path(key, cwd)
    )
}

/// Removes every entry whose key is not an existing file; returns their keys.
pub fn untrust_missing(loc: &StoreLocation, current: Store) -> Result<Vec<String>, StoreError> {
    update_read_store(loc, current, LOCK_TIMEOUT, |store| {
        Ok(store.retain(|k, _| config_exists(k)))
    })
    .map(|u| u.value)
}

mod listed;
pub mod outcome;

pub use listed::ListedConfig;

// Unix-only tests (modes, links, owners); Windows builds the rest.
#[cfg(all(test, unix))]
mod tests;

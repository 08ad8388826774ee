//! The real backend: the TUI's requests served by the same core as the CLI,
//! with the same locked store code.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};

use crate::core::config::block::Block;
use crate::core::config::targets::Targets;
use crate::core::config::{ConfigSnapshot, load_config};
use crate::core::env::Env;
use crate::core::paths::bounded::{CONFIG_MAX_BYTES, read_regular};
use crate::core::paths::display::{count_config_files, describe_targets, display_path};
use crate::core::paths::key::TrustKey;
use crate::core::policy::gate::decide;
use crate::core::policy::{ConfigDecision, Policy};
use crate::core::review::discover::Discovery;
use crate::core::review::ignore::IgnoreAs;
use crate::core::review::ignore::{IgnoreList, ignore_dir, load_ignores, update_ignores};
use crate::core::review::listing::{Detail, list_entries};
use crate::core::review::progress::{
    Progress, ProgressChange, load_progress, progress_dir, update_progress,
};
use crate::core::review::report::{ConfigReport, StoreEntryReport};
use crate::core::review::scan::{NotReviewed, report_and_snapshot, scan_streaming};
use crate::core::review::trust::{
    Shown, WhenChanged, missing_line, missing_under, prune_if_still_missing, trust_as_shown,
};
use crate::core::revision::provenance::reviewed::{ReviewedVersions, reviewed_versions};
use crate::core::revision::provenance::{Absent, ConfigProvenance, ValueOrigin};
use crate::core::revision::since::SinceBase;
use crate::core::store::{
    Store, StoreError, StoreLocation, User, check_store, read_store, store_in_reviewed_tree,
    update_store,
};
use crate::core::team::digest::{RepoPath, portable_digest};
use crate::core::team::each_config::{ConfigReviews, ReviewsFiles};
use crate::core::team::signers::{AllowedSigners, Revoked};
use crate::core::team::verify::Judge;
use crate::tui::backend::{
    CommitError, CommitOutcome, InspectData, Rescanned, ScanEvent, SourceFile, TuiBackend,
};

pub struct CoreBackend {
    env: Env,
    /// The store, or why it cannot be located.
    store: Result<StoreLocation, String>,
    /// The trees under review (each scan's root): a `--trust-store` inside
    /// one is refused for trust.
    reviewed: Mutex<Vec<String>>,
    /// Refresh when configs change on disk (`--no-watch` turns it off).
    pub watching: bool,
    /// The current watch; replaced by each `watch`, dropped with it.
    watcher: Mutex<Option<notify::RecommendedWatcher>>,
    /// `--policy`, loaded and anchored as `scan --policy` does, and its
    /// label; each scan judges every config that requests something.
    pub policy: Option<(Policy, String)>,
    /// Decisions made by the running scan, by key, with the sha256 of the
    /// block judged, until `take_decision` hands them over.
    decisions: Mutex<HashMap<String, (String, ConfigDecision)>>,
    /// `--since BASE`: the revision and the repository's root (checked by
    /// `since::locate` before the terminal was taken).
    pub since: Option<(String, String)>,
    /// Its configs, read once by the first scan's worker.
    since_base: OnceLock<Result<Arc<SinceBase>, String>>,
    /// The allowed signers signed reviews are judged by (`--reviewed-by`,
    /// else the store directory's `allowed_signers`), checked for where
    /// they lie before the terminal was taken; `None`: records are only
    /// ever `unchecked`.
    pub reviewed_by: Option<AllowedSigners>,
    /// Each repository's reviews file, read once per scan.
    review_files: ReviewsFiles,
    /// Reviews judged by the running scan, by key, with the sha256 of the
    /// block judged, until `take_reviews` hands them over.
    reviews: Mutex<HashMap<String, (String, ConfigReviews)>>,
}

/// At most this many directories are watched: past it, nothing is (and the
/// TUI says so), never one watch per directory of a huge tree.
pub const MAX_WATCHED_DIRS: usize = 2048;

/// Changes closer together than this make one refresh.
const DEBOUNCE: std::time::Duration = std::time::Duration::from_millis(300);

impl CoreBackend {
    pub fn new(env: Env, store: Result<StoreLocation, String>) -> CoreBackend {
        CoreBackend {
            env,
            store,
            reviewed: Mutex::new(Vec::new()),
            watching: true,
            watcher: Mutex::new(None),
            policy: None,
            decisions: Mutex::new(HashMap::new()),
            since: None,
            since_base: OnceLock::new(),
            reviewed_by: None,
            review_files: ReviewsFiles::default(),
            reviews: Mutex::new(HashMap::new()),
        }
    }

    fn location(&self) -> Result<&StoreLocation, CommitError> {
        self.store
            .as_ref()
            .map_err(|e| CommitError::StoreUnreadable(e.clone()))
    }

    fn remember_reviewed(&self, root: &str) {
        if let Ok(mut r) = self.reviewed.lock()
            && !r.iter().any(|p| p == root)
        {
            r.push(root.to_string());
        }
    }

    /// With a policy, each config is judged from the snapshot its report
    /// was made from, before the report is sent; the decision waits for
    /// `take_decision`.
    fn judge(&self, report: &ConfigReport, snapshot: &ConfigSnapshot) {
        if let Some(reviews) = self.reviews_of(snapshot) {
            self.reviews
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(report.key.clone(), (snapshot.sha256.clone(), reviews));
        }
        if let Some((policy, _)) = &self.policy
            && snapshot.requests_grants()
        {
            let decision = decide(policy, snapshot, &self.env);
            self.decisions
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(report.key.clone(), (snapshot.sha256.clone(), decision));
        }
    }

    /// The signed reviews of a config that requests something, judged
    /// now by the allowed signers (if any); `None` where its repository
    /// has no reviews file.
    fn reviews_of(&self, snapshot: &ConfigSnapshot) -> Option<ConfigReviews> {
        if !snapshot.requests_grants() {
            return None;
        }
        let revoked = Revoked::default();
        let judge = Judge {
            signers: self.reviewed_by.as_ref(),
            revoked: &revoked,
            now: jiff::Timestamp::now().as_second(),
        };
        let file = self.reviewed_by.as_ref().map(|s| s.file.as_str());
        self.review_files.judge(snapshot, &judge, file)
    }

    /// What the walk found besides configs (unreadable entries, links not
    /// followed, shadowed files, and store entries whose file is gone), as
    /// one event; `None` when it found nothing of the kind.
    fn walk_event(&self, found: &Discovery, store: &Store, paths: &[String]) -> Option<ScanEvent> {
        let cwd = &self.env.cwd;
        let missing: Vec<NotReviewed> = missing_under(store, paths, &self.env)
            .into_iter()
            .map(|(key, entry)| NotReviewed {
                key: key.to_string(),
                display_path: display_path(key, cwd),
                by: None,
                trusted_at: Some(entry.trusted_at.to_string()),
                line: missing_line(key, cwd),
            })
            .collect();
        if found.unreadable.is_empty()
            && found.not_followed.is_empty()
            && found.shadowed.is_empty()
            && missing.is_empty()
        {
            return None;
        }
        let outside = describe_targets(paths, &self.env);
        Some(ScanEvent::Walk {
            unreadable: found
                .unreadable
                .iter()
                .map(|u| format!("cannot read {}: {}", display_path(&u.path, cwd), u.reason))
                .collect(),
            not_followed: found
                .not_followed
                .iter()
                .map(|n| n.describe(cwd, &outside))
                .collect(),
            shadowed: found
                .shadowed
                .iter()
                .map(|s| NotReviewed {
                    key: s.path.clone(),
                    display_path: display_path(&s.path, cwd),
                    by: Some(display_path(&s.by, cwd)),
                    trusted_at: None,
                    line: s.describe(cwd),
                })
                .collect(),
            missing,
        })
    }

    /// The store for showing states: an unreadable one counts as empty, as
    /// at run time (the store view names the problem).
    fn store_for_reading(&self) -> Store {
        match &self.store {
            Ok(loc) => read_store(&loc.path).unwrap_or_default(),
            Err(_) => Store::default(),
        }
    }
}

fn commit_error(e: StoreError) -> CommitError {
    match e {
        StoreError::Locked { .. } => CommitError::Locked(e.to_string()),
        StoreError::Unreadable { .. }
        | StoreError::NotJson { .. }
        | StoreError::Newer { .. }
        | StoreError::Invalid { .. }
        | StoreError::Unlocatable { .. }
        | StoreError::IsDirectory { .. } => CommitError::StoreUnreadable(e.to_string()),
        _ => CommitError::Failed(e.to_string()),
    }
}

/// Which configs a refused commit was about, for a status bar one line
/// wide: their paths, or a count when there are many.
fn changed_names(current: &[ConfigReport]) -> String {
    match current.len() {
        0 => "a config file".to_string(),
        1..=3 => current
            .iter()
            .map(|r| r.display_path.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        n => count_config_files(n),
    }
}

/// Whether a watch failed only because its directory is gone.
fn watch_target_gone(e: &notify::Error) -> bool {
    match &e.kind {
        notify::ErrorKind::PathNotFound => true,
        notify::ErrorKind::Io(io) => io.kind() == std::io::ErrorKind::NotFound,
        _ => false,
    }
}

impl TuiBackend for CoreBackend {
    fn provenance_on(&self) -> bool {
        true
    }

    fn provenance(&self, report: &ConfigReport) -> Result<ConfigProvenance, Absent> {
        use crate::core::revision::review_provenance::{of_report, of_report_since};
        // With `--since`, the change under review is BASE's, not the store's.
        match self.since_base() {
            None => of_report(report, &self.env),
            Some(Ok(base)) => of_report_since(report, &base, &self.env),
            Some(Err(reason)) => Err(Absent { reason }),
        }
    }

    fn store_provenance(&self, report: &ConfigReport) -> Result<ConfigProvenance, Absent> {
        crate::core::revision::review_provenance::of_report(report, &self.env)
    }

    fn deleted_by(&self, key: &str) -> Result<ValueOrigin, Absent> {
        crate::core::revision::provenance::deleted_by(key)
    }

    fn since_rev(&self) -> Option<String> {
        self.since.as_ref().map(|(rev, _)| rev.clone())
    }

    fn since_base(&self) -> Option<Result<Arc<SinceBase>, String>> {
        let (rev, root) = self.since.as_ref()?;
        Some(
            self.since_base
                .get_or_init(|| {
                    SinceBase::read(root, rev, &self.env)
                        .map(Arc::new)
                        .map_err(|e| format!("cannot read {rev}: {e}"))
                })
                .clone(),
        )
    }

    fn watch(
        &self,
        dirs: &[String],
        on_change: Box<dyn Fn(Vec<String>) + Send>,
    ) -> Result<(), String> {
        use notify::{EventKind, RecursiveMode, Watcher};
        let mut slot = self.watcher.lock().unwrap_or_else(|e| e.into_inner());
        *slot = None;
        if !self.watching {
            return Err("off".to_string());
        }
        if dirs.len() > MAX_WATCHED_DIRS {
            return Err(crate::tui::update::TOO_MANY.to_string());
        }
        // Events go to a debouncing thread, which calls back once things
        // have been quiet for DEBOUNCE; it ends with the watcher.
        let (tx, rx) = std::sync::mpsc::channel::<Vec<String>>();
        std::thread::spawn(move || {
            while let Ok(mut paths) = rx.recv() {
                while let Ok(more) = rx.recv_timeout(DEBOUNCE) {
                    paths.extend(more);
                }
                paths.sort();
                paths.dedup();
                on_change(paths);
            }
        });
        let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
            if let Ok(ev) = res
                && matches!(
                    ev.kind,
                    EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_)
                )
                && !matches!(
                    ev.kind,
                    EventKind::Modify(notify::event::ModifyKind::Metadata(_))
                )
            {
                // A path that is not UTF-8 cannot be matched to a config:
                // an empty list then asks for a full rescan.
                let paths: Option<Vec<String>> = ev
                    .paths
                    .iter()
                    .map(|p| p.to_str().map(str::to_owned))
                    .collect();
                let _ = tx.send(paths.unwrap_or_default());
            }
        })
        .map_err(|e| e.to_string())?;
        for dir in dirs {
            // A directory gone since the scan is simply not watched; the
            // rescan its removal triggers sets the watches again. Any other
            // failure (the inotify limit, a path that is no directory) turns
            // auto-refresh off with the reason: a partly watched tree would
            // look live while missing changes.
            if let Err(e) = watcher.watch(std::path::Path::new(dir), RecursiveMode::NonRecursive)
                && !watch_target_gone(&e)
            {
                return Err(format!("cannot watch {dir}: {e}"));
            }
        }
        *slot = Some(watcher);
        Ok(())
    }

    fn load_progress(&self, root: &str) -> (Progress, String, Option<String>) {
        let tree = crate::core::paths::expand_file_name(root, &self.env.cwd, &self.env.home);
        let tree = std::fs::canonicalize(&tree)
            .ok()
            .and_then(|p| p.to_str().map(str::to_owned))
            .unwrap_or(tree);
        match progress_dir(&self.env) {
            Some(dir) => {
                let (progress, problem) = load_progress(&dir);
                (progress, tree, problem)
            }
            None => (Progress::default(), tree, None),
        }
    }

    fn load_ignores(&self) -> (IgnoreList, Option<String>) {
        match ignore_dir(&self.env) {
            Some(dir) => load_ignores(&dir),
            None => (IgnoreList::default(), None),
        }
    }

    fn set_ignored(&self, changes: &[(String, Option<IgnoreAs>)]) -> Result<(), String> {
        let dir = ignore_dir(&self.env).ok_or(
            "no state directory (set HOME or XDG_STATE_HOME); the ignore list is not kept",
        )?;
        let now = crate::core::store::utc_timestamp_now();
        update_ignores(&dir, |list| {
            let mut changed = false;
            for (key, sha) in changes {
                changed |= match sha {
                    Some(now_as) => list.ignore(key, now_as, &now),
                    None => list.unignore(key),
                };
            }
            ((), changed)
        })
    }

    fn save_progress(&self, change: &ProgressChange) -> Result<(), String> {
        match progress_dir(&self.env) {
            Some(dir) => update_progress(&dir, change),
            None => Err(
                "no state directory (set HOME or XDG_STATE_HOME); review progress not saved".into(),
            ),
        }
    }

    fn rescan_configs(&self, keys: &[String]) -> Option<Vec<Rescanned>> {
        let store = self.store_for_reading();
        // A reviews file may have changed with the config.
        self.review_files.clear();
        keys.iter()
            .map(|key| {
                // Gone, or replaced by a directory: only a walk can say what
                // the effective config there is now.
                if !std::fs::symlink_metadata(key).is_ok_and(|m| m.is_file()) {
                    return None;
                }
                let (report, snapshot) =
                    report_and_snapshot(&TrustKey(key.clone()), &self.env, &store);
                let decision = match (&self.policy, &snapshot) {
                    (Some((policy, _)), Some(s)) if s.requests_grants() => {
                        Some(decide(policy, s, &self.env))
                    }
                    _ => None,
                };
                let reviews = snapshot.as_ref().and_then(|s| self.reviews_of(s));
                Some(Rescanned {
                    report,
                    decision,
                    reviews,
                })
            })
            .collect()
    }

    fn policy_label(&self) -> Option<String> {
        self.policy.as_ref().map(|(_, label)| label.clone())
    }

    fn take_decision(&self, report: &ConfigReport) -> Option<ConfigDecision> {
        let mut decisions = self.decisions.lock().unwrap_or_else(|e| e.into_inner());
        match decisions.remove(&report.key) {
            Some((sha, d)) if report.sha256() == Some(sha.as_str()) => Some(d),
            _ => None,
        }
    }

    fn take_reviews(&self, report: &ConfigReport) -> Option<ConfigReviews> {
        let mut reviews = self.reviews.lock().unwrap_or_else(|e| e.into_inner());
        match reviews.remove(&report.key) {
            Some((sha, r)) if report.sha256() == Some(sha.as_str()) => Some(r),
            _ => None,
        }
    }

    fn reviewed_versions(
        &self,
        report: &ConfigReport,
        reviews: &ConfigReviews,
    ) -> Result<ReviewedVersions, Absent> {
        let place = RepoPath {
            root: reviews.root.clone(),
            path: reviews.path.clone(),
        };
        let digest_of =
            |block: &Block, targets: &Targets| portable_digest(block, targets, &place).digest;
        reviewed_versions(
            &report.files,
            &reviews.earlier_digests(),
            &digest_of,
            &self.env,
        )
    }

    fn scan(&self, root: &str, on_event: &mut dyn FnMut(ScanEvent) -> ControlFlow<()>) {
        self.remember_reviewed(root);
        // Each repository's reviews file as it is now; what a superseded
        // scan judged and never handed over.
        self.review_files.clear();
        self.reviews
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        // What a superseded scan judged and never handed over.
        self.decisions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        let store = self.store_for_reading();
        let cancelled = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<ScanEvent>();
        let paths = vec![root.to_string()];
        let (store, cancelled, paths) = (&store, &cancelled, &paths);
        std::thread::scope(|s| {
            // The sender moves into the worker, so the loop below ends when
            // the scan does.
            let worker = s.spawn(move || {
                let tx = Mutex::new(tx);
                let send = |e: ScanEvent| {
                    if !cancelled.load(Ordering::Relaxed)
                        && let Ok(tx) = tx.lock()
                    {
                        let _ = tx.send(e);
                    }
                };
                let progress = Mutex::new((0u64, 0u64));
                let on_core_event = |event: ScanEvent| {
                    if let ScanEvent::Progress { dirs, configs } = event
                        && let Ok(mut last) = progress.lock()
                    {
                        *last = (dirs, configs);
                    }
                    send(event);
                };
                // A superseded scan stops walking and loading at once
                // rather than competing with its successor.
                let stop = || cancelled.load(Ordering::Relaxed);
                let judge =
                    |report: &ConfigReport, snapshot: &ConfigSnapshot| self.judge(report, snapshot);
                let result = scan_streaming(paths, &self.env, store, &on_core_event, &judge, &stop);
                match result {
                    Ok(found) => {
                        if let Some(walk) = self.walk_event(&found, store, paths) {
                            send(walk);
                        }
                        let dirs = progress.lock().map(|p| p.0).unwrap_or(0);
                        send(ScanEvent::Done {
                            dirs,
                            configs: found.keys.len() as u64,
                        });
                    }
                    Err(e) => send(ScanEvent::Failed(e.to_string())),
                }
            });
            for event in rx.iter() {
                if cancelled.load(Ordering::Relaxed) {
                    continue;
                }
                if on_event(event).is_break() {
                    cancelled.store(true, Ordering::Relaxed);
                }
            }
            let _ = worker.join();
        });
    }

    fn store_entries(&self) -> Result<Vec<StoreEntryReport>, String> {
        let loc = self.store.as_ref().map_err(|e| e.clone())?;
        let store = read_store(&loc.path).map_err(|e| e.to_string())?;
        let mut entries = list_entries(&store, &self.env, Detail::Lines);
        entries.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(entries)
    }

    fn inspect(&self, key: &str) -> Result<InspectData, String> {
        let read = |path: &str| SourceFile {
            path: path.to_string(),
            // Bounded and never waited on, as every config read is.
            source: read_regular(path, CONFIG_MAX_BYTES)
                .map_err(|e| e.describe())
                .and_then(|b| String::from_utf8(b).map_err(|e| e.to_string())),
        };
        Ok(match load_config(&TrustKey(key.to_string()), &self.env) {
            Ok(s) => InspectData {
                key: key.to_string(),
                files: s.files.iter().map(|f| read(f)).collect(),
                block: Some(s.block.as_str().to_string()),
                sha256: Some(s.sha256.clone()),
                targets: s.targets.to_pairs(),
                error: None,
            },
            Err(e) => InspectData {
                key: key.to_string(),
                files: vec![read(key)],
                block: None,
                sha256: None,
                targets: Vec::new(),
                error: Some(e.message),
            },
        })
    }

    fn trust(&self, shown: &[ConfigReport]) -> Result<CommitOutcome, CommitError> {
        let loc = self.location()?;
        let reviewed = self.reviewed.lock().map(|r| r.clone()).unwrap_or_default();
        if let Some(issue) = store_in_reviewed_tree(loc, &reviewed, &self.env) {
            return Err(CommitError::Failed(issue.text));
        }
        // What is recorded is what the reviewer saw, or nothing is.
        let shown: Vec<Shown> = shown.iter().map(Shown::of_report).collect();
        let commit = trust_as_shown(loc, &shown, &self.env, WhenChanged::RecordNothing)
            .map_err(commit_error)?;
        if !commit.refused.is_empty() {
            return Err(CommitError::Stale {
                message: format!("{} changed since shown", changed_names(&commit.refused)),
                current: commit.refused,
            });
        }
        let n = commit.recorded;
        Ok(CommitOutcome {
            count: n,
            message: format!("Trusted {} in {}", count_config_files(n), loc.path),
        })
    }

    fn untrust(&self, keys: &[String]) -> Result<CommitOutcome, CommitError> {
        let loc = self.location()?;
        let n = update_store(loc, |store| {
            Ok(keys.iter().filter(|k| store.remove(k).is_some()).count())
        })
        .map_err(commit_error)?
        .value;
        Ok(CommitOutcome {
            count: n,
            message: format!(
                "Removed trust for {} in {}",
                count_config_files(n),
                loc.path
            ),
        })
    }

    fn prune_missing(&self, keys: &[String]) -> Result<CommitOutcome, CommitError> {
        let loc = self.location()?;
        match prune_if_still_missing(loc, keys).map_err(commit_error)? {
            Ok(n) => Ok(CommitOutcome {
                count: n,
                message: format!(
                    "Pruned {} missing {}",
                    n,
                    if n == 1 { "entry" } else { "entries" }
                ),
            }),
            Err(back) => Err(CommitError::Stale {
                message: format!("{} came back", count_config_files(back)),
                current: Vec::new(),
            }),
        }
    }

    fn store_warnings(&self, root: &str) -> Vec<String> {
        let Ok(loc) = &self.store else {
            return Vec::new();
        };
        let mut issues = check_store(loc, &User::current());
        issues.extend(store_in_reviewed_tree(loc, &[root.to_string()], &self.env));
        issues.into_iter().map(|i| i.text).collect()
    }
}

//! An in-memory `TuiBackend` for tests, the demo and the screenshots. It
//! behaves like the real one where the TUI can tell: scans stream, commits
//! re-check what was shown against its current data and refuse on any
//! difference, and failures can be injected.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test-support code (tests, the demo, the screenshots): a panic is a broken fixture

use std::ops::ControlFlow;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use crate::core::review::ignore::IgnoreAs;
use crate::core::review::progress::{Progress, ProgressChange};
use crate::core::review::report::{ConfigReport, ConfigState, DiffLine, EntryStatus, StoredInfo};
use crate::tui::backend::{
    CommitError, CommitOutcome, InspectData, ScanEvent, SourceFile, TuiBackend,
};
use crate::tui::fixtures::Fixture;
use crate::tui::msg::stored_lines;

pub struct FakeBackend {
    data: Mutex<FakeData>,
}

pub struct FakeData {
    pub fixture: Fixture,
    /// Sleep between found configs, to watch progress in the demo.
    pub delay: Duration,
    /// Directories reported walked per config found.
    pub dirs_per_config: u64,
    /// Returned (once) by the next commit instead of committing.
    pub fail_next_commit: Option<CommitError>,
    pub store_error: Option<String>,
    /// What `store_warnings` returns.
    pub store_warnings: Vec<String>,
    /// Every commit call, e.g. `trust [key, ...]`, for assertions.
    pub calls: Vec<String>,
    /// The "saved" review progress, and a problem reading it to report.
    pub progress: Progress,
    pub progress_problem: Option<String>,
    /// The "saved" ignore list, and a problem reading it to report.
    pub ignores: crate::core::review::ignore::IgnoreList,
    pub ignores_problem: Option<String>,
    /// What `provenance` answers for every config; `None`: off (the
    /// backend does not read git).
    pub provenance: Option<
        Result<
            crate::core::revision::provenance::ConfigProvenance,
            crate::core::revision::provenance::Absent,
        >,
    >,
    /// What `deleted_by` answers for every missing config (asked only
    /// when `provenance` is on); `None`: that git has nothing to say.
    pub deleted_by: Option<
        Result<
            crate::core::revision::provenance::ValueOrigin,
            crate::core::revision::provenance::Absent,
        >,
    >,
    /// Each config's signed reviews, by key (none: its repository has no
    /// reviews file).
    pub reviews: std::collections::HashMap<String, crate::core::team::each_config::ConfigReviews>,
    /// What `reviewed_versions` answers for every config (asked only when
    /// `provenance` is on).
    pub reviewed_versions: Option<
        Result<
            crate::core::revision::provenance::reviewed::ReviewedVersions,
            crate::core::revision::provenance::Absent,
        >,
    >,
}

impl FakeBackend {
    pub fn new(fixture: Fixture) -> FakeBackend {
        FakeBackend {
            data: Mutex::new(FakeData {
                fixture,
                delay: Duration::ZERO,
                dirs_per_config: 7,
                fail_next_commit: None,
                store_error: None,
                store_warnings: Vec::new(),
                calls: Vec::new(),
                progress: Progress::default(),
                progress_problem: None,
                ignores: Default::default(),
                ignores_problem: None,
                provenance: None,
                deleted_by: None,
                reviews: Default::default(),
                reviewed_versions: None,
            }),
        }
    }

    /// The backend's data, to change what is "on disk" mid-test.
    pub fn data(&self) -> MutexGuard<'_, FakeData> {
        self.data.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn plain(lines: &[DiffLine]) -> Vec<DiffLine> {
    lines
        .iter()
        .filter(|l| !matches!(l, DiffLine::Removed(_) | DiffLine::Target { .. }))
        .map(|l| match l {
            DiffLine::Added(s) | DiffLine::Unchanged(s) => DiffLine::Unchanged(s.clone()),
            other => other.clone(),
        })
        .collect()
}

impl TuiBackend for FakeBackend {
    fn provenance_on(&self) -> bool {
        self.data().provenance.is_some()
    }

    fn provenance(
        &self,
        report: &ConfigReport,
    ) -> Result<
        crate::core::revision::provenance::ConfigProvenance,
        crate::core::revision::provenance::Absent,
    > {
        let mut d = self.data();
        d.calls.push(format!("provenance {}", report.key));
        d.provenance.clone().unwrap_or_else(|| {
            Err(crate::core::revision::provenance::Absent {
                reason: "off".into(),
            })
        })
    }

    fn deleted_by(
        &self,
        key: &str,
    ) -> Result<
        crate::core::revision::provenance::ValueOrigin,
        crate::core::revision::provenance::Absent,
    > {
        let mut d = self.data();
        d.calls.push(format!("deleted_by {key}"));
        d.deleted_by.clone().unwrap_or_else(|| {
            Ok(crate::core::revision::provenance::ValueOrigin::Unknown(
                "no commit of HEAD's history deleted it".into(),
            ))
        })
    }

    fn since_rev(&self) -> Option<String> {
        self.data()
            .fixture
            .since
            .as_ref()
            .map(|(rev, _)| rev.clone())
    }

    fn since_base(
        &self,
    ) -> Option<Result<std::sync::Arc<crate::core::revision::since::SinceBase>, String>> {
        let mut d = self.data();
        let base = d.fixture.since.as_ref().map(|(_, base)| base.clone())?;
        d.calls.push("since_base".to_string());
        Some(base)
    }

    fn policy_label(&self) -> Option<String> {
        self.data().fixture.policy.clone()
    }

    fn rescan_configs(&self, keys: &[String]) -> Option<Vec<crate::tui::backend::Rescanned>> {
        let mut d = self.data();
        d.calls.push(format!("rescan {keys:?}"));
        keys.iter()
            .map(|k| {
                let report = d.fixture.configs.iter().find(|c| &c.key == k)?.clone();
                let decision = d
                    .fixture
                    .policy
                    .as_ref()
                    .and_then(|_| d.fixture.decisions.get(k).cloned());
                let reviews = d.reviews.get(k).cloned();
                Some(crate::tui::backend::Rescanned {
                    report,
                    decision,
                    reviews,
                })
            })
            .collect()
    }

    fn take_decision(&self, report: &ConfigReport) -> Option<crate::core::policy::ConfigDecision> {
        let d = self.data();
        d.fixture.policy.as_ref()?;
        d.fixture.decisions.get(&report.key).cloned()
    }

    fn take_reviews(
        &self,
        report: &ConfigReport,
    ) -> Option<crate::core::team::each_config::ConfigReviews> {
        self.data().reviews.get(&report.key).cloned()
    }

    fn reviewed_versions(
        &self,
        report: &ConfigReport,
        _reviews: &crate::core::team::each_config::ConfigReviews,
    ) -> Result<
        crate::core::revision::provenance::reviewed::ReviewedVersions,
        crate::core::revision::provenance::Absent,
    > {
        let mut d = self.data();
        d.calls.push(format!("reviewed versions {}", report.key));
        d.reviewed_versions.clone().unwrap_or_else(|| {
            Err(crate::core::revision::provenance::Absent {
                reason: "off".into(),
            })
        })
    }

    fn scan(&self, _root: &str, on_event: &mut dyn FnMut(ScanEvent) -> ControlFlow<()>) {
        let (mut configs, delay, per) = {
            let d = self.data();
            (d.fixture.configs.clone(), d.delay, d.dirs_per_config)
        };
        configs.sort_by(|a, b| a.key.cmp(&b.key));
        let n = configs.len() as u64;
        for (i, r) in configs.into_iter().enumerate() {
            if !delay.is_zero() {
                std::thread::sleep(delay);
            }
            let i = i as u64 + 1;
            if on_event(ScanEvent::Progress {
                dirs: i * per,
                configs: i,
            })
            .is_break()
                || on_event(ScanEvent::Found(Box::new(r))).is_break()
            {
                return;
            }
        }
        let _ = on_event(ScanEvent::Done {
            dirs: n * per + 1,
            configs: n,
        });
    }

    fn store_entries(&self) -> Result<Vec<crate::core::review::report::StoreEntryReport>, String> {
        let d = self.data();
        match &d.store_error {
            Some(e) => Err(e.clone()),
            None => {
                let mut v = d.fixture.store.clone();
                v.sort_by(|a, b| a.key.cmp(&b.key));
                Ok(v)
            }
        }
    }

    fn inspect(&self, key: &str) -> Result<InspectData, String> {
        let d = self.data();
        let r = d
            .fixture
            .configs
            .iter()
            .find(|c| c.key == key)
            .ok_or_else(|| format!("{key}: no such config"))?;
        let files = r
            .files
            .iter()
            .map(|p| SourceFile {
                path: p.clone(),
                source: d
                    .fixture
                    .sources
                    .get(p)
                    .cloned()
                    .ok_or_else(|| "No such file or directory".to_string()),
            })
            .collect();
        Ok(InspectData {
            key: key.to_string(),
            files,
            block: r.block().map(str::to_owned),
            sha256: r.sha256().map(str::to_owned),
            targets: r.targets().to_vec(),
            error: r.error().map(|e| e.message.clone()),
        })
    }

    fn trust(&self, shown: &[ConfigReport]) -> Result<CommitOutcome, CommitError> {
        let mut d = self.data();
        d.calls.push(format!(
            "trust {:?}",
            shown.iter().map(|r| &r.key).collect::<Vec<_>>()
        ));
        if let Some(e) = d.fail_next_commit.take() {
            return Err(e);
        }
        // Check everything before writing anything: all or nothing.
        let mut stale = Vec::new();
        for s in shown {
            match d.fixture.configs.iter().find(|c| c.key == s.key) {
                Some(now) if now.outcome == s.outcome && now.lines == s.lines => {}
                Some(now) => stale.push(now.clone()),
                None => {}
            }
        }
        let vanished = shown
            .iter()
            .filter(|s| !d.fixture.configs.iter().any(|c| c.key == s.key))
            .count();
        if !stale.is_empty() || vanished > 0 {
            let names: Vec<_> = stale.iter().map(|r| r.display_path.clone()).collect();
            return Err(CommitError::Stale {
                message: format!(
                    "{} config(s) differ from what was shown: {}",
                    stale.len() + vanished,
                    names.join(", ")
                ),
                current: stale,
            });
        }
        for s in shown {
            let c = d
                .fixture
                .configs
                .iter_mut()
                .find(|c| c.key == s.key)
                .expect("checked");
            c.state = ConfigState::Trusted;
            c.lines = plain(&c.lines);
            c.stored = Some(StoredInfo {
                sha256: c.sha256().unwrap_or_default().to_string(),
                trusted_at: "2026-01-01T00:00:00Z".to_string(),
                trusted_by: "goccia-trust 0.1.0".to_string(),
                block: c.loaded().map_or_else(
                    || crate::core::config::block::Block::parse("{}").expect("JSON"),
                    |l| l.block.clone(),
                ),
                targets: c.targets().to_vec(),
            });
            let entry = crate::core::review::report::StoreEntryReport {
                key: c.key.clone(),
                display_path: c.display_path.clone(),
                status: EntryStatus::Ok,
                trusted_at: "2026-01-01T00:00:00Z".to_string(),
                trusted_by: "goccia-trust 0.1.0".to_string(),
                summary: String::new(),
                lines: c.lines.clone(),
            };
            d.fixture.store.retain(|e| e.key != entry.key);
            d.fixture.store.push(entry);
        }
        let n = shown.len();
        Ok(CommitOutcome {
            count: n,
            message: format!(
                "Trusted {n} config file{} in /fake/trust.json",
                if n == 1 { "" } else { "s" }
            ),
        })
    }

    fn untrust(&self, keys: &[String]) -> Result<CommitOutcome, CommitError> {
        let mut d = self.data();
        d.calls.push(format!("untrust {keys:?}"));
        if let Some(e) = d.fail_next_commit.take() {
            return Err(e);
        }
        let before = d.fixture.store.len();
        d.fixture.store.retain(|e| !keys.contains(&e.key));
        let removed = before - d.fixture.store.len();
        for c in d
            .fixture
            .configs
            .iter_mut()
            .filter(|c| keys.contains(&c.key))
        {
            c.lines = stored_lines(&plain(&c.lines))
                .into_iter()
                .map(DiffLine::Unchanged)
                .collect();
            c.state = if c.lines.is_empty() {
                ConfigState::NoRequest
            } else {
                ConfigState::NeverTrusted
            };
            c.stored = None;
        }
        Ok(CommitOutcome {
            count: removed,
            message: format!("Removed trust for {removed} config file(s)"),
        })
    }

    fn store_warnings(&self, _root: &str) -> Vec<String> {
        self.data().store_warnings.clone()
    }

    fn load_progress(&self, root: &str) -> (Progress, String, Option<String>) {
        let d = self.data();
        (
            d.progress.clone(),
            root.to_string(),
            d.progress_problem.clone(),
        )
    }

    fn load_ignores(&self) -> (crate::core::review::ignore::IgnoreList, Option<String>) {
        let d = self.data();
        (d.ignores.clone(), d.ignores_problem.clone())
    }

    fn set_ignored(&self, changes: &[(String, Option<IgnoreAs>)]) -> Result<(), String> {
        let mut d = self.data();
        d.calls.push(format!("set ignored {changes:?}"));
        if let Some(p) = &d.ignores_problem {
            return Err(p.clone());
        }
        for (key, sha) in changes {
            match sha {
                Some(now_as) => d.ignores.ignore(key, now_as, "2026-01-01T00:00:00Z"),
                None => d.ignores.unignore(key),
            };
        }
        Ok(())
    }

    fn save_progress(&self, change: &ProgressChange) -> Result<(), String> {
        let mut d = self.data();
        d.calls.push("save progress".to_string());
        change.apply(&mut d.progress);
        Ok(())
    }

    fn prune_missing(&self, keys: &[String]) -> Result<CommitOutcome, CommitError> {
        let mut d = self.data();
        d.calls.push(format!("prune {keys:?}"));
        if let Some(e) = d.fail_next_commit.take() {
            return Err(e);
        }
        let back: Vec<_> = d
            .fixture
            .store
            .iter()
            .filter(|e| keys.contains(&e.key) && e.status != EntryStatus::Missing)
            .map(|e| e.display_path.clone())
            .collect();
        if !back.is_empty() {
            return Err(CommitError::Stale {
                message: format!("no longer missing: {}", back.join(", ")),
                current: Vec::new(),
            });
        }
        let before = d.fixture.store.len();
        d.fixture.store.retain(|e| !keys.contains(&e.key));
        let removed = before - d.fixture.store.len();
        Ok(CommitOutcome {
            count: removed,
            message: format!(
                "Pruned {removed} missing entr{}",
                if removed == 1 { "y" } else { "ies" }
            ),
        })
    }
}

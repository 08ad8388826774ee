//! Running effects: each backend call runs on its own worker thread and
//! reports back through the message channel, so the render loop never
//! waits on the disk or the store lock.

use std::ops::ControlFlow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use crate::core::policy::ConfigDecision;
use crate::core::review::report::ConfigReport;
use crate::core::team::each_config::ConfigReviews;
use crate::tui::backend::{ScanEvent, TuiBackend};
use crate::tui::msg::{Effect, Msg, Pending};

/// Found reports are sent in batches of this many, or after `FLUSH`.
const BATCH: usize = 256;
const FLUSH: Duration = Duration::from_millis(40);

/// A message from the runner to the loop itself: a worker panicked. The
/// panic hook has already restored the terminal, so the TUI must stop.
pub struct WorkerPanicked(pub String);

pub enum Event {
    Msg(Msg),
    Panicked(WorkerPanicked),
}

pub struct Runner {
    backend: Arc<dyn TuiBackend>,
    tx: Sender<Event>,
    /// The newest scan job; older scans are told to stop.
    latest_scan: Arc<AtomicU64>,
}

impl Runner {
    pub fn new(backend: Arc<dyn TuiBackend>, tx: Sender<Event>) -> Runner {
        Runner {
            backend,
            tx,
            latest_scan: Arc::new(AtomicU64::new(0)),
        }
    }

    pub fn spawn(&self, effect: Effect) {
        if let Effect::Watch { dirs } = effect {
            // Off the render path: adding thousands of watches takes time.
            let backend = Arc::clone(&self.backend);
            let tx = self.tx.clone();
            std::thread::spawn(move || {
                let changed = tx.clone();
                let on_change = Box::new(move |paths| {
                    let _ = changed.send(Event::Msg(Msg::FilesChanged(paths)));
                });
                if let Err(why) = backend.watch(&dirs, on_change) {
                    let _ = tx.send(Event::Msg(Msg::WatchOff(why)));
                }
            });
            return;
        }
        if let Effect::Scan { job, .. } = &effect {
            self.latest_scan.store(*job, Ordering::SeqCst);
        }
        let backend = Arc::clone(&self.backend);
        let tx = self.tx.clone();
        let latest = Arc::clone(&self.latest_scan);
        std::thread::spawn(move || {
            let result = catch_unwind(AssertUnwindSafe(|| {
                let is_current = |job| latest.load(Ordering::SeqCst) == job;
                // A closed channel means the TUI has quit: nothing to do.
                execute(&*backend, effect, &is_current, &mut |m| {
                    let _ = tx.send(Event::Msg(m));
                });
            }));
            if let Err(p) = result {
                let what = p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".to_string());
                let _ = tx.send(Event::Panicked(WorkerPanicked(what)));
            }
        });
    }
}

/// Run one effect to completion on the calling thread, sending its
/// messages through `send`. Tests call this directly for determinism.
pub fn execute(
    backend: &dyn TuiBackend,
    effect: Effect,
    is_current: &dyn Fn(u64) -> bool,
    send: &mut dyn FnMut(Msg),
) {
    match effect {
        Effect::Scan { job, root } => {
            send(Msg::StoreWarnings(backend.store_warnings(&root)));
            if let Some(label) = backend.policy_label() {
                send(Msg::Policy(label));
            }
            // Read by the first scan, kept for the next: before any report,
            // so each is compared with BASE as it arrives.
            if let Some(base) = backend.since_base() {
                send(Msg::SinceBase(base));
            }
            scan(backend, job, &root, is_current, send)
        }
        Effect::RescanConfigs { keys } => send(Msg::ConfigsRescanned {
            rescanned: backend.rescan_configs(&keys),
        }),
        Effect::LoadStore { job } => send(Msg::StoreLoaded {
            job,
            result: backend.store_entries(),
        }),
        Effect::Inspect { key } => {
            let result = backend.inspect(&key);
            send(Msg::Inspected { key, result });
        }
        Effect::LoadProgress { root } => {
            let (progress, tree, problem) = backend.load_progress(&root);
            send(Msg::ProgressLoaded {
                progress: Box::new(progress),
                tree,
                problem,
            });
        }
        // Needs a sender that outlives this call: set up by `Runner::spawn`.
        Effect::Watch { .. } => {}
        // The event loop's own: they need the terminal, not the backend.
        Effect::Edit { .. } | Effect::Quit => {}
        Effect::LoadIgnores => {
            let (ignores, problem) = backend.load_ignores();
            send(Msg::IgnoresLoaded {
                ignores: Box::new(ignores),
                problem,
            });
        }
        Effect::SetIgnored(changes) => {
            if let Err(why) = backend.set_ignored(&changes) {
                send(Msg::IgnoreNotSaved {
                    why,
                    ignores: Box::new(backend.load_ignores().0),
                });
            }
        }
        Effect::SaveProgress(change) => {
            if let Err(e) = backend.save_progress(&change) {
                send(Msg::ProgressNotSaved(e));
            }
        }
        Effect::Provenance(report) => provenance(backend, &report, false, send),
        Effect::StoreProvenance(report) => provenance(backend, &report, true, send),
        Effect::ReviewedVersions(r, v) => reviewed_versions(backend, &r, &v, send),
        Effect::DeletedBy(key) => send(Msg::DeletedBy {
            result: backend.deleted_by(&key),
            key,
        }),
        Effect::Commit(pending) => {
            let result = match &pending {
                Pending::Trust(reports) => backend.trust(reports),
                Pending::Untrust(_) => backend.untrust(&pending.keys()),
                Pending::Prune(_) => backend.prune_missing(&pending.keys()),
            };
            send(Msg::Committed { result });
        }
    }
}

/// Read who changed `report`'s config: against the store when
/// `against_store` (the trust confirmation's lines under `--since`),
/// else as the pane reads it.
fn provenance(
    backend: &dyn TuiBackend,
    report: &ConfigReport,
    against_store: bool,
    send: &mut dyn FnMut(Msg),
) {
    let result = Box::new(match against_store {
        true => backend.store_provenance(report),
        false => backend.provenance(report),
    });
    send(Msg::Provenance {
        key: report.key.clone(),
        sha256: report.sha256().unwrap_or_default().to_string(),
        result,
    });
}

/// Read the versions the outdated reviews of `report`'s config were of.
fn reviewed_versions(
    backend: &dyn TuiBackend,
    report: &ConfigReport,
    reviews: &ConfigReviews,
    send: &mut dyn FnMut(Msg),
) {
    send(Msg::ReviewedVersions {
        key: report.key.clone(),
        sha256: report.sha256().unwrap_or_default().to_string(),
        result: Box::new(backend.reviewed_versions(report, reviews)),
    });
}

fn scan(
    backend: &dyn TuiBackend,
    job: u64,
    root: &str,
    is_current: &dyn Fn(u64) -> bool,
    send: &mut dyn FnMut(Msg),
) {
    let mut batches = Batches::new(job);
    backend.scan(root, &mut |event| {
        if !is_current(job) {
            return ControlFlow::Break(());
        }
        batches.take(backend, event, send);
        ControlFlow::Continue(())
    });
    // A backend that returns without `Done` still ends the scan, so the
    // spinner cannot spin forever.
    if !batches.finished && is_current(job) {
        batches.flush(send);
        let (dirs, configs) = batches.progress;
        send(Msg::ScanDone { job, dirs, configs });
    }
}

/// A scan's messages as its events arrive: found reports (with the
/// policy's verdicts) and the progress go in batches, every `BATCH`
/// reports or `FLUSH`; the walk's findings, a failure and the end at once.
struct Batches {
    job: u64,
    reports: Vec<ConfigReport>,
    judged: Vec<(String, String, ConfigDecision)>,
    reviewed: Vec<(String, String, ConfigReviews)>,
    last_flush: Instant,
    progress: (u64, u64),
    /// `Done` or `Failed` was sent.
    finished: bool,
}

impl Batches {
    fn new(job: u64) -> Batches {
        Batches {
            job,
            reports: Vec::new(),
            judged: Vec::new(),
            reviewed: Vec::new(),
            last_flush: Instant::now(),
            progress: (0, 0),
            finished: false,
        }
    }

    /// Reports, then their verdicts and reviews: `update` files them under
    /// the list its report has just joined.
    fn flush(&mut self, send: &mut dyn FnMut(Msg)) {
        let job = self.job;
        if !self.reports.is_empty() {
            let reports = std::mem::take(&mut self.reports);
            send(Msg::ScanFound { job, reports });
        }
        if !self.judged.is_empty() {
            let decisions = std::mem::take(&mut self.judged);
            send(Msg::ScanJudged { job, decisions });
        }
        if !self.reviewed.is_empty() {
            let reviews = std::mem::take(&mut self.reviewed);
            send(Msg::ScanReviewed { job, reviews });
        }
    }

    fn take(&mut self, backend: &dyn TuiBackend, event: ScanEvent, send: &mut dyn FnMut(Msg)) {
        let job = self.job;
        let due = self.last_flush.elapsed() >= FLUSH;
        match event {
            ScanEvent::Progress { dirs, configs } => self.progress = (dirs, configs),
            ScanEvent::Found(report) => {
                if let (Some(d), Some(sha)) = (backend.take_decision(&report), report.sha256()) {
                    self.judged.push((report.key.clone(), sha.to_string(), d));
                }
                if let (Some(r), Some(sha)) = (backend.take_reviews(&report), report.sha256()) {
                    self.reviewed.push((report.key.clone(), sha.to_string(), r));
                }
                self.reports.push(*report)
            }
            ScanEvent::Failed(message) => {
                self.finished = true;
                send(Msg::ScanFailed { job, message });
                return;
            }
            ScanEvent::Walk {
                unreadable,
                not_followed,
                shadowed,
                missing,
            } => {
                send(Msg::ScanWalk {
                    job,
                    unreadable,
                    not_followed,
                    shadowed,
                    missing,
                });
                return;
            }
            ScanEvent::Done { dirs, configs } => {
                self.flush(send);
                self.finished = true;
                send(Msg::ScanDone { job, dirs, configs });
                return;
            }
        }
        if due || self.reports.len() >= BATCH {
            self.last_flush = Instant::now();
            let (dirs, configs) = self.progress;
            send(Msg::ScanProgress { job, dirs, configs });
            self.flush(send);
        }
    }
}

//! A scan of the tree: started (`r`, a commit, a change nothing narrower
//! explains), and its messages as they arrive. A message of a superseded
//! scan is dropped: the newer job's results win.

use std::sync::Arc;

use crate::core::review::report::ConfigReport;
use crate::core::revision::since::SinceBase;
use crate::tui::msg::{Effect, Msg};
use crate::tui::since::Since;
use crate::tui::state::{Anchor, ScanStatus, State};
use crate::tui::update::rows::{
    anchored_key, apply_filter, put_configs, refilter, selected_key, set_others, sort_and_refilter,
};
use crate::tui::update::screen::set_status;
use crate::tui::update::watch::watch_dirs;

pub(super) fn rescan(state: &mut State) -> Vec<Effect> {
    let job = state.next_job;
    state.next_job += 2;
    state.scan = ScanStatus {
        job,
        running: true,
        fresh: true,
        anchor: Some(match selected_key(state) {
            Some(key) => Anchor::Config(key),
            None => Anchor::Row,
        }),
        ..ScanStatus::default()
    };
    state.store.job = job + 1;
    state.store.loading = true;
    vec![
        Effect::Scan {
            job,
            root: state.root.clone(),
        },
        Effect::LoadStore { job: job + 1 },
    ]
}

/// The messages of a scan (`Msg::Scan*`, `Msg::SinceBase`), each of the
/// current job only.
pub(super) fn on_scan(state: &mut State, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::ScanProgress { job, dirs, configs } if job == state.scan.job => {
            state.scan.dirs = dirs;
            state.scan.configs = configs;
        }
        Msg::ScanFound { job, reports } if job == state.scan.job => found(state, reports),
        Msg::ScanJudged { job, decisions } if job == state.scan.job => {
            for (key, sha, decision) in decisions {
                state.verdicts.insert(key, (sha, decision));
            }
        }
        Msg::ScanReviewed { job, reviews } if job == state.scan.job => {
            for (key, sha, r) in reviews {
                state.reviews.insert(key, (sha, r));
            }
        }
        Msg::SinceBase(base) => since_base(state, base),
        Msg::ScanFailed { job, message } if job == state.scan.job => {
            state.scan.running = false;
            state.scan.error = Some(message.clone());
            set_status(state, format!("Scan failed: {message}"), true);
        }
        Msg::ScanWalk {
            job,
            unreadable,
            not_followed,
            shadowed,
            missing,
        } if job == state.scan.job => {
            state.scan.unreadable = unreadable;
            state.scan.not_followed = not_followed;
            state.scan.shadowed = shadowed;
            state.scan.missing = missing;
            let keep = selected_key(state);
            set_others(state);
            apply_filter(state, keep);
        }
        Msg::ScanDone { job, dirs, configs } if job == state.scan.job => {
            return done(state, dirs, configs);
        }
        _ => {}
    }
    vec![]
}

/// A fresh scan's first reports replace the old list; later ones join it.
fn forget_the_old_list(state: &mut State) {
    state.configs.clear();
    state.verdicts.clear();
    state.reviews.clear();
    state.reviewed_versions.clear();
    state.rows.summaries.clear();
    state.rows.since.clear();
}

/// `Msg::ScanFound`: a batch of reports, the selection kept on its config.
fn found(state: &mut State, reports: Vec<ConfigReport>) {
    let keep = anchored_key(state);
    if state.scan.fresh {
        state.scan.fresh = false;
        forget_the_old_list(state);
    }
    put_configs(state, reports);
    sort_and_refilter(state, keep);
}

/// `Msg::SinceBase`: BASE as read (or why not); the rows are compared
/// again only when it is new (it is sent with every scan).
fn since_base(state: &mut State, base: Result<Arc<SinceBase>, String>) {
    let rev = match &base {
        Ok(b) => b.rev.clone(),
        Err(_) => state
            .since
            .as_ref()
            .map(|s| s.rev.clone())
            .unwrap_or_default(),
    };
    let fresh = Since {
        rev,
        base: Some(base),
    };
    // Sent with every scan: compare again only when it is new.
    if state.since.as_ref() != Some(&fresh) {
        state.since = Some(fresh);
        let reports = std::mem::take(&mut state.configs);
        state.rows.since.clear();
        put_configs(state, reports);
        refilter(state);
    }
}

/// `Msg::ScanDone`: the list is whole; marks of configs no longer there
/// go, and the tree is watched as it now is.
fn done(state: &mut State, dirs: u64, configs: u64) -> Vec<Effect> {
    state.scan.running = false;
    state.scan.dirs = dirs;
    state.scan.configs = configs;
    let keep = anchored_key(state);
    state.scan.anchor = None;
    if std::mem::take(&mut state.scan.fresh) {
        forget_the_old_list(state);
    }
    let keys: std::collections::HashSet<&str> =
        state.configs.iter().map(|c| c.key.as_str()).collect();
    state.marked.retain(|k| keys.contains(k.as_str()));
    // This scan's missing and shadowed files (none without a Walk).
    set_others(state);
    sort_and_refilter(state, keep);
    vec![Effect::Watch {
        dirs: watch_dirs(state),
    }]
}

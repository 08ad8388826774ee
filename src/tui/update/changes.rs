//! Changes on disk while the review is open: heard by the watch, or made
//! in the editor (`e`); only the configs they concern are read again when
//! that is all they concern.

use crate::tui::backend::Rescanned;
use crate::tui::msg::{Effect, Msg};
use crate::tui::state::State;
use crate::tui::update::rows::{put_configs, selected_key, sort_and_refilter};
use crate::tui::update::scan::rescan;
use crate::tui::update::screen::set_status;
use crate::tui::update::watch::{changed_configs, watch_dirs};

/// The messages of a change (`Msg::FilesChanged`, `ConfigsRescanned`,
/// `WatchOff`, `Edited`).
pub(super) fn on_change(state: &mut State, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::FilesChanged(paths) => {
            // A scan in progress will see the change, or the next one will.
            if state.scan.running {
                return vec![];
            }
            match changed_configs(state, &paths) {
                Some(keys) if keys.is_empty() => vec![],
                Some(keys) => vec![Effect::RescanConfigs { keys }],
                None => rescan(state),
            }
        }
        Msg::ConfigsRescanned { rescanned } => match rescanned {
            Some(rescanned) => rescanned_configs(state, rescanned),
            None => rescan(state),
        },
        Msg::WatchOff(why) => {
            // `off` is --no-watch; anything else the reviewer should know.
            if why != "off" {
                set_status(state, format!("auto-refresh off: {why} (press r)"), true);
            }
            vec![]
        }
        Msg::Edited { key, result } => {
            state.status = None;
            if let Err(why) = result {
                set_status(state, format!("Editor: {why}"), true);
            }
            // Show what the edit changed: that config alone is read again
            // (the selection stays on it), not the whole tree.
            vec![Effect::RescanConfigs { keys: vec![key] }]
        }
        _ => vec![],
    }
}

/// `Msg::ConfigsRescanned`: the configs read again, with the policy's
/// new word on each; the store view and the watches follow.
fn rescanned_configs(state: &mut State, rescanned: Vec<Rescanned>) -> Vec<Effect> {
    let keep = selected_key(state);
    let mut reports = Vec::with_capacity(rescanned.len());
    for r in rescanned {
        match &r.decision {
            Some(d) => {
                let sha = r.report.sha256().unwrap_or_default().to_string();
                state
                    .verdicts
                    .insert(r.report.key.clone(), (sha, d.clone()));
            }
            None => {
                state.verdicts.remove(&r.report.key);
            }
        }
        match &r.reviews {
            Some(reviews) => {
                let sha = r.report.sha256().unwrap_or_default().to_string();
                state
                    .reviews
                    .insert(r.report.key.clone(), (sha, reviews.clone()));
            }
            None => {
                state.reviews.remove(&r.report.key);
            }
        }
        state.reviewed_versions.remove(&r.report.key);
        reports.push(r.report);
    }
    put_configs(state, reports);
    sort_and_refilter(state, keep);
    // The store view's states, and the watches (a new extends file
    // or scope), follow the edit.
    let job = state.next_job;
    state.next_job += 2;
    state.store.job = job + 1;
    state.store.loading = true;
    vec![
        Effect::LoadStore { job: job + 1 },
        Effect::Watch {
            dirs: watch_dirs(state),
        },
    ]
}

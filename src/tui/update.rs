//! The pure heart of the TUI: `update` folds a message into the state and
//! says which effects (backend calls, and the editor and quitting, which
//! the event loop runs) should run. No IO happens here, so every behaviour
//! is testable by feeding messages. Only `update` writes the state.
//!
//! Each family of messages has its file; they build on each other in one
//! direction (`keys` → `list` → `confirm`, `others` → `scan` → `rows`,
//! `screen`), never back up to this one.

mod changes;
mod confirm;
mod keys;
mod list;
mod loaded;
mod others;
mod rows;
mod scan;
mod screen;
mod watch;

use crate::tui::msg::{Effect, Msg};
use crate::tui::state::State;

pub use watch::TOO_MANY;

/// The effects to run when the TUI starts: a scan and a store load.
pub fn init(state: &mut State) -> Vec<Effect> {
    let mut effects = vec![
        Effect::LoadProgress {
            root: state.root.clone(),
        },
        Effect::LoadIgnores,
    ];
    effects.extend(scan::rescan(state));
    effects
}

pub fn update(state: &mut State, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Key(ev) => keys::on_key(state, ev),
        Msg::Mouse(ev) => keys::on_mouse(state, ev),
        Msg::StoreWarnings(warnings) => screen::on_store_warnings(state, warnings),
        Msg::Resize(w, h) => screen::on_resize(state, w, h),
        Msg::Tick => {
            state.spinner = state.spinner.wrapping_add(1);
            vec![]
        }
        Msg::ScanProgress { .. }
        | Msg::ScanFound { .. }
        | Msg::ScanJudged { .. }
        | Msg::ScanReviewed { .. }
        | Msg::SinceBase(_)
        | Msg::ScanFailed { .. }
        | Msg::ScanWalk { .. }
        | Msg::ScanDone { .. } => scan::on_scan(state, msg),
        Msg::FilesChanged(_)
        | Msg::ConfigsRescanned { .. }
        | Msg::WatchOff(_)
        | Msg::Edited { .. } => changes::on_change(state, msg),
        Msg::Committed { result } => confirm::on_committed(state, result),
        Msg::Policy(_)
        | Msg::StoreLoaded { .. }
        | Msg::Inspected { .. }
        | Msg::Provenance { .. }
        | Msg::DeletedBy { .. }
        | Msg::ReviewedVersions { .. }
        | Msg::ProgressLoaded { .. }
        | Msg::IgnoresLoaded { .. }
        | Msg::IgnoreNotSaved { .. }
        | Msg::ProgressNotSaved(_) => loaded::on_loaded(state, msg),
    }
}

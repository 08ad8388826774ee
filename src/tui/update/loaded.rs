//! What the workers read arrives: the store, the saved progress, the
//! ignore list, an inspection, a config's provenance, who deleted a
//! missing config, the policy's label; and what they could not save.

use crate::core::review::report::ConfigState;
use crate::core::review::report::StoreEntryReport;
use crate::tui::layout;
use crate::tui::msg::{Effect, Msg};
use crate::tui::state::{Anchor, Mode, OtherState, State};
use crate::tui::update::rows::{apply_filter, reapply_ignores, refilter};
use crate::tui::update::screen::set_status;

/// The messages of a read or a failed save.
pub(super) fn on_loaded(state: &mut State, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Policy(label) => state.policy = Some(label),
        Msg::StoreLoaded { job, result } if job == state.store.job => store_loaded(state, result),
        Msg::Inspected { key, result } => {
            if let Mode::Inspect(iv) = &mut state.mode
                && iv.key == key
            {
                iv.data = Some(result);
            }
        }
        Msg::Provenance {
            key,
            sha256,
            result,
        } => crate::tui::provenance::arrived(state, key, sha256, *result),
        Msg::DeletedBy { key, result } => crate::tui::deleted::arrived(state, key, result),
        Msg::ReviewedVersions {
            key,
            sha256,
            result,
        } => crate::tui::reviewed::arrived(state, key, sha256, *result),
        Msg::ProgressLoaded {
            progress,
            tree,
            problem,
        } => {
            resume(state, *progress, tree);
            if let Some(p) = problem {
                set_status(state, p, true);
            }
        }
        Msg::IgnoresLoaded { ignores, problem } => {
            state.ignores = *ignores;
            if let Some(p) = problem {
                set_status(state, p, true);
            }
            reapply_ignores(state, None, true);
        }
        Msg::IgnoreNotSaved { why, ignores } => {
            // Show what the list on disk says, not what was asked.
            state.ignores = *ignores;
            reapply_ignores(state, None, true);
            set_status(state, format!("Ignore list not changed: {why}"), true);
        }
        Msg::ProgressNotSaved(why) => {
            set_status(state, format!("Review progress not saved: {why}"), true);
        }
        _ => {}
    }
    vec![]
}

/// `Msg::StoreLoaded`: the store view's entries (marks of entries no
/// longer there go), or why the store could not be read.
fn store_loaded(state: &mut State, result: Result<Vec<StoreEntryReport>, String>) {
    state.store.loading = false;
    match result {
        Ok(entries) => {
            state.store.path_width = entries
                .iter()
                .map(|e| crate::tui::state::shown_width(&e.display_path))
                .max()
                .unwrap_or(0);
            state.store.entries = entries;
            state.store.error = None;
            let keys: std::collections::HashSet<&str> =
                state.store.entries.iter().map(|e| e.key.as_str()).collect();
            state.store.marked.retain(|k| keys.contains(k.as_str()));
        }
        Err(message) => {
            state.store.entries.clear();
            state.store.marked.clear();
            set_status(state, format!("Trust store: {message}"), true);
            state.store.error = Some(message);
        }
    }
    let (len, rows) = (state.store.entries.len(), layout::store_rows(state.size));
    state
        .store
        .cursor
        .select(state.store.cursor.selected, len, rows);
}

/// Saved progress arrived: take its viewed marks and resume this tree's
/// review where it stopped (selection, filters, marks).
fn resume(state: &mut State, progress: crate::core::review::progress::Progress, tree: String) {
    // A `--since` review resumes only a `--since` review's session: its
    // rows are compared with a revision, not the store.
    let session = progress
        .sessions_of(state.since.is_some())
        .get(&tree)
        .cloned();
    state.progress = progress;
    state.tree = Some(tree);
    let Some(s) = session else {
        refilter(state);
        return;
    };
    state.query = s.query;
    state.state_filter = s.state.as_deref().and_then(|name| {
        [
            ConfigState::Error,
            ConfigState::NeverTrusted,
            ConfigState::Changed,
            ConfigState::Trusted,
            ConfigState::NoRequest,
            ConfigState::Ignored,
        ]
        .into_iter()
        .find(|c| c.json_name() == name)
    });
    state.other_filter = s.state.as_deref().and_then(|name| {
        [OtherState::Missing, OtherState::Shadowed]
            .into_iter()
            .find(|o| o.label() == name)
    });
    state.unviewed_only = s.unviewed;
    state.filter_saved = state.filtered();
    state.marked = s.marked;
    if state.scan.running {
        // The list is still arriving: the scan selects it when it does.
        if let Some(key) = &s.selected {
            state.scan.anchor = Some(Anchor::Config(key.clone()));
        }
        apply_filter(state, s.selected);
    } else {
        let keys: std::collections::HashSet<&str> =
            state.configs.iter().map(|c| c.key.as_str()).collect();
        state.marked.retain(|k| keys.contains(k.as_str()));
        apply_filter(state, s.selected);
    }
}

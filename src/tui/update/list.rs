//! The keys on the list (the Configs or the Store view): move, mark,
//! view, ignore, trust or untrust, inspect or edit, filter, switch view.

use std::collections::HashSet;

use crate::core::review::ignore::IgnoreAs;
use crate::core::review::report::{ConfigReport, ConfigState};
use crate::tui::keymap::Action;
use crate::tui::layout;
use crate::tui::msg::Effect;
use crate::tui::state::{InspectView, Mode, OtherRow, OtherState, State, View, next_state_filter};
use crate::tui::update::confirm::{open_prune, open_trust, open_untrust};
use crate::tui::update::others::act_on_other;
use crate::tui::update::rows::{reapply_ignores, recount, refilter};
use crate::tui::update::scan::rescan;
use crate::tui::update::screen::{move_cursor, scroll, set_status};

pub(super) fn act_on_list(state: &mut State, action: Action) -> Vec<Effect> {
    let rows = layout::list_rows(state.size);
    let moved = match state.view {
        View::Configs => move_cursor(&mut state.cursor, action, state.visible.len(), rows),
        View::Store => {
            let len = state.store.entries.len();
            move_cursor(&mut state.store.cursor, action, len, rows)
        }
    };
    if moved {
        state.detail_scroll = 0;
        // The user chose a row: a running scan no longer restores the old one.
        state.scan.anchor = None;
        return vec![];
    }
    if let Some(o) = other_row_acted_on(state, action) {
        return act_on_other(state, action, &o);
    }
    match action {
        Action::DetailDown | Action::DetailUp => {
            let max = state.scroll_limits.detail;
            let a = if action == Action::DetailDown {
                Action::Down
            } else {
                Action::Up
            };
            scroll(&mut state.detail_scroll, a, max, 1);
        }
        Action::ToggleMark => toggle_mark(state),
        Action::ToggleViewed if state.view == View::Configs => return toggle_viewed(state),
        Action::ToggleIgnore if state.view == View::Configs => return toggle_ignore(state),
        Action::MarkAll | Action::InvertMarks => mark_visible(state, action),
        Action::NextReview | Action::PrevReview => next_needing_review(state, action),
        Action::Trust if state.view == View::Configs => open_trust(state),
        Action::Untrust => open_untrust(state),
        Action::Prune if state.view == View::Store => open_prune(state),
        Action::Inspect => return inspect_selected(state),
        Action::Edit => {
            if let Some(r) = state.selected_config() {
                return vec![Effect::Edit { key: r.key.clone() }];
            }
        }
        Action::StartFilter => {
            state.filter_saved = false;
            state.view = View::Configs;
            state.mode = Mode::Filter;
        }
        Action::CycleStateFilter => cycle_state_filter(state),
        Action::ClearFilter => clear_filter(state),
        Action::SwitchView => {
            state.view = match state.view {
                View::Configs => View::Store,
                View::Store => View::Configs,
            };
            state.detail_scroll = 0;
        }
        Action::Rescan => {
            // The previous action's message is about the old list.
            state.status = None;
            return rescan(state);
        }
        Action::Help => state.mode = Mode::Help { scroll: 0 },
        _ => {}
    }
    vec![]
}

/// The missing or shadowed row `action` applies to, if it applies to one:
/// such a row is never trusted, ignored, viewed or marked (with marks,
/// `t`, `i` and `u` act on the marked configs instead).
fn other_row_acted_on(state: &State, action: Action) -> Option<OtherRow> {
    let on_a_row = matches!(
        action,
        Action::Trust
            | Action::ToggleIgnore
            | Action::ToggleViewed
            | Action::Inspect
            | Action::Edit
            | Action::Untrust
            | Action::ToggleMark
    );
    let on_the_marks = !state.marked.is_empty()
        && matches!(
            action,
            Action::Trust | Action::ToggleIgnore | Action::Untrust
        );
    if !on_a_row || on_the_marks || state.view != View::Configs {
        return None;
    }
    state.selected_other().cloned()
}

/// `enter`: the inspect view of the selected config; its files are read
/// on a worker.
fn inspect_selected(state: &mut State) -> Vec<Effect> {
    let Some(r) = state.selected_config() else {
        return vec![];
    };
    let key = r.key.clone();
    state.mode = Mode::Inspect(InspectView {
        key: key.clone(),
        display_path: r.display_path.clone(),
        recorded: r
            .stored
            .as_ref()
            .map(|s| s.targets.clone())
            .unwrap_or_default(),
        data: None,
        scroll: 0,
    });
    vec![Effect::Inspect { key }]
}

/// `s`: each state, then the missing and shadowed rows, then "not
/// viewed", then all again.
fn cycle_state_filter(state: &mut State) {
    state.filter_saved = false;
    if state.unviewed_only {
        state.unviewed_only = false;
    } else if state.state_filter == Some(ConfigState::Ignored) {
        state.state_filter = None;
        state.other_filter = Some(OtherState::Missing);
    } else if state.other_filter == Some(OtherState::Missing) {
        state.other_filter = Some(OtherState::Shadowed);
    } else if state.other_filter == Some(OtherState::Shadowed) {
        state.other_filter = None;
        state.unviewed_only = true;
    } else {
        state.state_filter = next_state_filter(state.state_filter);
    }
    refilter(state);
}

/// `esc`: clears the filters, or the marks when nothing is filtered.
fn clear_filter(state: &mut State) {
    if !state.filtered() {
        state.marked.clear();
    } else {
        state.query.clear();
        state.state_filter = None;
        state.other_filter = None;
        state.unviewed_only = false;
        state.filter_saved = false;
        refilter(state);
    }
}

pub(super) fn toggle_mark(state: &mut State) {
    let (key, marked) = match state.view {
        View::Configs => (
            state.selected_config().map(|r| r.key.clone()),
            &mut state.marked,
        ),
        View::Store => (
            state.selected_entry().map(|e| e.key.clone()),
            &mut state.store.marked,
        ),
    };
    let Some(key) = key else { return };
    if !marked.remove(&key) {
        marked.insert(key);
    }
    // Marking moves on, so `space space space` marks three rows.
    act_on_list(state, Action::Down);
}

/// `v`: mark the selected config viewed as it is now (its sha256), or
/// unmark it; saved at once, and the cursor moves on.
pub(super) fn toggle_viewed(state: &mut State) -> Vec<Effect> {
    let Some(r) = state.selected_config() else {
        return vec![];
    };
    let Some(sha) = r.sha256().map(str::to_owned) else {
        set_status(
            state,
            "A config that does not load cannot be marked viewed".to_string(),
            true,
        );
        return vec![];
    };
    let (key, on) = (r.key.clone(), !state.is_viewed(r));
    state.progress.set_viewed(&key, &sha, on);
    recount(state);
    if state.unviewed_only {
        refilter(state);
    } else {
        act_on_list(state, Action::Down);
    }
    let change = state.progress_change(vec![(key, on.then_some(sha))]);
    vec![Effect::SaveProgress(Box::new(change))]
}

/// `i`: ignore the marked (or selected) configs as they are now, or, when
/// every one of them is ignored already, ask about them again. Only a
/// config that would ask for review (never trusted, changed) can be
/// ignored.
pub(super) fn toggle_ignore(state: &mut State) -> Vec<Effect> {
    let chosen: Vec<&ConfigReport> = if state.marked.is_empty() {
        state.selected_config().into_iter().collect()
    } else {
        state
            .configs
            .iter()
            .filter(|c| state.marked.contains(&c.key))
            .collect()
    };
    if chosen.is_empty() {
        return vec![];
    }
    let unignore = chosen.iter().all(|c| c.state == ConfigState::Ignored);
    let changes: Vec<(String, Option<IgnoreAs>)> = chosen
        .iter()
        .filter_map(
            |c| match (unignore, c.state.needs_review(), IgnoreAs::of(c)) {
                (true, _, _) => Some((c.key.clone(), None)),
                (false, true, Some(now)) => Some((c.key.clone(), Some(now))),
                _ => None,
            },
        )
        .collect();
    if changes.is_empty() {
        set_status(
            state,
            "Nothing to ignore: only a config never trusted or changed since trusted can be ignored"
                .to_string(),
            true,
        );
        return vec![];
    }
    for (key, sha) in &changes {
        match sha {
            Some(now) => state.ignores.ignore(key, now, ""),
            None => state.ignores.unignore(key),
        };
    }
    let n = changes.len();
    let configs = if n == 1 { "config" } else { "configs" };
    let text = if unignore {
        format!("Unignored {n} {configs}: asked about again")
    } else {
        format!(
            "Ignored {n} {configs} until changed (GocciaScript still refuses to run them); i again to undo"
        )
    };
    let keys: HashSet<String> = changes.iter().map(|(k, _)| k.clone()).collect();
    // As after a trust, the row keeps its place: the next config moves in.
    reapply_ignores(state, Some(&keys), false);
    set_status(state, text, false);
    vec![Effect::SetIgnored(changes)]
}

/// The keys of the rows the list shows (all of them for the store view).
pub(super) fn visible_keys(state: &State) -> Vec<String> {
    match state.view {
        // Only configs are marked: a missing or shadowed row is acted on
        // alone.
        View::Configs => state
            .visible
            .iter()
            .filter_map(|&i| state.configs.get(i))
            .map(|c| c.key.clone())
            .collect(),
        View::Store => state.store.entries.iter().map(|e| e.key.clone()).collect(),
    }
}

/// `a`: mark every visible row, or unmark them all when all are marked
/// already; `A`: invert the mark of each visible row. Rows the filter
/// hides keep their marks.
pub(super) fn mark_visible(state: &mut State, action: Action) {
    let keys = visible_keys(state);
    let marked = match state.view {
        View::Configs => &mut state.marked,
        View::Store => &mut state.store.marked,
    };
    let all = keys.iter().all(|k| marked.contains(k));
    for k in keys {
        let on = match action {
            Action::MarkAll => !all,
            _ => !marked.contains(&k),
        };
        if on {
            marked.insert(k);
        } else {
            marked.remove(&k);
        }
    }
}

/// `n` / `N`: the next (previous) visible config that needs review,
/// wrapping around; a status line when there is none.
pub(super) fn next_needing_review(state: &mut State, action: Action) {
    let len = state.visible.len();
    let from = state.cursor.selected;
    let found = (1..=len)
        .map(|step| {
            if action == Action::NextReview {
                (from + step) % len
            } else {
                (from + len - step % len) % len
            }
        })
        .find(|&row| {
            state
                .configs
                .get(state.visible[row])
                .is_some_and(|c| c.state.needs_review())
        });
    match found {
        Some(row) => {
            let rows = layout::list_rows(state.size);
            state.cursor.select(row, len, rows);
            state.detail_scroll = 0;
            state.scan.anchor = None;
        }
        None => set_status(state, "No config needs review".to_string(), false),
    }
}

//! Confirmations and commits: what a trust, untrust or prune will record
//! or remove, shown before anything is written, and what the TUI does with
//! the backend's answer.

use crate::core::review::report::{ConfigReport, ConfigState, EntryStatus};
use crate::tui::backend::{CommitError, CommitOutcome};
use crate::tui::keymap::Action;
use crate::tui::layout;
use crate::tui::msg::{Effect, Pending, Removal, stored_lines};
use crate::tui::state::{Anchor, Confirmation, Mode, PolicyShown, State, View};
use crate::tui::update::rows::{put_configs, selected_key, sort_and_refilter};
use crate::tui::update::scan::rescan;
use crate::tui::update::screen::{scroll, set_status};

pub(super) fn act_on_confirm(state: &mut State, action: Action) -> Vec<Effect> {
    let rows = layout::popup_rows(state.size);
    let max = state.scroll_limits.confirm;
    let Mode::Confirm(c) = &mut state.mode else {
        return vec![];
    };
    // Once confirmed, the answer is on its way: keys cannot undo it.
    if c.busy {
        return vec![];
    }
    match action {
        Action::Confirm => {
            c.busy = true;
            vec![Effect::Commit(c.pending.clone())]
        }
        Action::Cancel => {
            state.mode = Mode::Normal;
            set_status(state, "Cancelled; nothing was written".to_string(), false);
            vec![]
        }
        _ => {
            scroll(&mut c.scroll, action, max, rows);
            vec![]
        }
    }
}

/// The configs an action applies to: the marked ones (in display order,
/// including marked rows a filter hides), else the selected one.
fn chosen_configs(state: &State) -> Vec<&ConfigReport> {
    if state.marked.is_empty() {
        state.selected_config().into_iter().collect()
    } else {
        state
            .configs
            .iter()
            .filter(|c| state.marked.contains(&c.key))
            .collect()
    }
}

pub(super) fn open_confirm(
    state: &mut State,
    pending: Pending,
    skipped: Vec<(String, &'static str)>,
) {
    // What the policy says of the configs to trust, as the list shows it.
    let policy = match (&pending, &state.policy) {
        (Pending::Trust(reports), Some(label)) => Some(PolicyShown {
            label: label.clone(),
            decisions: reports
                .iter()
                .filter_map(|r| state.decision(r).map(|d| (r.key.clone(), d.clone())))
                .collect(),
        }),
        _ => None,
    };
    if pending.is_empty() {
        let why = skipped
            .first()
            .map(|(_, why)| format!(" ({why})"))
            .unwrap_or_default();
        set_status(
            state,
            format!("Nothing to do for the selection{why}"),
            false,
        );
        return;
    }
    let who = match &pending {
        Pending::Trust(reports) => crate::tui::provenance::who(state, reports),
        _ => Default::default(),
    };
    let deleted = crate::tui::deleted::for_confirmation(state, &pending);
    // Each config's signed reviews as judged for the block it shows.
    let reviews = match &pending {
        Pending::Trust(reports) => reports
            .iter()
            .filter_map(|r| Some((r.key.clone(), state.reviews_of(r)?.clone())))
            .collect(),
        _ => Default::default(),
    };
    state.mode = Mode::Confirm(Confirmation {
        pending,
        skipped,
        policy,
        since: state.since.as_ref().map(|s| s.rev.clone()),
        scroll: 0,
        busy: false,
        who,
        deleted,
        reviews,
    });
}

pub(super) fn open_trust(state: &mut State) {
    let mut shown = Vec::new();
    let mut skipped = Vec::new();
    for r in chosen_configs(state) {
        match r.state {
            ConfigState::NeverTrusted | ConfigState::Changed => shown.push(r.clone()),
            ConfigState::Trusted => skipped.push((r.display_path.clone(), "already trusted")),
            ConfigState::NoRequest => skipped.push((r.display_path.clone(), "requests nothing")),
            ConfigState::Error => skipped.push((r.display_path.clone(), "does not load")),
            ConfigState::Ignored => skipped.push((r.display_path.clone(), "ignored")),
        }
    }
    open_confirm(state, Pending::Trust(shown), skipped);
}

pub(super) fn open_untrust(state: &mut State) {
    let mut removals = Vec::new();
    let mut skipped = Vec::new();
    match state.view {
        View::Configs => {
            for r in chosen_configs(state) {
                match &r.stored {
                    Some(s) => removals.push(Removal {
                        key: r.key.clone(),
                        display_path: r.display_path.clone(),
                        trusted_at: s.trusted_at.clone(),
                        lines: stored_lines(&r.lines),
                    }),
                    None => skipped.push((r.display_path.clone(), "not in the store")),
                }
            }
        }
        View::Store => {
            let store = &state.store;
            let chosen: Vec<_> = if store.marked.is_empty() {
                state.selected_entry().into_iter().collect()
            } else {
                store
                    .entries
                    .iter()
                    .filter(|e| store.marked.contains(&e.key))
                    .collect()
            };
            for e in chosen {
                removals.push(Removal {
                    key: e.key.clone(),
                    display_path: e.display_path.clone(),
                    trusted_at: e.trusted_at.clone(),
                    lines: stored_lines(&e.lines),
                });
            }
        }
    }
    open_confirm(state, Pending::Untrust(removals), skipped);
}

pub(super) fn open_prune(state: &mut State) {
    let missing: Vec<Removal> = state
        .store
        .entries
        .iter()
        .filter(|e| e.status == EntryStatus::Missing)
        .map(|e| Removal {
            key: e.key.clone(),
            display_path: e.display_path.clone(),
            trusted_at: e.trusted_at.clone(),
            lines: stored_lines(&e.lines),
        })
        .collect();
    if missing.is_empty() {
        set_status(state, "No missing entries to prune".to_string(), false);
        return;
    }
    open_confirm(state, Pending::Prune(missing), Vec::new());
}

pub(super) fn on_committed(
    state: &mut State,
    result: Result<CommitOutcome, CommitError>,
) -> Vec<Effect> {
    state.mode = Mode::Normal;
    match result {
        Ok(outcome) => {
            state.marked.clear();
            state.store.marked.clear();
            set_status(state, outcome.message, false);
            let effects = rescan(state);
            // The cursor stays at the same row index, not on the row that
            // moved to its new sorted place: a reviewer walking down the
            // list keeps their place (the next row now sits under it).
            state.scan.anchor = Some(Anchor::Row);
            effects
        }
        Err(CommitError::Stale { message, current }) => {
            // Show the new state at once; the rescan then refreshes the rest.
            let keep = selected_key(state);
            put_configs(state, current);
            sort_and_refilter(state, keep);
            set_status(
                state,
                format!("Refused: {message}; nothing was written"),
                true,
            );
            rescan(state)
        }
        Err(other) => {
            // Lock held, store unreadable, failed write: nothing changed, so
            // keep marks and the list; the user may retry.
            set_status(state, format!("Nothing was written: {other}"), true);
            vec![]
        }
    }
}

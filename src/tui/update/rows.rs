//! The list's rows: the configs as reports arrive (replacing a key's
//! report, with its summary worked out once), the missing and shadowed
//! files, and which of them the filters let through, with the selection
//! kept on its config.

use std::collections::{HashMap, HashSet};

use crate::core::review::ignore::unignored_state;
use crate::core::review::report::{ConfigReport, ConfigState};
use crate::tui::layout;
use crate::tui::state::{Anchor, OtherRow, OtherState, State, review_rank};

/// The selected row's key: a config's, or a missing or shadowed file's.
pub(super) fn selected_key(state: &State) -> Option<String> {
    let i = *state.visible.get(state.cursor.selected)?;
    state.row(i).map(|r| r.key().to_string())
}

/// The config to keep selected as scan results arrive: the scan's anchor,
/// else (the user moved) the selected one. `None` keeps the row.
pub(super) fn anchored_key(state: &State) -> Option<String> {
    match &state.scan.anchor {
        Some(Anchor::Row) => None,
        Some(Anchor::Config(key)) => Some(key.clone()),
        None => selected_key(state),
    }
}

/// The missing and shadowed rows, from what the scan found.
pub(super) fn set_others(state: &mut State) {
    let missing = state.scan.missing.iter().map(|f| (OtherState::Missing, f));
    let shadowed = state
        .scan
        .shadowed
        .iter()
        .map(|f| (OtherState::Shadowed, f));
    state.others = missing
        .chain(shadowed)
        .map(|(s, f)| OtherRow {
            state: s,
            file: f.clone(),
        })
        .collect();
}

/// Shows the configs of `keys` (all when `None`) as the ignore list says:
/// `ignored` when ignored as they are now, else their own state. The
/// selection follows its config when `follow`, else keeps its row.
pub(super) fn reapply_ignores(state: &mut State, keys: Option<&HashSet<String>>, follow: bool) {
    let reports: Vec<ConfigReport> = state
        .configs
        .iter()
        .filter(|c| keys.is_none_or(|k| k.contains(&c.key)))
        .filter(|c| {
            c.state == ConfigState::Ignored || (c.state.needs_review() && state.ignores.ignores(c))
        })
        .cloned()
        .collect();
    if reports.is_empty() {
        return;
    }
    let keep = follow.then(|| selected_key(state)).flatten();
    put_configs(state, reports);
    sort_and_refilter(state, keep);
}

/// Puts `reports` in the list, each replacing the report of its key if
/// there is one, with its summary worked out once, here.
pub(super) fn put_configs(state: &mut State, reports: Vec<ConfigReport>) {
    // One pass over the rows per batch, not one per report: a large tree's
    // first scan arrives in many batches into an ever longer list.
    let slots: Vec<Option<usize>> = {
        let index: HashMap<&str, usize> = state
            .configs
            .iter()
            .enumerate()
            .map(|(i, c)| (c.key.as_str(), i))
            .collect();
        reports
            .iter()
            .map(|r| index.get(r.key.as_str()).copied())
            .collect()
    };
    // Keys new in this batch, should one come twice.
    let mut added: HashMap<String, usize> = HashMap::new();
    let base = state.since.as_ref().and_then(|s| s.loaded());
    for (mut report, slot) in reports.into_iter().zip(slots) {
        // Ignored as it is now (`i`, `goccia-trust ignore`), or no longer.
        if report.state == ConfigState::Ignored && !state.ignores.ignores(&report) {
            report.state = unignored_state(&report);
        }
        state.ignores.apply(&mut report);
        // With `--since`, the row says what changed since BASE.
        let summary = match base {
            Some(base) => {
                let diff = crate::tui::since::compare(base, &report);
                let summary = match &diff {
                    Some(d) => crate::tui::since::summary(&report, d, &base.rev),
                    None => report.summary(),
                };
                state.rows.since.insert(report.key.clone(), diff);
                summary
            }
            None => report.summary(),
        };
        state.rows.summaries.insert(report.key.clone(), summary);
        match slot.or_else(|| added.get(&report.key).copied()) {
            Some(i) => state.configs[i] = report,
            None => {
                added.insert(report.key.clone(), state.configs.len());
                state.configs.push(report);
            }
        }
    }
}

/// The title's and status line's counts, from every config.
pub(super) fn recount(state: &mut State) {
    let (mut viewed, mut needs, mut errors) = (0, 0, 0);
    for c in &state.configs {
        viewed += usize::from(state.progress.is_viewed(&c.key, c.sha256()));
        needs += usize::from(c.state.needs_review());
        errors += usize::from(c.state == ConfigState::Error);
    }
    state.rows.viewed = viewed;
    state.rows.needs_review = needs;
    state.rows.hidden_needs_review = needs.saturating_sub(
        state
            .visible
            .iter()
            .filter(|&&i| state.configs.get(i).is_some_and(|c| c.state.needs_review()))
            .count(),
    );
    state.rows.errors = errors;
}

pub(super) fn sort_and_refilter(state: &mut State, keep: Option<String>) {
    state
        .configs
        .sort_by(|a, b| (review_rank(a.state), &a.key).cmp(&(review_rank(b.state), &b.key)));
    apply_filter(state, keep);
}

pub(super) fn refilter(state: &mut State) {
    let keep = selected_key(state);
    apply_filter(state, keep);
}

/// Recompute the visible rows, keeping the selection on the config `keep`
/// when it is still visible (capture it before reordering `configs`).
pub(super) fn apply_filter(state: &mut State, keep: Option<String>) {
    let query = state.query.to_lowercase();
    state.visible = state
        .configs
        .iter()
        .enumerate()
        .filter(|(_, c)| state.state_filter.is_none_or(|f| c.state == f))
        .filter(|(_, c)| !state.unviewed_only || !state.is_viewed(c))
        .filter(|(_, c)| query.is_empty() || c.display_path.to_lowercase().contains(&query))
        .filter(|_| state.other_filter.is_none())
        .map(|(i, _)| i)
        .collect();
    // The missing and shadowed rows, after the configs: no config state,
    // and nothing to view, so a state or `not viewed` filter hides them.
    let first = state.configs.len();
    let others: Vec<usize> = state
        .others
        .iter()
        .enumerate()
        .filter(|(_, o)| state.other_filter.is_none_or(|f| o.state == f))
        .filter(|_| state.state_filter.is_none() && !state.unviewed_only)
        .filter(|(_, o)| query.is_empty() || o.file.display_path.to_lowercase().contains(&query))
        .map(|(i, _)| first + i)
        .collect();
    state.visible.extend(others);
    // The path column from every row the filter lets through, not the
    // window: the summary column stays put as the list scrolls.
    state.rows.path_width = state
        .visible
        .iter()
        .filter_map(|&i| state.row(i))
        .map(|r| {
            let shown = crate::tui::state::row_path(&state.root, r.display_path());
            crate::tui::state::shown_width(shown)
        })
        .max()
        .unwrap_or(0);
    recount(state);
    let to = keep
        .and_then(|k| {
            state
                .visible
                .iter()
                .position(|&i| state.row(i).is_some_and(|r| r.key() == k))
        })
        .unwrap_or(state.cursor.selected);
    let rows = layout::list_rows(state.size);
    state.cursor.select(to, state.visible.len(), rows);
}

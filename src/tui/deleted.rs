//! Who deleted a missing config (issue 40 item 5): for the selected
//! missing row of the Configs view or missing entry of the Store view, and
//! for each config a prune or untrust confirmation would remove that is
//! gone, the commit of HEAD's history that deleted the file, as `scan`
//! names it on a terminal. Read from git on a worker, one read at a time
//! with the provenance reads (`tui::provenance`), only once asked (never
//! before the first frame, never for the whole list). Kept per key;
//! dropped when the tree is scanned again or changes on disk.

use crate::core::review::report::EntryStatus;
use crate::core::revision::provenance::{Absent, ValueOrigin};
use crate::core::revision::review_provenance::MAX_LISTED;
use crate::tui::msg::{Effect, Pending};
use crate::tui::state::{Deleted, DeletedBy, Mode, OtherState, State, View};

/// What is known of who deleted the config of `key`: nothing when it was
/// never asked (or the review reads no git), `Some(None)` while git is
/// read.
pub fn of<'s>(state: &'s State, key: &str) -> Option<&'s DeletedBy> {
    state.provenance.as_ref()?.deleted.get(key)
}

/// The key of the selected row when its config is gone: a missing row of
/// the Configs view, a missing entry of the Store view.
fn selected_missing(state: &State) -> Option<&str> {
    match state.view {
        View::Configs => state
            .selected_other()
            .filter(|o| o.state == OtherState::Missing)
            .map(|o| o.file.key.as_str()),
        View::Store => state
            .selected_entry()
            .filter(|e| e.status == EntryStatus::Missing)
            .map(|e| e.key.as_str()),
    }
}

/// Whether the store entry of `key` names a config that is gone.
fn gone(state: &State, key: &str) -> bool {
    state
        .store
        .entries
        .iter()
        .any(|e| e.key == key && e.status == EntryStatus::Missing)
        || state.scan.missing.iter().any(|m| m.key == key)
}

/// What a confirmation of `pending` knows, as it opens, of who deleted
/// each config it would remove that is gone (every one a prune removes;
/// the missing ones of an untrust), the first [`MAX_LISTED`] of them:
/// what was read, else `None` (to be read). Empty for a trust, or when
/// the review reads no git.
pub fn for_confirmation(state: &State, pending: &Pending) -> Deleted {
    let (removals, all_gone) = match pending {
        Pending::Prune(r) => (r, true),
        Pending::Untrust(r) => (r, false),
        Pending::Trust(_) => return Deleted::new(),
    };
    if state.provenance.is_none() {
        return Deleted::new();
    }
    removals
        .iter()
        .filter(|r| all_gone || gone(state, &r.key))
        .take(MAX_LISTED)
        .map(|r| (r.key.clone(), of(state, &r.key).cloned().flatten()))
        .collect()
}

/// The read wanted next, if any: the open confirmation's first config
/// whose deletion is not known, else the selected missing config's, when
/// not asked yet; none while another read runs.
pub fn wanted(state: &mut State) -> Option<Effect> {
    if state.provenance.as_ref()?.reading() {
        return None;
    }
    let key = match &state.mode {
        Mode::Confirm(c) if c.busy => return None,
        Mode::Confirm(c) => {
            let keys = match &c.pending {
                Pending::Prune(r) | Pending::Untrust(r) => r.iter().map(|r| &r.key),
                Pending::Trust(_) => return None,
            };
            keys.into_iter()
                .find(|k| matches!(c.deleted.get(*k), Some(None)))?
                .clone()
        }
        _ => selected_missing(state)
            .filter(|k| of(state, k).is_none())?
            .to_string(),
    };
    state.provenance.as_mut()?.deleted.insert(key.clone(), None);
    Some(Effect::DeletedBy(key))
}

/// A read's result: kept when it was awaited (a read the tree's rescan
/// made stale is asked again), and shown by the open confirmation that
/// lists the config.
pub fn arrived(state: &mut State, key: String, result: Result<ValueOrigin, Absent>) {
    if let Mode::Confirm(c) = &mut state.mode
        && let Some(slot) = c.deleted.get_mut(&key)
    {
        *slot = Some(result.clone());
    }
    if let Some(cache) = state.provenance.as_mut()
        && let Some(slot @ None) = cache.deleted.get_mut(&key)
    {
        *slot = Some(result);
    }
}

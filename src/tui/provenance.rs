//! Who changed what, in the detail pane (issue 26 item 3): for the
//! selected changed config, the commits since it was trusted (with
//! `--since BASE`, those of `BASE..HEAD`) and each added value's origin,
//! read from git on a worker, one config at a time, only once it is
//! selected (never before the first frame, never for the whole list).
//! Kept per config and block, so coming back to a config shows it at once;
//! dropped when the tree is scanned again or changes on disk.

use std::collections::HashMap;

use crate::core::review::report::{ConfigReport, ConfigState};
use crate::core::revision::compare::Verdict;
use crate::core::revision::provenance::{Absent, ConfigProvenance};
use crate::tui::msg::Effect;
use crate::tui::since::SinceOf;
use crate::tui::state::{State, View};

/// What is known of each config's provenance, by key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Provenance {
    pub slots: HashMap<String, Slot>,
}

/// One config's provenance, for the block it was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    pub sha256: String,
    /// `None` while git is read.
    pub data: Option<Result<ConfigProvenance, Absent>>,
}

/// Whether the pane of `r` says who changed it: a config changed since it
/// was trusted, reviewed against the store; with `--since`, a config
/// compared with BASE that changed since (the change is BASE's, not the
/// store's, whatever the store says of it).
pub fn applies(state: &State, r: &ConfigReport) -> bool {
    if state.since.is_none() {
        return r.state == ConfigState::Changed && r.stored.is_some();
    }
    matches!(state.since_of(r), Some(SinceOf::Compared(d)) if d.verdict != Verdict::Same)
}

/// The provenance shown in the pane of `r`, if any is kept for its block.
pub fn slot<'s>(state: &'s State, r: &ConfigReport) -> Option<&'s Slot> {
    if !applies(state, r) {
        return None;
    }
    let slot = state.provenance.as_ref()?.slots.get(&r.key)?;
    (Some(slot.sha256.as_str()) == r.sha256()).then_some(slot)
}

/// The read the selected config needs, if any: none while another read
/// runs (moving through the list does not start one git per row passed).
pub fn wanted(state: &mut State) -> Option<Effect> {
    if state.view != View::Configs {
        return None;
    }
    let cache = state.provenance.as_ref()?;
    let r = state.selected_config()?;
    if !applies(state, r) || slot(state, r).is_some() {
        return None;
    }
    if cache.slots.values().any(|s| s.data.is_none()) {
        return None;
    }
    let report = r.clone();
    let sha256 = report.sha256()?.to_string();
    state
        .provenance
        .as_mut()?
        .slots
        .insert(report.key.clone(), Slot { sha256, data: None });
    Some(Effect::Provenance(Box::new(report)))
}

/// A read's result, kept when it is about the block asked for (a read for
/// an older block is dropped, and the next step asks again).
pub fn arrived(
    state: &mut State,
    key: String,
    sha256: String,
    result: Result<ConfigProvenance, Absent>,
) {
    let Some(cache) = state.provenance.as_mut() else {
        return;
    };
    match cache.slots.get_mut(&key) {
        Some(slot) if slot.sha256 == sha256 => slot.data = Some(result),
        Some(slot) if slot.data.is_none() => {
            cache.slots.remove(&key);
        }
        _ => {}
    }
}

/// Forgets every config's provenance: the tree was scanned again or
/// changed on disk, and with it what git says.
pub fn forget(state: &mut State) {
    if let Some(cache) = state.provenance.as_mut() {
        cache.slots.clear();
    }
}

//! Who changed what, in the detail pane (issue 26 item 3): for the
//! selected changed config, the commits since it was trusted (with
//! `--since BASE`, those of `BASE..HEAD`) and each added value's origin,
//! read from git on a worker, one config at a time, only once it is
//! selected (never before the first frame, never for the whole list).
//! Kept per config and block, so coming back to a config shows it at once;
//! dropped when the tree is scanned again or changes on disk.
use crate::core::review::report::{ConfigReport, ConfigState};
use crate::core::revision::compare::Verdict;
use crate::core::revision::provenance::{Absent, ConfigProvenance};
use crate::core::revision::review_provenance::MAX_LISTED;
use crate::tui::msg::Effect;
use crate::tui::msg::Pending;
use crate::tui::since::SinceOf;
use crate::tui::state::{Mode, Slot, State, View, Who};

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
    kept(state, r)
}

/// The provenance kept for `r`'s block, whatever shows it.
fn kept<'s>(state: &'s State, r: &ConfigReport) -> Option<&'s Slot> {
    let slot = state.provenance.as_ref()?.slots.get(&r.key)?;
    (Some(slot.sha256.as_str()) == r.sha256()).then_some(slot)
}

/// Whether the trust confirmation names who made `r`'s values (issue 40
/// item 5): a config changed since it was trusted (each widening value's
/// commit) or never trusted (the commit that added each value: for a
/// config added whole, the commit that added it). Against the store, as
/// the confirmation's lines compare, under `--since` too (read apart from
/// the pane's, which are BASE's: [`Provenance::against_store`]).
pub fn for_confirmation(r: &ConfigReport) -> bool {
    match r.state {
        ConfigState::Changed => r.stored.is_some(),
        ConfigState::NeverTrusted => true,
        _ => false,
    }
}

/// The provenance kept for the confirmation of `r`'s block: the pane's,
/// read against the store, or under `--since` the confirmation's own.
fn kept_for_confirmation<'s>(state: &'s State, r: &ConfigReport) -> Option<&'s Slot> {
    let cache = state.provenance.as_ref()?;
    let slots = match state.since {
        Some(_) => &cache.against_store,
        None => &cache.slots,
    };
    let slot = slots.get(&r.key)?;
    (Some(slot.sha256.as_str()) == r.sha256()).then_some(slot)
}

/// What the confirmation knows of who made each config it would trust, by
/// key: read (against the store), being read (`None`), or why not.
pub fn who(state: &State, reports: &[ConfigReport]) -> Who {
    reports
        .iter()
        .filter(|r| for_confirmation(r))
        .filter_map(|r| {
            let data = &kept_for_confirmation(state, r)?.data;
            match data {
                Some(Ok(p)) if p.since != crate::core::revision::provenance::Since::Trusted => None,
                _ => Some((r.key.clone(), data.clone())),
            }
        })
        .collect()
}

/// The read the open trust confirmation needs next: the first of its
/// configs (of the first [`MAX_LISTED`], as the `trust` listing bounds
/// it) whose provenance was not read, one at a time as the pane's.
fn confirmation_wants(state: &mut State) -> Option<Effect> {
    let Mode::Confirm(c) = &state.mode else {
        return None;
    };
    let Pending::Trust(reports) = &c.pending else {
        return None;
    };
    if c.busy {
        return None;
    }
    let report = reports
        .iter()
        .take(MAX_LISTED)
        .find(|r| for_confirmation(r) && kept_for_confirmation(state, r).is_none())?
        .clone();
    let sha256 = report.sha256()?.to_string();
    let since = state.since.is_some();
    let cache = state.provenance.as_mut()?;
    let slots = match since {
        true => &mut cache.against_store,
        false => &mut cache.slots,
    };
    slots.insert(report.key.clone(), Slot { sha256, data: None });
    Some(match since {
        true => Effect::StoreProvenance(Box::new(report)),
        false => Effect::Provenance(Box::new(report)),
    })
}

/// The read the selected config needs, if any, or the open confirmation:
/// none while another read runs (moving through the list does not start
/// one git per row passed).
pub fn wanted(state: &mut State) -> Option<Effect> {
    if state.provenance.as_ref()?.reading() {
        return None;
    }
    if matches!(state.mode, Mode::Confirm(_)) {
        return confirmation_wants(state);
    }
    if state.view != View::Configs {
        return None;
    }
    let r = state.selected_config()?;
    if !applies(state, r) || slot(state, r).is_some() {
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
/// an older block is dropped, and the next step asks again). One read runs
/// at a time ([`wanted`]): a confirmation's read against the store is the
/// one its slot awaits.
pub fn arrived(
    state: &mut State,
    key: String,
    sha256: String,
    result: Result<ConfigProvenance, Absent>,
) {
    let Some(cache) = state.provenance.as_mut() else {
        return;
    };
    let slots = match cache.against_store.get(&key) {
        Some(slot) if slot.data.is_none() => &mut cache.against_store,
        _ => &mut cache.slots,
    };
    match slots.get_mut(&key) {
        Some(slot) if slot.sha256 == sha256 => slot.data = Some(result),
        Some(slot) if slot.data.is_none() => {
            slots.remove(&key);
        }
        _ => {}
    }
    // An open trust confirmation names who made each value as it arrives.
    let reports = match &state.mode {
        Mode::Confirm(c) => match &c.pending {
            Pending::Trust(reports) => reports.clone(),
            _ => return,
        },
        _ => return,
    };
    let who = who(state, &reports);
    if let Mode::Confirm(c) = &mut state.mode {
        c.who = who;
    }
}

/// Forgets every config's provenance: the tree was scanned again or
/// changed on disk, and with it what git says.
pub fn forget(state: &mut State) {
    if let Some(cache) = state.provenance.as_mut() {
        cache.slots.clear();
        cache.against_store.clear();
        cache.deleted.clear();
    }
}

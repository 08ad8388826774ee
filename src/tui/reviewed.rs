//! Signed reviews in the interactive review (issue 43): each config's
//! reviews arrive with the scan that read it (judged on its worker, never
//! on the render loop: `TuiBackend::take_reviews`); for the selected
//! config with an outdated review, the version that review was of is
//! looked for in git on a worker, one config at a time and only once it is
//! selected, so the pane can show the requests' diff since it. Kept per
//! config and block; dropped when the tree is read again.

use crate::core::revision::provenance::Absent;
use crate::core::revision::provenance::reviewed::ReviewedVersions;
use crate::tui::msg::Effect;
use crate::tui::state::{Mode, ReviewedSlot, State, View};

/// What is known of the versions the outdated reviews of the config of
/// `key` were of, for its block `sha256`.
pub fn versions<'s>(state: &'s State, key: &str, sha256: Option<&str>) -> Option<&'s ReviewedSlot> {
    state
        .reviewed_versions
        .get(key)
        .filter(|s| Some(s.sha256.as_str()) == sha256)
}

/// The read the selected config needs: its outdated reviews' versions,
/// when it has any and they were not read for its block. None while
/// another git read runs, in an overlay, or when the review reads no git.
pub fn wanted(state: &mut State) -> Option<Effect> {
    let provenance = state.provenance.as_ref()?;
    if provenance.reading()
        || state.reviewed_versions.values().any(|s| s.data.is_none())
        || state.mode != Mode::Normal
        || state.view != View::Configs
    {
        return None;
    }
    let r = state.selected_config()?;
    let reviews = state.reviews_of(r)?;
    if reviews.earlier_digests().is_empty() || versions(state, &r.key, r.sha256()).is_some() {
        return None;
    }
    let (report, reviews) = (r.clone(), reviews.clone());
    let sha256 = report.sha256()?.to_string();
    state
        .reviewed_versions
        .insert(report.key.clone(), ReviewedSlot { sha256, data: None });
    Some(Effect::ReviewedVersions(
        Box::new(report),
        Box::new(reviews),
    ))
}

/// A read's result, kept when it is for the block asked for.
pub fn arrived(
    state: &mut State,
    key: String,
    sha256: String,
    result: Result<ReviewedVersions, Absent>,
) {
    match state.reviewed_versions.get_mut(&key) {
        Some(slot) if slot.sha256 == sha256 => slot.data = Some(result),
        Some(slot) if slot.data.is_none() => {
            state.reviewed_versions.remove(&key);
        }
        _ => {}
    }
}

/// Forgets every version read: the tree is read again.
pub fn forget(state: &mut State) {
    state.reviewed_versions.clear();
}

//! Who changed what, for a config under review (issue 26 item 3): the
//! commits since it was trusted and each added value's origin, read from
//! its chain of files and its value-level diff. One answer for every
//! surface that reviews a changed config: the TUI's detail pane,
//! `inspect`, `scan` on a terminal and `trust --why`. (Here, not in
//! `review`: `revision` reads `review`'s reports, never the reverse; the
//! commands hold what this returns beside their results.)

use std::collections::HashMap;

use rayon::prelude::*;

use crate::core::env::Env;
use crate::core::review::report::{ConfigReport, ConfigState, report_values};
use crate::core::review::trust::TrustCandidate;
use crate::core::review::value_diff::{Change, ValueChange};
use crate::core::revision::provenance::{Absent, ConfigProvenance, of_config};
use crate::core::store::Store;

/// What a review knows of a config's provenance: read, or why not.
pub type Provenance = Result<ConfigProvenance, Absent>;

/// The values a review shows as added, as `(request, value)`: those whose
/// origin is asked.
pub fn added_values(values: &[ValueChange]) -> Vec<(String, String)> {
    values
        .iter()
        .filter(|v| v.change == Change::Added)
        .map(|v| (v.request.clone(), v.value.clone()))
        .collect()
}

/// The provenance of a changed config whose chain is `files` (the config
/// first), trusted at `trusted_at`, whose values changed as `values` say.
pub fn of_changes(
    files: &[String],
    trusted_at: &str,
    values: &[ValueChange],
    env: &Env,
) -> Provenance {
    of_config(files, trusted_at, &added_values(values), env)
}

/// The provenance of a report's config: `Absent` for a config never
/// trusted (no `trustedAt` to look back from).
pub fn of_report(report: &ConfigReport, env: &Env) -> Provenance {
    let stored = report.stored.as_ref().ok_or_else(|| Absent {
        reason: "never trusted: no trustedAt to look back from".to_string(),
    })?;
    of_changes(
        &report.files,
        &stored.trusted_at,
        &report_values(report),
        env,
    )
}

/// [`of_report`] for a changed config only: git is read for nothing else.
pub fn of_changed_report(report: &ConfigReport, env: &Env) -> Option<Provenance> {
    (report.state == ConfigState::Changed && report.stored.is_some())
        .then(|| of_report(report, env))
}

/// Who changed each config, by key.
pub type Why = HashMap<String, Provenance>;

/// `trust --why`: who changed each listed changed config, by key, read on
/// every thread (git is read for those only).
pub fn of_candidates(candidates: &[TrustCandidate], store: &Store, env: &Env) -> Why {
    candidates
        .par_iter()
        .filter(|c| c.changed)
        .filter_map(|c| {
            let key = c.snapshot.key.as_str();
            let stored = store.get(key)?;
            let values = c.values(Some(stored));
            let p = of_changes(&c.snapshot.files, &stored.trusted_at, &values, env);
            Some((key.to_string(), p))
        })
        .collect()
}

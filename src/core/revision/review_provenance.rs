//! Who changed what, for a config under review (issue 26 item 3): the
//! commits since it was trusted and each added value's origin, read from
//! its chain of files and its value-level diff. One answer for every
//! surface that reviews a changed config: the TUI's detail pane (also
//! under `--since BASE`, where the commits are BASE's and the values those
//! added since BASE), `inspect`, `scan` on a terminal and `trust --why`. (Here, not in
//! `review`: `revision` reads `review`'s reports, never the reverse; the
//! commands hold what this returns beside their results.)

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use crate::core::env::Env;
use crate::core::review::report::{ConfigReport, ConfigState, report_values};
use crate::core::review::trust::TrustCandidate;
use crate::core::review::value_diff::{Change, ValueChange};
use crate::core::revision::provenance::{
    Absent, ChainValues, ConfigProvenance, Since, Trusted, introduced_each, log_between, of_config,
    of_new_config, repository, retarget_origins,
};
use crate::core::revision::since::SinceBase;
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
/// first), trusted as `trusted` says, whose values changed as `values` say.
pub fn of_changes(
    files: &[String],
    trusted: &Trusted,
    values: &[ValueChange],
    env: &Env,
) -> Provenance {
    of_config(
        files,
        trusted,
        &added_values(values),
        &retargeted_values(values),
        env,
    )
}

/// The values a review shows as re-targeted (`~`), as `(request, value)`.
pub fn retargeted_values(values: &[ValueChange]) -> Vec<(String, String)> {
    values
        .iter()
        .filter(|v| v.change == Change::Retargeted)
        .map(|v| (v.request.clone(), v.value.clone()))
        .collect()
}

/// The provenance of a report's config: for a config never trusted, the
/// origin of each value it grants ([`of_new_block`]); `Absent` for another
/// with no store entry (no `trustedAt` to look back from).
pub fn of_report(report: &ConfigReport, env: &Env) -> Provenance {
    if report.state == ConfigState::NeverTrusted {
        let block = report.block_json().ok_or_else(|| Absent {
            reason: "the config does not load".to_string(),
        })?;
        return of_new_block(&report.files, block, env);
    }
    let stored = report.stored.as_ref().ok_or_else(|| Absent {
        reason: "never trusted: no trustedAt to look back from".to_string(),
    })?;
    let trusted = Trusted {
        sha256: stored.sha256.clone(),
        targets: stored.targets.clone(),
        at: stored.trusted_at.clone(),
    };
    of_changes(&report.files, &trusted, &report_values(report), env)
}

/// The provenance of a report's config reviewed against revision BASE
/// (`--since BASE`, read as `base`): the commits of `BASE..HEAD` that
/// touched its files, and for each value added since BASE (as the review
/// shows it) the commit of that range that introduced its line,
/// [`ValueOrigin::AtBase`](crate::core::revision::provenance::ValueOrigin)
/// or `NotCommitted` (a working-tree edit). Git is given the commit BASE
/// named when it was read, so a HEAD moved since does not move BASE.
pub fn of_report_since(report: &ConfigReport, base: &SinceBase, env: &Env) -> Provenance {
    let root = repository(&base.root)?;
    let rev = base.snapshot.commit.as_deref().unwrap_or(&base.rev);
    let values = base.values(report);
    let added = added_values(&values);

    let config = ChainValues {
        files: report.files.clone(),
        values: added.clone(),
    };
    let origins = introduced_each(&root, rev, None, &[config], env).map(|mut found| {
        let found = found.pop().unwrap_or_default();
        added
            .into_iter()
            .zip(found)
            .map(|((r, v), o)| (r, v, o))
            .collect()
    });
    let (retargets, moved) = retarget_origins(
        &root,
        rev,
        &base.snapshot.links,
        &retargeted_values(&values),
    );
    let mut touched = report.files.clone();
    touched.extend(moved);
    let commits = log_between(&root, &touched, rev);
    Ok(ConfigProvenance {
        root,
        since: Since::Revision(base.rev.clone()),
        commits,
        origins,
        retargets,
    })
}

/// The most configs a listing reads from git ([`Listing`]).
pub const MAX_LISTED: usize = 100;

/// Who changed each changed config of a listing that writes them one after
/// another (`scan` on a terminal): git is read for at most [`MAX_LISTED`]
/// configs, so a tree of thousands is listed in seconds, and the configs
/// past them say once that they were not looked up; an absence with the
/// same reason (outside a repository, no git) is said under the first
/// config only, not under each.
#[derive(Debug, Default)]
pub struct Listing {
    read: usize,
    said: HashSet<String>,
}

impl Listing {
    /// What to show under `report`: `None` for a config that is not
    /// changed, or whose absence was already said.
    pub fn next(&mut self, report: &ConfigReport, env: &Env) -> Option<Provenance> {
        if report.state != ConfigState::Changed || report.stored.is_none() {
            return None;
        }
        let p = if self.read < MAX_LISTED {
            self.read += 1;
            of_report(report, env)
        } else {
            Err(Absent {
                reason: format!(
                    "not looked up past the first {MAX_LISTED} changed configs (inspect one to see it)"
                ),
            })
        };
        match &p {
            Err(absent) if !self.said.insert(absent.reason.clone()) => None,
            _ => Some(p),
        }
    }
}

/// Who changed each config, by key.
pub type Why = HashMap<String, Provenance>;

/// Who made each widening value of a listing a grant (issue 40 item 5:
/// what the `trust` prompt names on a terminal): for a changed config the
/// origins of its added and re-targeted values, as `trust --why` has them;
/// for a new config the origin of each value it grants (the commit that
/// added it, for a config added whole). Read on every thread, for the
/// first [`MAX_LISTED`] candidates only (a tree of thousands is listed in
/// seconds; the others name no author).
pub fn authors_of_candidates(candidates: &[TrustCandidate], store: &Store, env: &Env) -> Why {
    candidates[..candidates.len().min(MAX_LISTED)]
        .par_iter()
        .filter_map(|c| {
            let key = c.snapshot.key.as_str();
            let p = match store.get(key).filter(|_| c.changed) {
                Some(stored) => of_changes(
                    &c.snapshot.files,
                    &Trusted::of(stored),
                    &c.values(Some(stored)),
                    env,
                ),
                None if !c.changed => of_new_block(&c.snapshot.files, &c.snapshot.json(), env),
                None => return None,
            };
            Some((key.to_string(), p))
        })
        .collect()
}

/// Who made each value a new config grants (`block`, its normalized
/// block; `files`, its chain): for a config added whole, the commit that
/// added it.
fn of_new_block(
    files: &[String],
    block: &crate::core::config::json::Json,
    env: &Env,
) -> Provenance {
    let values: Vec<(String, String)> = crate::core::review::value_diff::block_values(block)
        .into_iter()
        .flat_map(|(r, vs)| vs.into_iter().map(move |v| (r.clone(), v)))
        .collect();
    of_new_config(files, &values, env)
}

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
            let p = of_changes(&c.snapshot.files, &Trusted::of(stored), &values, env);
            Some((key.to_string(), p))
        })
        .collect()
}

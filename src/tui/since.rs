//! The review's `--since BASE` (issue 15): each config compared with its
//! version at git revision BASE instead of the trust store. The rows' first
//! column and summary, and the detail pane's requests, say what changed
//! since BASE (as `diff BASE` does); the store's state of each config stays
//! beside it (a glyph on the row, the `state` field of the pane), since
//! trusting still records the config as it is now against the store.

use std::sync::Arc;

use crate::core::review::report::{ConfigReport, ConfigState, DiffLine};
use crate::core::review::value_diff::ValueChange;
use crate::core::revision::compare::{ConfigDiff, Status, Verdict};
use crate::core::revision::since::{SinceBase, config_now};
use crate::style::theme::Role;

/// The revision the review compares with, and its configs.
#[derive(Debug, Clone)]
pub struct Since {
    /// BASE as the user gave it (untrusted text: shown escaped).
    pub rev: String,
    /// `None` while the backend reads the revision; `Err` says why it could
    /// not be read (every row then says it has no base).
    pub base: Option<Result<Arc<SinceBase>, String>>,
}

impl PartialEq for Since {
    fn eq(&self, other: &Since) -> bool {
        self.rev == other.rev
            && match (&self.base, &other.base) {
                (None, None) => true,
                (Some(Ok(a)), Some(Ok(b))) => Arc::ptr_eq(a, b),
                (Some(Err(a)), Some(Err(b))) => a == b,
                _ => false,
            }
    }
}

impl Since {
    pub fn reading(rev: String) -> Since {
        Since { rev, base: None }
    }

    /// The loaded base, if it is.
    pub fn loaded(&self) -> Option<&SinceBase> {
        match &self.base {
            Some(Ok(b)) => Some(b),
            _ => None,
        }
    }
}

/// What one row shows about BASE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SinceOf<'a> {
    /// The revision is still being read.
    Reading,
    /// It could not be read: why.
    Unreadable(&'a str),
    /// The config is outside the repository: nothing at BASE to compare.
    Outside,
    Compared(&'a ConfigDiff),
}

/// The comparison of `r` with BASE, for the row cache (`None` outside the
/// repository).
pub fn compare(base: &SinceBase, r: &ConfigReport) -> Option<ConfigDiff> {
    base.compare(&r.key, &config_now(r, &base.root))
}

/// The list's first column in this mode; the glyph reads without colour.
pub fn marker(of: SinceOf<'_>) -> (&'static str, Role) {
    match of {
        SinceOf::Reading => ("… reading", Role::Muted),
        SinceOf::Unreadable(_) => ("? no base", Role::Error),
        SinceOf::Outside => ("? outside", Role::Changed),
        SinceOf::Compared(d) => match (d.status, d.verdict) {
            (_, Verdict::Broken) => ("✗ broken", Role::Error),
            (Status::Added, _) => ("+ added", Role::Added),
            (_, Verdict::Widened) => ("▲ widened", Role::Untrusted),
            (_, Verdict::Narrowed) => ("▼ narrowed", Role::Removed),
            (_, Verdict::Same) => ("= unchanged", Role::NoRequest),
        },
    }
}

/// The list's summary of a config compared with BASE: its values added and
/// removed (`+2 -1`), `unchanged`, or the first line of its error; `rev`
/// names BASE (escaped when drawn, as every summary is).
pub fn summary(r: &ConfigReport, d: &ConfigDiff, rev: &str) -> String {
    match d.verdict {
        // A config that does not load now: its error.
        Verdict::Broken => return r.summary(),
        // Unchanged: what it asks for now (`3 requests`), never its diff
        // against the store (`+1` would read as a change since BASE).
        Verdict::Same => {
            let what = if r.state == ConfigState::Changed {
                match current_requests(r) {
                    1 => "1 request".to_string(),
                    n => format!("{n} requests"),
                }
            } else {
                r.summary()
            };
            return format!("unchanged · {what}");
        }
        _ => {}
    }
    use crate::core::review::value_diff::Change;
    let count = |c: Change| d.values.iter().filter(|v| v.change == c).count();
    let mut parts = Vec::new();
    for (c, sign) in [
        (Change::Added, '+'),
        (Change::Removed, '-'),
        (Change::Retargeted, '~'),
    ] {
        let n = count(c);
        if n > 0 {
            parts.push(format!("{sign}{n}"));
        }
    }
    if parts.is_empty() {
        // Same values and targets, another block (a setting that is not a
        // value).
        parts.push("block changed".to_string());
    }
    if d.base_error.is_some() {
        parts.push(format!("did not load at {rev}"));
    }
    parts.join(" ")
}

/// How many request lines the config has now (a changed report's lines
/// also hold the store's side of its diff).
fn current_requests(r: &ConfigReport) -> usize {
    r.lines
        .iter()
        .filter(|l| matches!(l, DiffLine::Added(_) | DiffLine::Unchanged(_)))
        .count()
}

/// The values of `r` compared value by value with its version at BASE, each
/// current path scope with where it leads: what the detail pane draws.
/// Empty when `r` does not load now and nothing loaded at BASE.
pub fn values(base: &SinceBase, r: &ConfigReport) -> Vec<ValueChange> {
    base.values(r)
}

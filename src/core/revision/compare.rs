//! The comparison of two snapshots: per config `added`, `removed`,
//! `changed` (value by value, in the review UI's units) or `unchanged`, and
//! whether it widened or narrowed the authority granted.
//!
//! **Widened**: an allow value added (unless the key already allowed
//! everything), a deny value removed (unless the key now denies
//! everything), an `unsafe-*` switched on, a sandbox `copy-rw` or
//! `diff-file` added, a config added (or one that did not load at BASE
//! loading now), or a config removed whose directory now falls under a
//! parent config that allows more. **Narrowed**: a change with nothing
//! widened. A config that does not load at HEAD (and did, or failed
//! otherwise, at BASE) is **broken**: GocciaScript refuses to run under it,
//! and it is a finding, never passed over.

use std::collections::BTreeSet;

use crate::core::config::describe::unscoped_description;
use crate::core::error::ConfigError;
use crate::core::paths::key::is_under;
use crate::core::review::value_diff::{Change, diff_values};

use super::{ConfigAt, Snapshot, UnreadKind};

/// How a config differs between the two sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Added,
    Removed,
    Changed,
    Unchanged,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Added => "added",
            Status::Removed => "removed",
            Status::Changed => "changed",
            Status::Unchanged => "unchanged",
        }
    }
}

/// What the change does to the authority granted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Widened,
    Narrowed,
    /// Does not load at HEAD.
    Broken,
    /// Nothing changed.
    Same,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Widened => "widened",
            Verdict::Narrowed => "narrowed",
            Verdict::Broken => "broken",
            Verdict::Same => "unchanged",
        }
    }
}

/// One value of one request and how it changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffValue {
    pub request: String,
    pub change: Change,
    pub value: String,
    /// Whether this change alone grants authority.
    pub widens: bool,
    /// A path scope that leads elsewhere now (`~`): where it led at BASE
    /// and where it leads at HEAD.
    pub retarget: Option<(String, String)>,
}

impl DiffValue {
    /// The value as a review shows it: the scope, or for a re-targeted
    /// scope the working-tree review's `target of SCOPE: OLD -> NEW`.
    pub fn shown(&self) -> String {
        match &self.retarget {
            Some((old, new)) => format!("target of {}: {old} -> {new}", self.value),
            None => self.value.clone(),
        }
    }
}

/// One config's comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigDiff {
    /// Relative to the repository's root.
    pub path: String,
    pub status: Status,
    pub verdict: Verdict,
    /// Every value of both sides (unchanged ones too), request by request.
    pub values: Vec<DiffValue>,
    pub base_error: Option<ConfigError>,
    pub head_error: Option<ConfigError>,
    /// For a removed config: the parent config its directory now falls
    /// under, when that one allows more.
    pub now_under: Option<String>,
    /// For a removed config: the symbolic link (`dir -> target`) that
    /// replaced its directory, so its files are now whatever the link
    /// leads to, governed by whatever governs that.
    pub relinked: Option<String>,
}

/// The whole comparison.
#[derive(Debug, Clone)]
pub struct RevisionDiff {
    pub base: String,
    pub head: String,
    /// Every config of either side, by path.
    pub configs: Vec<ConfigDiff>,
    /// What either side could not read.
    pub base_notes: Vec<String>,
    pub head_notes: Vec<String>,
    /// What HEAD holds, new or changed since BASE, that was not read and
    /// may hide a config (a submodule added or moved, a link leading out
    /// of the repository, an unreadable path): the comparison is
    /// incomplete, never "no permission widened".
    pub not_read: Vec<NotRead>,
}

/// One thing HEAD holds that was not read: where, and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotRead {
    /// Relative to the repository's root.
    pub path: String,
    /// One line: what it is and why it was not read.
    pub message: String,
}

impl RevisionDiff {
    pub fn widened(&self) -> bool {
        self.configs.iter().any(|c| c.verdict == Verdict::Widened)
    }

    pub fn broken(&self) -> bool {
        self.configs.iter().any(|c| c.verdict == Verdict::Broken)
    }

    pub fn incomplete(&self) -> bool {
        !self.not_read.is_empty()
    }

    pub fn count(&self, verdict: Verdict) -> usize {
        self.configs.iter().filter(|c| c.verdict == verdict).count()
    }
}

fn is_unscoped(values: &[(String, Vec<String>)], key: &str) -> bool {
    values
        .iter()
        .any(|(k, v)| k == key && v.len() == 1 && v[0] == unscoped_description(key))
}

/// Whether one value change grants authority; `old` and `new` are the two
/// blocks' values. A re-targeted scope widens when its new destination is
/// not inside the old one (it left the repository, or went elsewhere in
/// it); judged by the caller, which knows both destinations.
fn widens(
    request: &str,
    change: Change,
    old: &[(String, Vec<String>)],
    new: &[(String, Vec<String>)],
) -> bool {
    match change {
        Change::Added => {
            if request.starts_with("allow-") {
                !is_unscoped(old, request)
            } else {
                request.starts_with("unsafe-")
                    || request == "sandbox.copy-rw"
                    || request == "sandbox.diff-file"
            }
        }
        Change::Removed => request.starts_with("deny-") && !is_unscoped(new, request),
        Change::Unchanged | Change::Retargeted => false,
    }
}

/// The value-level diff of `old` against `new`, each change judged;
/// `moved` holds the scopes whose destination changed (scope, old, new).
pub fn judged_values(
    old: &[(String, Vec<String>)],
    new: &[(String, Vec<String>)],
    moved: &[(String, String, String)],
) -> Vec<DiffValue> {
    diff_values(old, new, &[], moved)
        .into_iter()
        .map(|v| {
            let retarget = (v.change == Change::Retargeted)
                .then(|| moved.iter().find(|(s, _, _)| *s == v.value))
                .flatten()
                .map(|(_, from, to)| (from.clone(), to.clone()));
            let widens = match &retarget {
                Some((from, to)) => !is_under(to, from),
                None => widens(&v.request, v.change, old, new),
            };
            DiffValue {
                widens,
                request: v.request,
                change: v.change,
                value: v.value,
                retarget,
            }
        })
        .collect()
}

/// The same block, or the same failure (targets are compared apart, by
/// [`retargets`], over the scopes both sides resolved).
fn same_outcome(a: &ConfigAt, b: &ConfigAt) -> bool {
    match (a, b) {
        (ConfigAt::Loaded { block: x, .. }, ConfigAt::Loaded { block: y, .. }) => x == y,
        (ConfigAt::Failed(x), ConfigAt::Failed(y)) => x == y,
        _ => false,
    }
}

/// The scopes of both sides whose destination differs: (scope, where it
/// led in `old`, where it leads in `new`). A link added or removed under
/// a scope is such a change too (the scope led to itself).
pub fn retargets(old: &ConfigAt, new: &ConfigAt) -> Vec<(String, String, String)> {
    let (
        ConfigAt::Loaded {
            targets: before, ..
        },
        ConfigAt::Loaded { targets: after, .. },
    ) = (old, new)
    else {
        return Vec::new();
    };
    after
        .iter()
        .filter_map(|(scope, to)| {
            let (_, from) = before.iter().find(|(s, _)| s == scope)?;
            (from != to).then(|| (scope.clone(), from.clone(), to.clone()))
        })
        .collect()
}

fn parent_dir_of(path: &str) -> Option<&str> {
    path.rfind('/').map(|i| &path[..i])
}

/// The config that governs `dir` (relative, `""` the root) in `snap`: the
/// nearest one at or above it.
fn governing<'a>(snap: &'a Snapshot, dir: &str) -> Option<(&'a String, &'a ConfigAt)> {
    let mut d = Some(dir);
    while let Some(cur) = d {
        let found = snap
            .configs
            .iter()
            .find(|(p, _)| parent_dir_of(p).unwrap_or("") == cur);
        if found.is_some() {
            return found;
        }
        d = if cur.is_empty() {
            None
        } else {
            Some(parent_dir_of(cur).unwrap_or(""))
        };
    }
    None
}

impl RevisionDiff {
    /// Leaves out the walk note ([`super::link_note`]) of each link in
    /// `resolved` (relative to the root), at both sides: a link whose
    /// re-pointing is reported as a retarget (`~ target of …`) was
    /// resolved, and calling it `not followed` beside that would say the
    /// opposite (github and SARIF make the note a warning). Links nothing
    /// resolved keep their note.
    pub fn leave_out_resolved_links(&mut self, resolved: &[String]) {
        let said: BTreeSet<String> = resolved.iter().map(|l| super::link_note(l)).collect();
        self.base_notes.retain(|n| !said.contains(n));
        self.head_notes.retain(|n| !said.contains(n));
    }
}

/// Compares every config of `base` with the one at the same path in `head`.
pub fn compare(base: &Snapshot, head: &Snapshot) -> RevisionDiff {
    let paths: BTreeSet<&String> = base.configs.keys().chain(head.configs.keys()).collect();
    RevisionDiff {
        base: base.label.clone(),
        head: head.label.clone(),
        configs: paths
            .into_iter()
            .map(|p| compare_one(base, head, p))
            .collect(),
        base_notes: base.notes.clone(),
        head_notes: head.notes.clone(),
        not_read: not_read(base, head),
    }
}

/// The config at `path` at both sides, compared.
fn compare_one(base: &Snapshot, head: &Snapshot, path: &str) -> ConfigDiff {
    let (old, new) = (base.configs.get(path), head.configs.get(path));
    let error = |c: Option<&ConfigAt>| match c {
        Some(ConfigAt::Failed(e)) => Some(e.clone()),
        _ => None,
    };
    let values_of = |c: Option<&ConfigAt>| match c {
        Some(ConfigAt::Loaded { values, .. }) => values.clone(),
        _ => Vec::new(),
    };
    let (old_values, new_values) = (values_of(old), values_of(new));
    let moved = match (old, new) {
        (Some(a), Some(b)) => retargets(a, b),
        _ => Vec::new(),
    };
    let unkeyable = head.unkeyable.contains_key(path) || base.unkeyable.contains_key(path);
    let status = match (old, new) {
        (None, Some(_)) => Status::Added,
        (Some(_), None) => Status::Removed,
        // A config no key can name compares by its blob, when both sides
        // are revisions: its outcome text is the same whatever it asks for.
        (Some(_), Some(_)) if unkeyable => {
            match (base.unkeyable.get(path), head.unkeyable.get(path)) {
                (Some(Some(a)), Some(Some(b))) if a == b => Status::Unchanged,
                _ => Status::Changed,
            }
        }
        (Some(a), Some(b)) if same_outcome(a, b) && moved.is_empty() => Status::Unchanged,
        _ => Status::Changed,
    };
    let values = judged_values(&old_values, &new_values, &moved);
    let relinked = (status == Status::Removed)
        .then(|| link_over(head, path))
        .flatten();
    let mut now_under = None;
    let verdict = match (status, old, new) {
        // Never trusted, never run: broken wherever it is.
        _ if unkeyable => Verdict::Broken,
        (Status::Unchanged, ..) => Verdict::Same,
        (_, _, Some(ConfigAt::Failed(_))) => Verdict::Broken,
        (Status::Added, ..) => Verdict::Widened,
        // Nothing loaded before: all it grants now is new.
        (_, Some(ConfigAt::Failed(_)), _) => Verdict::Widened,
        // Its directory is now a link: not a narrowing, whatever the link
        // leads to.
        (Status::Removed, ..) if relinked.is_some() => Verdict::Widened,
        (Status::Removed, ..) => {
            now_under = parent_allowing_more(head, path, &old_values);
            if now_under.is_some() {
                Verdict::Widened
            } else {
                Verdict::Narrowed
            }
        }
        _ if values.iter().any(|v| v.widens) => Verdict::Widened,
        _ => Verdict::Narrowed,
    };
    ConfigDiff {
        path: path.to_string(),
        status,
        verdict,
        values,
        base_error: error(old),
        head_error: error(new),
        now_under,
        relinked,
    }
}

/// For a config removed at `path` that granted `old_values`: the config
/// its directory now falls under in `head`, when that one allows more.
fn parent_allowing_more(
    head: &Snapshot,
    path: &str,
    old_values: &[(String, Vec<String>)],
) -> Option<String> {
    let dir = parent_dir_of(path).unwrap_or("");
    match governing(head, dir) {
        Some((parent, ConfigAt::Loaded { values, .. }))
            if judged_values(old_values, values, &[])
                .iter()
                .any(|v| v.widens) =>
        {
            Some(parent.clone())
        }
        _ => None,
    }
}

/// The link of `snap` over `path`'s directories, nearest the root first,
/// as `dir -> target`.
fn link_over(snap: &Snapshot, path: &str) -> Option<String> {
    let mut end = 0;
    while let Some(i) = path[end..].find('/') {
        end += i;
        if let Some(target) = snap.links.get(&path[..end]) {
            return Some(format!("{} -> {target}", &path[..end]));
        }
        end += 1;
    }
    None
}

/// What HEAD holds that was not read and is not the same at BASE: a
/// submodule added or moved to another commit, a link leading out of the
/// repository that is new or retargeted, any unreadable path.
fn not_read(base: &Snapshot, head: &Snapshot) -> Vec<NotRead> {
    head.unread
        .iter()
        .filter(|u| match &u.what {
            UnreadKind::Unreadable(_) => true,
            UnreadKind::Submodule(_) => !base.unread.contains(u),
            UnreadKind::LinkOut(target) => base.links.get(&u.path) != Some(target),
        })
        .map(|u| NotRead {
            path: u.path.clone(),
            message: u.describe(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(pairs: &[(&str, &[&str])]) -> Vec<(String, Vec<String>)> {
        pairs
            .iter()
            .map(|(k, vs)| (k.to_string(), vs.iter().map(|s| s.to_string()).collect()))
            .collect()
    }

    fn any_widens(old: &[(&str, &[&str])], new: &[(&str, &[&str])]) -> bool {
        judged_values(&v(old), &v(new), &[])
            .iter()
            .any(|d| d.widens)
    }

    #[test]
    fn allow_added_and_deny_removed_widen_the_opposites_do_not() {
        assert!(any_widens(&[], &[("allow-net", &["a.test"])]));
        assert!(!any_widens(&[("allow-net", &["a.test"])], &[]));
        assert!(!any_widens(&[], &[("deny-read", &["/x"])]));
        assert!(any_widens(&[("deny-read", &["/x"])], &[]));
        assert!(any_widens(&[], &[("unsafe-shadowrealm", &["true"])]));
        assert!(any_widens(&[], &[("sandbox.copy-rw", &["/a"])]));
        assert!(any_widens(&[], &[("sandbox.diff-file", &["/d"])]));
        assert!(!any_widens(&[], &[("sandbox.copy", &["/a"])]));
    }

    #[test]
    fn scoping_an_unscoped_key_is_not_widening() {
        // allow everything -> allow one host: narrowed.
        assert!(!any_widens(
            &[("allow-net", &["any public host"])],
            &[("allow-net", &["a.test"])]
        ));
        // one host -> everything: widened.
        assert!(any_widens(
            &[("allow-net", &["a.test"])],
            &[("allow-net", &["any public host"])]
        ));
        // deny one path -> deny every path: not widened.
        assert!(!any_widens(
            &[("deny-read", &["/x"])],
            &[("deny-read", &["any path"])]
        ));
    }
}

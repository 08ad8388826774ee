//! Recorded targets (docs/src/compatibility.md#recorded-targets): where each path scope resolved,
//! links followed, when the config was trusted. The block is lexical, so this
//! is what notices a trusted path being swapped for a symbolic link.

use crate::core::config::request::{Capability, PermissionRequest};
use crate::core::config::scope::NODE_MODULES_PREFIX;
use crate::core::paths::{expand_file_name, fpc_extract_file_dir};

/// Scope → target, in byte order of scopes (the store's order), each
/// scope once. A sorted vector, not a tree: a config has a few scopes, and
/// a tree's smallest node is hundreds of bytes (`trust --yes` of 20,000
/// configs holds every config's targets).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Targets {
    map: Vec<(String, String)>,
}

impl Targets {
    /// `pairs` in byte order of scopes, the last target of a scope given
    /// twice kept (as a map's insert would).
    pub fn from_pairs(pairs: impl IntoIterator<Item = (String, String)>) -> Targets {
        let mut map: Vec<(String, String)> = pairs.into_iter().collect();
        map.reverse();
        map.sort_by(|a, b| a.0.cmp(&b.0));
        map.dedup_by(|later, kept| later.0 == kept.0);
        map.shrink_to_fit();
        Targets { map }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.map.iter().map(|(s, t)| (s.as_str(), t.as_str()))
    }

    /// Where `scope` resolved.
    pub fn get(&self, scope: &str) -> Option<&String> {
        let i = self
            .map
            .binary_search_by(|(s, _)| s.as_str().cmp(scope))
            .ok()?;
        Some(&self.map[i].1)
    }

    /// The pairs, moved out.
    pub fn into_pairs(self) -> Vec<(String, String)> {
        self.map
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The `(scope, target)` pairs, borrowed.
    pub fn as_pairs(&self) -> &[(String, String)] {
        &self.map
    }

    /// As `(scope, target)` pairs, the shape [`target_changes`] takes.
    pub fn to_pairs(&self) -> Vec<(String, String)> {
        self.map
            .iter()
            .map(|(s, t)| (s.clone(), t.clone()))
            .collect()
    }
}

/// The path scopes a request's targets are recorded for: every read and ffi
/// scope, allow and deny (an unscoped key's too), and the directory of every
/// `node_modules=<dir>` import scope, as the request holds them; sandbox
/// paths are not included. Byte order, no duplicates.
pub fn target_scopes(request: &PermissionRequest) -> Vec<String> {
    let mut scopes = Vec::new();
    for allow in [true, false] {
        let keys = request.keys(allow);
        for capability in Capability::ALL {
            for scope in &keys.get(capability).scopes {
                match capability {
                    Capability::Read | Capability::Ffi => scopes.push(scope.resolved.clone()),
                    // The request holds the prefix in lower case already.
                    Capability::Import => {
                        if let Some(dir) = scope.resolved.strip_prefix(NODE_MODULES_PREFIX) {
                            scopes.push(dir.to_owned());
                        }
                    }
                    Capability::Net => {}
                }
            }
        }
    }
    scopes.sort();
    scopes.dedup();
    scopes
}

/// Resolves every target scope on the disk now.
pub fn record_targets(request: &PermissionRequest) -> Targets {
    Targets::from_pairs(target_scopes(request).into_iter().map(|scope| {
        let target = canonical_capability_path(&scope);
        (scope, target)
    }))
}

/// `CanonicalCapabilityPath`: the scope with links resolved; when it does not
/// exist, its deepest ancestor that `realpath` resolves (a dangling link or a
/// file used as a directory counts as missing) plus the unresolved rest.
/// Scopes are absolute; a relative one is expanded against `/`.
pub fn canonical_capability_path(scope: &str) -> String {
    if scope.is_empty() {
        return String::new();
    }
    let mut expanded = expand_file_name(scope, "/", "");
    expanded.truncate(strip_trailing_separators(&expanded).len());
    // The deepest ancestor that resolves, found in one walk of the
    // components from the root (each prefix of a path that resolves
    // resolves too), then the rest as written.
    let (real, at) = crate::core::paths::realpath::longest_resolving_prefix(&expanded);
    let suffix = expanded[at..].trim_start_matches('/');
    let stripped = strip_trailing_separators(&real);
    if suffix.is_empty() {
        stripped.to_owned()
    } else if stripped.ends_with('/') {
        format!("{stripped}{suffix}")
    } else {
        format!("{stripped}/{suffix}")
    }
}

/// Recomputes each recorded scope's target: `(scope, recorded, now)` for
/// every one that moved, in the order given. A scope that appeared in place,
/// or disappeared, resolves where it was recorded and is no change.
pub fn target_changes(recorded: &[(String, String)]) -> Vec<(String, String, String)> {
    recorded
        .iter()
        .filter_map(|(scope, then)| {
            let now = canonical_capability_path(scope);
            (now != *then).then(|| (scope.clone(), then.clone(), now))
        })
        .collect()
}

fn strip_trailing_separators(path: &str) -> &str {
    let mut p = path;
    while p.len() > 1 && p.ends_with('/') && !is_root(p) {
        p = &p[..p.len() - 1];
    }
    p
}

fn is_root(path: &str) -> bool {
    !path.is_empty() && fpc_extract_file_dir(path) == path
}

/// A JSON object, scope → target, in scope order (`inspect --json`).
impl serde::Serialize for Targets {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

// Unix-only tests (modes, links, owners); Windows builds the rest.
#[cfg(all(test, unix))]
mod tests;

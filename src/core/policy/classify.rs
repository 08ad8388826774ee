//! Where a target falls: policy-reference.md §4 with the changes of §11.
//!
//! - The reference's rule 2 (its state directory, taken from an environment
//!   variable, is approved) is gone: no approval comes from the environment.
//! - A target is judged twice, as written (lexically) and with symlinks
//!   resolved, and the stricter class wins ([`Class::strictness`]), so
//!   `./vendor -> ~/.ssh` is a denied root, not the workspace.
//! - Matching is separator-bounded: `/a/b` covers `/a/b` and `/a/b/c`, not
//!   `/a/bc`; a child named `..foo` is inside (only a `..` segment escapes,
//!   and normalization has removed those).
//! - On macOS, whose filesystem is case-insensitive, matching is too.

use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

use super::Class;
use super::load::{Policy, Root};

/// A target as the gate judged it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ResolvedTarget {
    /// Absolute, `.`/`..` and repeated separators removed, links untouched.
    pub lexical: String,
    /// With symlinks resolved; a path that does not exist is resolved up to
    /// its deepest existing ancestor and the rest appended. `None` when the
    /// links loop (such a target is then judged EXTERNAL_PATH).
    pub canonical: Option<String>,
}

/// Resolves a target against the working directory.
pub fn resolve_target(target: &str, cwd: &str) -> ResolvedTarget {
    let lexical = lexical_path(target, cwd);
    // The raw spelling is walked, not the lexical one: `link/..` is the
    // parent of the link's target for the kernel, not the link's directory.
    let raw = if target.starts_with('/') {
        target.to_string()
    } else {
        format!("{cwd}/{target}")
    };
    ResolvedTarget {
        canonical: canonical_path(&raw),
        lexical,
    }
}

pub use crate::core::paths::lexical_path;

/// Follows every symlink of an absolute path the way the kernel would. Once
/// a component does not exist, the rest is appended lexically. A dangling
/// link is followed to where it points, since a write through it lands
/// there. Returns `None` after 40 links (a loop, as `ELOOP`).
pub fn canonical_path(abs: &str) -> Option<String> {
    let mut pending: Vec<OsString> = Path::new(abs)
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_os_string()),
            Component::ParentDir => Some("..".into()),
            _ => None,
        })
        .rev()
        .collect();
    let mut out = PathBuf::from("/");
    let mut exists = true;
    let mut links = 0;
    while let Some(name) = pending.pop() {
        if name == ".." {
            out.pop();
            continue;
        }
        let candidate = out.join(&name);
        if exists {
            match std::fs::symlink_metadata(&candidate) {
                Ok(m) if m.file_type().is_symlink() => {
                    links += 1;
                    if links > 40 {
                        return None;
                    }
                    let dest = std::fs::read_link(&candidate).ok()?;
                    if dest.is_absolute() {
                        out = PathBuf::from("/");
                    }
                    for c in dest.components().rev() {
                        match c {
                            Component::Normal(n) => pending.push(n.to_os_string()),
                            Component::ParentDir => pending.push("..".into()),
                            _ => {}
                        }
                    }
                    continue;
                }
                Ok(_) => {}
                Err(_) => exists = false,
            }
        }
        out = candidate;
    }
    Some(out.to_string_lossy().into_owned())
}

/// The spelling used for comparisons: lower-cased where the filesystem is
/// case-insensitive, so `/Users/x/SECRET` cannot slip past a deny on
/// `/Users/x/secret`.
pub fn fold_case(p: &str) -> String {
    if cfg!(target_os = "macos") {
        p.to_lowercase()
    } else {
        p.to_string()
    }
}

/// Separator-bounded containment of normalized absolute paths.
pub(super) fn contains(root: &str, path: &str) -> bool {
    root == "/"
        || path == root
        || (path.len() > root.len()
            && path.starts_with(root)
            && path.as_bytes()[root.len()] == b'/')
}

fn in_any(roots: &[Root], path: &str) -> bool {
    roots
        .iter()
        .any(|r| contains(&r.lexical, path) || contains(&r.canonical, path))
}

/// First match wins, in the reference's order minus its rule 2.
fn classify_one(policy: &Policy, path: &str) -> Class {
    let path = fold_case(path);
    if in_any(&policy.denied_roots, &path) {
        Class::DeniedRoot
    } else if in_any(&policy.approved_workspaces, &path) {
        Class::ApprovedWorkspace
    } else if in_any(&policy.personal_data_roots, &path) {
        Class::PersonalDataPath
    } else if in_any(&policy.system_read_only_roots, &path) {
        Class::SystemPath
    } else {
        Class::ExternalPath
    }
}

/// The denied root (as written) that holds `target`, in either spelling, so
/// that a DENIED_ROOT reason can name the rule that matched.
pub fn denied_root_holding<'p>(policy: &'p Policy, target: &ResolvedTarget) -> Option<&'p str> {
    let spellings: Vec<String> = std::iter::once(&target.lexical)
        .chain(target.canonical.as_ref())
        .map(|t| fold_case(t))
        .collect();
    policy.denied_roots.iter().find_map(|root| {
        let holds = spellings
            .iter()
            .any(|t| contains(&root.lexical, t) || contains(&root.canonical, t));
        holds.then_some(root.written.as_str())
    })
}

/// A denied root that lies inside `target` (the target is one of its
/// ancestors). Granting such a target grants the denied root with it:
/// `copy-rw: ["."]` writes the store when the store sits in the checkout.
pub fn denied_root_inside<'p>(policy: &'p Policy, target: &ResolvedTarget) -> Option<&'p str> {
    let spellings: Vec<String> = std::iter::once(&target.lexical)
        .chain(target.canonical.as_ref())
        .map(|t| fold_case(t))
        .collect();
    policy.denied_roots.iter().find_map(|root| {
        let inside = [&root.lexical, &root.canonical]
            .iter()
            .any(|r| spellings.iter().any(|t| contains(t, r)));
        inside.then_some(root.written.as_str())
    })
}

/// The class of a target: the stricter of its lexical and canonical class.
pub fn classify(policy: &Policy, target: &ResolvedTarget) -> Class {
    let lexical = classify_one(policy, &target.lexical);
    match &target.canonical {
        Some(canonical) => lexical.stricter(classify_one(policy, canonical)),
        None => lexical.stricter(Class::ExternalPath),
    }
}

#[cfg(test)]
#[path = "classify_tests.rs"]
mod tests;

//! Where a target falls: docs/src/compatibility.md#reference-classification with the changes of #adapting-the-gate-to-config-trust.
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

use super::load::{Policy, Root};
pub use super::target::ResolvedTarget;
use super::target::{contains, fold_case};
use super::verdict::Class;

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

// Unix-only tests (modes, links, owners); Windows builds the rest.
#[cfg(all(test, unix))]
#[path = "classify_tests.rs"]
mod tests;

//! A target path as the gate compares it: written (lexical), resolved
//! through the links the kernel would follow (canonical), case-folded where
//! the filesystem folds case, and contained separator by separator. The
//! lowest file of `policy`: the policy's roots (`load`) and the
//! classification of targets (`classify`) both build on it.

use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

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
pub fn contains(root: &str, path: &str) -> bool {
    root == "/"
        || path == root
        || (path.len() > root.len()
            && path.starts_with(root)
            && path.as_bytes()[root.len()] == b'/')
}

//! The portable digest of a config (docs/src/signed-reviews.md#the-portable-digest):
//! its normalized block and recorded targets with the repository root
//! replaced by `${REPO}`, and its path relative to the root, hashed. Two
//! checkouts of one repository at different places give the same digest;
//! the store's own entry and hash are untouched.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::core::config::block::{Block, sha256_hex};
use crate::core::config::json::{Json, quote_json_string_into};
use crate::core::config::targets::Targets;
use crate::core::paths::key::TrustKey;
use crate::core::paths::reviewed::repository_root;

/// What stands for the repository root in a portable path.
pub const REPO: &str = "${REPO}";

/// Why a config cannot be reviewed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotReviewable {
    NotInRepository,
    Outside { root: String },
}

impl std::fmt::Display for NotReviewable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotReviewable::NotInRepository => f.write_str("not in a git repository"),
            NotReviewable::Outside { root } => write!(f, "outside the repository {root}"),
        }
    }
}

/// A config's place in its repository: the root and the `/`-separated
/// path of its key below it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoPath {
    pub root: String,
    pub path: String,
}

/// The repository of a trust key: the nearest ancestor of its (already
/// resolved) directory holding `.git`, links resolved.
pub fn repo_path(key: &TrustKey) -> Result<RepoPath, NotReviewable> {
    let key = key.as_str();
    let dir = Path::new(key).parent().unwrap_or(Path::new("/"));
    let real = std::fs::canonicalize(dir).unwrap_or_else(|_| PathBuf::from(dir));
    let root = repository_root(&real).ok_or(NotReviewable::NotInRepository)?;
    let root = root.to_string_lossy().into_owned();
    match strip_root(key, &root) {
        Some(rest) if !rest.is_empty() => Ok(RepoPath {
            path: rest.to_string(),
            root,
        }),
        _ => Err(NotReviewable::Outside { root }),
    }
}

/// `path` below `root` without the separator, compared as keys are
/// (ASCII case-insensitively where the filesystem folds case).
fn strip_root<'a>(path: &'a str, root: &str) -> Option<&'a str> {
    if root == "/" {
        return path.strip_prefix('/');
    }
    let head = path.get(..root.len())?;
    let same = if cfg!(any(target_os = "macos", windows)) {
        head.eq_ignore_ascii_case(root)
    } else {
        head == root
    };
    if !same {
        return None;
    }
    let rest = &path[root.len()..];
    if rest.is_empty() {
        Some("")
    } else {
        rest.strip_prefix('/')
    }
}

/// A config's portable document and digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortableDigest {
    /// `sha256:` + 64 lower-case hex digits.
    pub digest: String,
    /// The document hashed, compact JSON.
    pub document: String,
    /// Absolute paths outside the repository the document holds: the
    /// digest is the same only where they are.
    pub outside: Vec<String>,
}

/// Rewrites paths against one root, remembering those outside it.
struct Rewriter<'a> {
    root: &'a str,
    outside: Vec<String>,
}

impl Rewriter<'_> {
    fn path(&mut self, p: &str) -> String {
        match strip_root(p, self.root) {
            Some("") => REPO.to_string(),
            Some(rest) => format!("{REPO}/{rest}"),
            None => {
                if !self.outside.iter().any(|o| o == p) {
                    self.outside.push(p.to_string());
                }
                p.to_string()
            }
        }
    }

    fn scopes(&mut self, items: &mut [Json], rewrite: impl Fn(&mut Self, &str) -> String) {
        for item in items.iter_mut() {
            if let Json::String(s) = item {
                *s = rewrite(self, s);
            }
        }
    }

    fn import_scope(&mut self, s: &str) -> String {
        match s.strip_prefix(NODE_MODULES) {
            Some(dir) => format!("{NODE_MODULES}{}", self.path(dir)),
            None => s.to_string(),
        }
    }

    fn sandbox_entry(&mut self, s: &str) -> String {
        match s.split_once('=') {
            Some((host, inside)) => format!("{}={inside}", self.path(host)),
            None => self.path(s),
        }
    }
}

const NODE_MODULES: &str = "node_modules=";

/// The portable document of a config's normalized block and targets.
pub fn portable_digest(block: &Block, targets: &Targets, place: &RepoPath) -> PortableDigest {
    let mut rw = Rewriter {
        root: &place.root,
        outside: Vec::new(),
    };
    let mut block = block.json().clone();
    if let Json::Object(members) = &mut block {
        for (name, value) in members.iter_mut() {
            match (name.as_str(), value) {
                ("permissions", Json::Object(keys)) => portable_permissions(&mut rw, keys),
                ("sandbox", Json::Object(keys)) => portable_sandbox(&mut rw, keys),
                _ => {}
            }
        }
    }
    let targets: BTreeMap<String, String> = targets
        .iter()
        .map(|(s, t)| (rw.path(s), rw.path(t)))
        .collect();
    let mut doc = String::with_capacity(256);
    doc.push_str("{\"block\":");
    block.write_compact(&mut doc);
    doc.push_str(",\"path\":");
    quote_json_string_into(&place.path, &mut doc);
    doc.push_str(",\"targets\":{");
    for (i, (s, t)) in targets.iter().enumerate() {
        if i > 0 {
            doc.push(',');
        }
        quote_json_string_into(s, &mut doc);
        doc.push(':');
        quote_json_string_into(t, &mut doc);
    }
    doc.push_str("},\"v\":1}");
    PortableDigest {
        digest: format!("sha256:{}", sha256_hex(doc.as_bytes())),
        document: doc,
        outside: rw.outside,
    }
}

/// Path scopes rewritten, then each array re-sorted by bytes and
/// de-duplicated (absolute paths sort differently in another checkout).
fn portable_permissions(rw: &mut Rewriter<'_>, keys: &mut [(String, Json)]) {
    for (name, value) in keys.iter_mut() {
        let Json::Array(items) = value else {
            continue;
        };
        match name.as_str() {
            "allow-read" | "deny-read" | "allow-ffi" | "deny-ffi" => {
                rw.scopes(items, |rw, s| rw.path(s))
            }
            "allow-import" | "deny-import" => rw.scopes(items, |rw, s| rw.import_scope(s)),
            _ => continue,
        }
        let mut strings: Vec<String> = items
            .iter()
            .filter_map(|i| match i {
                Json::String(s) => Some(s.clone()),
                _ => None,
            })
            .collect();
        strings.sort();
        strings.dedup();
        *items = strings.into_iter().map(Json::String).collect();
    }
}

/// The host side of `copy`/`copy-rw` entries and `diff-file` rewritten; the
/// arrays keep their order (a later input may overwrite an earlier one).
fn portable_sandbox(rw: &mut Rewriter<'_>, keys: &mut [(String, Json)]) {
    for (name, value) in keys.iter_mut() {
        match (name.as_str(), value) {
            ("copy" | "copy-rw", Json::Array(items)) => {
                rw.scopes(items, |rw, s| rw.sandbox_entry(s))
            }
            ("diff-file", Json::String(s)) => *s = rw.path(s),
            _ => {}
        }
    }
}

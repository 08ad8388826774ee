//! Configs as they are at a git revision, and the permission diff between
//! two revisions (issue 15, `goccia-trust diff BASE [HEAD]`).
//!
//! A revision's configs are found with the scanner's rules applied to the
//! revision's tree (`goccia.toml`, else `goccia.json5`, else `goccia.json`
//! per directory; nothing under `node_modules` or `.git`), and each is
//! loaded with its `extends` chain read from the same revision, normalized
//! as GocciaScript would if the checkout held that revision: path scopes
//! resolve lexically against the checkout's location. What differs from the
//! disk, and is reported rather than guessed:
//! * a symbolic link in the tree is not followed (its target is not part of
//!   the revision): a config name that is a link is a config that cannot be
//!   read, any other link is listed;
//! * a base outside the repository is not read;
//! * a path that is not UTF-8 cannot name a config (a key is a JSON string)
//!   and is reported, as the scanner reports it;
//! * submodules are listed, not entered.
//!
//! The working tree (HEAD's default) is the disk, read by the scanner
//! itself: there, links are followed and symlink targets resolved, exactly
//! as `scan` does.

pub mod compare;
pub mod git;
pub mod since;

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use rayon::prelude::*;

use crate::core::config::entries::{Entry, entries_from_bytes};
use crate::core::config::extends::ConfigFiles;
use crate::core::config::{load_block_from, load_config};
use crate::core::env::Env;
use crate::core::error::ConfigError;
use crate::core::paths::key::is_under;
use crate::core::review::discover::{CONFIG_NAMES, SKIPPED_NAMES, bytes_text, discover_paths};
use crate::core::review::value_diff::block_values;

use self::git::{BlobReader, EntryMode, GitError, TreeEntry};

/// One config at one side of the diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigAt {
    /// Loaded: its normalized block and the values of its requests.
    Loaded {
        block: String,
        values: Vec<(String, Vec<String>)>,
    },
    /// Does not load: GocciaScript's message.
    Failed(String),
}

/// Every effective config of one side, by path relative to the root.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    /// `HEAD~1`, or `working tree`.
    pub label: String,
    pub configs: BTreeMap<String, ConfigAt>,
    /// What was not read: links in the tree, submodules, unreadable paths,
    /// links not followed on disk. One line each.
    pub notes: Vec<String>,
    /// A revision's config files as read (lossy UTF-8), by the same path,
    /// for locating a request's line (CI annotations). Empty for the
    /// working tree, whose files are on disk.
    pub texts: HashMap<String, String>,
}

/// The repository holding `env.cwd`: its root, resolved.
pub fn repository_root(env: &Env) -> Result<String, GitError> {
    let top = git::toplevel(&env.cwd)?;
    Ok(std::fs::canonicalize(&top)
        .ok()
        .and_then(|p| p.to_str().map(str::to_string))
        .unwrap_or(top))
}

fn absolute(root: &str, rel: &str) -> String {
    if root == "/" {
        format!("/{rel}")
    } else {
        format!("{root}/{rel}")
    }
}

/// The files of a revision, for [`load_block_from`].
struct RevisionFiles<'a> {
    root: &'a str,
    rev: &'a str,
    /// Relative path bytes to the entry.
    entries: HashMap<&'a [u8], &'a TreeEntry>,
    reader: RefCell<BlobReader>,
    cache: RefCell<HashMap<String, Vec<u8>>>,
    /// What ended the read: a missing object, a git that failed.
    fatal: RefCell<Option<GitError>>,
}

/// A revision's object that the repository does not have. It is never
/// fetched (a promisor remote's fetch would run the repository's own
/// commands), so the revision cannot be read.
fn missing(oid: &str, path: &str, rev: &str) -> GitError {
    GitError(format!(
        "object {oid} ({path} at revision {rev}) is missing from the repository; goccia-trust never fetches (fetch it with git, then run again)"
    ))
}

impl RevisionFiles<'_> {
    /// The path relative to the root, if it is inside the repository.
    fn relative<'p>(&self, path: &'p str) -> Option<&'p str> {
        if self.root == "/" {
            return path.strip_prefix('/');
        }
        match path.strip_prefix(self.root) {
            Some("") => Some(""),
            Some(rest) => rest.strip_prefix('/'),
            None => None,
        }
    }

    fn outside(&self, path: &str) -> ConfigError {
        ConfigError::invalid(format!(
            "{path}: outside the repository, not read at revision {}",
            self.rev
        ))
    }

    fn link(&self, path: &str) -> ConfigError {
        ConfigError::invalid(format!(
            "{path}: a symbolic link in the tree at revision {}, not followed",
            self.rev
        ))
    }

    /// A blob of the revision. A missing object or a failing git is not a
    /// config that fails to load: it is kept in `fatal` and ends the read.
    fn blob(&self, oid: &str, path: &str) -> Result<Vec<u8>, String> {
        if let Some(bytes) = self.cache.borrow().get(oid) {
            return Ok(bytes.clone());
        }
        let error = match self.reader.borrow_mut().read(oid) {
            Ok(Some(bytes)) => return Ok(bytes),
            Ok(None) => missing(oid, path, self.rev),
            Err(e) => e,
        };
        let why = error.0.clone();
        self.fatal.borrow_mut().get_or_insert(error);
        Err(why)
    }
}

impl ConfigFiles for RevisionFiles<'_> {
    fn read_entries(&self, path: &str) -> Result<Vec<Entry>, ConfigError> {
        let rel = self.relative(path).ok_or_else(|| self.outside(path))?;
        match self.entries.get(rel.as_bytes()) {
            Some(e) if e.mode == EntryMode::File => {
                let bytes = self
                    .blob(&e.oid, path)
                    .map_err(|why| ConfigError::invalid(format!("{path}: {why}")))?;
                entries_from_bytes(path, bytes)
            }
            Some(e) if e.mode == EntryMode::Link => Err(self.link(path)),
            _ => Err(ConfigError::invalid(format!(
                "{path}: No such file or directory"
            ))),
        }
    }

    fn base_exists(&self, path: &str) -> Result<bool, ConfigError> {
        let rel = self.relative(path).ok_or_else(|| self.outside(path))?;
        // A path through a link (`link/base.json`) is not in the tree
        // either: say so rather than "not found".
        let bytes = rel.as_bytes();
        for (i, b) in bytes.iter().enumerate() {
            if *b == b'/'
                && let Some(e) = self.entries.get(&bytes[..i])
                && e.mode == EntryMode::Link
            {
                return Err(self.link(path));
            }
        }
        match self.entries.get(bytes) {
            Some(e) if e.mode == EntryMode::Link => Err(self.link(path)),
            Some(_) => Ok(true),
            // A directory, or nothing: not a file either way.
            None => Ok(false),
        }
    }
}

/// Whether a relative path lies under a skipped directory.
fn skipped(path: &[u8]) -> bool {
    let mut parts = path.split(|&b| b == b'/');
    let _file = parts.next_back();
    parts.any(|p| SKIPPED_NAMES.iter().any(|s| s.as_bytes() == p))
}

fn split_dir(path: &[u8]) -> (&[u8], &[u8]) {
    match path.iter().rposition(|&b| b == b'/') {
        Some(i) => (&path[..i], &path[i + 1..]),
        None => (&[], path),
    }
}

fn shown(path: &[u8]) -> String {
    bytes_text(path)
}

/// The effective configs of revision `rev` of the repository at `root`.
pub fn read_revision(root: &str, rev: &str, env: &Env) -> Result<Snapshot, GitError> {
    let commit = git::commit_of(root, rev)?;
    let tree = git::ls_tree(root, &commit)?;
    let mut snap = Snapshot {
        label: rev.to_string(),
        ..Snapshot::default()
    };
    let mut entries: HashMap<&[u8], &TreeEntry> = HashMap::new();
    // Per directory, the best config name seen: its index in CONFIG_NAMES.
    let mut best: HashMap<&[u8], (usize, &TreeEntry)> = HashMap::new();
    for e in &tree {
        entries.insert(&e.path, e);
        let (dir, name) = split_dir(&e.path);
        if skipped(&e.path) {
            continue;
        }
        match e.mode {
            EntryMode::Submodule => snap
                .notes
                .push(format!("submodule not read: {}", shown(&e.path))),
            EntryMode::Link if !CONFIG_NAMES.iter().any(|c| c.as_bytes() == name) => {
                snap.notes.push(format!(
                    "symbolic link in the tree, not followed: {}",
                    shown(&e.path)
                ))
            }
            _ => {}
        }
        if let Some(rank) = CONFIG_NAMES.iter().position(|c| c.as_bytes() == name)
            && e.mode != EntryMode::Submodule
            && best.get(dir).is_none_or(|(r, _)| rank < *r)
        {
            best.insert(dir, (rank, e));
        }
    }
    let reader = BlobReader::spawn(root)?;
    let files = RevisionFiles {
        root,
        rev,
        entries,
        reader: RefCell::new(reader),
        cache: RefCell::new(HashMap::new()),
        fatal: RefCell::new(None),
    };
    // Every config's own blob in one batch.
    let mut configs: Vec<&TreeEntry> = best.values().map(|(_, e)| *e).collect();
    configs.sort_by(|a, b| a.path.cmp(&b.path));
    let oids: Vec<&str> = configs
        .iter()
        .filter(|e| e.mode == EntryMode::File)
        .map(|e| e.oid.as_str())
        .collect();
    let blobs = files.reader.borrow_mut().read_many(&oids)?;
    {
        let mut cache = files.cache.borrow_mut();
        for (oid, blob) in oids.iter().zip(blobs) {
            match blob {
                Some(b) => {
                    cache.insert(oid.to_string(), b);
                }
                None => {
                    let e = configs.iter().find(|e| e.oid == *oid).expect("asked");
                    return Err(missing(oid, &shown(&e.path), rev));
                }
            }
        }
    }
    for e in configs {
        let Ok(rel) = std::str::from_utf8(&e.path) else {
            let name = shown(&e.path);
            snap.configs.insert(
                name.clone(),
                ConfigAt::Failed(format!(
                    "{}: the path is not UTF-8, so it cannot be keyed",
                    absolute(root, &name)
                )),
            );
            continue;
        };
        if let Some(bytes) = files.cache.borrow().get(&e.oid) {
            snap.texts
                .insert(rel.to_string(), String::from_utf8_lossy(bytes).into_owned());
        }
        let path = absolute(root, rel);
        let at = match load_block_from(&path, env, &files) {
            Ok(b) => ConfigAt::Loaded {
                values: block_values(&b.block_json),
                block: b.block.as_str().to_string(),
            },
            Err(e) => ConfigAt::Failed(e.message),
        };
        snap.configs.insert(rel.to_string(), at);
    }
    if let Some(e) = files.fatal.take() {
        return Err(e);
    }
    Ok(snap)
}

/// The effective configs of the working tree at `root`, found and loaded
/// by the scanner (links followed, targets resolved on disk).
pub fn read_working_tree(root: &str, env: &Env) -> Snapshot {
    let discovery =
        discover_paths(&[root.to_string()], env, &|_| {}, &|| false).unwrap_or_default();
    let mut snap = Snapshot {
        label: "working tree".to_string(),
        ..Snapshot::default()
    };
    for u in &discovery.unreadable {
        snap.notes
            .push(format!("cannot read {}: {}", u.path, u.reason));
    }
    for n in &discovery.not_followed {
        snap.notes.push(format!(
            "link not followed: {} -> {} (outside the repository)",
            n.link, n.target
        ));
    }
    let loaded: Vec<(String, ConfigAt)> = discovery
        .keys
        .par_iter()
        .map(|key| {
            let k = key.as_str();
            let rel = if is_under(k, root) && k != root {
                k[root.len()..].trim_start_matches('/').to_string()
            } else {
                k.to_string()
            };
            let at = match load_config(key, env) {
                Ok(s) => ConfigAt::Loaded {
                    values: block_values(&s.block_json),
                    block: s.block.as_str().to_string(),
                },
                Err(e) => ConfigAt::Failed(e.message),
            };
            (rel, at)
        })
        .collect();
    snap.configs.extend(loaded);
    snap
}

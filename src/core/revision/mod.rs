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
pub mod hooks;
pub mod provenance;
pub mod range;
pub mod review_provenance;
pub mod reviews;
pub mod since;
pub mod worktree;

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use rayon::prelude::*;

use crate::core::config::block::Block;
use crate::core::config::entries::{Entry, entries_from_bytes};
use crate::core::config::extends::ConfigFiles;
use crate::core::config::{load_block_from, load_config};
use crate::core::env::Env;
use crate::core::error::ConfigError;
use crate::core::paths::key::is_under;
use crate::core::review::discover::{
    CONFIG_NAMES, NOT_UTF8_KEY as NOT_UTF8, SKIPPED_NAMES, bytes_text, discover_paths,
};
use crate::core::review::value_diff::block_values;

use self::git::{BlobReader, EntryMode, GitError, TreeEntry};

/// One config at one side of the diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigAt {
    /// Loaded: its normalized block, the values of its requests, and
    /// where each path scope inside the repository leads (links followed:
    /// at a revision through the revision's own tree, in the working tree
    /// on disk).
    Loaded {
        /// Its text and JSON, parsed once.
        block: Block,
        values: Vec<(String, Vec<String>)>,
        targets: Vec<(String, String)>,
    },
    /// Does not load: GocciaScript's message and its exit class.
    Failed(ConfigError),
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
    /// What this side holds that may hide a config and was not read:
    /// submodules, links leading out of the repository, unreadable paths.
    pub unread: Vec<Unread>,
    /// Configs whose path is not UTF-8 (no trust key can name them, so
    /// GocciaScript never runs under them as trusted): their shown path,
    /// and their blob's id at a revision.
    pub unkeyable: BTreeMap<String, Option<String>>,
    /// Symbolic links, by path relative to the root, to their target text:
    /// at a revision every link of the tree; in the working tree those
    /// found over a path asked about ([`note_links_over`]).
    pub links: BTreeMap<String, String>,
    /// The commit a revision was read at (its full id); `None` for the
    /// working tree.
    pub commit: Option<String>,
    /// Each loaded config's extends chain, by the config's path: absolute
    /// paths in the checkout, the config first (what provenance blames).
    pub chains: BTreeMap<String, Vec<String>>,
    /// A revision's reviews file (`.goccia/reviews.jsonl`), when its tree
    /// has something there; `None` for the working tree.
    pub reviews: Option<reviews::ReviewsEntry>,
    /// With [`Snapshot::reviews`], each loaded config's recorded targets
    /// as the tree tells them, for its portable digest, or why they cannot
    /// be told from git objects (`reviews::tree_targets`).
    pub tree_targets: BTreeMap<String, Result<Vec<(String, String)>, String>>,
}

/// Something a side holds that was not read, and so may hide a config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unread {
    /// Relative to the root, shown as [`bytes_text`] shows it.
    pub path: String,
    pub what: UnreadKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnreadKind {
    /// A submodule at this commit: another repository's tree.
    Submodule(String),
    /// A symbolic link whose target (as written) leads out of the
    /// repository, so it is not followed.
    LinkOut(String),
    /// A path the walk could not read, and why.
    Unreadable(String),
}

impl Unread {
    /// One line, e.g. `submodule vendor/lib (commit 1a2b3c4) is not read`.
    pub fn describe(&self) -> String {
        match &self.what {
            UnreadKind::Submodule(oid) => format!(
                "submodule {} (commit {}) is not read: its configs are another repository's",
                self.path,
                &oid[..oid.len().min(12)]
            ),
            UnreadKind::LinkOut(target) => format!(
                "symbolic link {} -> {} leads out of the repository and is not followed",
                self.path,
                bytes_text(target.as_bytes())
            ),
            UnreadKind::Unreadable(reason) => format!("cannot read {}: {reason}", self.path),
        }
    }
}

/// Whether a link at `link` (relative to the root) with target text
/// `target` leads out of the repository: an absolute target, or one whose
/// `..` climb above the root.
pub fn link_leaves(link: &str, target: &str) -> bool {
    if target.starts_with('/') {
        return true;
    }
    let (dir, _) = split_dir(link.as_bytes());
    let mut depth = dir.split(|&b| b == b'/').filter(|p| !p.is_empty()).count() as isize;
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                depth -= 1;
                if depth < 0 {
                    return true;
                }
            }
            _ => depth += 1,
        }
    }
    false
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
            "{path}: outside the repository, not read at a revision"
        ))
    }

    fn link(&self, path: &str) -> ConfigError {
        ConfigError::invalid(format!(
            "{path}: a symbolic link in the tree, not followed at a revision"
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

/// The note of a link in a revision's tree (`rel`, relative to the root):
/// the walk does not go through it looking for configs.
pub fn link_note(rel: &str) -> String {
    format!("symbolic link in the tree, not followed: {rel}")
}

fn shown(path: &[u8]) -> String {
    bytes_text(path)
}

/// Every link's target, read in one batch: kept in `snap.links`, and a
/// link leading out of the repository is something not read.
fn read_links(
    tree: &[TreeEntry],
    files: &RevisionFiles<'_>,
    snap: &mut Snapshot,
) -> Result<(), GitError> {
    let links: Vec<&TreeEntry> = tree
        .iter()
        .filter(|e| e.mode == EntryMode::Link && !skipped(&e.path))
        .collect();
    let oids: Vec<&str> = links.iter().map(|e| e.oid.as_str()).collect();
    let targets = files.reader.borrow_mut().read_many(&oids)?;
    for (e, target) in links.into_iter().zip(targets) {
        let Some(target) = target else {
            return Err(missing(&e.oid, &shown(&e.path), files.rev));
        };
        let target = String::from_utf8_lossy(&target).into_owned();
        let path = shown(&e.path);
        if link_leaves(&path, &target) {
            snap.unread.push(Unread {
                path: path.clone(),
                what: UnreadKind::LinkOut(target.clone()),
            });
        }
        snap.links.insert(path, target);
    }
    Ok(())
}

/// Every symbolic link of commit `commit`'s tree, by path relative to the
/// root, to its target text: what [`changed_links`] compares a side with.
pub fn links_at(root: &str, commit: &str) -> Result<BTreeMap<String, String>, GitError> {
    let tree = git::ls_tree(root, commit)?;
    let links: Vec<&TreeEntry> = tree.iter().filter(|e| e.mode == EntryMode::Link).collect();
    let oids: Vec<&str> = links.iter().map(|e| e.oid.as_str()).collect();
    let targets = BlobReader::spawn(root)?.read_many(&oids)?;
    let mut out = BTreeMap::new();
    for (e, target) in links.into_iter().zip(targets) {
        let target = target.ok_or_else(|| missing(&e.oid, &shown(&e.path), commit))?;
        out.insert(
            shown(&e.path),
            String::from_utf8_lossy(&target).into_owned(),
        );
    }
    Ok(out)
}

/// The effective configs of revision `rev` of the repository at `root`.
pub fn read_revision(root: &str, rev: &str, env: &Env) -> Result<Snapshot, GitError> {
    let commit = git::commit_of(root, rev)?;
    let tree = git::ls_tree(root, &commit)?;
    let mut snap = Snapshot {
        label: rev.to_string(),
        commit: Some(commit.clone()),
        ..Snapshot::default()
    };
    snap.reviews = reviews::reviews_entry(&tree);
    let (entries, configs) = survey(&tree, &mut snap);
    let files = RevisionFiles {
        root,
        rev,
        entries,
        reader: RefCell::new(BlobReader::spawn(root)?),
        cache: RefCell::new(HashMap::new()),
        fatal: RefCell::new(None),
    };
    read_config_blobs(&files, &configs)?;
    read_links(&tree, &files, &mut snap)?;
    let index = TreeIndex::new(&files.entries);
    for e in configs {
        let Ok(rel) = std::str::from_utf8(&e.path) else {
            let name = shown(&e.path);
            snap.unkeyable.insert(name.clone(), Some(e.oid.clone()));
            snap.configs.insert(
                name.clone(),
                ConfigAt::Failed(ConfigError::invalid(format!(
                    "{}: {NOT_UTF8}",
                    absolute(root, &name)
                ))),
            );
            continue;
        };
        if let Some(bytes) = files.cache.borrow().get(&e.oid) {
            snap.texts
                .insert(rel.to_string(), String::from_utf8_lossy(bytes).into_owned());
        }
        let (at, loaded) = load_at(&absolute(root, rel), env, &files, &snap.links);
        if let Some((chain, scopes)) = loaded {
            snap.chains.insert(rel.to_string(), chain);
            if snap.reviews.is_some() {
                let targets = tree_targets(root, &scopes, &snap.links, &index);
                snap.tree_targets.insert(rel.to_string(), targets);
            }
        }
        snap.configs.insert(rel.to_string(), at);
    }
    if let Some(e) = files.fatal.take() {
        return Err(e);
    }
    Ok(snap)
}

/// Every entry of `tree` by path, and the effective configs (per
/// directory the best config name, as the scanner picks it) in path order;
/// submodules, links and shadowed config files are noted in `snap`.
fn survey<'t>(
    tree: &'t [TreeEntry],
    snap: &mut Snapshot,
) -> (HashMap<&'t [u8], &'t TreeEntry>, Vec<&'t TreeEntry>) {
    let mut entries: HashMap<&[u8], &TreeEntry> = HashMap::new();
    // Per directory, the best config name seen: its index in CONFIG_NAMES.
    let mut best: HashMap<&[u8], (usize, &TreeEntry)> = HashMap::new();
    let config_rank = |name: &[u8]| CONFIG_NAMES.iter().position(|c| c.as_bytes() == name);
    for e in tree {
        entries.insert(&e.path, e);
        let (dir, name) = split_dir(&e.path);
        if skipped(&e.path) {
            continue;
        }
        match e.mode {
            EntryMode::Submodule => {
                snap.notes
                    .push(format!("submodule not read: {}", shown(&e.path)));
                snap.unread.push(Unread {
                    path: shown(&e.path),
                    what: UnreadKind::Submodule(e.oid.clone()),
                });
            }
            EntryMode::Link if config_rank(name).is_none() => {
                snap.notes.push(link_note(&shown(&e.path)))
            }
            _ => {}
        }
        if let Some(rank) = config_rank(name)
            && e.mode != EntryMode::Submodule
            && best.get(dir).is_none_or(|(r, _)| rank < *r)
        {
            best.insert(dir, (rank, e));
        }
    }
    for e in tree {
        let (dir, name) = split_dir(&e.path);
        if let Some((rank, chosen)) = best.get(dir)
            && !std::ptr::eq(*chosen, e)
            && !skipped(&e.path)
            && e.mode != EntryMode::Submodule
            && config_rank(name).is_some()
        {
            snap.notes
                .push(shadowed_note(CONFIG_NAMES[*rank], &shown(&e.path)));
        }
    }
    let mut configs: Vec<&TreeEntry> = best.values().map(|(_, e)| *e).collect();
    configs.sort_by(|a, b| a.path.cmp(&b.path));
    (entries, configs)
}

/// Every config's own blob, in one batch, into the cache; a missing one
/// ends the read.
fn read_config_blobs(files: &RevisionFiles<'_>, configs: &[&TreeEntry]) -> Result<(), GitError> {
    let asked: Vec<&TreeEntry> = configs
        .iter()
        .filter(|e| e.mode == EntryMode::File)
        .copied()
        .collect();
    let oids: Vec<&str> = asked.iter().map(|e| e.oid.as_str()).collect();
    let blobs = files.reader.borrow_mut().read_many(&oids)?;
    let mut cache = files.cache.borrow_mut();
    for (e, blob) in asked.iter().zip(blobs) {
        let Some(b) = blob else {
            return Err(missing(&e.oid, &shown(&e.path), files.rev));
        };
        cache.insert(e.oid.to_string(), b);
    }
    Ok(())
}

/// A loaded config's extends chain and its target scopes.
type ChainAndScopes = (Vec<String>, Vec<String>);

/// The config at `path` (absolute, in the checkout) loaded from the
/// revision, its scopes resolved through the revision's `links`, and its
/// extends chain and target scopes when it loads.
fn load_at(
    path: &str,
    env: &Env,
    files: &RevisionFiles<'_>,
    links: &BTreeMap<String, String>,
) -> (ConfigAt, Option<ChainAndScopes>) {
    match load_block_from(path, env, files) {
        Ok(b) => (
            ConfigAt::Loaded {
                values: block_values(b.block.json()),
                block: b.block,
                targets: b
                    .scopes
                    .iter()
                    .filter(|scope| is_under(scope, files.root))
                    .map(|scope| {
                        let target = resolve_in_tree(files.root, scope, links);
                        (scope.clone(), target)
                    })
                    .collect(),
            },
            Some((b.files, b.scopes)),
        ),
        Err(e) => (ConfigAt::Failed(e), None),
    }
}

/// Each target scope of a config (absolute paths in the checkout at
/// `root`) with its target as the commit's tree tells it (`links`: the
/// tree's links, by relative path, to their target text; `tree`: its
/// entries), or why one cannot be told from git objects.
///
/// The disk's portable digest resolves each path scope with `realpath`; a
/// commit tells the same only for a scope inside the repository whose
/// links all lead to something the commit holds. Any other target (a
/// scope outside the repository, a link out of it or to nothing the commit
/// holds, a loop, a submodule on the way) depends on the machine: it is
/// said, and no review of that config counts at the revision.
pub fn tree_targets(
    root: &str,
    scopes: &[String],
    links: &BTreeMap<String, String>,
    tree: &TreeIndex<'_>,
) -> Result<Vec<(String, String)>, String> {
    let link_at = |p: &str| links.get(p).cloned();
    let mut out = Vec::with_capacity(scopes.len());
    for scope in scopes {
        if !is_under(scope, root) {
            return Err(format!(
                "the target of {scope} lies outside the repository and cannot be told from git objects"
            ));
        }
        let mut passed = Vec::new();
        let target = walk_links(root, scope, &link_at, &mut passed);
        let cannot =
            |why: &str| format!("the target of {scope} cannot be told from git objects ({why})");
        if passed.len() > 40 {
            return Err(cannot("its symbolic links loop"));
        }
        if !is_under(&target, root) {
            return Err(cannot("a symbolic link leads out of the repository"));
        }
        if let Some(sub) = submodule_over(root, &target, tree.entries) {
            return Err(cannot(&format!("it lies in submodule {sub}")));
        }
        for link in &passed {
            let dest = walk_links(root, &absolute(root, link), &link_at, &mut Vec::new());
            let rel = if dest == root {
                ""
            } else {
                relative_to(root, &dest)
            };
            if !is_under(&dest, root) || !tree.holds(rel) {
                return Err(cannot(&format!(
                    "symbolic link {link} leads to nothing the commit holds"
                )));
            }
        }
        out.push((scope.clone(), target));
    }
    Ok(out)
}

/// The submodule at or above `path` (absolute, under `root`), if any.
fn submodule_over(root: &str, path: &str, entries: &HashMap<&[u8], &TreeEntry>) -> Option<String> {
    let rel = if path == root {
        ""
    } else {
        relative_to(root, path)
    };
    let mut end = 0;
    while end < rel.len() {
        end = rel[end..].find('/').map_or(rel.len(), |i| end + i);
        let prefix = &rel[..end];
        if entries
            .get(prefix.as_bytes())
            .is_some_and(|e| e.mode == EntryMode::Submodule)
        {
            return Some(prefix.to_string());
        }
        end += 1;
    }
    None
}

/// A revision's tree entries by relative path, and its directories, found
/// once when first asked.
pub struct TreeIndex<'t> {
    entries: &'t HashMap<&'t [u8], &'t TreeEntry>,
    dirs: std::cell::OnceCell<std::collections::HashSet<&'t [u8]>>,
}

impl<'t> TreeIndex<'t> {
    pub fn new(entries: &'t HashMap<&'t [u8], &'t TreeEntry>) -> TreeIndex<'t> {
        TreeIndex {
            entries,
            dirs: std::cell::OnceCell::new(),
        }
    }

    /// Whether the tree holds `rel` (relative to the root): an entry
    /// there, or a directory (an entry below it).
    fn holds(&self, rel: &str) -> bool {
        if rel.is_empty() || self.entries.contains_key(rel.as_bytes()) {
            return true;
        }
        let dirs = self.dirs.get_or_init(|| {
            let mut dirs = std::collections::HashSet::new();
            for path in self.entries.keys() {
                for (i, b) in path.iter().enumerate() {
                    if *b == b'/' {
                        dirs.insert(&path[..i]);
                    }
                }
            }
            dirs
        });
        dirs.contains(rel.as_bytes())
    }
}

/// A config file GocciaScript never reads: a higher-priority name stands
/// beside it.
fn shadowed_note(by: &str, path: &str) -> String {
    format!("shadowed by {by}, not read: {path}")
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
        // Not a note as well: an unreadable path is always either a
        // config that does not load or something not read (said once).
        let rel = relative_to(root, &u.path).to_string();
        let (_, name) = split_dir(rel.as_bytes());
        if u.reason == NOT_UTF8 && CONFIG_NAMES.iter().any(|c| c.as_bytes() == name) {
            // A config no key can name: listed as one that does not load,
            // as at a revision.
            snap.configs.insert(
                rel.clone(),
                ConfigAt::Failed(ConfigError::invalid(format!("{}: {NOT_UTF8}", u.path))),
            );
            snap.unkeyable.insert(rel, None);
        } else {
            snap.unread.push(Unread {
                path: rel,
                what: UnreadKind::Unreadable(u.reason.clone()),
            });
        }
    }
    for sh in &discovery.shadowed {
        let by = sh.by.rsplit('/').next().unwrap_or(&sh.by);
        snap.notes
            .push(shadowed_note(by, relative_to(root, &sh.path)));
    }
    for n in &discovery.not_followed {
        snap.notes.push(format!(
            "link not followed: {} -> {} (outside the repository)",
            n.link, n.target
        ));
        let target = std::fs::read_link(&n.link)
            .map(|t| t.to_string_lossy().into_owned())
            .unwrap_or_else(|_| n.target.clone());
        let rel = relative_to(root, &n.link).to_string();
        snap.links.insert(rel.clone(), target.clone());
        snap.unread.push(Unread {
            path: rel,
            what: UnreadKind::LinkOut(target),
        });
    }
    let loaded: Vec<(String, ConfigAt, Option<Vec<String>>)> = discovery
        .keys
        .par_iter()
        .map(|key| {
            let rel = relative_to(root, key.as_str()).to_string();
            match load_config(key, env) {
                Ok(s) => {
                    let at = ConfigAt::Loaded {
                        values: block_values(s.block.json()),
                        block: s.block,
                        targets: inside(root, s.targets.iter()),
                    };
                    (rel, at, Some(s.files))
                }
                Err(e) => (rel, ConfigAt::Failed(e), None),
            }
        })
        .collect();
    for (rel, at, chain) in loaded {
        if let Some(chain) = chain {
            snap.chains.insert(rel.clone(), chain);
        }
        snap.configs.insert(rel, at);
    }
    snap
}

/// The (scope, target) pairs of scopes inside the repository at `root`:
/// what a revision can resolve too, so the two sides compare.
pub fn inside<'a>(
    root: &str,
    targets: impl Iterator<Item = (&'a str, &'a str)>,
) -> Vec<(String, String)> {
    targets
        .filter(|(scope, _)| is_under(scope, root))
        .map(|(s, t)| (s.to_string(), t.to_string()))
        .collect()
}

/// Where the absolute path `scope`, inside the repository at `root`,
/// leads through the symbolic links of a revision's tree (`links`, by path
/// relative to the root, to their target text), as `realpath` would if the
/// checkout held that revision: a relative target is followed inside the
/// repository; an absolute one, or one climbing above the root, ends the
/// walk there (never read), the rest of the path appended. A loop of links
/// gives the path reached when the hop limit runs out.
pub fn resolve_in_tree(root: &str, scope: &str, links: &BTreeMap<String, String>) -> String {
    walk_links(root, scope, &|p| links.get(p).cloned(), &mut Vec::new())
}

/// [`resolve_in_tree`] with each link asked of `link_at` (a path relative
/// to the root: its target text, `None` when no link is there), the links
/// passed recorded in `passed`.
fn walk_links(
    root: &str,
    scope: &str,
    link_at: &dyn Fn(&str) -> Option<String>,
    passed: &mut Vec<String>,
) -> String {
    const HOPS: usize = 40;
    let rel = if scope == root {
        ""
    } else {
        relative_to(root, scope)
    };
    let mut parts: Vec<String> = rel
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .map(str::to_string)
        .collect();
    let mut hops = 0;
    let mut i = 0;
    while i < parts.len() {
        let here = parts[..=i].join("/");
        let Some(target) = link_at(&here) else {
            i += 1;
            continue;
        };
        passed.push(here);
        hops += 1;
        if hops > HOPS {
            break;
        }
        let rest = parts[i + 1..].to_vec();
        if target.starts_with('/') {
            let mut out = target.trim_end_matches('/').to_string();
            for p in rest {
                out.push('/');
                out.push_str(&p);
            }
            return lexical(&out);
        }
        // The target replaces the link, relative to the link's directory.
        let mut next: Vec<String> = parts[..i].to_vec();
        for p in target.split('/') {
            match p {
                "" | "." => {}
                ".." => {
                    if next.pop().is_none() {
                        // Above the root: outside the repository.
                        let mut out = absolute(root, &parts[..i].join("/"));
                        out.push('/');
                        out.push_str(&target);
                        for p in &rest {
                            out.push('/');
                            out.push_str(p);
                        }
                        return lexical(&out);
                    }
                }
                p => next.push(p.to_string()),
            }
        }
        // Re-walk from the start: the new prefix may pass through links.
        parts = next.into_iter().chain(rest).collect();
        i = 0;
    }
    absolute(root, &parts.join("/"))
        .trim_end_matches('/')
        .to_string()
}

/// The links whose change moved path `scope` (absolute, inside the
/// repository at `root`) between `base`, a revision, and `head`, a
/// revision or with `on_disk` the working tree (its links read on disk):
/// each path, relative to the root, where either side's resolution passed
/// a link and the two sides differ there (re-pointed, added, or removed),
/// in the order passed, each once.
pub fn changed_links(
    root: &str,
    scope: &str,
    base: &Snapshot,
    head: &Snapshot,
    on_disk: bool,
) -> Vec<String> {
    let at_base = |p: &str| base.links.get(p).cloned();
    let at_head = |p: &str| {
        if on_disk {
            link_on_disk(root, p)
        } else {
            head.links.get(p).cloned()
        }
    };
    let mut passed = Vec::new();
    walk_links(root, scope, &at_base, &mut passed);
    walk_links(root, scope, &at_head, &mut passed);
    let mut out: Vec<String> = Vec::new();
    for p in passed {
        if at_base(&p) != at_head(&p) && !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// The target text of the link at `rel` (relative to `root`) on disk,
/// `None` when no link is there.
pub fn link_on_disk(root: &str, rel: &str) -> Option<String> {
    let abs = absolute(root, rel);
    let meta = std::fs::symlink_metadata(&abs).ok()?;
    if !meta.file_type().is_symlink() {
        return None;
    }
    std::fs::read_link(&abs)
        .ok()
        .map(|t| t.to_string_lossy().into_owned())
}

/// An absolute path with `.` and `..` resolved lexically.
fn lexical(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            p => out.push(p),
        }
    }
    format!("/{}", out.join("/"))
}

/// `path` relative to `root` when under it, else as it is.
fn relative_to<'p>(root: &str, path: &'p str) -> &'p str {
    if is_under(path, root) && path != root {
        path[root.len()..].trim_start_matches('/')
    } else {
        path
    }
}

/// Records in `snap.links` each symbolic link of the working tree at
/// `root` over one of `paths` (relative): a directory of a config that was
/// replaced by a link changes what governs its files.
pub fn note_links_over<'p>(
    snap: &mut Snapshot,
    root: &str,
    paths: impl Iterator<Item = &'p String>,
) {
    for rel in paths {
        let mut end = 0;
        while let Some(i) = rel[end..].find('/') {
            end += i;
            let dir = &rel[..end];
            end += 1;
            if snap.links.contains_key(dir) {
                break;
            }
            let abs = absolute(root, dir);
            match std::fs::symlink_metadata(&abs) {
                Ok(m) if m.file_type().is_symlink() => {
                    let target = std::fs::read_link(&abs)
                        .map(|t| t.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    snap.links.insert(dir.to_string(), target);
                    break;
                }
                Ok(m) if m.is_dir() => {}
                _ => break,
            }
        }
    }
}

#[cfg(test)]
mod link_tests {
    use super::{Snapshot, changed_links, link_leaves, resolve_in_tree};

    fn snap(links: &[(&str, &str)]) -> Snapshot {
        Snapshot {
            links: links
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            ..Snapshot::default()
        }
    }

    #[test]
    fn the_links_that_moved_a_scope_are_those_that_differ_where_passed() {
        // app/assets -> shared/img at both sides; only `shared` moved.
        let base = snap(&[("app/assets", "../shared/img"), ("shared", "shared-v2")]);
        let head = snap(&[("app/assets", "../shared/img"), ("shared", "/root")]);
        let c = |b: &Snapshot, h: &Snapshot| changed_links("/r", "/r/app/assets", b, h, false);
        assert_eq!(c(&base, &head), ["shared"]);
        // Added at HEAD, removed at HEAD: the path that became or ceased
        // to be a link.
        let plain = snap(&[("shared", "shared-v2")]);
        assert_eq!(c(&plain, &base), ["app/assets"]);
        assert_eq!(c(&plain, &head), ["app/assets", "shared"]);
        assert_eq!(c(&base, &plain), ["app/assets"]);
        assert!(c(&base, &base).is_empty());
    }

    #[test]
    fn scopes_resolve_through_the_trees_links() {
        let links: std::collections::BTreeMap<String, String> = [
            ("shared", "shared-v2"),
            ("app/assets", "../shared/img"),
            ("ssh", "/root/.ssh"),
            ("up", "../outside"),
            ("loop", "loop"),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        let r = |s: &str| resolve_in_tree("/r", s, &links);
        assert_eq!(r("/r/data"), "/r/data");
        assert_eq!(r("/r"), "/r");
        assert_eq!(r("/r/shared"), "/r/shared-v2");
        assert_eq!(r("/r/shared/x"), "/r/shared-v2/x");
        // Through two links: app/assets -> shared/img -> shared-v2/img.
        assert_eq!(r("/r/app/assets/a.png"), "/r/shared-v2/img/a.png");
        assert_eq!(r("/r/ssh/id"), "/root/.ssh/id");
        assert_eq!(r("/r/up/x"), "/outside/x");
        // A loop stops; it never hangs.
        let _ = r("/r/loop/x");
    }

    /// A target the commit tells (through a link it holds) is given; one
    /// outside, through a link out, to nothing, in a loop or in a
    /// submodule is said, never guessed.
    #[test]
    fn tree_targets_are_told_only_from_what_the_commit_holds() {
        use super::git::{EntryMode, TreeEntry};
        use super::{TreeIndex, tree_targets};
        let entry = |p: &str, mode| TreeEntry {
            path: p.as_bytes().to_vec(),
            mode,
            oid: String::new(),
        };
        let tree = [
            entry("shared-v2/img/a.png", EntryMode::File),
            entry("shared", EntryMode::Link),
            entry("gone", EntryMode::Link),
            entry("ssh", EntryMode::Link),
            entry("loop", EntryMode::Link),
            entry("vendor/lib", EntryMode::Submodule),
        ];
        let entries = tree.iter().map(|e| (e.path.as_slice(), e)).collect();
        let index = TreeIndex::new(&entries);
        let links = [
            ("shared", "shared-v2"),
            ("gone", "nothing-here"),
            ("ssh", "/root/.ssh"),
            ("loop", "loop"),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        let t = |scope: &str| tree_targets("/r", &[scope.to_string()], &links, &index);
        assert_eq!(
            t("/r/shared/img/new").unwrap(),
            [(
                "/r/shared/img/new".to_string(),
                "/r/shared-v2/img/new".to_string()
            )]
        );
        assert_eq!(t("/r/data").unwrap()[0].1, "/r/data");
        let why = |scope: &str| t(scope).unwrap_err();
        assert!(why("/etc/hosts").contains("outside the repository"));
        assert!(why("/r/ssh/id").contains("leads out of the repository"));
        assert!(why("/r/gone/x").contains("symbolic link gone leads to nothing the commit holds"));
        assert!(why("/r/loop/x").contains("loop"));
        assert!(why("/r/vendor/lib/x").contains("submodule vendor/lib"));
    }

    #[test]
    fn a_link_leaves_when_absolute_or_climbing_above_the_root() {
        assert!(link_leaves("a/l", "/etc"));
        assert!(link_leaves("l", ".."));
        assert!(link_leaves("a/l", "../../x"));
        assert!(link_leaves("a/l", "b/../../../x"));
        assert!(!link_leaves("a/l", "../x"));
        assert!(!link_leaves("a/b/l", "../../x"));
        assert!(!link_leaves("l", "shared-v2"));
        assert!(!link_leaves("l", "./x/../y"));
    }
}

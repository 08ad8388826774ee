//! Origin by content (issue 40 item 1): the commit that made a value a
//! grant is the one whose version of the config (its normalized block,
//! read with its extends chain as that commit holds them) grants the value
//! under its request while its parent's version does not. Not the last
//! commit to touch a line: a reformat, a value added beside another on the
//! same line, or an edit of the key line alone (`deny-read` made
//! `allow-read`) is judged by what each version grants.
//!
//! History is read as git stores it (no grafts, no replace objects:
//! [`git::git`]), once per config: `git log --parents` of the chain's files,
//! newest first, gives each commit that changed them with its parents
//! rewritten to the nearest that did (the others hold the same files, so
//! the same block). From the newest, while the version grants the value,
//! the walk goes to a parent that grants it too; the commit none of whose
//! parents grants it is the origin. Each version is read once (one `git
//! cat-file --batch` for every tree and blob), at most [`MAX_VERSIONS`] per
//! config. What cannot be decided (a file outside the repository or a link
//! in a commit's tree, a shallow boundary, the bound) is said, never
//! guessed.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use super::commit::{Absent, Commit, LOG_OUTPUT, ValueOrigin, describe_commits, in_repo, literal};
use super::invoke::hardened;
use super::trusted::{Trusted, TrustedVersion};
use crate::core::config::block::Block;
use crate::core::config::entries::{Entry, entries_from_bytes};
use crate::core::config::extends::{ConfigFiles, Disk};
use crate::core::config::load_block_from;
use crate::core::config::targets::{Targets, canonical_capability_path};
use crate::core::env::Env;
use crate::core::error::ConfigError;
use crate::core::paths::bounded::CONFIG_MAX_BYTES;
use crate::core::paths::key::is_under;
use crate::core::review::value_diff::block_values;
use crate::core::revision::git::{self, BlobReader, GitError};

/// The most versions of one config read to find its values' origins (and
/// the most commits listed for the walk): past them, `origin unknown:
/// more than 500 commits`.
pub const MAX_VERSIONS: usize = 500;
/// The most a tree object may hold (a directory of a million entries).
const TREE_MAX: usize = 64 << 20;

/// What one commit's version of a config grants.
#[derive(Debug, Clone)]
pub(super) enum Version {
    /// Read: the `(request, value)` pairs its block grants (none when the
    /// config is missing or does not load), its chain's files relative to
    /// the root, and its block's SHA-256 when it loads.
    Read {
        grants: HashSet<(String, String)>,
        chain: Vec<String>,
        sha256: Option<String>,
    },
    /// Why what it grants cannot be said.
    Undecidable(String),
}

impl Version {
    fn grants(&self, value: &(String, String)) -> Result<bool, String> {
        match self {
            Version::Read { grants, .. } => Ok(grants.contains(value)),
            Version::Undecidable(why) => Err(why.clone()),
        }
    }
}

/// One entry of a tree object.
#[derive(Debug, Clone)]
struct TreeItem {
    mode: Vec<u8>,
    name: Vec<u8>,
    oid: String,
}

/// Whether a commit's links lead the recorded scopes to their recorded
/// targets ([`Versions::targets_at`]).
enum TargetsAt {
    Same,
    /// One leads elsewhere inside the repository: not the trusted version.
    Differ,
    /// Where one leads cannot be told from the commit's tree, and why.
    Unknown(String),
}

/// What a path is in a commit's tree.
enum Lookup {
    File(String),
    Link,
    /// Nothing, a directory or a submodule: no file to read.
    NoFile,
}

/// The versions of one config, read from the repository at `root`.
pub(super) struct Versions<'a> {
    root: &'a str,
    /// The config's path in the checkout (absolute): where it is loaded.
    config: String,
    env: &'a Env,
    reader: RefCell<BlobReader>,
    trees: RefCell<HashMap<String, Vec<TreeItem>>>,
    read: HashMap<String, Version>,
}

impl<'a> Versions<'a> {
    pub(super) fn new(root: &'a str, config: String, env: &'a Env) -> Result<Self, Absent> {
        Ok(Versions {
            root,
            config,
            env,
            reader: RefCell::new(BlobReader::spawn(root)?),
            trees: RefCell::new(HashMap::new()),
            read: HashMap::new(),
        })
    }

    /// How many versions were read.
    pub(super) fn count(&self) -> usize {
        self.read.len()
    }

    /// Whether the version at `commit` was read already.
    pub(super) fn has(&self, commit: &str) -> bool {
        self.read.contains_key(commit)
    }

    /// The config at `commit` (a full id): read once. A git that fails
    /// while reading ends provenance (`Err`); a version it cannot decide is
    /// [`Version::Undecidable`].
    pub(super) fn at(&mut self, commit: &str) -> Result<&Version, Absent> {
        if !self.read.contains_key(commit) {
            let v = self.load(commit)?;
            self.read.insert(commit.to_string(), v);
        }
        Ok(&self.read[commit])
    }

    fn load(&self, commit: &str) -> Result<Version, Absent> {
        let Some(tree) = self.tree_of(commit)? else {
            return Ok(Version::Undecidable(format!(
                "commit {} is missing from the repository",
                short(commit)
            )));
        };
        let files = CommitFiles {
            versions: self,
            tree,
            undecidable: RefCell::new(None),
            failed: RefCell::new(None),
        };
        let loaded = load_block_from(&self.config, self.env, &files);
        if let Some(e) = files.failed.take() {
            return Err(e.into());
        }
        if let Some(why) = files.undecidable.take() {
            return Ok(Version::Undecidable(why));
        }
        Ok(match loaded {
            Ok(b) => Version::Read {
                grants: grants_of(b.block.json()),
                chain: b
                    .files
                    .iter()
                    .filter_map(|f| in_repo(self.root, f))
                    .collect(),
                sha256: Some(b.block.sha256()),
            },
            // Missing, or not loading: it grants nothing.
            Err(_) => Version::Read {
                grants: HashSet::new(),
                chain: Vec::new(),
                sha256: None,
            },
        })
    }

    fn object(&self, name: &str) -> Result<Option<git::Object>, GitError> {
        self.reader.borrow_mut().object(name, TREE_MAX)
    }

    /// The entries of tree `oid`, read once for every version.
    fn tree(&self, oid: &str) -> Result<Option<Vec<TreeItem>>, GitError> {
        if let Some(t) = self.trees.borrow().get(oid) {
            return Ok(Some(t.clone()));
        }
        let Some(o) = self.object(oid)? else {
            return Ok(None);
        };
        let hex = oid.len() / 2;
        let items = (o.kind == "tree")
            .then(|| parse_tree(&o.bytes, hex))
            .flatten()
            .ok_or_else(|| GitError(format!("tree {oid} could not be read")))?;
        self.trees
            .borrow_mut()
            .insert(oid.to_string(), items.clone());
        Ok(Some(items))
    }

    /// What `rel` is in the tree `root`, no link followed.
    fn lookup(&self, root: &str, rel: &str) -> Result<Lookup, GitError> {
        let mut tree = root.to_string();
        let parts: Vec<&str> = rel.split('/').collect();
        for (i, part) in parts.iter().enumerate() {
            let Some(items) = self.tree(&tree)? else {
                return Err(GitError(format!("tree {tree} is missing")));
            };
            let Some(item) = items.iter().find(|e| e.name == part.as_bytes()) else {
                return Ok(Lookup::NoFile);
            };
            let last = i + 1 == parts.len();
            match item.mode.as_slice() {
                b"120000" => return Ok(Lookup::Link),
                b"40000" | b"040000" if !last => tree = item.oid.clone(),
                b"100644" | b"100755" | b"100664" if last => {
                    return Ok(Lookup::File(item.oid.clone()));
                }
                _ => return Ok(Lookup::NoFile),
            }
        }
        Ok(Lookup::NoFile)
    }
}

impl Versions<'_> {
    /// The entry at `rel` (relative to the root, not empty) in the tree
    /// `root`, through directories only: `None` when a part is missing or
    /// not a directory (a link is not followed).
    fn entry(&self, root: &str, rel: &str) -> Result<Option<TreeItem>, GitError> {
        let mut tree = root.to_string();
        let parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
        for (i, part) in parts.iter().enumerate() {
            let Some(items) = self.tree(&tree)? else {
                return Err(GitError(format!("tree {tree} is missing")));
            };
            let Some(item) = items.iter().find(|e| e.name == part.as_bytes()) else {
                return Ok(None);
            };
            if i + 1 == parts.len() {
                return Ok(Some(item.clone()));
            }
            if !matches!(item.mode.as_slice(), b"40000" | b"040000") {
                return Ok(None);
            }
            tree = item.oid.clone();
        }
        Ok(None)
    }

    /// The target text of the link at `rel` in the tree `root`, `None`
    /// when no link is there.
    /// The tree of `commit`: `None` when the repository does not hold it.
    fn tree_of(&self, commit: &str) -> Result<Option<String>, GitError> {
        Ok(match self.object(&format!("{commit}^{{tree}}"))? {
            Some(o) if o.kind == "tree" => Some(o.oid),
            _ => None,
        })
    }

    /// Where `scope` (inside the repository) leads in a checkout of
    /// `tree`, following the links that tree holds.
    fn led_at(&self, tree: &str, scope: &str) -> Result<String, Absent> {
        let failed = RefCell::new(None);
        let link_at = |rel: &str| {
            self.link_target(tree, rel).unwrap_or_else(|e| {
                failed.borrow_mut().get_or_insert(e);
                None
            })
        };
        let led = crate::core::revision::walk_links(self.root, scope, &link_at, &mut Vec::new());
        match failed.into_inner() {
            Some(e) => Err(e.into()),
            None => Ok(led),
        }
    }

    fn link_target(&self, root: &str, rel: &str) -> Result<Option<String>, GitError> {
        let Some(item) = self.entry(root, rel)?.filter(|e| e.mode == b"120000") else {
            return Ok(None);
        };
        match self.reader.borrow_mut().read(&item.oid)? {
            Some(text) => Ok(Some(String::from_utf8_lossy(&text).into_owned())),
            None => Err(GitError(format!("object {} of {rel} is missing", item.oid))),
        }
    }

    /// Whether commit `commit`'s links lead each recorded `(scope,
    /// target)` to its target, as a checkout of it would (recorded targets
    /// are resolved on disk, links followed). A scope outside the
    /// repository is no part of its history and is not compared. One
    /// leading elsewhere inside the repository, to a path the commit
    /// holds, is [`TargetsAt::Differ`]; one leading out of the repository,
    /// or to a path the commit does not hold (what is there on disk, a
    /// link or not, was never committed), cannot be told.
    fn targets_at(&self, commit: &str, recorded: &[(String, String)]) -> Result<TargetsAt, Absent> {
        let Some(tree) = self.tree_of(commit)? else {
            return Ok(TargetsAt::Unknown(format!(
                "commit {} is missing from the repository",
                short(commit)
            )));
        };
        let mut unknown = None;
        for (scope, target) in recorded {
            if !is_under(scope, self.root) {
                continue;
            }
            let led = self.led_at(&tree, scope)?;
            if led == *target {
                continue;
            }
            let at = short(commit);
            if !is_under(&led, self.root) {
                unknown.get_or_insert(format!("at {at}, {scope} leads out of the repository"));
            } else if led != self.root
                && self
                    .entry(&tree, relative(self.root, &led).unwrap_or(""))?
                    .is_none()
            {
                unknown.get_or_insert(format!(
                    "at {at}, {scope} leads to {led}, which the commit does not hold"
                ));
            } else {
                return Ok(TargetsAt::Differ);
            }
        }
        Ok(unknown.map_or(TargetsAt::Same, TargetsAt::Unknown))
    }
}

impl Versions<'_> {
    /// The config's block at `commit` and where each of its path scopes
    /// leads in a checkout of it (links of the commit's tree followed; a
    /// scope outside the repository as the disk resolves it now): what a
    /// portable digest of that version is made of. `None` when the config
    /// is missing there, does not load, or cannot be read from the tree.
    pub(super) fn block_at(&self, commit: &str) -> Result<Option<(Block, Targets)>, Absent> {
        let Some(tree) = self.tree_of(commit)? else {
            return Ok(None);
        };
        let files = CommitFiles {
            versions: self,
            tree: tree.clone(),
            undecidable: RefCell::new(None),
            failed: RefCell::new(None),
        };
        let loaded = load_block_from(&self.config, self.env, &files);
        if let Some(e) = files.failed.take() {
            return Err(e.into());
        }
        let (Ok(b), None) = (loaded, files.undecidable.take()) else {
            return Ok(None);
        };
        let mut pairs = Vec::with_capacity(b.scopes.len());
        for scope in b.scopes {
            if !is_under(&scope, self.root) {
                let target = canonical_capability_path(&scope);
                pairs.push((scope, target));
                continue;
            }
            let led = self.led_at(&tree, &scope)?;
            pairs.push((scope, led));
        }
        Ok(Some((b.block, Targets::from_pairs(pairs))))
    }
}

/// `<mode> SP <name> NUL <raw id>`, repeated; `None` when cut short.
fn parse_tree(bytes: &[u8], id_len: usize) -> Option<Vec<TreeItem>> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let sp = rest.iter().position(|&b| b == b' ')?;
        let nul = sp + rest[sp..].iter().position(|&b| b == 0)?;
        let id = rest.get(nul + 1..nul + 1 + id_len)?;
        out.push(TreeItem {
            mode: rest[..sp].to_vec(),
            name: rest[sp + 1..nul].to_vec(),
            oid: crate::core::config::block::lower_hex(id),
        });
        rest = &rest[nul + 1 + id_len..];
    }
    Some(out)
}

/// A commit's files for the loader: read from its tree, links never
/// followed, nothing outside the repository read. What makes a version
/// undecidable is kept; a failing git ends the read.
struct CommitFiles<'v, 'a> {
    versions: &'v Versions<'a>,
    tree: String,
    undecidable: RefCell<Option<String>>,
    failed: RefCell<Option<GitError>>,
}

impl CommitFiles<'_, '_> {
    fn refuse(&self, path: &str, why: String) -> ConfigError {
        self.undecidable
            .borrow_mut()
            .get_or_insert_with(|| why.clone());
        ConfigError::invalid(format!("{path}: {why}"))
    }

    fn look(&self, path: &str) -> Result<(String, Lookup), ConfigError> {
        let Some(rel) = relative(self.versions.root, path) else {
            return Err(self.refuse(path, format!("{path} is outside the repository")));
        };
        match self.versions.lookup(&self.tree, rel) {
            Ok(Lookup::Link) => {
                Err(self.refuse(path, format!("{rel} is a symbolic link in a commit's tree")))
            }
            Ok(l) => Ok((rel.to_string(), l)),
            Err(e) => {
                let why = e.0.clone();
                self.failed.borrow_mut().get_or_insert(e);
                Err(ConfigError::invalid(format!("{path}: {why}")))
            }
        }
    }
}

impl ConfigFiles for CommitFiles<'_, '_> {
    fn read_entries(&self, path: &str) -> Result<Vec<Entry>, ConfigError> {
        let (rel, found) = self.look(path)?;
        let Lookup::File(oid) = found else {
            return Err(ConfigError::invalid(format!(
                "{path}: No such file or directory"
            )));
        };
        match self.versions.reader.borrow_mut().read(&oid) {
            Ok(Some(bytes)) => entries_from_bytes(path, bytes),
            Ok(None) => Err(self.refuse(path, format!("object {oid} of {rel} is missing"))),
            Err(e) => {
                self.failed.borrow_mut().get_or_insert(e.clone());
                Err(ConfigError::invalid(format!("{path}: {e}")))
            }
        }
    }

    fn base_exists(&self, path: &str) -> Result<bool, ConfigError> {
        let (_, found) = self.look(path)?;
        Ok(matches!(found, Lookup::File(_)))
    }
}

/// `path` relative to `root`, when inside it.
fn relative<'p>(root: &str, path: &'p str) -> Option<&'p str> {
    if root == "/" {
        return path.strip_prefix('/');
    }
    path.strip_prefix(root)?
        .strip_prefix('/')
        .filter(|rest| !rest.is_empty())
}

fn short(sha: &str) -> &str {
    &sha[..sha.len().min(7)]
}

/// The commits that changed a config's files, newest first, each with its
/// parents rewritten to the nearest that changed them too.
#[derive(Debug, Default)]
pub(super) struct History {
    pub(super) order: Vec<String>,
    pub(super) parents: HashMap<String, Vec<String>>,
    /// More commits changed them than are listed.
    pub(super) more: bool,
    /// The commits git was told have no parents here (`.git/shallow`).
    shallow: HashSet<String>,
}

/// `git log --parents --topo-order` of `range` (`HEAD`, `BASE..HEAD`) for
/// `specs`, at most [`MAX_VERSIONS`] commits.
pub(super) fn history(root: &str, range: &str, specs: &[String]) -> Result<History, Absent> {
    let mut cmd = hardened(root);
    cmd.args([
        "log",
        "--no-color",
        "--topo-order",
        "--parents",
        "--format=tformat:%H %P",
        &format!("--max-count={}", MAX_VERSIONS + 1),
        "--end-of-options",
        range,
        "--",
    ])
    .args(specs);
    let out = git::output(cmd, "log", LOG_OUTPUT)?;
    let bad = || Absent {
        reason: "unexpected output from git log".into(),
    };
    let text = std::str::from_utf8(&out).map_err(|_| bad())?;
    let mut h = History::default();
    for line in text.lines() {
        let mut ids = line.split(' ').filter(|s| !s.is_empty());
        let id = ids.next().ok_or_else(bad)?.to_string();
        let parents: Vec<String> = ids.map(str::to_string).collect();
        if !std::iter::once(&id)
            .chain(&parents)
            .all(|s| matches!(s.len(), 40 | 64) && s.bytes().all(|b| b.is_ascii_hexdigit()))
        {
            return Err(bad());
        }
        h.order.push(id.clone());
        h.parents.insert(id, parents);
    }
    if h.order.len() > MAX_VERSIONS {
        h.more = true;
        let gone = h.order.split_off(MAX_VERSIONS);
        for id in gone {
            h.parents.remove(&id);
        }
    }
    h.shallow = shallow_commits(root)?;
    Ok(h)
}

/// The commits `.git/shallow` lists: git shows them without parents,
/// whether a shallow clone cut the history there or the file was written
/// to hide it. Read here, bounded.
pub(super) fn shallow_commits(root: &str) -> Result<HashSet<String>, Absent> {
    let mut cmd = git::git(root);
    cmd.args([
        "rev-parse",
        "--path-format=absolute",
        "--git-path",
        "shallow",
    ]);
    let out = git::output(cmd, "rev-parse", 64 * 1024)?;
    let path = String::from_utf8_lossy(&out)
        .trim_end_matches('\n')
        .to_string();
    let bytes = match crate::core::paths::bounded::read_regular(&path, CONFIG_MAX_BYTES) {
        Ok(b) => b,
        Err(_) if std::fs::symlink_metadata(&path).is_err() => return Ok(HashSet::new()),
        Err(e) => {
            return Err(Absent {
                reason: format!("cannot read {path}: {}", e.describe()),
            });
        }
    };
    Ok(String::from_utf8_lossy(&bytes)
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect())
}

/// Where the walk for one value ended.
enum Found {
    Origin(String),
    AtBase,
    Unknown(String),
}

/// What bounds a walk: the lowest commit of `BASE..HEAD` (`None`: the
/// whole history, for a review since trusted).
pub(super) struct Walk<'h> {
    pub(super) history: &'h History,
    pub(super) base: Option<&'h str>,
    pub(super) root: &'h str,
}

impl Walk<'_> {
    /// The commit that made `value` a grant, walking from `tip` (a listed
    /// commit whose version grants it).
    fn origin(
        &self,
        versions: &mut Versions<'_>,
        tip: &str,
        value: &(String, String),
    ) -> Result<Found, Absent> {
        let mut cur = tip.to_string();
        loop {
            if self.history.shallow.contains(&cur) {
                return Ok(Found::Unknown(format!(
                    "history is shallow before {}",
                    short(&cur)
                )));
            }
            let parents = self.history.parents.get(&cur).cloned().unwrap_or_default();
            let mut next = None;
            for p in &parents {
                if !versions.has(p) && versions.count() >= MAX_VERSIONS {
                    return Ok(Found::Unknown(format!("more than {MAX_VERSIONS} commits")));
                }
                match versions.at(p)?.grants(value) {
                    Ok(true) => {
                        next = Some(p.clone());
                        break;
                    }
                    Ok(false) => {}
                    Err(why) => return Ok(Found::Unknown(why)),
                }
            }
            let Some(p) = next else {
                return Ok(Found::Origin(cur));
            };
            if self.history.parents.contains_key(&p) {
                cur = p;
                continue;
            }
            // A parent not listed: below BASE, or past the listing.
            return Ok(match self.base {
                Some(base) if !self.history.more || is_ancestor(self.root, &p, base)? => {
                    Found::AtBase
                }
                _ if self.history.more => {
                    Found::Unknown(format!("more than {MAX_VERSIONS} commits"))
                }
                _ => Found::Unknown(format!(
                    "the history of {} could not be followed",
                    short(&cur)
                )),
            });
        }
    }
}

/// Whether `a` is an ancestor of (or is) `b`.
fn is_ancestor(root: &str, a: &str, b: &str) -> Result<bool, Absent> {
    let mut cmd = git::git(root);
    cmd.args(["merge-base", "--is-ancestor", "--end-of-options", a, b]);
    match git::output(cmd, "merge-base", 1024) {
        Ok(_) => Ok(true),
        Err(e) if e == git::too_slow("merge-base") => Err(e.into()),
        Err(_) => Ok(false),
    }
}

/// For one config (its path relative to the root), the origin of each
/// `(request, value)` its version at `head` (a commit; `None`: the working
/// tree, its values judged against HEAD's version) grants, within
/// `base..head` (`base` `None`: the whole history).
pub(super) fn origins(
    root: &str,
    rel: &str,
    base: Option<&str>,
    head: Option<&str>,
    values: &[(String, String)],
    env: &Env,
) -> Result<Vec<ValueOrigin>, Absent> {
    if values.is_empty() {
        return Ok(Vec::new());
    }
    Ok(reviewed(root, rel, base, head, values, None, env)?.0)
}

/// [`origins`], and with `trusted` (a store entry) the newest commit of
/// HEAD's history whose version of the config hashes to its SHA-256 with
/// its recorded targets: the trusted version ([`trusted_version`]).
pub(super) fn reviewed(
    root: &str,
    rel: &str,
    base: Option<&str>,
    head: Option<&str>,
    values: &[(String, String)],
    trusted: Option<&Trusted>,
    env: &Env,
) -> Result<(Vec<ValueOrigin>, TrustedVersion), Absent> {
    let tip = match head {
        Some(h) => h.to_string(),
        None => match git::commit_of(root, "HEAD") {
            Ok(id) => id,
            Err(e) if e == git::too_slow("rev-parse") => return Err(e.into()),
            // No commit yet: every value is the working tree's.
            Err(_) => {
                return Ok((
                    vec![ValueOrigin::NotCommitted; values.len()],
                    TrustedVersion::NotFound,
                ));
            }
        },
    };
    let config = if root == "/" {
        format!("/{rel}")
    } else {
        format!("{root}/{rel}")
    };
    let now = match head {
        Some(_) => None,
        None => Some(working_grants(&config, env)),
    };
    let mut versions = Versions::new(root, config, env)?;
    let mut specs: Vec<String> = vec![rel.to_string()];
    if let Version::Read { chain, .. } = versions.at(&tip)? {
        for f in chain {
            if !specs.contains(f) {
                specs.push(f.clone());
            }
        }
    }
    let range = match base {
        Some(b) => format!("{b}..{tip}"),
        None => tip.clone(),
    };
    // A version whose chain names a file the log was not asked about may
    // hide a change: asked again with it, a few times at most.
    let mut found = Vec::new();
    let mut h = History::default();
    for _ in 0..4 {
        let literal_specs: Vec<String> = specs.iter().map(|s| literal(s)).collect();
        h = history(root, &range, &literal_specs)?;
        found = walk_all(root, &h, base, &tip, now.as_ref(), values, &mut versions)?;
        let more: Vec<String> = versions
            .read
            .values()
            .filter_map(|v| match v {
                Version::Read { chain, .. } => Some(chain.iter()),
                Version::Undecidable(_) => None,
            })
            .flatten()
            .filter(|f| !specs.contains(f))
            .cloned()
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        if more.is_empty() {
            break;
        }
        specs.extend(more);
        specs.sort();
        specs.dedup();
    }
    let trusted = match trusted {
        Some(t) => trusted_version(&h, t, &mut versions)?,
        None => TrustedVersion::NotFound,
    };
    Ok((describe(root, found)?, trusted))
}

/// The newest commit of `h` (newest first) whose version hashes to the
/// trusted SHA-256 and whose links lead the recorded scopes to the
/// recorded targets, within [`MAX_VERSIONS`] versions read. A commit that
/// hashes the same but whose targets cannot be told ends the search: an
/// older one is not taken in its place.
fn trusted_version(
    h: &History,
    trusted: &Trusted,
    versions: &mut Versions<'_>,
) -> Result<TrustedVersion, Absent> {
    for id in &h.order {
        if !versions.has(id) && versions.count() >= MAX_VERSIONS {
            break;
        }
        let same = matches!(
            versions.at(id)?,
            Version::Read { sha256: Some(hash), .. } if *hash == trusted.sha256
        );
        if !same {
            continue;
        }
        match versions.targets_at(id, &trusted.targets)? {
            TargetsAt::Same => return Ok(TrustedVersion::Commit(id.clone())),
            TargetsAt::Differ => {}
            TargetsAt::Unknown(why) => return Ok(TrustedVersion::Unknown(why)),
        }
    }
    Ok(TrustedVersion::NotFound)
}

/// What the config on disk grants now (nothing when it does not load).
fn working_grants(config: &str, env: &Env) -> HashSet<(String, String)> {
    load_block_from(config, env, &Disk)
        .map(|b| grants_of(b.block.json()))
        .unwrap_or_default()
}

/// The `(request, value)` pairs a block grants.
fn grants_of(block: &crate::core::config::json::Json) -> HashSet<(String, String)> {
    block_values(block)
        .into_iter()
        .flat_map(|(r, vs)| vs.into_iter().map(move |v| (r.clone(), v)))
        .collect()
}

/// Each value's walk in history `h`.
fn walk_all(
    root: &str,
    h: &History,
    base: Option<&str>,
    tip: &str,
    now: Option<&HashSet<(String, String)>>,
    values: &[(String, String)],
    versions: &mut Versions<'_>,
) -> Result<Vec<Found>, Absent> {
    let walk = Walk {
        history: h,
        base,
        root,
    };
    let listed_tip = h.order.first().cloned();
    let mut out = Vec::with_capacity(values.len());
    for value in values {
        if now.is_some_and(|now| !now.contains(value)) {
            out.push(Found::Unknown("not granted by the config now".into()));
            continue;
        }
        match versions.at(tip)?.grants(value) {
            Err(why) => {
                out.push(Found::Unknown(why));
                continue;
            }
            Ok(false) if now.is_some() => {
                out.push(Found::Origin(String::new()));
                continue;
            }
            Ok(false) => {
                out.push(Found::Unknown("not granted at HEAD".into()));
                continue;
            }
            Ok(true) => {}
        }
        let Some(start) = &listed_tip else {
            // No commit of the range changed the files: as they were.
            out.push(match base {
                Some(_) => Found::AtBase,
                None => Found::Unknown("no commit changed the config's files".into()),
            });
            continue;
        };
        match versions.at(start)?.grants(value) {
            Ok(true) => out.push(walk.origin(versions, start, value)?),
            Ok(false) => out.push(Found::Unknown(format!(
                "the history of {} could not be followed",
                short(start)
            ))),
            Err(why) => out.push(Found::Unknown(why)),
        }
    }
    Ok(out)
}

/// The walks' ends as origins, their commits described at once (an empty
/// origin is a working-tree edit).
fn describe(root: &str, found: Vec<Found>) -> Result<Vec<ValueOrigin>, Absent> {
    let shas: HashSet<String> = found
        .iter()
        .filter_map(|f| match f {
            Found::Origin(s) if !s.is_empty() => Some(s.clone()),
            _ => None,
        })
        .collect();
    let commits: HashMap<String, Commit> = describe_commits(root, &shas)?;
    Ok(found
        .into_iter()
        .map(|f| match f {
            Found::Origin(s) if s.is_empty() => ValueOrigin::NotCommitted,
            Found::Origin(s) => match commits.get(&s) {
                Some(c) => ValueOrigin::Committed(c.clone()),
                None => ValueOrigin::Unknown(format!("commit {s} not described by git")),
            },
            Found::AtBase => ValueOrigin::AtBase,
            Found::Unknown(why) => ValueOrigin::Unknown(why),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_object_is_read_by_its_structure() {
        let mut bytes = b"100644 goccia.json\0".to_vec();
        bytes.extend([0xab; 20]);
        bytes.extend(b"40000 sub dir\0");
        bytes.extend([0x01; 20]);
        let items = parse_tree(&bytes, 20).unwrap();
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].name, b"goccia.json");
        assert_eq!(items[0].oid, "ab".repeat(20));
        assert_eq!(items[1].mode, b"40000");
        assert_eq!(items[1].name, b"sub dir");
        // Cut short: no tree, not a wrong one.
        assert!(parse_tree(&bytes[..bytes.len() - 1], 20).is_none());
    }
}

//! Finding the effective config of every directory under a path, as
//! `--trust <path>` does (docs/src/compatibility.md#scanning-a-directory).
//!
//! The walk follows directory links like Free Pascal's `FindFirst` (which
//! stats through them), skips entries named `node_modules` or `.git`, and in
//! each directory takes `goccia.toml`, else `goccia.json5`, else
//! `goccia.json`. A link counts as what it points to: a dangling
//! `goccia.toml` is not a file, so a real `goccia.json` beside it is the
//! config.
//!
//! It runs in parallel on rayon's pool. The file type comes from the
//! directory entry; links are stat'ed, and each directory once. Each
//! directory is walked once, identified by its device and inode, which is
//! what ends link loops (a directory reached twice is visited once,
//! silently). The resolved path of a real subdirectory is its parent's plus
//! its name, so only links need `realpath`.
//!
//! Two things differ from GocciaScript, which would walk on or skip in
//! silence:
//! * A directory link whose destination lies outside every given path (each
//!   path resolved first) is not walked: `root -> /` would walk the whole
//!   disk and trust configs that are not in the tree. It is reported in
//!   [`Discovery::not_followed`]; to review it, run on its destination.
//! * Whatever cannot be read (a directory, an entry, a link that cannot be
//!   stat'ed for a reason other than dangling) is reported in
//!   [`Discovery::unreadable`], as a config might hide there. Names that are
//!   not UTF-8 are walked; a config found under one cannot be keyed (a key is
//!   a JSON string), so it is reported as unreadable too, never dropped.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::fs;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::core::env::Env;
use crate::core::paths::input::check_input;
use crate::core::paths::key::{TrustKey, join_key, key_for_expanded, resolve_or_keep};
use crate::core::paths::{expand_file_name, expand_without_trailing_separator};

/// Config file names in priority order.
pub const CONFIG_NAMES: [&str; 3] = ["goccia.toml", "goccia.json5", "goccia.json"];

/// Entry names the walk never enters.
pub const SKIPPED_NAMES: [&str; 2] = ["node_modules", ".git"];

/// How often (in directories read) the progress callback is called.
const PROGRESS_EVERY: usize = 256;

/// Counts so far, for a progress display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WalkProgress {
    pub dirs: usize,
    pub configs: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiscoverError {
    /// Nothing exists at the path (a dangling link included). `path` is the
    /// argument as given, `expanded` the absolute path that was looked up.
    #[error("path not found: {path}")]
    NotFound { path: String, expanded: String },
}

/// Why a config under a directory whose path is not UTF-8 is reported.
pub const NOT_UTF8_KEY: &str = "the path is not UTF-8, so no trust key can name this config";

/// Something the walk could not read: a directory, or an entry in one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    /// The path as the walk reached it; bytes that are not UTF-8 are shown
    /// as `\xNN`.
    pub path: String,
    pub reason: String,
}

/// A directory link that leads out of every given path, so was not walked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotFollowed {
    /// The link, as the walk reached it.
    pub link: String,
    /// Where it leads, resolved.
    pub target: String,
}

impl NotFollowed {
    /// `not followed: repo/vendor -> /elsewhere (outside repo/)`: the link
    /// shown relative to `cwd`, `outside` naming the given paths.
    pub fn describe(&self, cwd: &str, outside: &str) -> String {
        format!(
            "not followed: {} -> {} (outside {outside})",
            crate::core::paths::display::display_path(&self.link, cwd),
            self.target
        )
    }
}

/// A config file that GocciaScript never reads, because a file of a
/// higher-priority name stands in the same directory: it is neither
/// trusted nor hashed, only reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shadowed {
    /// The shadowed file, as the walk reached it.
    pub path: String,
    /// The file GocciaScript reads instead.
    pub by: String,
}

impl Shadowed {
    /// `shadowed: app/goccia.json by app/goccia.toml (…)`, paths relative
    /// to `cwd`.
    pub fn describe(&self, cwd: &str) -> String {
        let by = crate::core::paths::display::display_path(&self.by, cwd);
        let name = self.by.rsplit('/').next().unwrap_or(&self.by);
        format!(
            "shadowed: {} by {by} (GocciaScript reads only {name} here; this file is neither trusted nor hashed)",
            crate::core::paths::display::display_path(&self.path, cwd),
        )
    }
}

/// The config file that shadows the one at `key` (a higher-priority name
/// in the same directory, which GocciaScript reads instead), if any.
pub fn shadowed_by(key: &str) -> Option<String> {
    let (dir, name) = key.rsplit_once('/')?;
    let rank = CONFIG_NAMES.iter().position(|c| *c == name)?;
    CONFIG_NAMES[..rank]
        .iter()
        .map(|better| format!("{dir}/{better}"))
        .find(|path| Path::new(path).is_file())
}

/// The configs found and what the walk could not or would not enter.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Discovery {
    /// Trust keys, de-duplicated, in byte order.
    pub keys: Vec<TrustKey>,
    /// In path byte order.
    pub unreadable: Vec<Unreadable>,
    /// In link byte order.
    pub not_followed: Vec<NotFollowed>,
    /// In path byte order.
    pub shadowed: Vec<Shadowed>,
}

/// The trust keys of the configs at or under `path`: a path that is not a
/// directory is itself the config, whatever its name.
#[cfg(test)]
pub fn discover(
    path: &str,
    env: &Env,
    progress: &(dyn Fn(WalkProgress) + Sync),
) -> Result<Vec<TrustKey>, DiscoverError> {
    discover_all(path, env, progress).map(|d| d.keys)
}

/// [`discover`], also reporting what could not be read or was not followed.
#[cfg(test)]
pub fn discover_all(
    path: &str,
    env: &Env,
    progress: &(dyn Fn(WalkProgress) + Sync),
) -> Result<Discovery, DiscoverError> {
    discover_paths(
        std::slice::from_ref(&path.to_string()),
        env,
        progress,
        &|| false,
    )
}

/// [`discover_all`] for a caller that may stop wanting the answer (the TUI
/// when a rescan supersedes a scan): once `stop` returns true no further
/// directory is read, and the result is incomplete.
#[cfg(test)]
pub fn discover_all_until(
    path: &str,
    env: &Env,
    progress: &(dyn Fn(WalkProgress) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Discovery, DiscoverError> {
    discover_paths(std::slice::from_ref(&path.to_string()), env, progress, stop)
}

/// Everything at or under several paths, walked together: a link is
/// followed when it leads into any of them, and a directory reached from
/// two of them is read once.
pub fn discover_paths(
    paths: &[String],
    env: &Env,
    progress: &(dyn Fn(WalkProgress) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Discovery, DiscoverError> {
    let mut keys = Vec::new();
    let mut dirs = Vec::new();
    for path in paths {
        let expanded = expand_without_trailing_separator(path, &env.cwd, &env.home);
        let kind = check_input(&expanded).map_err(|_| DiscoverError::NotFound {
            path: path.to_string(),
            expanded: expanded.clone(),
        })?;
        if kind.is_dir() {
            let real = PathBuf::from(resolve_or_keep(&expanded));
            let lexical = PathBuf::from(expanded);
            dirs.push(Dir {
                from: None,
                lexical: (lexical.as_os_str() != real.as_os_str()).then_some(lexical),
                real,
                entry: false,
            });
        } else {
            keys.push(key_for_expanded(&expanded));
        }
    }

    let walker = Walker {
        roots: dirs.iter().map(|d| d.real.clone()).collect(),
        visited: Mutex::new(HashSet::default()),
        held_open: Arc::new(AtomicUsize::new(0)),
        keys: Mutex::new(keys),
        unreadable: Mutex::new(Vec::new()),
        not_followed: Mutex::new(Vec::new()),
        shadowed: Mutex::new(Vec::new()),
        dirs: AtomicUsize::new(0),
        configs: AtomicUsize::new(0),
        progress,
        stop,
    };
    let walked = !dirs.is_empty();
    rayon::scope(|scope| {
        for dir in dirs {
            let walker = &walker;
            scope.spawn(move |scope| walker.walk(scope, dir));
        }
    });

    if walked {
        progress(walker.counts());
    }
    let mut keys = walker.keys.into_inner().unwrap_or_else(|e| e.into_inner());
    keys.sort_unstable();
    keys.dedup();
    let mut unreadable = walker
        .unreadable
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    unreadable.sort_unstable_by(|a, b| a.path.cmp(&b.path));
    unreadable.dedup();
    let mut not_followed = walker
        .not_followed
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    not_followed.sort_unstable_by(|a, b| a.link.cmp(&b.link));
    not_followed.dedup();
    let mut shadowed = walker
        .shadowed
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    shadowed.sort_unstable_by(|a, b| a.path.cmp(&b.path));
    shadowed.dedup();
    Ok(Discovery {
        keys,
        unreadable,
        not_followed,
        shadowed,
    })
}

/// A path as text: bytes that are not UTF-8 are written `\xNN`, so a name
/// is shown, never dropped or confused with another.
pub fn path_text(path: &Path) -> String {
    bytes_text(path.as_os_str().as_encoded_bytes())
}

/// [`path_text`] of a name given as bytes (as git lists a tree).
pub fn bytes_text(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// The OS's description of an I/O error, without Rust's ` (os error N)`.
pub use crate::core::paths::input::os_words as io_reason;

/// A directory to read: the path the walk reached it by, and the same
/// directory with links resolved.
struct Dir {
    /// Absent when it is `real` (no link on the way): most directories,
    /// whose path is then made once.
    lexical: Option<PathBuf>,
    real: PathBuf,
    /// The directory it is an entry of, when that is held open (then
    /// `real` ends with its name there).
    from: Option<Arc<Parent>>,
    /// Listed as a directory entry (not a root, not a link's target): it
    /// must still be a directory, not a link, when it is opened.
    entry: bool,
}

impl Dir {
    /// The path the walk reached it by.
    fn lexical(&self) -> &Path {
        self.lexical.as_deref().unwrap_or(&self.real)
    }
}

/// Hashes the walk's directory ids (device, inode) with a multiply and a
/// rotate per word instead of SipHash: the ids come from the file system,
/// not from the tree's contents, and there is one per directory walked.
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

struct Walker<'p> {
    /// The given directories, resolved: links are followed only into these.
    roots: Vec<PathBuf>,
    /// Device and inode of the directories already taken by some worker.
    visited: Mutex<HashSet<(u64, u64), BuildHasherDefault<IdHasher>>>,
    /// Directories held open for their subdirectories.
    held_open: Arc<AtomicUsize>,
    keys: Mutex<Vec<TrustKey>>,
    unreadable: Mutex<Vec<Unreadable>>,
    not_followed: Mutex<Vec<NotFollowed>>,
    shadowed: Mutex<Vec<Shadowed>>,
    dirs: AtomicUsize,
    configs: AtomicUsize,
    progress: &'p (dyn Fn(WalkProgress) + Sync),
    stop: &'p (dyn Fn() -> bool + Sync),
}

impl<'p> Walker<'p> {
    /// True for the first worker to reach a directory.
    fn claim(&self, id: (u64, u64)) -> bool {
        let mut visited = self.visited.lock().unwrap_or_else(|e| e.into_inner());
        visited.insert(id)
    }

    fn unreadable(&self, path: &Path, reason: String) {
        let mut list = self.unreadable.lock().unwrap_or_else(|e| e.into_inner());
        list.push(Unreadable {
            path: path_text(path),
            reason,
        });
    }

    fn inside(&self, real: &Path) -> bool {
        self.roots.iter().any(|root| real.starts_with(root))
    }

    fn counts(&self) -> WalkProgress {
        WalkProgress {
            dirs: self.dirs.load(Ordering::Relaxed),
            configs: self.configs.load(Ordering::Relaxed),
        }
    }

    fn walk<'s>(&'s self, scope: &rayon::Scope<'s>, dir: Dir) {
        if (self.stop)() {
            return;
        }
        let mut configs = ConfigNames::default();
        let mut entry = |name: &OsStr, kind: std::io::Result<Kind>, this: Option<&Arc<Parent>>| {
            if let Some(child) = self.entry(&dir, name, kind, this, &mut configs) {
                scope.spawn(move |scope| self.walk(scope, child));
            }
        };
        let listed = list_dir(
            &dir.real,
            dir.from.as_deref(),
            dir.entry,
            &self.held_open,
            &|id| self.claim(id),
            &mut entry,
        );
        match listed {
            Ok(Listing::Read(None)) => {}
            // Listing stopped part way: what was listed is walked.
            Ok(Listing::Read(Some(e))) => self.unreadable(dir.lexical(), io_reason(&e)),
            Ok(Listing::Taken) => return,
            Err(e) => return self.unreadable(dir.lexical(), io_reason(&e)),
        }
        if let Some(rank) = configs.best {
            self.found_config(&dir, rank, configs.seen);
        }
        if self.dirs.fetch_add(1, Ordering::Relaxed) % PROGRESS_EVERY == PROGRESS_EVERY - 1 {
            (self.progress)(self.counts());
        }
    }

    /// One entry of `dir` (`this` when `dir` is held open): a file is noted
    /// in `configs` by its name; a directory, or a link to one inside the
    /// roots, is returned to be walked. What cannot be read is reported; a
    /// link leading outside the roots is reported as not followed.
    fn entry(
        &self,
        dir: &Dir,
        name: &OsStr,
        kind: std::io::Result<Kind>,
        this: Option<&Arc<Parent>>,
        configs: &mut ConfigNames,
    ) -> Option<Dir> {
        let bytes = name.as_encoded_bytes();
        if SKIPPED_NAMES.iter().any(|s| s.as_bytes() == bytes) {
            return None;
        }
        let kind = match kind {
            Ok(kind) => kind,
            Err(e) => {
                self.unreadable(&dir.lexical().join(name), io_reason(&e));
                return None;
            }
        };
        if !self.is_dir(dir, name, kind)? {
            configs.note(bytes);
            return None;
        }
        let lexical = match (&dir.lexical, kind) {
            (None, Kind::Dir) => None,
            _ => Some(dir.lexical().join(name)),
        };
        let real = if kind == Kind::Link {
            self.link_target(dir, name)?
        } else {
            dir.real.join(name)
        };
        if kind == Kind::Link && !self.inside(&real) {
            let mut list = self.not_followed.lock().unwrap_or_else(|e| e.into_inner());
            list.push(NotFollowed {
                link: path_text(&dir.lexical().join(name)),
                target: path_text(&real),
            });
            return None;
        }
        let from = if kind == Kind::Link {
            None
        } else {
            this.cloned()
        };
        Some(Dir {
            lexical,
            real,
            from,
            entry: kind == Kind::Dir,
        })
    }

    /// Whether the entry is a directory; for a link, whether what it points
    /// to is. `None` for a dangling or looping link (neither a file nor a
    /// directory: skipped) and for one that cannot be read (reported).
    fn is_dir(&self, dir: &Dir, name: &OsStr, kind: Kind) -> Option<bool> {
        match kind {
            Kind::Dir => Some(true),
            Kind::Other => Some(false),
            Kind::Link => match fs::metadata(dir.real.join(name)) {
                Ok(meta) => Some(meta.is_dir()),
                Err(e)
                    if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory)
                        || e.raw_os_error() == Some(libc::ELOOP) =>
                {
                    None
                }
                Err(e) => {
                    self.unreadable(&dir.lexical().join(name), io_reason(&e));
                    None
                }
            },
        }
    }

    /// Where the link `name` in `dir` leads, resolved; `None` (reported)
    /// when it cannot be resolved.
    fn link_target(&self, dir: &Dir, name: &OsStr) -> Option<PathBuf> {
        let through = dir.real.join(name);
        let resolved = match through.to_str() {
            Some(s) => crate::core::paths::realpath::realpath(s).map(PathBuf::from),
            None => fs::canonicalize(&through),
        };
        match resolved {
            Ok(real) => Some(real),
            Err(e) => {
                self.unreadable(&dir.lexical().join(name), io_reason(&e));
                None
            }
        }
    }

    /// The config of `dir`, CONFIG_NAMES[`rank`], found: every other config
    /// name `seen` there that it shadows is reported, and its key kept (or
    /// reported unreadable when the directory's path is not UTF-8).
    fn found_config(&self, dir: &Dir, rank: usize, seen: u8) {
        let name = CONFIG_NAMES[rank];
        for (r, other) in CONFIG_NAMES.iter().enumerate().skip(rank + 1) {
            if seen & (1 << r) != 0 {
                self.shadowed
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(Shadowed {
                        path: path_text(&dir.lexical().join(other)),
                        by: path_text(&dir.lexical().join(name)),
                    });
            }
        }
        match dir.real.to_str() {
            Some(real) => {
                let key = config_key(dir.lexical().to_str(), real, name);
                self.keys
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(key);
                self.configs.fetch_add(1, Ordering::Relaxed);
            }
            None => self.unreadable(&dir.lexical().join(name), NOT_UTF8_KEY.into()),
        }
    }
}

/// The config names among a directory's files: the index into
/// CONFIG_NAMES of the best one, and every one seen (a bit per index).
#[derive(Default)]
struct ConfigNames {
    best: Option<usize>,
    seen: u8,
}

impl ConfigNames {
    /// A file of the directory, by name.
    fn note(&mut self, name: &[u8]) {
        let rank = CONFIG_NAMES.iter().position(|c| c.as_bytes() == name);
        if let Some(r) = rank {
            self.seen |= 1 << r;
        }
        self.best = match (self.best, rank) {
            (Some(b), Some(r)) => Some(b.min(r)),
            (b, r) => b.or(r),
        };
    }
}

/// The key of the config `name` in `dir`. GocciaScript keys the path the
/// walk found, through `ExpandFileName`; that only differs from the resolved
/// directory plus the name when a directory name on the way holds a `\`,
/// which ExpandFileName turns into `/`.
fn config_key(lexical: Option<&str>, real: &str, name: &str) -> TrustKey {
    if let Some(lexical) = lexical
        && lexical.contains('\\')
    {
        let found = format!("{lexical}/{name}");
        key_for_expanded(&expand_file_name(&found, "/", ""))
    } else {
        join_key(real, name)
    }
}

mod listing;
// Unix-only tests (modes, links, owners); Windows builds the rest.
#[cfg(all(test, unix))]
mod tests;

use listing::{Kind, Listing, Parent, list_dir};

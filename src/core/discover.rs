//! Finding the effective config of every directory under a path, as
//! `--trust <path>` does (goccia-reference.md §8).
//!
//! The walk follows directory links like Free Pascal's `FindFirst` (which
//! stats through them), skips entries named `node_modules` or `.git`, and in
//! each directory takes `goccia.toml`, else `goccia.json5`, else
//! `goccia.json`. A link counts as what it points to: a dangling
//! `goccia.toml` is not a file, so a real `goccia.json` beside it is the
//! config.
//!
//! It runs in parallel on rayon's pool. The file type comes from the
//! directory entry; only links are stat'ed. Each directory is walked once,
//! identified by its resolved path, which is what ends link loops. The
//! resolved path of a real subdirectory is its parent's plus its name, so
//! only links need `realpath`.
//!
//! An unreadable directory is skipped, as `FindFirst` finds nothing in it;
//! [`discover_all`] reports each one so a caller can say so.

use std::collections::HashSet;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::core::env::Env;
use crate::core::key::{TrustKey, join_key, key_for_expanded, resolve_or_keep};
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

/// A directory the walk could not enter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedDir {
    pub path: String,
    pub reason: String,
}

/// The configs found and the directories that could not be walked.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Discovery {
    /// Trust keys, de-duplicated, in byte order.
    pub keys: Vec<TrustKey>,
    /// In path byte order.
    pub skipped: Vec<SkippedDir>,
}

/// The trust keys of the configs at or under `path`: a path that is not a
/// directory is itself the config, whatever its name.
pub fn discover(
    path: &str,
    env: &Env,
    progress: &(dyn Fn(WalkProgress) + Sync),
) -> Result<Vec<TrustKey>, DiscoverError> {
    discover_all(path, env, progress).map(|d| d.keys)
}

/// [`discover`], also reporting the directories that could not be read.
pub fn discover_all(
    path: &str,
    env: &Env,
    progress: &(dyn Fn(WalkProgress) + Sync),
) -> Result<Discovery, DiscoverError> {
    discover_all_until(path, env, progress, &|| false)
}

/// [`discover_all`] for a caller that may stop wanting the answer (the TUI
/// when a rescan supersedes a scan): once `stop` returns true no further
/// directory is read, and the result is incomplete.
pub fn discover_all_until(
    path: &str,
    env: &Env,
    progress: &(dyn Fn(WalkProgress) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Discovery, DiscoverError> {
    let expanded = expand_without_trailing_separator(path, &env.cwd, &env.home);
    let meta = fs::metadata(&expanded).map_err(|_| DiscoverError::NotFound {
        path: path.to_string(),
        expanded: expanded.clone(),
    })?;
    if !meta.is_dir() {
        return Ok(Discovery {
            keys: vec![key_for_expanded(&expanded)],
            skipped: Vec::new(),
        });
    }

    let walker = Walker {
        visited: Mutex::new(HashSet::new()),
        keys: Mutex::new(Vec::new()),
        skipped: Mutex::new(Vec::new()),
        dirs: AtomicUsize::new(0),
        configs: AtomicUsize::new(0),
        progress,
        stop,
    };
    let root = Dir {
        real: resolve_or_keep(&expanded),
        lexical: expanded,
    };
    walker.claim(&root.real);
    rayon::scope(|scope| walker.walk(scope, root));

    progress(walker.counts());
    let mut keys = walker.keys.into_inner().unwrap_or_else(|e| e.into_inner());
    keys.sort_unstable();
    keys.dedup();
    let mut skipped = walker
        .skipped
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    skipped.sort_unstable_by(|a, b| a.path.cmp(&b.path));
    Ok(Discovery { keys, skipped })
}

/// A directory to read: the path the walk reached it by, and the same
/// directory with links resolved.
struct Dir {
    lexical: String,
    real: String,
}

struct Walker<'p> {
    /// Resolved paths of the directories already taken by some worker.
    visited: Mutex<HashSet<String>>,
    keys: Mutex<Vec<TrustKey>>,
    skipped: Mutex<Vec<SkippedDir>>,
    dirs: AtomicUsize,
    configs: AtomicUsize,
    progress: &'p (dyn Fn(WalkProgress) + Sync),
    stop: &'p (dyn Fn() -> bool + Sync),
}

impl<'p> Walker<'p> {
    /// True for the first worker to reach a directory.
    fn claim(&self, real: &str) -> bool {
        let mut visited = self.visited.lock().unwrap_or_else(|e| e.into_inner());
        visited.insert(real.to_string())
    }

    fn skip(&self, path: String, reason: String) {
        let mut skipped = self.skipped.lock().unwrap_or_else(|e| e.into_inner());
        skipped.push(SkippedDir { path, reason });
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
        let read = match fs::read_dir(&dir.real) {
            Ok(read) => read,
            Err(e) => return self.skip(dir.lexical, e.to_string()),
        };
        // Index into CONFIG_NAMES of the best config seen so far.
        let mut best: Option<usize> = None;
        for entry in read {
            let Ok(entry) = entry else {
                continue;
            };
            let name = entry.file_name();
            let bytes = name.as_bytes();
            if SKIPPED_NAMES.iter().any(|s| s.as_bytes() == bytes) {
                continue;
            }
            let rank = CONFIG_NAMES.iter().position(|c| c.as_bytes() == bytes);
            let Ok(file_type) = entry.file_type() else {
                continue;
            };
            let is_dir = if file_type.is_symlink() {
                // The one stat the walk makes: what the link points to.
                match fs::metadata(entry.path()) {
                    Ok(meta) => meta.is_dir(),
                    Err(_) => continue, // dangling: neither a file nor a directory
                }
            } else {
                file_type.is_dir()
            };
            if !is_dir {
                best = match (best, rank) {
                    (Some(b), Some(r)) => Some(b.min(r)),
                    (b, r) => b.or(r),
                };
                continue;
            }
            let Some(name) = name.to_str() else {
                self.skip(
                    format!("{}/{}", dir.lexical, name.to_string_lossy()),
                    "the name is not UTF-8".into(),
                );
                continue;
            };
            let real = if file_type.is_symlink() {
                resolve_or_keep(&format!("{}/{name}", dir.real))
            } else {
                join_key(&dir.real, name).0
            };
            if self.claim(&real) {
                let child = Dir {
                    lexical: join_key(&dir.lexical, name).0,
                    real,
                };
                scope.spawn(move |scope| self.walk(scope, child));
            }
        }
        if let Some(rank) = best {
            let key = config_key(&dir, CONFIG_NAMES[rank]);
            self.keys
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(key);
            self.configs.fetch_add(1, Ordering::Relaxed);
        }
        if self.dirs.fetch_add(1, Ordering::Relaxed) % PROGRESS_EVERY == PROGRESS_EVERY - 1 {
            (self.progress)(self.counts());
        }
    }
}

/// The key of the config `name` in `dir`. GocciaScript keys the path the
/// walk found, through `ExpandFileName`; that only differs from the resolved
/// directory plus the name when a directory name on the way holds a `\`,
/// which ExpandFileName turns into `/`.
fn config_key(dir: &Dir, name: &str) -> TrustKey {
    if dir.lexical.contains('\\') {
        let found = format!("{}/{name}", dir.lexical);
        key_for_expanded(&expand_file_name(&found, "/", ""))
    } else {
        join_key(&dir.real, name)
    }
}

#[cfg(test)]
mod tests;

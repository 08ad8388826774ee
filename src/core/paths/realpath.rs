//! `realpath(3)` with an optional memo of resolved directories.
//!
//! glibc's `realpath` calls `readlink` on every component of every path, so
//! resolving the trust key and the targets of 10,000 configs costs hundreds
//! of thousands of system calls, nearly all for the same shared ancestors.
//! This resolves one component at a time, remembering what each canonical
//! prefix + name resolved to, so a shared ancestor is examined once.
//!
//! The memo is only valid while the filesystem holds still, so it is off by
//! default and a one-shot command turns it on for its own duration with
//! [`enable_cache`]; long-lived callers (the TUI) resolve afresh every time.
//! Each thread keeps its own memo, so the walk's workers never wait on a
//! shared lock; [`forget`] empties them all.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// How many symbolic links one resolution may follow (Linux's `MAXSYMLINKS`).
const MAX_LINKS: usize = 40;

/// How many [`CacheGuard`]s are alive: the memo is on while any is.
static ENABLED: AtomicUsize = AtomicUsize::new(0);
/// Bumped whenever the memo is turned on or off or [`forget`] is called: a
/// thread's memo filled under an older generation is stale and is emptied
/// before its next use.
static GENERATION: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// This thread's memo (each rayon worker has its own, so no worker waits
    /// on another): canonical prefix + name → what it resolved to; `None`
    /// when it does not resolve (missing, not a directory, a loop).
    static MEMO: RefCell<(u64, HashMap<String, Option<String>>)> =
        RefCell::new((0, HashMap::new()));
}

/// Turns the memo on until the guard is dropped.
pub fn enable_cache() -> CacheGuard {
    ENABLED.fetch_add(1, Ordering::SeqCst);
    GENERATION.fetch_add(1, Ordering::SeqCst);
    CacheGuard(())
}

pub struct CacheGuard(());

impl Drop for CacheGuard {
    fn drop(&mut self) {
        ENABLED.fetch_sub(1, Ordering::SeqCst);
        GENERATION.fetch_add(1, Ordering::SeqCst);
    }
}

/// Empties the memo of every thread (it stays on): for a check that must
/// see the disk as it is now, such as the one under the store lock before a
/// trust is recorded.
pub fn forget() {
    GENERATION.fetch_add(1, Ordering::SeqCst);
}

/// `f` on this thread's memo, when the memo is on.
fn with_memo<R>(f: impl FnOnce(&mut HashMap<String, Option<String>>) -> R) -> Option<R> {
    if ENABLED.load(Ordering::SeqCst) == 0 {
        return None;
    }
    let generation = GENERATION.load(Ordering::SeqCst);
    MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        if memo.0 != generation {
            memo.1.clear();
            memo.0 = generation;
        }
        Some(f(&mut memo.1))
    })
}

/// Tells the memo (when it is on) that `dir` and each of its ancestors is
/// a directory that is its own canonical path: a file below `dir` was just
/// opened by an open that follows no link (`bounded::read_config_regular`),
/// so every component was walked as a real directory. Only an absolute
/// `dir` with no empty, `.` or `..` component is taken (`/a/../b` or `/a//b`
/// is not its own canonical path); any other is ignored. A config's
/// directory is then not examined again when its scopes are resolved.
/// Linux only, as that open is.
#[cfg(target_os = "linux")]
pub fn note_canonical_dir(dir: &str) {
    let clean = dir
        .strip_prefix('/')
        .is_some_and(|rest| rest.split('/').all(|c| !matches!(c, "" | "." | "..")));
    if !clean {
        return;
    }
    let mut at = dir;
    // Up to the first ancestor the memo already knows to resolve.
    while at != "/" && !matches!(cached(at), Some(Some(_))) {
        if with_memo(|m| m.insert(at.to_string(), Some(ITSELF.to_string()))).is_none() {
            return;
        }
        at = parent(at);
    }
}

/// The canonical path of an absolute `path`: every symbolic link resolved,
/// `.` and `..` applied to the resolved prefix, as `realpath(3)` does. Fails
/// like it when a component is missing, is not a directory, or links loop.
/// A result that is not UTF-8 is an error (a key is a JSON string).
pub fn realpath(path: &str) -> io::Result<String> {
    if !path.starts_with('/') {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not an absolute path",
        ));
    }
    // Whole paths are remembered too, failures included: a missing scope is
    // asked about again for every config that names it.
    if let Some(hit) = cached(path) {
        return hit.ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "does not resolve"));
    }
    // Resolution starts from the longest prefix already resolved (the
    // config's own directory, usually), not from `/`: a key names the same
    // path whatever it is a prefix of, so its answer holds for the rest.
    let (base, rest) = longest_resolved_prefix(path).unwrap_or_else(|| ("/".to_string(), path));
    let mut links = 0;
    let result = resolve(&base, rest, &mut links);
    remember(path.to_string(), result.as_ref().ok().map(String::as_str));
    result
}

/// The canonical path of the longest prefix of the absolute `path` that
/// resolves, and the byte index in `path` where the unresolved rest starts
/// (`path.len()` when all of it resolves). `path`'s components are walked
/// once, from the root: a prefix resolves only when every shorter one does,
/// so the first component that fails ends the walk. Linear in the number of
/// components, where asking [`realpath`] of each ancestor in turn would be
/// quadratic (and cubic with the memo's prefix look-ups).
pub fn longest_resolving_prefix(path: &str) -> (String, usize) {
    let mut resolved = "/".to_string();
    let mut at = 0;
    let mut links = 0;
    let mut start = 0;
    for comp in path.split('/') {
        let end = start + comp.len();
        start = end + 1;
        match comp {
            "" | "." => {}
            ".." => resolved = parent(&resolved).to_string(),
            _ => {
                let candidate = join(&resolved, comp);
                let step = match cached(&candidate) {
                    Some(Some(hit)) => Ok(hit),
                    Some(None) => break,
                    None => resolve(&resolved, comp, &mut links),
                };
                match step {
                    Ok(real) => resolved = real,
                    Err(_) => break,
                }
            }
        }
        at = end.min(path.len());
    }
    (resolved, at)
}

fn join(dir: &str, name: &str) -> String {
    let mut path = String::with_capacity(dir.len() + 1 + name.len());
    path.push_str(dir);
    if dir != "/" {
        path.push('/');
    }
    path.push_str(name);
    path
}

/// The longest proper prefix of `path` (ending before one of its `/`) the
/// memo knows to resolve, with what it resolved to and the rest after it.
fn longest_resolved_prefix(path: &str) -> Option<(String, &str)> {
    path.rmatch_indices('/')
        .filter(|&(i, _)| i > 0)
        .find_map(|(i, _)| match cached(&path[..i]) {
            // An empty component is no component: the rest is relative
            // to the prefix even where `//` cut it.
            Some(Some(real)) => Some((real, path[i + 1..].trim_start_matches('/'))),
            _ => None,
        })
}

fn parent(dir: &str) -> &str {
    match dir.rfind('/') {
        Some(0) | None => "/",
        Some(i) => &dir[..i],
    }
}

/// `Some(result)` when the memo is on and knows `key`.
fn cached(key: &str) -> Option<Option<String>> {
    with_memo(|m| {
        m.get(key).map(|value| {
            value.as_deref().map(|real| match real {
                ITSELF => key.to_string(),
                _ => real.to_string(),
            })
        })
    })
    .flatten()
}

/// What the memo holds for a path that is its own canonical path (most of
/// them): no copy of it. Never a real answer, which is absolute.
const ITSELF: &str = "";

/// How many paths a thread's memo holds before it starts afresh. A walk of
/// 20,000 configs would otherwise keep every directory and scope it ever
/// resolved (megabytes) when what pays is the shared ancestors, which the
/// next few configs resolve again at once.
const MEMO_MAX: usize = 4096;

fn remember(key: String, value: Option<&str>) {
    with_memo(|m| {
        if m.len() >= MEMO_MAX {
            m.clear();
            m.shrink_to(MEMO_MAX);
        }
        let value = value.map(|real| match real == key {
            true => String::new(),
            false => real.to_string(),
        });
        m.insert(key, value)
    });
}

/// Resolves `path` (absolute, or relative to the canonical `base`).
fn resolve(base: &str, path: &str, links: &mut usize) -> io::Result<String> {
    let mut resolved = if path.starts_with('/') {
        "/".to_string()
    } else {
        base.to_string()
    };
    let mut components = path.split('/').filter(|c| !c.is_empty()).peekable();
    while let Some(comp) = components.next() {
        match comp {
            "." => continue,
            ".." => {
                resolved = parent(&resolved).to_string();
                continue;
            }
            _ => {}
        }
        let candidate = join(&resolved, comp);
        if let Some(Some(hit)) = cached(&candidate) {
            resolved = hit;
            continue;
        }
        let meta = std::fs::symlink_metadata(&candidate)?;
        let real = if meta.file_type().is_symlink() {
            *links += 1;
            if *links > MAX_LINKS {
                return Err(io::Error::other("too many levels of symbolic links"));
            }
            let target = std::fs::read_link(&candidate)?
                .into_os_string()
                .into_string()
                .map_err(|_| {
                    io::Error::new(io::ErrorKind::InvalidData, "link target is not UTF-8")
                })?;
            resolve(&resolved, &target, links)?
        } else {
            if components.peek().is_some() && !meta.is_dir() {
                return Err(io::Error::new(
                    io::ErrorKind::NotADirectory,
                    "not a directory",
                ));
            }
            // Not a link: it is its own canonical path.
            remember(candidate.clone(), Some(&candidate));
            resolved = candidate;
            continue;
        };
        remember(candidate, Some(&real));
        resolved = real;
    }
    Ok(resolved)
}

// Unix-only tests (modes, links, owners); Windows builds the rest.
#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn std_realpath(p: &str) -> Option<String> {
        std::fs::canonicalize(p)
            .ok()
            .and_then(|p| p.into_os_string().into_string().ok())
    }

    #[test]
    fn agrees_with_the_system_realpath() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir
            .path()
            .canonicalize()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let at = |p: &str| format!("{root}/{p}");
        std::fs::create_dir_all(at("a/b/c")).unwrap();
        std::fs::write(at("a/b/file"), "").unwrap();
        symlink(at("a/b"), at("abs")).unwrap();
        symlink("a/b/c", at("rel")).unwrap();
        symlink("../..", at("a/b/c/up")).unwrap();
        symlink("nowhere", at("dangling")).unwrap();
        symlink("loop2", at("loop1")).unwrap();
        symlink("loop1", at("loop2")).unwrap();
        symlink("file", at("a/b/filelink")).unwrap();
        let cases = [
            "a",
            "a/b/c",
            "abs",
            "abs/c",
            "rel",
            "rel/up",
            "rel/up/b/c/up",
            "a/b/c/../..",
            "abs/..",
            "rel/..",
            "dangling",
            "dangling/x",
            "loop1",
            "a/b/file",
            "a/b/file/x",
            "a/b/filelink",
            "a/b/filelink/x",
            "missing",
            "a/./b/./c",
            "rel/up/../a",
            // Empty components, after a prefix the memo knows.
            "a//b",
            "a//b//c",
            "abs//c",
            "rel//up//a",
        ];
        for cached in [false, true] {
            let _guard = cached.then(enable_cache);
            for _ in 0..2 {
                for case in cases {
                    let p = at(case);
                    assert_eq!(
                        realpath(&p).ok(),
                        std_realpath(&p),
                        "{case} (cache {cached})"
                    );
                }
            }
        }
        assert_eq!(realpath("/").unwrap(), "/");
    }

    /// A directory noted as canonical is taken as such by the memo; one
    /// written with `..`, `.` or an empty component is not noted, so it
    /// still resolves through the link in it.
    #[cfg(target_os = "linux")]
    #[test]
    fn only_a_clean_directory_is_noted_canonical() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let root = root.to_str().unwrap();
        let at = |p: &str| format!("{root}/{p}");
        std::fs::create_dir_all(at("a/real")).unwrap();
        std::fs::write(at("a/real/x"), "").unwrap();
        symlink("real", at("a/link")).unwrap();
        let _guard = enable_cache();
        for unclean in ["a/../a/link", "a/./link", "a//link"] {
            // Each on a thread of its own, whose memo starts empty.
            std::thread::scope(|s| {
                s.spawn(|| {
                    note_canonical_dir(&at(unclean));
                    assert_eq!(realpath(&at(unclean)).ok(), Some(at("a/real")), "{unclean}");
                });
            });
        }
        note_canonical_dir("a/link");
        // A clean one is believed (here, wrongly: it is a link).
        note_canonical_dir(&at("a/link"));
        assert_eq!(realpath(&at("a/link/x")).unwrap(), at("a/link/x"));
        forget();
        assert_eq!(realpath(&at("a/link/x")).unwrap(), at("a/real/x"));
    }

    /// The longest resolving prefix, found in one forward walk, is the
    /// deepest ancestor `realpath` resolves, as asking each ancestor from
    /// the deepest up finds it.
    #[test]
    fn the_longest_resolving_prefix_is_the_deepest_resolving_ancestor() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let root = root.to_str().unwrap();
        let at = |p: &str| format!("{root}/{p}");
        std::fs::create_dir_all(at("a/b/c")).unwrap();
        std::fs::write(at("a/file"), "").unwrap();
        symlink(at("a/b"), at("abs")).unwrap();
        symlink("nowhere", at("dangling")).unwrap();
        symlink("loop2", at("loop1")).unwrap();
        symlink("loop1", at("loop2")).unwrap();
        symlink(".", at("self")).unwrap();
        let self_chain = vec!["self"; 50].join("/");
        let cases = [
            "a/b/c",
            "a/b/missing/deeper",
            "abs/c/x/y",
            "dangling/x",
            "loop1/x",
            "a/file/x/y",
            "missing",
            self_chain.as_str(),
        ];
        for cached in [false, true] {
            let _guard = cached.then(enable_cache);
            for case in cases {
                let p = at(case);
                let mut want = (String::new(), String::new());
                let mut cur = p.as_str();
                // (The memo, as `realpath` itself, follows a link it has
                // met before without counting it again.)
                while realpath(cur).is_err() {
                    let cut = cur.rfind('/').unwrap();
                    cur = &p[..cut.max(1)];
                }
                want.0 = realpath(cur).unwrap();
                want.1 = p[cur.len()..].trim_start_matches('/').to_string();
                let (real, rest) = longest_resolving_prefix(&p);
                let got = (real, p[rest..].trim_start_matches('/').to_string());
                assert_eq!(got, want, "{case} (cache {cached})");
            }
        }
    }
}

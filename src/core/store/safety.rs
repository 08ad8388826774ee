//! Who may write the store: its owner only (issue 10 "who decides").
//!
//! A store anyone can write hands anyone the power to trust configs for its
//! owner, like an `authorized_keys` others can write (OpenSSH `StrictModes`)
//! or a repository owned by someone else (git `safe.directory`). So the store
//! file, the directory holding it (and, for a store reached through links,
//! the directory of each link and of the file they lead to) and the state
//! directory must be:
//!
//! * owned by the current user, or by root when the user cannot write them;
//! * not writable by others, except a sticky directory such as `/tmp`, where
//!   nobody can replace a file they do not own: there the store file itself
//!   must be the user's (checked as a file) or not exist yet (it is then
//!   created by this command, exclusively);
//! * not writable by a group, unless it is the user's own private group (same
//!   name as the user, no other members), since umask 002 systems are common:
//!   any other group is only a warning.
//!
//! Writers refuse on the first [`Severity::Refuse`] issue; readers show every
//! issue as a warning. The texts name the path, the problem and the fix.

#[cfg(unix)]
use std::ffi::CStr;
use std::io::ErrorKind;
#[cfg(unix)]
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::error::StoreError;
use super::location::StoreLocation;
#[cfg(unix)]
use crate::core::paths::display::shell_quote;

/// Whether an issue stops a command that writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// Writers refuse (exit 1, nothing written); readers warn.
    Refuse,
    /// Everyone goes on, with a warning (only the Unix checks warn).
    #[cfg_attr(windows, allow(dead_code))]
    Warn,
}

/// One problem with the store or the state directory, as printed after
/// `Error: ` (a refusing writer) or `Warning: `.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SafetyIssue {
    pub severity: Severity,
    pub text: String,
}

/// The user the checks are made for: the effective uid, since that is
/// whose rights open the files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub uid: u32,
    pub name: Option<String>,
}

impl User {
    #[cfg(unix)]
    pub fn current() -> User {
        let uid = rustix::process::geteuid().as_raw();
        User {
            uid,
            name: user_name(uid),
        }
    }

    /// Windows: no uid; the owner and mode checks below are Unix-only
    /// (README "Platforms").
    #[cfg(windows)]
    pub fn current() -> User {
        User { uid: 0, name: None }
    }

    #[cfg_attr(windows, allow(dead_code))]
    fn describe(&self) -> String {
        match &self.name {
            Some(n) => format!("uid {}, {n}", self.uid),
            None => format!("uid {}", self.uid),
        }
    }
}

/// The first issue that stops a writer, if any.
pub fn refusal(issues: &[SafetyIssue]) -> Option<&SafetyIssue> {
    issues.iter().find(|i| i.severity == Severity::Refuse)
}

/// What a kind of path is called in messages.
#[derive(Debug, Clone, Copy)]
enum Role {
    StoreFile,
    StoreDir,
    /// The nearest existing ancestor of a store directory still to create.
    StoreDirParent,
    StateDir,
    StateDirParent,
}

#[cfg_attr(windows, allow(dead_code))]
impl Role {
    fn label(self) -> &'static str {
        match self {
            Role::StoreFile => "the trust store",
            Role::StoreDir => "the trust store directory",
            Role::StoreDirParent => "the directory that would hold the trust store,",
            Role::StateDir => "the state directory",
            Role::StateDirParent => "the directory that would hold the state directory,",
        }
    }

    fn is_file(self) -> bool {
        matches!(self, Role::StoreFile)
    }
}

/// Where a store's bytes really are: the store path with every link
/// resolved, `None` when nothing is there yet. A link leading nowhere is an
/// error, never a new store (it would silently replace the link).
pub fn store_destination(path: &str) -> Result<Option<PathBuf>, StoreError> {
    match std::fs::symlink_metadata(path) {
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => Ok(None),
        Err(e) => Err(StoreError::Unreadable {
            path: path.to_string(),
            cause: super::error::io_cause(&e),
        }),
        Ok(_) => match std::fs::canonicalize(path) {
            Ok(dest) => Ok(Some(dest)),
            Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
                Err(StoreError::DanglingLink {
                    path: path.to_string(),
                    target: std::fs::read_link(path)
                        .map(|t| t.display().to_string())
                        .unwrap_or_else(|_| "?".into()),
                })
            }
            Err(e) => Err(StoreError::Unreadable {
                path: path.to_string(),
                cause: super::error::io_cause(&e),
            }),
        },
    }
}

/// Every ownership and mode issue of the store `loc` for `user`: the file
/// (its final destination), the directory holding the path as given, and the
/// destination's directory when a link leads elsewhere. A store that cannot
/// be resolved (a dangling link) is reported by the read itself.
pub fn check_store(loc: &StoreLocation, user: &User) -> Vec<SafetyIssue> {
    let mut issues = Vec::new();
    let given_dir = loc.dir();
    let mut dirs = Vec::new();
    match std::fs::canonicalize(given_dir) {
        Ok(d) => dirs.push(d),
        Err(_) => {
            // The directory is still to be created (0700, by this command):
            // what matters is who can write where it will be made.
            if let Some(parent) = nearest_existing(given_dir) {
                check_path(&parent, Role::StoreDirParent, user, &mut issues);
            }
        }
    }
    // Every directory on the way through a chain of links: whoever can
    // write one of them can point the chain elsewhere.
    for hop in link_chain(Path::new(&loc.path)) {
        if let Some(d) = hop.parent().and_then(|p| std::fs::canonicalize(p).ok())
            && !dirs.contains(&d)
        {
            dirs.push(d);
        }
    }
    let dest = store_destination(&loc.path).ok().flatten();
    if let Some(dest) = &dest
        && let Some(dest_dir) = dest.parent()
        && !dirs.iter().any(|d| d == dest_dir)
    {
        dirs.push(dest_dir.to_path_buf());
    }
    for d in &dirs {
        check_path(d, Role::StoreDir, user, &mut issues);
    }
    if let Some(dest) = &dest {
        check_path(dest, Role::StoreFile, user, &mut issues);
    }
    issues
}

/// The ownership and mode issues of the state directory (decision records,
/// review progress), or of the directory it would be created in.
pub fn check_state_dir(dir: &Path, user: &User) -> Vec<SafetyIssue> {
    let mut issues = Vec::new();
    match std::fs::canonicalize(dir) {
        Ok(d) => check_path(&d, Role::StateDir, user, &mut issues),
        Err(_) => {
            if let Some(parent) = nearest_existing(dir) {
                check_path(&parent, Role::StateDirParent, user, &mut issues);
            }
        }
    }
    issues
}

/// A `--trust-store` inside a tree under review: the repository under
/// review could have shipped it, pre-trusted (which is also why no
/// environment variable selects a store). `reviewed` are the PATHs as
/// given ([`crate::core::paths::reviewed`] says which tree each stands for). The
/// per-user default store is never "supplied" by a repository.
pub fn store_in_reviewed_tree(
    loc: &StoreLocation,
    reviewed: &[String],
    env: &crate::core::env::Env,
) -> Option<SafetyIssue> {
    if loc.is_default {
        return None;
    }
    let given = resolve_lenient(Path::new(&loc.path));
    let dest = store_destination(&loc.path).ok().flatten();
    for tree in crate::core::paths::reviewed::trees_under_review(reviewed, env) {
        let tree = PathBuf::from(tree);
        let inside =
            given.starts_with(&tree) || dest.as_ref().is_some_and(|d| d.starts_with(&tree));
        if inside {
            return Some(SafetyIssue {
                severity: Severity::Refuse,
                text: format!(
                    "the trust store {} is inside {}, a tree under review: a repository could ship a store that trusts its own configs; keep the store outside it",
                    loc.path,
                    tree.display()
                ),
            });
        }
    }
    None
}

/// `path` with its deepest existing ancestor canonicalized and the rest
/// appended as written (the store may not exist yet).
fn resolve_lenient(path: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut cur = path;
    loop {
        if let Ok(real) = std::fs::canonicalize(cur) {
            let mut out = real;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return out;
        }
        match (cur.parent(), cur.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                cur = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// The links a store path goes through, as each is reached (the path
/// itself first when it is one), at most 40 as the kernel allows.
fn link_chain(path: &Path) -> Vec<PathBuf> {
    let mut chain = Vec::new();
    let mut cur = path.to_path_buf();
    while chain.len() < 40
        && std::fs::symlink_metadata(&cur).is_ok_and(|m| m.file_type().is_symlink())
    {
        let Ok(target) = std::fs::read_link(&cur) else {
            break;
        };
        let next = cur.parent().unwrap_or(Path::new("/")).join(target);
        chain.push(cur);
        cur = next;
    }
    chain
}

fn nearest_existing(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .skip(1)
        .find_map(|a| std::fs::canonicalize(a).ok())
}

/// Windows keeps who may write a file in ACLs, which are not modelled: no
/// issue is reported there, and README "Platforms" says so.
#[cfg(windows)]
fn check_path(_: &Path, _: Role, _: &User, _: &mut Vec<SafetyIssue>) {}

#[cfg(unix)]
fn check_path(path: &Path, role: Role, user: &User, issues: &mut Vec<SafetyIssue>) {
    let Ok(meta) = std::fs::metadata(path) else {
        return;
    };
    let shown = path.display().to_string();
    let quoted = shell_quote(&shown);
    let mode = meta.mode() & 0o7777;
    let label = role.label();
    let root_owned_read_only = meta.uid() == 0 && !writable_by_me(path);
    if meta.uid() != user.uid && !root_owned_read_only {
        let owner = match user_name(meta.uid()) {
            Some(n) => format!("uid {}, {n}", meta.uid()),
            None => format!("uid {}", meta.uid()),
        };
        let fix = if role.is_file() {
            "use a store of your own (--trust-store=PATH), or remove this one".to_string()
        } else {
            format!(
                "use a directory of your own, or have its owner run chown {} {quoted}",
                user.name
                    .as_deref()
                    .map_or(user.uid.to_string(), shell_quote)
            )
        };
        issues.push(SafetyIssue {
            severity: Severity::Refuse,
            text: format!(
                "{label} {shown} is owned by another user ({owner}), not by you ({}); {fix}",
                user.describe()
            ),
        });
    }
    let sticky = meta.is_dir() && mode & 0o1000 != 0;
    if mode & 0o002 != 0 && !sticky {
        let private = if role.is_file() { "600" } else { "700" };
        issues.push(SafetyIssue {
            severity: Severity::Refuse,
            text: format!(
                "{label} {shown} is writable by others (mode {mode:04o}); run chmod {private} {quoted}"
            ),
        });
    }
    if mode & 0o020 != 0 && !private_group(meta.gid(), user) {
        let group = group_entry(meta.gid())
            .map(|(name, _)| name)
            .unwrap_or_else(|| meta.gid().to_string());
        issues.push(SafetyIssue {
            severity: Severity::Warn,
            text: format!(
                "{label} {shown} is writable by group {group} (mode {mode:04o}); run chmod g-w {quoted}"
            ),
        });
    }
}

/// A root-owned path counts as the user's only when the user cannot write it
/// (`access(2)`, asked with the real user's rights). A path that cannot be
/// passed to the system (a NUL in it) counts as writable, as before.
#[cfg(unix)]
fn writable_by_me(path: &Path) -> bool {
    match rustix::fs::access(path, rustix::fs::Access::WRITE_OK) {
        Ok(()) => true,
        Err(_) => path.as_os_str().as_encoded_bytes().contains(&0),
    }
}

/// The user's own private group: named as the user, no other member.
#[cfg(unix)]
fn private_group(gid: u32, user: &User) -> bool {
    let (Some(name), Some((group, members))) = (&user.name, group_entry(gid)) else {
        return false;
    };
    group == *name && members.iter().all(|m| m == name)
}

/// The user's name, from the user database (`getpwuid_r`, so NSS sources
/// such as LDAP count too; rustix has no user database, hence libc here).
#[cfg(unix)]
fn user_name(uid: u32) -> Option<String> {
    let mut buf = vec![0u8; 16 * 1024];
    // SAFETY: a zeroed passwd is a valid out-parameter (plain data and null
    // pointers); getpwuid_r writes only into `pwd`, `result` and the `buf.len()`
    // bytes of `buf`, which all outlive the call; on success `pw_name` is a
    // NUL-terminated string inside `buf`, read before `buf` is dropped.
    unsafe {
        let mut pwd: libc::passwd = std::mem::zeroed();
        let mut result: *mut libc::passwd = std::ptr::null_mut();
        let rc = libc::getpwuid_r(
            uid,
            &mut pwd,
            buf.as_mut_ptr().cast(),
            buf.len(),
            &mut result,
        );
        if rc != 0 || result.is_null() || pwd.pw_name.is_null() {
            return None;
        }
        Some(CStr::from_ptr(pwd.pw_name).to_string_lossy().into_owned())
    }
}

/// A group's name and listed members.
#[cfg(unix)]
fn group_entry(gid: u32) -> Option<(String, Vec<String>)> {
    let mut buf = vec![0u8; 64 * 1024];
    // SAFETY: a zeroed group is a valid out-parameter (plain data and null
    // pointers); getgrgid_r writes only into `grp`, `result` and the
    // `buf.len()` bytes of `buf`, which all outlive the call. On success
    // every pointer read below points into `buf` as getgrgid_r filled it:
    // `gr_name` a NUL-terminated string, `gr_mem` a NULL-terminated array
    // of NUL-terminated strings; all are copied before `buf` is dropped.
    unsafe {
        let mut grp: libc::group = std::mem::zeroed();
        let mut result: *mut libc::group = std::ptr::null_mut();
        let rc = libc::getgrgid_r(
            gid,
            &mut grp,
            buf.as_mut_ptr().cast(),
            buf.len(),
            &mut result,
        );
        if rc != 0 || result.is_null() || grp.gr_name.is_null() {
            return None;
        }
        let name = CStr::from_ptr(grp.gr_name).to_string_lossy().into_owned();
        let mut members = Vec::new();
        if !grp.gr_mem.is_null() {
            let mut p = grp.gr_mem;
            while !(*p).is_null() {
                members.push(CStr::from_ptr(*p).to_string_lossy().into_owned());
                p = p.add(1);
            }
        }
        Some((name, members))
    }
}

// Unix-only tests (modes, links, owners); Windows builds the rest.
#[cfg(all(test, unix))]
#[path = "safety_tests.rs"]
mod tests;

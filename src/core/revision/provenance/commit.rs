//! What the history says about a commit, and why there is none: the
//! commits as `git log` describes them, read and parsed here for every
//! provenance question ([`super`] and its `content`).

use std::collections::{HashMap, HashSet};

use super::invoke::hardened;
use crate::core::revision::git::{self, GitError};

/// One commit, as `git log` describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit {
    /// The full object id (40 or 64 hex digits).
    pub sha: String,
    /// The id abbreviated as git abbreviates it (at least 7 digits, more
    /// when 7 are ambiguous).
    pub short: String,
    /// The author's name and email, as written in the commit (no mailmap).
    pub author: String,
    pub email: String,
    /// The author date, strict ISO 8601 (`2026-12-01T10:00:00+01:00`).
    pub date: String,
    /// The subject: the first paragraph of the message on one line.
    pub subject: String,
}

impl Commit {
    /// The day of the author date (`2026-12-01`).
    pub fn day(&self) -> &str {
        self.date.get(..10).unwrap_or(&self.date)
    }
}

/// Why there is no provenance: outside a repository, git not found, git
/// failing. Said by the surfaces, never an error of the review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Absent {
    pub reason: String,
}

impl Absent {
    pub(super) fn because(reason: impl Into<String>) -> Absent {
        Absent {
            reason: reason.into(),
        }
    }

    /// `no provenance: not in a git repository`.
    pub fn describe(&self) -> String {
        format!("no provenance: {}", self.reason)
    }
}

impl From<GitError> for Absent {
    fn from(e: GitError) -> Absent {
        let msg = e.0;
        if msg.contains("not a git repository") {
            Absent::because("not in a git repository")
        } else if msg.starts_with("cannot run git") {
            Absent::because(msg)
        } else {
            Absent::because(format!("git: {msg}"))
        }
    }
}

/// The commits of [`super::commits_since`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommitsSince {
    /// Newest first, at most [`MAX_COMMITS`].
    pub commits: Vec<Commit>,
    /// Since trusted: the commit holding the trusted version (the newest
    /// whose block hashes to the store's SHA-256), the commits listed being
    /// those after it.
    pub trusted: Option<String>,
    /// Since trusted, no commit holds the trusted version (trusted before
    /// it was committed, or past the bound): the commits are counted from
    /// the store's `trustedAt` by their committer date, and say so.
    pub by_date: bool,
    /// More commits touched the files than are listed.
    pub more: bool,
    /// Files of the chain outside the repository: no history here.
    pub outside: Vec<String>,
}

/// Where a value's grant comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueOrigin {
    /// The commit whose version of the config grants the value while its
    /// parent's does not.
    Committed(Commit),
    /// HEAD's version does not grant it: a working-tree edit (changed,
    /// staged or untracked).
    NotCommitted,
    /// With [`super::introduced_in`]: BASE's version already granted it.
    AtBase,
    /// Not said rather than said wrong: a version could not be read (a file
    /// outside the repository, a link in a commit's tree), the history
    /// stops (`history is shallow before <commit>`) or is longer than the
    /// bound (`more than 500 commits`). The reason, in words.
    Unknown(String),
}

/// The most commits [`super::commits_since`] lists.
pub const MAX_COMMITS: usize = 200;
/// The most `git log` may print (200 commits of long subjects).
pub(super) const LOG_OUTPUT: usize = 4 << 20;

/// The root of the repository holding `dir`, resolved as keys are.
pub fn repository(dir: &str) -> Result<String, Absent> {
    let top = git::toplevel(dir)?;
    Ok(std::fs::canonicalize(&top)
        .ok()
        .and_then(|p| p.to_str().map(str::to_string))
        .unwrap_or(top))
}

/// `path` relative to `root`, when inside it.
pub(super) fn relative<'p>(root: &str, path: &'p str) -> Option<&'p str> {
    if root == "/" {
        return path.strip_prefix('/');
    }
    path.strip_prefix(root)?
        .strip_prefix('/')
        .filter(|rest| !rest.is_empty())
}

/// `path` (a file of a config's chain, as the loader names it) relative to
/// `root`: as written, else with its directory resolved (a chain reached
/// through a link to a directory of the repository).
pub(super) fn in_repo(root: &str, path: &str) -> Option<String> {
    if let Some(rel) = relative(root, path) {
        return Some(rel.to_string());
    }
    let dir = crate::core::paths::declaring_dir(path);
    let name = &path[dir.len()..];
    let real = std::fs::canonicalize(if dir.is_empty() { "." } else { dir }).ok()?;
    let real = format!("{}/{name}", real.to_str()?.trim_end_matches('/'));
    relative(root, &real).map(str::to_string)
}

/// A pathspec naming exactly `rel` from the top of the repository: no glob,
/// no magic read from the name.
pub(super) fn literal(rel: &str) -> String {
    format!(":(top,literal){rel}")
}

/// Fields of one commit: full id, abbreviated id, author name, author
/// email, author date, subject. Each ends with NUL and `-z` ends the record
/// with one more: no text git prints can hold a NUL (it stops at one), so
/// a subject cannot end its record early or add one.
pub(super) const LOG_FORMAT: &str = "--format=tformat:%H%x00%h%x00%an%x00%ae%x00%aI%x00%s%x00";
const FIELDS: usize = 7;

/// Parses [`LOG_FORMAT`]'s records; anything else is an error, never a
/// guess.
pub fn parse_log(out: &[u8]) -> Result<Vec<Commit>, Absent> {
    let bad = || Absent::because("unexpected output from git log");
    let tokens: Vec<&[u8]> = out.split(|&b| b == 0).collect();
    // The output ends with the last record's NUL: one empty token after it.
    let Some((last, records)) = tokens.split_last() else {
        return Ok(Vec::new());
    };
    if !last.is_empty() || records.len() % FIELDS != 0 {
        return Err(bad());
    }
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    records
        .chunks(FIELDS)
        .map(|r| {
            let sha = text(r[0]);
            let short = text(r[1]);
            let is_id =
                |s: &str| matches!(s.len(), 40 | 64) && s.bytes().all(|b| b.is_ascii_hexdigit());
            if !is_id(&sha) || short.len() < 4 || !sha.starts_with(&short) || !r[6].is_empty() {
                return Err(bad());
            }
            Ok(Commit {
                sha,
                short,
                author: text(r[2]),
                email: text(r[3]),
                date: text(r[4]),
                subject: text(r[5]),
            })
        })
        .collect()
}

/// The commits `shas` (full ids), described, by id.
pub(super) fn describe_commits(
    root: &str,
    shas: &HashSet<String>,
) -> Result<HashMap<String, Commit>, Absent> {
    if shas.is_empty() {
        return Ok(HashMap::new());
    }
    let mut cmd = hardened(root);
    cmd.args([
        "log",
        "-z",
        "--no-walk=unsorted",
        "--no-show-signature",
        "--no-use-mailmap",
        "--no-color",
        LOG_FORMAT,
        "--end-of-options",
    ]);
    let mut sorted: Vec<&String> = shas.iter().collect();
    sorted.sort();
    cmd.args(sorted);
    let out = git::output(cmd, "log", LOG_OUTPUT)?;
    Ok(parse_log(&out)?
        .into_iter()
        .map(|c| (c.sha.clone(), c))
        .collect())
}

//! Who changed what (issue 26 item 3): the commits that touched a config's
//! files since it was trusted, and for each value a review shows as added,
//! the commit that last changed the line holding it.
//!
//! Provenance is optional by design: outside a repository, without git, or
//! when git fails, the answer is [`Absent`] with the reason, which a review
//! says and goes on without; it never fails the review.
//!
//! Every git call goes through the hardened invocation of [`super::git`]
//! (nothing the repository configures runs, bounded in time and output), and
//! only reads objects: the working tree's own text is read here, bounded,
//! and compared with HEAD's blame, so no clean filter or textconv the
//! repository names is ever run on it (git's own working-tree blame would
//! run the clean filter). Commit text (subjects, names, emails) is returned
//! exactly as git holds it: it is hostile, and every surface escapes it as
//! it escapes config text.

mod locate;

use std::collections::{HashMap, HashSet};
use std::process::Command;

use super::git::{self, GitError};
use crate::core::env::Env;
use crate::core::paths::bounded::{CONFIG_MAX_BYTES, read_regular};

pub use locate::value_lines;

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
    fn because(reason: impl Into<String>) -> Absent {
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

/// The commits of [`commits_since`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitsSince {
    /// Newest first, at most [`MAX_COMMITS`].
    pub commits: Vec<Commit>,
    /// More commits touched the files than are listed.
    pub more: bool,
    /// Files of the chain outside the repository: no history here.
    pub outside: Vec<String>,
}

/// Where the line holding a value comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueOrigin {
    /// The commit that last changed the line.
    Committed(Commit),
    /// The line is a working-tree edit (changed, staged or untracked).
    NotCommitted,
    /// With [`introduced_in`]: the line is as it was at BASE (the value
    /// was not introduced by BASE..HEAD, e.g. it moved from elsewhere).
    AtBase,
    /// Not said rather than said wrong: the line was not found, or the
    /// value is written on several lines that differ in origin, or the file
    /// could not be read. The reason, in words.
    Unknown(String),
}

/// The most commits [`commits_since`] lists.
pub const MAX_COMMITS: usize = 200;
/// The most `git log` may print (200 commits of long subjects).
const LOG_OUTPUT: usize = 4 << 20;
/// The most `git blame --porcelain` may print for a config (1 MiB of
/// lines, each with its header).
const BLAME_OUTPUT: usize = 64 << 20;
/// The most `git ls-tree` of one path prints.
const ONE_ENTRY: usize = 64 * 1024;

/// Settings for the reading commands here, on top of [`git::git`]'s: the
/// abbreviation is git's default whatever the repository says, log output
/// is UTF-8, and `log.follow` does not change which commits are listed.
const PROVENANCE_CONFIG: &[&str] = &[
    "core.abbrev=7",
    "i18n.logOutputEncoding=UTF-8",
    "log.follow=false",
    "log.mailmap=false",
    // Blame passes over the revisions this names, attributing their lines
    // to others: a hostile repository would name its own. Cleared again
    // on blame's command line (a file named by the repository that does
    // not exist still stops blame: no provenance, never a wrong one).
    "blame.ignoreRevsFile=",
];

fn hardened(root: &str) -> Command {
    let mut cmd = git::git(root);
    for setting in PROVENANCE_CONFIG {
        cmd.arg("-c").arg(setting);
    }
    cmd.env("GIT_LITERAL_PATHSPECS", "0");
    cmd
}

/// The root of the repository holding `dir`, resolved as keys are.
pub fn repository(dir: &str) -> Result<String, Absent> {
    let top = git::toplevel(dir)?;
    Ok(std::fs::canonicalize(&top)
        .ok()
        .and_then(|p| p.to_str().map(str::to_string))
        .unwrap_or(top))
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

/// `path` (a file of a config's chain, as the loader names it) relative to
/// `root`: as written, else with its directory resolved (a chain reached
/// through a link to a directory of the repository).
fn in_repo(root: &str, path: &str) -> Option<String> {
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
fn literal(rel: &str) -> String {
    format!(":(top,literal){rel}")
}

/// A store's `trustedAt` as `git log --since` takes it: the digits and
/// separators of an ISO 8601 time, nothing else.
fn check_date(since: &str) -> Result<(), Absent> {
    let ok = !since.is_empty()
        && since.len() <= 40
        && since.starts_with(|c: char| c.is_ascii_digit())
        && since
            .chars()
            .all(|c| c.is_ascii_digit() || "-:T Z+.".contains(c));
    if ok {
        Ok(())
    } else {
        Err(Absent::because(format!(
            "trustedAt {since:?} is not a date"
        )))
    }
}

/// Fields of one commit: full id, abbreviated id, author name, author
/// email, author date, subject. Each ends with NUL and `-z` ends the record
/// with one more: no text git prints can hold a NUL (it stops at one), so
/// a subject cannot end its record early or add one.
const LOG_FORMAT: &str = "--format=tformat:%H%x00%h%x00%an%x00%ae%x00%aI%x00%s%x00";
const FIELDS: usize = 7;

/// The commits that touched `files` (absolute paths: the config and every
/// file of its extends chain) since `since` (the entry's `trustedAt`),
/// newest first. `since` is compared with the committer date, so a commit
/// rebased after the trust is listed even when it was authored before.
pub fn commits_since(root: &str, files: &[String], since: &str) -> Result<CommitsSince, Absent> {
    check_date(since)?;
    let mut outside = Vec::new();
    let mut specs = Vec::new();
    for f in files {
        match in_repo(root, f) {
            Some(rel) => specs.push(literal(&rel)),
            None => outside.push(f.clone()),
        }
    }
    git::toplevel(root)?;
    let none = |outside| CommitsSince {
        commits: Vec::new(),
        more: false,
        outside,
    };
    if specs.is_empty() {
        return Ok(none(outside));
    }
    // A repository without a commit yet has no history to list.
    match git::commit_of(root, "HEAD") {
        Err(e) if e == git::too_slow("rev-parse") => return Err(e.into()),
        Err(_) => return Ok(none(outside)),
        Ok(_) => {}
    }
    let mut cmd = hardened(root);
    cmd.args([
        "log",
        "-z",
        "--no-textconv",
        "--no-ext-diff",
        "--no-show-signature",
        "--no-use-mailmap",
        "--no-color",
        LOG_FORMAT,
    ])
    .arg(format!("--max-count={}", MAX_COMMITS + 1))
    .arg(format!("--since={since}"))
    .args(["HEAD", "--"])
    .args(&specs);
    let out = git::output(cmd, "log", LOG_OUTPUT)?;
    let mut commits = parse_log(&out)?;
    let more = commits.len() > MAX_COMMITS;
    commits.truncate(MAX_COMMITS);
    Ok(CommitsSince {
        commits,
        more,
        outside,
    })
}

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

/// The commits `shas` (ids from blame), described, by id.
fn describe_commits(root: &str, shas: &HashSet<String>) -> Result<HashMap<String, Commit>, Absent> {
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

/// Where one line of a file comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum LineFrom {
    /// The commit that last changed it, the file's path there and the
    /// line's number in that commit's version of it.
    Commit {
        sha: String,
        file: String,
        orig: usize,
    },
    /// The boundary of a `BASE..HEAD` blame: the line is BASE's.
    Boundary,
    NotCommitted,
}

/// A file as `git blame --porcelain` gave it: each line's text and origin.
#[derive(Debug, Clone, Default)]
struct Blamed {
    lines: Vec<(Vec<u8>, LineFrom)>,
}

/// `git blame --porcelain <range> -- <rel>`. Lines of content start with a
/// TAB and every header line ends at a newline, so no text of a commit or
/// of the file can pass for a header. A root commit is a commit like any
/// other (`--root`): only a range's own boundary is BASE's.
fn blame(root: &str, range: &str, rel: &str) -> Result<Blamed, GitError> {
    let mut cmd = hardened(root);
    // Blame falls back to the working tree's file when the range names no
    // commit to start from (`A..A`), and then runs the clean filter the
    // repository's attributes name on it. With no working tree, that
    // fallback fails instead (the callers never ask for it: `blame_at`).
    cmd.env("GIT_WORK_TREE", NO_WORK_TREE);
    cmd.args([
        "blame",
        "--porcelain",
        "--root",
        "--no-textconv",
        "--ignore-revs-file=",
        range,
        "--",
        rel,
    ]);
    let out = git::output(cmd, "blame", BLAME_OUTPUT)?;
    parse_blame(&out, rel)
}

/// A working tree that does not exist, at the root, where only root could
/// make one (git refuses a path whose parent does not exist).
const NO_WORK_TREE: &str = "/.goccia-trust-no-work-tree";

/// How many commits `range` (`A..B`) holds.
fn count(root: &str, range: &str) -> Result<usize, GitError> {
    let mut cmd = hardened(root);
    cmd.args(["rev-list", "--count", range]);
    let out = git::output(cmd, "rev-list", git::SMALL_OUTPUT)?;
    String::from_utf8_lossy(&out)
        .trim()
        .parse()
        .map_err(|_| GitError("unexpected output from git rev-list".into()))
}

/// The blame of `rev`, bounded by `base` when given: a line of BASE is
/// BASE's ([`LineFrom::Boundary`]). When BASE already holds `rev`, every
/// line is, and blame is not asked with an empty range.
fn blame_at(root: &str, base: Option<&str>, rev: &str, rel: &str) -> Result<Blamed, GitError> {
    let Some(base) = base else {
        return blame(root, rev, rel);
    };
    let range = format!("{base}..{rev}");
    if count(root, &range)? > 0 {
        return blame(root, &range, rel);
    }
    let mut all = blame(root, rev, rel)?;
    for line in &mut all.lines {
        line.1 = LineFrom::Boundary;
    }
    Ok(all)
}

/// One group of `--porcelain` output: its commit, the line's number in
/// that commit's version and in the file blamed, and the file's path in
/// that commit (said once per commit, so kept per commit).
struct Group {
    sha: String,
    orig: usize,
    line: usize,
}

fn parse_blame(out: &[u8], rel: &str) -> Result<Blamed, GitError> {
    let bad = || GitError("unexpected output from git blame".into());
    let mut lines: Vec<Option<(Vec<u8>, String, usize)>> = Vec::new();
    let mut boundary = HashSet::new();
    let mut files: HashMap<String, String> = HashMap::new();
    let mut current: Option<Group> = None;
    for line in out.split(|&b| b == b'\n') {
        match current.take() {
            None => {
                if line.is_empty() {
                    continue;
                }
                let head = std::str::from_utf8(line).map_err(|_| bad())?;
                let mut parts = head.split(' ');
                let sha = parts.next().ok_or_else(bad)?;
                let number = |p: Option<&str>| p.and_then(|n| n.parse::<usize>().ok());
                let orig = number(parts.next()).ok_or_else(bad)?;
                let at = number(parts.next()).ok_or_else(bad)?;
                if !matches!(sha.len(), 40 | 64)
                    || !sha.bytes().all(|b| b.is_ascii_hexdigit())
                    || at == 0
                {
                    return Err(bad());
                }
                current = Some(Group {
                    sha: sha.to_string(),
                    orig,
                    line: at,
                });
            }
            Some(g) => {
                if let Some(content) = line.strip_prefix(b"\t") {
                    if lines.len() < g.line {
                        lines.resize(g.line, None);
                    }
                    lines[g.line - 1] = Some((content.to_vec(), g.sha, g.orig));
                } else {
                    if line == b"boundary" {
                        boundary.insert(g.sha.clone());
                    } else if let Some(name) = line.strip_prefix(b"filename ") {
                        files.insert(g.sha.clone(), String::from_utf8_lossy(name).into_owned());
                    }
                    current = Some(g);
                }
            }
        }
    }
    if current.is_some() {
        return Err(bad());
    }
    let zero = |s: &str| s.bytes().all(|b| b == b'0');
    let lines = lines
        .into_iter()
        .map(|l| {
            let (text, sha, orig) = l.ok_or_else(bad)?;
            let from = if zero(&sha) {
                LineFrom::NotCommitted
            } else if boundary.contains(&sha) {
                LineFrom::Boundary
            } else {
                LineFrom::Commit {
                    file: files.get(&sha).cloned().unwrap_or_else(|| rel.to_string()),
                    sha,
                    orig,
                }
            };
            Ok((text, from))
        })
        .collect::<Result<_, GitError>>()?;
    Ok(Blamed { lines })
}

/// Blames already run by [`past_separator`], by revision and file: values
/// of one array walk back through the same commits.
type Blames = HashMap<(String, String), Result<Blamed, GitError>>;

/// How many commits back [`past_separator`] looks.
const HOPS: usize = 8;

/// The commit that last changed a line's value, where blame names the one
/// that last changed the line: appending to a JSON array adds a comma to
/// the line before, and blame then names that commit for a value it did
/// not write. While the commit blamed changed only the separator after the
/// value (the line is the same but for it in the commit's parent), the
/// parent's blame of that line is taken instead, up to [`HOPS`] times.
/// `base` bounds the walk for `BASE..HEAD` (a line of BASE is BASE's).
fn past_separator(
    root: &str,
    base: Option<&str>,
    from: &LineFrom,
    seen: &mut Blames,
) -> Result<LineFrom, GitError> {
    let LineFrom::Commit { sha, file, orig } = from else {
        return Ok(from.clone());
    };
    let (mut sha, mut file, mut n) = (sha.clone(), file.clone(), *orig);
    let mut at = |rev: String, file: &str| -> Result<Blamed, GitError> {
        let key = (rev, file.to_string());
        if let Some(b) = seen.get(&key) {
            return b.clone();
        }
        let b = blame_at(root, base, &key.0, file);
        seen.insert(key, b.clone());
        b
    };
    for _ in 0..HOPS {
        let now = at(sha.clone(), &file)?;
        let before = match at(format!("{sha}^"), &file) {
            Ok(b) => b,
            Err(e) if e == git::too_slow("blame") => return Err(e),
            // A root commit, or the file added by this commit.
            Err(_) => break,
        };
        let Some((text, _)) = now.lines.get(n.wrapping_sub(1)) else {
            break;
        };
        let old: Vec<&[u8]> = before.lines.iter().map(|(t, _)| matched_part(t)).collect();
        let new: Vec<&[u8]> = now.lines.iter().map(|(t, _)| matched_part(t)).collect();
        let Some(p) = equal_in_old(&old, &new, n - 1) else {
            break;
        };
        let (old_text, old_from) = &before.lines[p];
        if old_text == text {
            break;
        }
        match old_from {
            LineFrom::Commit {
                sha: s,
                file: f,
                orig: o,
            } => (sha, file, n) = (s.clone(), f.clone(), *o),
            other => return Ok(other.clone()),
        }
    }
    Ok(LineFrom::Commit { sha, file, orig: n })
}

/// The index in `old` of the line `new[i]` is kept from, by a line diff.
fn equal_in_old(old: &[&[u8]], new: &[&[u8]], i: usize) -> Option<usize> {
    similar::capture_diff_slices(similar::Algorithm::Myers, old, new)
        .into_iter()
        .find_map(|op| match op {
            similar::DiffOp::Equal {
                old_index,
                new_index,
                len,
            } if (new_index..new_index + len).contains(&i) => Some(old_index + i - new_index),
            _ => None,
        })
}

/// Whether HEAD holds `rel` as a file: `None` when there is no HEAD yet
/// (a repository without commits).
fn head_has(root: &str, rel: &str) -> Result<Option<bool>, GitError> {
    let head = match git::commit_of(root, "HEAD") {
        Ok(id) => id,
        Err(e) if e == git::too_slow("rev-parse") => return Err(e),
        Err(_) => return Ok(None),
    };
    let mut cmd = hardened(root);
    cmd.env("GIT_LITERAL_PATHSPECS", "1")
        .args(["ls-tree", "-z", "--full-tree", &head, "--", rel]);
    let out = git::output(cmd, "ls-tree", ONE_ENTRY)?;
    let entries = git::parse_ls_tree(&out)?;
    Ok(Some(entries.iter().any(|e| {
        e.path == rel.as_bytes() && e.mode == git::EntryMode::File
    })))
}

/// A line as the working tree is matched with HEAD: without its line
/// ending's `\r` nor the separator after its value. Appending to a JSON
/// array puts a comma after the last value: that does not make its line a
/// working-tree edit, its value is still as committed.
fn matched_part(line: &[u8]) -> &[u8] {
    let mut end = line.len();
    while end > 0 && matches!(line[end - 1], b'\r' | b' ' | b'\t' | b',') {
        end -= 1;
    }
    &line[..end]
}

/// The working-tree file `rel` line by line, each line with where it comes
/// from: HEAD's blame for a line the working tree keeps as HEAD has it
/// (matched by a line diff, as git's own working-tree blame does, a
/// trailing comma aside), not committed for the others. The text is read here, never by git.
fn blame_working(root: &str, rel: &str, abs: &str) -> Result<Result<Blamed, String>, GitError> {
    let meta = std::fs::symlink_metadata(abs);
    if meta.as_ref().is_ok_and(|m| m.file_type().is_symlink()) {
        return Ok(Err(
            "the config file is a symbolic link: its lines are another file's".into(),
        ));
    }
    let bytes = match read_regular(abs, CONFIG_MAX_BYTES) {
        Ok(b) => b,
        Err(e) => return Ok(Err(e.describe())),
    };
    let now: Vec<&[u8]> = split_lines(&bytes);
    let head = match head_has(root, rel)? {
        Some(true) => blame(root, "HEAD", rel)?,
        _ => Blamed::default(),
    };
    let old: Vec<&[u8]> = head.lines.iter().map(|(t, _)| matched_part(t)).collect();
    let new: Vec<&[u8]> = now.iter().map(|l| matched_part(l)).collect();
    let mut from = vec![LineFrom::NotCommitted; now.len()];
    for op in similar::capture_diff_slices(similar::Algorithm::Myers, &old, &new) {
        if let similar::DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            for i in 0..len {
                from[new_index + i] = head.lines[old_index + i].1.clone();
            }
        }
    }
    Ok(Ok(Blamed {
        lines: now
            .into_iter()
            .zip(from)
            .map(|(t, f)| (t.to_vec(), f))
            .collect(),
    }))
}

/// Lines as git counts them: split at `\n`, a last line without one kept.
fn split_lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// For each `(request, value)` of a config (values the review shows as
/// added), the commit that last changed the line holding it, or
/// [`ValueOrigin::NotCommitted`] for a working-tree edit. `files` are the
/// config and its extends chain (absolute paths, the config first); the
/// value is looked for in each, as written under its request (a path scope
/// as written, relative or not: it is resolved as GocciaScript resolves
/// it). A value found on no line, or on several lines that differ in
/// origin, is [`ValueOrigin::Unknown`] with why: never a wrong commit.
pub fn blame_values(
    root: &str,
    files: &[String],
    values: &[(String, String)],
    env: &Env,
) -> Result<Vec<ValueOrigin>, Absent> {
    // Outside a repository a file has no HEAD either: that is no
    // provenance, not a working-tree edit.
    git::toplevel(root)?;
    let mut blamed: Vec<(&str, Result<Blamed, String>)> = Vec::new();
    for f in files {
        let file = match in_repo(root, f) {
            Some(rel) => blame_working(root, &rel, f)?,
            None => Err("outside the repository".to_string()),
        };
        blamed.push((f.as_str(), file));
    }
    origins(root, None, &blamed, values, env)
}

/// For each `(request, value)` widened in `diff BASE HEAD`, the commit of
/// `BASE..HEAD` that introduced the line holding it at HEAD
/// ([`ValueOrigin::AtBase`] when the line is BASE's). `files` are the
/// config and its extends chain at HEAD, as absolute paths in the checkout
/// (as `diff` resolves them); `base` and `head` are commits.
// `diff`'s printers take it up in the next step of issue 26.
#[cfg_attr(not(feature = "test-support"), allow(dead_code))]
pub fn introduced_in(
    root: &str,
    base: &str,
    head: &str,
    files: &[String],
    values: &[(String, String)],
    env: &Env,
) -> Result<Vec<ValueOrigin>, Absent> {
    let base = git::commit_of(root, base)?;
    let head = git::commit_of(root, head)?;
    let mut blamed: Vec<(&str, Result<Blamed, String>)> = Vec::new();
    for f in files {
        let file = match in_repo(root, f) {
            Some(rel) => match blame_at(root, Some(&base), &head, &rel) {
                Ok(b) => Ok(b),
                Err(e) if e == git::too_slow("blame") => return Err(e.into()),
                Err(e) => Err(e.0),
            },
            None => Err("outside the repository".to_string()),
        };
        blamed.push((f.as_str(), file));
    }
    origins(root, Some(&base), &blamed, values, env)
}

/// Each value's origin from its lines in the blamed files.
fn origins(
    root: &str,
    base: Option<&str>,
    blamed: &[(&str, Result<Blamed, String>)],
    values: &[(String, String)],
    env: &Env,
) -> Result<Vec<ValueOrigin>, Absent> {
    let texts: Vec<(&str, Result<String, &str>)> = blamed
        .iter()
        .map(|(path, b)| {
            let text = b.as_ref().map_err(String::as_str).map(|b| {
                let lines: Vec<&[u8]> = b.lines.iter().map(|(t, _)| t.as_slice()).collect();
                String::from_utf8_lossy(&lines.join(&b'\n')).into_owned()
            });
            (*path, text)
        })
        .collect();
    // Each value's lines, where each comes from, then the commits they
    // name, described at once.
    let mut located = Vec::new();
    let mut resolved: HashMap<(usize, usize), Option<LineFrom>> = HashMap::new();
    let mut seen = Blames::new();
    let mut shas = HashSet::new();
    for (request, value) in values {
        let mut at: Vec<(usize, usize)> = Vec::new();
        let mut unread = Vec::new();
        for (i, (path, text)) in texts.iter().enumerate() {
            match text {
                Ok(text) => at.extend(
                    value_lines(text, path, request, value, env)
                        .into_iter()
                        .map(|n| (i, n)),
                ),
                Err(why) => unread.push(format!("{path}: {why}")),
            }
        }
        for &(i, n) in &at {
            if resolved.contains_key(&(i, n)) {
                continue;
            }
            let from = match blamed[i].1.as_ref().ok().and_then(|b| b.lines.get(n - 1)) {
                Some((_, from)) => Some(past_separator(root, base, from, &mut seen)?),
                None => None,
            };
            if let Some(LineFrom::Commit { sha, .. }) = &from {
                shas.insert(sha.clone());
            }
            resolved.insert((i, n), from);
        }
        located.push((at, unread));
    }
    let commits = describe_commits(root, &shas)?;
    Ok(located
        .into_iter()
        .map(|(at, unread)| origin_of(&at, &unread, blamed, &resolved, &commits))
        .collect())
}

fn origin_of(
    at: &[(usize, usize)],
    unread: &[String],
    blamed: &[(&str, Result<Blamed, String>)],
    resolved: &HashMap<(usize, usize), Option<LineFrom>>,
    commits: &HashMap<String, Commit>,
) -> ValueOrigin {
    if at.is_empty() {
        return ValueOrigin::Unknown(if unread.is_empty() {
            "line not found".to_string()
        } else {
            format!("line not found ({})", unread.join("; "))
        });
    }
    let mut found: Option<ValueOrigin> = None;
    for &(i, n) in at {
        let path = blamed[i].0;
        let origin = match resolved.get(&(i, n)).and_then(Option::as_ref) {
            Some(LineFrom::Commit { sha, .. }) => match commits.get(sha) {
                Some(c) => ValueOrigin::Committed(c.clone()),
                None => ValueOrigin::Unknown(format!("commit {sha} not described by git")),
            },
            Some(LineFrom::NotCommitted) => ValueOrigin::NotCommitted,
            Some(LineFrom::Boundary) => ValueOrigin::AtBase,
            None => ValueOrigin::Unknown(format!("{path}: line {n} not blamed")),
        };
        match &found {
            None => found = Some(origin),
            Some(f) if *f == origin => {}
            Some(_) => {
                let places: Vec<String> = at
                    .iter()
                    .map(|&(i, n)| format!("{}:{n}", blamed[i].0))
                    .collect();
                return ValueOrigin::Unknown(format!(
                    "written on several lines of different origin ({})",
                    places.join(", ")
                ));
            }
        }
    }
    found.unwrap_or_else(|| ValueOrigin::Unknown("line not found".into()))
}

/// A reviewed config's provenance, as the review surfaces show it: the
/// commits since it was trusted and each added value's origin. Each part
/// is absent on its own (a `trustedAt` git cannot take leaves the origins).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigProvenance {
    /// The repository's root.
    pub root: String,
    pub commits: Result<CommitsSince, Absent>,
    /// `(request, value, origin)` in the order asked.
    pub origins: Result<Vec<(String, String, ValueOrigin)>, Absent>,
}

impl ConfigProvenance {
    /// The origin found for `value` of `request`, if it was asked for.
    pub fn origin(&self, request: &str, value: &str) -> Option<&ValueOrigin> {
        self.origins
            .as_ref()
            .ok()?
            .iter()
            .find(|(r, v, _)| r == request && v == value)
            .map(|(_, _, o)| o)
    }
}

/// The provenance of a config whose chain is `files` (absolute, the config
/// first), trusted at `trusted_at`, for its added `values`: `Absent` when
/// the config is in no repository or git cannot be run.
pub fn of_config(
    files: &[String],
    trusted_at: &str,
    values: &[(String, String)],
    env: &Env,
) -> Result<ConfigProvenance, Absent> {
    let config = files
        .first()
        .ok_or_else(|| Absent::because("no config file"))?;
    let dir = crate::core::paths::declaring_dir(config);
    let root = repository(if dir.is_empty() { "." } else { dir })?;
    let commits = commits_since(&root, files, trusted_at);
    let origins = blame_values(&root, files, values, env).map(|found| {
        values
            .iter()
            .zip(found)
            .map(|((r, v), o)| (r.clone(), v.clone(), o))
            .collect()
    });
    Ok(ConfigProvenance {
        root,
        commits,
        origins,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blame_output_is_read_by_its_structure_not_its_text() {
        let a = "a".repeat(40);
        let b = "b".repeat(40);
        let z = "0".repeat(40);
        // A file line that looks like a header, and a summary that looks
        // like a file line, change nothing: content lines start with a TAB.
        let out = format!(
            "{a} 1 1 2\nauthor A\nsummary \t{b} 9 9\nboundary\nfilename f\n\t{b} 2 2\n{a} 2 2\n\tsecond\n{z} 3 3 1\nauthor Not Committed Yet\n\tthird\n"
        );
        let blamed = parse_blame(out.as_bytes(), "f").unwrap();
        let from: Vec<&LineFrom> = blamed.lines.iter().map(|(_, f)| f).collect();
        assert_eq!(
            from,
            [
                &LineFrom::Boundary,
                &LineFrom::Boundary,
                &LineFrom::NotCommitted
            ]
        );
        assert_eq!(blamed.lines[0].0, format!("{b} 2 2").into_bytes());
        // A group cut short, or a line never given, is an error.
        assert!(parse_blame(format!("{a} 1 1 1\nauthor A\n").as_bytes(), "f").is_err());
        assert!(parse_blame(format!("{a} 1 2 1\n\tx\n").as_bytes(), "f").is_err());
        assert!(parse_blame(b"not a header\n\tx\n", "f").is_err());
    }

    #[test]
    fn a_trusted_at_must_look_like_a_date() {
        assert!(check_date("2026-09-25T10:12:03Z").is_ok());
        assert!(check_date("--all").is_err());
        assert!(check_date("").is_err());
        assert!(check_date("2026-01-01;rm").is_err());
    }
}

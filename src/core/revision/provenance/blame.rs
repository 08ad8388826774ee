//! Where each line of a config file comes from: `git blame --porcelain`
//! read by its structure, the working tree matched with HEAD's blame by a
//! line diff (the file is read here, never by git, so no clean filter
//! runs), and a line whose commit only added the separator after its value
//! traced back to the commit that wrote the value.

use std::collections::{HashMap, HashSet};

use super::invoke::hardened;
use crate::core::paths::bounded::{CONFIG_MAX_BYTES, read_regular};
use crate::core::revision::git::{self, GitError};

/// Where one line of a file comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum LineFrom {
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
pub(super) struct Blamed {
    pub(super) lines: Vec<(Vec<u8>, LineFrom)>,
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

/// The most `git blame --porcelain` may print for a config (1 MiB of
/// lines, each with its header).
const BLAME_OUTPUT: usize = 64 << 20;
/// The most `git ls-tree` of one path prints.
const ONE_ENTRY: usize = 64 * 1024;

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
pub(super) fn blame_at(
    root: &str,
    base: Option<&str>,
    rev: &str,
    rel: &str,
) -> Result<Blamed, GitError> {
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
                        let name = unquote(name);
                        files.insert(g.sha.clone(), String::from_utf8_lossy(&name).into_owned());
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
pub(super) type Blames = HashMap<(String, String), Result<Blamed, GitError>>;

/// How many commits back [`past_separator`] looks.
const HOPS: usize = 8;

/// The commit that last changed a line's value, where blame names the one
/// that last changed the line: appending to a JSON array adds a comma to
/// the line before, and blame then names that commit for a value it did
/// not write. While the commit blamed changed only the separator after the
/// value (the line is the same but for it in the commit's parent), the
/// parent's blame of that line is taken instead, up to [`HOPS`] times.
/// `base` bounds the walk for `BASE..HEAD` (a line of BASE is BASE's).
pub(super) fn past_separator(
    root: &str,
    base: Option<&str>,
    from: &LineFrom,
    seen: &mut Blames,
) -> Result<LineFrom, GitError> {
    let LineFrom::Commit { sha, file, orig } = from else {
        return Ok(from.clone());
    };
    let (mut sha, mut file, mut n) = (sha.clone(), file.clone(), *orig);
    let too_slow = |e: &GitError| *e == git::too_slow("blame");
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
        // A commit git cannot blame again is kept as blamed: what it
        // names is still the line's last change.
        let now = match at(sha.clone(), &file) {
            Ok(b) => b,
            Err(e) if too_slow(&e) => return Err(e),
            Err(_) => break,
        };
        let before = match at(format!("{sha}^"), &file) {
            Ok(b) => b,
            Err(e) if too_slow(&e) => return Err(e),
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
/// `base` bounds HEAD's blame as [`blame_at`]'s does.
pub(super) fn blame_working(
    root: &str,
    base: Option<&str>,
    rel: &str,
    abs: &str,
) -> Result<Result<Blamed, String>, GitError> {
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
        Some(true) => blame_at(root, base, "HEAD", rel)?,
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

/// A path as git writes it in `--porcelain`'s `filename` line: as it is,
/// or, when it holds a quote, a backslash or a control character, in
/// double quotes with C escapes (`\n`, `\"`, `\\`, `\ooo` octal).
fn unquote(name: &[u8]) -> Vec<u8> {
    let Some(inner) = name.strip_prefix(b"\"").and_then(|n| n.strip_suffix(b"\"")) else {
        return name.to_vec();
    };
    let mut out = Vec::with_capacity(inner.len());
    let mut i = 0;
    while i < inner.len() {
        let b = inner[i];
        i += 1;
        if b != b'\\' || i == inner.len() {
            out.push(b);
            continue;
        }
        let e = inner[i];
        i += 1;
        out.push(match e {
            b'a' => 7,
            b'b' => 8,
            b't' => b'\t',
            b'n' => b'\n',
            b'v' => 11,
            b'f' => 12,
            b'r' => b'\r',
            b'0'..=b'3'
                if inner
                    .get(i..i + 2)
                    .is_some_and(|d| d.iter().all(|d| (b'0'..=b'7').contains(d))) =>
            {
                let n = (e - b'0') * 64 + (inner[i] - b'0') * 8 + (inner[i + 1] - b'0');
                i += 2;
                n
            }
            other => other,
        });
    }
    out
}

/// Lines as git counts them: split at `\n`, a last line without one kept.
fn split_lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
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
    fn a_quoted_file_name_is_read_back_to_its_bytes() {
        assert_eq!(unquote(b"a/goccia.json"), b"a/goccia.json");
        assert_eq!(unquote(b"\"a\\nb\\\"c\\\\d/x\""), b"a\nb\"c\\d/x");
        assert_eq!(unquote(b"\"\\303\\251\""), "é".as_bytes());
    }
}

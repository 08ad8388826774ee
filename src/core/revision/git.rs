//! Reading a git repository by spawning `git`: one `rev-parse` for the
//! repository's root, one `ls-tree -r -z --full-tree` per revision for its
//! tree, and one `cat-file --batch` per revision for every blob read (the
//! configs first, in one batch, then each `extends` base as it is reached),
//! never one process per file. Nothing is written and no checkout changes:
//! these commands only read objects.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use crate::core::paths::bounded::CONFIG_MAX_BYTES;

/// A failure of git itself (not a repository, an unknown revision), with
/// git's own message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GitError(pub String);

/// `git` with options that keep it from running anything of the
/// repository's (an fsmonitor hook) or taking locks.
fn git(dir: &str) -> Command {
    let mut cmd = Command::new("git");
    cmd.arg("-C")
        .arg(dir)
        .args(["-c", "core.fsmonitor=false"])
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null());
    cmd
}

/// Runs `cmd` to completion: its stdout, or git's message (its stderr,
/// trimmed) as the error.
fn output(mut cmd: Command, what: &str) -> Result<Vec<u8>, GitError> {
    let out = cmd
        .output()
        .map_err(|e| GitError(format!("cannot run git ({what}): {e}")))?;
    if out.status.success() {
        return Ok(out.stdout);
    }
    let msg = String::from_utf8_lossy(&out.stderr).trim().to_string();
    Err(GitError(if msg.is_empty() {
        format!("git {what} failed ({})", out.status)
    } else {
        msg
    }))
}

/// The root of the working tree that holds `cwd`, as git names it.
pub fn toplevel(cwd: &str) -> Result<String, GitError> {
    let mut cmd = git(cwd);
    cmd.args(["rev-parse", "--show-toplevel"]);
    let out = output(cmd, "rev-parse")?;
    let text = String::from_utf8(out)
        .map_err(|_| GitError("the repository's path is not UTF-8".into()))?;
    Ok(text.trim_end_matches('\n').to_string())
}

/// A revision as given on the command line: never an option.
pub fn check_revision(rev: &str) -> Result<(), GitError> {
    if rev.is_empty() || rev.starts_with('-') {
        return Err(GitError(format!(
            "not a revision: '{rev}' (a revision cannot be empty or start with '-')"
        )));
    }
    Ok(())
}

/// What a tree entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryMode {
    /// A regular file (`100644`, `100755`).
    File,
    /// A symbolic link (`120000`): never followed at a revision.
    Link,
    /// A submodule (`160000`): its tree is another repository's.
    Submodule,
}

/// One entry of `ls-tree -r`: a path (bytes, as git stores it), what it is
/// and its object id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeEntry {
    pub path: Vec<u8>,
    pub mode: EntryMode,
    pub oid: String,
}

/// Every file, link and submodule of `rev`'s tree, recursively.
pub fn ls_tree(root: &str, rev: &str) -> Result<Vec<TreeEntry>, GitError> {
    check_revision(rev)?;
    let mut cmd = git(root);
    cmd.args([
        "ls-tree",
        "-r",
        "-z",
        "--full-tree",
        "--end-of-options",
        rev,
    ]);
    let out = output(cmd, "ls-tree")?;
    parse_ls_tree(&out)
}

/// That `rev` names a tree in the repository at `root`, checked with the
/// same `ls-tree` [`ls_tree`] runs (not recursive, output unused), so a
/// caller that reads the revision later fails now, with git's message.
pub fn check_tree(root: &str, rev: &str) -> Result<(), GitError> {
    check_revision(rev)?;
    let mut cmd = git(root);
    cmd.args(["ls-tree", "--full-tree", "--end-of-options", rev]);
    output(cmd, "ls-tree").map(|_| ())
}

/// `<mode> SP <type> SP <oid> TAB <path> NUL`, repeated.
pub fn parse_ls_tree(out: &[u8]) -> Result<Vec<TreeEntry>, GitError> {
    let bad = || GitError("unexpected output from git ls-tree".into());
    let mut entries = Vec::new();
    for record in out.split(|&b| b == 0).filter(|r| !r.is_empty()) {
        let tab = record.iter().position(|&b| b == b'\t').ok_or_else(bad)?;
        let head = std::str::from_utf8(&record[..tab]).map_err(|_| bad())?;
        let mut parts = head.split(' ');
        let (Some(mode), Some(_kind), Some(oid)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        let mode = match mode {
            "100644" | "100755" | "100664" => EntryMode::File,
            "120000" => EntryMode::Link,
            "160000" => EntryMode::Submodule,
            _ => continue,
        };
        entries.push(TreeEntry {
            path: record[tab + 1..].to_vec(),
            mode,
            oid: oid.to_string(),
        });
    }
    Ok(entries)
}

/// One `git cat-file --batch` process: blobs asked for by id, read in
/// order. Dropped, it closes git's input and waits for it.
pub struct BlobReader {
    child: Child,
    stdin: Option<ChildStdin>,
    out: BufReader<ChildStdout>,
}

impl BlobReader {
    pub fn spawn(root: &str) -> Result<BlobReader, GitError> {
        let mut cmd = git(root);
        cmd.args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = cmd
            .spawn()
            .map_err(|e| GitError(format!("cannot run git (cat-file): {e}")))?;
        let stdin = child.stdin.take();
        let out = BufReader::new(child.stdout.take().expect("piped"));
        Ok(BlobReader { child, stdin, out })
    }

    /// The blobs `oids`, in order (`None` for one git does not have). The
    /// ids are written by a second thread while this one reads, so a large
    /// batch cannot fill both pipes and stall.
    pub fn read_many(&mut self, oids: &[&str]) -> io::Result<Vec<Option<Vec<u8>>>> {
        let mut stdin = self
            .stdin
            .take()
            .ok_or_else(|| io::Error::other("git cat-file has stopped"))?;
        let mut request = String::with_capacity(oids.len() * 41);
        for oid in oids {
            request.push_str(oid);
            request.push('\n');
        }
        let out = &mut self.out;
        let (written, blobs) = std::thread::scope(|s| {
            let writer = s.spawn(move || {
                stdin.write_all(request.as_bytes())?;
                stdin.flush()?;
                Ok::<_, io::Error>(stdin)
            });
            let blobs: io::Result<Vec<_>> = oids.iter().map(|_| read_one(out)).collect();
            (writer.join().expect("the writer does not panic"), blobs)
        });
        self.stdin = Some(written?);
        blobs
    }

    pub fn read(&mut self, oid: &str) -> io::Result<Option<Vec<u8>>> {
        Ok(self.read_many(&[oid])?.pop().flatten())
    }
}

/// The most of one blob kept in memory: one byte past the config cap.
const BLOB_KEEP_MAX: usize = CONFIG_MAX_BYTES as usize + 1;

/// One answer of `cat-file --batch`: `<oid> <type> <size>\n<bytes>\n`, or
/// `<name> missing\n`.
fn read_one(out: &mut impl BufRead) -> io::Result<Option<Vec<u8>>> {
    let mut header = String::new();
    if out.read_line(&mut header)? == 0 {
        return Err(io::Error::other("git cat-file ended early"));
    }
    let header = header.trim_end();
    if header.ends_with(" missing") || header.ends_with(" ambiguous") {
        return Ok(None);
    }
    let size: usize = header
        .rsplit(' ')
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| io::Error::other(format!("unexpected git cat-file header: {header}")))?;
    // A revision is hostile input too: a blob of gigabytes is not held. Past
    // the config cap, one byte more than the cap is kept (enough for the
    // reader to refuse it as too large, with the disk's message) and the
    // rest is read past, so the answers that follow stay in step.
    let keep = size.min(BLOB_KEEP_MAX);
    let mut bytes = vec![0; keep];
    out.read_exact(&mut bytes)?;
    let rest = (size - keep) as u64;
    if io::copy(&mut out.by_ref().take(rest), &mut io::sink())? != rest {
        return Err(io::Error::other("git cat-file ended early"));
    }
    let mut newline = [0u8; 1];
    out.read_exact(&mut newline)?;
    Ok(Some(bytes))
}

impl Drop for BlobReader {
    fn drop(&mut self) {
        self.stdin.take();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ls_tree_output_is_parsed_with_any_bytes_in_names() {
        let mut out = Vec::new();
        out.extend_from_slice(b"100644 blob aaaa\tgoccia.json\0");
        out.extend_from_slice(b"120000 blob bbbb\tlink\0");
        out.extend_from_slice(b"160000 commit cccc\tsub\0");
        out.extend_from_slice(b"100755 blob dddd\tx/\xff\tname\0");
        let entries = parse_ls_tree(&out).unwrap();
        assert_eq!(entries.len(), 4);
        assert_eq!(entries[1].mode, EntryMode::Link);
        assert_eq!(entries[2].mode, EntryMode::Submodule);
        assert_eq!(entries[3].path, b"x/\xff\tname");
        assert_eq!(entries[3].oid, "dddd");
    }

    #[test]
    fn a_blob_past_the_cap_is_cut_and_the_next_answer_still_read() {
        let big = CONFIG_MAX_BYTES as usize * 3;
        let mut stream = format!("aaaa blob {big}\n").into_bytes();
        stream.resize(stream.len() + big, b'x');
        stream.extend_from_slice(b"\nbbbb blob 2\n{}\ncccc missing\n");
        let mut out = std::io::Cursor::new(stream);
        let first = read_one(&mut out).unwrap().unwrap();
        assert_eq!(first.len(), BLOB_KEEP_MAX);
        assert_eq!(read_one(&mut out).unwrap().unwrap(), b"{}");
        assert_eq!(read_one(&mut out).unwrap(), None);
        // Cut short: an error, not a blob.
        let mut short = std::io::Cursor::new(format!("dddd blob {big}\nxx").into_bytes());
        assert!(read_one(&mut short).is_err());
    }

    #[test]
    fn a_revision_cannot_be_an_option() {
        assert!(check_revision("--output=/tmp/x").is_err());
        assert!(check_revision("").is_err());
        assert!(check_revision("HEAD~1").is_ok());
    }

    #[test]
    fn batch_answers_are_read_in_order() {
        let data = b"aa blob 3\nabc\nbb missing\ncc blob 0\n\n".to_vec();
        let mut r = io::Cursor::new(data);
        assert_eq!(read_one(&mut r).unwrap(), Some(b"abc".to_vec()));
        assert_eq!(read_one(&mut r).unwrap(), None);
        assert_eq!(read_one(&mut r).unwrap(), Some(Vec::new()));
        assert!(read_one(&mut r).is_err());
    }
}

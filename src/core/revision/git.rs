//! Reading a git repository by spawning `git`: one `rev-parse` for the
//! repository's root, one `rev-parse` per revision for the commit it names,
//! one `ls-tree -r -z --full-tree` per revision for its tree, and one
//! `cat-file --batch` per revision for every blob read (the configs first,
//! in one batch, then each `extends` base as it is reached), never one
//! process per file. Nothing is written and no checkout changes: these
//! commands only read objects.
//!
//! The repository is hostile input, its configuration included: every call
//! goes through [`git`], which runs nothing the repository names (no lazy
//! fetch from a promisor remote, no transport at all, no credential helper,
//! askpass, fsmonitor, hook, pager, external diff, textconv or filter), and
//! through the one bounded spawner (`core::process`), which stops a git
//! that runs past its time limit or prints past its output limit.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use crate::core::paths::bounded::CONFIG_MAX_BYTES;
use crate::core::process::{self, Bounded, Limits, Pipes};

/// A failure of git itself (not a repository, an unknown revision), with
/// git's own message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GitError(pub String);

/// Configuration given on every call: it outranks the repository's own
/// (`-c` is read last), and each key is one that could otherwise name a
/// program or reach the network. `protocol.allow=never` and
/// `GIT_ALLOW_PROTOCOL` (empty: no protocol) stop every transport, so a
/// remote's `uploadpack`, `core.sshCommand`, `core.gitProxy`, a credential
/// helper or askpass is never reached; `safe.bareRepository=explicit`
/// keeps a bare repository committed inside the tree from being taken for
/// the repository.
const HARDENED_CONFIG: &[&str] = &[
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.pager=cat",
    "core.askPass=",
    "core.sshCommand=",
    "core.gitProxy=",
    "core.alternateRefsCommand=",
    "credential.helper=",
    "protocol.allow=never",
    "diff.external=",
    "log.showSignature=false",
    "submodule.recurse=false",
    "safe.bareRepository=explicit",
    "gc.auto=0",
    "maintenance.auto=false",
    "advice.graftFileDeprecated=false",
];

/// Environment set on every call: no lazy fetch (git 2.45+ honours
/// `GIT_NO_LAZY_FETCH`; older ones are held by the transport rules), no
/// transport, no prompt, no replace objects and no grafts (a revision and
/// its parents are read as git stores them: `info/grafts` would re-parent
/// a commit, and `GIT_NO_REPLACE_OBJECTS` does not stop it; an empty graft
/// file does), no optional locks, no system configuration.
const HARDENED_ENV: &[(&str, &str)] = &[
    ("GIT_NO_LAZY_FETCH", "1"),
    ("GIT_ALLOW_PROTOCOL", ""),
    ("GIT_PROTOCOL_FROM_USER", "0"),
    ("GIT_TERMINAL_PROMPT", "0"),
    ("GIT_ASKPASS", ""),
    ("SSH_ASKPASS", ""),
    ("GIT_PAGER", "cat"),
    ("PAGER", "cat"),
    ("GIT_CONFIG_NOSYSTEM", "1"),
    ("GIT_OPTIONAL_LOCKS", "0"),
    ("GIT_NO_REPLACE_OBJECTS", "1"),
    ("GIT_GRAFT_FILE", "/dev/null"),
    // git's messages in English whatever the user's language: they are
    // read ("not a git repository") and quoted in ours, which are English.
    ("LC_ALL", "C"),
];

/// Inherited variables that would point git at another repository or
/// another program than the one asked for (set, for example, when
/// goccia-trust runs inside a git hook).
const CLEARED_ENV: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_EXTERNAL_DIFF",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_PROXY_COMMAND",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_TRACE",
    "GIT_TRACE2",
    "GIT_TRACE2_EVENT",
    "GIT_TRACE2_PERF",
];

/// The one way git is run: in `dir`, hardened as above, input closed.
pub fn git(dir: &str) -> Command {
    let mut cmd = Command::new("git");
    cmd.arg("--no-pager").arg("-C").arg(dir);
    for setting in HARDENED_CONFIG {
        cmd.arg("-c").arg(setting);
    }
    for var in CLEARED_ENV {
        cmd.env_remove(var);
    }
    cmd.envs(HARDENED_ENV.iter().copied()).stdin(Stdio::null());
    cmd
}

/// How long one git process may run: `GOCCIA_TRUST_GIT_TIMEOUT` seconds,
/// else 60 (a 5,000-config diff takes a fraction of a second; a git that
/// waits on a FIFO its configuration includes would wait forever).
pub fn time_limit() -> Duration {
    crate::core::env::GOCCIA_TRUST_GIT_TIMEOUT
        .read()
        .parse::<u64>()
        .ok()
        .filter(|s| *s > 0)
        .map(Duration::from_secs)
        .unwrap_or(Duration::from_secs(60))
}

pub(super) fn too_slow(what: &str) -> GitError {
    GitError(format!(
        "git {what} did not finish within {} s and was stopped (GOCCIA_TRUST_GIT_TIMEOUT sets the limit)",
        time_limit().as_secs()
    ))
}

/// git's limits: the time limit, and no grace (git holds no state worth
/// a polite stop).
fn limits() -> Limits {
    Limits {
        timeout: time_limit(),
        grace: Duration::ZERO,
    }
}

/// Starts `cmd` through the one bounded spawner (`core::process`).
fn spawn(cmd: &mut Command, what: &str) -> Result<(Bounded, Pipes), GitError> {
    Bounded::spawn(cmd, limits()).map_err(|e| GitError(format!("cannot run git ({what}): {e}")))
}

/// The most git's message (stderr) is kept of.
const STDERR_MAX: u64 = 64 * 1024;

/// Runs `cmd` to completion within the time limit and `max` bytes of
/// output: its stdout, or git's message (its stderr, trimmed) as the error.
pub(super) fn output(mut cmd: Command, what: &str, max: usize) -> Result<Vec<u8>, GitError> {
    let ran = process::capture(&mut cmd, limits(), max as u64, STDERR_MAX)
        .map_err(|e| GitError(format!("cannot run git ({what}): {e}")))?;
    if ran.timed_out {
        return Err(too_slow(what));
    }
    if let Some(e) = ran.read_error {
        return Err(GitError(format!("git {what}: {e}")));
    }
    if ran.overflowed {
        return Err(GitError(format!(
            "git {what} printed more than {max} bytes and was stopped"
        )));
    }
    if ran.status.success() {
        return Ok(ran.stdout);
    }
    let msg = String::from_utf8_lossy(&ran.stderr).trim().to_string();
    Err(GitError(if msg.is_empty() {
        format!("git {what} failed ({})", ran.status)
    } else {
        msg
    }))
}

/// The most a `rev-parse` prints (a path or an object id).
pub(super) const SMALL_OUTPUT: usize = 64 * 1024;
/// The most an `ls-tree -r` prints: about two million entries.
const TREE_OUTPUT: usize = 256 * 1024 * 1024;

/// The root of the working tree that holds `cwd`, as git names it.
pub fn toplevel(cwd: &str) -> Result<String, GitError> {
    let mut cmd = git(cwd);
    cmd.args(["rev-parse", "--show-toplevel"]);
    let out = output(cmd, "rev-parse", SMALL_OUTPUT)?;
    let text = String::from_utf8(out)
        .map_err(|_| GitError("the repository's path is not UTF-8".into()))?;
    Ok(text.trim_end_matches('\n').to_string())
}

/// The repository's own value of `key` (`core.hooksPath`), as git would
/// read it without this tool's overrides: the last value of any scope but
/// the command line's (where [`git`] sets its own). `None` when unset.
pub fn own_config_value(root: &str, key: &str) -> Result<Option<String>, GitError> {
    let mut cmd = git(root);
    cmd.args([
        "config",
        "--show-scope",
        "--get-all",
        "--end-of-options",
        key,
    ]);
    let out = match output(cmd, "config", SMALL_OUTPUT) {
        Ok(out) => out,
        // `git config --get-all` exits 1 when the key is unset.
        Err(GitError(msg)) if msg.is_empty() || msg.starts_with("git config failed") => {
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    let text = String::from_utf8_lossy(&out);
    Ok(text
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .filter(|(scope, _)| *scope != "command")
        .map(|(_, value)| value.to_string())
        .next_back())
}

/// What a revision name is, for the completions' descriptions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RevisionKind {
    Branch,
    Tag,
    RemoteBranch,
    Commit,
}

/// The revisions a person is likely to type in the repository holding
/// `cwd`: its branches, tags and remote branches (by short name), then the
/// abbreviated ids of its `recent` newest commits from HEAD. Names that are
/// not UTF-8 are left out (they could not be typed back).
pub fn revision_names(cwd: &str, recent: usize) -> Result<Vec<(String, RevisionKind)>, GitError> {
    let mut cmd = git(cwd);
    cmd.args([
        "for-each-ref",
        "--format=%(refname)",
        "refs/heads",
        "refs/tags",
        "refs/remotes",
    ]);
    let refs = output(cmd, "for-each-ref", TREE_OUTPUT)?;
    let mut names = Vec::new();
    for line in String::from_utf8_lossy(&refs).lines() {
        let kinds = [
            ("refs/heads/", RevisionKind::Branch),
            ("refs/tags/", RevisionKind::Tag),
            ("refs/remotes/", RevisionKind::RemoteBranch),
        ];
        for (prefix, kind) in kinds {
            if let Some(name) = line.strip_prefix(prefix)
                && !name.ends_with("/HEAD")
                && !name.contains('\u{fffd}')
            {
                names.push((name.to_string(), kind));
            }
        }
    }
    let mut cmd = git(cwd);
    cmd.args([
        "log",
        "--format=%h",
        &format!("--max-count={recent}"),
        "HEAD",
        "--",
    ]);
    // A repository without a commit has no HEAD: its refs are all there is.
    if let Ok(ids) = output(cmd, "log", SMALL_OUTPUT) {
        for id in String::from_utf8_lossy(&ids).lines() {
            names.push((id.to_string(), RevisionKind::Commit));
        }
    }
    Ok(names)
}

/// The repository's common git directory (`.git`, shared by its
/// worktrees), as an absolute path.
pub fn common_dir(root: &str) -> Result<String, GitError> {
    let mut cmd = git(root);
    cmd.args(["rev-parse", "--path-format=absolute", "--git-common-dir"]);
    let out = output(cmd, "rev-parse", SMALL_OUTPUT)?;
    let text = String::from_utf8(out)
        .map_err(|_| GitError("the repository's path is not UTF-8".into()))?;
    Ok(text.trim_end_matches('\n').to_string())
}

/// The commit `rev` names in the repository at `root` (a commit id, a
/// branch, a tag, `HEAD~1`), as its full id. A revision naming a tree or a
/// blob (`HEAD:sub`, `HEAD^{tree}`) is refused: its paths would be read as
/// if they were the repository's root.
pub fn commit_of(root: &str, rev: &str) -> Result<String, GitError> {
    check_revision(rev)?;
    let verify = |spec: &str| {
        let mut cmd = git(root);
        cmd.args(["rev-parse", "--verify", "--quiet", "--end-of-options", spec]);
        output(cmd, "rev-parse", SMALL_OUTPUT)
    };
    match verify(&format!("{rev}^{{commit}}")) {
        Ok(out) => {
            let id = String::from_utf8_lossy(&out).trim().to_string();
            if id.len() >= 40 && id.bytes().all(|b| b.is_ascii_hexdigit()) {
                Ok(id)
            } else {
                Err(GitError(format!(
                    "unexpected output from git rev-parse: {id}"
                )))
            }
        }
        Err(e) if e == too_slow("rev-parse") => Err(e),
        Err(_) if verify(rev).is_ok() => Err(GitError(format!(
            "not a commit: '{rev}' names a tree or a file, not a commit (BASE and HEAD must be commits, branches or tags)"
        ))),
        Err(_) => Err(GitError(format!(
            "unknown revision: '{rev}' is not a commit, branch or tag of the repository at {root}"
        ))),
    }
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
    let out = output(cmd, "ls-tree", TREE_OUTPUT)?;
    parse_ls_tree(&out)
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
/// order, within the time limit. Dropped, it closes git's input and waits
/// for it.
pub struct BlobReader {
    stdin: Option<ChildStdin>,
    out: BufReader<ChildStdout>,
    // Last: dropped after the pipes, so git sees its input closed first.
    run: Bounded,
}

impl BlobReader {
    pub fn spawn(root: &str) -> Result<BlobReader, GitError> {
        let mut cmd = git(root);
        cmd.args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let (run, pipes) = spawn(&mut cmd, "cat-file")?;
        Ok(BlobReader {
            stdin: pipes.stdin,
            out: BufReader::new(
                pipes
                    .stdout
                    .ok_or_else(|| GitError("git cat-file: its output is not piped".into()))?,
            ),
            run,
        })
    }

    /// The blobs `oids`, in order (`None` for one git does not have: it is
    /// never fetched). The ids are written by a second thread while this
    /// one reads, so a large batch cannot fill both pipes and stall.
    pub fn read_many(&mut self, oids: &[&str]) -> Result<Vec<Option<Vec<u8>>>, GitError> {
        let result = self.try_read_many(oids);
        result.map_err(|e| {
            if self.run.timed_out() {
                too_slow("cat-file")
            } else {
                GitError(format!("git cat-file: {e}"))
            }
        })
    }

    fn try_read_many(&mut self, oids: &[&str]) -> io::Result<Vec<Option<Vec<u8>>>> {
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
            (
                writer
                    .join()
                    .unwrap_or_else(|_| Err(io::Error::other("its writer stopped"))),
                blobs,
            )
        });
        self.stdin = Some(written?);
        blobs
    }

    pub fn read(&mut self, oid: &str) -> Result<Option<Vec<u8>>, GitError> {
        Ok(self.read_many(&[oid])?.pop().flatten())
    }

    /// The object `name` names (an id, or `<commit>^{tree}`: never text
    /// from the repository, which could hold a line break), whole, with its
    /// id and type: `None` when git does not have it. Past `max` bytes it
    /// is an error, not a cut object (a tree is read whole or not at all).
    pub fn object(&mut self, name: &str, max: usize) -> Result<Option<Object>, GitError> {
        let Some((oid, kind, bytes)) = self.ask(name, max)? else {
            return Ok(None);
        };
        match bytes {
            Ok(bytes) => Ok(Some(Object { oid, kind, bytes })),
            Err(_) => Err(GitError(format!(
                "object {oid} is larger than {max} bytes and was not read"
            ))),
        }
    }
}

impl BlobReader {
    /// The blob `oid` when it holds at most `max` bytes: `Ok(None)` when
    /// git does not have it, `Ok(Some(Err(size)))` when it is larger (its
    /// bytes are passed over, never kept).
    pub fn blob_within(
        &mut self,
        oid: &str,
        max: usize,
    ) -> Result<Option<Result<Vec<u8>, usize>>, GitError> {
        Ok(self.ask(oid, max)?.map(|(_, _, bytes)| bytes))
    }

    /// Asks `git cat-file --batch` for `name`: its id, type and bytes when
    /// they are at most `max` (else its size, the bytes passed over so the
    /// next answer is read from its start), or `None` when git does not
    /// have it.
    fn ask(&mut self, name: &str, max: usize) -> Result<Option<Asked>, GitError> {
        let fail = |run: &Bounded, e: io::Error| {
            if run.timed_out() {
                too_slow("cat-file")
            } else {
                GitError(format!("git cat-file: {e}"))
            }
        };
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| GitError("git cat-file has stopped".into()))?;
        let asked = stdin
            .write_all(format!("{name}\n").as_bytes())
            .and_then(|()| stdin.flush());
        asked.map_err(|e| fail(&self.run, e))?;
        let header = read_header(&mut self.out).map_err(|e| fail(&self.run, e))?;
        let Some((oid, kind, size)) = header else {
            return Ok(None);
        };
        if size > max {
            let skipped = io::copy(&mut (&mut self.out).take(size as u64 + 1), &mut io::sink());
            skipped.map_err(|e| fail(&self.run, e))?;
            return Ok(Some((oid, kind, Err(size))));
        }
        let mut bytes = vec![0; size + 1];
        self.out
            .read_exact(&mut bytes)
            .map_err(|e| fail(&self.run, e))?;
        bytes.pop();
        Ok(Some((oid, kind, Ok(bytes))))
    }
}

/// What `git cat-file --batch` answered: the object's id, its type, and its
/// bytes or (past the limit asked) its size.
type Asked = (String, String, Result<Vec<u8>, usize>);

/// One object of [`BlobReader::object`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Object {
    pub oid: String,
    /// `blob`, `tree`, `commit` or `tag`.
    pub kind: String,
    pub bytes: Vec<u8>,
}

/// `<oid> <type> <size>\n`, or `None` for `<name> missing` (or
/// `ambiguous`).
fn read_header(out: &mut impl BufRead) -> io::Result<Option<(String, String, usize)>> {
    let mut header = String::new();
    if out.read_line(&mut header)? == 0 {
        return Err(io::Error::other("git cat-file ended early"));
    }
    let header = header.trim_end();
    if header.ends_with(" missing") || header.ends_with(" ambiguous") {
        return Ok(None);
    }
    let bad = || io::Error::other(format!("unexpected git cat-file header: {header}"));
    let mut parts = header.split(' ');
    let (Some(oid), Some(kind), Some(size), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    let size = size.parse().map_err(|_| bad())?;
    Ok(Some((oid.to_string(), kind.to_string(), size)))
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

    /// An object past the limit asked is an error, and its bytes are
    /// passed over: the next object asked of the same reader is read from
    /// its own start, not from the refused one's bytes.
    #[test]
    fn an_object_past_its_limit_is_refused_and_the_next_still_read() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_str().unwrap();
        let run = |args: &[&str], input: &[u8]| {
            let mut c = std::process::Command::new("git");
            c.current_dir(root)
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped());
            let mut child = c.spawn().unwrap();
            child.stdin.take().unwrap().write_all(input).unwrap();
            let out = child.wait_with_output().unwrap();
            String::from_utf8(out.stdout).unwrap().trim().to_string()
        };
        run(&["init", "-q"], b"");
        let big = run(&["hash-object", "-w", "--stdin"], &[b'x'; 4096]);
        let small = run(&["hash-object", "-w", "--stdin"], b"{}");
        let mut reader = BlobReader::spawn(root).unwrap();
        let refused = reader.object(&big, 1024).unwrap_err();
        assert!(
            refused.0.contains("is larger than 1024 bytes"),
            "{refused:?}"
        );
        let next = reader.object(&small, 1024).unwrap().unwrap();
        assert_eq!(
            (next.kind.as_str(), next.bytes.as_slice()),
            ("blob", &b"{}"[..])
        );
        assert_eq!(reader.blob_within(&big, 1024).unwrap(), Some(Err(4096)));
        assert_eq!(
            reader.blob_within(&small, 1024).unwrap(),
            Some(Ok(b"{}".to_vec()))
        );
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

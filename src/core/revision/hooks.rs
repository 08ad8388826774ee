//! The git hooks `goccia-trust hook install` adds: a small block, between
//! marker comments, in the repository's `post-merge`, `post-checkout` and
//! `post-rewrite` hooks, that runs `goccia-trust hook run NAME` (a notice,
//! never a gate). An existing hook is never overwritten nor renamed: the
//! block is appended to a shell script and removed byte for byte by
//! `uninstall`; a hook in another language is left alone, and the one line
//! to add is given instead. Where the hooks live is git's answer, read
//! through the hardened [`git`](crate::core::revision::git::git): the
//! repository's own `core.hooksPath`, else `<common git dir>/hooks`.

use std::fs;
use std::io::Write;

use crate::core::env::Env;
use crate::core::paths::bounded::{ReadError, read_regular};
use crate::core::paths::display::shell_quote;
use crate::core::revision::git::{GitError, common_dir, own_config_value, toplevel};

/// The hooks the block goes into: after a pull or merge, a checkout, and a
/// rebase or amend.
pub const HOOK_NAMES: &[&str] = &["post-merge", "post-checkout", "post-rewrite"];

const START: &str = "# >>> goccia-trust hook >>>\n";
const START_CREATED: &str = "# >>> goccia-trust hook (created this file) >>>\n";
const END: &str = "# <<< goccia-trust hook <<<\n";
/// The first line of a hook file `install` creates.
const SHEBANG: &str = "#!/bin/sh\n";

/// Where the hooks' check reads: the store and the state directory named
/// when `install` ran (`--trust-store=FILE`, `GOCCIA_TRUST_STATE_DIR`),
/// recorded in the block; `None`: the defaults, resolved when the hook runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookOptions {
    pub store: Option<String>,
    pub state_dir: Option<String>,
}

/// How the line the block holds starts: it does nothing where goccia-trust
/// is not on the hook's PATH.
const LINE_START: &str = "{ command -v goccia-trust >/dev/null 2>&1 && ";

/// The line of blocks before issue 41: it fails the hook (and `git
/// checkout`) where goccia-trust is not on PATH. Recognised, to be replaced
/// and removed.
fn legacy_line(name: &str) -> String {
    format!(
        "command -v goccia-trust >/dev/null 2>&1 && {{ goccia-trust hook run {name} \"$@\" || :; }}\n"
    )
}

/// The one line that runs the notice from a hook named `name`: it ends with
/// success whatever happens (goccia-trust not on the hook's PATH, killed,
/// failing), and reads the store and state directory `o` names.
pub fn hook_line(name: &str, o: &HookOptions) -> String {
    format!("{LINE_START}{} \"$@\"; }} || :\n", hook_command(name, o))
}

/// `goccia-trust hook run NAME`, with the store and state directory `o`
/// names: the command a hook manager's own file runs.
pub fn hook_command(name: &str, o: &HookOptions) -> String {
    let mut cmd = String::new();
    if let Some(dir) = &o.state_dir {
        cmd += &format!("GOCCIA_TRUST_STATE_DIR={} ", shell_quote(dir));
    }
    cmd += "goccia-trust";
    if let Some(store) = &o.store {
        cmd += &format!(" --trust-store={}", shell_quote(store));
    }
    format!("{cmd} hook run {name}")
}

/// Whether `line` is a line of ours for the hook `name`, this version's
/// (with any options) or the legacy one.
fn is_our_line(line: &str, name: &str) -> bool {
    line == legacy_line(name)
        || (line.starts_with(LINE_START)
            && line.ends_with(&format!(" hook run {name} \"$@\"; }} || :\n"))
            && line.matches('\n').count() == 1)
}

const COMMENT: &str =
    "# Added by `goccia-trust hook install`; `goccia-trust hook uninstall` removes it.\n";

/// The block between the markers; `created` when `install` made the file.
fn block(name: &str, created: bool, o: &HookOptions) -> String {
    let start = if created { START_CREATED } else { START };
    format!("{start}{COMMENT}{}{END}", hook_line(name, o))
}

/// Where the repository's hooks are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HooksDir {
    /// The repository's working tree root.
    pub root: String,
    pub dir: String,
    /// Whether `core.hooksPath` chose it.
    pub from_hooks_path: bool,
}

/// The hooks directory of the repository holding `cwd`.
pub fn hooks_dir(cwd: &str, env: &Env) -> Result<HooksDir, GitError> {
    let root = toplevel(cwd)?;
    if let Some(path) = own_config_value(&root, "core.hooksPath")? {
        // A relative hooksPath is relative to where hooks run: the working
        // tree's root. `~/` is the home directory, as git expands it.
        let dir = if let Some(rest) = path.strip_prefix("~/") {
            format!("{}/{rest}", env.home.trim_end_matches('/'))
        } else if path.starts_with('/') {
            path
        } else {
            format!("{root}/{path}")
        };
        return Ok(HooksDir {
            root,
            dir: dir.trim_end_matches('/').to_string(),
            from_hooks_path: true,
        });
    }
    let common = common_dir(&root)?;
    Ok(HooksDir {
        root,
        dir: format!("{common}/hooks"),
        from_hooks_path: false,
    })
}

/// What a hook file holds, as far as the block goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookState {
    /// No file.
    Absent,
    /// A file without the block.
    Without,
    /// The block is there, and git runs it.
    Installed,
    /// The block is there but never runs: why.
    NotRun(String),
    /// The block of an earlier version, which fails the hook where
    /// goccia-trust is not on PATH: `install` replaces it.
    Outdated,
    /// No block, but the hook runs `goccia-trust hook run NAME` itself (the
    /// line the user added where the block could not go).
    ByHand,
    /// Something that is not a regular file, or cannot be read: its reason.
    Unusable(String),
}

/// A hook manager that owns the hook files: `install` writes nothing into
/// them and says what to add to the manager's own file instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Manager {
    /// husky 9: `core.hooksPath` is `.husky/_`, whose generated scripts
    /// run `.husky/NAME` through `h` (and exit there).
    Husky,
    /// lefthook: generated scripts that run `lefthook run NAME`, rewritten
    /// by `lefthook install`.
    Lefthook,
    /// pre-commit: generated scripts that run `pre-commit hook-impl`.
    PreCommit,
}

/// What `install` will do to one hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InstallStep {
    /// Create the file (`#!/bin/sh` and the block), executable.
    Create,
    /// Append the block to this shell script.
    Append,
    /// Put the block before the trailing `exit` (or `exec`) at this byte
    /// offset, on this line (1-based): after it, the block would never run.
    Insert { at: usize, line: usize },
    /// Replace a block of ours (an earlier version's, or one reading
    /// another store) with this one, in place.
    Replace,
    /// The block is already there.
    AlreadyInstalled,
    /// The hook runs the notice by a line of its own: left as it is.
    ByHand,
    /// A hook manager owns the file: left as it is, the user declares the
    /// notice in the manager's own file.
    Managed(Manager),
    /// Leave it: the reason; the user adds [`hook_line`] themselves.
    Refuse(String),
}

/// A hook's path in `dir`.
pub fn hook_path(dir: &str, name: &str) -> String {
    format!("{dir}/{name}")
}

/// The most a hook file is read: a hook is a short script.
const HOOK_MAX_BYTES: u64 = 1024 * 1024;

/// A hook file, which the repository (its `core.hooksPath`, a manager's
/// folder) may have made anything: a link is refused before it is
/// followed, and the read is the bounded one (a FIFO or device swapped in
/// after the check is refused, not waited on).
fn read_hook(path: &str) -> Result<Option<Vec<u8>>, String> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
        Ok(m) if !m.file_type().is_file() => return Err(NOT_REGULAR.into()),
        Ok(m) if m.len() > HOOK_MAX_BYTES => return Err(TOO_LARGE.into()),
        Ok(_) => {}
    }
    match read_regular(path, HOOK_MAX_BYTES) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(ReadError::Io(e)) => Err(e.to_string()),
        Err(ReadError::NotRegular { .. }) => Err(NOT_REGULAR.into()),
        Err(ReadError::TooLarge { .. }) => Err(TOO_LARGE.into()),
    }
}

const NOT_REGULAR: &str = "it is not a regular file (a link or a directory)";
const TOO_LARGE: &str = "it is larger than 1 MiB";

/// The user's own hook beside a manager's (husky's `.husky/NAME`), when it
/// is a regular file that can be read.
fn read_own_hook(dir: &str, name: &str) -> Option<Vec<u8>> {
    read_regular(hook_path(parent_dir(dir), name), HOOK_MAX_BYTES).ok()
}

/// The hook at `path` again, to rewrite it: as bounded as the first read.
fn reread_hook(path: &str) -> std::io::Result<Vec<u8>> {
    read_regular(path, HOOK_MAX_BYTES).map_err(|e| match e {
        ReadError::Io(e) => e,
        other => std::io::Error::other(other.describe()),
    })
}

/// The state of the hook `name` in `dir`: `Installed` only for a block
/// git will run (the file is executable, no manager's script exits before
/// it, no `exit` or `exec` line comes first).
pub fn hook_state(dir: &str, name: &str, o: &HookOptions) -> HookState {
    let path = hook_path(dir, name);
    let bytes = match read_hook(&path) {
        Ok(None) => return HookState::Absent,
        Ok(Some(bytes)) => bytes,
        Err(reason) => return HookState::Unusable(reason),
    };
    let Some(found) = find_block(&bytes, name) else {
        // husky runs the user's `.husky/NAME`, where the line goes.
        let own = match manager(dir, &bytes) {
            Some(Manager::Husky) => read_own_hook(dir, name),
            _ => None,
        };
        return if runs_notice(&bytes, name) || own.is_some_and(|b| runs_notice(&b, name)) {
            HookState::ByHand
        } else {
            HookState::Without
        };
    };
    if let Some(m) = manager(dir, &bytes) {
        return HookState::NotRun(format!("{}'s script ends before it", m.name()));
    }
    if let Some(line) = ending_line(&bytes[..found.from]) {
        return HookState::NotRun(format!("line {line} ends the script before it"));
    }
    if !is_executable(&path) {
        return HookState::NotRun("the file is not executable".into());
    }
    if found.body != format!("{COMMENT}{}", hook_line(name, o)) && found.legacy {
        return HookState::Outdated;
    }
    HookState::Installed
}

fn parent_dir(dir: &str) -> &str {
    dir.rsplit_once('/').map_or(dir, |(p, _)| p)
}

#[cfg(unix)]
fn is_executable(path: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(_: &str) -> bool {
    true
}

/// The 1-based number of the first line of `bytes` that ends the script
/// where it stands: `exit` or `exec` as a command of its own at the start of
/// a line (an indented one is taken to be inside a condition).
fn ending_line(bytes: &[u8]) -> Option<usize> {
    let text = String::from_utf8_lossy(bytes);
    text.lines()
        .position(|l| is_ending(l) && !l.starts_with([' ', '\t']))
        .map(|i| i + 1)
}

/// Whether `line` is an `exit` or `exec` command.
fn is_ending(line: &str) -> bool {
    let t = line.trim();
    ["exit", "exec"].iter().any(|w| {
        t.strip_prefix(w)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t', ';']))
    })
}

/// Which manager generated the hook in `dir` holding `bytes`, if one did.
pub fn manager(dir: &str, bytes: &[u8]) -> Option<Manager> {
    let text = String::from_utf8_lossy(bytes);
    let path = std::path::Path::new(dir);
    let in_husky = path.file_name().is_some_and(|n| n == "_")
        && path
            .parent()
            .and_then(|p| p.file_name())
            .is_some_and(|n| n == ".husky");
    if in_husky || text.contains("/h\"") && std::path::Path::new(&format!("{dir}/h")).is_file() {
        Some(Manager::Husky)
    } else if text.contains("File generated by pre-commit") {
        Some(Manager::PreCommit)
    } else if text.contains("lefthook") {
        Some(Manager::Lefthook)
    } else {
        None
    }
}

impl Manager {
    pub fn name(self) -> &'static str {
        match self {
            Manager::Husky => "husky",
            Manager::Lefthook => "lefthook",
            Manager::PreCommit => "pre-commit",
        }
    }
}

/// Whether `bytes` start with a `#!` line naming a POSIX-like shell, which
/// runs an appended block.
fn is_shell_script(bytes: &[u8]) -> bool {
    let first = bytes.split(|b| *b == b'\n').next().unwrap_or_default();
    let Ok(first) = std::str::from_utf8(first) else {
        return false;
    };
    let Some(interp) = first.strip_prefix("#!") else {
        return false;
    };
    let mut words = interp.split_whitespace();
    let prog = words.next().unwrap_or_default();
    let prog = prog.rsplit('/').next().unwrap_or_default();
    let prog = if prog == "env" {
        words.find(|w| !w.starts_with('-')).unwrap_or_default()
    } else {
        prog
    };
    ["sh", "bash", "dash", "zsh", "ksh", "ash"].contains(&prog)
}

/// What `install` will do to the hook `name` in `dir`.
pub fn install_step(dir: &str, name: &str, o: &HookOptions) -> InstallStep {
    let bytes = match read_hook(&hook_path(dir, name)) {
        Ok(None) => return InstallStep::Create,
        Ok(Some(bytes)) => bytes,
        Err(reason) => return InstallStep::Refuse(reason),
    };
    if let Some(m) = manager(dir, &bytes) {
        let own = read_own_hook(dir, name);
        if m == Manager::Husky && own.is_some_and(|b| runs_notice(&b, name)) {
            return InstallStep::ByHand;
        }
        return InstallStep::Managed(m);
    }
    if let Some(found) = find_block(&bytes, name) {
        let current = found.body == format!("{COMMENT}{}", hook_line(name, o));
        if current && ending_line(&bytes[..found.from]).is_none() {
            return InstallStep::AlreadyInstalled;
        }
        // An earlier block, or one an `exit` keeps from running: put
        // afresh where it runs.
        return match placement(&without(&bytes, &found)) {
            InstallStep::Refuse(why) => InstallStep::Refuse(why),
            _ => InstallStep::Replace,
        };
    }
    if runs_notice(&bytes, name) {
        return InstallStep::ByHand;
    }
    if !is_shell_script(&bytes) {
        return InstallStep::Refuse("it is not a shell script".into());
    }
    placement(&bytes)
}

/// Where the block goes in a shell script: at the end, or before a
/// trailing `exit` or `exec` (the script's last command); refused when an
/// `exit` or `exec` earlier on ends the script before the end.
fn placement(bytes: &[u8]) -> InstallStep {
    let text = String::from_utf8_lossy(bytes);
    let mut offset = 0;
    let mut last: Option<(usize, usize)> = None;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let t = line.trim();
        if !t.is_empty() && !t.starts_with('#') {
            last = Some((offset, i + 1));
        }
        offset += line.len();
    }
    let trailing = last.filter(|(at, _)| is_ending(text[*at..].lines().next().unwrap_or("")));
    let before = trailing.map_or(bytes.len(), |(at, _)| at);
    if let Some(line) = ending_line(&bytes[..before]) {
        return InstallStep::Refuse(format!(
            "line {line} ends the script before its end; add the line above it"
        ));
    }
    match trailing {
        // The block, with the line break before it, goes before the line
        // break that ends the line above the `exit`.
        Some((at, line)) if at > 0 => InstallStep::Insert { at: at - 1, line },
        Some(_) => InstallStep::Refuse("it starts with `exit`".into()),
        None => InstallStep::Append,
    }
}

/// Carries out one step (`Create`, `Append`, `Insert`, `Replace`; the
/// others write nothing).
pub fn apply(dir: &str, name: &str, step: &InstallStep, o: &HookOptions) -> std::io::Result<()> {
    let path = hook_path(dir, name);
    match step {
        InstallStep::Create => {
            fs::create_dir_all(dir)?;
            let mut options = fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o755);
            let mut f = options.open(&path)?;
            f.write_all(format!("{SHEBANG}\n{}", block(name, true, o)).as_bytes())?;
            // The mode asked for is masked by the umask: a hook must run.
            // (Windows has no execute bit: Git for Windows runs the script.)
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                fs::set_permissions(&path, fs::Permissions::from_mode(0o755))?;
            }
            Ok(())
        }
        InstallStep::Append => {
            // One line break before the block, removed with it: the file's
            // bytes come back whether or not they ended with one.
            let mut f = fs::OpenOptions::new().append(true).open(&path)?;
            f.write_all(format!("\n{}", block(name, false, o)).as_bytes())
        }
        InstallStep::Insert { at, .. } => {
            let bytes = reread_hook(&path)?;
            let mut out = bytes[..*at].to_vec();
            out.extend_from_slice(format!("\n{}", block(name, false, o)).as_bytes());
            out.extend_from_slice(&bytes[*at..]);
            write_in_place(&path, &out)
        }
        InstallStep::Replace => {
            let bytes = reread_hook(&path)?;
            let Some(found) = find_block(&bytes, name) else {
                return Ok(());
            };
            let rest = without(&bytes, &found);
            let at = match placement(&rest) {
                InstallStep::Insert { at, .. } => at,
                _ => rest.len(),
            };
            let mut out = rest[..at].to_vec();
            out.extend_from_slice(format!("\n{}", block(name, found.created, o)).as_bytes());
            out.extend_from_slice(&rest[at..]);
            write_in_place(&path, &out)
        }
        InstallStep::AlreadyInstalled
        | InstallStep::ByHand
        | InstallStep::Managed(_)
        | InstallStep::Refuse(_) => Ok(()),
    }
}

/// Written in place (not replaced): the file keeps its mode and owner.
fn write_in_place(path: &str, bytes: &[u8]) -> std::io::Result<()> {
    fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(path)
        .and_then(|mut f| f.write_all(bytes))
}

/// `bytes` without the block `found` (and the line break before it).
fn without(bytes: &[u8], found: &Found) -> Vec<u8> {
    let mut rest = bytes[..found.from].to_vec();
    rest.extend_from_slice(&bytes[found.to..]);
    rest
}

/// A block of ours in a hook: where it is (with the line break before it),
/// whether `install` created the file, what is between the markers, and
/// whether its line is the legacy one.
struct Found {
    from: usize,
    to: usize,
    created: bool,
    body: String,
    legacy: bool,
}

/// The block of ours for `name` in `bytes`, if there is one: the markers
/// around the comment and one line of ours.
fn find_block(bytes: &[u8], name: &str) -> Option<Found> {
    for (created, start) in [(false, START), (true, START_CREATED)] {
        let open = format!("\n{start}");
        let Some(from) = find(bytes, open.as_bytes()) else {
            continue;
        };
        let inside = from + open.len();
        let Some(len) = find(&bytes[inside..], END.as_bytes()) else {
            continue;
        };
        let Ok(body) = std::str::from_utf8(&bytes[inside..inside + len]) else {
            continue;
        };
        let Some(line) = body.strip_prefix(COMMENT) else {
            continue;
        };
        if is_our_line(line, name) {
            return Some(Found {
                from,
                to: inside + len + END.len(),
                created,
                body: body.to_string(),
                legacy: line == legacy_line(name),
            });
        }
    }
    None
}

/// Whether a hook without the block runs the notice itself.
fn runs_notice(bytes: &[u8], name: &str) -> bool {
    find(bytes, format!("goccia-trust hook run {name}").as_bytes()).is_some()
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// What `uninstall` did to one hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Removed {
    /// The block was removed; the rest of the file is as it was.
    Block,
    /// `install` created the file and nothing else was added: it is gone.
    File,
    /// No block there (its markers are there but edited: `Edited`).
    NotInstalled,
    /// The markers are there but the block between them was edited: left
    /// as it is, for the user to remove.
    Edited,
}

/// Removes the block from the hook `name` in `dir`, byte for byte.
pub fn uninstall(dir: &str, name: &str) -> Result<Removed, String> {
    let path = hook_path(dir, name);
    let Some(bytes) = read_hook(&path)? else {
        return Ok(Removed::NotInstalled);
    };
    let Some(found) = find_block(&bytes, name) else {
        let text = String::from_utf8_lossy(&bytes);
        return Ok(if text.contains(END.trim_end()) {
            Removed::Edited
        } else {
            Removed::NotInstalled
        });
    };
    let rest = without(&bytes, &found);
    if found.created && rest == SHEBANG.as_bytes() {
        fs::remove_file(&path).map_err(|e| e.to_string())?;
        return Ok(Removed::File);
    }
    write_in_place(&path, &rest).map_err(|e| e.to_string())?;
    Ok(Removed::Block)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(unix)]
    use std::path::Path;

    #[test]
    fn shell_scripts_are_recognised_by_their_first_line() {
        assert!(is_shell_script(b"#!/bin/sh\necho"));
        assert!(is_shell_script(b"#!/usr/bin/env bash\n"));
        assert!(is_shell_script(b"#!/usr/bin/env -S zsh\n"));
        assert!(!is_shell_script(b"#!/usr/bin/env python3\n"));
        assert!(!is_shell_script(b"echo hi\n"));
        assert!(!is_shell_script(b"\x7fELF"));
    }

    #[test]
    fn uninstall_gives_back_the_bytes_with_or_without_a_final_newline() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_str().unwrap();
        for original in [&b"#!/bin/sh\necho a\n"[..], b"#!/bin/sh\necho a"] {
            let p = hook_path(d, "post-merge");
            fs::write(&p, original).unwrap();
            let o = HookOptions::default();
            assert_eq!(install_step(d, "post-merge", &o), InstallStep::Append);
            apply(d, "post-merge", &InstallStep::Append, &o).unwrap();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                fs::set_permissions(&p, fs::Permissions::from_mode(0o755)).unwrap();
            }
            assert_eq!(hook_state(d, "post-merge", &o), HookState::Installed);
            assert_eq!(uninstall(d, "post-merge").unwrap(), Removed::Block);
            assert_eq!(fs::read(&p).unwrap(), original);
        }
    }

    /// A repository's husky folder may hold a FIFO where the user's hook
    /// goes: reading the hooks' state refuses it at once, never waits for
    /// a writer.
    #[cfg(unix)]
    #[test]
    fn a_fifo_beside_a_managers_hook_is_not_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let husky = dir.path().join(".husky");
        fs::create_dir_all(husky.join("_")).unwrap();
        let managed = husky.join("_");
        let d = managed.to_str().unwrap().to_string();
        fs::write(
            hook_path(&d, "post-merge"),
            "#!/bin/sh\n. \"$(dirname \"$0\")/h\"\n",
        )
        .unwrap();
        crate::core::paths::portable::mkfifo(&husky.join("post-merge"));
        let (tx, rx) = std::sync::mpsc::channel();
        let dd = d.clone();
        std::thread::spawn(move || {
            let o = HookOptions::default();
            let _ = tx.send((
                hook_state(&dd, "post-merge", &o),
                install_step(&dd, "post-merge", &o),
            ));
        });
        let (state, step) = rx
            .recv_timeout(std::time::Duration::from_secs(5))
            .expect("the hooks' state was decided without waiting on the FIFO");
        assert_eq!(state, HookState::Without);
        assert_eq!(step, InstallStep::Managed(Manager::Husky));
    }

    #[cfg(unix)]
    #[test]
    fn a_created_hook_is_removed_whole() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("new-hooks");
        let d = d.to_str().unwrap();
        apply(
            d,
            "post-rewrite",
            &InstallStep::Create,
            &HookOptions::default(),
        )
        .unwrap();
        let mode = fs::metadata(hook_path(d, "post-rewrite"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        assert_eq!(uninstall(d, "post-rewrite").unwrap(), Removed::File);
        assert!(!Path::new(&hook_path(d, "post-rewrite")).exists());
    }
}

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
use crate::core::revision::git::{GitError, common_dir, own_config_value, toplevel};

/// The hooks the block goes into: after a pull or merge, a checkout, and a
/// rebase or amend.
pub const HOOK_NAMES: &[&str] = &["post-merge", "post-checkout", "post-rewrite"];

const START: &str = "# >>> goccia-trust hook >>>\n";
const START_CREATED: &str = "# >>> goccia-trust hook (created this file) >>>\n";
const END: &str = "# <<< goccia-trust hook <<<\n";
/// The first line of a hook file `install` creates.
const SHEBANG: &str = "#!/bin/sh\n";

/// The one line that runs the notice from a hook named `name`: it never
/// fails the hook, and does nothing where goccia-trust is not installed.
pub fn hook_line(name: &str) -> String {
    format!(
        "command -v goccia-trust >/dev/null 2>&1 && {{ goccia-trust hook run {name} \"$@\" || :; }}\n"
    )
}

/// The block between the markers; `created` when `install` made the file.
fn block(name: &str, created: bool) -> String {
    let start = if created { START_CREATED } else { START };
    format!(
        "{start}# Added by `goccia-trust hook install`; `goccia-trust hook uninstall` removes it.\n{}{END}",
        hook_line(name)
    )
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
    /// The block is there.
    Installed,
    /// No block, but the hook runs `goccia-trust hook run NAME` itself (the
    /// line the user added where the block could not go).
    ByHand,
    /// Something that is not a regular file, or cannot be read: its reason.
    Unusable(String),
}

/// What `install` will do to one hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InstallStep {
    /// Create the file (`#!/bin/sh` and the block), executable.
    Create,
    /// Append the block to this shell script.
    Append,
    /// The block is already there.
    AlreadyInstalled,
    /// The hook runs the notice by a line of its own: left as it is.
    ByHand,
    /// Leave it: the reason; the user adds [`hook_line`] themselves.
    Refuse(String),
}

/// A hook's path in `dir`.
pub fn hook_path(dir: &str, name: &str) -> String {
    format!("{dir}/{name}")
}

fn read_hook(path: &str) -> Result<Option<Vec<u8>>, String> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
        Ok(m) if !m.file_type().is_file() => {
            return Err("it is not a regular file (a link or a directory)".into());
        }
        Ok(m) if m.len() > 1024 * 1024 => return Err("it is larger than 1 MiB".into()),
        Ok(_) => {}
    }
    fs::read(path).map(Some).map_err(|e| e.to_string())
}

/// The state of the hook `name` in `dir`.
pub fn hook_state(dir: &str, name: &str) -> HookState {
    match read_hook(&hook_path(dir, name)) {
        Ok(None) => HookState::Absent,
        Ok(Some(bytes)) => {
            if find_block(&bytes, name).is_some() {
                HookState::Installed
            } else if runs_notice(&bytes, name) {
                HookState::ByHand
            } else {
                HookState::Without
            }
        }
        Err(reason) => HookState::Unusable(reason),
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
pub fn install_step(dir: &str, name: &str) -> InstallStep {
    match read_hook(&hook_path(dir, name)) {
        Ok(None) => InstallStep::Create,
        Ok(Some(bytes)) if find_block(&bytes, name).is_some() => InstallStep::AlreadyInstalled,
        Ok(Some(bytes)) if runs_notice(&bytes, name) => InstallStep::ByHand,
        Ok(Some(bytes)) if is_shell_script(&bytes) => InstallStep::Append,
        Ok(Some(_)) => InstallStep::Refuse("it is not a shell script".into()),
        Err(reason) => InstallStep::Refuse(reason),
    }
}

/// Carries out one step (`Create` or `Append`; the others write nothing).
pub fn apply(dir: &str, name: &str, step: &InstallStep) -> std::io::Result<()> {
    let path = hook_path(dir, name);
    match step {
        InstallStep::Create => {
            fs::create_dir_all(dir)?;
            let mut options = fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o755);
            let mut f = options.open(&path)?;
            f.write_all(format!("{SHEBANG}\n{}", block(name, true)).as_bytes())?;
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
            f.write_all(format!("\n{}", block(name, false)).as_bytes())
        }
        InstallStep::AlreadyInstalled | InstallStep::ByHand | InstallStep::Refuse(_) => Ok(()),
    }
}

/// Where the block (with the line break before it) is in `bytes`, and
/// whether `install` created the file.
fn find_block(bytes: &[u8], name: &str) -> Option<(usize, usize, bool)> {
    for created in [false, true] {
        let b = format!("\n{}", block(name, created));
        if let Some(at) = find(bytes, b.as_bytes()) {
            return Some((at, at + b.len(), created));
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
    let Some((from, to, created)) = find_block(&bytes, name) else {
        let text = String::from_utf8_lossy(&bytes);
        return Ok(if text.contains(END.trim_end()) {
            Removed::Edited
        } else {
            Removed::NotInstalled
        });
    };
    let mut rest = bytes[..from].to_vec();
    rest.extend_from_slice(&bytes[to..]);
    if created && rest == SHEBANG.as_bytes() {
        fs::remove_file(&path).map_err(|e| e.to_string())?;
        return Ok(Removed::File);
    }
    // Written in place (not replaced): the file keeps its mode and owner.
    fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(&path)
        .and_then(|mut f| f.write_all(&rest))
        .map_err(|e| e.to_string())?;
    Ok(Removed::Block)
}

#[cfg(test)]
mod tests {
    use super::*;
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
            assert_eq!(install_step(d, "post-merge"), InstallStep::Append);
            apply(d, "post-merge", &InstallStep::Append).unwrap();
            assert_eq!(hook_state(d, "post-merge"), HookState::Installed);
            assert_eq!(uninstall(d, "post-merge").unwrap(), Removed::Block);
            assert_eq!(fs::read(&p).unwrap(), original);
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_created_hook_is_removed_whole() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("new-hooks");
        let d = d.to_str().unwrap();
        apply(d, "post-rewrite", &InstallStep::Create).unwrap();
        let mode = fs::metadata(hook_path(d, "post-rewrite"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        assert_eq!(uninstall(d, "post-rewrite").unwrap(), Removed::File);
        assert!(!Path::new(&hook_path(d, "post-rewrite")).exists());
    }
}

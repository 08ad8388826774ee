//! The one check of a path a command is given (`scan PATH`, `--trust
//! PATH`, `inspect CONFIG`, an `extends` base, a store key): what it names,
//! links followed, or why nothing can be said of it. Each command words
//! the answer its own way (`path not found: x`, `x: no such file or
//! directory`, GocciaScript's own messages); the question is asked here
//! only.

use std::io::{self, ErrorKind};
use std::path::Path;

use super::bounded::kind_of;

/// What an existing path names, links followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    Directory,
    /// A regular file.
    File,
    /// A FIFO, socket or device: `a FIFO`, `a socket`, `a device`.
    Other(&'static str),
}

impl InputKind {
    pub fn is_dir(self) -> bool {
        self == InputKind::Directory
    }

    /// Anything but a directory: what a walk takes for a config file (a
    /// FIFO there is refused when read, not passed over).
    pub fn is_file_like(self) -> bool {
        self != InputKind::Directory
    }
}

/// Why nothing can be said of a path.
#[derive(Debug)]
pub enum InputProblem {
    /// Nothing is there (a dangling link included).
    Missing,
    /// Something stops the look: a component that is not a directory, a
    /// loop of links, a folder that may not be searched.
    Unreachable(io::Error),
}

impl InputProblem {
    /// The OS's own words, without Rust's ` (os error N)`: `Permission
    /// denied`, `Not a directory`; `No such file or directory` when missing.
    pub fn reason(&self) -> String {
        match self {
            InputProblem::Missing => "No such file or directory".to_string(),
            InputProblem::Unreachable(e) => os_words(e),
        }
    }
}

/// The OS's description of an I/O error, without Rust's ` (os error N)`:
/// `Permission denied`, `Not a directory`.
pub fn os_words(e: &io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" (os error ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// What `path` names, links followed, or why that cannot be said.
pub fn check_input(path: impl AsRef<Path>) -> Result<InputKind, InputProblem> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Ok(InputKind::Directory),
        Ok(meta) if meta.is_file() => Ok(InputKind::File),
        Ok(meta) => Ok(InputKind::Other(kind_of(&meta))),
        Err(e) if e.kind() == ErrorKind::NotFound => Err(InputProblem::Missing),
        Err(e) => Err(InputProblem::Unreachable(e)),
    }
}

/// Whether `path` names a directory, links followed.
pub fn is_directory(path: impl AsRef<Path>) -> bool {
    check_input(path).is_ok_and(InputKind::is_dir)
}

/// Whether `path` names anything but a directory, links followed.
pub fn is_file_like(path: impl AsRef<Path>) -> bool {
    check_input(path).is_ok_and(InputKind::is_file_like)
}

// Unix-only tests (FIFOs, links, modes).
#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    use crate::core::paths::portable::mkfifo;

    #[test]
    fn names_what_a_path_is_links_followed() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        std::fs::write(d.join("f"), "x").unwrap();
        std::fs::create_dir(d.join("dir")).unwrap();
        mkfifo(&d.join("fifo"));
        symlink(d.join("f"), d.join("to-file")).unwrap();
        symlink(d.join("dir"), d.join("to-dir")).unwrap();
        symlink(d.join("fifo"), d.join("to-fifo")).unwrap();
        let kind = |n: &str| check_input(d.join(n)).unwrap();
        assert_eq!(kind("f"), InputKind::File);
        assert_eq!(kind("to-file"), InputKind::File);
        assert_eq!(kind("dir"), InputKind::Directory);
        assert_eq!(kind("to-dir"), InputKind::Directory);
        assert_eq!(kind("fifo"), InputKind::Other("a FIFO"));
        assert_eq!(kind("to-fifo"), InputKind::Other("a FIFO"));
        assert_eq!(
            check_input("/dev/null").unwrap(),
            InputKind::Other("a device")
        );
        assert!(is_directory(d.join("to-dir")) && !is_directory(d.join("f")));
        assert!(is_file_like(d.join("fifo")) && !is_file_like(d.join("dir")));
    }

    #[test]
    fn a_missing_path_or_dangling_link_is_missing() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        symlink(d.join("nowhere"), d.join("dangling")).unwrap();
        for p in [d.join("none"), d.join("dangling")] {
            let e = check_input(&p).unwrap_err();
            assert!(matches!(e, InputProblem::Missing), "{p:?}: {e:?}");
            assert_eq!(e.reason(), "No such file or directory");
            assert!(!is_directory(&p) && !is_file_like(&p));
        }
    }

    #[test]
    fn what_cannot_be_looked_at_is_unreachable_with_its_reason() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        std::fs::write(d.join("f"), "x").unwrap();
        symlink(d.join("b"), d.join("a")).unwrap();
        symlink(d.join("a"), d.join("b")).unwrap();
        let e = check_input(d.join("f/under")).unwrap_err();
        assert!(matches!(e, InputProblem::Unreachable(_)), "{e:?}");
        assert_eq!(e.reason(), "Not a directory");
        let e = check_input(d.join("a")).unwrap_err();
        assert_eq!(e.reason(), "Too many levels of symbolic links");
        // A folder that may not be searched (root searches any).
        if !rustix::process::geteuid().is_root() {
            use std::os::unix::fs::PermissionsExt;
            let shut = d.join("shut");
            std::fs::create_dir(&shut).unwrap();
            std::fs::write(shut.join("f"), "x").unwrap();
            std::fs::set_permissions(&shut, std::fs::Permissions::from_mode(0o000)).unwrap();
            let e = check_input(shut.join("f")).unwrap_err();
            std::fs::set_permissions(&shut, std::fs::Permissions::from_mode(0o700)).unwrap();
            assert_eq!(e.reason(), "Permission denied");
        }
    }
}

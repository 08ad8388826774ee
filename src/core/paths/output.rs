//! A file written at a path the user named (`--output FILE`), never through
//! a link.
//!
//! In CI the output's name lies in a checkout of the change under review,
//! which can commit a symbolic link there (`goccia-trust.sarif ->
//! ../base/.github/goccia-trust/policy.json`): a shell's `> FILE` follows it
//! and overwrites whatever it points at. Here the output is written to a new
//! temporary file beside FILE (created exclusively, so never an existing
//! name, link or not) and renamed over FILE at the end; a rename replaces
//! the directory entry and never writes through it. FILE itself is refused,
//! before anything is written, when it is a symbolic link (to anything) or
//! exists and is not a regular file (a directory, a FIFO, a device). A
//! regular file already there is replaced whole.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// Why the output file was not written. `Display` is the whole message.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error(
        "output {path} is a symbolic link; not written through (remove it or choose another --output)"
    )]
    Link { path: String },
    #[error("output {path} exists and is not a regular file ({kind}); not written")]
    NotRegular { path: String, kind: &'static str },
    #[error("cannot write output {path}: {cause}")]
    Io { path: String, cause: String },
}

/// An output being written: a temporary file beside its destination.
pub struct OutputFile {
    tmp: tempfile::NamedTempFile,
    path: PathBuf,
}

/// Refuses `path` when something other than a regular file is there.
fn check_destination(path: &Path) -> Result<(), OutputError> {
    let shown = || path.display().to_string();
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(OutputError::Link { path: shown() }),
        Ok(meta) if !meta.is_file() => Err(OutputError::NotRegular {
            path: shown(),
            kind: super::bounded::kind_of(&meta),
        }),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_error(path, &e)),
    }
}

fn io_error(path: &Path, e: &io::Error) -> OutputError {
    OutputError::Io {
        path: path.display().to_string(),
        cause: super::bounded::io_reason(e),
    }
}

/// Starts writing the output at `path`: refused at once when `path` is a
/// link or not a regular file, else a new temporary file in its directory
/// (readable as a shell's `>` would make it: 0666 less the umask).
pub fn create_output(path: &Path) -> Result<OutputFile, OutputError> {
    check_destination(path)?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| io_error(path, &io::Error::other("not a file name")))?;
    let prefix = format!(".{}.", name.to_string_lossy());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let tmp = builder.tempfile_in(dir).map_err(|e| io_error(path, &e))?;
    Ok(OutputFile {
        tmp,
        path: path.to_path_buf(),
    })
}

impl OutputFile {
    /// The file the output goes to until [`OutputFile::persist`].
    pub fn file(&mut self) -> &mut File {
        self.tmp.as_file_mut()
    }

    /// Moves the written output into place. The destination is checked
    /// again (a link may have appeared meanwhile); the rename replaces the
    /// name itself, so even one that appears after this check is replaced,
    /// never written through. Dropped without this, the temporary file is
    /// removed.
    pub fn persist(self) -> Result<(), OutputError> {
        let OutputFile { tmp, path } = self;
        check_destination(&path)?;
        tmp.as_file().sync_all().map_err(|e| io_error(&path, &e))?;
        tmp.persist(&path).map_err(|e| io_error(&path, &e.error))?;
        Ok(())
    }
}

// Unix-only tests (links, FIFOs); Windows builds the rest.
#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::Write;

    fn write(path: &Path, text: &str) -> Result<(), OutputError> {
        let mut out = create_output(path)?;
        out.file().write_all(text.as_bytes()).unwrap();
        out.persist()
    }

    #[test]
    fn writes_a_new_file_and_replaces_a_regular_one() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("out.sarif");
        write(&p, "one").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "one");
        write(&p, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
        let names: Vec<_> = std::fs::read_dir(t.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file left");
    }

    #[test]
    fn a_link_is_refused_and_its_target_untouched() {
        let t = tempfile::tempdir().unwrap();
        let target = t.path().join("policy.json");
        std::fs::write(&target, "policy").unwrap();
        let link = t.path().join("out.sarif");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let e = write(&link, "sarif").unwrap_err();
        assert!(matches!(e, OutputError::Link { .. }), "{e}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "policy");
        // A dangling link too: it would create its target.
        let dangling = t.path().join("d.sarif");
        std::os::unix::fs::symlink(t.path().join("new"), &dangling).unwrap();
        assert!(matches!(
            write(&dangling, "x"),
            Err(OutputError::Link { .. })
        ));
        assert!(!t.path().join("new").exists());
    }

    #[test]
    fn a_link_swapped_in_while_writing_is_replaced_not_followed() {
        let t = tempfile::tempdir().unwrap();
        let target = t.path().join("policy.json");
        std::fs::write(&target, "policy").unwrap();
        let p = t.path().join("out.sarif");
        let mut out = create_output(&p).unwrap();
        out.file().write_all(b"sarif").unwrap();
        std::os::unix::fs::symlink(&target, &p).unwrap();
        assert!(matches!(out.persist(), Err(OutputError::Link { .. })));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "policy");
    }

    #[test]
    fn a_directory_or_fifo_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let e = write(t.path(), "x").unwrap_err();
        assert!(e.to_string().contains("(a directory)"), "{e}");
        let fifo = t.path().join("fifo");
        crate::core::paths::portable::mkfifo(&fifo);
        let e = write(&fifo, "x").unwrap_err();
        assert!(e.to_string().contains("(a FIFO)"), "{e}");
    }
}

//! Reading a file named by untrusted input: only a regular file, of bounded
//! size, and never by waiting on it.
//!
//! A repository can ship `goccia.json -> /dev/zero` (an endless read), a FIFO
//! (a read that waits forever for a writer) or `goccia.json -> /dev/tty` (a
//! read of the keyboard). [`read_regular`] refuses all of them: it checks the
//! type of what the path resolves to, opens it with `O_NONBLOCK` (so a FIFO or
//! device swapped in after the check cannot make the open wait), checks the
//! opened handle again, and reads at most one byte more than the cap.

use std::io::{self, ErrorKind, Read};
use std::path::Path;

/// A config file or an `extends` target. The largest real configs are a few
/// KiB; 1 MiB holds about 80,000 scopes, far beyond any honest use, and
/// bounds the memory a hostile config can cost.
pub const CONFIG_MAX_BYTES: u64 = 1 << 20;

/// The trust store. It grows with every config trusted (each entry holds its
/// block and targets, a few hundred bytes to a few KiB), so it gets far more
/// room than a config; 256 MiB still ends a `/dev/zero` or runaway file
/// before it exhausts memory.
pub const STORE_MAX_BYTES: u64 = 256 << 20;

/// A policy file: a reviewed list of roots and rules, a few KiB in practice.
pub const POLICY_MAX_BYTES: u64 = 1 << 20;

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// Opening or reading failed (missing file, permission denied, ...).
    Io(io::Error),
    /// The path resolves to a directory, FIFO, device or socket.
    NotRegular,
    /// The file holds more than `limit` bytes.
    TooLarge { limit: u64 },
}

impl ReadError {
    /// The I/O error kind, for callers that treat a missing file specially.
    pub fn kind(&self) -> Option<ErrorKind> {
        match self {
            ReadError::Io(e) => Some(e.kind()),
            _ => None,
        }
    }

    /// The message after `<path>: ` for a refusal, or the I/O error.
    pub fn describe(&self) -> String {
        match self {
            ReadError::Io(e) => e.to_string(),
            ReadError::NotRegular => "not a regular file".to_string(),
            ReadError::TooLarge { limit } => {
                format!("larger than the {} limit; not read", human_size(*limit))
            }
        }
    }
}

/// `1 MiB`, `256 MiB`, or a byte count.
pub fn human_size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// The whole of the regular file at `path` (links followed), if it holds at
/// most `limit` bytes.
pub fn read_regular(path: impl AsRef<Path>, limit: u64) -> Result<Vec<u8>, ReadError> {
    let path = path.as_ref();
    let meta = std::fs::metadata(path).map_err(ReadError::Io)?;
    if meta.is_dir() {
        // As reading it would fail, with the message that says so best.
        return Err(ReadError::Io(io::Error::from_raw_os_error(libc::EISDIR)));
    }
    if !meta.is_file() {
        return Err(ReadError::NotRegular);
    }
    if meta.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    let file = open_nonblocking(path).map_err(ReadError::Io)?;
    // What was opened may not be what was checked: judge the handle.
    let meta = file.metadata().map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular);
    }
    if meta.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // A file that grows while read is still cut at one byte past the cap.
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(bytes)
}

pub use super::portable::open_nonblocking;

// Unix-only tests (modes, links, owners); Windows builds the rest.
#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn mkfifo(path: &Path) {
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    }

    #[test]
    fn reads_a_regular_file_up_to_the_limit() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("f");
        std::fs::write(&p, b"12345").unwrap();
        assert_eq!(read_regular(&p, 5).unwrap(), b"12345");
        assert!(matches!(
            read_regular(&p, 4),
            Err(ReadError::TooLarge { limit: 4 })
        ));
        let link = t.path().join("l");
        std::os::unix::fs::symlink(&p, &link).unwrap();
        assert_eq!(read_regular(&link, 5).unwrap(), b"12345");
    }

    #[test]
    fn refuses_what_is_not_a_regular_file_without_waiting() {
        let t = tempfile::tempdir().unwrap();
        let fifo = t.path().join("fifo");
        mkfifo(&fifo);
        let zero = t.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let tty = t.path().join("tty");
        std::os::unix::fs::symlink("/dev/tty", &tty).unwrap();
        for p in [&fifo, &zero, &tty] {
            let start = Instant::now();
            let e = read_regular(p, CONFIG_MAX_BYTES).unwrap_err();
            assert!(matches!(e, ReadError::NotRegular), "{p:?}: {e:?}");
            assert_eq!(e.describe(), "not a regular file");
            assert!(start.elapsed() < Duration::from_secs(1));
        }
    }

    #[test]
    fn a_missing_file_or_a_directory_is_an_io_error() {
        let e = read_regular("/nonexistent/x", 10).unwrap_err();
        assert_eq!(e.kind(), Some(ErrorKind::NotFound));
        let t = tempfile::tempdir().unwrap();
        let e = read_regular(t.path(), 10).unwrap_err();
        assert_eq!(e.kind(), Some(ErrorKind::IsADirectory));
    }

    #[test]
    fn opening_a_fifo_does_not_wait() {
        let t = tempfile::tempdir().unwrap();
        let fifo = t.path().join("fifo");
        mkfifo(&fifo);
        let start = Instant::now();
        let f = open_nonblocking(&fifo).unwrap();
        assert!(!f.metadata().unwrap().is_file());
        assert!(start.elapsed() < Duration::from_secs(1));
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human_size(CONFIG_MAX_BYTES), "1 MiB");
        assert_eq!(human_size(STORE_MAX_BYTES), "256 MiB");
        assert_eq!(human_size(10), "10 bytes");
    }
}

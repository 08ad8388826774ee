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
    /// The path resolves to a FIFO, device or socket (`kind`: `a FIFO`,
    /// [`kind_of`]); a directory is [`ReadError::Io`] with `EISDIR`.
    NotRegular { kind: &'static str },
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
            ReadError::NotRegular { .. } => "not a regular file".to_string(),
            ReadError::TooLarge { limit } => {
                format!("larger than the {} limit; not read", human_size(*limit))
            }
        }
    }

    /// What kind of file it is, when it is not a regular one (a
    /// directory too).
    pub fn not_regular(&self) -> Option<&'static str> {
        match self {
            ReadError::NotRegular { kind } => Some(kind),
            ReadError::Io(e) if e.kind() == ErrorKind::IsADirectory => Some("a directory"),
            _ => None,
        }
    }

    /// Why it was not read, after the file's name in a message of this
    /// tool's own: `cannot be read (permission denied)`, `is not a regular
    /// file (a FIFO)`, `does not exist`, `is larger than the 1 MiB limit;
    /// not read`.
    pub fn why(&self) -> String {
        if let Some(kind) = self.not_regular() {
            return format!("is not a regular file ({kind})");
        }
        match self {
            ReadError::Io(e) if e.kind() == ErrorKind::NotFound => "does not exist".to_string(),
            ReadError::Io(e) => format!("cannot be read ({})", io_reason(e)),
            _ => format!("is {}", self.describe()),
        }
    }
}

/// The OS's reason for an I/O error, as a message's clause: `permission
/// denied`, without Rust's ` (os error N)`.
pub fn io_reason(e: &io::Error) -> String {
    if e.kind() == ErrorKind::PermissionDenied {
        return "permission denied".to_string();
    }
    let text = e.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_string(),
        _ => text,
    }
}

/// What a file that is not a regular one is, in a message: `a directory`,
/// `a FIFO`, `a socket`, `a device`, `a symbolic link`.
pub fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    if t.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    "not a file"
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
    read_regular_keeping(path, limit).map(|(_, bytes)| bytes)
}

/// [`read_regular`], and the handle the bytes were read from, still open:
/// what a later read through it finds is that same file, whatever has been
/// renamed over its path since.
pub fn read_regular_keeping(
    path: impl AsRef<Path>,
    limit: u64,
) -> Result<(std::fs::File, Vec<u8>), ReadError> {
    let (mut file, len) = open_regular(path.as_ref(), limit)?;
    let bytes = read_whole(&mut file, len, limit)?;
    Ok((file, bytes))
}

/// [`read_regular`] of a config file or an `extends` target: the same bytes,
/// the same refusals with the same messages, in fewer path walks where the
/// system allows. On Linux a regular file at the path itself (`lstat`) is
/// opened by `openat2(2)` with `RESOLVE_NO_SYMLINKS` and judged again on
/// the handle, with no `stat` that follows links; anything else there, and
/// any failure of that open (a link on the way, a kernel older than 5.6, a
/// seccomp filter, a missing file, ...), takes [`read_regular`]'s way
/// (docs/src/security.md#links-unreadable-paths-and-hostile-files).
pub fn read_config_regular(path: impl AsRef<Path>, limit: u64) -> Result<Vec<u8>, ReadError> {
    let path = path.as_ref();
    #[cfg(target_os = "linux")]
    if let Some(opened) = open_unlinked(path, limit) {
        let (mut file, len) = opened?;
        return read_whole(&mut file, len, limit);
    }
    read_regular(path, limit)
}

/// The whole of an opened regular file of `len` bytes, cut at one byte
/// past `limit`.
fn read_whole(file: &mut std::fs::File, len: u64, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::with_capacity(len as usize);
    // A file that grows while read is still cut at one byte past the cap.
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(bytes)
}

/// The regular file at `path` (links followed), read block by block into
/// `sink` and never held whole (`policy run --op read` of a file of
/// gigabytes costs one block of memory): its size in bytes. Refused as
/// [`read_regular`] refuses, without waiting; past `limit` bytes the read
/// stops with [`ReadError::TooLarge`].
pub fn stream_regular(
    path: impl AsRef<Path>,
    limit: u64,
    mut sink: impl FnMut(&[u8]),
) -> Result<u64, ReadError> {
    let (file, _) = open_regular(path.as_ref(), limit)?;
    let mut reader = file.take(limit.saturating_add(1));
    let mut buf = vec![0u8; 256 * 1024];
    let mut total = 0u64;
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(ReadError::Io(e)),
        };
        total += n as u64;
        if total > limit {
            return Err(ReadError::TooLarge { limit });
        }
        sink(&buf[..n]);
    }
    Ok(total)
}

/// The regular file at `path`, opened for reading without waiting (a FIFO
/// or device swapped in after the check cannot make the open block), and
/// its size, when it is a regular file of at most `limit` bytes both
/// before and after opening.
fn open_regular(path: &Path, limit: u64) -> Result<(std::fs::File, u64), ReadError> {
    let meta = std::fs::metadata(path).map_err(ReadError::Io)?;
    if meta.is_dir() {
        // As reading it would fail, with the message that says so best.
        return Err(ReadError::Io(io::Error::from_raw_os_error(libc::EISDIR)));
    }
    let regular = |meta: &std::fs::Metadata| {
        if !meta.is_file() {
            return Err(ReadError::NotRegular {
                kind: kind_of(meta),
            });
        }
        if meta.len() > limit {
            return Err(ReadError::TooLarge { limit });
        }
        Ok(())
    };
    regular(&meta)?;
    let file = open_nonblocking(path).map_err(ReadError::Io)?;
    // What was opened may not be what was checked: judge the handle.
    let meta = file.metadata().map_err(ReadError::Io)?;
    regular(&meta)?;
    Ok((file, meta.len()))
}

/// The regular file at `path` itself (`lstat`), opened by an open that
/// follows no link (`openat2(2)`, `RESOLVE_NO_SYMLINKS`, `O_NONBLOCK`,
/// `O_NOCTTY`) and judged again on its handle as [`open_regular`] judges
/// it; `None` when anything else is there (a link, a FIFO, a device, a
/// directory: never opened here) or when that open or the handle's `fstat`
/// failed: the caller then takes [`open_regular`]'s way, whose messages are
/// the ones shown. When `path` is absolute and lexically clean, every
/// directory above the file was just walked as a real directory, so the
/// realpath memo is told that the file's directory is its own canonical
/// path ([`super::realpath::note_canonical_dir`]).
#[cfg(target_os = "linux")]
fn open_unlinked(path: &Path, limit: u64) -> Option<Result<(std::fs::File, u64), ReadError>> {
    use rustix::fs::{AtFlags, CWD, FileType, Mode, OFlags, ResolveFlags, openat2, statat};
    // Judged before it is opened, as every read is: what sits at the path
    // itself is never opened unless it is a regular file (opening a device
    // can act: a watchdog starts its timer). Anything else, a link
    // included, is left to the way that follows links and says why.
    let seen = statat(CWD, path, AtFlags::SYMLINK_NOFOLLOW).ok()?;
    if FileType::from_raw_mode(seen.st_mode) != FileType::RegularFile {
        return None;
    }
    let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
    let fd = openat2(CWD, path, flags, Mode::empty(), ResolveFlags::NO_SYMLINKS).ok()?;
    let file = std::fs::File::from(fd);
    let meta = file.metadata().ok()?;
    if let Some(dir) = path
        .to_str()
        .and_then(|p| p.rsplit_once('/'))
        .map(|(dir, _)| dir)
    {
        super::realpath::note_canonical_dir(dir);
    }
    if meta.is_dir() {
        return Some(Err(ReadError::Io(io::Error::from_raw_os_error(
            libc::EISDIR,
        ))));
    }
    if !meta.is_file() {
        return Some(Err(ReadError::NotRegular {
            kind: kind_of(&meta),
        }));
    }
    if meta.len() > limit {
        return Some(Err(ReadError::TooLarge { limit }));
    }
    Some(Ok((file, meta.len())))
}

pub use super::portable::open_nonblocking;

// Unix-only tests (modes, links, owners); Windows builds the rest.
#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn mkfifo(path: &Path) {
        crate::core::paths::portable::mkfifo(path);
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
            assert!(matches!(e, ReadError::NotRegular { .. }), "{p:?}: {e:?}");
            assert_eq!(e.describe(), "not a regular file");
            assert!(start.elapsed() < Duration::from_secs(1));
        }
    }

    #[test]
    fn a_stream_is_read_in_blocks_and_refuses_as_a_read_does() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("f");
        std::fs::write(&p, vec![7u8; 600 * 1024]).unwrap();
        let (mut calls, mut seen) = (0, 0usize);
        let n = stream_regular(&p, u64::MAX, |b| {
            calls += 1;
            seen += b.len();
        })
        .unwrap();
        assert_eq!((n, seen), (600 * 1024, 600 * 1024));
        assert!(calls >= 3, "in blocks, not whole: {calls}");
        assert!(matches!(
            stream_regular(&p, 1000, |_| {}),
            Err(ReadError::TooLarge { limit: 1000 })
        ));
        let fifo = t.path().join("fifo");
        mkfifo(&fifo);
        let start = Instant::now();
        let e = stream_regular(&fifo, u64::MAX, |_| {}).unwrap_err();
        assert_eq!(e.not_regular(), Some("a FIFO"));
        assert!(start.elapsed() < Duration::from_secs(1));
    }

    #[test]
    fn why_names_the_problem_and_the_kind() {
        let t = tempfile::tempdir().unwrap();
        let fifo = t.path().join("fifo");
        mkfifo(&fifo);
        let why = |p: &Path| read_regular(p, 10).unwrap_err().why();
        assert_eq!(why(&fifo), "is not a regular file (a FIFO)");
        assert_eq!(why(t.path()), "is not a regular file (a directory)");
        assert_eq!(
            why(Path::new("/dev/null")),
            "is not a regular file (a device)"
        );
        assert_eq!(why(&t.path().join("none")), "does not exist");
        let big = t.path().join("big");
        std::fs::write(&big, [0u8; 11]).unwrap();
        assert_eq!(why(&big), "is larger than the 10 bytes limit; not read");
        let denied = io::Error::from_raw_os_error(libc::EACCES);
        assert_eq!(
            ReadError::Io(denied).why(),
            "cannot be read (permission denied)"
        );
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

    /// What [`read_config_regular`] returned, as a message compares it.
    fn outcome(r: Result<Vec<u8>, ReadError>) -> Result<Vec<u8>, (String, String)> {
        r.map_err(|e| (e.describe(), e.why()))
    }

    /// The one-open way and the stat-first way agree on every kind of file,
    /// reached directly or through a link to it or to a directory above it:
    /// the same bytes, or the same refusal in the same words.
    #[test]
    fn a_config_read_answers_as_a_stat_first_read_does() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().canonicalize().unwrap();
        let at = |p: &str| root.join(p);
        std::fs::create_dir_all(at("real/dir.json")).unwrap();
        std::fs::write(at("real/goccia.json"), b"{}").unwrap();
        std::fs::write(at("real/big.json"), [b' '; 11]).unwrap();
        mkfifo(&at("real/fifo.json"));
        std::os::unix::net::UnixListener::bind(at("real/sock.json")).unwrap();
        std::os::unix::fs::symlink("real", at("linked")).unwrap();
        std::os::unix::fs::symlink("goccia.json", at("real/link.json")).unwrap();
        std::os::unix::fs::symlink("fifo.json", at("real/fifolink.json")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", at("real/zero.json")).unwrap();
        std::os::unix::fs::symlink("/dev/null", at("real/null.json")).unwrap();
        std::os::unix::fs::symlink("nowhere", at("real/dangling.json")).unwrap();
        let names = [
            "goccia.json",
            "dir.json",
            "big.json",
            "fifo.json",
            "sock.json",
            "link.json",
            "fifolink.json",
            "zero.json",
            "null.json",
            "dangling.json",
            "missing.json",
            "goccia.json/x.json",
        ];
        for dir in ["real", "linked", "real/../real"] {
            for name in names {
                let p = at(&format!("{dir}/{name}"));
                let start = Instant::now();
                let fast = outcome(read_config_regular(&p, 10));
                assert!(start.elapsed() < Duration::from_secs(1), "{p:?}");
                assert_eq!(fast, outcome(read_regular(&p, 10)), "{p:?}");
            }
        }
        let read = |p: &str| outcome(read_config_regular(at(p), 10));
        assert_eq!(read("real/goccia.json"), Ok(b"{}".to_vec()));
        assert_eq!(read("linked/link.json"), Ok(b"{}".to_vec()));
        let refused = |why: &str| Err(("not a regular file".to_string(), why.to_string()));
        assert_eq!(
            read("real/fifo.json"),
            refused("is not a regular file (a FIFO)")
        );
        assert_eq!(
            read("real/zero.json"),
            refused("is not a regular file (a device)")
        );
        let dir = read_config_regular(at("real/dir.json"), 10).unwrap_err();
        assert_eq!(dir.kind(), Some(ErrorKind::IsADirectory));
        assert_eq!(dir.why(), "is not a regular file (a directory)");
    }

    /// A FIFO is refused from what the path leads to, never by opening it,
    /// behind a link or at the path itself; a regular file is opened once.
    /// inotify reports each open.
    #[cfg(target_os = "linux")]
    #[test]
    fn nothing_but_a_regular_file_is_opened_to_be_judged() {
        use rustix::fs::inotify;
        let t = tempfile::tempdir().unwrap();
        let fifo = t.path().join("fifo.json");
        mkfifo(&fifo);
        let link = t.path().join("link.json");
        std::os::unix::fs::symlink(&fifo, &link).unwrap();
        let watch = inotify::init(inotify::CreateFlags::NONBLOCK).unwrap();
        inotify::add_watch(&watch, &fifo, inotify::WatchFlags::OPEN).unwrap();
        let mut buf = [std::mem::MaybeUninit::uninit(); 1024];
        let mut opens = || {
            let mut events = inotify::Reader::new(&watch, &mut buf);
            std::iter::from_fn(|| events.next().ok().map(|_| ())).count()
        };
        let e = read_config_regular(&link, CONFIG_MAX_BYTES).unwrap_err();
        assert_eq!(e.not_regular(), Some("a FIFO"));
        assert_eq!(opens(), 0, "the FIFO behind the link was opened");
        let e = read_config_regular(&fifo, CONFIG_MAX_BYTES).unwrap_err();
        assert_eq!(e.not_regular(), Some("a FIFO"));
        assert_eq!(opens(), 0, "the FIFO itself was opened to be judged");
        // A device node at the path itself (root can unpack one from an
        // archive): refused from what is there, never opened. Making one
        // needs privilege; without it there is nothing to try.
        let device = t.path().join("null.json");
        let made = rustix::fs::mknodat(
            rustix::fs::CWD,
            &device,
            rustix::fs::FileType::CharacterDevice,
            rustix::fs::Mode::from_raw_mode(0o666),
            rustix::fs::makedev(1, 3),
        );
        if made.is_ok() {
            inotify::add_watch(&watch, &device, inotify::WatchFlags::OPEN).unwrap();
            let e = read_config_regular(&device, CONFIG_MAX_BYTES).unwrap_err();
            assert_eq!(e.not_regular(), Some("a device"));
            assert_eq!(opens(), 0, "the device was opened to be judged");
        }
        // A regular file is opened, once: the watch sees opens.
        let file = t.path().join("file.json");
        std::fs::write(&file, "{}").unwrap();
        inotify::add_watch(&watch, &file, inotify::WatchFlags::OPEN).unwrap();
        read_config_regular(&file, CONFIG_MAX_BYTES).unwrap();
        assert_eq!(opens(), 1);
    }

    /// Only an open on a lexically clean absolute path tells the realpath
    /// memo that the config's directory is canonical: after reading
    /// `a/../b/goccia.json`, `a/../b` still resolves to `b`; after reading
    /// `c/goccia.json`, `c` is known, even once replaced by a link.
    #[cfg(target_os = "linux")]
    #[test]
    fn only_a_clean_path_tells_the_memo_its_directory() {
        use crate::core::paths::realpath::{enable_cache, realpath};
        let t = tempfile::tempdir().unwrap();
        let root = t.path().canonicalize().unwrap();
        let root = root.to_str().unwrap();
        for dir in ["a", "b", "c", "elsewhere"] {
            std::fs::create_dir(format!("{root}/{dir}")).unwrap();
        }
        std::fs::write(format!("{root}/b/goccia.json"), "{}").unwrap();
        std::fs::write(format!("{root}/c/goccia.json"), "{}").unwrap();
        let _memo = enable_cache();
        read_config_regular(format!("{root}/a/../b/goccia.json"), 10).unwrap();
        read_config_regular(format!("{root}/c/goccia.json"), 10).unwrap();
        std::fs::remove_file(format!("{root}/c/goccia.json")).unwrap();
        std::fs::remove_dir(format!("{root}/c")).unwrap();
        std::os::unix::fs::symlink("elsewhere", format!("{root}/c")).unwrap();
        assert_eq!(
            realpath(&format!("{root}/a/../b")).unwrap(),
            format!("{root}/b")
        );
        // The memo answers for `c` as it was when the config was read.
        assert_eq!(realpath(&format!("{root}/c")).unwrap(), format!("{root}/c"));
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human_size(CONFIG_MAX_BYTES), "1 MiB");
        assert_eq!(human_size(STORE_MAX_BYTES), "256 MiB");
        assert_eq!(human_size(10), "10 bytes");
    }
}

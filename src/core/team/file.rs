//! The reviews file, `.goccia/reviews.jsonl` at a repository's root
//! (docs/src/signed-reviews.md#the-reviews-file): read bounded and never
//! through a link, written sorted and atomically.
//!
//! Whoever can push writes this file, so reading it must not be a way in:
//! `.goccia` and the file are opened without following links and must be a
//! directory and a regular file (a FIFO would make a read wait forever, a
//! link could point at `/dev/zero`), and a file over the limits is not read
//! at all rather than read in part.

#[cfg(unix)]
use std::io::Read;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::record::{Line, Record, parse_line};

/// The folder, at a repository's root.
pub const DIR: &str = ".goccia";
/// The file, in [`DIR`].
pub const FILE: &str = "reviews.jsonl";
/// A larger file is not read.
pub const FILE_MAX_BYTES: u64 = 8 << 20;
/// A file with more records is not read.
pub const MAX_RECORDS: usize = 20_000;
/// What `review sign` writes next to a new file: records are independent
/// lines, so git's union merge always gives a valid file.
pub const GITATTRIBUTES: &str = "reviews.jsonl merge=union\n";

/// The reviews file of a repository, line by line (1-based numbers), and
/// where each config's records are: a command judging many configs finds
/// each one's records without reading every record again.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReviewsFile {
    pub path: String,
    lines: Vec<(usize, Line)>,
    /// By a record's `path`: its places in `lines`, in line order.
    by_path: std::collections::HashMap<String, Vec<usize>>,
}

impl ReviewsFile {
    pub fn new(path: String, lines: Vec<(usize, Line)>) -> ReviewsFile {
        let mut by_path: std::collections::HashMap<String, Vec<usize>> =
            std::collections::HashMap::new();
        for (i, (_, line)) in lines.iter().enumerate() {
            if let Line::Record(r) = line {
                by_path.entry(r.path.clone()).or_default().push(i);
            }
        }
        ReviewsFile {
            path,
            lines,
            by_path,
        }
    }

    /// The records whose `path` is `path`, in line order.
    pub fn records_for<'a>(&'a self, path: &str) -> impl Iterator<Item = (usize, &'a Record)> {
        let places = self.by_path.get(path).map_or(&[][..], Vec::as_slice);
        places.iter().filter_map(|&i| match self.lines.get(i)? {
            (n, Line::Record(r)) => Some((*n, r)),
            _ => None,
        })
    }

    /// Every line, with its 1-based number.
    pub fn lines(&self) -> &[(usize, Line)] {
        &self.lines
    }
}

/// Why a reviews file was not read; no review in it counts.
#[derive(Debug)]
pub enum NotRead {
    /// `.goccia` or the file is a link, FIFO, device, ...: `kind` as
    /// `a symbolic link`.
    NotRegular {
        path: String,
        kind: &'static str,
    },
    TooLarge {
        path: String,
    },
    TooManyRecords {
        path: String,
    },
    Io {
        path: String,
        error: io::Error,
    },
}

impl std::fmt::Display for NotRead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotRead::NotRegular { path, kind } => write!(f, "{path} is {kind}; not read"),
            NotRead::TooLarge { path } => {
                write!(f, "{path} is over the 8 MiB limit; no review in it counts")
            }
            NotRead::TooManyRecords { path } => write!(
                f,
                "{path} holds over 20,000 records; no review in it counts"
            ),
            NotRead::Io { path, error } => write!(f, "{path}: {error}"),
        }
    }
}

/// The reviews file at `root`, `Ok(None)` when there is none.
pub fn read_reviews(root: &Path) -> Result<Option<ReviewsFile>, NotRead> {
    let dir = root.join(DIR);
    let path = dir.join(FILE);
    let shown = path.to_string_lossy().into_owned();
    let Some(bytes) = read_bounded(&dir, &path)? else {
        return Ok(None);
    };
    parse_reviews(shown, &bytes).map(Some)
}

/// A reviews file's bytes, read by the caller within [`FILE_MAX_BYTES`]
/// (the disk's file, or a blob of a commit), line by line; over
/// [`MAX_RECORDS`] records it is not read at all. `shown` names it.
pub fn parse_reviews(shown: String, bytes: &[u8]) -> Result<ReviewsFile, NotRead> {
    if bytes.len() as u64 > FILE_MAX_BYTES {
        return Err(NotRead::TooLarge { path: shown });
    }
    let mut lines = Vec::new();
    let mut records = 0;
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    for (i, raw) in body.split(|&b| b == b'\n').enumerate() {
        let line = match std::str::from_utf8(raw) {
            Ok(text) => parse_line(text),
            Err(_) => Line::Malformed("not a review record (not UTF-8)".to_string()),
        };
        if !matches!(line, Line::Skipped) {
            records += 1;
            if records > MAX_RECORDS {
                return Err(NotRead::TooManyRecords { path: shown });
            }
        }
        lines.push((i + 1, line));
    }
    Ok(ReviewsFile::new(shown, lines))
}

/// The file's bytes, opened without following a link at `.goccia` or at
/// the file, only when both are what they should be.
#[cfg(unix)]
fn read_bounded(dir: &Path, path: &Path) -> Result<Option<Vec<u8>>, NotRead> {
    use rustix::fs::{Mode, OFlags};
    let shown = |p: &Path| p.to_string_lossy().into_owned();
    let io_err = |p: &Path, error: io::Error| NotRead::Io {
        path: shown(p),
        error,
    };
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err(dir, e)),
        Ok(m) if !m.is_dir() => {
            let kind = match m.is_file() {
                true => "a file, not a directory",
                false => crate::core::paths::bounded::kind_of(&m),
            };
            return Err(NotRead::NotRegular {
                path: shown(dir),
                kind,
            });
        }
        Ok(_) => {}
    }
    let dir_flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let dir_handle =
        rustix::fs::open(dir, dir_flags, Mode::empty()).map_err(|e| not_followed(dir, e.into()))?;
    let file_flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let fd = match rustix::fs::openat(&dir_handle, FILE, file_flags, Mode::empty()) {
        Ok(fd) => fd,
        Err(e) if e == rustix::io::Errno::NOENT => return Ok(None),
        Err(e) => return Err(not_followed(path, e.into())),
    };
    read_regular_handle(std::fs::File::from(fd), path)
}

/// A descriptor that is not a regular file is refused; then at most one
/// byte past the limit is read.
#[cfg(unix)]
fn read_regular_handle(file: std::fs::File, path: &Path) -> Result<Option<Vec<u8>>, NotRead> {
    let shown = path.to_string_lossy().into_owned();
    let meta = file.metadata().map_err(|error| NotRead::Io {
        path: shown.clone(),
        error,
    })?;
    if !meta.is_file() {
        return Err(NotRead::NotRegular {
            path: shown,
            kind: crate::core::paths::bounded::kind_of(&meta),
        });
    }
    if meta.len() > FILE_MAX_BYTES {
        return Err(NotRead::TooLarge { path: shown });
    }
    let mut bytes = Vec::new();
    file.take(FILE_MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| NotRead::Io {
            path: shown.clone(),
            error,
        })?;
    if bytes.len() as u64 > FILE_MAX_BYTES {
        return Err(NotRead::TooLarge { path: shown });
    }
    Ok(Some(bytes))
}

/// `ELOOP` from `O_NOFOLLOW` is a link in the way.
#[cfg(unix)]
fn not_followed(path: &Path, error: io::Error) -> NotRead {
    let path = path.to_string_lossy().into_owned();
    if error.raw_os_error() == Some(libc::ELOOP) || error.raw_os_error() == Some(libc::ENOTDIR) {
        let kind = std::fs::symlink_metadata(&path)
            .map(|m| crate::core::paths::bounded::kind_of(&m))
            .unwrap_or("a symbolic link");
        return NotRead::NotRegular { path, kind };
    }
    NotRead::Io { path, error }
}

#[cfg(not(unix))]
fn read_bounded(dir: &Path, path: &Path) -> Result<Option<Vec<u8>>, NotRead> {
    let shown = |p: &Path| p.to_string_lossy().into_owned();
    for p in [dir, path] {
        match std::fs::symlink_metadata(p) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => {
                return Err(NotRead::Io {
                    path: shown(p),
                    error,
                });
            }
            Ok(m) if m.file_type().is_symlink() || (p == path && !m.is_file()) => {
                return Err(NotRead::NotRegular {
                    path: shown(p),
                    kind: crate::core::paths::bounded::kind_of(&m),
                });
            }
            Ok(_) => {}
        }
    }
    match crate::core::paths::bounded::read_regular(path, FILE_MAX_BYTES) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(crate::core::paths::bounded::ReadError::TooLarge { .. }) => {
            Err(NotRead::TooLarge { path: shown(path) })
        }
        Err(e) => Err(NotRead::Io {
            path: shown(path),
            error: io::Error::other(e.describe()),
        }),
    }
}

/// Why the reviews file was not written (nothing was).
#[derive(Debug)]
pub enum NotWritten {
    Unreadable(NotRead),
    /// The file holds a line that is not a record (a conflict left behind,
    /// say): rewriting it would drop that line, so it is fixed by hand first.
    Malformed {
        path: String,
        line: usize,
    },
    Io {
        path: String,
        error: io::Error,
    },
}

impl std::fmt::Display for NotWritten {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotWritten::Unreadable(e) => e.fmt(f),
            NotWritten::Malformed { path, line } => write!(
                f,
                "{path}:{line} is not a review record; fix or remove that line first"
            ),
            NotWritten::Io { path, error } => write!(f, "{path}: {error}"),
        }
    }
}

/// Adds `new` to the reviews file at `root`: each replaces the record of
/// its (path, key); lines stay sorted by (path, digest, principal, key),
/// comments first. Written to a temporary file in `.goccia` and renamed
/// over the old one, so a reader sees the old file or the new, never half.
pub fn write_records(root: &Path, new: &[Record]) -> Result<PathBuf, NotWritten> {
    let existing = read_reviews(root).map_err(NotWritten::Unreadable)?;
    let dir = root.join(DIR);
    let path = dir.join(FILE);
    let shown = path.to_string_lossy().into_owned();
    let io_err = |error: io::Error| NotWritten::Io {
        path: shown.clone(),
        error,
    };
    let mut comments = Vec::new();
    let mut records: Vec<Record> = Vec::new();
    if let Some(file) = &existing {
        for (n, line) in file.lines() {
            match line {
                Line::Record(r) => records.push(r.clone()),
                Line::Malformed(_) => {
                    return Err(NotWritten::Malformed {
                        path: shown.clone(),
                        line: *n,
                    });
                }
                Line::Skipped => {}
            }
        }
        comments = comment_lines(root);
    }
    records.retain(|r| !new.iter().any(|n| n.path == r.path && n.key == r.key));
    records.extend(new.iter().cloned());
    records.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()).then(a.cmp(b)));
    records.dedup();
    let mut text = String::new();
    for c in comments {
        text.push_str(&c);
        text.push('\n');
    }
    for r in &records {
        text.push_str(&r.to_line());
        text.push('\n');
    }
    std::fs::create_dir_all(&dir).map_err(io_err)?;
    if existing.is_none() {
        let attributes = dir.join(".gitattributes");
        if std::fs::symlink_metadata(&attributes).is_err() {
            atomic_write(&dir, &attributes, GITATTRIBUTES).map_err(io_err)?;
        }
    }
    atomic_write(&dir, &path, &text).map_err(io_err)?;
    Ok(path)
}

/// The `#` lines of the file read before (already checked to be safe).
fn comment_lines(root: &Path) -> Vec<String> {
    let path = root.join(DIR).join(FILE);
    let bytes = crate::core::paths::bounded::read_regular(path, FILE_MAX_BYTES).unwrap_or_default();
    String::from_utf8_lossy(&bytes)
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

fn atomic_write(dir: &Path, path: &Path, text: &str) -> io::Result<()> {
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(text.as_bytes())?;
    // Committed and read by everyone: not the temporary file's 0600.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

//! Reading one directory for the walk: which directory it is (device and
//! inode, to visit it once) and its entries with their types.
//!
//! On Linux the directory is opened once and everything comes from that
//! descriptor: `fstat` names it and `getdents64` lists it into a buffer on
//! the stack, with no second lookup of its path (a `stat` by path walks
//! every component again) and no allocation per directory. Elsewhere the
//! same comes from `std::fs`.

use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::core::paths::portable::file_id;

/// What an entry is, as the directory lists it (a link is not followed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Dir,
    Link,
    /// A file, or anything else that is neither a directory nor a link.
    Other,
}

/// Directories held open at most at once for their subdirectories: past
/// this, a subdirectory is opened by its path (a deep tree must not run
/// out of descriptors).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
const HELD_OPEN: usize = 256;

/// A directory kept open while its subdirectories wait to be read, so that
/// each is opened by name from it rather than by its whole path (which the
/// kernel would look up component by component again). Counted in `held`
/// while it lives.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub(super) struct Parent {
    #[cfg(target_os = "linux")]
    fd: std::os::fd::OwnedFd,
    held: Arc<AtomicUsize>,
}

impl Drop for Parent {
    fn drop(&mut self) {
        self.held.fetch_sub(1, Ordering::Relaxed);
    }
}

/// What takes each entry: its name, its type, and the directory when it
/// is held open for its subdirectories.
pub(super) type Each<'a> = &'a mut dyn FnMut(&OsStr, io::Result<Kind>, Option<&Arc<Parent>>);

/// How reading a directory that could be opened ended.
pub(super) enum Listing {
    /// Another worker (or another path to it) took this directory first.
    Taken,
    /// Every entry was listed, or listing stopped at this error.
    Read(Option<io::Error>),
}

/// Claims the directory at `real` (its device and inode, through `claim`)
/// and hands each entry but `.` and `..` to `each`, with its type or the
/// error that kept it unknown, and the directory itself when it is kept
/// open for its subdirectories (`from` of theirs; `real`'s last component
/// is then its name in `from`). An error that keeps the directory from
/// being read at all is returned, once the directory is claimed, so a
/// directory reached twice is reported once. `held` counts the directories
/// kept open.
///
/// `entry` says `real` was listed as a directory entry (not a root, not
/// reached through a link): on Linux it is then opened without following a
/// link, so a directory swapped for a link after it was listed fails to
/// open (and is reported) instead of being walked wherever the link points.
pub(super) fn list_dir(
    real: &Path,
    from: Option<&Parent>,
    entry: bool,
    held: &Arc<AtomicUsize>,
    claim: &dyn Fn((u64, u64)) -> bool,
    each: Each<'_>,
) -> io::Result<Listing> {
    #[cfg(target_os = "linux")]
    {
        linux::list_dir(real, from, entry, held, claim, each)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (from, entry, held);
        portable_list_dir(real, claim, &mut |name, kind| each(name, kind, None))
    }
}

/// Claims `real` by a `stat` of its path, or an `lstat` when it must not
/// be followed (a directory entry that is now a link is then claimed as the
/// link itself, so it is reported, never taken for a directory walked
/// elsewhere).
fn claim_by_path(
    real: &Path,
    follow: bool,
    claim: &dyn Fn((u64, u64)) -> bool,
) -> io::Result<bool> {
    let meta = if follow {
        fs::metadata(real)?
    } else {
        fs::symlink_metadata(real)?
    };
    Ok(claim(file_id(real, &meta)?))
}

#[cfg_attr(target_os = "linux", allow(dead_code))]
fn portable_list_dir(
    real: &Path,
    claim: &dyn Fn((u64, u64)) -> bool,
    each: &mut dyn FnMut(&OsStr, io::Result<Kind>),
) -> io::Result<Listing> {
    if !claim_by_path(real, true, claim)? {
        return Ok(Listing::Taken);
    }
    for entry in fs::read_dir(real)? {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => return Ok(Listing::Read(Some(e))),
        };
        let kind = entry.file_type().map(|t| {
            if t.is_symlink() {
                Kind::Link
            } else if t.is_dir() {
                Kind::Dir
            } else {
                Kind::Other
            }
        });
        each(&entry.file_name(), kind);
    }
    Ok(Listing::Read(None))
}

#[cfg(target_os = "linux")]
mod linux {
    use std::ffi::{CStr, CString, OsStr};
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::{Each, HELD_OPEN, Kind, Listing, Parent, claim_by_path};

    /// Bytes of entries read per `getdents64` call (aligned for
    /// `linux_dirent64`).
    const BUFFER_WORDS: usize = 2048;

    // linux_dirent64: d_ino u64, d_off i64, d_reclen u16, d_type u8, d_name.
    const RECLEN_AT: usize = 16;
    const TYPE_AT: usize = 18;
    const NAME_AT: usize = 19;

    const FLAGS: libc::c_int = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC;

    pub(super) fn list_dir(
        real: &Path,
        from: Option<&Parent>,
        entry: bool,
        held: &Arc<AtomicUsize>,
        claim: &dyn Fn((u64, u64)) -> bool,
        each: Each<'_>,
    ) -> io::Result<Listing> {
        let flags = if entry {
            FLAGS | libc::O_NOFOLLOW
        } else {
            FLAGS
        };
        let mut raw = -1;
        if let (Some(parent), Some(name)) = (from, real.file_name()) {
            let name = CString::new(name.as_bytes())
                .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
            // SAFETY: the parent's descriptor is open while it lives;
            // `name` is NUL-terminated.
            raw = unsafe { libc::openat(parent.fd.as_raw_fd(), name.as_ptr(), flags) };
        }
        if raw < 0 {
            // By path: at the top, and whenever opening by name failed,
            // so that errors are those of the path (a link in place of the
            // directory fails here too: ELOOP or ENOTDIR).
            let path = CString::new(real.as_os_str().as_bytes())
                .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
            // SAFETY: `path` is a NUL-terminated string that outlives the call.
            raw = unsafe { libc::open(path.as_ptr(), flags) };
        }
        if raw < 0 {
            let error = io::Error::last_os_error();
            // Claimed by path, so that a directory that cannot be opened
            // is reported once however many paths reach it.
            return if claim_by_path(real, !entry, claim)? {
                Err(error)
            } else {
                Ok(Listing::Taken)
            };
        }
        // SAFETY: `raw` is a descriptor just opened and owned by no one else.
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        // SAFETY: `stat` is plain data; fstat fills it or fails.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: `fd` is open and `st` is a valid, writable stat.
        if unsafe { libc::fstat(fd.as_raw_fd(), &mut st) } < 0 {
            return Err(io::Error::last_os_error());
        }
        #[allow(clippy::unnecessary_cast)] // dev_t and ino_t differ by target
        if !claim((st.st_dev as u64, st.st_ino as u64)) {
            return Ok(Listing::Taken);
        }
        // Kept open for the subdirectories while few are.
        let this = if held.fetch_add(1, Ordering::Relaxed) < HELD_OPEN {
            Ok(Arc::new(Parent {
                fd,
                held: Arc::clone(held),
            }))
        } else {
            held.fetch_sub(1, Ordering::Relaxed);
            Err(fd)
        };
        let (fd, shared) = match &this {
            Ok(parent) => (&parent.fd, Some(parent)),
            Err(fd) => (fd, None),
        };
        // Not zeroed: only what the kernel wrote is read.
        let mut buffer = std::mem::MaybeUninit::<[u64; BUFFER_WORDS]>::uninit();
        let size = std::mem::size_of_val(&buffer);
        loop {
            // SAFETY: `buffer` is writable for `size` bytes and 8-aligned.
            let n = unsafe {
                libc::syscall(
                    libc::SYS_getdents64,
                    fd.as_raw_fd(),
                    buffer.as_mut_ptr().cast::<u8>(),
                    size,
                )
            };
            if n < 0 {
                return Ok(Listing::Read(Some(io::Error::last_os_error())));
            }
            if n == 0 {
                return Ok(Listing::Read(None));
            }
            // SAFETY: the kernel wrote (initialized) the first `n` bytes,
            // whole records.
            let bytes =
                unsafe { std::slice::from_raw_parts(buffer.as_ptr().cast::<u8>(), n as usize) };
            let mut at = 0;
            while at + NAME_AT < bytes.len() {
                let reclen =
                    u16::from_ne_bytes([bytes[at + RECLEN_AT], bytes[at + RECLEN_AT + 1]]) as usize;
                if reclen == 0 || at + reclen > bytes.len() {
                    return Ok(Listing::Read(Some(io::Error::from(
                        io::ErrorKind::InvalidData,
                    ))));
                }
                let record = &bytes[at..at + reclen];
                at += reclen;
                let Ok(name) = CStr::from_bytes_until_nul(&record[NAME_AT..]) else {
                    return Ok(Listing::Read(Some(io::Error::from(
                        io::ErrorKind::InvalidData,
                    ))));
                };
                let name_bytes = name.to_bytes();
                if name_bytes == b"." || name_bytes == b".." {
                    continue;
                }
                let kind = match record[TYPE_AT] {
                    libc::DT_DIR => Ok(Kind::Dir),
                    libc::DT_LNK => Ok(Kind::Link),
                    libc::DT_UNKNOWN => kind_at(fd, name),
                    _ => Ok(Kind::Other),
                };
                each(OsStr::from_bytes(name_bytes), kind, shared);
            }
        }
    }

    /// The type of `name` in the directory `fd`, when the listing does not
    /// give it (some file systems): an `lstat` of it.
    fn kind_at(fd: &OwnedFd, name: &CStr) -> io::Result<Kind> {
        // SAFETY: `stat` is plain data; fstatat fills it or fails.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: `fd` is open, `name` NUL-terminated, `st` writable.
        let r = unsafe {
            libc::fstatat(
                fd.as_raw_fd(),
                name.as_ptr(),
                &mut st,
                libc::AT_SYMLINK_NOFOLLOW,
            )
        };
        if r < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(match st.st_mode & libc::S_IFMT {
            libc::S_IFDIR => Kind::Dir,
            libc::S_IFLNK => Kind::Link,
            _ => Kind::Other,
        })
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// A directory listed as an entry, then swapped for a link to a
    /// directory outside before it is opened (the race a hostile tree can
    /// run against the walk): opening it fails, by name and by path, and
    /// nothing outside is listed.
    #[test]
    fn a_directory_swapped_for_a_link_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        let tree = root.join("tree");
        fs::create_dir_all(tree.join("sub")).unwrap();
        fs::create_dir_all(root.join("outside")).unwrap();
        fs::write(root.join("outside/goccia.json"), "{}").unwrap();

        let held = Arc::new(AtomicUsize::new(0));
        let claim_all = |_: (u64, u64)| true;
        let mut parent = None;
        let mut names = Vec::new();
        list_dir(
            &tree,
            None,
            false,
            &held,
            &claim_all,
            &mut |name, _, this| {
                names.push(name.to_owned());
                parent = this.cloned();
            },
        )
        .unwrap();
        assert_eq!(names, ["sub"]);

        fs::remove_dir(tree.join("sub")).unwrap();
        std::os::unix::fs::symlink(root.join("outside"), tree.join("sub")).unwrap();
        let mut seen = Vec::new();
        for from in [parent.as_deref(), None] {
            let result = list_dir(
                &tree.join("sub"),
                from,
                true,
                &held,
                &claim_all,
                &mut |n, _, _| seen.push(n.to_owned()),
            );
            let err = result
                .err()
                .expect("a link in place of a directory must not open");
            assert!(
                matches!(err.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR)),
                "{err}"
            );
        }
        assert!(seen.is_empty(), "listed through the link: {seen:?}");

        // The link leads to a directory the walk has already claimed: the
        // entry is still reported, not taken as that directory.
        let claimed = std::sync::Mutex::new(std::collections::HashSet::new());
        let claim_once = |id: (u64, u64)| claimed.lock().unwrap().insert(id);
        list_dir(
            &root.join("outside"),
            None,
            false,
            &held,
            &claim_once,
            &mut |_, _, _| {},
        )
        .unwrap();
        let again = list_dir(
            &tree.join("sub"),
            parent.as_deref(),
            true,
            &held,
            &claim_once,
            &mut |_, _, _| {},
        );
        assert!(
            again.is_err(),
            "a link in place of a directory was not reported"
        );

        // Reached through a link on purpose (entry = false), it is followed.
        list_dir(
            &tree.join("sub"),
            None,
            false,
            &held,
            &claim_all,
            &mut |n, _, _| seen.push(n.to_owned()),
        )
        .unwrap();
        assert_eq!(seen, ["goccia.json"]);
    }
}

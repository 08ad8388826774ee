//! Reading one directory for the walk: which directory it is (device and
//! inode, to visit it once) and its entries with their types.
//!
//! On every Unix the directory is opened once, by its name in its parent's
//! descriptor (`openat`) and without following a link when it was listed
//! as a directory entry (`O_NOFOLLOW | O_DIRECTORY`), and everything comes
//! from that descriptor: `fstat` names it and its entries are read from it,
//! with no second lookup of its path (a `stat` by path walks every
//! component again). The one difference is the call that reads the
//! entries: `getdents64` into a buffer on the stack on Linux (no
//! allocation per directory), `readdir` elsewhere. The system calls are
//! rustix's (`openat`, `fstat`, `statat`, `RawDir`, `Dir`), safe wrappers,
//! so this file has no `unsafe`. Windows reads by path through `std::fs`
//! (see [`list_dir`]).

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
#[cfg_attr(not(unix), allow(dead_code))]
const HELD_OPEN: usize = 256;

/// A directory kept open while its subdirectories wait to be read, so that
/// each is opened by name from it rather than by its whole path (which the
/// kernel would look up component by component again). Counted in `held`
/// while it lives.
#[cfg_attr(not(unix), allow(dead_code))]
pub(super) struct Parent {
    #[cfg(unix)]
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
/// reached through a link): on Unix it is then opened without following a
/// link, so a directory swapped for a link after it was listed fails to
/// open (and is reported) instead of being walked wherever the link points.
/// Windows lists a directory by its path (`std::fs::read_dir`), which
/// follows a directory swapped for a junction or symbolic link in that
/// moment; entries that are links when listed are links there too.
pub(super) fn list_dir(
    real: &Path,
    from: Option<&Parent>,
    entry: bool,
    held: &Arc<AtomicUsize>,
    claim: &dyn Fn((u64, u64)) -> bool,
    each: Each<'_>,
) -> io::Result<Listing> {
    #[cfg(unix)]
    {
        unix::list_dir(real, from, entry, held, claim, each)
    }
    #[cfg(not(unix))]
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

#[cfg(not(unix))]
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

#[cfg(unix)]
mod unix {
    use std::ffi::{CStr, OsStr};
    use std::io;
    use std::os::fd::OwnedFd;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use rustix::fs::{AtFlags, FileType, Mode, OFlags};

    use super::{Each, HELD_OPEN, Kind, Listing, Parent, claim_by_path};

    const FLAGS: OFlags = OFlags::RDONLY
        .union(OFlags::DIRECTORY)
        .union(OFlags::CLOEXEC);

    /// Reads every entry of the directory open at its descriptor, with its
    /// type as listed (`FileType::Unknown` when the file system does not
    /// say); returns the error that stopped the listing, if one did.
    pub(super) type Reader = fn(&OwnedFd, &mut dyn FnMut(&CStr, FileType)) -> Option<io::Error>;

    /// This system's reader: the only part of the listing that differs
    /// between Linux and the other Unix systems.
    #[cfg(target_os = "linux")]
    const READER: Reader = getdents_entries;
    #[cfg(not(target_os = "linux"))]
    const READER: Reader = readdir_entries;

    pub(super) fn list_dir(
        real: &Path,
        from: Option<&Parent>,
        entry: bool,
        held: &Arc<AtomicUsize>,
        claim: &dyn Fn((u64, u64)) -> bool,
        each: Each<'_>,
    ) -> io::Result<Listing> {
        list_dir_with(READER, real, from, entry, held, claim, each)
    }

    /// [`list_dir`] with the entries read by `reader` (the tests run both
    /// readers on Linux).
    pub(super) fn list_dir_with(
        reader: Reader,
        real: &Path,
        from: Option<&Parent>,
        entry: bool,
        held: &Arc<AtomicUsize>,
        claim: &dyn Fn((u64, u64)) -> bool,
        each: Each<'_>,
    ) -> io::Result<Listing> {
        let flags = if entry {
            FLAGS | OFlags::NOFOLLOW
        } else {
            FLAGS
        };
        let fd = match open_dir(real, from, flags) {
            Ok(fd) => fd,
            // Claimed by path, so that a directory that cannot be opened
            // is reported once however many paths reach it.
            Err(error) => {
                return if claim_by_path(real, !entry, claim)? {
                    Err(error.into())
                } else {
                    Ok(Listing::Taken)
                };
            }
        };
        if !claim(device_and_inode(&fd)?) {
            return Ok(Listing::Taken);
        }
        let this = hold_open(fd, held);
        let (fd, shared) = match &this {
            Ok(parent) => (&parent.fd, Some(parent)),
            Err(fd) => (fd, None),
        };
        Ok(Listing::Read(read_entries(reader, fd, shared, each)))
    }

    /// Opens the directory with `flags`: by name under its parent's
    /// descriptor when there is one; by path at the top, and whenever
    /// opening by name failed, so that errors are those of the path (a link
    /// in place of the directory fails here too: ELOOP or ENOTDIR).
    fn open_dir(real: &Path, from: Option<&Parent>, flags: OFlags) -> rustix::io::Result<OwnedFd> {
        if let (Some(parent), Some(name)) = (from, real.file_name())
            && let Ok(fd) = rustix::fs::openat(&parent.fd, name, flags, Mode::empty())
        {
            return Ok(fd);
        }
        rustix::fs::open(real, flags, Mode::empty())
    }

    /// Which directory `fd` is, for the walk's loop detection.
    fn device_and_inode(fd: &OwnedFd) -> io::Result<(u64, u64)> {
        let st = rustix::fs::fstat(fd)?;
        #[allow(clippy::unnecessary_cast)] // dev_t and ino_t differ by target
        let id = (st.st_dev as u64, st.st_ino as u64);
        Ok(id)
    }

    /// Kept open for the subdirectories while few are (`held` counts them);
    /// otherwise given back, to be closed once listed.
    fn hold_open(fd: OwnedFd, held: &Arc<AtomicUsize>) -> Result<Arc<Parent>, OwnedFd> {
        if held.fetch_add(1, Ordering::Relaxed) < HELD_OPEN {
            Ok(Arc::new(Parent {
                fd,
                held: Arc::clone(held),
            }))
        } else {
            held.fetch_sub(1, Ordering::Relaxed);
            Err(fd)
        }
    }

    /// Every entry but `.` and `..`, with its kind (asked of the file
    /// system when the listing does not say), to `each`; the error that
    /// stopped the listing, if one did.
    fn read_entries(
        reader: Reader,
        fd: &OwnedFd,
        shared: Option<&Arc<Parent>>,
        each: Each<'_>,
    ) -> Option<io::Error> {
        reader(fd, &mut |name, file_type| {
            let name_bytes = name.to_bytes();
            if name_bytes == b"." || name_bytes == b".." {
                return;
            }
            let kind = match file_type {
                FileType::Directory => Ok(Kind::Dir),
                FileType::Symlink => Ok(Kind::Link),
                FileType::Unknown => kind_at(fd, name),
                _ => Ok(Kind::Other),
            };
            each(OsStr::from_bytes(name_bytes), kind, shared);
        })
    }

    /// Linux's [`Reader`]: `getdents64` into a buffer on the stack (no
    /// allocation per directory), through rustix's `RawDir`.
    #[cfg(target_os = "linux")]
    pub(super) fn getdents_entries(
        fd: &OwnedFd,
        each: &mut dyn FnMut(&CStr, FileType),
    ) -> Option<io::Error> {
        /// Bytes of entries read per `getdents64` call.
        const BUFFER_BYTES: usize = 16 * 1024;

        // Not zeroed: only what the kernel wrote is read.
        let mut buffer = [std::mem::MaybeUninit::<u8>::uninit(); BUFFER_BYTES];
        let mut dir = rustix::fs::RawDir::new(fd, &mut buffer);
        while let Some(entry) = dir.next() {
            match entry {
                Ok(entry) => each(entry.file_name(), entry.file_type()),
                Err(error) => return Some(error.into()),
            }
        }
        None
    }

    /// The other Unix systems' [`Reader`]: rustix's `Dir` (`readdir` on a
    /// stream of a descriptor of its own, so `fd` stays the parent of the
    /// subdirectories). Compiled on Linux too, where the tests run it.
    #[cfg_attr(target_os = "linux", allow(dead_code))]
    pub(super) fn readdir_entries(
        fd: &OwnedFd,
        each: &mut dyn FnMut(&CStr, FileType),
    ) -> Option<io::Error> {
        let mut dir = match rustix::fs::Dir::read_from(fd) {
            Ok(dir) => dir,
            Err(error) => return Some(error.into()),
        };
        while let Some(entry) = dir.read() {
            match entry {
                Ok(entry) => each(entry.file_name(), entry.file_type()),
                Err(error) => return Some(error.into()),
            }
        }
        None
    }

    /// The type of `name` in the directory `fd`, when the listing does not
    /// give it (some file systems): an `lstat` of it.
    fn kind_at(fd: &OwnedFd, name: &CStr) -> io::Result<Kind> {
        let st = rustix::fs::statat(fd, name, AtFlags::SYMLINK_NOFOLLOW)?;
        Ok(match FileType::from_raw_mode(st.st_mode) {
            FileType::Directory => Kind::Dir,
            FileType::Symlink => Kind::Link,
            _ => Kind::Other,
        })
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// Every reader this system can list with: Linux runs the other Unix
    /// systems' `readdir` reader too, so what macOS runs is tested here.
    #[cfg(target_os = "linux")]
    const READERS: [(&str, unix::Reader); 2] = [
        ("getdents64", unix::getdents_entries),
        ("readdir", unix::readdir_entries),
    ];
    #[cfg(not(target_os = "linux"))]
    const READERS: [(&str, unix::Reader); 1] = [("readdir", unix::readdir_entries)];

    /// Names and kinds listed, sorted.
    fn listing(reader: unix::Reader, dir: &Path) -> Vec<(String, Kind)> {
        let held = Arc::new(AtomicUsize::new(0));
        let mut names = Vec::new();
        let listed = unix::list_dir_with(
            reader,
            dir,
            None,
            false,
            &held,
            &|_| true,
            &mut |name, kind, _| names.push((name.to_string_lossy().into_owned(), kind.unwrap())),
        )
        .unwrap();
        assert!(matches!(listed, Listing::Read(None)), "an error at the end");
        names.sort_by(|a, b| a.0.cmp(&b.0));
        names
    }

    /// Both readers list the same entries with the same kinds, across more
    /// entries than one read returns, and end without an error.
    #[test]
    fn every_reader_lists_every_entry_with_its_kind() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        fs::create_dir(root.join("sub")).unwrap();
        fs::write(root.join("goccia.json"), "{}").unwrap();
        std::os::unix::fs::symlink("sub", root.join("link")).unwrap();
        for i in 0..600 {
            fs::write(root.join(format!("file-with-a-longish-name-{i:04}")), "").unwrap();
        }
        let mut expected = vec![
            ("goccia.json".to_string(), Kind::Other),
            ("link".to_string(), Kind::Link),
            ("sub".to_string(), Kind::Dir),
        ];
        expected
            .extend((0..600).map(|i| (format!("file-with-a-longish-name-{i:04}"), Kind::Other)));
        expected.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, reader) in READERS {
            assert_eq!(listing(reader, &root), expected, "{name}");
        }
    }

    /// A directory listed as an entry, then swapped for a link to a
    /// directory outside before it is opened (the race a hostile tree can
    /// run against the walk): opening it fails, by name and by path, and
    /// nothing outside is listed.
    #[test]
    fn a_directory_swapped_for_a_link_is_not_followed() {
        for (name, reader) in READERS {
            swapped_for_a_link(name, reader);
        }
    }

    fn swapped_for_a_link(reader_name: &str, reader: unix::Reader) {
        let list_dir = |real: &Path,
                        from: Option<&Parent>,
                        entry: bool,
                        held: &Arc<AtomicUsize>,
                        claim: &dyn Fn((u64, u64)) -> bool,
                        each: Each<'_>| {
            unix::list_dir_with(reader, real, from, entry, held, claim, each)
        };
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
                .unwrap_or_else(|| panic!("{reader_name}: a link in place of a directory opened"));
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

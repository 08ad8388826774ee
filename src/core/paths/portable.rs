//! What the operating system offers differently, one function each, so the
//! rest of the core is written once: opening without waiting, private
//! directories, which directory a path is, and permission bits. Unix is
//! what runs and is tested here; the Windows counterparts compile in CI
//! (`cargo build --target x86_64-pc-windows-gnu`) and are not run (README
//! "Platforms" says what each one gives up).

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::path::Path;

/// Opens `path` for reading without ever waiting. On Unix `O_NONBLOCK`
/// makes the open of a FIFO with no writer return at once, and `O_NOCTTY`
/// keeps a terminal from becoming ours. Windows has neither FIFOs nor
/// controlling terminals on file paths, so a plain open.
pub fn open_nonblocking(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options.open(path)
}

/// Makes a FIFO at `path` (mode 0644), for the tests of what refuses one:
/// rustix's `mkfifoat`, or `mkfifo(3)` on Apple systems, where rustix has
/// none.
#[cfg(all(test, unix))]
pub(crate) fn mkfifo(path: &Path) {
    #[cfg(not(target_vendor = "apple"))]
    let made: io::Result<()> = rustix::fs::mkfifoat(
        rustix::fs::CWD,
        path,
        rustix::fs::Mode::from_raw_mode(0o644),
    )
    .map_err(io::Error::from);
    #[cfg(target_vendor = "apple")]
    let made: io::Result<()> = {
        use std::os::unix::ffi::OsStrExt;
        std::ffi::CString::new(path.as_os_str().as_bytes())
            .map_err(io::Error::from)
            .and_then(|c| {
                // SAFETY: `c` is a NUL-terminated path that outlives the
                // call; mkfifo(3) only reads it.
                match unsafe { libc::mkfifo(c.as_ptr(), 0o644) } {
                    0 => Ok(()),
                    _ => Err(io::Error::last_os_error()),
                }
            })
    };
    if let Err(e) = made {
        panic!("mkfifo {}: {e}", path.display());
    }
}

/// Creates `dir` and its missing parents, the new ones private to the user
/// from the start whatever the umask (0700 on Unix; on Windows a new
/// directory inherits its parent's ACL, which under the user's profile is
/// the user's).
pub fn create_private_dir_all(dir: &Path) -> io::Result<()> {
    dir_builder(0o700).recursive(true).create(dir)
}

/// A directory builder whose new directory gets `mode` (Unix; on Windows a
/// new directory inherits its parent's ACL).
pub fn dir_builder(mode: u32) -> std::fs::DirBuilder {
    #[cfg_attr(windows, allow(unused_mut))]
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, mode);
    #[cfg(windows)]
    let _ = mode;
    builder
}

/// Open options that create a file with `mode` (Unix; on Windows the new
/// file inherits its directory's ACL).
pub fn create_with_mode(options: &mut OpenOptions, mode: u32) -> &mut OpenOptions {
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(options, mode);
    #[cfg(windows)]
    let _ = mode;
    options
}

/// Sets the permission bits of `path` to exactly `mode` (the umask can only
/// have removed bits at creation). A no-op on Windows.
pub fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
    }
    #[cfg(windows)]
    {
        let _ = (path, mode);
        Ok(())
    }
}

/// [`set_mode`] on an open file.
pub fn set_file_mode(file: &File, mode: u32) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(mode))
    }
    #[cfg(windows)]
    {
        let _ = (file, mode);
        Ok(())
    }
}

/// Which file or directory `path` is, whatever name reached it: device and
/// inode on Unix; on Windows the volume serial number and file index of a
/// handle opened on it (`GetFileInformationByHandle`).
pub fn file_id(path: &Path, meta: &Metadata) -> io::Result<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = path;
        Ok((meta.dev(), meta.ino()))
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::OpenOptionsExt;
        // FILE_FLAG_BACKUP_SEMANTICS: needed to open a directory at all.
        const FILE_FLAG_BACKUP_SEMANTICS: u32 = 0x0200_0000;
        let _ = meta;
        let handle = OpenOptions::new()
            .read(true)
            .custom_flags(FILE_FLAG_BACKUP_SEMANTICS)
            .open(path)?;
        let info = winapi_util::file::information(&handle)?;
        Ok((info.volume_serial_number(), info.file_index()))
    }
}

/// The permission bits (`0o7777`) of a file, where the platform has them;
/// `None` on Windows, whose ACLs are not modelled.
pub fn mode_bits(meta: &Metadata) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(meta.permissions().mode() & 0o7777)
    }
    #[cfg(windows)]
    {
        let _ = meta;
        None
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_private_directory_is_0700_whatever_the_umask() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let made = dir.path().join("a/b");
        create_private_dir_all(&made).unwrap();
        for d in [dir.path().join("a"), made] {
            let mode = std::fs::metadata(&d).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o700, "{}", d.display());
        }
    }

    #[test]
    fn file_id_is_the_same_through_a_link_and_differs_between_directories() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        let b = dir.path().join("b");
        std::fs::create_dir(&a).unwrap();
        std::fs::create_dir(&b).unwrap();
        let link = dir.path().join("l");
        std::os::unix::fs::symlink(&a, &link).unwrap();
        let id = |p: &Path| file_id(p, &std::fs::metadata(p).unwrap()).unwrap();
        assert_eq!(id(&a), id(&link));
        assert_ne!(id(&a), id(&b));
    }

    #[test]
    fn mode_bits_are_the_permission_bits() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f");
        std::fs::write(&f, "").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o640)).unwrap();
        assert_eq!(mode_bits(&std::fs::metadata(&f).unwrap()), Some(0o640));
    }
}

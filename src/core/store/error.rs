//! Everything that can go wrong with the store. Each message is the text
//! printed after `Error: `; every one exits 1 (docs/src/compatibility.md#reading-and-validating-the-store,
//! #store-location, #locking).

use std::time::Duration;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// No `--trust-store` and no usable `$HOME`/`$XDG_CONFIG_HOME`.
    #[error("cannot locate the per-user trust store ({problem}); pass --trust-store=<path>")]
    Unlocatable { problem: String },

    /// `--trust-store=<path>` names an existing directory; refused before
    /// anything runs or is asked.
    #[error("trust store {path} is a directory; --trust-store needs the path of a file")]
    IsDirectory { path: String },

    /// The file exists but cannot be read (permissions, I/O error).
    #[error("cannot read trust store {path}: {cause}")]
    Unreadable { path: String, cause: String },

    #[error("trust store {path} is not valid JSON; fix or delete it")]
    NotJson { path: String },

    /// `version` above 1, reported before any shape problem.
    #[error(
        "trust store {path} was written by a newer GocciaScript (version {version}); upgrade GocciaScript or remove the file"
    )]
    Newer { path: String, version: i64 },

    /// The first shape problem found (see `read.rs` for the order).
    #[error("trust store {path} is not a valid trust store ({problem}); fix or delete it")]
    Invalid { path: String, problem: String },

    /// Another process held `<store>.lock` for the whole timeout.
    #[error(
        "trust store {path} is locked by another process ({lock_path} was held for {}); retry when that process has finished",
        describe_wait(*waited)
    )]
    Locked {
        path: String,
        lock_path: String,
        waited: Duration,
    },

    /// The lock file cannot be created, opened or locked.
    #[error("cannot lock trust store {path} with {lock_path}: {cause}")]
    LockFailed {
        path: String,
        lock_path: String,
        cause: String,
    },

    /// A missing directory on the way to the store cannot be created.
    #[error("cannot create the trust store directory {dir}: {cause}")]
    CreateDir { dir: String, cause: String },

    /// The store path is a symbolic link to nothing: never replaced by a
    /// new store, which would drop the link (issue 9 item 5).
    #[error(
        "trust store {path} is a symbolic link to {target}, which does not exist; restore the file it points to or remove the link"
    )]
    DanglingLink { path: String, target: String },

    /// The store, its directory or the state directory can be written by
    /// someone else (or belongs to someone else); writers refuse. The text
    /// names the path, the problem and the fix (`safety.rs`).
    #[error("{problem}")]
    Unsafe { problem: String },

    /// An entry read again from the store file (a store read to be shown
    /// entry by entry) is not the bytes that were validated: the file was
    /// changed in place meanwhile.
    #[error("trust store {path} changed while it was being read; run the command again")]
    Changed { path: String },

    /// Writing, syncing or renaming failed; the old store is left whole.
    #[error("cannot write trust store {path}: {cause}")]
    Write { path: String, cause: String },
}

impl StoreError {
    /// Every store failure is exit 1 ("invalid value or failure").
    #[cfg(any(test, feature = "test-support"))]
    pub fn exit_class(&self) -> crate::core::error::ExitClass {
        crate::core::error::ExitClass::Invalid
    }

    #[cfg(any(test, feature = "test-support"))]
    pub fn exit_code(&self) -> u8 {
        self.exit_class().code()
    }
}

/// The OS's description of an I/O error, without Rust's ` (os error N)`
/// suffix: `Permission denied`, `No space left on device`.
pub(crate) fn io_cause(err: &std::io::Error) -> String {
    let text = err.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_string(),
        _ => text,
    }
}

fn describe_wait(waited: Duration) -> String {
    let ms = waited.as_millis();
    if ms.is_multiple_of(1000) {
        let s = ms / 1000;
        format!("{s} second{}", if s == 1 { "" } else { "s" })
    } else {
        format!("{:.1} seconds", waited.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_message_names_the_lock_file_and_the_wait() {
        let err = StoreError::Locked {
            path: "/h/.config/goccia/trust.json".into(),
            lock_path: "/h/.config/goccia/trust.json.lock".into(),
            waited: Duration::from_secs(10),
        };
        assert_eq!(
            err.to_string(),
            "trust store /h/.config/goccia/trust.json is locked by another process \
             (/h/.config/goccia/trust.json.lock was held for 10 seconds); \
             retry when that process has finished"
        );
        assert_eq!(err.exit_code(), 1);
        assert_eq!(describe_wait(Duration::from_millis(1500)), "1.5 seconds");
        assert_eq!(describe_wait(Duration::from_secs(1)), "1 second");
    }

    #[test]
    fn io_cause_drops_the_os_error_number() {
        let err = std::io::Error::from_raw_os_error(libc::EACCES);
        assert_eq!(io_cause(&err), "Permission denied");
    }
}

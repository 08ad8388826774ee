//! A store read for a command that shows each config's entry once, as it
//! writes that config's row (`scan`): validated whole, exactly as
//! [`read_store`] validates it, but holding only each entry's key and
//! where the entry's bytes sit in the file. An entry is read again when it
//! is asked for, through the handle the store was read from (a store
//! renamed over the path since, as every writer replaces it, is not what
//! is read back), and must be the very bytes that were validated: a file
//! changed in place meanwhile is [`StoreError::Changed`], never another
//! entry. A 20,000-entry store held this way costs its keys, about 2 MB,
//! where its entries cost about 9 MB (docs/src/performance.md).

use std::borrow::Cow;
use std::fs::File;

use super::error::{StoreError, io_cause};
use super::lean::{EntryAt, Lean, entry_again, read_lean_releasing_at};
use super::model::{Store, StoredEntry};
use super::read::read_store;
use crate::core::paths::bounded::{STORE_MAX_BYTES, read_regular_keeping};

/// Where a command finds the stored entry of a key.
pub trait StoredEntries: Sync {
    /// The entry of `key`, if the store has one; an error when it cannot
    /// be read back as it was validated.
    fn stored(&self, key: &str) -> Result<Option<Cow<'_, StoredEntry>>, StoreError>;
}

impl StoredEntries for Store {
    fn stored(&self, key: &str) -> Result<Option<Cow<'_, StoredEntry>>, StoreError> {
        Ok(self.get(key).map(Cow::Borrowed))
    }
}

/// A store whose entries are read from its file as they are asked for
/// ([`StoredEntries::stored`]), or held whole when its file could not be
/// read that way (no file: the empty store; a store the lean reader
/// leaves to the exact one).
pub struct StoreOnDemand {
    held: Held,
}

enum Held {
    Whole(Store),
    InFile {
        file: File,
        path: String,
        entries: Store<EntryAt>,
    },
}

impl Default for StoreOnDemand {
    fn default() -> StoreOnDemand {
        StoreOnDemand {
            held: Held::Whole(Store::new()),
        }
    }
}

impl StoreOnDemand {
    /// Reads and validates the store at `path` as [`read_store`] does,
    /// with the same verdict on every file, keeping its keys.
    pub fn read(path: &str) -> Result<StoreOnDemand, StoreError> {
        if let Ok((file, bytes)) = read_regular_keeping(path, STORE_MAX_BYTES)
            && let Ok(text) = String::from_utf8(bytes)
            && let Lean::Read(entries) = read_lean_releasing_at(text)
        {
            let path = path.to_string();
            let held = Held::InFile {
                file,
                path,
                entries,
            };
            return Ok(StoreOnDemand { held });
        }
        // Missing, unreadable, invalid, or left to the exact reader: the
        // file is read again and judged as every command judges it.
        read_store(path).map(StoreOnDemand::from)
    }

    /// The keys in store order.
    pub fn keys(&self) -> Box<dyn Iterator<Item = &str> + '_> {
        match &self.held {
            Held::Whole(store) => Box::new(store.iter().map(|(key, _)| key)),
            Held::InFile { entries, .. } => Box::new(entries.iter().map(|(key, _)| key)),
        }
    }
}

impl From<Store> for StoreOnDemand {
    fn from(store: Store) -> StoreOnDemand {
        StoreOnDemand {
            held: Held::Whole(store),
        }
    }
}

impl StoredEntries for StoreOnDemand {
    fn stored(&self, key: &str) -> Result<Option<Cow<'_, StoredEntry>>, StoreError> {
        let (file, path, at) = match &self.held {
            Held::Whole(store) => return store.stored(key),
            Held::InFile {
                file,
                path,
                entries,
            } => match entries.get(key) {
                Some(at) => (file, path, at),
                None => return Ok(None),
            },
        };
        let changed = || StoreError::Changed { path: path.clone() };
        let mut bytes = vec![0u8; at.len()];
        read_exact_at(file, &mut bytes, at.offset()).map_err(|e| match e.kind() {
            // Cut short in place since it was read.
            std::io::ErrorKind::UnexpectedEof => changed(),
            _ => StoreError::Unreadable {
                path: path.clone(),
                cause: io_cause(&e),
            },
        })?;
        match entry_again(key, at, &bytes) {
            Some(entry) => Ok(Some(Cow::Owned(entry))),
            None => Err(changed()),
        }
    }
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset) {
            Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(all(test, unix))]
#[path = "on_demand_tests.rs"]
mod tests;

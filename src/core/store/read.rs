//! Reading and validating a store (docs/src/compatibility.md#reading-and-validating-the-store).
//!
//! Precedence: not UTF-8 or not JSON; then a `version` above 1, whatever
//! the shape; then the first shape problem met walking the document in
//! order (top-level members in order, each entry's fields in order, each
//! target in order), so the problem reported is the one nearest the start
//! of the file; then, after everything, `no "version"`, `no "trusted"`, and
//! a version below 1.

use std::io::ErrorKind;

use rayon::prelude::*;

use super::entry::check_entry;
use super::error::StoreError;
use super::error::io_cause;
use super::lean::Lean;
use super::model::{Interner, Store, StoredEntry};
use crate::core::config::json::{self, Json};
use crate::core::paths::bounded::{ReadError, STORE_MAX_BYTES, read_regular};

/// Reads the store at `path` without locking. A missing file (or a missing
/// directory on the way) is an empty store; a symbolic link to nothing is
/// an error, never an empty store (a write would replace the link).
pub fn read_store(path: &str) -> Result<Store, StoreError> {
    read_from_file(path, true)
}

/// [`read_store`]; with `releasing`, a valid store's text is let go of as
/// its entries are made ([`parse_releasing`]).
fn read_from_file(path: &str, releasing: bool) -> Result<Store, StoreError> {
    match read_regular(path, STORE_MAX_BYTES) {
        Ok(bytes) if releasing => parse_releasing(path, bytes),
        Ok(bytes) => parse_store(path, &bytes),
        Err(ReadError::Io(e))
            if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) =>
        {
            super::safety::store_destination(path)?;
            Ok(Store::new())
        }
        Err(ReadError::Io(e)) => Err(StoreError::Unreadable {
            path: path.to_string(),
            cause: io_cause(&e),
        }),
        Err(e) => Err(StoreError::Unreadable {
            path: path.to_string(),
            cause: match e.not_regular() {
                Some(kind) => format!("not a regular file ({kind})"),
                None => e.describe(),
            },
        }),
    }
}

/// Validates the bytes of a store file; `path` is only used in messages.
pub fn parse_store(path: &str, bytes: &[u8]) -> Result<Store, StoreError> {
    let not_json = || StoreError::NotJson {
        path: path.to_string(),
    };
    let text = std::str::from_utf8(bytes).map_err(|_| not_json())?;
    // A valid store is read without building its document; anything else
    // is read again, by the exact reader, which says what is wrong.
    if let Some(store) = super::lean::read_lean(text) {
        return Ok(store);
    }
    parse_exact(path, text)
}

/// [`parse_store`] of bytes it owns, for a file: the text of a valid store
/// is let go of a part at a time as its entries are made, so the text and
/// the store are never both held whole. A store the lean reader gives up
/// on after letting part of its text go is read from the file again and
/// judged as [`parse_store`] judges it.
fn parse_releasing(path: &str, bytes: Vec<u8>) -> Result<Store, StoreError> {
    let Ok(text) = String::from_utf8(bytes) else {
        return Err(StoreError::NotJson {
            path: path.to_string(),
        });
    };
    match super::lean::read_lean_releasing(text) {
        Lean::Read(store) => Ok(store),
        Lean::GaveUp(text) => parse_exact(path, &text),
        Lean::Released => read_from_file(path, false),
    }
}

/// The exact reader: the whole document parsed, then judged in order.
pub(super) fn parse_exact(path: &str, text: &str) -> Result<Store, StoreError> {
    let not_json = || StoreError::NotJson {
        path: path.to_string(),
    };
    let doc = json::parse_wide(text).map_err(|_| not_json())?;

    // A newer GocciaScript may have changed the shape entirely, so its
    // version is the one thing read before the shape is judged. As with
    // JSON.parse, the last `version` member counts.
    if let Some(version) = doc.get("version").and_then(integer)
        && version > 1
    {
        return Err(StoreError::Newer {
            path: path.to_string(),
            version,
        });
    }

    let mut store = Store::new();
    check_document(doc, &mut store).map_err(|problem| StoreError::Invalid {
        path: path.to_string(),
        problem,
    })?;
    store.mark_unmodified();
    Ok(store)
}

/// An integer written without fraction or exponent that fits an Int64
/// (`1.0` and `1e0` are not integers).
fn integer(value: &Json) -> Option<i64> {
    match value {
        Json::Number(text) if !text.contains(['.', 'e', 'E']) => text.parse().ok(),
        _ => None,
    }
}

/// Takes the document apart rather than copying out of it: a store of
/// 10,000 entries is read in one pass, each string moved into place.
fn check_document(doc: Json, store: &mut Store) -> Result<(), String> {
    let Json::Object(members) = doc else {
        return Err("the top level is not an object".into());
    };
    let mut version = None;
    let mut has_trusted = false;
    for (name, value) in members {
        match name.as_str() {
            "version" => version = Some(integer(&value).ok_or("\"version\" is not an integer")?),
            "trusted" => {
                has_trusted = true;
                let Json::Object(entries) = value else {
                    return Err("\"trusted\" is not an object".into());
                };
                // Checked on every thread, then taken in document order, so
                // the problem reported is still the first one in the file.
                store.reserve(entries.len());
                let checked: Vec<Result<(String, StoredEntry), String>> = entries
                    .into_par_iter()
                    .map(|(key, entry)| check_entry(&key, entry).map(|e| (key, e)))
                    .collect();
                let mut interner = Interner::default();
                for entry in checked {
                    let (key, mut entry) = entry?;
                    interner.share(&mut entry);
                    store.put(key, entry);
                }
            }
            other => return Err(format!("unknown key \"{other}\"")),
        }
    }
    let version = version.ok_or("no \"version\"")?;
    if !has_trusted {
        return Err("no \"trusted\"".into());
    }
    if version < 1 {
        return Err(format!("unknown \"version\" {version}"));
    }
    Ok(())
}

#[cfg(test)]
#[path = "read_tests.rs"]
mod tests;

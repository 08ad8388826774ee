//! The per-user trust store, byte-compatible with GocciaScript 0.14
//! (docs/src/compatibility.md#the-store).
//!
//! * [`locate_store`] finds the file (`--trust-store=<path>` or the
//!   per-user default); no environment variable selects a store.
//! * [`read_store`] reads and validates it without locking: a run, `list`
//!   and `scan` read once and never lock. [`StoreOnDemand`] validates it
//!   the same way but keeps only its keys, reading each entry back from
//!   the file when asked (`scan`, which shows each entry once).
//! * [`write::write_store`] writes the exact bytes GocciaScript writes, a batch of
//!   entries at a time.
//! * [`update_store`] is the only way to change the file: it takes the OS
//!   lock on `<store>.lock`, re-reads the store, applies the caller's
//!   changes and replaces the file in one rename, so concurrent writers
//!   merge and readers always see a whole store.
//!
//! The store's directory only ever holds `trust.json`, `trust.json.lock` and,
//! while a write is under way, `trust.json.<pid>.tmp` (docs/src/compatibility.md#what-stays-out-of-the-store).

mod entry;
mod error;
mod lean;
mod location;
mod model;
mod on_demand;
mod read;
mod safety;
mod update;
mod write;

pub use error::StoreError;
pub use location::{StoreLocation, locate_store};
pub use model::{Sha256, Store, StoredBlock, StoredEntry};
pub use on_demand::{StoreOnDemand, StoredEntries};
pub use read::read_store;
pub use safety::{
    SafetyIssue, User, check_state_dir, check_store, refusal, store_in_reviewed_tree,
};
pub use update::{LOCK_TIMEOUT, update_read_store, update_store, update_store_locked};
pub use write::utc_timestamp_now;

// What the integration tests reach beyond the product's own uses.
#[cfg(any(test, feature = "test-support"))]
pub use read::parse_store;
#[cfg(any(test, feature = "test-support"))]
pub use update::update_store_with_timeout;
#[cfg(any(test, feature = "test-support"))]
pub use write::serialize_store;

//! Team reviews, signed (docs/src/signed-reviews.md): a person reviews a
//! config's requests, signs a record of them with the SSH key git already
//! signs with, and commits it to `.goccia/reviews.jsonl`; a verifier counts
//! the records that keys *they* chose signed for the config as it is now.
//!
//! - [`digest`]: the portable digest, the same in every checkout;
//! - [`record`]: one record, its strict parse and its signed payload;
//! - [`file`]: reading the reviews file (bounded, never through a link) and
//!   writing it sorted and atomically;
//! - [`signers`]: the verifier's allowed_signers and revoked keys;
//! - [`verify`]: the checks of one record, in order, and the count;
//! - [`each_config`]: configs judged one by one as a walk finds them,
//!   each repository's file read once (the interactive review);
//! - [`sign`]: signing through `ssh-keygen -Y sign`, checked in process
//!   before anything is written;
//! - [`defaults`]: the key and principal git already signs with, from its
//!   global configuration, when `review sign` is not told.
//!
//! Verification runs in this process only (the `ssh-key` crate): no program
//! a repository names is ever run to decide what counts.

pub mod defaults;
pub mod digest;
pub mod each_config;
pub mod file;
pub mod record;
pub mod sign;
pub mod signers;
pub mod verify;

#[cfg(all(test, unix))]
mod sk_tests;
#[cfg(all(test, unix))]
mod tests;

/// The SSHSIG namespace of every review signature.
pub const NAMESPACE: &str = "goccia-trust-review";

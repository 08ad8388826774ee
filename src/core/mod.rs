//! The core: everything GocciaScript 0.14 computes about configs and the
//! trust store, with no terminal or argument-parsing code. The CLI and the
//! TUI are two faces of it.
//!
//! One folder per concern, layered so that no folder imports one above it:
//!
//! - [`paths`]: what a path names (expansion, realpath, keys, display,
//!   bounded reads, the tree under review);
//! - [`config`]: one config file read as GocciaScript reads it, down to its
//!   normalized block and hash;
//! - [`store`]: the per-user trust store, read, locked and written;
//! - [`review`]: configs on disk against the store (discover, scan, status,
//!   listing, check, trust);
//! - [`policy`]: the policy gate (load, classify, evaluate, record, spawn);
//! - [`team`]: signed team reviews (the portable digest, the reviews file,
//!   allowed signers, verification and signing);
//!
//! plus four shared modules: [`env`] (the environment, read once),
//! [`error`], [`exit`] (the one exit table) and [`process`] (the one bounded
//! way to run another program).

pub mod config;
pub mod env;
pub mod error;
pub mod exit;
pub mod paths;
pub mod policy;
pub mod process;
pub mod review;
pub mod revision;
pub mod store;
pub mod team;

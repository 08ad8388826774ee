//! One config file, read as GocciaScript 0.14 reads it for trust: its
//! entries (JSON, JSON5, TOML), its `extends` chain, option validation, the
//! permission request (allow scopes, `unsafe-*`, `sandbox`), the normalized
//! block and its SHA-256, the description lines, and the targets recorded
//! with it. Depends on `paths`; nothing here knows the store.

pub mod block;
pub mod capability;
pub mod describe;
pub mod entries;
pub mod extends;
pub mod json;
mod load;
pub mod request;
pub mod sandbox;
pub mod scope;
pub mod targets;
pub mod validate;

pub use load::*;

//! What a path names: GocciaScript 0.14's lexical expansion (Free Pascal's
//! `ExpandFileName`), `realpath(3)` with its memo, the trust key of a
//! config, how paths are displayed in messages, the per-platform rules
//! (store location, key comparison), bounded reads of files named
//! by untrusted input, and the tree under review. The bottom layer of the
//! core: it depends only on `env` and `error`.

pub mod bounded;
pub mod display;
mod expansion;
pub mod input;
pub mod key;
pub mod output;
pub mod platform;
pub mod portable;
pub mod realpath;
pub mod reviewed;

pub use expansion::*;

#[cfg(test)]
mod oracle;

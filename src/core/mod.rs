//! The core: everything GocciaScript 0.14 computes about configs and the
//! trust store, with no terminal or argument-parsing code. The CLI and the
//! TUI are two faces of it.

pub mod discover;
pub mod display;
pub mod entries;
pub mod env;
pub mod error;
pub mod exit;
pub mod extends;
pub mod json;
pub mod key;
pub mod paths;
pub mod policy;
pub mod report;
pub mod spawn;
pub mod store;
pub mod validate;

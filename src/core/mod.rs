//! The core: everything GocciaScript 0.14 computes about configs and the
//! trust store, with no terminal or argument-parsing code. The CLI and the
//! TUI are two faces of it.

pub mod block;
pub mod bounded;
pub mod check;
pub mod config;
pub mod describe;
pub mod destination;
pub mod discover;
pub mod display;
pub mod entries;
pub mod env;
pub mod error;
pub mod exit;
pub mod extends;
pub mod gate;
pub mod json;
pub mod key;
pub mod listing;
pub mod paths;
pub mod policy;
pub mod progress;
pub mod realpath;
pub mod report;
pub mod request;
pub mod reviewed;
pub mod sandbox;
pub mod scan;
pub mod scope;
pub mod spawn;
pub mod status;
pub mod store;
pub mod targets;
pub mod trust;
pub mod validate;
pub mod value_diff;

//! The core: everything GocciaScript 0.14 computes about configs and the
//! trust store, with no terminal or argument-parsing code. The CLI and the
//! TUI are two faces of it.

pub mod block;
pub mod describe;
pub mod entries;
pub mod env;
pub mod error;
pub mod exit;
pub mod json;
pub mod paths;
pub mod report;
pub mod request;
pub mod sandbox;
pub mod scope;
pub mod targets;

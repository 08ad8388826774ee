//! goccia-trust: review GocciaScript configs' permission requests and manage
//! GocciaScript 0.14's per-user trust store.
//!
//! The library's one public item is [`main`], the command line the binary
//! runs. Everything else is crate-private, so rustc reports dead code; the
//! `test-support` feature makes the modules public for the integration
//! tests, benches and examples (plain `cargo test` enables it through the
//! crate's dev-dependency on itself).
// Test modules under `#[cfg(all(test, unix))]` are not seen as tests by
// clippy's allow-*-in-tests; product code is still checked in the non-test build.
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

#[cfg(feature = "test-support")]
pub mod cli;
#[cfg(not(feature = "test-support"))]
pub(crate) mod cli;
#[cfg(feature = "test-support")]
pub mod core;
#[cfg(not(feature = "test-support"))]
pub(crate) mod core;
/// The live demo's builder (`cargo run --features demo --bin goccia-trust-demo`): not product code.
#[cfg(feature = "test-support")]
pub mod demo;
#[cfg(feature = "test-support")]
pub mod sanitize;
#[cfg(not(feature = "test-support"))]
pub(crate) mod sanitize;
#[cfg(feature = "test-support")]
pub mod style;
#[cfg(not(feature = "test-support"))]
pub(crate) mod style;
#[cfg(feature = "test-support")]
pub mod tui;
#[cfg(not(feature = "test-support"))]
pub(crate) mod tui;

pub use cli::app::main;

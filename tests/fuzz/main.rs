//! Property and mutation tests over everything that reads hostile input
//! (issue 9 item 8): the three config parsers, `extends`, the store loader,
//! the policy loader, the scope validators and the JSON reader under them.
//!
//! Every case runs on a thread with a rayon worker's 2 MiB stack and a time
//! bound (`harness::bounded`), so a panic, a stack overflow or a hang fails
//! the test instead of passing unnoticed; failures are clean `Err` values
//! with a message. Where a round trip exists (store serialize/parse, the
//! normalized block, the policy as shown) it is asserted.
//!
//! The short run (a few hundred cases per property) is part of `cargo test`;
//! the long form is `PROPTEST_CASES=20000 cargo test --release --test fuzz`
//! (README "Fuzzing").

mod alloc;
mod api;
mod cli;
mod configs;
mod extends;
mod harness;
mod json;
mod paths;
mod policy;
mod scopes;
mod store;

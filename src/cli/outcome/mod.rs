//! What each command decided, one module per command: the result the
//! command's printers print and the exit code it ends with
//! (`Outcome::exit_code`), made by the command's `decide(ctx, args)`.
//! Where the result is the core's (`core::review::results`,
//! `core::review::trust::outcome`), the outcome wraps it. An outcome
//! imports the core and `cli::load`, never a printer; a printer writes an
//! outcome, never decides a code, and an error that ends a command with a
//! code is made here (`tests/it/layering.rs` checks both).

pub mod check;
pub mod diff;
pub mod diff_reviews;
pub mod hook;
pub mod ignore;
pub mod inspect;
pub mod list;
pub mod policy;
pub mod review;
pub mod scan;
pub mod status;
pub mod trust;
pub mod untrust;

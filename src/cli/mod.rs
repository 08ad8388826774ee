//! The command line: one file per command over the core. [`app`] reads the
//! command line and dispatches, [`io`] is where every command writes,
//! [`ctx`] what a command is given, [`load`] the store it reads.

pub mod app;
pub mod args;
pub mod check;
pub mod ci_out;
pub mod complete;
pub mod ctx;
pub mod diff;
pub mod error;
pub mod generate;
pub mod globals;
pub mod hook;
pub mod ignore;
pub mod inspect;
pub mod io;
pub mod json_out;
pub mod list;
pub mod load;
pub mod outcome;
pub mod policy;
pub mod policy_trust;
pub mod print;
pub mod review;
pub mod review_trust;
pub mod scan;
pub mod scan_reviews;
pub mod status;
pub mod streams;
pub mod terminal;
pub mod trust;
pub mod tui;
pub mod untrust;
pub mod walk;

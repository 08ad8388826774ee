//! The command line: one file per command, clap only here.

pub mod policy;

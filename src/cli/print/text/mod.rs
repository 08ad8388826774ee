//! Text for people: the tables, listings and reports of each command, coloured where
//! the stream is a terminal, and plain (exactly as GocciaScript prints it) where it is not.

pub mod scan;
pub mod check;
pub mod trust;
pub mod untrust;
pub mod list;
pub mod inspect;
pub mod ignore;
pub mod diff;
pub mod status;
pub mod hook;
pub mod policy;

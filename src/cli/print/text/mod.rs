//! Text for people: the tables, listings and reports of each command, coloured where
//! the stream is a terminal, and plain (exactly as GocciaScript prints it) where it is not.

pub mod check;
pub mod diff;
pub mod hook;
pub mod ignore;
pub mod inspect;
pub mod list;
pub mod policy;
pub mod provenance;
pub mod review;
pub mod scan;
pub mod status;
pub mod table;
pub mod trust;
pub mod untrust;

//! JSON documents (the guide's JSON contract, `schemas/`).

pub mod scan;
pub mod check;
pub mod trust;
pub mod untrust;
pub mod list;
pub mod inspect;
pub mod diff;
pub mod status;
pub mod policy;

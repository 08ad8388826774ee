//! JSON documents (the guide's JSON contract, `schemas/`).

pub mod check;
pub mod diff;
pub mod inspect;
pub mod list;
pub mod policy;
pub mod provenance;
pub mod review;
pub mod scan;
pub mod status;
pub mod trust;
pub mod untrust;

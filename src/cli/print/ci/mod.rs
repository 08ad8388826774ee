//! SARIF 2.1.0 and GitHub workflow-command annotations.

pub mod scan;
pub mod check;
pub mod diff;

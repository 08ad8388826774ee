//! SARIF 2.1.0 and GitHub workflow-command annotations.

pub mod check;
pub mod diff;
pub mod scan;

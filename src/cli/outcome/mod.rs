//! What each command decided, one module per command: the result the
//! command's printers print and the exit code it ends with
//! (`Outcome::exit_code`). An outcome imports the core and `cli::load`,
//! never a printer; a printer writes an outcome, never decides a code.

pub mod check;
pub mod diff;
pub mod hook;
pub mod policy;
pub mod review;
pub mod scan;
pub mod status;
pub mod trust;

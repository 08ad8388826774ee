//! `status`'s result as text: its `Warning:` lines on stderr, then the one
//! notice line when something needs review, nothing when nothing does.

use crate::cli::Io;
use crate::cli::status_outcome::StatusResult;

pub fn print(r: &StatusResult, io: &mut Io<'_>) -> std::io::Result<()> {
    warnings(r, io);
    if let Some(line) = &r.notice {
        writeln!(io.out, "{line}")?;
    }
    Ok(())
}

/// The `Warning:` lines on stderr, whatever the format of stdout.
pub fn warnings(r: &StatusResult, io: &mut Io<'_>) {
    for w in &r.warnings {
        io.warn(w);
    }
}

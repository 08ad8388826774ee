//! `status`'s result as text: its `Warning:` lines on stderr, then the one
//! notice line when something needs review, nothing when nothing does.

use crate::cli::io::Io;
use crate::cli::outcome::status::{PromptLine, StatusResult};

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

/// `status --prompt`: the line alone on stdout, nothing on stderr (a
/// prompt shows whatever it is given).
pub fn prompt(line: &PromptLine, io: &mut Io<'_>) -> std::io::Result<()> {
    match line {
        PromptLine::Checked(None) => Ok(()),
        PromptLine::Checked(Some(line)) => writeln!(io.out, "{line}"),
        PromptLine::Failed(_) => writeln!(
            io.out,
            "goccia: check failed (run goccia-trust status for why)"
        ),
        PromptLine::TooSlow => writeln!(
            io.out,
            "goccia: check took too long (run goccia-trust status --tree)"
        ),
    }
}

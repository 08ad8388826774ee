//! Where a command writes: stdout and stderr behind the terminal's escaping
//! ([`Io`]). Every printer writes through it; it knows nothing of the
//! commands, so a printer never depends on the module that dispatches.

use std::io::Write;

use crate::cli::terminal;
use crate::sanitize::clean;
use crate::style::paint;
use crate::style::theme::Role;

/// Where a command writes. Commands never print directly, so tests can run
/// them in-process and a broken pipe is an error, not a panic. Every write
/// to `out` is checked (`?` turns its failure into a [`CliError`](crate::cli::error::CliError)); an error
/// is returned, never printed by the command: `cli::app::finish` prints it.
pub struct Io<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
    /// What the streams are, and `--quiet` (`cli::terminal`).
    pub escaping: &'a terminal::Escaping,
}

impl Io<'_> {
    /// Prints `Error: <message>` on stderr; for `cli::app::finish`, the one place
    /// errors are printed. The message is one line, escaped whole (a line
    /// break too): it may quote a path, an argument, a config or the store.
    pub fn error(&mut self, message: impl std::fmt::Display) {
        let _ = writeln!(
            self.err,
            "{} {}",
            error_prefix(),
            clean(&message.to_string())
        );
    }

    /// Prints `Warning: <message>` on stderr, escaped whole like
    /// [`Io::error`]'s.
    pub fn warn(&mut self, message: impl std::fmt::Display) {
        let _ = writeln!(
            self.err,
            "{} {}",
            paint::mark(Role::Changed, "Warning:"),
            clean(&message.to_string())
        );
    }
}

/// `Error:`, styled as an error.
pub fn error_prefix() -> String {
    paint::mark(Role::Error, "Error:")
}

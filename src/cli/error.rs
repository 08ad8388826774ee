//! The one error path of the command line (as jj's `CommandError`): every
//! command returns `Result<u8, CliError>`, and [`crate::cli::finish`] alone
//! prints an error and maps it to the exit table (`core::exit`).

use std::fmt::Display;
use std::io;

use crate::core::exit;

/// Why a command stopped early.
#[derive(Debug)]
pub enum CliError {
    /// `Error: <message>` on stderr, then exit `code`.
    Message {
        code: u8,
        message: String,
        /// The message quotes config-derived text: escaped whole (a line
        /// break too) when stderr is escaped.
        config_text: bool,
        /// Also `{"error": "<message>"}` on stdout (the `policy` verbs'
        /// `--json`).
        json: bool,
    },
    /// stdout was closed (`EPIPE`): the reader has gone, so the command
    /// stops at that write, quietly, with [`exit::CLOSED_STDOUT`].
    ClosedStdout,
    /// stdout could not be written otherwise (a full disk): exit 1.
    Stdout(io::Error),
}

impl CliError {
    /// `Error: <message>`, exit `code`.
    pub fn new(code: u8, message: impl Display) -> CliError {
        CliError::Message {
            code,
            message: message.to_string(),
            config_text: false,
            json: false,
        }
    }

    /// `Error: <message>`, exit 2.
    pub fn usage(message: impl Display) -> CliError {
        CliError::new(exit::USAGE, message)
    }

    /// `Error: <message>`, exit 1.
    pub fn failed(message: impl Display) -> CliError {
        CliError::new(exit::FAILURE, message)
    }

    /// `Error: <message>` for a message quoting config-derived text.
    pub fn config_text(code: u8, message: impl Display) -> CliError {
        CliError::Message {
            code,
            message: message.to_string(),
            config_text: true,
            json: false,
        }
    }

    /// The same error, also printed as `{"error": ...}` on stdout.
    pub fn with_json(self, on: bool) -> CliError {
        match self {
            CliError::Message {
                code,
                message,
                config_text,
                ..
            } => CliError::Message {
                code,
                message,
                config_text,
                json: on,
            },
            other => other,
        }
    }

    /// The exit code this error ends the command with.
    pub fn code(&self) -> u8 {
        match self {
            CliError::Message { code, .. } => *code,
            CliError::ClosedStdout => exit::CLOSED_STDOUT,
            CliError::Stdout(_) => exit::FAILURE,
        }
    }
}

/// A failed write to stdout: a closed pipe ends the command quietly, any
/// other error is reported. Writes to stderr are never checked: with
/// stderr gone there is nowhere to report anything.
impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        if e.kind() == io::ErrorKind::BrokenPipe {
            CliError::ClosedStdout
        } else {
            CliError::Stdout(e)
        }
    }
}

/// What every command returns: its exit code when it ran to its end.
pub type CliResult = Result<u8, CliError>;

//! The one error path of the command line (as jj's `CommandError`): every
//! command returns `Result<u8, CliError>`, and [`crate::cli::app::finish`] alone
//! prints an error and maps it to the exit table (`core::exit`).

use std::fmt::Display;
use std::io;

use crate::core::exit;

/// Which JSON document, if any, an error is also printed as on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorJson {
    None,
    /// `{"error": "<message>"}`: the `policy` verbs' format.
    Seed,
    /// `{"schema": 1, "error": {"message", "exit"}}`.
    Contract,
}

/// Why a command stopped early.
#[derive(Debug)]
pub enum CliError {
    /// `Error: <message>` on stderr, then exit `code`.
    Message {
        code: u8,
        message: String,
        /// A report of several lines (`check`'s), printed as it is: each
        /// config-derived value in it was escaped where it was made. Any
        /// other message is one line, escaped whole (a line break too).
        report: bool,
        /// Also a JSON document on stdout: the `policy` verbs' own
        /// `{"error": "<message>"}`, or the contract's
        /// `{"schema": 1, "error": {"message", "exit"}}`.
        json: ErrorJson,
        /// A second line for a person, printed after the error only when
        /// stderr is a terminal.
        hint: Option<String>,
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
            report: false,
            json: ErrorJson::None,
            hint: None,
        }
    }

    /// The same error with a second line for a person on a terminal.
    pub fn with_hint(mut self, text: impl Into<String>) -> CliError {
        if let CliError::Message { hint, .. } = &mut self {
            *hint = Some(text.into());
        }
        self
    }

    /// `Error: <message>`, exit 2.
    pub fn usage(message: impl Display) -> CliError {
        CliError::new(exit::USAGE, message)
    }

    /// `Error: <message>`, exit 1.
    pub fn failed(message: impl Display) -> CliError {
        CliError::new(exit::FAILURE, message)
    }

    /// `Error: <report>`, a report of several lines whose config-derived
    /// values are escaped already, exit `code`.
    pub fn report(code: u8, report: impl Display) -> CliError {
        CliError::Message {
            code,
            message: report.to_string(),
            report: true,
            json: ErrorJson::None,
            hint: None,
        }
    }

    /// The same error, also printed as `{"error": ...}` on stdout.
    pub fn with_json(self, on: bool) -> CliError {
        self.with_document(if on { ErrorJson::Seed } else { ErrorJson::None })
    }

    /// The same error, also printed on stdout as the JSON contract's
    /// failure document (README "JSON contract").
    pub fn with_contract_json(self) -> CliError {
        self.with_document(ErrorJson::Contract)
    }

    fn with_document(mut self, document: ErrorJson) -> CliError {
        if let CliError::Message { json, .. } = &mut self {
            *json = document;
        }
        self
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

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;
    use crate::cli::app::finish;
    use crate::cli::io::Io;
    use crate::cli::terminal::{Escaping, SafeWriter};

    /// A stdout whose reader has gone.
    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
    }

    fn finish_with(result: CliResult, escaping: &Escaping) -> (u8, String, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = {
            let mut o = SafeWriter::stdout(&mut out, escaping, None);
            let mut e = SafeWriter::stderr(&mut err, None);
            let mut io = Io {
                out: &mut o,
                err: &mut e,
                escaping,
            };
            finish(result, &mut io)
        };
        (
            code,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn a_write_to_a_closed_stdout_is_141_and_nothing_is_printed() {
        let e: CliError = writeln!(Closed, "x").unwrap_err().into();
        assert!(matches!(e, CliError::ClosedStdout));
        let (code, out, err) = finish_with(Err(e), &Escaping::new(false, false));
        assert_eq!((code, out.as_str(), err.as_str()), (141, "", ""));
    }

    #[test]
    fn a_closed_stdout_at_the_final_flush_is_141_too() {
        let escaping = Escaping::new(false, false);
        let mut err = Vec::new();
        let mut io = Io {
            out: &mut Closed,
            err: &mut err,
            escaping: &escaping,
        };
        assert_eq!(finish(Ok(exit::POLICY_DENIED), &mut io), 141);
        assert!(err.is_empty());
    }

    #[test]
    fn another_stdout_failure_is_exit_1_with_its_cause() {
        let e: CliError = io::Error::from(io::ErrorKind::StorageFull).into();
        let (code, _, err) = finish_with(Err(e), &Escaping::new(false, false));
        assert_eq!(code, 1);
        assert!(err.starts_with("Error: cannot write to stdout: "), "{err}");
    }

    #[test]
    fn an_error_is_one_line_on_stderr_and_json_too_when_asked() {
        let (code, out, err) = finish_with(
            Err(CliError::usage("bad policy").with_json(true)),
            &Escaping::new(false, false),
        );
        assert_eq!(code, 2);
        assert_eq!(err, "Error: bad policy\n");
        assert_eq!(out, "{\"error\":\"bad policy\"}\n");
        let (_, out, _) = finish_with(
            Err(CliError::usage("bad policy").with_json(false)),
            &Escaping::new(false, false),
        );
        assert_eq!(out, "");
    }

    /// A path in an error cannot start a line of its own, on a terminal or
    /// in a CI log; a report's own lines stay lines.
    #[test]
    fn an_error_is_escaped_whole_on_every_stderr() {
        for escaping in [Escaping::new(false, true), Escaping::new(false, false)] {
            let e = CliError::new(1, "a\n::error::b/goccia.json: bad");
            let (_, _, err) = finish_with(Err(e), &escaping);
            assert_eq!(err, "Error: a^J::error::b/goccia.json: bad\n");
            let e = CliError::report(2, "1 config file:\n\n  a^J/goccia.json\n");
            let (_, _, err) = finish_with(Err(e), &escaping);
            assert_eq!(err, "Error: 1 config file:\n\n  a^J/goccia.json\n\n");
        }
    }
}

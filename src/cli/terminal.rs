//! The one rule for config-derived text on a terminal. Config files are
//! untrusted: a scope or path holding `ESC[2J`, a bidi override, a soft
//! hyphen or sixty newlines could repaint the `--trust` listing, hide a
//! request or forge the prompt.
//!
//! Decided per stream: whatever goes to a terminal is escaped. When a
//! prompt is shown, a person is reading every stream (stdout possibly
//! through `| tee`, which copies raw bytes to the screen), so both are
//! escaped then. Escaping has two layers:
//! - each config-derived value (path, key, scope, host, target, an error
//!   quoting config content) is escaped whole before it is formatted, by
//!   [`Escaping::text`] and friends, newlines included, so a value never
//!   spans two lines;
//! - everything written through an escaped stream ([`TerminalSafe`]) is
//!   escaped again except line breaks, which this tool's own text needs; a
//!   value a command forgot still cannot carry an escape sequence.
//!
//! Piped output with no prompt stays byte for byte what GocciaScript
//! prints. Characters are classified by Unicode property in
//! [`crate::sanitize::is_unsafe`].

use std::borrow::Cow;
use std::cell::Cell;
use std::io::{self, IsTerminal, Write};

use crate::core::review::report::{ConfigReport, DiffLine, EntryStatus, Outcome, StoreEntryReport};
use crate::sanitize::{clean, clean_keep_newlines};

/// Which of stdout and stderr carry escaped text, decided once from what
/// they are and raised for both when a prompt is shown.
#[derive(Debug)]
pub struct Escaping {
    out: Cell<bool>,
    err: Cell<bool>,
    /// `--quiet`: stdout is discarded until a listing must be shown.
    muted: Cell<bool>,
    stdout_is_terminal: bool,
    stderr_is_terminal: bool,
}

impl Escaping {
    pub fn new(stdout_is_terminal: bool, stderr_is_terminal: bool) -> Escaping {
        Escaping {
            out: Cell::new(stdout_is_terminal),
            err: Cell::new(stderr_is_terminal),
            muted: Cell::new(false),
            stdout_is_terminal,
            stderr_is_terminal,
        }
    }

    /// From the process's own stdout and stderr.
    pub fn detect() -> Escaping {
        Escaping::new(io::stdout().is_terminal(), io::stderr().is_terminal())
    }

    /// A prompt is about to be shown: config text is escaped on every
    /// stream from now on.
    pub fn prompting(&self) {
        self.out.set(true);
        self.err.set(true);
    }

    /// `--quiet`: nothing more reaches stdout (errors go to stderr).
    pub fn set_quiet(&self) {
        self.muted.set(true);
    }

    /// What follows must be seen even under `--quiet`: the listing a
    /// prompt asks about, what `trust --yes` records.
    pub fn unmute(&self) {
        self.muted.set(false);
    }

    pub fn stdout_is_terminal(&self) -> bool {
        self.stdout_is_terminal
    }

    pub fn stderr_is_terminal(&self) -> bool {
        self.stderr_is_terminal
    }

    /// The rule for one stream's values.
    pub fn out(&self) -> Values {
        Values(self.out.get())
    }

    pub fn err(&self) -> Values {
        Values(self.err.get())
    }
}

/// Escapes config-derived values bound for one stream, or leaves them as
/// they are when that stream is raw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Values(pub bool);

impl Values {
    /// One value: escaped whole (newlines too) on an escaped stream.
    pub fn text<'a>(&self, s: &'a str) -> Cow<'a, str> {
        if self.0 { clean(s) } else { Cow::Borrowed(s) }
    }

    pub fn line(&self, l: &DiffLine) -> DiffLine {
        let t = |s: &String| self.text(s).into_owned();
        match l {
            DiffLine::Removed(s) => DiffLine::Removed(t(s)),
            DiffLine::Unchanged(s) => DiffLine::Unchanged(t(s)),
            DiffLine::Added(s) => DiffLine::Added(t(s)),
            DiffLine::Target {
                scope,
                recorded,
                current,
            } => DiffLine::Target {
                scope: t(scope),
                recorded: t(recorded),
                current: t(current),
            },
        }
    }

    pub fn lines(&self, lines: &[DiffLine]) -> Vec<DiffLine> {
        lines.iter().map(|l| self.line(l)).collect()
    }

    pub fn pairs(&self, pairs: &[(String, String)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| (self.text(a).into_owned(), self.text(b).into_owned()))
            .collect()
    }

    /// A report as it may be shown on this stream: every config-derived
    /// field escaped. For display only; never record from it.
    pub fn report<'a>(&self, r: &'a ConfigReport) -> Cow<'a, ConfigReport> {
        if !self.0 {
            return Cow::Borrowed(r);
        }
        let mut shown = r.clone();
        shown.key = self.text(&r.key).into_owned();
        shown.display_path = self.text(&r.display_path).into_owned();
        shown.files = r.files.iter().map(|f| self.text(f).into_owned()).collect();
        shown.lines = self.lines(&r.lines);
        match &mut shown.outcome {
            Outcome::Loaded(l) => l.targets = self.pairs(&l.targets),
            Outcome::Failed(e) => e.message = self.text(&e.message).into_owned(),
        }
        if let Some(s) = &mut shown.stored {
            s.targets = self.pairs(&s.targets);
        }
        Cow::Owned(shown)
    }
}

impl Values {
    /// A store entry as it may be shown on this stream (`list`).
    pub fn entry<'a>(&self, e: &'a StoreEntryReport) -> Cow<'a, StoreEntryReport> {
        if !self.0 {
            return Cow::Borrowed(e);
        }
        let mut shown = e.clone();
        shown.key = self.text(&e.key).into_owned();
        shown.display_path = self.text(&e.display_path).into_owned();
        // The summary is the stored block's keys; the rest is the store's.
        shown.summary = self.text(&e.summary).into_owned();
        shown.trusted_at = self.text(&e.trusted_at).into_owned();
        shown.trusted_by = self.text(&e.trusted_by).into_owned();
        shown.lines = self.lines(&e.lines);
        if let EntryStatus::Unreadable(err) = &mut shown.status {
            err.message = self.text(&err.message).into_owned();
        }
        Cow::Owned(shown)
    }
}

/// A stream that escapes everything written through it while its flag is
/// set, line breaks kept.
pub struct TerminalSafe<'a, W: Write> {
    inner: W,
    escape: &'a Cell<bool>,
    /// Set for stdout: `--quiet` discards what is written while it holds.
    mute: Option<&'a Cell<bool>>,
}

impl<'a, W: Write> TerminalSafe<'a, W> {
    pub fn stdout(inner: W, escaping: &'a Escaping) -> TerminalSafe<'a, W> {
        TerminalSafe {
            inner,
            escape: &escaping.out,
            mute: Some(&escaping.muted),
        }
    }

    pub fn stderr(inner: W, escaping: &'a Escaping) -> TerminalSafe<'a, W> {
        TerminalSafe {
            inner,
            escape: &escaping.err,
            mute: None,
        }
    }
}

impl<W: Write> Write for TerminalSafe<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.mute.is_some_and(Cell::get) {
            return Ok(buf.len());
        }
        if !self.escape.get() {
            return self.inner.write(buf);
        }
        // Formatting hands over whole `str` pieces, so a chunk is valid
        // UTF-8; anything else is shown with replacement characters.
        let text = String::from_utf8_lossy(buf);
        self.inner
            .write_all(clean_keep_newlines(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str = "  + allow-read: /x\u{1b}[2K\rTrust 0 config files? [y/N] \u{202e}moc\n";

    #[test]
    fn escapes_only_on_a_terminal() {
        let raw_streams = Escaping::new(false, false);
        let mut raw = TerminalSafe::stdout(Vec::new(), &raw_streams);
        raw.write_all(HOSTILE.as_bytes()).unwrap();
        assert_eq!(raw.inner, HOSTILE.as_bytes());
        let tty_streams = Escaping::new(true, false);
        let mut tty = TerminalSafe::stdout(Vec::new(), &tty_streams);
        tty.write_all(HOSTILE.as_bytes()).unwrap();
        assert_eq!(
            String::from_utf8(tty.inner).unwrap(),
            "  + allow-read: /x^[[2K^MTrust 0 config files? [y/N] \\u{202e}moc\n"
        );
        let mut err = TerminalSafe::stderr(Vec::new(), &tty_streams);
        err.write_all(HOSTILE.as_bytes()).unwrap();
        assert_eq!(
            err.inner,
            HOSTILE.as_bytes(),
            "stderr is decided on its own"
        );
    }

    #[test]
    fn a_prompt_escapes_every_stream() {
        let streams = Escaping::new(false, true);
        assert_eq!(
            (streams.out(), streams.err()),
            (Values(false), Values(true))
        );
        streams.prompting();
        assert_eq!((streams.out(), streams.err()), (Values(true), Values(true)));
        let mut out = TerminalSafe::stdout(Vec::new(), &streams);
        out.write_all("a\u{1b}[2J\n".as_bytes()).unwrap();
        assert_eq!(out.inner, b"a^[[2J\n");
    }

    /// Everything of a `list` row that comes from the store is escaped:
    /// a stored block's key or a timestamp cannot forge a line.
    #[test]
    fn a_store_entry_is_escaped_whole() {
        let forged = "k\n/forged/goccia.json  trusted 2026-01-01T00:00:00Z  allow-net";
        let entry = StoreEntryReport {
            key: "/k\u{1b}[2J".into(),
            display_path: "k".into(),
            status: EntryStatus::Ok,
            trusted_at: forged.into(),
            trusted_by: forged.into(),
            summary: forged.into(),
            lines: vec![],
        };
        let shown = Values(true).entry(&entry);
        for field in [
            &shown.key,
            &shown.summary,
            &shown.trusted_at,
            &shown.trusted_by,
        ] {
            assert!(!field.contains(['\n', '\u{1b}']), "{field:?}");
        }
        assert_eq!(Values(false).entry(&entry).summary, forged);
    }

    #[test]
    fn a_value_never_spans_two_lines_on_an_escaped_stream() {
        let forged = "/zz\n\n\nPermission requests under q/:";
        assert_eq!(
            Values(true).text(forged),
            "/zz^J^J^JPermission requests under q/:"
        );
        assert_eq!(Values(false).text(forged), forged);
    }
}

//! The one rule for config-derived text on every stream. Config files,
//! paths and the store are untrusted: a scope or path holding `ESC[2J`, a
//! bidi override, a soft hyphen or a line break could repaint the `--trust`
//! listing, hide a request or forge the prompt on a terminal, and in a CI
//! log, read by a machine that obeys lines, a line break followed by
//! `::error …` or `::add-mask::` is a workflow command (issue 28 item 9).
//!
//! So the rule is the same whatever a stream is (a terminal, a pipe, a
//! file), in two layers:
//! - each config-derived value (path, key, scope, host, target, the store's
//!   path, an error quoting any of them) is escaped whole before it is
//!   formatted, by [`Values`], line breaks included, so a value never spans
//!   two lines;
//! - every byte written through [`SafeWriter`] (stdout and stderr) is
//!   escaped again except line breaks, which this tool's own text needs; a
//!   value a command forgot still cannot carry an escape sequence, a
//!   carriage return or a format character
//!   ([`crate::sanitize::clean_stream`]).
//!
//! Text without such characters is unchanged, so output stays byte for
//! byte what GocciaScript prints for every ordinary path and value.
//! Characters are classified by Unicode property in
//! [`crate::sanitize::is_unsafe`].

use std::borrow::Cow;
use std::cell::Cell;
use std::io::{self, IsTerminal, Write};

use crate::core::review::report::{ConfigReport, DiffLine, EntryStatus, Outcome, StoreEntryReport};
use crate::sanitize::{clean, clean_stream};
use crate::style::paint::{Marker, Palette, RESET, marker};

/// What stdout and stderr are, and `--quiet`.
#[derive(Debug)]
pub struct Escaping {
    /// `--quiet`: stdout is discarded until a listing must be shown.
    muted: Cell<bool>,
    stdout_is_terminal: bool,
    stderr_is_terminal: bool,
}

impl Escaping {
    pub fn new(stdout_is_terminal: bool, stderr_is_terminal: bool) -> Escaping {
        Escaping {
            muted: Cell::new(false),
            stdout_is_terminal,
            stderr_is_terminal,
        }
    }

    /// From the process's own stdout and stderr.
    pub fn detect() -> Escaping {
        Escaping::new(io::stdout().is_terminal(), io::stderr().is_terminal())
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
}

/// Escapes config-derived values, whole, for any stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Values;

impl Values {
    /// One value: escaped whole, newlines too.
    pub fn text<'a>(&self, s: &'a str) -> Cow<'a, str> {
        clean(s)
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

    /// Whether any field of `r` needs escaping: most reports do not, and
    /// are shown without a copy.
    fn report_is_plain(r: &ConfigReport) -> bool {
        let plain_pairs = |p: &[(String, String)]| p.iter().all(|(a, b)| plain(a) && plain(b));
        plain(&r.key)
            && plain(&r.display_path)
            && r.files.iter().all(|f| plain(f))
            && r.lines.iter().all(plain_line)
            && match &r.outcome {
                Outcome::Loaded(l) => plain_pairs(&l.targets),
                Outcome::Failed(e) => plain(&e.message),
            }
            && r.stored
                .as_ref()
                .is_none_or(|s| plain_pairs(&s.targets) && plain(&s.trusted_at))
    }

    /// A report as it may be shown: every config-derived field escaped.
    /// For display only; never record from it.
    pub fn report<'a>(&self, r: &'a ConfigReport) -> Cow<'a, ConfigReport> {
        if Values::report_is_plain(r) {
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
            s.trusted_at = self.text(&s.trusted_at).into_owned();
        }
        Cow::Owned(shown)
    }

    /// A store entry as it may be shown (`list`).
    pub fn entry<'a>(&self, e: &'a StoreEntryReport) -> Cow<'a, StoreEntryReport> {
        let status_plain = match &e.status {
            EntryStatus::Unreadable(err) => plain(&err.message),
            _ => true,
        };
        if status_plain
            && [
                &e.key,
                &e.display_path,
                &e.summary,
                &e.trusted_at,
                &e.trusted_by,
            ]
            .into_iter()
            .all(|s| plain(s))
            && e.lines.iter().all(plain_line)
        {
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

/// Whether `s` is shown as it is.
fn plain(s: &str) -> bool {
    matches!(clean(s), Cow::Borrowed(_))
}

fn plain_line(l: &DiffLine) -> bool {
    match l {
        DiffLine::Removed(s) | DiffLine::Unchanged(s) | DiffLine::Added(s) => plain(s),
        DiffLine::Target {
            scope,
            recorded,
            current,
        } => plain(scope) && plain(recorded) && plain(current),
    }
}

/// A stream that escapes everything written through it but line breaks
/// ([`clean_stream`]): stdout and stderr, whatever they are. It also turns
/// the style markers of [`crate::style::paint`] into its palette's SGR
/// sequences, or drops them without one. A character split between two
/// writes is held until its end arrives.
pub struct SafeWriter<'a, W: Write> {
    inner: W,
    /// Set for stdout: `--quiet` discards what is written while it holds.
    mute: Option<&'a Cell<bool>>,
    palette: Option<Palette>,
    /// A styled word has started and not ended.
    styling: bool,
    /// The first bytes of a character whose end is still to come.
    partial: Vec<u8>,
    /// Decorations drawn as ASCII (`crate::style::glyphs`).
    ascii: bool,
}

impl<'a, W: Write> SafeWriter<'a, W> {
    pub fn stdout(inner: W, escaping: &'a Escaping, palette: Option<Palette>) -> SafeWriter<'a, W> {
        SafeWriter {
            inner,
            mute: Some(&escaping.muted),
            palette,
            styling: false,
            partial: Vec::new(),
            ascii: false,
        }
    }

    /// A file named by `--output`: escaped as stdout is, never coloured,
    /// and never muted by `--quiet` (which is about stdout).
    pub fn file(inner: W) -> SafeWriter<'a, W> {
        SafeWriter {
            inner,
            mute: None,
            palette: None,
            styling: false,
            partial: Vec::new(),
            // What a file holds is read by a program, not this terminal.
            ascii: false,
        }
    }

    pub fn stderr(inner: W, palette: Option<Palette>) -> SafeWriter<'a, W> {
        SafeWriter {
            inner,
            mute: None,
            palette,
            styling: false,
            partial: Vec::new(),
            ascii: false,
        }
    }

    /// This stream with its decorations drawn as ASCII when `on`.
    pub fn ascii(mut self, on: bool) -> SafeWriter<'a, W> {
        self.ascii = on;
        self
    }

    /// `text` as written: escaped, its markers styled or dropped.
    fn render(&mut self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() + 16);
        let mut rest = text;
        while let Some((i, c, m)) = rest
            .char_indices()
            .find_map(|(i, c)| marker(c).map(|m| (i, c, m)))
        {
            out.push_str(&clean_stream(&rest[..i]));
            rest = &rest[i + c.len_utf8()..];
            let Some(palette) = &self.palette else {
                continue;
            };
            match m {
                Marker::Start(role) => {
                    if let Some(code) = palette.code(role) {
                        if self.styling {
                            out.push_str(RESET);
                        }
                        out.push_str(code);
                        self.styling = true;
                    }
                }
                Marker::End => {
                    if self.styling {
                        out.push_str(RESET);
                        self.styling = false;
                    }
                }
            }
        }
        out.push_str(&clean_stream(rest));
        out
    }
}

/// Whether every byte is printable ASCII or a line break: nothing to do.
fn plain_bytes(buf: &[u8]) -> bool {
    buf.iter().all(|b| *b == b'\n' || (0x20..0x7f).contains(b))
}

impl<W: Write> Write for SafeWriter<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.mute.is_some_and(Cell::get) {
            return Ok(buf.len());
        }
        if self.partial.is_empty() && plain_bytes(buf) {
            self.inner.write_all(buf)?;
            return Ok(buf.len());
        }
        let mut bytes = std::mem::take(&mut self.partial);
        bytes.extend_from_slice(buf);
        let text = match std::str::from_utf8(&bytes) {
            Ok(text) => Cow::Borrowed(text),
            // A character cut at the end: the rest comes with the next write.
            Err(e) if e.error_len().is_none() => {
                self.partial = bytes[e.valid_up_to()..].to_vec();
                Cow::Borrowed(std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default())
            }
            // Not UTF-8 (never this tool's text): replacement characters.
            Err(_) => String::from_utf8_lossy(&bytes),
        };
        let mut shown = self.render(&text);
        if self.ascii {
            shown = crate::style::glyphs::text(&shown);
        }
        self.inner.write_all(shown.as_bytes())?;
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
    fn every_stream_is_escaped_but_its_line_breaks() {
        let streams = Escaping::new(false, false);
        for mut w in [
            SafeWriter::stdout(Vec::new(), &streams, None),
            SafeWriter::stderr(Vec::new(), None),
        ] {
            w.write_all(HOSTILE.as_bytes()).unwrap();
            assert_eq!(
                String::from_utf8(w.inner).unwrap(),
                "  + allow-read: /x^[[2K^MTrust 0 config files? [y/N] \\u202emoc\n"
            );
        }
    }

    /// A character cut between two writes (a buffer filled up mid-way) is
    /// judged whole; plain text passes as it is.
    #[test]
    fn a_split_character_is_judged_whole() {
        let streams = Escaping::new(false, false);
        let mut w = SafeWriter::stdout(Vec::new(), &streams, None);
        let text = "é\u{2028}€\n".as_bytes();
        for b in text {
            w.write_all(std::slice::from_ref(b)).unwrap();
        }
        w.write_all(b"plain\n").unwrap();
        assert_eq!(String::from_utf8(w.inner).unwrap(), "é\\u2028€\nplain\n");
    }

    /// JSON stays valid and means the same: what the writer escapes inside
    /// a string is a JSON escape of the same character.
    #[test]
    fn json_keeps_its_values() {
        let value = "a\u{202e}b\u{85}c\u{7f}\u{e0020}\n";
        let json = serde_json::to_string(&value).unwrap();
        let streams = Escaping::new(false, false);
        let mut w = SafeWriter::stdout(Vec::new(), &streams, None);
        w.write_all(json.as_bytes()).unwrap();
        let written = String::from_utf8(w.inner).unwrap();
        assert!(written.is_ascii(), "{written}");
        assert_eq!(serde_json::from_str::<String>(&written).unwrap(), value);
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
        let shown = Values.entry(&entry);
        for field in [
            &shown.key,
            &shown.summary,
            &shown.trusted_at,
            &shown.trusted_by,
        ] {
            assert!(!field.contains(['\n', '\u{1b}']), "{field:?}");
        }
        let plain = StoreEntryReport {
            key: "/k".into(),
            summary: "allow-net".into(),
            trusted_at: "2026-01-01T00:00:00Z".into(),
            trusted_by: "goccia-trust".into(),
            ..entry
        };
        assert!(matches!(Values.entry(&plain), Cow::Borrowed(_)));
    }

    /// Markers become the palette's SGR sequences, or nothing without
    /// one; the rest of the text is escaped as ever.
    #[test]
    fn markers_are_styled_or_dropped() {
        use crate::style::paint::mark;
        use crate::style::theme::{Role, Theme};
        let text = format!("{}  a\u{1b}b\n", mark(Role::Untrusted, "never trusted"));
        let streams = Escaping::new(false, false);
        let mut plain = SafeWriter::stdout(Vec::new(), &streams, None);
        plain.write_all(text.as_bytes()).unwrap();
        assert_eq!(plain.inner, b"never trusted  a^[b\n");
        let palette = Palette::from_theme(&Theme::default());
        let mut coloured = SafeWriter::stderr(Vec::new(), palette);
        coloured.write_all(text.as_bytes()).unwrap();
        assert_eq!(
            String::from_utf8(coloured.inner).unwrap(),
            "\x1b[1;35mnever trusted\x1b[0m  a^[b\n"
        );
    }

    #[test]
    fn a_value_never_spans_two_lines() {
        let forged = "/zz\n\n\nPermission requests under q/:";
        assert_eq!(
            Values.text(forged),
            "/zz^J^J^JPermission requests under q/:"
        );
    }
}

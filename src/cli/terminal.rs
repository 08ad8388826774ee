//! Output to a terminal never carries raw control characters. Config files
//! are untrusted, and a scope or path holding `ESC[2K\r` could repaint the
//! `--trust` listing or forge its prompt. When stdout or stderr is a
//! terminal, everything written through it is escaped as the TUI escapes
//! (`^[`, `\u{202e}`), line breaks kept; this tool's own text contains no
//! other control character, so only untrusted text changes. Piped output
//! stays byte for byte what GocciaScript prints.

use std::io::{self, Write};

use crate::sanitize::clean_keep_newlines;

pub struct TerminalSafe<W: Write> {
    inner: W,
    escape: bool,
}

impl<W: Write> TerminalSafe<W> {
    pub fn new(inner: W, is_terminal: bool) -> TerminalSafe<W> {
        TerminalSafe {
            inner,
            escape: is_terminal,
        }
    }
}

impl<W: Write> Write for TerminalSafe<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.escape {
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

    #[test]
    fn escapes_only_on_a_terminal() {
        let hostile = "  + allow-read: /x\u{1b}[2K\rTrust 0 config files? [y/N] \u{202e}moc\n";
        let mut raw = TerminalSafe::new(Vec::new(), false);
        raw.write_all(hostile.as_bytes()).unwrap();
        assert_eq!(raw.inner, hostile.as_bytes());
        let mut tty = TerminalSafe::new(Vec::new(), true);
        tty.write_all(hostile.as_bytes()).unwrap();
        assert_eq!(
            String::from_utf8(tty.inner).unwrap(),
            "  + allow-read: /x^[[2K^MTrust 0 config files? [y/N] \\u{202e}moc\n"
        );
    }
}

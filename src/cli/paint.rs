//! Colour for the command line (issue 14 item 4): on a terminal, states
//! (`never trusted`, `changed`, `(missing)`, ...), `+`/`-`/`~` lines,
//! `diff`'s verdicts and policy verdicts are coloured with the theme's roles, in every command,
//! by one writer under stdout and one under stderr. Never when the stream
//! is piped unless `--color=always`; never under `NO_COLOR` unless
//! `--color=always` (read through `core::env::Env`).
//!
//! The painter sits *below* [`crate::cli::terminal::TerminalSafe`]: what
//! reaches it has already had config text escaped, so the only escape
//! sequences in the output are the ones added here. It works line by line
//! on the text the commands print; a line is painted by its shape (an
//! indented `+ `, a state label in the first column, a parenthesised state
//! at the end, a verdict word), never by what a config says it is.

use std::io::{self, Write};

use ratatui::style::{Color, Modifier, Style};

use crate::cli::args::ColorChoice;
use crate::core::env::{Env, UserDir};
use crate::tui::theme::{ColorChoice as ThemeColor, Role, Theme, load_theme};

const RESET: &str = "\x1b[0m";

/// The SGR sequence of each role used on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Palette {
    sgr: Vec<(Role, String)>,
}

impl Palette {
    /// The palette of `theme`; `None` when it styles nothing (mono keeps
    /// its bold and dim).
    pub fn from_theme(theme: &Theme) -> Option<Palette> {
        let sgr: Vec<(Role, String)> = [
            Role::Added,
            Role::Removed,
            Role::Changed,
            Role::Trusted,
            Role::Untrusted,
            Role::NoRequest,
            Role::Error,
            Role::Missing,
        ]
        .into_iter()
        .filter_map(|r| sgr(theme.style(r)).map(|s| (r, s)))
        .collect();
        (!sgr.is_empty()).then_some(Palette { sgr })
    }

    /// The palette for one stream: `--color`, `NO_COLOR`, whether the
    /// stream is a terminal, and `--theme` (the default theme when the
    /// named one cannot be loaded: the interactive review reports that).
    pub fn for_stream(
        choice: ColorChoice,
        theme: Option<&str>,
        is_terminal: bool,
        env: &Env,
    ) -> Option<Palette> {
        let on = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => is_terminal && !env.no_color,
        };
        if !on {
            return None;
        }
        let theme = load_theme(
            theme,
            ThemeColor::Always,
            env.user_dir(UserDir::Config).as_deref(),
            false,
        )
        .unwrap_or_default();
        Palette::from_theme(&theme)
    }

    fn code(&self, role: Role) -> Option<&str> {
        self.sgr
            .iter()
            .find(|(r, _)| *r == role)
            .map(|(_, s)| s.as_str())
    }

    /// One line (without its line break), painted by its shape.
    pub fn line(&self, line: &str) -> String {
        let mut spans: Vec<(usize, usize, Role)> = Vec::new();
        let indent = line.len() - line.trim_start_matches(' ').len();
        let rest = &line[indent..];
        if matches!(indent, 2 | 4 | 6) {
            let role = if rest.starts_with("+ ") {
                Some(Role::Added)
            } else if rest.starts_with("- ") {
                Some(Role::Removed)
            } else if rest.starts_with("~ ") {
                Some(Role::Changed)
            } else {
                None
            };
            if let Some(role) = role {
                return self.wrap(line, role);
            }
        }
        // The state column of `scan`.
        for (label, role) in [
            ("never trusted", Role::Untrusted),
            ("changed", Role::Changed),
            ("trusted", Role::Trusted),
            ("no request", Role::NoRequest),
            ("error", Role::Error),
        ] {
            if line.starts_with(label) && line[label.len()..].starts_with("  ") {
                spans.push((0, label.len(), role));
                break;
            }
        }
        for (label, role) in [("Error:", Role::Error), ("Warning:", Role::Changed)] {
            if line.starts_with(label) {
                spans.push((0, label.len(), role));
            }
        }
        // `diff`'s config heading, `changed a/goccia.json (widened)`: the
        // verdict that ends it (only there, so a path cannot supply one).
        if ["added ", "removed ", "changed ", "unchanged "]
            .iter()
            .any(|s| line.starts_with(s))
        {
            for (marker, role) in [
                ("(widened)", Role::Untrusted),
                ("(broken)", Role::Error),
                ("(narrowed)", Role::Trusted),
            ] {
                if line.ends_with(marker) {
                    spans.push((line.len() - marker.len(), line.len(), role));
                }
            }
        }
        // A state in parentheses, as the listings and reports end a line.
        for (marker, role) in [
            ("(never trusted)", Role::Untrusted),
            ("(new)", Role::Untrusted),
            ("(changed since trusted", Role::Changed),
            ("(changed)", Role::Changed),
            ("(missing)", Role::Missing),
            ("(unreadable: ", Role::Error),
        ] {
            if let Some(at) = line.rfind(marker) {
                let end = line[at..].find(')').map_or(line.len(), |e| at + e + 1);
                spans.push((at, end, role));
            }
        }
        // Policy verdicts, as whole words.
        for (word, role) in [
            ("ALLOWED", Role::Trusted),
            ("DENIED", Role::Error),
            ("NEEDS_AUTH", Role::Untrusted),
        ] {
            let mut from = 0;
            while let Some(at) = line[from..].find(word) {
                let start = from + at;
                let end = start + word.len();
                let bounded =
                    |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
                if bounded(line[..start].chars().next_back()) && bounded(line[end..].chars().next())
                {
                    spans.push((start, end, role));
                }
                from = end;
            }
        }
        spans.sort_by_key(|(start, end, _)| (*start, *end));
        let mut out = String::with_capacity(line.len() + 16);
        let mut at = 0;
        for (start, end, role) in spans {
            if start < at {
                continue;
            }
            out.push_str(&line[at..start]);
            out.push_str(&self.wrap(&line[start..end], role));
            at = end;
        }
        out.push_str(&line[at..]);
        out
    }

    fn wrap(&self, text: &str, role: Role) -> String {
        match self.code(role) {
            Some(code) => format!("{code}{text}{RESET}"),
            None => text.to_string(),
        }
    }
}

/// The SGR sequence of a style's foreground and modifiers (backgrounds are
/// for the interactive review's panes); `None` for a plain style.
fn sgr(style: Style) -> Option<String> {
    let mut codes: Vec<String> = Vec::new();
    let m = style.add_modifier;
    for (flag, code) in [
        (Modifier::BOLD, "1"),
        (Modifier::DIM, "2"),
        (Modifier::ITALIC, "3"),
        (Modifier::UNDERLINED, "4"),
        (Modifier::REVERSED, "7"),
        (Modifier::CROSSED_OUT, "9"),
    ] {
        if m.contains(flag) {
            codes.push(code.to_string());
        }
    }
    if let Some(fg) = style.fg {
        let c = match fg {
            Color::Reset => None,
            Color::Black => Some("30".to_string()),
            Color::Red => Some("31".into()),
            Color::Green => Some("32".into()),
            Color::Yellow => Some("33".into()),
            Color::Blue => Some("34".into()),
            Color::Magenta => Some("35".into()),
            Color::Cyan => Some("36".into()),
            Color::Gray => Some("37".into()),
            Color::DarkGray => Some("90".into()),
            Color::LightRed => Some("91".into()),
            Color::LightGreen => Some("92".into()),
            Color::LightYellow => Some("93".into()),
            Color::LightBlue => Some("94".into()),
            Color::LightMagenta => Some("95".into()),
            Color::LightCyan => Some("96".into()),
            Color::White => Some("97".into()),
            Color::Rgb(r, g, b) => Some(format!("38;2;{r};{g};{b}")),
            Color::Indexed(i) => Some(format!("38;5;{i}")),
        };
        codes.extend(c);
    }
    (!codes.is_empty()).then(|| format!("\x1b[{}m", codes.join(";")))
}

/// A stream that paints each complete line with its palette; without one,
/// bytes pass through untouched. A line not yet ended (a prompt) is written
/// as it is at the next flush.
pub struct Painter<W: Write> {
    inner: W,
    palette: Option<Palette>,
    pending: Vec<u8>,
}

impl<W: Write> Painter<W> {
    pub fn new(inner: W, palette: Option<Palette>) -> Painter<W> {
        Painter {
            inner,
            palette,
            pending: Vec::new(),
        }
    }
}

impl<W: Write> Write for Painter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let Some(palette) = &self.palette else {
            return self.inner.write(buf);
        };
        self.pending.extend_from_slice(buf);
        while let Some(nl) = self.pending.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=nl).collect();
            let text = String::from_utf8_lossy(&line[..line.len() - 1]);
            let painted = palette.line(&text);
            self.inner.write_all(painted.as_bytes())?;
            self.inner.write_all(b"\n")?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            let rest = std::mem::take(&mut self.pending);
            self.inner.write_all(&rest)?;
        }
        self.inner.flush()
    }
}

impl<W: Write> Drop for Painter<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn palette() -> Palette {
        Palette::from_theme(&Theme::default()).unwrap()
    }

    #[test]
    fn lines_are_painted_by_shape() {
        let p = palette();
        assert_eq!(
            p.line("  + allow-net: a"),
            "\x1b[32m  + allow-net: a\x1b[0m"
        );
        assert_eq!(
            p.line("  - allow-net: b"),
            "\x1b[31m  - allow-net: b\x1b[0m"
        );
        assert_eq!(
            p.line("never trusted  a/goccia.json  1 request"),
            "\x1b[1;35mnever trusted\x1b[0m  a/goccia.json  1 request"
        );
        assert_eq!(
            p.line("trusted        a/goccia.json  1 request"),
            "\x1b[32mtrusted\x1b[0m        a/goccia.json  1 request"
        );
        assert_eq!(
            p.line("  a/goccia.json (changed)"),
            "  a/goccia.json \x1b[33m(changed)\x1b[0m"
        );
        assert_eq!(
            p.line("lan/goccia.json: DENIED"),
            "lan/goccia.json: \x1b[1;91mDENIED\x1b[0m"
        );
        assert_eq!(p.line("UNDENIED x"), "UNDENIED x");
        assert_eq!(
            p.line("changed a/goccia.json (widened)"),
            "changed a/goccia.json \x1b[1;35m(widened)\x1b[0m"
        );
        assert_eq!(
            p.line("added a/goccia.json (broken)"),
            "added a/goccia.json \x1b[1;91m(broken)\x1b[0m"
        );
        assert_eq!(
            p.line("removed a/goccia.json (narrowed)"),
            "removed a/goccia.json \x1b[32m(narrowed)\x1b[0m"
        );
        // Only a heading's last word: not a path's, not a note's.
        assert_eq!(
            p.line("changed x (widened)/goccia.json (unchanged)"),
            "changed x (widened)/goccia.json (unchanged)"
        );
        assert_eq!(
            p.line("note (HEAD): link not followed: a (widened)"),
            "note (HEAD): link not followed: a (widened)"
        );
        assert_eq!(p.line("Nothing was trusted."), "Nothing was trusted.");
        // mono keeps emphasis, no colour.
        let mono = Palette::from_theme(&Theme::mono()).unwrap();
        assert_eq!(
            mono.line("never trusted  a  1 request"),
            "\x1b[1mnever trusted\x1b[0m  a  1 request"
        );
    }

    #[test]
    fn the_painter_paints_whole_lines_and_keeps_a_prompt() {
        let mut w = Painter::new(Vec::new(), Some(palette()));
        w.write_all(b"  + a").unwrap();
        w.write_all(b"\nTrust 1 config file? [y/N] ").unwrap();
        w.flush().unwrap();
        assert_eq!(
            String::from_utf8(w.inner.clone()).unwrap(),
            "\x1b[32m  + a\x1b[0m\nTrust 1 config file? [y/N] "
        );
        let mut plain = Painter::new(Vec::new(), None);
        plain.write_all(b"  + a\n").unwrap();
        assert_eq!(plain.inner, b"  + a\n");
    }
}

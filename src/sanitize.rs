//! Text from config files, paths and backend messages is untrusted: an ESC
//! could repaint the screen (or forge a `--trust` prompt) and a bidi
//! override could make `evil.com` read as `moc.live`. Everything such text
//! goes through here before it reaches a terminal, in the TUI's widgets and
//! in the CLI's output alike, so the terminal only ever receives printable
//! characters.

use std::borrow::Cow;

/// Whether `c` must never be written raw to the terminal.
pub fn is_unsafe(c: char) -> bool {
    c.is_control() || is_invisible_format(c)
}

/// Bidi controls and other zero-width format characters that reorder or
/// hide text without being visible themselves.
fn is_invisible_format(c: char) -> bool {
    matches!(c,
        '\u{200B}'..='\u{200F}'    // zero-width space/joiners, LRM, RLM
        | '\u{2028}' | '\u{2029}'  // line/paragraph separators
        | '\u{202A}'..='\u{202E}'  // LRE RLE PDF LRO RLO
        | '\u{2060}'..='\u{2064}'  // word joiner, invisible operators
        | '\u{2066}'..='\u{2069}'  // LRI RLI FSI PDI
        | '\u{061C}'               // arabic letter mark
        | '\u{FEFF}'               // BOM / zero-width no-break space
    )
}

fn push_visible(out: &mut String, c: char) {
    match c {
        // C0 controls in caret notation, as terminals and `cat -v` show them.
        '\0'..='\u{1F}' => {
            out.push('^');
            out.push((b'@' + c as u8) as char);
        }
        '\u{7F}' => out.push_str("^?"),
        _ => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
    }
}

/// A single-line field (path, key, message): every unsafe character,
/// including tab and newline, is shown as an escape.
pub fn clean(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe(c) {
            push_visible(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Text written to a terminal by the CLI: like [`clean`], but line breaks
/// stay line breaks.
pub fn clean_keep_newlines(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| c != '\n' && is_unsafe(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c != '\n' && is_unsafe(c) {
            push_visible(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Multi-line source text (inspect view): split on `\n`, expand tabs to the
/// next multiple of four columns, escape everything else (including a `\r`
/// of CRLF files, which then shows as `^M`).
pub fn clean_lines(s: &str) -> Vec<String> {
    s.split('\n')
        .map(|line| {
            let mut out = String::with_capacity(line.len());
            for c in line.chars() {
                if c == '\t' {
                    let pad = 4 - out.chars().count() % 4;
                    out.extend(std::iter::repeat_n(' ', pad));
                } else if is_unsafe(c) {
                    push_visible(&mut out, c);
                } else {
                    out.push(c);
                }
            }
            out
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_are_visible() {
        assert_eq!(clean("a\u{1b}[2Jb"), "a^[[2Jb");
        assert_eq!(clean("\0"), "^@");
        assert_eq!(clean("\u{7f}"), "^?");
        assert_eq!(clean("x\u{202e}y"), "x\\u{202e}y");
        assert_eq!(
            clean("\u{061c}\u{200e}\u{2066}"),
            "\\u{61c}\\u{200e}\\u{2066}"
        );
        assert_eq!(clean("\u{9b}"), "\\u{9b}");
        assert_eq!(clean("tab\there"), "tab^Ihere");
        assert!(matches!(clean("plain/path"), Cow::Borrowed(_)));
    }

    #[test]
    fn source_lines_expand_tabs() {
        assert_eq!(clean_lines("\tx\r\ny"), vec!["    x^M", "y"]);
    }
}

//! The ASCII fallback: where the locale has no UTF-8 (`LC_ALL=C`:
//! `core::env::locale_is_ascii`), or with
//! `--ascii` or a theme's `ascii = true`, the symbols this tool draws
//! itself (`·`, `—`, `…`, `✓`, `✗`, `▶`, box lines, the spinner) are shown
//! as ASCII. Text from configs and commits is left as it is (escaped as
//! everywhere, `sanitize`): only the decorations change.

/// `c` as one ASCII character, for a terminal cell (the interactive
/// review draws one character per cell); `None` for a character that is
/// not one of the decorations.
pub fn cell(c: char) -> Option<char> {
    Some(match c {
        '·' | '—' | '–' => '-',
        '…' => '.',
        '✓' | '✔' => '+',
        '✗' | '✘' => 'x',
        '▶' | '▸' | '→' | '»' | '›' => '>',
        '◀' | '◂' | '←' | '«' | '‹' => '<',
        '▲' | '↑' => '^',
        '▼' | '↓' => 'v',
        '↕' => '|',
        '●' | '•' | '◆' => '*',
        '○' | '◇' => 'o',
        '⚠' => '!',
        '“' | '”' => '"',
        '‘' | '’' => '\'',
        // Box drawing: lines and their junctions.
        '─' | '━' | '═' | '╌' | '┄' | '╴' | '╶' => '-',
        '│' | '┃' | '║' | '╎' | '┆' | '╵' | '╷' | '▏' | '▕' => '|',
        '\u{2500}'..='\u{257f}' => '+',
        // Block elements (scrollbars, gauges).
        '█' | '▓' | '▒' => '#',
        '░' => ':',
        '\u{2580}'..='\u{259f}' => '#',
        // The spinner's Braille dots: a turning bar.
        '\u{2800}'..='\u{28ff}' => ['|', '/', '-', '\\'][(c as usize) % 4],
        _ => return None,
    })
}

/// `text` with each decoration as ASCII, for a line of output: the few
/// that read better wider (`…` as `...`, `—` as `--`, `→` as `->`) take
/// more than one character.
pub fn text(text: &str) -> String {
    if text.is_ascii() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '…' => out.push_str("..."),
            '—' => out.push_str("--"),
            '→' => out.push_str("->"),
            '»' => out.push_str(">>"),
            c => out.push(cell(c).unwrap_or(c)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decorations_become_ascii_and_text_stays() {
        assert_eq!(text("a · b — c…"), "a - b -- c...");
        assert_eq!(text("✓ trusted  ✗ error  ▶ é"), "+ trusted  x error  > é");
        assert_eq!(cell('┌'), Some('+'));
        assert_eq!(cell('─'), Some('-'));
        assert_eq!(cell('│'), Some('|'));
        assert_eq!(cell('é'), None);
        assert!(cell('⠋').is_some_and(|c| c.is_ascii()));
    }
}

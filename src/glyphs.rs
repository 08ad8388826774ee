//! The ASCII fallback: where the locale has no UTF-8 (`LC_ALL=C`), or with
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

/// Whether a locale name (`LC_ALL`'s, else `LC_CTYPE`'s, else `LANG`'s:
/// the first that is set and not empty) has no UTF-8: `C`, `POSIX`, or a
/// name without `UTF-8`/`utf8` (`en_US.ISO-8859-1`). No locale variable at
/// all is taken as UTF-8, as terminals are today (and as on Windows).
pub fn locale_is_ascii(lc_all: &str, lc_ctype: &str, lang: &str) -> bool {
    let Some(locale) = [lc_all, lc_ctype, lang].into_iter().find(|v| !v.is_empty()) else {
        return false;
    };
    let lower = locale.to_ascii_lowercase();
    !(lower.contains("utf-8") || lower.contains("utf8"))
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

    #[test]
    fn the_locale_decides_in_posix_order() {
        assert!(locale_is_ascii("C", "", ""));
        assert!(locale_is_ascii("", "", "POSIX"));
        assert!(locale_is_ascii("", "en_US.ISO-8859-1", "en_US.UTF-8"));
        assert!(!locale_is_ascii("", "", "en_US.UTF-8"));
        assert!(!locale_is_ascii("C.utf8", "", "C"));
        assert!(!locale_is_ascii("", "", ""));
    }
}

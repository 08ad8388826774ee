//! Text from config files, paths and backend messages is untrusted: an ESC
//! could repaint the screen (or forge a `--trust` prompt) and a bidi
//! override could make `evil.com` read as `moc.live`, and a line break in a
//! CI log can start a workflow command (`::error …`). Everything such text
//! goes through here before it is shown, in the TUI's widgets and in the
//! CLI's output on every stream alike, so only printable characters and
//! this tool's own line breaks are ever written.

use std::borrow::Cow;

mod table;
mod unsafe_ranges;

/// Whether `c` must never be written raw to the terminal. The rule is by
/// Unicode property, not a list of known tricks: general categories Cc
/// (controls, `\n` included), Cf (format: bidi embeddings, soft hyphen,
/// tags), Zl, Zp, Co (private use), Cs and Cn (unassigned: their rendering
/// is unknown), every default-ignorable code point (variation selectors,
/// the combining grapheme joiner, Hangul fillers: drawn as nothing) and
/// every bidi control. The rule is answered from a table generated from
/// the Unicode data (`sanitize/table.rs` keeps it in step).
pub fn is_unsafe(c: char) -> bool {
    // Printable ASCII is the common case and has none of these properties.
    if (' '..='~').contains(&c) {
        return false;
    }
    table::contains(c)
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

/// The last rule before the CLI's output leaves the process, on every
/// stream: like [`clean`], but line breaks stay line breaks (this tool's
/// own text needs them; a value's were escaped by [`clean`] already), and
/// every unsafe character but a C0 control is written as a JSON escape
/// (`\u202e`, a surrogate pair above U+FFFF): this tool never writes one
/// raw, so one can only sit inside a JSON string, where the escape keeps
/// the document valid and means the same character. C0 controls are never
/// raw in a JSON document; in text they show in caret notation.
pub fn clean_stream(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| c != '\n' && is_unsafe(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c == '\n' || !is_unsafe(c) {
            out.push(c);
        } else if c < ' ' {
            push_visible(&mut out, c);
        } else {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
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
    use proptest::strategy::Strategy;

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

    /// The attacks of issue 8: each hides or forges text when sent raw.
    #[test]
    fn invisible_and_line_breaking_characters_are_escaped() {
        for (raw, shown) in [
            ("a\nb", "a^Jb"),
            ("da\u{ad}ta", "da\\u{ad}ta"),
            ("a\u{180e}b", "a\\u{180e}b"),
            ("a\u{34f}b", "a\\u{34f}b"),
            ("a\u{fe0f}b", "a\\u{fe0f}b"),
            ("a\u{e0020}b", "a\\u{e0020}b"),
            ("a\u{2028}b\u{2029}", "a\\u{2028}b\\u{2029}"),
            ("a\u{e000}", "a\\u{e000}"),
            ("a\u{378}", "a\\u{378}"),
            ("\u{3164}\u{115f}", "\\u{3164}\\u{115f}"),
            ("\u{1d173}", "\\u{1d173}"),
        ] {
            assert_eq!(clean(raw), shown, "{raw:?}");
        }
    }

    /// Independent of `is_unsafe`: what the rule names, asked of
    /// the Unicode data directly.
    fn named_by_the_rule(c: char) -> bool {
        use icu_properties::props::{BidiControl, DefaultIgnorableCodePoint, GeneralCategory};
        use icu_properties::{CodePointMapData, CodePointSetData};
        let gc = CodePointMapData::<GeneralCategory>::new().get(c);
        [
            GeneralCategory::Control,
            GeneralCategory::Format,
            GeneralCategory::LineSeparator,
            GeneralCategory::ParagraphSeparator,
            GeneralCategory::PrivateUse,
            GeneralCategory::Unassigned,
        ]
        .contains(&gc)
            || CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
            || CodePointSetData::new::<BidiControl>().contains(c)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// No character the rule names survives, whatever surrounds it; an
        /// escape is made of printable ASCII only.
        #[test]
        fn nothing_the_rule_names_survives(s in "(\\PC|\\pC|[\u{e0000}-\u{e01ff}\u{fe00}-\u{fe0f}\u{115f}\u{3164}\u{34f}\u{ad}]){0,40}") {
            let out = clean(&s);
            proptest::prop_assert!(!out.chars().any(named_by_the_rule), "{out:?}");
            let kept: String = s.chars().filter(|c| !named_by_the_rule(*c)).collect();
            let out_kept: String = out.chars().filter(|c| !c.is_ascii()).collect();
            let in_kept: String = kept.chars().filter(|c| !c.is_ascii()).collect();
            proptest::prop_assert_eq!(out_kept, in_kept);
        }

        /// Printable text (any script, combining marks, symbols, spaces) is
        /// unchanged, and borrowed rather than copied.
        #[test]
        fn printable_text_is_unchanged(s in "[\\p{L}\\p{M}\\p{N}\\p{P}\\p{S} ]{0,40}"
            .prop_filter("default-ignorable", |s| !s.chars().any(named_by_the_rule))) {
            let out = clean(&s);
            proptest::prop_assert!(matches!(out, Cow::Borrowed(_)));
            proptest::prop_assert_eq!(out.as_ref(), s.as_str());
        }
    }

    #[test]
    fn scripts_and_combining_marks_are_printable() {
        for s in [
            "日本語/設定",
            "ελληνικά",
            "עברית",
            "العربية",
            "हिन्दी",
            "e\u{301}te\u{301}",
            "ﾊﾝｶｸ",
            "😀",
        ] {
            assert!(matches!(clean(s), Cow::Borrowed(_)), "{s}");
        }
    }

    #[test]
    fn a_stream_keeps_its_line_breaks_and_json_meaning() {
        assert_eq!(clean_stream("a\nb"), "a\nb");
        assert_eq!(clean_stream("a\u{1b}[2J\r\t"), "a^[[2J^M^I");
        assert_eq!(
            clean_stream("\u{7f}\u{85}\u{202e}\u{e0020}"),
            "\\u007f\\u0085\\u202e\\udb40\\udc20"
        );
        assert!(matches!(clean_stream("plain é\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn source_lines_expand_tabs() {
        assert_eq!(clean_lines("\tx\r\ny"), vec!["    x^M", "y"]);
    }
}

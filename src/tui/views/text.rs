//! Text as the views build it before styling: lines of (role, text) runs.
//! Building content without a theme lets `update` measure it (for scroll
//! limits) with exactly the code the view draws with. All untrusted text is
//! escaped on the way in (`untrusted`), so nothing later can forget to.

use ratatui::text::{Line, Span};

use crate::sanitize;
use crate::style::theme::{Role, Theme};

pub type RLine = Vec<(Role, String)>;

/// A run of untrusted text, escaped.
pub fn untrusted(role: Role, s: &str) -> (Role, String) {
    (role, sanitize::clean(s).into_owned())
}

/// A run of text this program wrote (labels, counts).
pub fn ours(role: Role, s: impl Into<String>) -> (Role, String) {
    (role, s.into())
}

fn char_width(c: char) -> usize {
    let mut buf = [0u8; 4];
    Span::raw(&*c.encode_utf8(&mut buf)).width()
}

/// Wrap every line to `width` columns, keeping roles: at the last space
/// that fits (never inside a word, a host or a path without spaces), or
/// hard when a word alone is wider than the line. Continuation lines are
/// indented by two columns so a wrapped item reads as one.
pub fn wrap(lines: &[RLine], width: usize) -> Vec<RLine> {
    let width = width.max(4);
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let mut cur: Vec<(Role, char, usize)> = Vec::new();
        let mut col = 0;
        let mut continued = false;
        for (role, text) in line {
            for c in text.chars() {
                let w = char_width(c);
                if col + w > width {
                    // Break after the last space past the indent, if any.
                    let indent = if continued { 2 } else { 0 };
                    let at = cur
                        .iter()
                        .rposition(|x| x.1 == ' ')
                        .filter(|&i| i > indent && c != ' ');
                    let rest: Vec<(Role, char, usize)> = match at {
                        Some(i) => cur.split_off(i + 1),
                        None => Vec::new(),
                    };
                    out.push(runs(&cur));
                    cur = vec![(*role, ' ', 1), (*role, ' ', 1)];
                    cur.extend(rest);
                    col = cur.iter().map(|x| x.2).sum();
                    continued = true;
                    if c == ' ' {
                        continue;
                    }
                }
                cur.push((*role, c, w));
                col += w;
            }
        }
        out.push(runs(&cur));
    }
    out
}

/// Characters back into runs of one role.
fn runs(chars: &[(Role, char, usize)]) -> RLine {
    let mut line: RLine = Vec::new();
    for &(role, c, _) in chars {
        match line.last_mut() {
            Some((r, text)) if *r == role => text.push(c),
            _ => line.push((role, c.to_string())),
        }
    }
    line
}

pub fn to_line(line: &RLine, theme: &Theme) -> Line<'static> {
    Line::from(
        line.iter()
            .map(|(role, text)| Span::styled(text.clone(), theme.style(*role)))
            .collect::<Vec<_>>(),
    )
}

/// The largest useful scroll position for `len` lines in `rows` rows.
pub fn max_scroll(len: usize, rows: usize) -> usize {
    len.saturating_sub(rows.max(1))
}

//! Text as the views build it before styling: lines of (role, text) runs.
//! Building content without a theme lets `update` measure it (for scroll
//! limits) with exactly the code the view draws with. All untrusted text is
//! escaped on the way in (`untrusted`), so nothing later can forget to.

use ratatui::text::{Line, Span};

use crate::sanitize;
use crate::tui::theme::{Role, Theme};

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

/// Hard-wrap every line to `width` columns, keeping roles. Continuation
/// lines are indented by two columns so a wrapped path reads as one item.
pub fn wrap(lines: &[RLine], width: usize) -> Vec<RLine> {
    let width = width.max(4);
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let mut cur: RLine = Vec::new();
        let mut col = 0;
        for (role, text) in line {
            let mut run = String::new();
            for c in text.chars() {
                let w = char_width(c);
                if col + w > width {
                    if !run.is_empty() {
                        cur.push((*role, std::mem::take(&mut run)));
                    }
                    out.push(std::mem::take(&mut cur));
                    run.push_str("  ");
                    col = 2;
                }
                run.push(c);
                col += w;
            }
            if !run.is_empty() {
                cur.push((*role, run));
            }
        }
        out.push(cur);
    }
    out
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

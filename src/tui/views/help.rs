//! Help, rendered from the same keymap table that dispatches keys.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::style::theme::{Role, Theme};
use crate::tui::keymap::KEYMAP;
use crate::tui::layout;
use crate::tui::views::panel::{boxed, render_scrolled};
use crate::tui::views::text::{RLine, ours, wrap};

/// Display columns of `s`.
fn columns(s: &str) -> usize {
    Span::raw(s).width()
}

/// `s` broken at spaces into lines of at most `width` columns (a word
/// longer than that is cut into pieces).
fn cell(s: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let (mut lines, mut line) = (Vec::new(), String::new());
    for word in s.split(' ').filter(|w| !w.is_empty()) {
        let mut word = word.to_string();
        loop {
            let gap = usize::from(!line.is_empty());
            if columns(&line) + gap + columns(&word) <= width {
                if gap == 1 {
                    line.push(' ');
                }
                line.push_str(&word);
                break;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
                continue;
            }
            // A word wider than the column on a line of its own: its
            // first `width` columns, the rest on the next line.
            let mut head = String::new();
            let mut chars = word.chars();
            for c in chars.by_ref() {
                head.push(c);
                if columns(&head) >= width {
                    break;
                }
            }
            line = head;
            word = chars.collect();
            if word.is_empty() {
                break;
            }
            lines.push(std::mem::take(&mut line));
        }
    }
    lines.push(line);
    lines
}

/// `s` padded with spaces to `width` columns.
fn padded(s: &str, width: usize) -> String {
    format!("{s}{}", " ".repeat(width.saturating_sub(columns(s))))
}

/// The keys as a table of three columns, each cell wrapped within its
/// column so every key, description and context list starts at the same
/// x: the keys as wide as the widest label, the contexts whole when that
/// leaves the descriptions 40 columns (else two fifths of what is left),
/// the descriptions the rest.
fn table(width: usize) -> Vec<RLine> {
    let key_w = KEYMAP.iter().map(|b| columns(b.label)).max().unwrap_or(0) + 2;
    let contexts_of = |b: &crate::tui::keymap::Binding| {
        b.contexts
            .iter()
            .map(|c| c.label())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let widest_contexts = KEYMAP
        .iter()
        .map(|b| columns(&contexts_of(b)))
        .max()
        .unwrap_or(0);
    let rest = width.saturating_sub(key_w + 1);
    if rest < 50 {
        return narrow_table(key_w, width.saturating_sub(key_w), &contexts_of);
    }
    let contexts_w = if rest >= widest_contexts + 40 {
        widest_contexts
    } else {
        widest_contexts.min(rest * 2 / 5)
    };
    let description_w = rest - contexts_w;
    let mut out = Vec::new();
    for b in KEYMAP {
        let descriptions = cell(b.description, description_w);
        let contexts = cell(&contexts_of(b), contexts_w);
        for i in 0..descriptions.len().max(contexts.len()) {
            let label = if i == 0 { b.label } else { "" };
            let description = descriptions.get(i).map_or("", String::as_str);
            out.push(vec![
                ours(Role::KeyHint, padded(&format!(" {label}"), key_w)),
                ours(
                    Role::Normal,
                    format!("{} ", padded(description, description_w)),
                ),
                ours(Role::Muted, contexts.get(i).cloned().unwrap_or_default()),
            ]);
        }
    }
    out
}

/// Too narrow for three columns: each binding's contexts go on under its
/// description, in the description's column.
fn narrow_table(
    key_w: usize,
    description_w: usize,
    contexts_of: &dyn Fn(&crate::tui::keymap::Binding) -> String,
) -> Vec<RLine> {
    let mut out = Vec::new();
    for b in KEYMAP {
        let descriptions = cell(b.description, description_w);
        let contexts = cell(&contexts_of(b), description_w);
        let cells = descriptions
            .into_iter()
            .map(|d| (Role::Normal, d))
            .chain(contexts.into_iter().map(|c| (Role::Muted, c)));
        for (i, (role, text)) in cells.enumerate() {
            let label = if i == 0 { b.label } else { "" };
            out.push(vec![
                ours(Role::KeyHint, padded(&format!(" {label}"), key_w)),
                ours(role, text),
            ]);
        }
    }
    out
}

pub fn content(width: usize) -> Vec<RLine> {
    let mut out = table(width);
    out.push(vec![]);
    out.push(vec![ours(
        Role::Muted,
        " Markers: ▶ selected  ~ changed  ! never trusted  ✗ error  ✓ trusted  · no request  ● marked",
    )]);
    out.push(vec![ours(
        Role::Muted,
        " With --since BASE: + added  ▲ widened  ▼ narrowed  ✗ broken  = unchanged since BASE, then the store state's marker; t still trusts against the store",
    )]);
    out.push(vec![ours(
        Role::Muted,
        " Mouse wheel scrolls, a click selects a row. Text from config files is shown escaped (^[ for ESC).",
    )]);
    wrap(&out, width)
}

pub fn render(scroll: usize, theme: &Theme, frame: &mut Frame, body: Rect) {
    let area = layout::popup(body);
    let lines = content(area.width.saturating_sub(2) as usize);
    render_scrolled(
        &lines,
        scroll,
        boxed(Line::from(" Keys "), theme),
        theme,
        frame,
        area,
        true,
    );
}

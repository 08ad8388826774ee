//! Help, rendered from the same keymap table that dispatches keys.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::tui::keymap::KEYMAP;
use crate::tui::layout;
use crate::tui::theme::{Role, Theme};
use crate::tui::views::text::{RLine, ours, wrap};
use crate::tui::views::{boxed, render_scrolled};

pub fn content(width: usize) -> Vec<RLine> {
    let mut out: Vec<RLine> = KEYMAP
        .iter()
        .map(|b| {
            let contexts: Vec<_> = b.contexts.iter().map(|c| c.label()).collect();
            vec![
                ours(Role::KeyHint, format!(" {:<12}", b.label)),
                // A space before the contexts even after a long description.
                ours(Role::Normal, format!("{:<41} ", b.description)),
                ours(Role::Muted, contexts.join(", ")),
            ]
        })
        .collect();
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

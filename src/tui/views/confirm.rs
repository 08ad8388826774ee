//! The confirmation: exactly what will be recorded or removed. What is
//! listed here is what `y` sends to the backend, which refuses if the disk
//! no longer matches it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::core::review::report::ConfigState;
use crate::tui::msg::{Pending, Removal};
use crate::tui::state::Confirmation;
use crate::tui::theme::{Role, Theme};
use crate::tui::views::detail::lines_with_destinations;
use crate::tui::views::text::{RLine, ours, untrusted, wrap};
use crate::tui::views::{boxed, layout, render_scrolled};

fn plural(n: usize) -> &'static str {
    if n == 1 {
        "config file"
    } else {
        "config files"
    }
}

fn removals(out: &mut Vec<RLine>, items: &[Removal]) {
    for r in items {
        out.push(vec![untrusted(Role::Title, &r.display_path)]);
        out.push(vec![
            ours(Role::Muted, "  key      "),
            untrusted(Role::Normal, &r.key),
        ]);
        out.push(vec![
            ours(Role::Muted, "  trusted  "),
            untrusted(Role::Normal, &r.trusted_at),
        ]);
        for l in &r.lines {
            out.push(vec![untrusted(Role::Removed, &format!("  - {l}"))]);
        }
        out.push(vec![]);
    }
}

pub fn title(c: &Confirmation) -> String {
    let n = c.pending.len();
    if c.busy {
        return " Writing the store… ".to_string();
    }
    match &c.pending {
        Pending::Trust(_) => format!(" Trust {n} {}? ", plural(n)),
        Pending::Untrust(_) => format!(" Untrust {n} {}? ", plural(n)),
        Pending::Prune(_) => format!(
            " Prune {n} missing entr{}? ",
            if n == 1 { "y" } else { "ies" }
        ),
    }
}

pub fn content(c: &Confirmation, width: usize) -> Vec<RLine> {
    let mut out: Vec<RLine> = Vec::new();
    match &c.pending {
        Pending::Trust(reports) => {
            out.push(vec![ours(
                Role::Muted,
                "These entries will be recorded in the trust store:",
            )]);
            out.push(vec![]);
            for r in reports {
                let tag = if r.state == ConfigState::Changed {
                    "(changed)"
                } else {
                    "(new)"
                };
                out.push(vec![
                    untrusted(Role::Title, &r.display_path),
                    ours(Role::Changed, format!(" {tag}")),
                ]);
                out.push(vec![
                    ours(Role::Muted, "  key      "),
                    untrusted(Role::Normal, &r.key),
                ]);
                out.push(vec![
                    ours(Role::Muted, "  sha256   "),
                    untrusted(Role::Normal, r.sha256.as_deref().unwrap_or("?")),
                ]);
                out.extend(lines_with_destinations(&r.lines, &r.targets));
                out.push(vec![]);
            }
        }
        Pending::Untrust(items) => {
            out.push(vec![ours(
                Role::Muted,
                "These entries will be removed from the trust store:",
            )]);
            out.push(vec![]);
            removals(&mut out, items);
        }
        Pending::Prune(items) => {
            out.push(vec![ours(
                Role::Muted,
                "These entries name configs that no longer exist and will be removed:",
            )]);
            out.push(vec![]);
            removals(&mut out, items);
        }
    }
    if !c.skipped.is_empty() {
        out.push(vec![ours(Role::Muted, "Left out:")]);
        for (path, why) in &c.skipped {
            out.push(vec![
                untrusted(Role::Normal, &format!("  {path}")),
                ours(Role::Muted, format!("  ({why})")),
            ]);
        }
        out.push(vec![]);
    }
    out.push(vec![ours(
        Role::Muted,
        "y writes exactly this; if anything changed on disk since, nothing is written.",
    )]);
    wrap(&out, width)
}

pub fn render(c: &Confirmation, theme: &Theme, frame: &mut Frame, body: Rect) {
    let area = layout::popup(body);
    let lines = content(c, area.width.saturating_sub(2) as usize);
    let block = boxed(Line::from(title(c)), theme);
    render_scrolled(&lines, c.scroll, block, theme, frame, area, true);
}

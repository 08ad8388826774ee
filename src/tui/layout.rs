//! Screen geometry, shared by the views and by `update` (which needs the
//! list height for page moves and scrolling).

use ratatui::layout::{Constraint, Layout, Rect};

pub struct Screen {
    pub title: Rect,
    pub body: Rect,
    pub status: Rect,
    pub hints: Rect,
}

pub fn screen(area: Rect) -> Screen {
    let [title, body, status, hints] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    Screen {
        title,
        body,
        status,
        hints,
    }
}

/// The store-warning banner's text for each warning.
pub fn banner_text(warning: &str) -> String {
    format!("⚠ Warning: {warning}")
}

/// Rows the store-warning banner takes at `width`: each warning wrapped,
/// at most four rows in all (the rest is on stderr of `scan`, `list`).
pub fn banner_rows(warnings: &[String], width: u16) -> u16 {
    let width = usize::from(width.max(1));
    let rows: usize = warnings
        .iter()
        .map(|w| banner_text(w).chars().count().div_ceil(width))
        .sum();
    rows.min(4) as u16
}

/// List beside the detail pane when there is room, above it otherwise.
pub fn list_and_detail(body: Rect) -> (Rect, Rect) {
    let [list, detail] = if body.width >= 100 {
        Layout::horizontal([Constraint::Percentage(48), Constraint::Percentage(52)]).areas(body)
    } else {
        Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(body)
    };
    (list, detail)
}

/// A centred overlay covering most of the body.
pub fn popup(body: Rect) -> Rect {
    let w = (body.width.saturating_mul(9) / 10).max(body.width.min(50));
    let h = (body.height.saturating_mul(9) / 10).max(body.height.min(10));
    Rect {
        x: body.x + (body.width - w) / 2,
        y: body.y + (body.height - h) / 2,
        width: w,
        height: h,
    }
}

fn inner_rows(r: Rect) -> usize {
    r.height.saturating_sub(2) as usize
}

fn full(size: (u16, u16)) -> Rect {
    Rect::new(0, 0, size.0, size.1)
}

/// Rows of the list (inside its border) for a terminal of `size`.
pub fn list_rows(size: (u16, u16)) -> usize {
    inner_rows(list_and_detail(screen(full(size)).body).0)
}

/// Rows of the store list: the store view uses the same split.
pub fn store_rows(size: (u16, u16)) -> usize {
    list_rows(size)
}

/// Rows of a full-body scrolling view (inspect).
pub fn page_rows(size: (u16, u16)) -> usize {
    inner_rows(screen(full(size)).body)
}

/// Rows of a popup's text (confirmation, help).
pub fn popup_rows(size: (u16, u16)) -> usize {
    inner_rows(popup(screen(full(size)).body))
}

//! Screen geometry, shared by the views and by `update` (which needs the
//! list height for page moves and scrolling).

use ratatui::layout::{Constraint, Layout, Rect};

use crate::tui::state::{State, View};

/// The configs list's state column (`! never trusted `, or with `--since`
/// its change and the state's glyph).
pub const CONFIG_STATE_W: usize = 16;
/// The verdict column, with a policy (`NEEDS_AUTH` and a space).
pub const VERDICT_W: usize = 11;
/// The store list's status column.
pub const ENTRY_STATE_W: usize = 13;
/// The summary columns a row keeps beside its path: fewer with a verdict
/// to show, the path coming before the summary's detail.
pub const SUMMARY_MIN: usize = 14;
pub const SUMMARY_MIN_WITH_VERDICT: usize = 10;

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

/// The width the current view's list asks for: its border, the mark (2),
/// its state (and verdict) column, its widest path whole and a summary
/// beside it.
pub fn list_wants(state: &State) -> u16 {
    let columns = match state.view {
        View::Configs if state.policy.is_some() => {
            CONFIG_STATE_W + VERDICT_W + state.rows.path_width + SUMMARY_MIN_WITH_VERDICT
        }
        View::Configs => CONFIG_STATE_W + state.rows.path_width + SUMMARY_MIN,
        View::Store => ENTRY_STATE_W + state.store.path_width + SUMMARY_MIN,
    };
    u16::try_from(2 + 2 + columns + 2).unwrap_or(u16::MAX)
}

/// The list and detail pane of `state`'s view in `body`.
pub fn panes(state: &State, body: Rect) -> (Rect, Rect) {
    list_and_detail(body, list_wants(state))
}

/// List beside the detail pane when there is room, above it otherwise.
/// Beside it, the list takes 48% of the width, or what it `wants` (its
/// widest path whole) up to 60%: the detail pane keeps 40%.
pub fn list_and_detail(body: Rect, wants: u16) -> (Rect, Rect) {
    let [list, detail] = if body.width >= 100 {
        // Rounded, as the 48% constraint this replaced was.
        let least = (u32::from(body.width) * 48 + 50) / 100;
        let least = u16::try_from(least).unwrap_or(u16::MAX);
        let most = u16::try_from(u32::from(body.width) * 60 / 100).unwrap_or(u16::MAX);
        let list = wants.clamp(least, most);
        Layout::horizontal([Constraint::Length(list), Constraint::Min(0)]).areas(body)
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
    // The split moves only across: the list's rows are the same whatever
    // it wants.
    inner_rows(list_and_detail(screen(full(size)).body, 0).0)
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

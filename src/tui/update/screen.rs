//! What every handler shares of the screen: its size (the banner above
//! takes rows from the views), the status line, scrolling and the cursor.

use crate::tui::keymap::Action;
use crate::tui::layout;
use crate::tui::msg::Effect;
use crate::tui::state::{Cursor, State, Status};

/// `Msg::Resize`: the views get the terminal minus the banner's rows; the
/// cursors stay on their rows within the new height.
pub(super) fn on_resize(state: &mut State, w: u16, h: u16) -> Vec<Effect> {
    state.size = (
        w,
        h.saturating_sub(layout::banner_rows(&state.store_warnings, w)),
    );
    let rows = layout::list_rows(state.size);
    let len = state.visible.len();
    state.cursor.select(state.cursor.selected, len, rows);
    let len = state.store.entries.len();
    state
        .store
        .cursor
        .select(state.store.cursor.selected, len, rows);
    vec![]
}

/// `Msg::StoreWarnings`: the banner changes height, so the views below it
/// are resized.
pub(super) fn on_store_warnings(state: &mut State, warnings: Vec<String>) -> Vec<Effect> {
    // `size` is what the views below the banner get: the terminal
    // minus the banner's rows.
    let old = layout::banner_rows(&state.store_warnings, state.size.0);
    let height = state.size.1.saturating_add(old);
    state.store_warnings = warnings;
    on_resize(state, state.size.0, height)
}

pub(super) fn full(size: (u16, u16)) -> ratatui::layout::Rect {
    ratatui::layout::Rect::new(0, 0, size.0, size.1)
}

/// Move a scroll position; `max` is the last useful position.
pub(super) fn scroll(pos: &mut usize, action: Action, max: usize, page: usize) {
    *pos = match action {
        Action::Down => *pos + 1,
        Action::Up => pos.saturating_sub(1),
        Action::Top => 0,
        Action::Bottom => max,
        Action::PageDown => *pos + page.max(1),
        Action::PageUp => pos.saturating_sub(page.max(1)),
        _ => *pos,
    }
    .min(max);
}

/// Move a list cursor. Returns whether `action` was a move.
pub(super) fn move_cursor(cursor: &mut Cursor, action: Action, len: usize, rows: usize) -> bool {
    let to = match action {
        Action::Down => cursor.selected + 1,
        Action::Up => cursor.selected.saturating_sub(1),
        Action::Top => 0,
        Action::Bottom => len.saturating_sub(1),
        Action::PageDown => cursor.selected + rows.max(1),
        Action::PageUp => cursor.selected.saturating_sub(rows.max(1)),
        _ => return false,
    };
    cursor.select(to, len, rows);
    true
}

pub(super) fn set_status(state: &mut State, text: String, is_error: bool) {
    state.status = Some(Status { text, is_error });
}

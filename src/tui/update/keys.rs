//! Keys and the mouse: each key resolves to an action in the current
//! context (the list, the filter, a popup), and the action is applied.

use crossterm::event::{KeyEvent, KeyEventKind, KeyModifiers, MouseEvent, MouseEventKind};

use crate::tui::keymap::{self, Action, Context};
use crate::tui::layout;
use crate::tui::msg::Effect;
use crate::tui::state::{Mode, State, View};
use crate::tui::update::confirm::act_on_confirm;
use crate::tui::update::list::act_on_list;
use crate::tui::update::rows::refilter;
use crate::tui::update::screen::{full, scroll};

pub(super) fn on_key(state: &mut State, ev: KeyEvent) -> Vec<Effect> {
    if ev.kind == KeyEventKind::Release {
        return vec![];
    }
    let ctx = state.context();
    match keymap::resolve(ctx, &ev) {
        Some(action) => act(state, action),
        None => {
            if ctx == Context::Filter
                && let crossterm::event::KeyCode::Char(c) = ev.code
                && !ev
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
            {
                state.query.push(c);
                refilter(state);
            }
            vec![]
        }
    }
}

/// `Msg::Mouse`: the wheel moves three rows, a left click selects a row.
pub(super) fn on_mouse(state: &mut State, ev: MouseEvent) -> Vec<Effect> {
    let action = match ev.kind {
        MouseEventKind::ScrollDown => Action::Down,
        MouseEventKind::ScrollUp => Action::Up,
        MouseEventKind::Down(crossterm::event::MouseButton::Left) => {
            click(state, ev.column, ev.row);
            return vec![];
        }
        _ => return vec![],
    };
    let mut effects = Vec::new();
    for _ in 0..3 {
        effects.extend(act(state, action));
    }
    effects
}

/// Applies `action` where the keys go now. `q` (where it means quit) ends
/// the review: the loop saves where it stopped and leaves.
pub(super) fn act(state: &mut State, action: Action) -> Vec<Effect> {
    if action == Action::Quit {
        state.quit = true;
        return vec![Effect::Quit];
    }
    match state.context() {
        Context::Configs | Context::Store => return act_on_list(state, action),
        Context::Filter => act_on_filter(state, action),
        Context::Inspect => act_on_inspect(state, action),
        Context::Help => act_on_help(state, action),
        Context::Confirm => return act_on_confirm(state, action),
    }
    vec![]
}

/// The filter being typed: accept it, clear it, or take a character back.
fn act_on_filter(state: &mut State, action: Action) {
    match action {
        Action::FilterAccept => state.mode = Mode::Normal,
        Action::ClearFilter => {
            state.query.clear();
            state.mode = Mode::Normal;
            refilter(state);
        }
        Action::FilterBackspace => {
            state.query.pop();
            refilter(state);
        }
        _ => {}
    }
}

/// The inspect view: close it, open help over it, or scroll it.
fn act_on_inspect(state: &mut State, action: Action) {
    let rows = layout::page_rows(state.size);
    let max = state.scroll_limits.inspect;
    if let Mode::Inspect(iv) = &mut state.mode {
        match action {
            Action::Close => state.mode = Mode::Normal,
            Action::Help => state.mode = Mode::Help { scroll: 0 },
            _ => scroll(&mut iv.scroll, action, max, rows),
        }
    }
}

/// The help popup: close it or scroll it.
fn act_on_help(state: &mut State, action: Action) {
    let rows = layout::popup_rows(state.size);
    let max = state.scroll_limits.help;
    if let Mode::Help { scroll: pos } = &mut state.mode {
        match action {
            Action::Close => state.mode = Mode::Normal,
            _ => scroll(pos, action, max, rows),
        }
    }
}

/// A left click on a list row selects it.
pub(super) fn click(state: &mut State, column: u16, row: u16) {
    if state.mode != Mode::Normal {
        return;
    }
    let banner = layout::banner_rows(&state.store_warnings, state.size.0);
    let Some(row) = row.checked_sub(banner) else {
        return;
    };
    let (list, _) = layout::panes(state, layout::screen(full(state.size)).body);
    let inside = column > list.x
        && column < list.x + list.width.saturating_sub(1)
        && row > list.y
        && row < list.y + list.height.saturating_sub(1);
    if !inside {
        return;
    }
    let rows = layout::list_rows(state.size);
    let line = usize::from(row - list.y - 1);
    let cursor = match state.view {
        View::Configs => &mut state.cursor,
        View::Store => &mut state.store.cursor,
    };
    let len = match state.view {
        View::Configs => state.visible.len(),
        View::Store => state.store.entries.len(),
    };
    let first = crate::tui::state::visible_offset(cursor.selected, cursor.offset, rows);
    let to = first + line;
    if to < len {
        cursor.offset = first;
        cursor.select(to, len, rows);
        state.detail_scroll = 0;
        state.scan.anchor = None;
    }
}

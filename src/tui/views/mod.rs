//! `view` draws the state; it never changes it. Every string that came from
//! a config file, a path or the backend is escaped through `text::untrusted`
//! (or `sanitize::clean`) before it becomes a span.

pub mod confirm;
pub mod detail;
pub mod help;
pub mod inspect;
pub mod lists;
pub mod panel;
pub mod provenance;
pub mod reviews;
pub mod text;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use crate::sanitize::clean;
use crate::style::theme::{Role, Theme};
use crate::tui::keymap;
use crate::tui::layout;
use crate::tui::state::{Mode, ScrollLimits, State, View};

const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// Every drawn cell with its decoration as ASCII (`crate::style::glyphs::cell`):
/// box lines, markers, the spinner. A cell of config text that is not a
/// decoration is left as it is.
pub fn to_ascii(buf: &mut ratatui::buffer::Buffer) {
    for cell in buf.content.iter_mut() {
        let mut chars = cell.symbol().chars();
        if let (Some(c), None) = (chars.next(), chars.next())
            && let Some(a) = crate::style::glyphs::cell(c)
        {
            cell.set_char(a);
        }
    }
}

pub fn view(state: &State, theme: &Theme, frame: &mut Frame) {
    let area = frame.area();
    frame.render_widget(Block::new().style(theme.style(Role::Normal)), area);
    let banner = layout::banner_rows(&state.store_warnings, area.width).min(area.height);
    let [banner_area, area] =
        Layout::vertical([Constraint::Length(banner), Constraint::Min(0)]).areas(area);
    render_banner(state, theme, frame, banner_area);
    let s = layout::screen(area);
    render_title(state, theme, frame, s.title);
    match (&state.mode, state.view) {
        (Mode::Inspect(iv), _) => inspect::render(iv, theme, frame, s.body),
        (_, View::Configs) => lists::render_configs(state, theme, frame, s.body),
        (_, View::Store) => lists::render_store(state, theme, frame, s.body),
    }
    match &state.mode {
        Mode::Confirm(c) => confirm::render(c, theme, frame, s.body),
        Mode::Help { scroll } => help::render(*scroll, theme, frame, s.body),
        _ => {}
    }
    render_status(state, theme, frame, s.status);
    render_hints(state, theme, frame, s.hints);
}

/// Measures how far each scrollable pane can scroll at the state's size,
/// from the lines this module would draw, and pulls every scroll position
/// back within it (after a resize, a rescan or a new selection). `update`
/// scrolls within these limits, so it needs no knowledge of drawing;
/// `tui::step` runs this after every update.
pub fn measure(state: &mut State) {
    let full = Rect::new(0, 0, state.size.0, state.size.1);
    let body = layout::screen(full).body;
    let (_, detail) = layout::panes(state, body);
    let detail_width = detail.width.saturating_sub(2) as usize;
    let detail_len = match state.view {
        View::Configs => match state.selected_other() {
            Some(o) => Some(detail::other_pane(state, o, detail_width).len()),
            None => state
                .selected_config()
                .map(|r| detail::config_pane(state, r, detail_width).len()),
        },
        View::Store => state
            .selected_entry()
            .map(|e| detail::entry_pane(state, e, detail_width).len()),
    };
    let popup_width = layout::popup(body).width.saturating_sub(2) as usize;
    let popup_rows = layout::popup_rows(state.size);
    let mut limits = ScrollLimits {
        detail: text::max_scroll(
            detail_len.unwrap_or(0),
            detail.height.saturating_sub(2) as usize,
        ),
        ..ScrollLimits::default()
    };
    state.detail_scroll = state.detail_scroll.min(limits.detail);
    match &mut state.mode {
        Mode::Inspect(iv) => {
            let width = state.size.0.saturating_sub(2) as usize;
            let len = inspect::content(iv, width).len();
            limits.inspect = text::max_scroll(len, layout::page_rows(state.size));
            iv.scroll = iv.scroll.min(limits.inspect);
        }
        Mode::Help { scroll } => {
            limits.help = text::max_scroll(help::content(popup_width).len(), popup_rows);
            *scroll = (*scroll).min(limits.help);
        }
        Mode::Confirm(c) => {
            limits.confirm = text::max_scroll(confirm::content(c, popup_width).len(), popup_rows);
            c.scroll = c.scroll.min(limits.confirm);
        }
        _ => {}
    }
    state.scroll_limits = limits;
}

/// Why the store cannot be relied on, above everything else, on every run:
/// every `trusted` below is only as good as the store.
fn render_banner(state: &State, theme: &Theme, frame: &mut Frame, area: Rect) {
    if area.height == 0 {
        return;
    }
    let lines: Vec<Line> = state
        .store_warnings
        .iter()
        .map(|w| Line::from(clean(&layout::banner_text(w)).into_owned()))
        .collect();
    frame.render_widget(
        Paragraph::new(lines)
            .style(theme.style(Role::Error))
            .wrap(ratatui::widgets::Wrap { trim: false }),
        area,
    );
}

fn render_title(state: &State, theme: &Theme, frame: &mut Frame, area: Rect) {
    let tab = |label: String, active: bool| {
        let role = if active { Role::Selection } else { Role::Muted };
        Span::styled(format!(" {label} "), theme.style(role))
    };
    let line = Line::from(vec![
        Span::styled(" goccia-trust ", theme.style(Role::Title)),
        // Every row the list can show (missing and shadowed ones too), as
        // the list's own title counts them.
        tab(
            format!("Configs {}", state.configs.len() + state.others.len()),
            state.view == View::Configs,
        ),
        Span::raw(" "),
        tab(
            format!("Store {}", state.store.entries.len()),
            state.view == View::Store,
        ),
        Span::styled(
            format!(" viewed {}/{}", state.viewed_count(), state.configs.len()),
            theme.style(Role::Muted),
        ),
        Span::styled(
            format!("  {}", clean(&state.root)),
            theme.style(Role::Muted),
        ),
    ]);
    // What each config is compared with: BASE (user input, escaped), or the
    // trust store by default (said by the Store tab).
    let line = match &state.since {
        Some(since) => {
            // A long revision is cut (`…`) so the tabs stay on the line.
            let rev = clean(&since.rev);
            let rev: String = if rev.chars().count() > 32 {
                rev.chars().take(31).chain(['…']).collect()
            } else {
                rev.into_owned()
            };
            let mut spans = line.spans;
            spans.insert(
                1,
                Span::styled(format!("since {rev} "), theme.style(Role::Changed)),
            );
            Line::from(spans)
        }
        None => line,
    };
    frame.render_widget(line, area);
}

fn render_status(state: &State, theme: &Theme, frame: &mut Frame, area: Rect) {
    let base = theme.style(Role::Status);
    let mut spans = Vec::new();
    // Standing notes about the walk come last: the answer to what the
    // reviewer just did must not be pushed off a narrow line by them.
    let mut walk_notes = Vec::new();
    // What is being typed comes first: it must not scroll off.
    if state.mode == Mode::Filter {
        spans.push(Span::styled(
            format!(" /{}▏", clean(&state.query)),
            theme.style(Role::KeyHint),
        ));
    }
    // Then a filter restored from a saved session, or one hiding rows
    // that need review, is said before anything else (issue 30), so a
    // narrow line cannot push it off.
    if let Some(note) = filter_note(state) {
        spans.push(Span::styled(note, theme.style(Role::Changed)));
    }
    if state.scan.running {
        spans.push(Span::raw(format!(
            " {} scanning  {} dirs · {} configs ",
            SPINNER[state.spinner % SPINNER.len()],
            state.scan.dirs,
            state.scan.configs
        )));
    } else {
        let errors = state.rows.errors;
        spans.push(Span::raw(format!(
            " {} · {} need{} review · {} ",
            plural(state.configs.len(), "config"),
            state.needs_review_count(),
            if state.needs_review_count() == 1 {
                "s"
            } else {
                ""
            },
            plural(errors, "error"),
        )));
        walk_notes = walk_spans(state, theme);
    }
    let marked = match state.view {
        View::Configs => state.marked.len(),
        View::Store => state.store.marked.len(),
    };
    if marked > 0 {
        spans.push(Span::styled(
            format!(" {marked} marked "),
            theme.style(Role::Marked),
        ));
    }
    if let Some(e) = &state.store.error {
        spans.push(Span::styled(
            format!(" store: {} ", clean(e)),
            theme.style(Role::Error),
        ));
    }
    if let Some(st) = &state.status {
        let role = if st.is_error {
            Role::Error
        } else {
            Role::Normal
        };
        spans.push(Span::styled(
            format!(" {} ", clean(&st.text)),
            theme.style(role),
        ));
    }
    spans.extend(walk_notes);
    frame.render_widget(Line::from(spans).style(base), area);
}

/// `filter: state changed (saved) · esc clears · 1 hidden needs review`:
/// the filters, when a saved session restored them or they hide a row that
/// needs review; `None` otherwise (the list's title names any filter).
pub fn filter_note(state: &State) -> Option<String> {
    let hidden = state.rows.hidden_needs_review;
    if !state.filtered() || (!state.filter_saved && hidden == 0) {
        return None;
    }
    let mut note = format!(" filter: {}", clean(&state.filter_words()));
    if state.filter_saved {
        note.push_str(" (saved)");
    }
    note.push_str(" · esc clears");
    if hidden > 0 {
        let verb = if hidden == 1 { "needs" } else { "need" };
        note.push_str(&format!(" · {hidden} hidden {verb} review"));
    }
    note.push(' ');
    Some(note)
}

/// What the walk could not read (a config may hide there) and the links out
/// of the tree it did not follow: the line itself when there is one, else a
/// count and where to see them all.
fn walk_spans(state: &State, theme: &Theme) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    let summary = |lines: &[String], what: &str| match lines {
        [] => None,
        [one] => Some(format!(" {} ", clean(one))),
        many => Some(format!(
            " {} {what} (goccia-trust scan lists them) ",
            many.len()
        )),
    };
    if let Some(text) = summary(&state.scan.unreadable, "paths unreadable") {
        spans.push(Span::styled(text, theme.style(Role::Error)));
    }
    if let Some(text) = summary(
        &state.scan.not_followed,
        "links out of the tree not followed",
    ) {
        spans.push(Span::styled(text, theme.style(Role::Changed)));
    }
    // Store entries whose config is gone need pruning, not review; the
    // notes are short so both fit after the counts at 80 columns
    // (`goccia-trust scan` lists every one).
    if !state.scan.missing.is_empty() {
        spans.push(Span::styled(
            format!(" {} missing: p in Store prunes ", state.scan.missing.len()),
            theme.style(Role::Missing),
        ));
    }
    if !state.scan.shadowed.is_empty() {
        spans.push(Span::styled(
            format!(" {} shadowed ", state.scan.shadowed.len()),
            theme.style(Role::Shadowed),
        ));
    }
    spans
}

/// `1 config`, `2 configs`.
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The hints that fit in `width` columns: the least important dropped
/// first, whole, never cut mid-word: the last in table order of the lowest
/// tier, where `enter` and `tab` (the first keys README teaches) go last,
/// then `t` (trust), then `space` (mark); help, quit, close, confirm and
/// cancel always stay.
pub fn fitted_hints(ctx: keymap::Context, width: usize) -> Vec<&'static keymap::Binding> {
    use keymap::Action::*;
    let mut hints: Vec<&keymap::Binding> = keymap::hints(ctx).collect();
    let cost = |b: &keymap::Binding| {
        Span::raw(format!(" {} {} ", b.label, b.hint.unwrap_or_default())).width()
    };
    let essential =
        |b: &keymap::Binding| matches!(b.action, Help | Quit | Close | Confirm | Cancel);
    let tier = |b: &keymap::Binding| match b.action {
        Inspect | SwitchView => 3,
        Trust => 2,
        ToggleMark => 1,
        _ => 0,
    };
    while hints.iter().map(|b| cost(b)).sum::<usize>() > width {
        let drop = (0..=3).find_map(|t| hints.iter().rposition(|b| !essential(b) && tier(b) == t));
        match drop {
            Some(i) => {
                hints.remove(i);
            }
            None => break,
        }
    }
    hints
}

fn render_hints(state: &State, theme: &Theme, frame: &mut Frame, area: Rect) {
    let mut spans = Vec::new();
    for b in fitted_hints(state.context(), area.width as usize) {
        spans.push(Span::styled(
            format!(" {}", b.label),
            theme.style(Role::KeyHint),
        ));
        spans.push(Span::styled(
            format!(" {} ", b.hint.unwrap_or_default()),
            theme.style(Role::Muted),
        ));
    }
    frame.render_widget(Line::from(spans), area);
}

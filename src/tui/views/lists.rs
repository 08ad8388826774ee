//! The configs and store lists with their detail panes. Only the rows in
//! the window are built, so a 10,000-row list costs what a 30-row one does.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::core::review::report::{ConfigReport, ConfigState};
use crate::sanitize::clean;
use crate::style::roles::{review_mark_role, state_role, verdict_role};
use crate::style::theme::{Role, Theme};
use crate::tui::layout;
use crate::tui::state::{Cursor, OtherRow, OtherState, Row, State, visible_offset};
use crate::tui::views::detail::{self, entry_marker, state_marker};
use crate::tui::views::panel::{boxed, render_scrolled};

/// Rows `[first, last)` of a list of `len` drawn in `rows` rows.
fn window(cursor: &Cursor, len: usize, rows: usize) -> (usize, usize) {
    let first = visible_offset(cursor.selected, cursor.offset, rows).min(len);
    (first, (first + rows).min(len))
}

/// One list row; on the selected row the selection style wins over roles.
fn row<'a>(spans: Vec<Span<'a>>, selected: bool, theme: &Theme) -> Line<'a> {
    if !selected {
        return Line::from(spans);
    }
    let sel = theme.style(Role::Selection);
    Line::from(
        spans
            .into_iter()
            .map(|s| {
                let style = s.style.patch(sel);
                s.style(style)
            })
            .collect::<Vec<_>>(),
    )
    .style(sel)
}

/// The first column: `▶` on the selected row, so the selection shows
/// without colour (NO_COLOR, mono, a screen reader's text), `●` on a marked
/// row, both when the selected row is marked.
fn mark(marked: bool, selected: bool, theme: &Theme) -> Span<'static> {
    match (selected, marked) {
        (true, true) => Span::styled("▶●", theme.style(Role::Marked)),
        (true, false) => Span::raw("▶ "),
        (false, true) => Span::styled("● ", theme.style(Role::Marked)),
        (false, false) => Span::raw("  "),
    }
}

/// `s` cut to `w` columns, ending in `…` when anything was cut.
fn fit(s: &str, w: usize) -> String {
    if Span::raw(s).width() <= w {
        return s.to_string();
    }
    let mut out = String::new();
    let mut col = 0;
    for c in s.chars() {
        let cw = Span::raw(c.to_string()).width();
        if col + cw + 1 > w {
            break;
        }
        out.push(c);
        col += cw;
    }
    if w > 0 {
        out.push('…');
    }
    out
}

/// `s` padded with spaces to `w` columns, or cut with `…` when wider.
fn pad(s: &str, w: usize) -> String {
    let s = &fit(s, w);
    let have = Span::raw(s.as_str()).width();
    format!("{s}{}", " ".repeat(w.saturating_sub(have)))
}

/// The width of the path column: the widest path of the list (`widest`,
/// kept in state as the rows change), so the summaries line up and stay
/// put as the list scrolls, but leaving the mark (2), the state column (and
/// the verdict column, within `state_w`) and `summary_min` columns of
/// summary on narrow screens.
fn path_column(widest: usize, width: u16, state_w: usize, summary_min: usize) -> usize {
    let cap = (width as usize)
        .saturating_sub(2 + state_w + summary_min)
        .max(8);
    widest.min(cap)
}

fn draw_rows(lines: Vec<Line<'_>>, frame: &mut Frame, inner: Rect) {
    for (i, line) in lines.into_iter().enumerate() {
        let r = Rect {
            y: inner.y + i as u16,
            height: 1,
            ..inner
        };
        // A Line widget fills its whole row with its style, so the selection
        // bar spans the list's width.
        frame.render_widget(line, r);
    }
}

pub fn render_configs(state: &State, theme: &Theme, frame: &mut Frame, body: Rect) {
    let (list_area, detail_area) = layout::panes(state, body);
    let block = boxed(Line::from(configs_title(state)), theme);
    let inner = block.inner(list_area);
    frame.render_widget(block, list_area);

    let rows = inner.height as usize;
    let (first, last) = window(&state.cursor, state.visible.len(), rows);
    let cols = Columns::of(state, inner.width);
    let lines: Vec<Line> = state.visible[first..last]
        .iter()
        .enumerate()
        .map(|(i, &idx)| {
            let selected = first + i == state.cursor.selected;
            match state.row(idx) {
                Some(Row::Config(r)) => config_row(state, r, selected, theme, &cols),
                Some(Row::Other(o)) => other_row(
                    state,
                    o,
                    selected,
                    theme,
                    cols.path,
                    cols.summary,
                    cols.verdict,
                ),
                None => Line::default(),
            }
        })
        .collect();
    if lines.is_empty() && inner.height > 0 {
        let msg = if state.scan.running {
            "scanning…"
        } else if state.configs.is_empty() {
            "no config files found"
        } else {
            "nothing matches the filter (esc clears)"
        };
        frame.render_widget(Paragraph::new(msg).style(theme.style(Role::Muted)), inner);
    }
    draw_rows(lines, frame, inner);
    render_config_detail(state, theme, frame, detail_area);
}

/// The Configs list's title: how many rows of how many, the selected
/// row's number, and each filter in force.
fn configs_title(state: &State) -> String {
    let mut title = format!(
        " Configs {}/{} ",
        state.visible.len(),
        state.configs.len() + state.others.len()
    );
    if !state.visible.is_empty() {
        title.push_str(&format!(
            "· row {} of {} ",
            state.cursor.selected.min(state.visible.len() - 1) + 1,
            state.visible.len()
        ));
    }
    if let Some(f) = state.state_filter_label() {
        title.push_str(&format!("· state: {f} "));
    }
    if state.unviewed_only {
        title.push_str("· not viewed ");
    }
    if !state.query.is_empty() {
        title.push_str(&format!("· path: {} ", clean(&state.query)));
    }
    title
}

/// The widths of the Configs list's columns after the mark and the state:
/// the policy's verdict (0 without a policy), the path, the summary.
struct Columns {
    verdict: usize,
    path: usize,
    summary: usize,
}

impl Columns {
    fn of(state: &State, width: u16) -> Columns {
        // With a policy, its verdict on each config: `NEEDS_AUTH` and a space.
        let verdict = if state.policy.is_some() {
            layout::VERDICT_W
        } else {
            0
        };
        let path = path_column(
            state.rows.path_width,
            width,
            layout::CONFIG_STATE_W + verdict,
            if verdict > 0 {
                layout::SUMMARY_MIN_WITH_VERDICT
            } else {
                layout::SUMMARY_MIN
            },
        );
        let summary =
            (width as usize).saturating_sub(2 + layout::CONFIG_STATE_W + verdict + path + 2);
        Columns {
            verdict,
            path,
            summary,
        }
    }
}

/// One config's row: its mark, its state (with `--since`, what changed
/// since BASE and the store's state as a glyph), the policy's verdict,
/// its path and its summary.
fn config_row<'a>(
    state: &State,
    r: &ConfigReport,
    selected: bool,
    theme: &Theme,
    cols: &Columns,
) -> Line<'a> {
    let mut spans = vec![mark(state.marked.contains(&r.key), selected, theme)];
    match state.since_of(r) {
        // With `--since`: what changed since BASE, then the store's
        // state as its glyph (what `t` records against).
        Some(of) => {
            let (text, role) = crate::tui::since::marker(of);
            spans.push(Span::styled(format!("{text:<13}"), theme.style(role)));
            let glyph = state_marker(r.state).split(' ').next().unwrap_or("");
            spans.push(Span::styled(
                format!("{glyph:<3}"),
                theme.style(state_role(r.state)),
            ));
        }
        None => spans.push(Span::styled(
            format!("{:<16}", state_marker(r.state)),
            theme.style(state_role(r.state)),
        )),
    }
    let verdict_w = cols.verdict;
    if verdict_w > 0 {
        // `-`: not judged (asks for nothing, or does not load).
        let (text, role) = match state.decision(r) {
            Some(d) => (d.verdict.as_str(), verdict_role(d.verdict)),
            None => ("-", Role::Muted),
        };
        spans.push(Span::styled(
            format!("{text:<verdict_w$}"),
            theme.style(role),
        ));
    }
    let summary = if state.is_viewed(r) {
        format!("viewed · {}", clean(&state.summary_of(r)))
    } else {
        clean(&state.summary_of(r)).into_owned()
    };
    let summary_role = if r.state == ConfigState::Error {
        Role::Error
    } else {
        Role::Muted
    };
    spans.push(Span::styled(
        pad(&clean(row_path(state, &r.display_path)), cols.path),
        Style::default(),
    ));
    spans.extend(summary_spans(
        state,
        r,
        summary,
        summary_role,
        cols.summary,
        theme,
    ));
    row(spans, selected, theme)
}

/// The summary column: the summary in `role`, then what the config's
/// signed reviews say (` · reviewed 2`, ` · review outdated`, ` · bad
/// review`), each in its own style, the whole cut to `width`.
fn summary_spans<'a>(
    state: &State,
    r: &ConfigReport,
    summary: String,
    role: Role,
    width: usize,
    theme: &Theme,
) -> Vec<Span<'a>> {
    let marks = state.reviews_of(r).map(|rv| rv.marks()).unwrap_or_default();
    let mut parts: Vec<(String, Role)> = vec![(format!("  {summary}"), role)];
    for m in marks {
        parts.push((format!(" · {}", m.text()), review_mark_role(m)));
    }
    let whole: String = parts.iter().map(|(t, _)| t.as_str()).collect();
    let fitted = format!("  {}", fit(&whole[2..], width));
    // Each part keeps its style over the characters of it that fit.
    let mut rest = fitted.chars();
    let mut out = Vec::new();
    for (text, role) in parts {
        let piece: String = rest.by_ref().take(text.chars().count()).collect();
        if !piece.is_empty() {
            out.push(Span::styled(piece, theme.style(role)));
        }
    }
    let tail: String = rest.collect();
    if let Some(last) = out.last_mut()
        && !tail.is_empty()
    {
        last.content.to_mut().push_str(&tail);
    }
    out
}

/// The detail pane beside the Configs list: the selected config's, or the
/// selected missing or shadowed file's.
fn render_config_detail(state: &State, theme: &Theme, frame: &mut Frame, area: Rect) {
    let width = area.width.saturating_sub(2) as usize;
    let other = state
        .selected_other()
        .map(|o| detail::other_pane(state, o, width));
    let content = state
        .selected_config()
        .filter(|_| other.is_none())
        .map(|r| detail::config_pane(state, r, width))
        .or(other)
        .unwrap_or_default();
    render_scrolled(
        &content,
        state.detail_scroll,
        boxed(Line::from(" Detail "), theme),
        theme,
        frame,
        area,
        false,
    );
}

/// A missing or shadowed row: its state in the state column (blank
/// verdict), its path, and what it is in the summary column.
fn other_row<'a>(
    state: &State,
    o: &OtherRow,
    selected: bool,
    theme: &Theme,
    path_w: usize,
    summary_w: usize,
    verdict_w: usize,
) -> Line<'a> {
    let (marker, role) = detail::other_marker(o.state);
    // Short: the state column says what it is; the file read instead
    // sits in the same directory, so its name says which.
    let summary = match o.state {
        OtherState::Missing => "gone · u removes the entry".to_string(),
        OtherState::Shadowed => {
            let by = o.file.by.as_deref().unwrap_or("");
            format!("by {}", clean(by.rsplit('/').next().unwrap_or(by)))
        }
    };
    let mut spans = vec![
        mark(false, selected, theme),
        Span::styled(format!("{marker:<16}"), theme.style(role)),
    ];
    if verdict_w > 0 {
        spans.push(Span::styled(
            format!("{:<verdict_w$}", "-"),
            theme.style(Role::Muted),
        ));
    }
    spans.extend([
        Span::raw(pad(&clean(row_path(state, &o.file.display_path)), path_w)),
        Span::styled(
            format!("  {}", fit(&summary, summary_w)),
            theme.style(Role::Muted),
        ),
    ]);
    row(spans, selected, theme)
}

pub fn render_store(state: &State, theme: &Theme, frame: &mut Frame, body: Rect) {
    let (list_area, detail_area) = layout::panes(state, body);
    let store = &state.store;
    let title = if store.loading {
        " Trust store (loading…) ".to_string()
    } else {
        format!(" Trust store {} ", store.entries.len())
    };
    let block = boxed(Line::from(title), theme);
    let inner = block.inner(list_area);
    frame.render_widget(block, list_area);

    let rows = inner.height as usize;
    let (first, last) = window(&store.cursor, store.entries.len(), rows);
    let path_w = path_column(
        store.path_width,
        inner.width,
        layout::ENTRY_STATE_W,
        layout::SUMMARY_MIN,
    );
    let summary_w = (inner.width as usize).saturating_sub(2 + layout::ENTRY_STATE_W + path_w + 2);
    let lines: Vec<Line> = store.entries[first..last]
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let (marker, role) = entry_marker(&e.status);
            let spans = vec![
                mark(
                    store.marked.contains(&e.key),
                    first + i == store.cursor.selected,
                    theme,
                ),
                Span::styled(format!("{marker:<13}"), theme.style(role)),
                Span::raw(pad(&clean(&e.display_path), path_w)),
                Span::styled(
                    format!("  {}", fit(&clean(&e.summary), summary_w)),
                    theme.style(Role::Muted),
                ),
            ];
            row(spans, first + i == store.cursor.selected, theme)
        })
        .collect();
    if lines.is_empty() && inner.height > 0 {
        let msg = match &store.error {
            Some(e) => format!("the trust store cannot be read: {}", clean(e)),
            None if store.loading => "loading…".to_string(),
            None => "no trusted configs".to_string(),
        };
        let role = if store.error.is_some() {
            Role::Error
        } else {
            Role::Muted
        };
        frame.render_widget(
            Paragraph::new(msg)
                .style(theme.style(role))
                .wrap(ratatui::widgets::Wrap { trim: false }),
            inner,
        );
    }
    draw_rows(lines, frame, inner);

    let content = state
        .selected_entry()
        .map(|e| detail::entry_pane(state, e, detail_area.width.saturating_sub(2) as usize))
        .unwrap_or_default();
    render_scrolled(
        &content,
        state.detail_scroll,
        boxed(Line::from(" Entry "), theme),
        theme,
        frame,
        detail_area,
        false,
    );
}

/// A config's path in the list, relative to the scanned root when it lies
/// under it: the title already names the root, and `tests/fixtures/demo/`
/// repeated on every row would crowd out the summaries. The detail pane
/// keeps the full display path.
fn row_path<'a>(state: &State, display_path: &'a str) -> &'a str {
    crate::tui::state::row_path(&state.root, display_path)
}

#[cfg(test)]
mod tests {
    use super::row_path;
    use crate::tui::state::State;

    #[test]
    fn rows_are_relative_to_the_scanned_root() {
        let s = State::new("tests/fixtures/demo/");
        assert_eq!(
            row_path(&s, "tests/fixtures/demo/web/goccia.toml"),
            "web/goccia.toml"
        );
        assert_eq!(
            row_path(&s, "tests/fixtures/demox/goccia.json"),
            "tests/fixtures/demox/goccia.json"
        );
        assert_eq!(
            row_path(&s, "/elsewhere/goccia.json"),
            "/elsewhere/goccia.json"
        );
        let dot = State::new(".");
        assert_eq!(row_path(&dot, "a/goccia.json"), "a/goccia.json");
    }
}

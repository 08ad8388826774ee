//! The frame every pane and popup is drawn in: a bordered, titled box
//! whose lines scroll, saying when it holds more than it shows.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::style::theme::{Role, Theme};
use crate::tui::views::text::{self, RLine};

/// A bordered box with a title, in theme colours.
pub fn boxed<'a>(title: Line<'a>, theme: &Theme) -> Block<'a> {
    Block::new()
        .borders(Borders::ALL)
        .border_style(theme.style(Role::Border))
        .title(title.style(theme.style(Role::Title)))
}

/// Draw scrolled, already-wrapped lines into a bordered popup or pane.
pub fn render_scrolled(
    lines: &[RLine],
    scroll: usize,
    block: Block<'_>,
    theme: &Theme,
    frame: &mut Frame,
    area: Rect,
    clear: bool,
) {
    let inner = block.inner(area);
    if clear {
        frame.render_widget(Clear, area);
    }
    let rows = inner.height as usize;
    let scroll = scroll.min(text::max_scroll(lines.len(), rows));
    // A region that holds more than it shows says so (issue 12).
    let block = match more_marker(lines.len(), scroll, rows) {
        Some(m) => block.title_bottom(
            Line::from(m)
                .style(theme.style(Role::KeyHint))
                .right_aligned(),
        ),
        None => block,
    };
    frame.render_widget(block, area);
    let visible: Vec<Line> = lines
        .iter()
        .skip(scroll)
        .take(rows)
        .map(|l| text::to_line(l, theme))
        .collect();
    frame.render_widget(Paragraph::new(visible), inner);
}

/// ` ↓ more `, ` ↑ more ` or ` ↕ more ` when `len` lines scrolled by
/// `scroll` do not fit in `rows`.
pub fn more_marker(len: usize, scroll: usize, rows: usize) -> Option<&'static str> {
    let above = scroll > 0;
    let below = scroll + rows < len;
    match (above, below) {
        (false, true) => Some(" ↓ more "),
        (true, true) => Some(" ↕ more "),
        (true, false) => Some(" ↑ more "),
        (false, false) => None,
    }
}

//! Driving the TUI without a terminal: messages go through `update`, and
//! the effects it asks for run synchronously against a `FakeBackend`.

#![allow(dead_code)] // each test binary uses a different part

pub mod core;

use std::collections::VecDeque;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use goccia_trust::core::review::scan::NotReviewed;
use goccia_trust::tui::effects::execute;
use goccia_trust::tui::fake::FakeBackend;
use goccia_trust::tui::fixtures::Fixture;
use goccia_trust::tui::msg::{Effect, Msg};
use goccia_trust::tui::state::State;
use goccia_trust::tui::{start, step};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

pub struct Harness {
    pub state: State,
    pub backend: FakeBackend,
    /// Every effect `update` asked for, in order.
    pub effects: Vec<Effect>,
}

impl Harness {
    /// A TUI that has finished its first scan and store load.
    pub fn new(fixture: Fixture) -> Harness {
        Harness::with_backend(FakeBackend::new(fixture))
    }

    /// [`Harness::new`] over a backend prepared by the test.
    pub fn with_backend(backend: FakeBackend) -> Harness {
        let mut h = Harness {
            state: goccia_trust::tui::initial_state("/home/dev/shop", &backend),
            backend,
            effects: Vec::new(),
        };
        let first = start(&mut h.state);
        h.run(first);
        h
    }

    fn run(&mut self, effects: Vec<Effect>) {
        let mut queue: VecDeque<Msg> = VecDeque::new();
        let mut pending: VecDeque<Effect> = effects.into();
        loop {
            while let Some(e) = pending.pop_front() {
                self.effects.push(e.clone());
                execute(&self.backend, e, &|_| true, &mut |m| queue.push_back(m));
            }
            match queue.pop_front() {
                Some(m) => pending.extend(step(&mut self.state, m)),
                None => break,
            }
        }
    }

    /// Deliver a message and run whatever it sets off, to completion.
    pub fn send(&mut self, msg: Msg) {
        let effects = step(&mut self.state, msg);
        self.run(effects);
    }

    /// Press keys given as a string: each char is a key; `<esc>`, `<enter>`,
    /// `<tab>`, `<down>`, `<up>`, `<pgdn>`, `<pgup>`, `<bs>` name the others.
    pub fn keys(&mut self, keys: &str) {
        for k in parse_keys(keys) {
            self.send(Msg::Key(k));
        }
    }

    pub fn selected_path(&self) -> String {
        self.state
            .selected_config()
            .map(|r| r.display_path.clone())
            .unwrap_or_default()
    }

    /// The visible rows' paths: configs, then missing and shadowed files.
    pub fn visible_paths(&self) -> Vec<String> {
        self.state
            .visible
            .iter()
            .filter_map(|&i| self.state.row(i))
            .map(|r| r.display_path().to_string())
            .collect()
    }
}

/// A store entry whose config at `path` (under /home/dev/) is gone, as the
/// backend reports it.
pub fn missing(path: &str) -> NotReviewed {
    NotReviewed {
        key: format!("/home/dev/{path}"),
        display_path: path.to_string(),
        by: None,
        trusted_at: Some("2026-01-02T03:04:05Z".to_string()),
        line: format!(
            "missing: {path} (trusted, now gone; goccia-trust untrust --missing removes the entry)"
        ),
    }
}

/// `path` shadowed by `by` (both under /home/dev/), as the backend reports it.
pub fn shadowed(path: &str, by: &str) -> NotReviewed {
    NotReviewed {
        key: format!("/home/dev/{path}"),
        display_path: path.to_string(),
        by: Some(by.to_string()),
        trusted_at: None,
        line: format!("shadowed: {path} by {by} (…)"),
    }
}

pub fn parse_keys(s: &str) -> Vec<KeyEvent> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if c == '<'
            && let Some(end) = rest.find('>')
        {
            let code = match &rest[1..end] {
                "esc" => KeyCode::Esc,
                "enter" => KeyCode::Enter,
                "tab" => KeyCode::Tab,
                "down" => KeyCode::Down,
                "up" => KeyCode::Up,
                "pgdn" => KeyCode::PageDown,
                "pgup" => KeyCode::PageUp,
                "bs" => KeyCode::Backspace,
                other => panic!("unknown key <{other}>"),
            };
            out.push(KeyEvent::new(code, KeyModifiers::NONE));
            rest = &rest[end + 1..];
            continue;
        }
        out.push(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Draw the state on a `w`x`h` test terminal with `theme`.
pub fn draw(state: &State, theme: &goccia_trust::tui::Theme, w: u16, h: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
    terminal
        .draw(|f| goccia_trust::tui::views::view(state, theme, f))
        .expect("draw");
    terminal.backend().buffer().clone()
}

/// The buffer as plain text, one line per row, trailing spaces trimmed.
pub fn text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut line = String::new();
        for x in 0..area.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

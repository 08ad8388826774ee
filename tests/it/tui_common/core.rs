//! The review over the real core (`CoreBackend`), driven as the event loop
//! drives it: every effect run, every message it sends stepped through
//! `update`, to the end.

use goccia_trust::tui::core_backend::CoreBackend;
use goccia_trust::tui::effects::execute;
use goccia_trust::tui::msg::{Effect, Msg};
use goccia_trust::tui::state::State;
use goccia_trust::tui::{initial_state, start, step};

use super::parse_keys;

/// Runs `effects` and every effect their messages set off, to the end.
pub fn run(backend: &CoreBackend, state: &mut State, effects: Vec<Effect>) {
    let mut pending = effects;
    while let Some(effect) = pending.pop() {
        let mut msgs = Vec::new();
        execute(backend, effect, &|_| true, &mut |m| msgs.push(m));
        for m in msgs {
            pending.extend(step(state, m));
        }
    }
}

/// The review over `root`, run to the end of its first scan.
pub fn review(backend: &CoreBackend, root: &str) -> State {
    let mut state = initial_state(root, backend);
    let first = start(&mut state);
    run(backend, &mut state, first);
    state
}

/// Each key of `keys` (as `parse_keys` reads them), run to the end.
pub fn keys(backend: &CoreBackend, state: &mut State, keys: &str) {
    for k in parse_keys(keys) {
        let effects = step(state, Msg::Key(k));
        run(backend, state, effects);
    }
}

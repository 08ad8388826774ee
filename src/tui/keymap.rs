//! The one table of key bindings. `resolve` dispatches keys from it, and the
//! help screen and the hint bar are rendered from it, so what the user is
//! told and what the keys do cannot drift apart.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Where the user is; a binding applies in the contexts it lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    Configs,
    Store,
    /// Typing a `/` query.
    Filter,
    Inspect,
    Confirm,
    Help,
}

impl Context {
    pub fn label(self) -> &'static str {
        match self {
            Context::Configs => "configs",
            Context::Store => "store",
            Context::Filter => "filter",
            Context::Inspect => "inspect",
            Context::Confirm => "confirm",
            Context::Help => "help",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Up,
    Down,
    Top,
    Bottom,
    PageUp,
    PageDown,
    DetailUp,
    DetailDown,
    ToggleMark,
    ToggleViewed,
    ToggleIgnore,
    Edit,
    MarkAll,
    InvertMarks,
    NextReview,
    PrevReview,
    Trust,
    Untrust,
    Prune,
    Inspect,
    StartFilter,
    CycleStateFilter,
    ClearFilter,
    FilterAccept,
    FilterBackspace,
    SwitchView,
    Rescan,
    Help,
    Close,
    Confirm,
    Cancel,
    Quit,
}

/// A key as written in the table. Shift is ignored for characters, since
/// terminals report `G` and `?` with or without it.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

const fn key(code: KeyCode) -> Key {
    Key {
        code,
        mods: KeyModifiers::NONE,
    }
}

const fn ch(c: char) -> Key {
    key(KeyCode::Char(c))
}

const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        mods: KeyModifiers::CONTROL,
    }
}

impl Key {
    fn matches(&self, ev: &KeyEvent) -> bool {
        let strip = |m: KeyModifiers| match ev.code {
            KeyCode::Char(_) => m - KeyModifiers::SHIFT,
            _ => m,
        };
        self.code == ev.code && strip(self.mods) == strip(ev.modifiers)
    }
}

pub struct Binding {
    pub keys: &'static [Key],
    /// How the keys are shown in help and the hint bar.
    pub label: &'static str,
    pub action: Action,
    pub description: &'static str,
    pub contexts: &'static [Context],
    /// The hint bar's short word for it, if the hint bar shows it (help
    /// shows every binding with its full description).
    pub hint: Option<&'static str>,
}

use Context::*;

const LISTS: &[Context] = &[Configs, Store];
const SCROLLERS: &[Context] = &[Configs, Store, Inspect, Help, Confirm];

#[rustfmt::skip]
pub static KEYMAP: &[Binding] = &[
    Binding { keys: &[ch('j'), key(KeyCode::Down)], label: "j/↓", action: Action::Down, description: "next row / scroll down", contexts: SCROLLERS, hint: None },
    Binding { keys: &[ch('k'), key(KeyCode::Up)], label: "k/↑", action: Action::Up, description: "previous row / scroll up", contexts: SCROLLERS, hint: None },
    Binding { keys: &[ch('g'), key(KeyCode::Home)], label: "g", action: Action::Top, description: "first row / top", contexts: SCROLLERS, hint: None },
    Binding { keys: &[ch('G'), key(KeyCode::End)], label: "G", action: Action::Bottom, description: "last row / bottom", contexts: SCROLLERS, hint: None },
    Binding { keys: &[key(KeyCode::PageUp), ctrl('u')], label: "PgUp/ctrl-u", action: Action::PageUp, description: "one page up", contexts: SCROLLERS, hint: None },
    Binding { keys: &[key(KeyCode::PageDown), ctrl('d')], label: "PgDn/ctrl-d", action: Action::PageDown, description: "one page down", contexts: SCROLLERS, hint: None },
    Binding { keys: &[ch('n')], label: "n", action: Action::NextReview, description: "next config needing review", contexts: &[Configs], hint: None },
    Binding { keys: &[ch('N')], label: "N", action: Action::PrevReview, description: "previous config needing review", contexts: &[Configs], hint: None },
    Binding { keys: &[ch('J')], label: "J", action: Action::DetailDown, description: "scroll the detail pane down", contexts: LISTS, hint: None },
    Binding { keys: &[ch('K')], label: "K", action: Action::DetailUp, description: "scroll the detail pane up", contexts: LISTS, hint: None },
    Binding { keys: &[ch(' ')], label: "space", action: Action::ToggleMark, description: "mark / unmark the row, then move to the next", contexts: LISTS, hint: Some("mark+next") },
    Binding { keys: &[ch('v')], label: "v", action: Action::ToggleViewed, description: "mark the config viewed (kept until it changes) / not viewed", contexts: &[Configs], hint: Some("viewed") },
    Binding { keys: &[ch('a')], label: "a", action: Action::MarkAll, description: "mark every visible row (unmark them when all are marked)", contexts: LISTS, hint: Some("mark all") },
    Binding { keys: &[ch('A')], label: "A", action: Action::InvertMarks, description: "invert the marks of the visible rows", contexts: LISTS, hint: None },
    Binding { keys: &[ch('t')], label: "t", action: Action::Trust, description: "trust the marked (or selected) configs", contexts: &[Configs], hint: Some("trust") },
    Binding { keys: &[ch('u')], label: "u", action: Action::Untrust, description: "untrust the marked (or selected) entries (a missing row: remove its entry)", contexts: LISTS, hint: Some("untrust") },
    Binding { keys: &[ch('p')], label: "p", action: Action::Prune, description: "prune every missing store entry", contexts: &[Store], hint: Some("prune missing") },
    Binding { keys: &[key(KeyCode::Enter)], label: "enter", action: Action::Inspect, description: "inspect sources and normalized block", contexts: &[Configs], hint: Some("inspect") },
    Binding { keys: &[ch('e')], label: "e", action: Action::Edit, description: "open the config in $VISUAL / $EDITOR, then rescan", contexts: &[Configs], hint: Some("edit") },
    Binding { keys: &[ch('/')], label: "/", action: Action::StartFilter, description: "filter by path", contexts: &[Configs], hint: Some("filter") },
    Binding { keys: &[ch('s')], label: "s", action: Action::CycleStateFilter, description: "cycle the state filter (each state, missing, shadowed, then not viewed)", contexts: &[Configs], hint: Some("state") },
    Binding { keys: &[ch('i')], label: "i", action: Action::ToggleIgnore, description: "ignore the marked (or selected) configs until they change / ask again", contexts: &[Configs], hint: Some("ignore") },
    Binding { keys: &[key(KeyCode::Esc)], label: "esc", action: Action::ClearFilter, description: "clear filters and marks", contexts: &[Configs], hint: None },
    Binding { keys: &[key(KeyCode::Enter)], label: "enter", action: Action::FilterAccept, description: "keep the filter, back to the list", contexts: &[Filter], hint: Some("done") },
    Binding { keys: &[key(KeyCode::Esc)], label: "esc", action: Action::ClearFilter, description: "clear the filter", contexts: &[Filter], hint: Some("clear") },
    Binding { keys: &[key(KeyCode::Backspace)], label: "bksp", action: Action::FilterBackspace, description: "delete a character", contexts: &[Filter], hint: Some("delete") },
    Binding { keys: &[key(KeyCode::Tab), key(KeyCode::BackTab)], label: "tab", action: Action::SwitchView, description: "switch configs / store view", contexts: LISTS, hint: Some("switch view") },
    Binding { keys: &[ch('r')], label: "r", action: Action::Rescan, description: "rescan the tree and reload the store", contexts: LISTS, hint: Some("rescan") },
    Binding { keys: &[ch('y')], label: "y", action: Action::Confirm, description: "confirm exactly what is shown", contexts: &[Confirm], hint: Some("record") },
    Binding { keys: &[ch('n'), key(KeyCode::Esc)], label: "n/esc", action: Action::Cancel, description: "cancel, nothing is written", contexts: &[Confirm], hint: Some("cancel") },
    Binding { keys: &[ch('?')], label: "?", action: Action::Help, description: "this help", contexts: &[Configs, Store, Inspect], hint: Some("help") },
    Binding { keys: &[key(KeyCode::Esc), ch('q'), ch('?')], label: "esc/q", action: Action::Close, description: "close", contexts: &[Inspect, Help], hint: Some("close") },
    Binding { keys: &[ch('q')], label: "q", action: Action::Quit, description: "quit", contexts: LISTS, hint: Some("quit") },
    Binding { keys: &[ctrl('c')], label: "ctrl-c", action: Action::Quit, description: "quit from anywhere", contexts: &[Configs, Store, Filter, Inspect, Confirm, Help], hint: None },
];

/// The action `ev` triggers in `ctx`, if any.
pub fn resolve(ctx: Context, ev: &KeyEvent) -> Option<Action> {
    KEYMAP
        .iter()
        .find(|b| b.contexts.contains(&ctx) && b.keys.iter().any(|k| k.matches(ev)))
        .map(|b| b.action)
}

/// The bindings the hint bar shows in `ctx`, in table order.
pub fn hints(ctx: Context) -> impl Iterator<Item = &'static Binding> {
    KEYMAP
        .iter()
        .filter(move |b| b.hint.is_some() && b.contexts.contains(&ctx))
}

/// The key table of the book's "The interactive review"
/// (`docs/src/tui.md`), generated from [`KEYMAP`] as help is: one row per
/// binding, its keys, what it does and where. A test (`tests/it/docs.rs`)
/// keeps the book's copy equal to it.
#[cfg(any(test, feature = "test-support"))]
pub fn markdown_table() -> String {
    let mut out = String::from("| keys | action | where |\n|---|---|---|\n");
    for b in KEYMAP {
        let contexts: Vec<&str> = b.contexts.iter().map(|c| c.label()).collect();
        out.push_str(&format!(
            "| `{}` | {} | {} |\n",
            b.label.replace('|', "\\|"),
            b.description,
            contexts.join(", ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn resolves_by_context() {
        let q = press(KeyCode::Char('q'), KeyModifiers::NONE);
        assert_eq!(resolve(Configs, &q), Some(Action::Quit));
        assert_eq!(resolve(Help, &q), Some(Action::Close));
        assert_eq!(resolve(Filter, &q), None, "q is typed into the query");
        let esc = press(KeyCode::Esc, KeyModifiers::NONE);
        assert_eq!(resolve(Confirm, &esc), Some(Action::Cancel));
    }

    #[test]
    fn shift_is_ignored_for_characters() {
        let g = press(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(resolve(Configs, &g), Some(Action::Bottom));
        let c = press(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(resolve(Filter, &c), Some(Action::Quit));
    }

    #[test]
    fn every_context_has_hints() {
        for ctx in [Configs, Store, Filter, Inspect, Confirm, Help] {
            assert!(hints(ctx).next().is_some(), "{ctx:?}");
        }
    }
}

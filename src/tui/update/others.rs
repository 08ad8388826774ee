//! The keys on a missing or shadowed row of the Configs view (issue 30):
//! such a row is never trusted, ignored or marked viewed; a missing one
//! offers to remove its store entry, a shadowed one says which file
//! GocciaScript reads instead.

use crate::core::review::report::StoreEntryReport;
use crate::tui::keymap::Action;
use crate::tui::msg::{Effect, Pending, Removal, stored_lines};
use crate::tui::state::{OtherRow, OtherState, State};
use crate::tui::update::confirm::open_confirm;
use crate::tui::update::screen::set_status;

pub(super) fn act_on_other(state: &mut State, action: Action, row: &OtherRow) -> Vec<Effect> {
    // The entry the store holds for this file, when the store has loaded.
    let entry = state
        .store
        .entries
        .iter()
        .find(|e| e.key == row.file.key)
        .cloned();
    match row.state {
        OtherState::Missing => on_missing(state, action, row, entry),
        OtherState::Shadowed => on_shadowed(state, action, row, entry),
    }
}

/// Says why the row does not do that; nothing else happens.
fn refuse(state: &mut State, text: String) -> Vec<Effect> {
    set_status(state, text, true);
    vec![]
}

/// A missing file's row: `u` offers to remove its store entry; anything
/// else is refused, saying why.
fn on_missing(
    state: &mut State,
    action: Action,
    row: &OtherRow,
    entry: Option<StoreEntryReport>,
) -> Vec<Effect> {
    let path = &row.file.display_path;
    // The reason first: the status line is cut at the screen's edge.
    let refusal = match action {
        Action::Untrust => {
            let removal = Removal {
                key: row.file.key.clone(),
                display_path: path.clone(),
                trusted_at: entry
                    .as_ref()
                    .map(|e| e.trusted_at.clone())
                    .or_else(|| row.file.trusted_at.clone())
                    .unwrap_or_default(),
                lines: entry.map(|e| stored_lines(&e.lines)).unwrap_or_default(),
            };
            open_confirm(state, Pending::Prune(vec![removal]), Vec::new());
            return vec![];
        }
        Action::ToggleMark => format!("Gone, not marked: u removes the store entry of {path}"),
        _ => format!(
            "Gone: nothing to {}; u removes the store entry of {path}",
            verb(action)
        ),
    };
    refuse(state, refusal)
}

/// A shadowed file's row: `e` edits it and `u` removes its store entry
/// (the fixes); anything else is refused, naming the file GocciaScript
/// reads instead.
fn on_shadowed(
    state: &mut State,
    action: Action,
    row: &OtherRow,
    entry: Option<StoreEntryReport>,
) -> Vec<Effect> {
    let path = &row.file.display_path;
    let by = row.file.by.as_deref().unwrap_or("another config");
    // The reason first: the status line is cut at the screen's edge.
    let refusal = match action {
        // The file is there: editing it (or deleting it) is the fix.
        Action::Edit => {
            let key = row.file.key.clone();
            return vec![Effect::Edit { key }];
        }
        Action::Untrust => match entry {
            Some(e) => {
                let removal = Removal {
                    key: e.key.clone(),
                    display_path: e.display_path.clone(),
                    trusted_at: e.trusted_at.clone(),
                    lines: stored_lines(&e.lines),
                };
                open_confirm(state, Pending::Untrust(vec![removal]), Vec::new());
                return vec![];
            }
            None => format!("Not in the store: {path}"),
        },
        Action::Trust => format!(
            "Shadowed, not trusted: GocciaScript reads {by}, never {path} (trust {by} instead, or remove {path})"
        ),
        Action::ToggleMark => {
            format!("Shadowed, not marked: GocciaScript reads {by}, never {path}")
        }
        _ => format!(
            "Shadowed: nothing to {}; GocciaScript reads {by}, never {path}",
            verb(action)
        ),
    };
    refuse(state, refusal)
}

fn verb(action: Action) -> &'static str {
    match action {
        Action::Trust => "trust",
        Action::ToggleIgnore => "ignore",
        Action::ToggleViewed => "mark viewed",
        Action::Inspect => "inspect",
        Action::Edit => "edit",
        _ => "do",
    }
}

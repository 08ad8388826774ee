//! The keys on a missing or shadowed row of the Configs view (issue 30):
//! such a row is never trusted, ignored or marked viewed; a missing one
//! offers to remove its store entry, a shadowed one says which file
//! GocciaScript reads instead.

use super::*;

use crate::tui::state::{OtherRow, OtherState};

pub(super) fn act_on_other(state: &mut State, action: Action, row: &OtherRow) -> Vec<Effect> {
    let path = &row.file.display_path;
    // The entry the store holds for this file, when the store has loaded.
    let entry = state
        .store
        .entries
        .iter()
        .find(|e| e.key == row.file.key)
        .cloned();
    let refuse = |state: &mut State, text: String| {
        set_status(state, text, true);
        vec![]
    };
    match row.state {
        OtherState::Missing => match action {
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
                vec![]
            }
            Action::ToggleMark => refuse(
                state,
                format!("{path} is gone: only configs are marked; u removes its store entry"),
            ),
            _ => refuse(
                state,
                format!(
                    "{path} is gone: nothing to {}; u removes its store entry (goccia-trust untrust --missing removes every one)",
                    verb(action)
                ),
            ),
        },
        OtherState::Shadowed => {
            let by = row.file.by.as_deref().unwrap_or("another config");
            match action {
                // The file is there: editing it (or deleting it) is the fix.
                Action::Edit => {
                    state.edit = Some(row.file.key.clone());
                    vec![]
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
                        vec![]
                    }
                    None => refuse(state, format!("{path} is not in the store")),
                },
                Action::Trust => refuse(
                    state,
                    format!(
                        "Not trusted: {path} is shadowed by {by}; GocciaScript reads only {by} there (trust it instead, or remove {path})"
                    ),
                ),
                Action::ToggleMark => refuse(
                    state,
                    format!("{path} is shadowed by {by}: only configs are marked"),
                ),
                _ => refuse(
                    state,
                    format!(
                        "{path} is shadowed by {by}: GocciaScript never reads it, so there is nothing to {}",
                        verb(action)
                    ),
                ),
            }
        }
    }
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

//! What the review watches on disk, and what a change it hears of
//! concerns.

use crate::tui::state::State;

/// Why a backend watches nothing when there are more directories than its
/// cap (the status line then says `auto-refresh off: too many directories
/// (press r)`).
pub const TOO_MANY: &str = "too many directories";

/// What a refresh must notice, and no more (inotify's per-user limit is
/// shared with editors and IDEs): the tree's root (a new config at the top),
/// the directory of each config and of each file it extends, and the
/// directory holding each path scope (where a link would be re-pointed).
/// Sorted, without duplicates.
pub(super) fn watch_dirs(state: &State) -> Vec<String> {
    let parent = |p: &str| {
        std::path::Path::new(p)
            .parent()
            .and_then(|d| d.to_str())
            .filter(|d| !d.is_empty())
            .map(str::to_owned)
    };
    let mut dirs: Vec<String> = vec![state.root.clone()];
    for r in &state.configs {
        dirs.extend(
            std::iter::once(r.key.as_str())
                .chain(r.files.iter().map(String::as_str))
                .filter_map(parent),
        );
        dirs.extend(r.targets().iter().filter_map(|(scope, _)| parent(scope)));
    }
    dirs.sort();
    dirs.dedup();
    dirs
}

/// The configs a change of `paths` concerns, when that is all it
/// concerns: each path is a config or a file one extends (those configs
/// are read again), or an editor's scratch file (nothing to do). `None`
/// when anything else changed (a new config, a directory, a link, a path
/// the system could not name): only a full rescan can tell.
pub(super) fn changed_configs(state: &State, paths: &[String]) -> Option<Vec<String>> {
    if paths.is_empty() {
        return None;
    }
    let mut keys: Vec<String> = Vec::new();
    for p in paths {
        let concerned: Vec<&str> = state
            .configs
            .iter()
            .filter(|c| c.key == *p || c.files.iter().any(|f| f == p))
            .map(|c| c.key.as_str())
            .collect();
        if concerned.is_empty() {
            if !is_editor_scratch(p) {
                return None;
            }
        } else {
            keys.extend(concerned.into_iter().map(str::to_owned));
        }
    }
    keys.sort();
    keys.dedup();
    Some(keys)
}

/// Files editors write beside the one being edited: vim's swap files and
/// its `4913` write test, backups ending in `~`, Emacs's `.#` locks and
/// `#…#` autosaves. Never a config name, so never a config.
fn is_editor_scratch(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let swap = name.starts_with('.') && [".swp", ".swo", ".swx"].iter().any(|e| name.ends_with(e));
    swap || name == "4913"
        || name.ends_with('~')
        || name.starts_with(".#")
        || (name.len() > 1 && name.starts_with('#') && name.ends_with('#'))
}

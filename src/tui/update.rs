//! The pure heart of the TUI: `update` folds a message into the state and
//! says which effects (backend calls) should run. No IO happens here, so
//! every behaviour is testable by feeding messages.

use std::collections::{HashMap, HashSet};

use crossterm::event::{KeyEvent, KeyEventKind, KeyModifiers, MouseEventKind};

use crate::core::review::ignore::IgnoreAs;
use crate::core::review::ignore::unignored_state;
use crate::core::review::report::{ConfigReport, ConfigState, EntryStatus};
use crate::tui::backend::CommitError;
use crate::tui::keymap::{self, Action, Context};
use crate::tui::layout;
use crate::tui::msg::{Effect, Msg, Pending, Removal, stored_lines};
use crate::tui::state::{
    Anchor, Confirmation, Cursor, InspectView, Mode, OtherRow, OtherState, ScanStatus, State,
    Status, View, next_state_filter, review_rank,
};

mod confirm;
mod others;

use confirm::{act_on_confirm, on_committed, open_confirm, open_prune, open_trust, open_untrust};
use others::act_on_other;

/// The effects to run when the TUI starts: a scan and a store load.
pub fn init(state: &mut State) -> Vec<Effect> {
    let mut effects = vec![
        Effect::LoadProgress {
            root: state.root.clone(),
        },
        Effect::LoadIgnores,
    ];
    effects.extend(rescan(state));
    effects
}

pub fn update(state: &mut State, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Key(ev) => on_key(state, ev),
        Msg::Mouse(ev) => {
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
        Msg::StoreWarnings(warnings) => {
            // `size` is what the views below the banner get: the terminal
            // minus the banner's rows.
            let old = layout::banner_rows(&state.store_warnings, state.size.0);
            let height = state.size.1.saturating_add(old);
            state.store_warnings = warnings;
            update(state, Msg::Resize(state.size.0, height))
        }
        Msg::Resize(w, h) => {
            state.size = (
                w,
                h.saturating_sub(layout::banner_rows(&state.store_warnings, w)),
            );
            let rows = layout::list_rows(state.size);
            let len = state.visible.len();
            state.cursor.select(state.cursor.selected, len, rows);
            let len = state.store.entries.len();
            state
                .store
                .cursor
                .select(state.store.cursor.selected, len, rows);
            vec![]
        }
        Msg::Tick => {
            state.spinner = state.spinner.wrapping_add(1);
            vec![]
        }
        Msg::ScanProgress { job, dirs, configs } if job == state.scan.job => {
            state.scan.dirs = dirs;
            state.scan.configs = configs;
            vec![]
        }
        Msg::ScanFound { job, reports } if job == state.scan.job => {
            let keep = anchored_key(state);
            if state.scan.fresh {
                state.scan.fresh = false;
                state.configs.clear();
                state.verdicts.clear();
                state.rows.summaries.clear();
                state.rows.since.clear();
            }
            put_configs(state, reports);
            sort_and_refilter(state, keep);
            vec![]
        }
        Msg::ScanJudged { job, decisions } if job == state.scan.job => {
            for (key, sha, decision) in decisions {
                state.verdicts.insert(key, (sha, decision));
            }
            vec![]
        }
        Msg::Policy(label) => {
            state.policy = Some(label);
            vec![]
        }
        Msg::SinceBase(base) => {
            let rev = match &base {
                Ok(b) => b.rev.clone(),
                Err(_) => state
                    .since
                    .as_ref()
                    .map(|s| s.rev.clone())
                    .unwrap_or_default(),
            };
            let fresh = crate::tui::since::Since {
                rev,
                base: Some(base),
            };
            // Sent with every scan: compare again only when it is new.
            if state.since.as_ref() != Some(&fresh) {
                state.since = Some(fresh);
                let reports = std::mem::take(&mut state.configs);
                state.rows.since.clear();
                put_configs(state, reports);
                refilter(state);
            }
            vec![]
        }
        Msg::ScanFailed { job, message } if job == state.scan.job => {
            state.scan.running = false;
            state.scan.error = Some(message.clone());
            set_status(state, format!("Scan failed: {message}"), true);
            vec![]
        }
        Msg::ScanWalk {
            job,
            unreadable,
            not_followed,
            shadowed,
            missing,
        } if job == state.scan.job => {
            state.scan.unreadable = unreadable;
            state.scan.not_followed = not_followed;
            state.scan.shadowed = shadowed;
            state.scan.missing = missing;
            let keep = selected_key(state);
            set_others(state);
            apply_filter(state, keep);
            vec![]
        }
        Msg::ScanDone { job, dirs, configs } if job == state.scan.job => {
            state.scan.running = false;
            state.scan.dirs = dirs;
            state.scan.configs = configs;
            let keep = anchored_key(state);
            state.scan.anchor = None;
            if std::mem::take(&mut state.scan.fresh) {
                state.configs.clear();
                state.verdicts.clear();
                state.rows.summaries.clear();
                state.rows.since.clear();
            }
            let keys: std::collections::HashSet<&str> =
                state.configs.iter().map(|c| c.key.as_str()).collect();
            state.marked.retain(|k| keys.contains(k.as_str()));
            // This scan's missing and shadowed files (none without a Walk).
            set_others(state);
            sort_and_refilter(state, keep);
            vec![Effect::Watch {
                dirs: watch_dirs(state),
            }]
        }
        Msg::StoreLoaded { job, result } if job == state.store.job => {
            state.store.loading = false;
            match result {
                Ok(entries) => {
                    state.store.path_width = entries
                        .iter()
                        .map(|e| crate::tui::state::shown_width(&e.display_path))
                        .max()
                        .unwrap_or(0);
                    state.store.entries = entries;
                    state.store.error = None;
                    let keys: std::collections::HashSet<&str> =
                        state.store.entries.iter().map(|e| e.key.as_str()).collect();
                    state.store.marked.retain(|k| keys.contains(k.as_str()));
                }
                Err(message) => {
                    state.store.entries.clear();
                    state.store.marked.clear();
                    set_status(state, format!("Trust store: {message}"), true);
                    state.store.error = Some(message);
                }
            }
            let (len, rows) = (state.store.entries.len(), layout::store_rows(state.size));
            state
                .store
                .cursor
                .select(state.store.cursor.selected, len, rows);
            vec![]
        }
        Msg::Inspected { key, result } => {
            if let Mode::Inspect(iv) = &mut state.mode
                && iv.key == key
            {
                iv.data = Some(result);
            }
            vec![]
        }
        Msg::Committed { result } => on_committed(state, result),
        Msg::Provenance {
            key,
            sha256,
            result,
        } => {
            crate::tui::provenance::arrived(state, key, sha256, *result);
            vec![]
        }
        Msg::ProgressLoaded {
            progress,
            tree,
            problem,
        } => {
            resume(state, *progress, tree);
            if let Some(p) = problem {
                set_status(state, p, true);
            }
            vec![]
        }
        Msg::FilesChanged(paths) => {
            // A scan in progress will see the change, or the next one will.
            if state.scan.running {
                return vec![];
            }
            match changed_configs(state, &paths) {
                Some(keys) if keys.is_empty() => vec![],
                Some(keys) => vec![Effect::RescanConfigs { keys }],
                None => rescan(state),
            }
        }
        Msg::ConfigsRescanned { rescanned } => {
            let Some(rescanned) = rescanned else {
                return rescan(state);
            };
            let keep = selected_key(state);
            let mut reports = Vec::with_capacity(rescanned.len());
            for r in rescanned {
                match &r.decision {
                    Some(d) => {
                        let sha = r.report.sha256().unwrap_or_default().to_string();
                        state
                            .verdicts
                            .insert(r.report.key.clone(), (sha, d.clone()));
                    }
                    None => {
                        state.verdicts.remove(&r.report.key);
                    }
                }
                reports.push(r.report);
            }
            put_configs(state, reports);
            sort_and_refilter(state, keep);
            // The store view's states, and the watches (a new extends file
            // or scope), follow the edit.
            let job = state.next_job;
            state.next_job += 2;
            state.store.job = job + 1;
            state.store.loading = true;
            vec![
                Effect::LoadStore { job: job + 1 },
                Effect::Watch {
                    dirs: watch_dirs(state),
                },
            ]
        }
        Msg::WatchOff(why) => {
            // `off` is --no-watch; anything else the reviewer should know.
            if why != "off" {
                set_status(state, format!("auto-refresh off: {why} (press r)"), true);
            }
            vec![]
        }
        Msg::Edited { key, result } => {
            state.status = None;
            if let Err(why) = result {
                set_status(state, format!("Editor: {why}"), true);
            }
            // Show what the edit changed: that config alone is read again
            // (the selection stays on it), not the whole tree.
            vec![Effect::RescanConfigs { keys: vec![key] }]
        }
        Msg::IgnoresLoaded { ignores, problem } => {
            state.ignores = *ignores;
            if let Some(p) = problem {
                set_status(state, p, true);
            }
            reapply_ignores(state, None, true);
            vec![]
        }
        Msg::IgnoreNotSaved { why, ignores } => {
            // Show what the list on disk says, not what was asked.
            state.ignores = *ignores;
            reapply_ignores(state, None, true);
            set_status(state, format!("Ignore list not changed: {why}"), true);
            vec![]
        }
        Msg::ProgressNotSaved(why) => {
            set_status(state, format!("Review progress not saved: {why}"), true);
            vec![]
        }
        // A message of a superseded job: the newer job's results win.
        _ => vec![],
    }
}

fn on_key(state: &mut State, ev: KeyEvent) -> Vec<Effect> {
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

fn act(state: &mut State, action: Action) -> Vec<Effect> {
    if action == Action::Quit {
        state.quit = true;
        return vec![];
    }
    match state.context() {
        Context::Configs | Context::Store => act_on_list(state, action),
        Context::Filter => {
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
            vec![]
        }
        Context::Inspect => {
            let rows = layout::page_rows(state.size);
            let max = state.scroll_limits.inspect;
            if let Mode::Inspect(iv) = &mut state.mode {
                match action {
                    Action::Close => state.mode = Mode::Normal,
                    Action::Help => state.mode = Mode::Help { scroll: 0 },
                    _ => scroll(&mut iv.scroll, action, max, rows),
                }
            }
            vec![]
        }
        Context::Help => {
            let rows = layout::popup_rows(state.size);
            let max = state.scroll_limits.help;
            if let Mode::Help { scroll: pos } = &mut state.mode {
                match action {
                    Action::Close => state.mode = Mode::Normal,
                    _ => scroll(pos, action, max, rows),
                }
            }
            vec![]
        }
        Context::Confirm => act_on_confirm(state, action),
    }
}

fn full(size: (u16, u16)) -> ratatui::layout::Rect {
    ratatui::layout::Rect::new(0, 0, size.0, size.1)
}

/// Move a scroll position; `max` is the last useful position.
fn scroll(pos: &mut usize, action: Action, max: usize, page: usize) {
    *pos = match action {
        Action::Down => *pos + 1,
        Action::Up => pos.saturating_sub(1),
        Action::Top => 0,
        Action::Bottom => max,
        Action::PageDown => *pos + page.max(1),
        Action::PageUp => pos.saturating_sub(page.max(1)),
        _ => *pos,
    }
    .min(max);
}

/// Move a list cursor. Returns whether `action` was a move.
fn move_cursor(cursor: &mut Cursor, action: Action, len: usize, rows: usize) -> bool {
    let to = match action {
        Action::Down => cursor.selected + 1,
        Action::Up => cursor.selected.saturating_sub(1),
        Action::Top => 0,
        Action::Bottom => len.saturating_sub(1),
        Action::PageDown => cursor.selected + rows.max(1),
        Action::PageUp => cursor.selected.saturating_sub(rows.max(1)),
        _ => return false,
    };
    cursor.select(to, len, rows);
    true
}

fn act_on_list(state: &mut State, action: Action) -> Vec<Effect> {
    let rows = layout::list_rows(state.size);
    let moved = match state.view {
        View::Configs => move_cursor(&mut state.cursor, action, state.visible.len(), rows),
        View::Store => {
            let len = state.store.entries.len();
            move_cursor(&mut state.store.cursor, action, len, rows)
        }
    };
    if moved {
        state.detail_scroll = 0;
        // The user chose a row: a running scan no longer restores the old one.
        state.scan.anchor = None;
        return vec![];
    }
    match action {
        // A missing or shadowed row: never trusted, ignored, viewed or
        // marked (with marks, `t`, `i` and `u` act on the marked configs).
        Action::Trust
        | Action::ToggleIgnore
        | Action::ToggleViewed
        | Action::Inspect
        | Action::Edit
        | Action::Untrust
        | Action::ToggleMark
            if state.view == View::Configs
                && let Some(o) = state.selected_other()
                && (state.marked.is_empty()
                    || !matches!(
                        action,
                        Action::Trust | Action::ToggleIgnore | Action::Untrust
                    )) =>
        {
            let o = o.clone();
            return act_on_other(state, action, &o);
        }
        Action::DetailDown | Action::DetailUp => {
            let max = state.scroll_limits.detail;
            let a = if action == Action::DetailDown {
                Action::Down
            } else {
                Action::Up
            };
            scroll(&mut state.detail_scroll, a, max, 1);
        }
        Action::ToggleMark => toggle_mark(state),
        Action::ToggleViewed if state.view == View::Configs => return toggle_viewed(state),
        Action::ToggleIgnore if state.view == View::Configs => return toggle_ignore(state),
        Action::MarkAll | Action::InvertMarks => mark_visible(state, action),
        Action::NextReview | Action::PrevReview => next_needing_review(state, action),
        Action::Trust if state.view == View::Configs => open_trust(state),
        Action::Untrust => open_untrust(state),
        Action::Prune if state.view == View::Store => open_prune(state),
        Action::Inspect => {
            if let Some(r) = state.selected_config() {
                let key = r.key.clone();
                state.mode = Mode::Inspect(InspectView {
                    key: key.clone(),
                    display_path: r.display_path.clone(),
                    recorded: r
                        .stored
                        .as_ref()
                        .map(|s| s.targets.clone())
                        .unwrap_or_default(),
                    data: None,
                    scroll: 0,
                });
                return vec![Effect::Inspect { key }];
            }
        }
        Action::Edit => {
            if let Some(r) = state.selected_config() {
                state.edit = Some(r.key.clone());
            }
        }
        Action::StartFilter => {
            state.filter_saved = false;
            state.view = View::Configs;
            state.mode = Mode::Filter;
        }
        Action::CycleStateFilter => {
            state.filter_saved = false;
            // Each state, then "not viewed", then all again.
            if state.unviewed_only {
                state.unviewed_only = false;
            } else if state.state_filter == Some(ConfigState::Ignored) {
                state.state_filter = None;
                state.other_filter = Some(OtherState::Missing);
            } else if state.other_filter == Some(OtherState::Missing) {
                state.other_filter = Some(OtherState::Shadowed);
            } else if state.other_filter == Some(OtherState::Shadowed) {
                state.other_filter = None;
                state.unviewed_only = true;
            } else {
                state.state_filter = next_state_filter(state.state_filter);
            }
            refilter(state);
        }
        Action::ClearFilter => {
            if !state.filtered() {
                state.marked.clear();
            } else {
                state.query.clear();
                state.state_filter = None;
                state.other_filter = None;
                state.unviewed_only = false;
                state.filter_saved = false;
                refilter(state);
            }
        }
        Action::SwitchView => {
            state.view = match state.view {
                View::Configs => View::Store,
                View::Store => View::Configs,
            };
            state.detail_scroll = 0;
        }
        Action::Rescan => {
            // The previous action's message is about the old list.
            state.status = None;
            return rescan(state);
        }
        Action::Help => state.mode = Mode::Help { scroll: 0 },
        _ => {}
    }
    vec![]
}

fn toggle_mark(state: &mut State) {
    let (key, marked) = match state.view {
        View::Configs => (
            state.selected_config().map(|r| r.key.clone()),
            &mut state.marked,
        ),
        View::Store => (
            state.selected_entry().map(|e| e.key.clone()),
            &mut state.store.marked,
        ),
    };
    let Some(key) = key else { return };
    if !marked.remove(&key) {
        marked.insert(key);
    }
    // Marking moves on, so `space space space` marks three rows.
    act_on_list(state, Action::Down);
}

/// Why a backend watches nothing when there are more directories than its
/// cap (the status line then says `auto-refresh off: too many directories
/// (press r)`).
pub const TOO_MANY: &str = "too many directories";

/// What a refresh must notice, and no more (inotify's per-user limit is
/// shared with editors and IDEs): the tree's root (a new config at the top),
/// the directory of each config and of each file it extends, and the
/// directory holding each path scope (where a link would be re-pointed).
/// Sorted, without duplicates.
pub fn watch_dirs(state: &State) -> Vec<String> {
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
pub fn changed_configs(state: &State, paths: &[String]) -> Option<Vec<String>> {
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

/// `v`: mark the selected config viewed as it is now (its sha256), or
/// unmark it; saved at once, and the cursor moves on.
fn toggle_viewed(state: &mut State) -> Vec<Effect> {
    let Some(r) = state.selected_config() else {
        return vec![];
    };
    let Some(sha) = r.sha256().map(str::to_owned) else {
        set_status(
            state,
            "A config that does not load cannot be marked viewed".to_string(),
            true,
        );
        return vec![];
    };
    let (key, on) = (r.key.clone(), !state.is_viewed(r));
    state.progress.set_viewed(&key, &sha, on);
    recount(state);
    if state.unviewed_only {
        refilter(state);
    } else {
        act_on_list(state, Action::Down);
    }
    let change = state.progress_change(vec![(key, on.then_some(sha))]);
    vec![Effect::SaveProgress(Box::new(change))]
}

/// `i`: ignore the marked (or selected) configs as they are now, or, when
/// every one of them is ignored already, ask about them again. Only a
/// config that would ask for review (never trusted, changed) can be
/// ignored.
fn toggle_ignore(state: &mut State) -> Vec<Effect> {
    let chosen: Vec<&ConfigReport> = if state.marked.is_empty() {
        state.selected_config().into_iter().collect()
    } else {
        state
            .configs
            .iter()
            .filter(|c| state.marked.contains(&c.key))
            .collect()
    };
    if chosen.is_empty() {
        return vec![];
    }
    let unignore = chosen.iter().all(|c| c.state == ConfigState::Ignored);
    let changes: Vec<(String, Option<IgnoreAs>)> = chosen
        .iter()
        .filter_map(
            |c| match (unignore, c.state.needs_review(), IgnoreAs::of(c)) {
                (true, _, _) => Some((c.key.clone(), None)),
                (false, true, Some(now)) => Some((c.key.clone(), Some(now))),
                _ => None,
            },
        )
        .collect();
    if changes.is_empty() {
        set_status(
            state,
            "Nothing to ignore: only a config never trusted or changed since trusted can be ignored"
                .to_string(),
            true,
        );
        return vec![];
    }
    for (key, sha) in &changes {
        match sha {
            Some(now) => state.ignores.ignore(key, now, ""),
            None => state.ignores.unignore(key),
        };
    }
    let n = changes.len();
    let configs = if n == 1 { "config" } else { "configs" };
    let text = if unignore {
        format!("Unignored {n} {configs}: asked about again")
    } else {
        format!(
            "Ignored {n} {configs} until changed (GocciaScript still refuses to run them); i again to undo"
        )
    };
    let keys: HashSet<String> = changes.iter().map(|(k, _)| k.clone()).collect();
    // As after a trust, the row keeps its place: the next config moves in.
    reapply_ignores(state, Some(&keys), false);
    set_status(state, text, false);
    vec![Effect::SetIgnored(changes)]
}

/// Shows the configs of `keys` (all when `None`) as the ignore list says:
/// `ignored` when ignored as they are now, else their own state. The
/// selection follows its config when `follow`, else keeps its row.
fn reapply_ignores(state: &mut State, keys: Option<&HashSet<String>>, follow: bool) {
    let reports: Vec<ConfigReport> = state
        .configs
        .iter()
        .filter(|c| keys.is_none_or(|k| k.contains(&c.key)))
        .filter(|c| {
            c.state == ConfigState::Ignored || (c.state.needs_review() && state.ignores.ignores(c))
        })
        .cloned()
        .collect();
    if reports.is_empty() {
        return;
    }
    let keep = follow.then(|| selected_key(state)).flatten();
    put_configs(state, reports);
    sort_and_refilter(state, keep);
}

/// Saved progress arrived: take its viewed marks and resume this tree's
/// review where it stopped (selection, filters, marks).
fn resume(state: &mut State, progress: crate::core::review::progress::Progress, tree: String) {
    // A `--since` review resumes only a `--since` review's session: its
    // rows are compared with a revision, not the store.
    let session = progress
        .sessions_of(state.since.is_some())
        .get(&tree)
        .cloned();
    state.progress = progress;
    state.tree = Some(tree);
    let Some(s) = session else {
        refilter(state);
        return;
    };
    state.query = s.query;
    state.state_filter = s.state.as_deref().and_then(|name| {
        [
            ConfigState::Error,
            ConfigState::NeverTrusted,
            ConfigState::Changed,
            ConfigState::Trusted,
            ConfigState::NoRequest,
            ConfigState::Ignored,
        ]
        .into_iter()
        .find(|c| c.json_name() == name)
    });
    state.other_filter = s.state.as_deref().and_then(|name| {
        [OtherState::Missing, OtherState::Shadowed]
            .into_iter()
            .find(|o| o.label() == name)
    });
    state.unviewed_only = s.unviewed;
    state.filter_saved = state.filtered();
    state.marked = s.marked;
    if state.scan.running {
        // The list is still arriving: the scan selects it when it does.
        if let Some(key) = &s.selected {
            state.scan.anchor = Some(Anchor::Config(key.clone()));
        }
        apply_filter(state, s.selected);
    } else {
        let keys: std::collections::HashSet<&str> =
            state.configs.iter().map(|c| c.key.as_str()).collect();
        state.marked.retain(|k| keys.contains(k.as_str()));
        apply_filter(state, s.selected);
    }
}

/// The keys of the rows the list shows (all of them for the store view).
fn visible_keys(state: &State) -> Vec<String> {
    match state.view {
        // Only configs are marked: a missing or shadowed row is acted on
        // alone.
        View::Configs => state
            .visible
            .iter()
            .filter_map(|&i| state.configs.get(i))
            .map(|c| c.key.clone())
            .collect(),
        View::Store => state.store.entries.iter().map(|e| e.key.clone()).collect(),
    }
}

/// `a`: mark every visible row, or unmark them all when all are marked
/// already; `A`: invert the mark of each visible row. Rows the filter
/// hides keep their marks.
fn mark_visible(state: &mut State, action: Action) {
    let keys = visible_keys(state);
    let marked = match state.view {
        View::Configs => &mut state.marked,
        View::Store => &mut state.store.marked,
    };
    let all = keys.iter().all(|k| marked.contains(k));
    for k in keys {
        let on = match action {
            Action::MarkAll => !all,
            _ => !marked.contains(&k),
        };
        if on {
            marked.insert(k);
        } else {
            marked.remove(&k);
        }
    }
}

/// `n` / `N`: the next (previous) visible config that needs review,
/// wrapping around; a status line when there is none.
fn next_needing_review(state: &mut State, action: Action) {
    let len = state.visible.len();
    let from = state.cursor.selected;
    let found = (1..=len)
        .map(|step| {
            if action == Action::NextReview {
                (from + step) % len
            } else {
                (from + len - step % len) % len
            }
        })
        .find(|&row| {
            state
                .configs
                .get(state.visible[row])
                .is_some_and(|c| c.state.needs_review())
        });
    match found {
        Some(row) => {
            let rows = layout::list_rows(state.size);
            state.cursor.select(row, len, rows);
            state.detail_scroll = 0;
            state.scan.anchor = None;
        }
        None => set_status(state, "No config needs review".to_string(), false),
    }
}

/// A left click on a list row selects it.
fn click(state: &mut State, column: u16, row: u16) {
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

fn rescan(state: &mut State) -> Vec<Effect> {
    let job = state.next_job;
    state.next_job += 2;
    state.scan = ScanStatus {
        job,
        running: true,
        fresh: true,
        anchor: Some(match selected_key(state) {
            Some(key) => Anchor::Config(key),
            None => Anchor::Row,
        }),
        ..ScanStatus::default()
    };
    state.store.job = job + 1;
    state.store.loading = true;
    vec![
        Effect::Scan {
            job,
            root: state.root.clone(),
        },
        Effect::LoadStore { job: job + 1 },
    ]
}

fn set_status(state: &mut State, text: String, is_error: bool) {
    state.status = Some(Status { text, is_error });
}

/// The selected row's key: a config's, or a missing or shadowed file's.
fn selected_key(state: &State) -> Option<String> {
    let i = *state.visible.get(state.cursor.selected)?;
    state.row(i).map(|r| r.key().to_string())
}

/// The missing and shadowed rows, from what the scan found.
fn set_others(state: &mut State) {
    let missing = state.scan.missing.iter().map(|f| (OtherState::Missing, f));
    let shadowed = state
        .scan
        .shadowed
        .iter()
        .map(|f| (OtherState::Shadowed, f));
    state.others = missing
        .chain(shadowed)
        .map(|(s, f)| OtherRow {
            state: s,
            file: f.clone(),
        })
        .collect();
}

/// The config to keep selected as scan results arrive: the scan's anchor,
/// else (the user moved) the selected one. `None` keeps the row.
fn anchored_key(state: &State) -> Option<String> {
    match &state.scan.anchor {
        Some(Anchor::Row) => None,
        Some(Anchor::Config(key)) => Some(key.clone()),
        None => selected_key(state),
    }
}

/// Puts `reports` in the list, each replacing the report of its key if
/// there is one, with its summary worked out once, here.
pub(crate) fn put_configs(state: &mut State, reports: Vec<ConfigReport>) {
    // One pass over the rows per batch, not one per report: a large tree's
    // first scan arrives in many batches into an ever longer list.
    let slots: Vec<Option<usize>> = {
        let index: HashMap<&str, usize> = state
            .configs
            .iter()
            .enumerate()
            .map(|(i, c)| (c.key.as_str(), i))
            .collect();
        reports
            .iter()
            .map(|r| index.get(r.key.as_str()).copied())
            .collect()
    };
    // Keys new in this batch, should one come twice.
    let mut added: HashMap<String, usize> = HashMap::new();
    let base = state.since.as_ref().and_then(|s| s.loaded());
    for (mut report, slot) in reports.into_iter().zip(slots) {
        // Ignored as it is now (`i`, `goccia-trust ignore`), or no longer.
        if report.state == ConfigState::Ignored && !state.ignores.ignores(&report) {
            report.state = unignored_state(&report);
        }
        state.ignores.apply(&mut report);
        // With `--since`, the row says what changed since BASE.
        let summary = match base {
            Some(base) => {
                let diff = crate::tui::since::compare(base, &report);
                let summary = match &diff {
                    Some(d) => crate::tui::since::summary(&report, d, &base.rev),
                    None => report.summary(),
                };
                state.rows.since.insert(report.key.clone(), diff);
                summary
            }
            None => report.summary(),
        };
        state.rows.summaries.insert(report.key.clone(), summary);
        match slot.or_else(|| added.get(&report.key).copied()) {
            Some(i) => state.configs[i] = report,
            None => {
                added.insert(report.key.clone(), state.configs.len());
                state.configs.push(report);
            }
        }
    }
}

/// The title's and status line's counts, from every config.
fn recount(state: &mut State) {
    let (mut viewed, mut needs, mut errors) = (0, 0, 0);
    for c in &state.configs {
        viewed += usize::from(state.progress.is_viewed(&c.key, c.sha256()));
        needs += usize::from(c.state.needs_review());
        errors += usize::from(c.state == ConfigState::Error);
    }
    state.rows.viewed = viewed;
    state.rows.needs_review = needs;
    state.rows.hidden_needs_review = needs.saturating_sub(
        state
            .visible
            .iter()
            .filter(|&&i| state.configs.get(i).is_some_and(|c| c.state.needs_review()))
            .count(),
    );
    state.rows.errors = errors;
}

fn sort_and_refilter(state: &mut State, keep: Option<String>) {
    state
        .configs
        .sort_by(|a, b| (review_rank(a.state), &a.key).cmp(&(review_rank(b.state), &b.key)));
    apply_filter(state, keep);
}

fn refilter(state: &mut State) {
    let keep = selected_key(state);
    apply_filter(state, keep);
}

/// Recompute the visible rows, keeping the selection on the config `keep`
/// when it is still visible (capture it before reordering `configs`).
fn apply_filter(state: &mut State, keep: Option<String>) {
    let query = state.query.to_lowercase();
    state.visible = state
        .configs
        .iter()
        .enumerate()
        .filter(|(_, c)| state.state_filter.is_none_or(|f| c.state == f))
        .filter(|(_, c)| !state.unviewed_only || !state.is_viewed(c))
        .filter(|(_, c)| query.is_empty() || c.display_path.to_lowercase().contains(&query))
        .filter(|_| state.other_filter.is_none())
        .map(|(i, _)| i)
        .collect();
    // The missing and shadowed rows, after the configs: no config state,
    // and nothing to view, so a state or `not viewed` filter hides them.
    let first = state.configs.len();
    let others: Vec<usize> = state
        .others
        .iter()
        .enumerate()
        .filter(|(_, o)| state.other_filter.is_none_or(|f| o.state == f))
        .filter(|_| state.state_filter.is_none() && !state.unviewed_only)
        .filter(|(_, o)| query.is_empty() || o.file.display_path.to_lowercase().contains(&query))
        .map(|(i, _)| first + i)
        .collect();
    state.visible.extend(others);
    // The path column from every row the filter lets through, not the
    // window: the summary column stays put as the list scrolls.
    state.rows.path_width = state
        .visible
        .iter()
        .filter_map(|&i| state.row(i))
        .map(|r| {
            let shown = crate::tui::state::row_path(&state.root, r.display_path());
            crate::tui::state::shown_width(shown)
        })
        .max()
        .unwrap_or(0);
    recount(state);
    let to = keep
        .and_then(|k| {
            state
                .visible
                .iter()
                .position(|&i| state.row(i).is_some_and(|r| r.key() == k))
        })
        .unwrap_or(state.cursor.selected);
    let rows = layout::list_rows(state.size);
    state.cursor.select(to, state.visible.len(), rows);
}

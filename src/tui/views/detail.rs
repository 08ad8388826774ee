//! The detail pane: everything known about the selected config or store
//! entry, as role-tagged lines (measurable by `update` for scrolling).

use crate::core::config::format_of;
use crate::core::report::{ConfigReport, ConfigState, DiffLine, EntryStatus, StoreEntryReport};
use crate::tui::theme::Role;
use crate::tui::views::text::{RLine, ours, untrusted, wrap};

pub fn short_hash(h: &str) -> String {
    h.chars().take(12).collect::<String>() + if h.len() > 12 { "…" } else { "" }
}

pub fn diff_role(line: &DiffLine) -> Role {
    match line {
        DiffLine::Added(_) => Role::Added,
        DiffLine::Removed(_) => Role::Removed,
        DiffLine::Target { .. } => Role::Changed,
        DiffLine::Unchanged(_) => Role::Normal,
    }
}

pub fn state_role(state: ConfigState) -> Role {
    match state {
        ConfigState::Error => Role::Error,
        ConfigState::NeverTrusted => Role::Untrusted,
        ConfigState::Changed => Role::Changed,
        ConfigState::Trusted => Role::Trusted,
        ConfigState::NoRequest => Role::NoRequest,
    }
}

/// Marker and label; the glyph carries the meaning without colour.
pub fn state_marker(state: ConfigState) -> &'static str {
    match state {
        ConfigState::Error => "✗ error",
        ConfigState::NeverTrusted => "! never trusted",
        ConfigState::Changed => "~ changed",
        ConfigState::Trusted => "✓ trusted",
        ConfigState::NoRequest => "· no request",
    }
}

pub fn entry_marker(status: &EntryStatus) -> (&'static str, Role) {
    match status {
        EntryStatus::Ok => ("✓ ok", Role::Trusted),
        EntryStatus::Changed => ("~ changed", Role::Changed),
        EntryStatus::Missing => ("✗ missing", Role::Missing),
        EntryStatus::Unreadable(_) => ("! unreadable", Role::Error),
    }
}

fn field(name: &str, value: &str, role: Role) -> RLine {
    vec![
        ours(Role::Muted, format!("{name:<9}")),
        untrusted(role, value),
    ]
}

pub fn config_content(r: &ConfigReport, width: usize) -> Vec<RLine> {
    let mut out = vec![
        field("path", &r.display_path, Role::Title),
        field("key", &r.key, Role::Normal),
        vec![
            ours(Role::Muted, format!("{:<9}", "state")),
            ours(state_role(r.state), state_marker(r.state)),
        ],
        field("format", &format_of(&r.key).to_uppercase(), Role::Normal),
    ];
    let extends: Vec<_> = r.files.iter().skip(1).map(String::as_str).collect();
    if extends.is_empty() {
        out.push(field("extends", "none", Role::Muted));
    } else {
        for (i, f) in extends.iter().enumerate() {
            out.push(field(if i == 0 { "extends" } else { "" }, f, Role::Normal));
        }
    }
    if let Some(h) = &r.sha256 {
        out.push(field("sha256", &short_hash(h), Role::Normal));
    }
    match &r.stored {
        Some(s) => {
            out.push(field("trusted", &s.trusted_at, Role::Normal));
            out.push(field("by", &s.trusted_by, Role::Normal));
            if r.sha256.as_deref() != Some(s.sha256.as_str()) {
                out.push(field("stored", &short_hash(&s.sha256), Role::Changed));
            }
        }
        None => out.push(field("trusted", "never", Role::Muted)),
    }
    if !r.lines.is_empty() {
        out.push(vec![]);
        for line in &r.lines {
            out.push(vec![untrusted(diff_role(line), &line.render())]);
        }
    }
    if let Some(s) = &r.stored
        && !s.targets.is_empty()
    {
        out.push(vec![]);
        out.push(vec![ours(Role::Muted, "targets (recorded -> now)")]);
        for (scope, recorded) in &s.targets {
            let now = r
                .targets
                .iter()
                .find(|(sc, _)| sc == scope)
                .map(|(_, t)| t.as_str())
                .unwrap_or("(not requested now)");
            let role = if now == recorded {
                Role::Normal
            } else {
                Role::Changed
            };
            out.push(vec![untrusted(
                role,
                &format!("  {scope}: {recorded} -> {now}"),
            )]);
        }
    }
    if let Some(e) = &r.error {
        out.push(vec![]);
        out.push(vec![ours(
            Role::Error,
            format!("error (exit {})", e.class.code()),
        )]);
        for l in e.message.split('\n') {
            out.push(vec![untrusted(Role::Error, l)]);
        }
    }
    wrap(&out, width)
}

pub fn entry_content(e: &StoreEntryReport, width: usize) -> Vec<RLine> {
    let (marker, role) = entry_marker(&e.status);
    let mut out = vec![
        field("path", &e.display_path, Role::Title),
        field("key", &e.key, Role::Normal),
        vec![
            ours(Role::Muted, format!("{:<9}", "status")),
            ours(role, marker),
        ],
        field("trusted", &e.trusted_at, Role::Normal),
        field("by", &e.trusted_by, Role::Normal),
        field("requests", &e.summary, Role::Normal),
    ];
    if let EntryStatus::Unreadable(err) = &e.status {
        out.push(vec![]);
        for l in err.message.split('\n') {
            out.push(vec![untrusted(Role::Error, l)]);
        }
    }
    if !e.lines.is_empty() {
        out.push(vec![]);
        for line in &e.lines {
            out.push(vec![untrusted(diff_role(line), &line.render())]);
        }
    }
    wrap(&out, width)
}

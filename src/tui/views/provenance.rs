//! Who changed what, as the detail pane draws it: the commits since the
//! config was trusted (or since BASE, with `--since`), one line each (short id, day, author, subject), and
//! each added value's origin at the end of its line. Commit text is written
//! by whoever controls the repository: it goes through `untrusted`, escaped
//! exactly as config text is.

use crate::core::revision::provenance::{Absent, Commit, ConfigProvenance, Since, ValueOrigin};
use crate::style::theme::Role;
use crate::tui::state::{DeletedBy, Slot};
use crate::tui::views::text::{RLine, ours, untrusted};

/// A commit in one line: `a1b2c3d 2026-12-01 Mallory  bump deps`.
pub fn commit_line(c: &Commit) -> RLine {
    commit_after("  ", c)
}

/// [`commit_line`] after `lead` (the pane's own text).
pub fn commit_after(lead: &str, c: &Commit) -> RLine {
    vec![
        ours(Role::Muted, lead),
        untrusted(Role::Changed, &c.short),
        ours(Role::Muted, " "),
        untrusted(Role::Muted, c.day()),
        ours(Role::Muted, " "),
        untrusted(Role::Title, &c.author),
        ours(Role::Muted, "  "),
        untrusted(Role::Normal, &c.subject),
    ]
}

/// The pane's `changes` part: a heading saying how many commits touched
/// the config's files since it was trusted (with `--since BASE`, since
/// BASE: the revision as the user wrote it, escaped), then each; or, while
/// git is read, that it is; or why there is no provenance.
pub fn commit_lines(slot: &Slot) -> Vec<RLine> {
    let label = |text: String| {
        vec![
            ours(Role::Muted, format!("{:<9}", "changes")),
            ours(Role::Muted, text),
        ]
    };
    let Some(data) = &slot.data else {
        return vec![label("reading git…".into())];
    };
    let p = match data {
        Ok(p) => p,
        Err(absent) => return vec![label(absent.describe())],
    };
    let since = match &p.commits {
        Ok(since) => since,
        Err(absent) => return vec![label(absent.describe())],
    };
    let n = since.commits.len();
    let mut heading = label(match (n, since.more) {
        // Not "the change is not committed": the store's clock and the
        // committer's may disagree; each value's origin says it.
        (0, _) => "no commit since ".to_string(),
        (1, _) => "1 commit since ".to_string(),
        (n, false) => format!("{n} commits since "),
        (n, true) => format!("more than {n} commits since "),
    });
    heading.push(match &p.since {
        Since::Trusted => ours(Role::Muted, "trusted"),
        Since::Revision(rev) => untrusted(Role::Title, rev),
    });
    if since.more {
        heading.push(ours(Role::Muted, format!(", the newest {n}:")));
    }
    let mut out = vec![heading];
    if since.by_date {
        out.push(vec![ours(
            Role::Muted,
            "  (counted by date: no commit holds the trusted version)",
        )]);
    }
    out.extend(since.commits.iter().map(commit_line));
    for path in &since.outside {
        out.push(vec![
            ours(Role::Muted, "  no history: "),
            untrusted(Role::Muted, path),
            ours(Role::Muted, " is outside the repository"),
        ]);
    }
    out
}

/// The end of an added value's line: ` · a1b2c3d Mallory 2026-12-01`,
/// ` · not committed`, or why the origin is not known; nothing while git
/// is read or when there is no provenance (the `changes` part says why).
pub fn origin_runs(slot: Option<&Slot>, request: &str, value: &str) -> RLine {
    let Some(Some(Ok(p))) = slot.map(|s| &s.data) else {
        return Vec::new();
    };
    provenance_runs(p, request, value)
}

/// [`origin_runs`] of a provenance read.
pub fn provenance_runs(p: &ConfigProvenance, request: &str, value: &str) -> RLine {
    let origin = match (&p.origins, p.origin(request, value)) {
        (_, Some(o)) => o,
        (Err(absent), None) => {
            return vec![ours(Role::Muted, format!(" · {}", absent.describe()))];
        }
        (Ok(_), None) => return Vec::new(),
    };
    match origin {
        ValueOrigin::Committed(c) => vec![
            ours(Role::Muted, " · "),
            untrusted(Role::Changed, &c.short),
            ours(Role::Muted, " "),
            untrusted(Role::Title, &c.author),
            ours(Role::Muted, " "),
            untrusted(Role::Muted, c.day()),
        ],
        ValueOrigin::NotCommitted => vec![ours(Role::Changed, " · not committed")],
        ValueOrigin::AtBase => vec![ours(Role::Muted, " · as at the base")],
        ValueOrigin::Unknown(why) => vec![
            ours(Role::Muted, " · origin unknown: "),
            untrusted(Role::Muted, why),
        ],
    }
}

/// Who made a new config, as the trust confirmation names it (issue 40
/// item 5), under its key and hash: `  added    a1b2c3d Alice 2026-01-10`
/// when every value it grants came with one commit (a config added
/// whole), else one line per value with its origin; while git is read,
/// that it is; without provenance, why. Nothing when none was asked.
pub fn added_lines(who: Option<&Option<Result<ConfigProvenance, Absent>>>) -> Vec<RLine> {
    let label = || ours(Role::Muted, format!("  {:<9}", "added"));
    let said = |text: String| vec![vec![label(), ours(Role::Muted, text)]];
    let p = match who {
        None => return Vec::new(),
        Some(None) => return said("reading git…".into()),
        Some(Some(Err(absent))) => return said(absent.describe()),
        Some(Some(Ok(p))) => p,
    };
    let values = match &p.origins {
        Ok(values) => values,
        Err(absent) => return said(absent.describe()),
    };
    let each: Vec<(&String, &String, RLine)> = values
        .iter()
        .map(|(r, v, _)| (r, v, provenance_runs(p, r, v)))
        .collect();
    let first = each.first().map(|(_, _, runs)| runs);
    if let Some(runs) = first.filter(|f| each.iter().all(|(_, _, r)| r == *f)) {
        // One origin for all: said once, without the ` · ` that joins it
        // to a value.
        let mut line = vec![label()];
        line.extend(runs.iter().enumerate().filter_map(|(i, (role, text))| {
            let text = if i == 0 {
                text.trim_start_matches(" · ")
            } else {
                text
            };
            (!text.is_empty()).then(|| (*role, text.to_string()))
        }));
        return vec![line];
    }
    each.into_iter()
        .map(|(r, v, runs)| {
            let mut line = vec![
                label(),
                untrusted(Role::Normal, r),
                ours(Role::Muted, ": "),
                untrusted(Role::Normal, v),
            ];
            line.extend(runs);
            line
        })
        .collect()
}

/// Who deleted a missing config, as its pane and the prune and untrust
/// confirmations say it (issue 40 item 5), in `scan`'s words: `deleted by
/// a1b2c3d Bob 2026-12-01 "drop tools"`, `deleted in the working tree, not
/// committed`, or `deleted by: unknown (why)`: no repository, a shallow
/// clone, git failing; while git is read, that it is.
pub fn deleted_line(deleted: &DeletedBy) -> RLine {
    let unknown = |why: &str| {
        vec![
            ours(Role::Muted, "deleted by: unknown ("),
            untrusted(Role::Muted, why),
            ours(Role::Muted, ")"),
        ]
    };
    match deleted {
        None => vec![ours(Role::Muted, "deleted by: reading git…")],
        Some(Ok(ValueOrigin::Committed(c))) => vec![
            ours(Role::Muted, "deleted by "),
            untrusted(Role::Changed, &c.short),
            ours(Role::Muted, " "),
            untrusted(Role::Title, &c.author),
            ours(Role::Muted, " "),
            untrusted(Role::Muted, c.day()),
            ours(Role::Muted, " \""),
            untrusted(Role::Normal, &c.subject),
            ours(Role::Muted, "\""),
        ],
        Some(Ok(ValueOrigin::NotCommitted)) => vec![ours(
            Role::Changed,
            "deleted in the working tree, not committed",
        )],
        // Not an answer to who deleted a file: said as not known.
        Some(Ok(ValueOrigin::AtBase)) => unknown("no commit named"),
        Some(Ok(ValueOrigin::Unknown(why))) => unknown(why),
        Some(Err(absent)) => unknown(&absent.reason),
    }
}

//! The detail pane: everything known about the selected config or store
//! entry, as role-tagged lines (measurable by `update` for scrolling).

use crate::core::config::format_of;
use crate::core::policy::{ConfigDecision, Verdict};
use crate::core::review::destination::{ShownLine, with_destinations};
use crate::core::review::report::{
    ConfigReport, ConfigState, DiffLine, EntryStatus, StoreEntryReport, report_values,
};
use crate::core::review::value_diff::{
    Change, Shown, UNCHANGED_KEPT, ValueChange, collapse, group_by_request,
};
use crate::style::roles::{state_role, verdict_role};
use crate::style::theme::Role;
use crate::tui::since::SinceOf;
use crate::tui::state::Slot;
use crate::tui::state::{DeletedBy, OtherRow, OtherState, State};
use crate::tui::views::provenance::{commit_lines, deleted_line, origin_runs};
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

/// A config's lines as a trust decision needs them: GocciaScript's, and
/// under each request line the scopes of it that lead elsewhere, marked
/// `»` in the `changed` style so a link to `~/.ssh` cannot pass unseen.
pub fn lines_with_destinations(lines: &[DiffLine], targets: &[(String, String)]) -> Vec<RLine> {
    with_destinations(lines, targets)
        .into_iter()
        .map(|l| match l {
            ShownLine::Line(line) => vec![untrusted(diff_role(line), &line.render())],
            ShownLine::Destination(d) => vec![
                ours(Role::Changed, "      » "),
                untrusted(Role::Changed, &format!("{} {}", d.key, d.scope)),
                ours(Role::Changed, " resolves to "),
                untrusted(Role::Changed, &d.target),
            ],
        })
        .collect()
}

/// Marker and label; the glyph carries the meaning without colour.
pub fn state_marker(state: ConfigState) -> &'static str {
    match state {
        ConfigState::Error => "✗ error",
        ConfigState::NeverTrusted => "! never trusted",
        ConfigState::Changed => "~ changed",
        ConfigState::Trusted => "✓ trusted",
        ConfigState::NoRequest => "· no request",
        ConfigState::Ignored => "- ignored",
    }
}

/// A missing or shadowed row's state column and style.
pub fn other_marker(state: OtherState) -> (&'static str, Role) {
    match state {
        OtherState::Missing => ("✗ missing", Role::Missing),
        OtherState::Shadowed => ("- shadowed", Role::Shadowed),
    }
}

/// The detail of a missing or shadowed row (issue 30): what it is and
/// what can be done about it; a missing one, who deleted it when that was
/// asked (`deleted`, see [`deleted_line`]).
pub fn other_content(o: &OtherRow, deleted: Option<&DeletedBy>, width: usize) -> Vec<RLine> {
    let (marker, role) = other_marker(o.state);
    let f = &o.file;
    let mut out = vec![
        vec![ours(role, marker)],
        vec![
            ours(Role::Muted, "file     "),
            untrusted(Role::Normal, &f.display_path),
        ],
        vec![],
    ];
    match o.state {
        OtherState::Missing => {
            if let Some(at) = &f.trusted_at {
                out.insert(
                    2,
                    vec![ours(Role::Muted, "trusted  "), untrusted(Role::Normal, at)],
                );
            }
            if let Some(d) = deleted {
                out.insert(out.len() - 1, deleted_line(d));
            }
            out.push(vec![ours(
                Role::Normal,
                "The file is gone; the store still holds its entry.",
            )]);
            out.push(vec![
                ours(Role::KeyHint, "u"),
                ours(Role::Normal, " removes this entry; "),
                ours(Role::KeyHint, "p"),
                ours(Role::Normal, " in the Store view (tab) or "),
                ours(Role::KeyHint, "goccia-trust untrust --missing"),
                ours(Role::Normal, " removes every missing one."),
            ]);
        }
        OtherState::Shadowed => {
            let by = f.by.as_deref().unwrap_or("");
            out.insert(
                2,
                vec![ours(Role::Muted, "read     "), untrusted(Role::Normal, by)],
            );
            out.push(vec![
                ours(Role::Normal, "Shadowed by "),
                untrusted(Role::Normal, by),
                ours(
                    Role::Normal,
                    ": GocciaScript reads only that file in this directory, so this one is never trusted and never hashed. Review ",
                ),
                untrusted(Role::Normal, by),
                ours(Role::Normal, " instead, or remove this file ("),
                ours(Role::KeyHint, "e"),
                ours(Role::Normal, " edits it)."),
            ]);
        }
    }
    wrap(&out, width)
}

pub fn entry_marker(status: &EntryStatus) -> (&'static str, Role) {
    match status {
        EntryStatus::Ok => ("✓ ok", Role::Trusted),
        EntryStatus::Changed => ("~ changed", Role::Changed),
        EntryStatus::Missing => ("✗ missing", Role::Missing),
        EntryStatus::Unreadable(_) => ("! unreadable", Role::Error),
    }
}

/// A verdict's glyph, so it reads without colour.
pub fn verdict_glyph(v: Verdict) -> &'static str {
    match v {
        Verdict::Allowed => "✓",
        Verdict::NeedsAuth => "?",
        Verdict::Denied => "✗",
    }
}

/// What CI's `trust --yes --policy` would do with a config of `verdict`.
pub fn verdict_meaning(v: Verdict) -> &'static str {
    match v {
        Verdict::Allowed => "trust --yes --policy would trust it",
        Verdict::NeedsAuth => "trust --yes --policy would leave it to a person",
        Verdict::Denied => "trust --yes --policy would refuse it",
    }
}

/// Each request's decision, one line each, as `trust --policy` prints it
/// (`<kind> <scope>[ -> <path judged>]: <risk> <class> <verdict> —
/// <reason>`), behind the verdict's glyph; `only` keeps those of these
/// verdicts (all when empty).
pub fn decision_lines(d: &ConfigDecision, only: &[Verdict]) -> Vec<RLine> {
    d.operations
        .iter()
        .filter(|o| only.is_empty() || only.contains(&o.decision.verdict))
        .map(|o| {
            let role = verdict_role(o.decision.verdict);
            vec![
                ours(role, format!("  {} ", verdict_glyph(o.decision.verdict))),
                untrusted(role, &o.line()),
            ]
        })
        .collect()
}

/// The policy's part of the detail pane: the config's verdict and what CI
/// would do with it, then every request's verdict with its reason.
fn policy_lines(r: &ConfigReport, decision: Option<&ConfigDecision>) -> Vec<RLine> {
    let Some(d) = decision else {
        let why = match r.state {
            ConfigState::Error => "not judged: the config does not load",
            ConfigState::NoRequest => "not judged: it asks for nothing to trust",
            // A report replaced by a refused commit's fresh one: the
            // rescan that follows judges it.
            _ => "not judged yet (r rescans)",
        };
        return vec![vec![
            ours(Role::Muted, format!("{:<9}", "policy")),
            ours(Role::Muted, why),
        ]];
    };
    let role = verdict_role(d.verdict);
    let mut out = vec![vec![
        ours(Role::Muted, format!("{:<9}", "policy")),
        ours(role, d.verdict.as_str()),
        ours(Role::Muted, format!(": {}", verdict_meaning(d.verdict))),
    ]];
    out.extend(decision_lines(d, &[]));
    out
}

fn field(name: &str, value: &str, role: Role) -> RLine {
    vec![
        ours(Role::Muted, format!("{name:<9}")),
        untrusted(role, value),
    ]
}

/// A changed config's requests value by value (issue 12): each request key
/// a heading, then a line per added (`+`), removed (`-`) or re-targeted
/// (`~`) value in its own style, unchanged values dimmed and runs of them
/// collapsed (`… 28 unchanged`). One value per line, so a list wraps at
/// value boundaries; a value wider than the pane wraps onto the next line
/// rather than being cut (issue 30: a cut `~` line hid where a link now
/// leads), at the space before `→` first. Each added or re-targeted
/// value's line is ended by `origin` (who changed it, issue 26 and 40;
/// nothing where it is not known).
pub fn value_lines_with(
    values: &[ValueChange],
    width: usize,
    origin: &dyn Fn(&ValueChange) -> RLine,
) -> Vec<RLine> {
    let mut out = Vec::new();
    for group in group_by_request(values) {
        out.push(vec![untrusted(Role::Title, &group[0].request)]);
        for item in collapse(group, UNCHANGED_KEPT) {
            let line = match item {
                Shown::Unchanged(n) => vec![ours(Role::Muted, format!("    … {n} unchanged"))],
                Shown::Value(v) => {
                    let role = match v.change {
                        Change::Added => Role::Added,
                        Change::Removed => Role::Removed,
                        Change::Retargeted => Role::Changed,
                        Change::Unchanged => Role::Muted,
                    };
                    let mut line = vec![
                        ours(role, format!("  {} ", v.change.sign())),
                        untrusted(role, &v.value),
                    ];
                    if let Some(d) = &v.destination {
                        line.push(ours(Role::Changed, " → "));
                        line.push(untrusted(Role::Changed, d));
                    }
                    if matches!(v.change, Change::Added | Change::Retargeted) {
                        line.extend(origin(v));
                    }
                    line
                }
            };
            out.push(line);
        }
    }
    wrap(&out, width)
}

/// A config's requests: value by value when it changed (and its blocks are
/// known), else GocciaScript's lines with their destinations.
fn request_lines(r: &ConfigReport, who: Option<&Slot>, width: usize) -> Vec<RLine> {
    if r.state == ConfigState::Changed {
        let values = report_values(r);
        if !values.is_empty() {
            let origin = |v: &ValueChange| origin_runs(who, &v.request, &v.value);
            return value_lines_with(&values, width, &origin);
        }
    }
    lines_with_destinations(&r.lines, r.targets())
}

/// What the detail pane shows of BASE, with `--since`.
#[derive(Debug, Clone)]
pub struct SinceShown<'a> {
    pub rev: &'a str,
    pub of: SinceOf<'a>,
    /// The config's values compared with BASE (empty unless compared).
    pub values: Vec<ValueChange>,
}

/// With `--since`, what the pane of `r` shows of BASE.
pub fn since_shown<'a>(state: &'a State, r: &ConfigReport) -> Option<SinceShown<'a>> {
    let since = state.since.as_ref()?;
    let of = state.since_of(r)?;
    let values = match (of, since.loaded()) {
        (SinceOf::Compared(_), Some(base)) => crate::tui::since::values(base, r),
        _ => Vec::new(),
    };
    Some(SinceShown {
        rev: &since.rev,
        of,
        values,
    })
}

/// The config's lines as it is now, without the store's side of a diff.
fn current_lines(lines: &[DiffLine]) -> Vec<DiffLine> {
    lines
        .iter()
        .filter_map(|l| match l {
            DiffLine::Added(s) | DiffLine::Unchanged(s) => Some(DiffLine::Unchanged(s.clone())),
            DiffLine::Removed(_) | DiffLine::Target { .. } => None,
        })
        .collect()
}

/// The requests of `r` compared with BASE: a `since` line with the change,
/// BASE's error if it did not load there, then the values value by value
/// (`+` for each one gained since BASE), or, when nothing changed or there
/// is nothing to compare with, the config's lines as they are now. Each
/// added value ends with who added it since BASE, once `who` knows.
fn since_lines(
    r: &ConfigReport,
    since: &SinceShown<'_>,
    who: Option<&Slot>,
    width: usize,
) -> Vec<RLine> {
    let (marker, role) = crate::tui::since::marker(since.of);
    let mut out = vec![vec![
        ours(Role::Muted, format!("{:<9}", "since")),
        untrusted(Role::Title, since.rev),
        ours(Role::Muted, "  "),
        ours(role, marker),
    ]];
    let now = || lines_with_destinations(&current_lines(&r.lines), r.targets());
    match since.of {
        SinceOf::Reading => {
            out.push(vec![ours(Role::Muted, "reading the revision…")]);
            out.extend(now());
        }
        SinceOf::Unreadable(why) => {
            for l in why.split('\n') {
                out.push(vec![untrusted(Role::Error, l)]);
            }
            out.extend(now());
        }
        SinceOf::Outside => {
            out.push(vec![ours(
                Role::Changed,
                "outside the repository: nothing at the revision to compare with",
            )]);
            out.extend(now());
        }
        SinceOf::Compared(d) => {
            if let Some(e) = &d.base_error {
                out.push(vec![
                    ours(Role::Error, "does not load at "),
                    untrusted(Role::Error, since.rev),
                ]);
                for l in e.message.split('\n') {
                    out.push(vec![untrusted(Role::Error, l)]);
                }
            }
            if d.verdict == crate::core::revision::compare::Verdict::Same {
                out.extend(now());
            } else {
                let origin = |v: &ValueChange| origin_runs(who, &v.request, &v.value);
                out.extend(value_lines_with(&since.values, width, &origin));
            }
            // Where each re-targeted scope led at BASE and leads now (the
            // store's `targets (recorded -> now)` says the store's side).
            let moved: Vec<(&String, &(String, String))> = d
                .values
                .iter()
                .filter_map(|v| v.retarget.as_ref().map(|t| (&v.value, t)))
                .collect();
            if !moved.is_empty() {
                out.push(vec![
                    ours(Role::Muted, "targets (at "),
                    untrusted(Role::Muted, since.rev),
                    ours(Role::Muted, " -> now)"),
                ]);
                for (scope, (then, now)) in moved {
                    out.push(vec![untrusted(
                        Role::Changed,
                        &format!("  {scope}: {then} -> {now}"),
                    )]);
                }
            }
        }
    }
    out
}

/// The detail pane of a config; with a policy (`judged` holds its label
/// and the decision on this config, if it was judged), the verdicts come
/// right after the requests they judge; with `--since`, the requests are
/// compared with BASE rather than with the store (whose state and entry
/// the fields below still show).
pub fn config_content(
    r: &ConfigReport,
    judged: Option<(&str, Option<&ConfigDecision>)>,
    since: Option<SinceShown<'_>>,
    who: Option<&Slot>,
    reviews: &[RLine],
    width: usize,
) -> Vec<RLine> {
    // The requests first (issue 12): at 80x24 they are what a reviewer
    // needs to see without scrolling; the header fields follow.
    let mut out = Vec::new();
    if let Some(since) = &since {
        out.extend(since_lines(r, since, who, width));
        out.push(vec![]);
    } else if !r.lines.is_empty() {
        out.extend(request_lines(r, who, width));
        out.push(vec![]);
    }

    if let Some((_, decision)) = judged {
        out.extend(policy_lines(r, decision));
        out.push(vec![]);
    }
    // Who reviewed these requests, and what changed since an outdated
    // review (issue 43): nothing where the repository has no reviews file.
    if !reviews.is_empty() {
        out.extend(reviews.iter().cloned());
        out.push(vec![]);
    }
    // Likewise an error: it is what the row is about.
    out.extend(error_lines(r));
    out.extend(field_lines(r, since.is_some()));
    // Who changed it since it was trusted, or since BASE (issue 26); each
    // added value's origin is on its own line above.
    if let Some(who) = who {
        out.extend(commit_lines(who));
    }
    if let Some((label, _)) = judged {
        out.push(vec![
            ours(Role::Muted, "judged by "),
            untrusted(Role::Normal, label),
        ]);
    }
    out.extend(target_lines(r));
    wrap(&out, width)
}

/// Why `r` does not load, if it does not: its exit code and message.
fn error_lines(r: &ConfigReport) -> Vec<RLine> {
    let mut out = Vec::new();
    if let Some(e) = r.error() {
        out.push(vec![ours(
            Role::Error,
            format!("error (exit {})", e.class.code()),
        )]);
        for l in e.message.split('\n') {
            out.push(vec![untrusted(Role::Error, l)]);
        }
        out.push(vec![]);
    }
    out
}

/// The config's fields: path, key, state (under `--since`, `since`, said
/// to be the store's), format, the files it extends, its sha256 and its
/// store entry.
fn field_lines(r: &ConfigReport, since: bool) -> Vec<RLine> {
    let mut out = Vec::new();
    out.extend([
        field("path", &r.display_path, Role::Title),
        field("key", &r.key, Role::Normal),
        vec![
            // With `--since`, the state is the store's, said as such.
            ours(
                Role::Muted,
                format!("{:<9}", if since { "store" } else { "state" }),
            ),
            ours(state_role(r.state), state_marker(r.state)),
        ],
        field("format", &format_of(&r.key).to_uppercase(), Role::Normal),
    ]);
    let extends: Vec<_> = r.files.iter().skip(1).map(String::as_str).collect();
    if extends.is_empty() {
        out.push(field("extends", "none", Role::Muted));
    } else {
        for (i, f) in extends.iter().enumerate() {
            out.push(field(if i == 0 { "extends" } else { "" }, f, Role::Normal));
        }
    }
    if let Some(h) = r.sha256() {
        out.push(field("sha256", &short_hash(h), Role::Normal));
    }
    match &r.stored {
        Some(s) => {
            out.push(field("trusted", &s.trusted_at, Role::Normal));
            out.push(field("by", &s.trusted_by, Role::Normal));
            if r.sha256() != Some(s.sha256.as_str()) {
                out.push(field("stored", &short_hash(&s.sha256), Role::Changed));
            }
        }
        None => out.push(field("trusted", "never", Role::Muted)),
    }
    out
}

/// The scopes recorded in the store entry, each with the target it had
/// then and has now.
fn target_lines(r: &ConfigReport) -> Vec<RLine> {
    let mut out = Vec::new();
    if let Some(s) = &r.stored
        && !s.targets.is_empty()
    {
        out.push(vec![]);
        out.push(vec![ours(Role::Muted, "targets (recorded -> now)")]);
        for (scope, recorded) in &s.targets {
            let now = r
                .targets()
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
    out
}

/// The detail pane of `r` as the state holds it: with the policy's
/// decision, the comparison with BASE and who changed it, when known.
pub fn config_pane(state: &State, r: &ConfigReport, width: usize) -> Vec<RLine> {
    let judged = state.policy.as_deref().map(|p| (p, state.decision(r)));
    let who = crate::tui::provenance::slot(state, r);
    let reviews = state
        .reviews_of(r)
        .map(|rv| {
            let versions = crate::tui::reviewed::versions(state, &r.key, r.sha256());
            crate::tui::views::reviews::block(r, rv, versions)
        })
        .unwrap_or_default();
    config_content(r, judged, since_shown(state, r), who, &reviews, width)
}

/// The detail pane of a missing or shadowed row as the state holds it:
/// with who deleted a missing one, when asked.
pub fn other_pane(state: &State, o: &OtherRow, width: usize) -> Vec<RLine> {
    other_content(o, crate::tui::deleted::of(state, &o.file.key), width)
}

/// The detail pane of a store entry as the state holds it: with who
/// deleted a missing one's config, when asked.
pub fn entry_pane(state: &State, e: &StoreEntryReport, width: usize) -> Vec<RLine> {
    entry_content(e, crate::tui::deleted::of(state, &e.key), width)
}

/// A store entry's detail; a missing one's says who deleted its config
/// when that was asked (`deleted`, see [`deleted_line`]).
pub fn entry_content(
    e: &StoreEntryReport,
    deleted: Option<&DeletedBy>,
    width: usize,
) -> Vec<RLine> {
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
    if let Some(d) = deleted.filter(|_| e.status == EntryStatus::Missing) {
        out.push(deleted_line(d));
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::fixtures::report;
    use crate::tui::msg::Pending;
    use crate::tui::state::Confirmation;

    /// A never-trusted config reading `t/data`, a link to `~/.ssh`.
    fn linked() -> ConfigReport {
        let mut r = report(
            "t/goccia.json",
            ConfigState::NeverTrusted,
            vec![DiffLine::Unchanged("allow-read: /r/t/data".into())],
        );
        r.loaded_mut().unwrap().targets = vec![("/r/t/data".into(), "/home/u/.ssh".into())];
        r
    }

    fn destination_line(lines: &[RLine]) -> &RLine {
        lines
            .iter()
            .find(|l| l.iter().any(|(_, t)| t.contains("resolves to")))
            .expect("a destination line")
    }

    fn assert_stands_out(line: &RLine) {
        let text: String = line.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(
            text,
            "      » allow-read /r/t/data resolves to /home/u/.ssh"
        );
        assert!(
            line.iter().all(|(role, _)| *role == Role::Changed),
            "{line:?}"
        );
    }

    #[test]
    fn the_detail_pane_shows_where_a_scope_leads() {
        let lines = config_content(&linked(), None, None, None, &[], 120);
        assert_stands_out(destination_line(&lines));
    }

    #[test]
    fn the_confirmation_shows_where_a_scope_leads() {
        let c = Confirmation {
            pending: Pending::Trust(vec![linked()]),
            skipped: Vec::new(),
            policy: None,
            since: None,
            scroll: 0,
            busy: false,
            who: Default::default(),
            deleted: Default::default(),
            reviews: Default::default(),
        };
        let lines = crate::tui::views::confirm::content(&c, 120);
        assert_stands_out(destination_line(&lines));
    }
}

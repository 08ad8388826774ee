//! The confirmation: exactly what will be recorded or removed. What is
//! listed here is what `y` sends to the backend, which refuses if the disk
//! no longer matches it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::core::policy::Verdict;
use crate::core::review::report::report_values;
use crate::core::review::report::{ConfigReport, ConfigState};
use crate::style::roles::verdict_role;
use crate::style::theme::{Role, Theme};
use crate::tui::layout;
use crate::tui::msg::{Pending, Removal};
use crate::tui::state::{Confirmation, Deleted, PolicyShown};
use crate::tui::views::detail::{decision_lines, lines_with_destinations, value_lines_with};
use crate::tui::views::panel::{boxed, render_scrolled};
use crate::tui::views::provenance::{added_lines, deleted_line, provenance_runs};
use crate::tui::views::text::{RLine, ours, untrusted, wrap};

fn plural(n: usize) -> &'static str {
    if n == 1 {
        "config file"
    } else {
        "config files"
    }
}

/// Each entry to remove: its path, key, when it was trusted, who deleted
/// its config when it is gone (`deleted`: the ones asked about), and the
/// lines the store holds.
fn removals(out: &mut Vec<RLine>, items: &[Removal], deleted: &Deleted) {
    for r in items {
        out.push(vec![untrusted(Role::Title, &r.display_path)]);
        out.push(vec![
            ours(Role::Muted, "  key      "),
            untrusted(Role::Normal, &r.key),
        ]);
        out.push(vec![
            ours(Role::Muted, "  trusted  "),
            untrusted(Role::Normal, &r.trusted_at),
        ]);
        if let Some(d) = deleted.get(&r.key) {
            out.push([vec![ours(Role::Muted, "  ")], deleted_line(d)].concat());
        }
        for l in &r.lines {
            out.push(vec![untrusted(Role::Removed, &format!("  - {l}"))]);
        }
        out.push(vec![]);
    }
}

pub fn title(c: &Confirmation) -> String {
    let n = c.pending.len();
    if c.busy {
        return " Writing the store… ".to_string();
    }
    match &c.pending {
        Pending::Trust(_) => match c.policy.as_ref().map(denied) {
            Some(d) if d > 0 => format!(" Trust {n} {}? {d} DENIED by the policy ", plural(n)),
            _ => format!(" Trust {n} {}? ", plural(n)),
        },
        Pending::Untrust(_) => format!(" Untrust {n} {}? ", plural(n)),
        Pending::Prune(_) => format!(
            " Prune {n} missing entr{}? ",
            if n == 1 { "y" } else { "ies" }
        ),
    }
}

/// How many configs to trust the policy DENIES.
fn denied(p: &PolicyShown) -> usize {
    p.decisions
        .values()
        .filter(|d| d.verdict == Verdict::Denied)
        .count()
}

/// `it` or `them`, `is` or `are`.
fn them(n: usize) -> (&'static str, &'static str) {
    if n == 1 {
        ("it", "is")
    } else {
        ("them", "are")
    }
}

/// What the policy says of the configs to trust, first, so it is seen
/// before `y`: the person decides, but trusting what CI would refuse (or
/// leave to a person) is said in so many words.
fn policy_warnings(p: &PolicyShown, total: usize) -> Vec<RLine> {
    let mut out = Vec::new();
    let count = |v: Verdict| p.decisions.values().filter(|d| d.verdict == v).count();
    let (denied, needs) = (count(Verdict::Denied), count(Verdict::NeedsAuth));
    let unjudged = total - p.decisions.len();
    if denied > 0 {
        let (it, is) = them(denied);
        out.push(vec![ours(
            Role::Error,
            format!(
                "⚠ {denied} of these {is} DENIED by the policy: trust --yes --policy would refuse {it}; y trusts {it} anyway, on your judgement alone."
            ),
        )]);
    }
    if needs > 0 {
        let (it, is) = them(needs);
        out.push(vec![ours(
            Role::Changed,
            format!(
                "{needs} of these {is} NEEDS_AUTH under the policy: CI leaves {it} to a person; y is that authorization."
            ),
        )]);
    }
    if unjudged > 0 {
        out.push(vec![ours(
            Role::Changed,
            format!("{unjudged} of these not judged by the policy yet (r rescans)."),
        )]);
    }
    if !out.is_empty() {
        out.push(vec![]);
    }
    out
}

pub fn content(c: &Confirmation, width: usize) -> Vec<RLine> {
    let mut out: Vec<RLine> = Vec::new();
    match &c.pending {
        Pending::Trust(reports) => out.extend(trust_lines(c, reports, width)),
        Pending::Untrust(items) => {
            out.push(vec![ours(
                Role::Muted,
                "These entries will be removed from the trust store:",
            )]);
            out.push(vec![]);
            removals(&mut out, items, &c.deleted);
        }
        Pending::Prune(items) => {
            out.push(vec![ours(
                Role::Muted,
                "These entries name configs that no longer exist and will be removed:",
            )]);
            out.push(vec![]);
            removals(&mut out, items, &c.deleted);
        }
    }
    if !c.skipped.is_empty() {
        out.push(vec![ours(Role::Muted, "Left out:")]);
        for (path, why) in &c.skipped {
            out.push(vec![
                untrusted(Role::Normal, &format!("  {path}")),
                ours(Role::Muted, format!("  ({why})")),
            ]);
        }
        out.push(vec![]);
    }
    out.push(vec![ours(
        Role::Muted,
        "y writes exactly this; if anything changed on disk since, nothing is written.",
    )]);
    wrap(&out, width)
}

/// What trusting `reports` records: each config with its key, sha256
/// and lines (a changed one value by value), and what the policy says.
fn trust_lines(c: &Confirmation, reports: &[ConfigReport], width: usize) -> Vec<RLine> {
    let mut out: Vec<RLine> = Vec::new();
    if let Some(p) = &c.policy {
        out.extend(policy_warnings(p, reports.len()));
    }
    out.push(vec![ours(
        Role::Muted,
        "These entries will be recorded in the trust store:",
    )]);
    if let Some(rev) = &c.since {
        // The list compared with BASE; what is written is each
        // config as it is now, shown against its store entry.
        out.push(vec![
            ours(
                Role::Muted,
                "each config as it is now (the list compares with ",
            ),
            untrusted(Role::Muted, rev),
            ours(Role::Muted, "; these lines compare with the store)"),
        ]);
    }
    out.push(vec![]);
    for r in reports {
        out.extend(config_to_trust(c, r, width));
    }
    if let Some(p) = &c.policy {
        out.push(vec![
            ours(Role::Muted, "Judged by policy "),
            untrusted(Role::Muted, &p.label),
        ]);
        out.push(vec![]);
    }
    out
}

/// One config the confirmation would trust, and who made its values
/// where that was read.
fn config_to_trust(c: &Confirmation, r: &ConfigReport, width: usize) -> Vec<RLine> {
    let mut out: Vec<RLine> = Vec::new();
    let tag = if r.state == ConfigState::Changed {
        "(changed)"
    } else {
        "(new)"
    };
    let mut head = vec![
        untrusted(Role::Title, &r.display_path),
        ours(Role::Changed, format!(" {tag}")),
    ];
    let decision = c.policy.as_ref().and_then(|p| p.decisions.get(&r.key));
    if let Some(d) = decision {
        head.push(ours(
            verdict_role(d.verdict),
            format!("  {}", d.verdict.as_str()),
        ));
    }
    out.push(head);
    out.push(vec![
        ours(Role::Muted, "  key      "),
        untrusted(Role::Normal, &r.key),
    ]);
    out.push(vec![
        ours(Role::Muted, "  sha256   "),
        untrusted(Role::Normal, r.sha256().unwrap_or("?")),
    ]);
    // Who reviewed it, each record as the detail pane says it (issue 43).
    if let Some(rv) = c.reviews.get(&r.key) {
        out.extend(crate::tui::views::reviews::confirmation_lines(rv));
    }
    // A changed config value by value, as the detail pane
    // shows it (issue 30): a one-host change in a long list
    // is that host, not the list twice.
    let values = if r.state == ConfigState::Changed {
        report_values(r)
    } else {
        Vec::new()
    };
    if values.is_empty() {
        out.extend(lines_with_destinations(&r.lines, r.targets()));
        // A new config: the commit that added it.
        if r.state == ConfigState::NeverTrusted {
            out.extend(added_lines(c.who.get(&r.key)));
        }
    } else {
        // Indented under the config, as its lines are.
        // Each widening value with its commit and author,
        // when its provenance was read.
        let who = c.who.get(&r.key);
        let origin = |v: &crate::core::review::value_diff::ValueChange| match who {
            Some(Some(Ok(p))) => provenance_runs(p, &v.request, &v.value),
            _ => Vec::new(),
        };
        out.extend(
            value_lines_with(&values, width.saturating_sub(2), &origin)
                .into_iter()
                .map(|l| [vec![ours(Role::Normal, "  ")], l].concat()),
        );
    }
    // Why the policy would not trust it, request by request.
    if let Some(d) = decision {
        out.extend(decision_lines(d, &[Verdict::Denied, Verdict::NeedsAuth]));
    }
    out.push(vec![]);
    out
}

pub fn render(c: &Confirmation, theme: &Theme, frame: &mut Frame, body: Rect) {
    let area = layout::popup(body);
    let lines = content(c, area.width.saturating_sub(2) as usize);
    let block = boxed(Line::from(title(c)), theme);
    render_scrolled(&lines, c.scroll, block, theme, frame, area, true);
}

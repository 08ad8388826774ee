//! Signed reviews as the detail pane and the trust confirmation draw them
//! (issue 43): the lines `inspect` prints under `Reviews:` (the portable
//! digest, then one status line per record, the reviews file's own
//! problems) and, for an outdated review whose version git still holds,
//! the requests' diff since that version, each changed value followed by
//! whose review it is since. Principals, notes and commit text are written
//! by whoever can push: all of it goes through `untrusted`.

use crate::core::review::report::ConfigReport;
use crate::core::review::value_diff::{Change, block_values, diff_values};
use crate::core::revision::provenance::reviewed::ReviewedVersion;
use crate::core::team::each_config::ConfigReviews;
use crate::core::team::verify::Status;
use crate::style::roles::review_role;
use crate::style::theme::Role;
use crate::tui::state::ReviewedSlot;
use crate::tui::views::provenance::commit_after;
use crate::tui::views::text::{RLine, ours, untrusted};

/// The `Reviews` block: a heading saying what the records were judged by,
/// the digest, the file's problems, each record's status line, then what
/// changed since each outdated review (`versions`, once asked).
pub fn block(
    r: &ConfigReport,
    reviews: &ConfigReviews,
    versions: Option<&ReviewedSlot>,
) -> Vec<RLine> {
    let mut out = vec![heading(reviews)];
    out.extend(status_lines(reviews, "  "));
    out.extend(since_lines(r, reviews, versions));
    out
}

/// `Reviews  judged by <file>`, or that nothing judged them.
fn heading(reviews: &ConfigReviews) -> RLine {
    let mut line = vec![ours(Role::Title, "Reviews  ")];
    match &reviews.signers {
        Some(file) => {
            line.push(ours(Role::Muted, "judged by "));
            line.push(untrusted(Role::Muted, file));
        }
        None => line.push(ours(
            Role::Changed,
            "no allowed signers: none is checked (--reviewed-by FILE)",
        )),
    }
    line
}

/// `Digest: sha256:…`, the reviews file's problems, and one line per
/// record in its status's style (as `inspect` prints them), indented by
/// `indent`.
pub fn status_lines(reviews: &ConfigReviews, indent: &str) -> Vec<RLine> {
    let mut out = vec![vec![
        ours(Role::Muted, format!("{indent}Digest: ")),
        untrusted(Role::Normal, &reviews.digest),
    ]];
    for note in reviews.notes.iter() {
        out.push(vec![
            ours(Role::Error, indent),
            untrusted(Role::Error, note),
        ]);
    }
    if reviews.checked.is_empty() {
        out.push(vec![ours(
            Role::Muted,
            format!("{indent}no review of this config"),
        )]);
    }
    for c in &reviews.checked {
        let role = review_role(c.status);
        out.push(vec![ours(role, indent), untrusted(role, &c.text)]);
    }
    out
}

/// A config's reviews in the trust confirmation, under its key and
/// sha256: `  reviews  ` and what the list says of them, then each
/// record's status line.
pub fn confirmation_lines(reviews: &ConfigReviews) -> Vec<RLine> {
    let marks = reviews.marks();
    let mut head = vec![ours(Role::Muted, "  reviews  ")];
    if marks.is_empty() {
        head.push(ours(Role::Muted, "none of this config"));
    }
    for (i, m) in marks.into_iter().enumerate() {
        if i > 0 {
            head.push(ours(Role::Muted, " · "));
        }
        head.push(ours(crate::style::roles::review_mark_role(m), m.text()));
    }
    if reviews.signers.is_none() && !reviews.checked.is_empty() {
        head.push(ours(Role::Changed, " (no allowed signers: none checked)"));
    }
    let mut out = vec![head];
    for note in reviews.notes.iter() {
        out.push(vec![
            ours(Role::Error, "    "),
            untrusted(Role::Error, note),
        ]);
    }
    for c in &reviews.checked {
        let role = review_role(c.status);
        out.push(vec![ours(role, "    "), untrusted(role, &c.text)]);
    }
    out
}

/// Who reviewed the version of `digest`: `alice@example.com`, or several
/// joined by `and`.
fn reviewers_of(reviews: &ConfigReviews, digest: &str) -> String {
    let mut names: Vec<&str> = Vec::new();
    for c in &reviews.checked {
        if let (Status::EarlierVersion, Some(rec)) = (c.status, &c.record)
            && rec.digest == digest
            && !names.contains(&rec.principal.as_str())
        {
            names.push(&rec.principal);
        }
    }
    names.join(" and ")
}

/// For each outdated review, the requests' diff since its version: `+
/// allow-net: evil.example.com since alice@example.com's review` (under
/// the commit that holds that version), or why it is not known.
fn since_lines(
    r: &ConfigReport,
    reviews: &ConfigReviews,
    versions: Option<&ReviewedSlot>,
) -> Vec<RLine> {
    let digests = reviews.earlier_digests();
    if digests.is_empty() {
        return Vec::new();
    }
    let label = |text: String| vec![ours(Role::Muted, format!("  reviewed version: {text}"))];
    let found = match versions.map(|s| &s.data) {
        None => return Vec::new(),
        Some(None) => return vec![label("reading git…".into())],
        Some(Some(Err(absent))) => return vec![label(absent.describe())],
        Some(Some(Ok(v))) => v,
    };
    let mut out = Vec::new();
    for digest in &digests {
        let who = reviewers_of(reviews, digest);
        match found.found.iter().find(|v| &v.digest == digest) {
            Some(v) => out.extend(diff_since(r, v, &who)),
            None => {
                let short = &digest[..digest.len().min("sha256:".len() + 8)];
                out.push(vec![
                    ours(Role::Muted, "  reviewed version "),
                    untrusted(Role::Muted, short),
                    ours(Role::Muted, "… of "),
                    untrusted(Role::Muted, &who),
                    ours(Role::Muted, ": "),
                    untrusted(Role::Muted, &found.not_found),
                ]);
            }
        }
    }
    out
}

/// The values added, removed or re-targeted since `v`, one line each.
fn diff_since(r: &ConfigReport, v: &ReviewedVersion, who: &str) -> Vec<RLine> {
    let c = &v.commit;
    let mut out = vec![commit_after("  reviewed version: ", c)];
    let now = r.block_json().map(block_values).unwrap_or_default();
    let then = block_values(v.block.json());
    let changed: Vec<_> = diff_values(&then, &now, r.targets(), &[])
        .into_iter()
        .filter(|v| v.change != Change::Unchanged)
        .collect();
    if changed.is_empty() {
        out.push(vec![ours(
            Role::Muted,
            "  the requests are as reviewed; where a path leads changed",
        )]);
    }
    for value in changed {
        let role = match value.change {
            Change::Added => Role::Added,
            Change::Removed => Role::Removed,
            _ => Role::Changed,
        };
        out.push(vec![
            ours(role, format!("  {} ", value.change.sign())),
            untrusted(role, &format!("{}: {}", value.request, value.value)),
            ours(Role::Muted, " since "),
            untrusted(Role::Title, who),
            ours(Role::Muted, "'s review"),
        ]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::review::report::{ConfigState, DiffLine};
    use crate::core::revision::provenance::Absent;
    use crate::core::team::record::Record;
    use crate::core::team::verify::Checked;
    use crate::tui::fixtures::report;

    fn outdated() -> ConfigReviews {
        let digest = format!("sha256:{}", "1".repeat(64));
        let mut reviews = ConfigReviews::fixture(
            vec![Checked {
                line: 1,
                record: Some(Record {
                    digest,
                    key: "SHA256:k".into(),
                    note: String::new(),
                    path: "a/goccia.json".into(),
                    principal: "alice@example.com\u{202e}".into(),
                    sig: String::new(),
                    signed_at: "2026-11-20T10:00:00Z".into(),
                }),
                key_type: Some("ED25519"),
                status: Status::EarlierVersion,
                text: "alice@example.com\u{202e} reviewed an earlier version (sha256:11111111…) 2026-11-20".into(),
            }],
            0,
        );
        reviews.notes = ["line 3: merge conflict marker".to_string()].into();
        reviews
    }

    fn text(lines: &[RLine]) -> String {
        lines
            .iter()
            .map(|l| l.iter().map(|(_, t)| t.as_str()).collect::<String>() + "\n")
            .collect()
    }

    #[test]
    fn the_block_says_what_judged_it_and_each_state_of_the_git_read() {
        let r = report(
            "a/goccia.json",
            ConfigState::NeverTrusted,
            vec![DiffLine::Unchanged("allow-net: a.test".into())],
        );
        let rv = outdated();
        let shown = text(&block(&r, &rv, None));
        assert!(
            shown.starts_with("Reviews  no allowed signers: none is checked"),
            "{shown}"
        );
        assert!(
            shown.contains("\n  line 3: merge conflict marker\n"),
            "{shown}"
        );
        assert!(
            shown.contains("alice@example.com\\u{202e} reviewed an earlier version"),
            "{shown}"
        );
        assert!(!shown.contains("reviewed version"), "{shown}");
        let reading = ReviewedSlot {
            sha256: "s".into(),
            data: None,
        };
        let shown = text(&block(&r, &rv, Some(&reading)));
        assert!(
            shown.ends_with("  reviewed version: reading git…\n"),
            "{shown}"
        );
        let absent = ReviewedSlot {
            sha256: "s".into(),
            data: Some(Err(Absent {
                reason: "not in a git repository".into(),
            })),
        };
        let shown = text(&block(&r, &rv, Some(&absent)));
        assert!(
            shown.ends_with("  reviewed version: no provenance: not in a git repository\n"),
            "{shown}"
        );
        let none = ReviewedSlot {
            sha256: "s".into(),
            data: Some(Ok(
                crate::core::revision::provenance::reviewed::ReviewedVersions {
                    found: Vec::new(),
                    not_found: "not found in the last 100 commits that touched it".into(),
                },
            )),
        };
        let shown = text(&block(&r, &rv, Some(&none)));
        assert!(
            shown.ends_with("  reviewed version sha256:11111111… of alice@example.com\\u{202e}: not found in the last 100 commits that touched it\n"),
            "{shown}"
        );
    }
}

//! `diff --format sarif|github`: one finding per widened, broken or
//! narrowed config (unchanged ones are not findings), at the place the
//! result gives it (`cli::outcome::diff::Place`: the request's line at HEAD), then
//! one per path at HEAD that was not read; written through `cli::ci_out`.

use crate::cli::ci_out::{Finding, Log, Rule};
use crate::cli::io::Io;
use crate::cli::outcome::diff::{DiffResult, Listed, ListedValue, Place};
use crate::cli::print::text::diff::{origin_text, relinked};
use crate::core::review::value_diff::Change;
use crate::core::revision::compare::{
    ConfigDiff, DiffValue, NotRead, RevisionDiff, Status, Verdict,
};
use crate::sanitize::clean;

/// Workflow commands (`github`), else the SARIF log, on stdout.
pub fn print(r: &DiffResult, github: bool, io: &mut Io<'_>) -> std::io::Result<()> {
    let found = findings(r);
    let not_read = notes(&r.diff);
    let log = Log {
        rules: &Rule::DIFF,
        findings: &found,
        src_root: &r.root,
        not_read: &not_read,
    };
    log.write(github, io)
}

/// The findings, in the configs' order, then what was not read.
pub fn findings(r: &DiffResult) -> Vec<Finding> {
    let diff = &r.diff;
    let span = format!("from {} to {}", clean(&diff.base), clean(&diff.head));
    let mut out: Vec<Finding> = r
        .configs()
        .filter_map(|l| Some(finding(r, &span, l, l.at_head.place.as_ref()?)))
        .collect();
    out.extend(diff.not_read.iter().map(|n| not_read(diff, n)));
    out
}

/// A rule, its message, and what identifies the finding.
type Said = (Rule, String, String);

fn finding(r: &DiffResult, span: &str, l: Listed<'_>, place: &Place) -> Finding {
    let (diff, c) = (&r.diff, l.config);
    let (rule, message, identity) = match c.verdict {
        Verdict::Broken => broken(diff, c),
        Verdict::Widened if c.status == Status::Removed => removed(span, c, place),
        Verdict::Widened => widened(r, span, l),
        // An unchanged config has no place, so no finding.
        Verdict::Narrowed | Verdict::Same => narrowed(span, c),
    };
    // Who reviewed it: part of the message, not of what identifies it.
    let mut message = message;
    if let Some(h) = &l.at_head.reviews {
        message.push('\n');
        message.push_str(&clean(&h.summary()));
    }
    Finding {
        rule,
        path: place.path.clone(),
        line: place.line,
        message,
        state: None,
        status: Some(c.status.name()),
        identity,
    }
}

fn changed(c: &ConfigDiff) -> impl Iterator<Item = &DiffValue> + Clone {
    c.values.iter().filter(|v| v.change != Change::Unchanged)
}

/// [`changed`] with each value's origin.
fn changed_listed<'a>(l: Listed<'a>) -> impl Iterator<Item = ListedValue<'a>> + Clone {
    l.values().filter(|v| v.value.change != Change::Unchanged)
}

fn broken(diff: &RevisionDiff, c: &ConfigDiff) -> Said {
    let error = c.head_error.as_ref().or(c.base_error.as_ref());
    let message = format!(
        "{} ({}) does not load at {}: {}",
        clean(&c.path),
        c.status.name(),
        clean(&diff.head),
        clean(error.map_or("", |e| e.message.as_str()))
    );
    (Rule::Broken, message, c.status.name().to_string())
}

/// A removed config that widened: the parent its directory now falls
/// under allows more (the values it gains), or its directory became a link.
fn removed(span: &str, c: &ConfigDiff, place: &Place) -> Said {
    let detail = match (&c.now_under, &c.relinked) {
        (Some(parent), _) => format!(
            "its directory now falls under {}, which allows more:\n{}",
            clean(parent),
            value_lines(place.gained.iter()).join("\n")
        ),
        (None, Some(link)) => clean(&relinked(link)).into_owned(),
        (None, None) => value_lines(changed(c)).join("\n"),
    };
    let shown = clean(&c.path);
    (
        Rule::Widened,
        format!("{shown} (removed) widened permissions {span}: {detail}"),
        format!("{shown} (removed): {detail}"),
    )
}

/// An added or changed config that widened: its widening values first,
/// each with the commit that introduced it (not part of what identifies
/// the finding: the same change by someone else is the same finding).
fn widened(r: &DiffResult, span: &str, l: Listed<'_>) -> Said {
    let (diff, c) = (&r.diff, l.config);
    let mut message = format!(
        "{} ({}) widened permissions {span}",
        clean(&c.path),
        c.status.name()
    );
    if let Some(e) = &c.base_error {
        message.push_str(&format!(
            " (it did not load at {}: {})",
            clean(&diff.base),
            clean(&e.message)
        ));
    }
    let values = changed_listed(l).filter(|v| v.value.widens);
    let lines = listed_lines(
        values.chain(changed_listed(l).filter(|v| !v.value.widens)),
        r,
    );
    let mut said = with_lines(Rule::Widened, message, lines);
    if let Some(absent) = &r.provenance {
        said.1.push('\n');
        said.1.push_str(&clean(&absent.describe()));
    }
    said
}

fn narrowed(span: &str, c: &ConfigDiff) -> Said {
    let message = format!(
        "{} ({}) narrowed permissions {span}",
        clean(&c.path),
        c.status.name()
    );
    let lines = value_lines(changed(c))
        .into_iter()
        .map(|l| (l, String::new()));
    with_lines(Rule::Narrowed, message, lines.collect())
}

/// The message followed by one value a line, each with its origin; the
/// values without their origins identify it.
fn with_lines(rule: Rule, mut message: String, lines: Vec<(String, String)>) -> Said {
    for (l, origin) in &lines {
        message.push('\n');
        message.push_str(l);
        message.push_str(origin);
    }
    let identity: Vec<&str> = lines.iter().map(|(l, _)| l.as_str()).collect();
    (rule, message, identity.join("\n"))
}

/// Each value's line and, apart, its origin's text (escaped).
fn listed_lines<'a>(
    values: impl Iterator<Item = ListedValue<'a>>,
    r: &DiffResult,
) -> Vec<(String, String)> {
    values
        .map(|v| {
            let origin = v
                .origin
                .map(|o| origin_text(o, &r.diff.base, |s| clean(s).into_owned()))
                .unwrap_or_default();
            (value_line(v.value), origin)
        })
        .collect()
}

fn value_lines<'a>(values: impl Iterator<Item = &'a DiffValue>) -> Vec<String> {
    values.map(value_line).collect()
}

/// One value's line: where CI writes a value, and only here.
fn value_line(v: &DiffValue) -> String {
    let mark = if v.widens { "  (widens)" } else { "" };
    format!(
        "{}: {} {}{mark}",
        clean(&v.request),
        v.change.sign(),
        clean(&v.shown())
    )
}

fn not_read(diff: &RevisionDiff, n: &NotRead) -> Finding {
    Finding {
        rule: Rule::NotRead,
        path: n.path.clone(),
        line: None,
        message: format!(
            "{} at {}; the comparison is incomplete",
            clean(&n.message),
            clean(&diff.head)
        ),
        state: None,
        status: None,
        identity: clean(&n.message).into_owned(),
    }
}

/// What either side could not read, each line naming its side.
fn notes(diff: &RevisionDiff) -> Vec<String> {
    let base = diff
        .base_notes
        .iter()
        .map(|n| format!("{}: {n}", diff.base));
    let head = diff
        .head_notes
        .iter()
        .map(|n| format!("{}: {n}", diff.head));
    base.chain(head).collect()
}

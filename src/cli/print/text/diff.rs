//! `diff`'s result as text: every config-derived value escaped whole (a
//! newline or an escape sequence in a path scope cannot forge a line, on a
//! terminal or in a CI log), the verdicts and signs coloured from the data.

use std::fmt::Write as _;

use crate::cli::io::Io;
use crate::cli::outcome::diff::{DiffResult, Listed, ListedValue};
use crate::cli::outcome::diff_reviews::HeadReviews;
use crate::core::revision::compare::{RevisionDiff, Status, Verdict};
use crate::core::revision::provenance::ValueOrigin;
use crate::sanitize::clean;
use crate::style::paint::{mark, styled};
use crate::style::theme::Role;

pub fn print(r: &DiffResult, io: &mut Io<'_>) -> std::io::Result<()> {
    io.out.write_all(render(r).as_bytes())
}

fn render(r: &DiffResult) -> String {
    let diff = &r.diff;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Permission diff of {} from {} to {}",
        clean(&r.root),
        clean(&diff.base),
        clean(&diff.head)
    );
    if r.working_tree() {
        out.push_str("(symlink targets are resolved on disk for the working tree only)\n");
    }
    for l in r.listed() {
        config(&mut out, diff, l);
    }
    notes(&mut out, diff);
    if let Some(absent) = &r.provenance {
        let _ = writeln!(out, "note: {}", clean(&absent.describe()));
    }
    let _ = writeln!(out, "\n{}", summary(diff));
    if diff.incomplete() {
        let _ = writeln!(out, "{}", incomplete(diff, |r| clean(r).into_owned()));
    }
    out
}

/// One config: its status and verdict, why, and its values.
fn config(out: &mut String, diff: &RevisionDiff, l: Listed<'_>) {
    let c = l.config;
    let verdict = format!("({})", c.verdict.name());
    let verdict = match c.verdict {
        Verdict::Widened => mark(Role::Untrusted, &verdict),
        Verdict::Broken => mark(Role::Error, &verdict),
        Verdict::Narrowed => mark(Role::Trusted, &verdict),
        Verdict::Same => verdict,
    };
    let _ = write!(out, "\n{} {} {verdict}\n", c.status.name(), clean(&c.path));
    if let Some(e) = &c.base_error {
        let _ = writeln!(out, "  at {}: {}", clean(&diff.base), clean(&e.message));
    }
    if let Some(e) = &c.head_error {
        let _ = writeln!(out, "  at {}: {}", clean(&diff.head), clean(&e.message));
    }
    if let Some(p) = &c.now_under {
        let _ = writeln!(
            out,
            "  its directory now falls under {}, which allows more",
            clean(p)
        );
        // What it allows more, as CI's message says it.
        for v in l.at_head.place.iter().flat_map(|p| &p.gained) {
            let _ = writeln!(
                out,
                "    {}: {} {}  (widens)",
                clean(&v.request),
                v.change.sign(),
                clean(&v.shown())
            );
        }
    }
    if let Some(link) = &c.relinked {
        let _ = writeln!(out, "  {}", clean(&relinked(link)));
    }
    for (request, values) in l.groups() {
        let _ = writeln!(out, "  {}", clean(request));
        for v in values {
            value_line(out, v, &diff.base);
        }
    }
    if let Some(h) = &l.at_head.reviews {
        reviews(out, h);
    }
}

/// The config's signed reviews at HEAD: who reviewed this version, or
/// that no one did and why, then each record that did not count.
fn reviews(out: &mut String, h: &HeadReviews) {
    let _ = writeln!(out, "  {}", clean(&h.summary()));
    for c in h.not_counted() {
        let _ = writeln!(out, "    {}", clean(&c.text));
    }
}

/// One value's line: where text writes a value, and only here. `base`:
/// BASE as given, for a value whose line is BASE's.
fn value_line(out: &mut String, l: ListedValue<'_>, base: &str) {
    let v = l.value;
    let widens = if v.widens { "  (widens)" } else { "" };
    let sign = v.change.sign().to_string();
    let sign = match v.change.emphasis() {
        Some(e) => styled(e, &sign),
        None => sign,
    };
    let origin = l
        .origin
        .map(|o| origin_text(o, base, |s| clean(s).into_owned()))
        .unwrap_or_default();
    let _ = writeln!(out, "    {sign} {}{widens}{origin}", clean(&v.shown()));
}

/// Where a widening value comes from, after its line (the CI message's and
/// markdown's too), every part from git or the user escaped by `escape`
/// (each format its way): ` · a1b2c3d Mallory 2026-03-01 "bump deps"`,
/// ` · as at BASE`, ` · not committed`, ` · origin unknown: why`.
pub fn origin_text(o: &ValueOrigin, base: &str, escape: impl Fn(&str) -> String) -> String {
    match o {
        ValueOrigin::Committed(c) => format!(
            " · {} {} {} \"{}\"",
            escape(&c.short),
            escape(&c.author),
            escape(c.day()),
            escape(&c.subject)
        ),
        ValueOrigin::AtBase => format!(" · as at {}", escape(base)),
        ValueOrigin::NotCommitted => " · not committed".to_string(),
        ValueOrigin::Unknown(why) => format!(" · origin unknown: {}", escape(why)),
    }
}

/// Every note of either side, then what HEAD holds that was not read.
fn notes(out: &mut String, diff: &RevisionDiff) {
    for (label, notes) in [
        (&diff.base, &diff.base_notes),
        (&diff.head, &diff.head_notes),
    ] {
        for n in notes {
            let _ = writeln!(out, "note ({}): {}", clean(label), clean(n));
        }
    }
    for n in &diff.not_read {
        let _ = writeln!(
            out,
            "not read ({}): {}",
            clean(&diff.head),
            clean(&n.message)
        );
    }
}

/// `N configs changed: W widened, N narrowed, B broken` (markdown's too).
pub fn summary(diff: &RevisionDiff) -> String {
    let changed = diff
        .configs
        .iter()
        .filter(|c| c.status != Status::Unchanged)
        .count();
    format!(
        "{changed} config{} changed: {} widened, {} narrowed, {} broken",
        if changed == 1 { "" } else { "s" },
        diff.count(Verdict::Widened),
        diff.count(Verdict::Narrowed),
        diff.count(Verdict::Broken)
    )
}

/// What a config removed because its directory became a link means (the
/// CI message's too); not escaped.
pub fn relinked(link: &str) -> String {
    format!("its directory is now a symbolic link ({link}): its files are whatever that leads to")
}

/// The line that says the comparison is incomplete (markdown's too), with
/// HEAD's name as `revision` writes it: the name is typed by the user but
/// may be a branch someone else chose, so each format escapes it its way.
pub fn incomplete(diff: &RevisionDiff, revision: impl Fn(&str) -> String) -> String {
    let n = diff.not_read.len();
    format!(
        "incomplete: {n} path{} at {} not read; a config may hide there",
        if n == 1 { "" } else { "s" },
        revision(&diff.head)
    )
}

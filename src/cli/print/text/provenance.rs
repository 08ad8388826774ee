//! Who changed what, as text under a changed config (`inspect`, `scan` on a
//! terminal, `trust --why`): the commits since it was trusted, one line
//! each (short id, day, author and email, subject), then each added value
//! with the commit that made it a grant, or that it is not committed, and
//! each re-targeted scope with the commit that re-pointed its link. Commit
//! text is written by whoever controls the repository: every part of it is
//! escaped as config text is, where it is written.

use crate::cli::terminal::Values;
use crate::core::revision::provenance::{Commit, CommitsSince, ValueOrigin};
use crate::core::revision::review_provenance::Provenance;
use crate::style::paint::mark;
use crate::style::theme::Role;

/// The block, each line starting with `indent`: why there is no
/// provenance, or the commits and the origins.
pub fn block(p: &Provenance, indent: &str) -> String {
    let p = match p {
        Ok(p) => p,
        Err(absent) => return format!("{indent}{}\n", Values.text(&absent.describe())),
    };
    let mut out = match &p.commits {
        Ok(since) => commits(since, indent),
        Err(absent) => format!("{indent}{}\n", Values.text(&absent.describe())),
    };
    match &p.origins {
        Ok(origins) => {
            for (request, value, origin) in origins {
                out.push_str(&format!(
                    "{indent}added {}: {}{}\n",
                    Values.text(request),
                    Values.text(value),
                    origin_text(origin)
                ));
            }
        }
        Err(absent) => out.push_str(&format!(
            "{indent}origins: {}\n",
            Values.text(&absent.describe())
        )),
    }
    for (request, value, origin) in &p.retargets {
        out.push_str(&format!(
            "{indent}re-targeted {}: {}{}\n",
            Values.text(request),
            Values.text(value),
            origin_text(origin)
        ));
    }
    out
}

/// Only the values' lines of [`block`] (`added X: Y · a1b2c3d Bob
/// 2026-12-01`), nothing when git could not say: what the `trust` prompt
/// names on a terminal.
pub fn origins_only(p: &Provenance, indent: &str) -> String {
    let Ok(p) = p else {
        return String::new();
    };
    let mut out = String::new();
    for (request, value, origin) in p.origins.iter().flatten() {
        out.push_str(&format!(
            "{indent}added {}: {}{}\n",
            Values.text(request),
            Values.text(value),
            origin_text(origin)
        ));
    }
    for (request, value, origin) in &p.retargets {
        out.push_str(&format!(
            "{indent}re-targeted {}: {}{}\n",
            Values.text(request),
            Values.text(value),
            origin_text(origin)
        ));
    }
    out
}

/// Said under the heading when no commit holds the trusted version.
pub const BY_DATE: &str = "counted by date: no commit holds the trusted version";

/// `2 commits since trusted:` and one line per commit, newest first (by
/// date when no commit holds the trusted version, which a line says).
fn commits(since: &CommitsSince, indent: &str) -> String {
    let n = since.commits.len();
    let mut out = format!(
        "{indent}{}\n",
        match (n, since.more) {
            // Not "not committed": the store's time and the committer's
            // clock may disagree; each value's origin says it.
            (0, _) => "no commit since trusted".to_string(),
            (1, _) => "1 commit since trusted:".to_string(),
            (n, false) => format!("{n} commits since trusted:"),
            (n, true) => format!("more than {n} commits since trusted, the newest {n}:"),
        }
    );
    if since.by_date {
        out.push_str(&format!("{indent}  ({BY_DATE})\n"));
    }
    for c in &since.commits {
        out.push_str(&format!("{indent}  {}\n", commit_line(c)));
    }
    for path in &since.outside {
        out.push_str(&format!(
            "{indent}  no history: {} is outside the repository\n",
            Values.text(path)
        ));
    }
    out
}

/// `a1b2c3d 2026-12-01 Mallory <m@example.com>  bump deps`.
pub fn commit_line(c: &Commit) -> String {
    let v = Values;
    format!(
        "{} {} {} <{}>  {}",
        mark(Role::Changed, &v.text(&c.short)),
        v.text(c.day()),
        v.text(&c.author),
        v.text(&c.email),
        v.text(&c.subject)
    )
}

/// The end of an added value's line: ` · a1b2c3d Mallory 2026-12-01`,
/// ` · not committed`, or why the origin is not known.
fn origin_text(origin: &ValueOrigin) -> String {
    let v = Values;
    match origin {
        ValueOrigin::Committed(c) => format!(
            " · {} {} {}",
            mark(Role::Changed, &v.text(&c.short)),
            v.text(&c.author),
            v.text(c.day())
        ),
        ValueOrigin::NotCommitted => format!(" · {}", mark(Role::Changed, "not committed")),
        ValueOrigin::AtBase => " · as at the base".to_string(),
        ValueOrigin::Unknown(why) => format!(" · origin unknown: {}", v.text(why)),
    }
}

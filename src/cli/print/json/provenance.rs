//! Who changed what, as JSON (`defs.schema.json#/$defs/provenance`): the
//! commits since the config was trusted and each added value's origin, or
//! why they are absent. Commit text is written as git holds it: JSON's own
//! escaping keeps it a string, never a line of its own.

use serde::Serialize;

use crate::core::revision::provenance::{Commit, ValueOrigin};
use crate::core::revision::review_provenance::Provenance;

/// One config's provenance.
#[derive(Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct JsonProvenance<'a> {
    /// Why there is no provenance at all (not in a git repository, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub absent: Option<String>,
    /// The repository's root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root: Option<&'a str>,
    /// The commits that touched the config's files since it was trusted,
    /// newest first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commits: Option<Vec<JsonCommit<'a>>>,
    /// More commits than listed touched them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub more: Option<bool>,
    /// The commit holding the trusted version (the commits are those
    /// after it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trusted_commit: Option<&'a str>,
    /// No commit holds the trusted version: the commits are counted from
    /// `trustedAt` by their date.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub by_date: bool,
    /// Files of the chain outside the repository.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside: Option<&'a [String]>,
    /// Why the commits are absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commits_absent: Option<String>,
    /// Each added value's origin.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origins: Option<Vec<JsonValueOrigin<'a>>>,
    /// Why the origins are absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origins_absent: Option<String>,
    /// Each re-targeted scope and the commit that re-pointed its link.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub retargets: Vec<JsonValueOrigin<'a>>,
}

/// A commit as `git log` describes it.
#[derive(Serialize)]
pub struct JsonCommit<'a> {
    pub sha: &'a str,
    pub short: &'a str,
    pub author: &'a str,
    pub email: &'a str,
    /// The author date, strict ISO 8601.
    pub date: &'a str,
    pub subject: &'a str,
}

/// An added value and where the line holding it comes from.
#[derive(Serialize)]
pub struct JsonValueOrigin<'a> {
    pub request: &'a str,
    pub value: &'a str,
    pub origin: JsonOrigin<'a>,
}

/// Where the line holding a value comes from (`defs.schema.json#/$defs/origin`),
/// the same object in `inspect`, `trust --why` and `diff`:
/// `{"kind": "commit", "commit": {...}}`, `{"kind": "base"}` (the line is
/// as at BASE), `{"kind": "notCommitted"}` or `{"kind": "unknown",
/// "reason"}`. Commit text is carried raw.
#[derive(Serialize)]
pub struct JsonOrigin<'a> {
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<JsonCommit<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'a str>,
}

/// `c` as its JSON object.
pub fn commit(c: &Commit) -> JsonCommit<'_> {
    JsonCommit {
        sha: &c.sha,
        short: &c.short,
        author: &c.author,
        email: &c.email,
        date: &c.date,
        subject: &c.subject,
    }
}

/// `o` as its JSON object.
pub fn origin(o: &ValueOrigin) -> JsonOrigin<'_> {
    let (kind, commit_of, reason) = match o {
        ValueOrigin::Committed(c) => ("commit", Some(commit(c)), None),
        ValueOrigin::AtBase => ("base", None, None),
        ValueOrigin::NotCommitted => ("notCommitted", None, None),
        ValueOrigin::Unknown(why) => ("unknown", None, Some(why.as_str())),
    };
    JsonOrigin {
        kind,
        commit: commit_of,
        reason,
    }
}

/// `p` as its JSON object.
pub fn of(p: &Provenance) -> JsonProvenance<'_> {
    let p = match p {
        Ok(p) => p,
        Err(absent) => {
            return JsonProvenance {
                absent: Some(absent.reason.clone()),
                ..JsonProvenance::default()
            };
        }
    };
    let mut out = JsonProvenance {
        root: Some(&p.root),
        ..JsonProvenance::default()
    };
    match &p.commits {
        Ok(since) => {
            out.commits = Some(since.commits.iter().map(commit).collect());
            out.more = Some(since.more);
            out.trusted_commit = since.trusted.as_deref();
            out.by_date = since.by_date;
            out.outside = Some(&since.outside);
        }
        Err(absent) => out.commits_absent = Some(absent.reason.clone()),
    }
    match &p.origins {
        Ok(origins) => {
            out.origins = Some(
                origins
                    .iter()
                    .map(|(request, value, o)| JsonValueOrigin {
                        request,
                        value,
                        origin: origin(o),
                    })
                    .collect(),
            );
        }
        Err(absent) => out.origins_absent = Some(absent.reason.clone()),
    }
    out.retargets = p
        .retargets
        .iter()
        .map(|(request, value, o)| JsonValueOrigin {
            request,
            value,
            origin: origin(o),
        })
        .collect();
    out
}

//! `review list --json`, `review verify --json` and `trust --reviewed-by
//! --json`: one document each.

use serde_json::{Value, json};

use crate::cli::io::Io;
use crate::cli::outcome::review::{ReviewReport, ReviewTrust, ShownReviews};
use crate::core::policy::Verdict;
use crate::core::team::verify::Checked;

pub fn report(r: &ReviewReport, io: &mut Io<'_>) -> std::io::Result<()> {
    for w in &r.warnings {
        io.warn(w);
    }
    let doc = json!({
        "schema": 1,
        "allowedSigners": r.allowed_signers.as_ref().map(|(path, sha256)| json!({"path": path, "sha256": sha256})),
        "required": r.required,
        "files": r.files.iter().map(|f| json!({"file": f.file, "problems": f.lines})).collect::<Vec<_>>(),
        "configs": r.configs.iter().map(|c| config(r, c)).collect::<Vec<_>>(),
    });
    let text = serde_json::to_string_pretty(&doc).map_err(std::io::Error::other)?;
    writeln!(io.out, "{text}")
}

fn config(r: &ReviewReport, c: &ShownReviews) -> Value {
    json!({
        "file": c.shown,
        "path": c.path(),
        "digest": c.digest(),
        "outside": c.outside(),
        "requests": c.requests,
        "problem": c.problem(),
        "count": c.count(),
        "reviewers": c.reviewers(),
        "met": r.met(c),
        "summary": r.summary(c),
        "records": c.checked().iter().map(record).collect::<Vec<_>>(),
    })
}

pub(crate) fn record(c: &Checked) -> Value {
    let r = c.record.as_ref();
    json!({
        "line": c.line,
        "principal": r.map(|r| &r.principal),
        "key": r.map(|r| &r.key),
        "keyType": c.key_type,
        "signedAt": r.map(|r| &r.signed_at),
        "note": r.map(|r| &r.note),
        "digest": r.map(|r| &r.digest),
        "status": c.status.as_str(),
        "reason": c.text,
    })
}

/// One config's `reviews` member (`inspect --json`, `scan --json`):
/// `null` where its repository has no reviews file; `problems` are the
/// file's own (not read, lines that are no record), as the text shows them.
pub fn one_config(r: Option<&crate::cli::outcome::review::OneConfig>) -> Value {
    let Some(r) = r else {
        return Value::Null;
    };
    let c = &r.reviews;
    json!({
        "file": r.file,
        "digest": c.digest(),
        "outside": c.outside(),
        "allowedSigners": r.allowed_signers.as_ref().map(|(path, sha256)| json!({
            "path": path,
            "sha256": sha256,
        })),
        "required": Value::Null,
        "count": c.count(),
        "records": c.checked().iter().map(record).collect::<Vec<_>>(),
        "problems": r.problems(),
    })
}

/// `trust --reviewed-by --json` (`schemas/trust-reviewed.schema.json`):
/// the listing as one document.
pub fn review_trust(t: &ReviewTrust, io: &mut Io<'_>) -> std::io::Result<()> {
    let configs: Vec<Value> = (0..t.configs.len()).map(|i| trust_config(t, i)).collect();
    let shown = |cs: Vec<&ShownReviews>| cs.iter().map(|c| c.shown.clone()).collect::<Vec<_>>();
    let (path, sha256) = &t.allowed_signers;
    let doc = json!({
        "schema": 1,
        "store": t.store,
        "dryRun": t.dry_run,
        "allowedSigners": {"path": path, "sha256": sha256},
        "required": t.required,
        "policy": t.policy.as_ref().map(|(path, sha256)| json!({"path": path, "sha256": sha256})),
        "files": t.files.iter().map(|f| json!({"file": f.file, "problems": f.lines})).collect::<Vec<_>>(),
        "configs": configs,
        "trusted": shown(t.configs.iter().filter(|(_, t)| *t).map(|(c, _)| c).collect()),
        "left": shown(t.left().collect()),
        "denied": shown((0..t.configs.len()).filter(|i| t.denied(*i)).map(|i| &t.configs[i].0).collect()),
    });
    let text = serde_json::to_string_pretty(&doc).map_err(std::io::Error::other)?;
    writeln!(io.out, "{text}")
}

/// One config of `trust --reviewed-by --json`: what became of it and why.
fn trust_config(t: &ReviewTrust, i: usize) -> Value {
    let (c, trusted) = (&t.configs[i].0, t.configs[i].1);
    let outcome = match () {
        () if trusted && t.dry_run => "wouldRecord",
        () if trusted => "recorded",
        () if t.refused.contains(&c.shown) => "refused",
        () if t.denied(i) => "denied",
        () => "left",
    };
    let verdict = t.policy.as_ref().map(|_| {
        t.gate_left(i)
            .map_or(Verdict::Allowed, |g| g.verdict)
            .as_str()
    });
    json!({
        "file": c.shown,
        "path": c.path(),
        "digest": c.digest(),
        "outside": c.outside(),
        "outcome": outcome,
        "reason": t.reason(i),
        "count": c.count(),
        "reviewers": c.reviewers(),
        "verdict": verdict,
        "notCounted": c.not_counted().map(record).collect::<Vec<_>>(),
    })
}

//! The decision: docs/src/compatibility.md#reference-the-decision, reasons byte for byte, with one
//! change (docs/src/compatibility.md#every-grant-applies): every grant applies, READ_ONLY and DISCOVERY_ONLY
//! included. The reference ignores the grant of a read level whenever there
//! is a target, so `"READ_ONLY": "deny"` still let every workspace read
//! through; here it denies them. Where the grant is `allow` the outcome and
//! the texts are the reference's.

use serde::Serialize;

use super::classify::{classify, denied_root_holding};
use super::load::{Grant, Policy};
use super::target::{ResolvedTarget, resolve_target};
use super::verdict::{Class, Verdict};
use crate::core::env::Env;

/// One decision, serialized in the reference's key order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    pub verdict: Verdict,
    pub reason: String,
    pub risk: String,
    /// `None` for an unknown risk class.
    pub level: Option<String>,
    /// `None` without a target when the decision is DENIED (the reference's
    /// rule); `APPROVED_WORKSPACE` without a target otherwise.
    pub classification: Option<Class>,
    /// The per-value rule that decided (`<kind> "<pattern>" -> <outcome>`);
    /// absent when none matched, so a policy without rules prints as before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// What a network request reaches, as GocciaScript reads its value
    /// (`["169.254.0.0/16"]`); absent for every other request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reach: Option<Vec<String>>,
    /// The target as judged; not part of the `evaluate` output.
    #[serde(skip)]
    pub target: Option<ResolvedTarget>,
}

const READ_LEVELS: [&str; 2] = ["READ_ONLY", "DISCOVERY_ONLY"];

/// Decides `risk` on `target` (relative to `env.cwd`). `None` is the
/// reference's target-less evaluation, where only the grant decides; config
/// requests on paths never use it (an unscoped path grant targets `/`).
pub fn evaluate(policy: &Policy, risk: &str, target: Option<&str>, env: &Env) -> Decision {
    evaluate_with_grant(policy, risk, target, None, env)
}

/// [`evaluate`], with `grant` (a rule's verdict) in place of the level's
/// own grant; the target's class applies all the same.
pub fn evaluate_with_grant(
    policy: &Policy,
    risk: &str,
    target: Option<&str>,
    grant: Option<Grant>,
    env: &Env,
) -> Decision {
    let target = target.map(|t| resolve_target(t, &env.cwd));
    let class = target.as_ref().map(|t| classify(policy, t));
    let decide = |verdict, reason: String, level: Option<&str>, classification| Decision {
        verdict,
        reason,
        risk: risk.to_string(),
        level: level.map(str::to_string),
        classification,
        rule: None,
        reach: None,
        target: target.clone(),
    };

    // Exact lookup: `r0`, `R0 ` and `constructor` are simply unknown.
    let Some(level) = policy.risk_to_level.get(risk).map(String::as_str) else {
        return decide(
            Verdict::Denied,
            format!("unknown risk class \"{risk}\" (default denial)"),
            None,
            class,
        );
    };
    let grant = grant.or_else(|| policy.grants.get(level).copied());
    let is_read = READ_LEVELS.contains(&level);
    if let Some(cls) = class
        && let Some((verdict, reason)) =
            class_verdict(policy, cls, target.as_ref(), risk, is_read, grant)
    {
        return decide(verdict, reason, Some(level), class);
    }
    let (verdict, reason, reported) = grant_verdict(level, risk, grant, class);
    decide(verdict, reason, Some(level), reported)
}

/// What the target's class decides before the grant: denied and personal
/// paths at every level, what a read level may not read, writes outside
/// the workspace, and a read level's allowed read. `None`: the grant
/// decides.
fn class_verdict(
    policy: &Policy,
    cls: Class,
    target: Option<&ResolvedTarget>,
    risk: &str,
    is_read: bool,
    grant: Option<Grant>,
) -> Option<(Verdict, String)> {
    let name = cls.as_str();
    if matches!(cls, Class::PersonalDataPath | Class::DeniedRoot) {
        // A denied root is the operator's explicit switch: say which one
        // matched, so a reviewer can tell `~/.ssh` from the store.
        let root = match (cls, target) {
            (Class::DeniedRoot, Some(t)) => denied_root_holding(policy, t)
                .map(|r| format!(" (denied root {r})"))
                .unwrap_or_default(),
            _ => String::new(),
        };
        return Some((
            Verdict::Denied,
            format!("target classified {name} \u{2014} denied at any risk level{root}"),
        ));
    }
    if is_read {
        if !matches!(cls, Class::ApprovedWorkspace | Class::SystemPath) {
            return Some((Verdict::Denied, format!("{name} not readable at {risk}")));
        }
        if grant == Some(Grant::Allow) {
            return Some((Verdict::Allowed, format!("{name} read at {risk}")));
        }
        // Not allowed outright: fall through to the grant, as for
        // every other level (docs/src/compatibility.md#every-grant-applies).
    } else if cls != Class::ApprovedWorkspace {
        return Some((
            Verdict::Denied,
            format!(
                "{name} outside approved workspace \u{2014} writes/effects only inside workspace"
            ),
        ));
    }
    None
}

/// What the level's grant decides, with the class reported: the target's,
/// or `APPROVED_WORKSPACE` without one, when the grant allows or asks.
fn grant_verdict(
    level: &str,
    risk: &str,
    grant: Option<Grant>,
    class: Option<Class>,
) -> (Verdict, String, Option<Class>) {
    let reported = class.or(Some(Class::ApprovedWorkspace));
    match grant {
        Some(Grant::Allow) => (
            Verdict::Allowed,
            format!("{level} granted at {risk}"),
            reported,
        ),
        Some(Grant::NeedsAuth) => (
            Verdict::NeedsAuth,
            format!("{level} requires explicit authorization at {risk}"),
            reported,
        ),
        // `deny` is a valid grant, and the reason says so; the reference
        // calls every value but allow/needs_auth "unknown".
        Some(Grant::Deny) => (
            Verdict::Denied,
            format!("{level} denied by its grant \"deny\" at {risk}"),
            class,
        ),
        // No grant for the level: the reference's text, where a missing
        // grant reads `undefined`.
        None => (
            Verdict::Denied,
            format!("unknown grant \"undefined\" for {level} (default denial)"),
            class,
        ),
    }
}

#[cfg(test)]
#[path = "evaluate_tests.rs"]
mod tests;

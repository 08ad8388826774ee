//! A config's permission requests as gate operations (docs/src/compatibility.md#requests-as-operations):
//! a path scope is the target, the capability is
//! the risk class. Denies are never evaluated: they need no trust.
//!
//! Request kinds, by the name a policy's `requests` map uses, and their
//! default risk class:
//!
//! | name | request | risk | target |
//! |---|---|---|---|
//! | `allow-read` | `allow-read` path, or unscoped | R0 | the path, `/` unscoped |
//! | `sandbox-copy` | `sandbox` `copy` input | R0 | the host path |
//! | `allow-import-node-modules` | `allow-import` `node_modules[=<dir>]` | R1 | `<dir>`, default `<config dir>/node_modules` |
//! | `sandbox-copy-rw` | `sandbox` `copy-rw` input | R1 | the host path |
//! | `diff-file` | `sandbox` `diff-file` | R1 | the file |
//! | `allow-net` | `allow-net` host, or unscoped | R2 | none |
//! | `allow-import-github` | `allow-import` `github[:owner[/repo]]` | R2 | none |
//! | `allow-net-private` | `allow-net` `private`, or any value reaching a private address (`net`) | R3 | none |
//! | `allow-ffi` | `allow-ffi` library, or unscoped | R3 | the library, `/` unscoped |
//! | `unsafe-function-constructor` | the top-level key | R3 | none |
//! | `unsafe-shadowrealm` | the top-level key | R3 | none |

use std::path::Path;

use serde::Serialize;

use super::classify::denied_root_inside;
use super::evaluate::{Decision, evaluate_with_grant};
use super::load::Grant;
use super::load::Policy;
use super::net::value_reach;
use super::rules::{Outcome, Value, rule_for};
use super::target::{lexical_path, resolve_target};
use super::verdict::{Class, Verdict};
use crate::core::env::Env;

pub use super::kind::RequestKind;

/// One request of a config.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Operation {
    pub kind: RequestKind,
    /// The scope as shown in the block; `None` for an unscoped request.
    pub scope: Option<String>,
    /// The host path judged; `None` for requests that name no path.
    pub target: Option<String>,
}

impl Operation {
    /// The operation for one request, with its target per the table in this
    /// module: relative scopes (and `node_modules=<dir>`) resolve against
    /// the declaring config's directory, unscoped path grants target `/`.
    pub fn for_request(kind: RequestKind, scope: Option<&str>, config_dir: &Path) -> Operation {
        let dir = config_dir.to_string_lossy();
        let target = match (kind, scope) {
            (RequestKind::AllowImportNodeModules, Some(s)) => {
                Some(match s.strip_prefix("node_modules=") {
                    Some(d) => lexical_path(d, &dir),
                    None => lexical_path("node_modules", &dir),
                })
            }
            (RequestKind::AllowImportNodeModules, None) => Some(lexical_path("node_modules", &dir)),
            (k, Some(s)) if k.is_path() => Some(lexical_path(s, &dir)),
            (k, None) if k.is_path() => Some("/".to_string()),
            _ => None,
        };
        Operation {
            kind,
            scope: scope.map(str::to_string),
            target,
        }
    }
}

/// One operation's decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperationDecision {
    pub operation: Operation,
    pub decision: Decision,
}

impl OperationDecision {
    /// The request as `trust --policy` and `scan --policy` print it (and the
    /// TUI shows it): `<kind> <scope>[ -> <path judged>]: <risk> <class>
    /// <verdict> — <reason>`. The judged path is shown when it is not the
    /// scope as written: a `node_modules` directory, or a scope whose links
    /// lead elsewhere; the class is `-` for a request that names no path.
    pub fn line(&self) -> String {
        format!(
            "{} {}: {}",
            self.operation.kind.name(),
            self.value_shown(),
            self.verdict_shown()
        )
    }

    /// The value part of [`OperationDecision::line`]: `<scope>[ -> <path
    /// judged>]`.
    pub fn value_shown(&self) -> String {
        let scope = self.operation.scope.as_deref().unwrap_or("(unscoped)");
        let judged = self
            .decision
            .target
            .as_ref()
            .map(|t| t.canonical.as_deref().unwrap_or(&t.lexical))
            .filter(|t| *t != scope)
            .map(|t| format!(" -> {t}"))
            .unwrap_or_default();
        format!("{scope}{judged}")
    }

    /// The decision part of [`OperationDecision::line`]: `<risk> <class>
    /// <verdict> — <reason>`.
    pub fn verdict_shown(&self) -> String {
        let class = self.decision.classification.map_or("-", |c| c.as_str());
        format!(
            "{} {class} {} \u{2014} {}",
            self.decision.risk,
            self.decision.verdict.as_str(),
            self.decision.reason
        )
    }

    #[cfg(test)]
    pub fn class(&self) -> Option<Class> {
        self.decision.classification
    }
}

/// A config's decision: the worst of its operations, every one kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigDecision {
    /// DENIED if any operation is, else NEEDS_AUTH if any is, else ALLOWED
    /// (a config with no operations is ALLOWED: it asks for nothing).
    pub verdict: Verdict,
    pub operations: Vec<OperationDecision>,
}

/// Decides one request: at its kind's risk class, or as the per-value rule
/// deciding its value says (the reason then names the rule). A host value
/// is judged by what it reaches: a deny it overlaps denies it, naming what
/// it reaches there; a value whose reach cannot be determined is never
/// ALLOWED.
pub fn evaluate_operation(policy: &Policy, op: &Operation, env: &Env) -> Decision {
    // A path request is never evaluated without a target (docs/src/compatibility.md#a-target-for-every-path-grant):
    // the reference would then skip denied and personal roots.
    let target = match (&op.target, op.kind.is_path()) {
        (Some(t), _) => Some(t.as_str()),
        (None, true) => Some("/"),
        (None, false) => None,
    };
    let resolved = target.map(|t| resolve_target(t, &env.cwd));
    let reach = op.kind.is_net().then(|| value_reach(op.scope.as_deref()));
    let value = match (&resolved, &reach) {
        (Some(t), _) if op.kind.is_path() => Value::Path(t),
        (_, Some(Some(r))) => Value::Net(r),
        _ => Value::Scope(op.scope.as_deref()),
    };
    let kind_risk = policy.risk_for(op.kind);
    let mut decision = match reach {
        Some(None) => undetermined(policy, op, &kind_risk, env),
        _ => by_rule(policy, op, &value, target, env),
    };
    if let Some(Some(r)) = reach {
        decision.reach = Some(r.shown);
    }
    // A request that names no path (a host, a provider, an unsafe
    // key) is in no class; the reference reports APPROVED_WORKSPACE
    // for target-less decisions, which would tell a reviewer that
    // `allow-net: example.com` lies inside the workspace.
    if target.is_none() {
        decision.classification = None;
    }
    // A config request that covers a denied root covers what the
    // root protects; `policy evaluate` keeps the reference's rule.
    if let Some(t) = &resolved
        && decision.verdict != Verdict::Denied
        && let Some(root) = denied_root_inside(policy, t)
    {
        decision.verdict = Verdict::Denied;
        decision.classification = Some(Class::DeniedRoot);
        decision.reason =
            format!("target contains the denied root {root} — denied at any risk level");
    }
    decision
}

/// A host value whose reach cannot be determined: at its kind's class, but
/// never ALLOWED.
fn undetermined(policy: &Policy, op: &Operation, risk: &str, env: &Env) -> Decision {
    let mut d = evaluate_with_grant(policy, risk, None, None, env);
    if d.verdict == Verdict::Allowed {
        d.verdict = Verdict::NeedsAuth;
    }
    d.reason = format!(
        "cannot tell what {} value {} reaches; a person decides ({})",
        op.kind.name(),
        crate::core::config::json::quote_json_string(op.scope.as_deref().unwrap_or("true")),
        d.reason
    );
    d
}

/// The decision at the kind's class, or as the rule deciding the value says.
fn by_rule(
    policy: &Policy,
    op: &Operation,
    value: &Value<'_>,
    target: Option<&str>,
    env: &Env,
) -> Decision {
    let rule = rule_for(&policy.rules, op.kind, value);
    let kind_risk = policy.risk_for(op.kind);
    let mut decision = match rule.map(|r| (r, &r.outcome)) {
        None => evaluate_with_grant(policy, &kind_risk, target, None, env),
        Some((_, Outcome::Risk(risk))) => evaluate_with_grant(policy, risk, target, None, env),
        Some((rule, Outcome::Verdict(Grant::Deny))) => {
            let mut d = evaluate_with_grant(policy, &kind_risk, target, None, env);
            d.verdict = Verdict::Denied;
            d.reason = match value {
                Value::Net(reach) => format!(
                    "reaches {}, denied by rule {}",
                    rule.net_meet(reach)
                        .map(|p| p.to_string())
                        .unwrap_or_default(),
                    rule.label()
                ),
                _ => format!("denied by rule {}", rule.label()),
            };
            d
        }
        Some((_, Outcome::Verdict(g))) => {
            evaluate_with_grant(policy, &kind_risk, target, Some(*g), env)
        }
    };
    if let Some(rule) = rule {
        let label = rule.label();
        if !rule.outcome.is_deny() {
            decision.reason = format!("{} (rule {label})", decision.reason);
        }
        decision.rule = Some(label);
    }
    decision
}

/// Evaluates every operation of a config.
pub fn evaluate_config(policy: &Policy, ops: &[Operation], env: &Env) -> ConfigDecision {
    let operations: Vec<OperationDecision> = ops
        .iter()
        .map(|op| OperationDecision {
            operation: op.clone(),
            decision: evaluate_operation(policy, op, env),
        })
        .collect();
    let verdict = operations
        .iter()
        .map(|o| o.decision.verdict)
        .max()
        .unwrap_or(Verdict::Allowed);
    ConfigDecision {
        verdict,
        operations,
    }
}

#[cfg(test)]
#[path = "requests_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "reach_props.rs"]
mod props;

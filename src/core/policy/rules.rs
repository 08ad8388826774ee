//! Per-value rules (issue 31): a policy's `rules` map patterns of one
//! request kind's values to a risk class or a verdict, so that
//! `*.internal.example.com` can be trusted at R0 while every other host
//! keeps the kind's class.
//!
//! ```json
//! "rules": {
//!   "allow-net": { "*.internal.example.com": "R0", "api.attacker.io": "deny" },
//!   "allow-read": { "./secrets": "deny" }
//! }
//! ```
//!
//! - Hosts (`allow-net`, `allow-net-private`): an exact host, an address,
//!   a CIDR range, `private`, `*.domain` (any deeper name) or `*`, each
//!   optionally with `:port`, read as a config's value is (`net`) into
//!   what it covers.
//! - Paths (`allow-read`, `sandbox-copy`, `sandbox-copy-rw`, `diff-file`,
//!   `allow-import-node-modules`, `allow-ffi`): roots, anchored exactly as the
//!   policy's roots are (relative ones to each tree under review, `~`, `..`
//!   removed lexically).
//! - Import specifiers (`allow-import-github`): an exact specifier, or a
//!   prefix ending in `*` (`github:my-org/*`).
//!
//! A value matches a rule when everything the value grants lies inside the
//! pattern (a path as written *and* with links resolved, everything a host
//! value reaches); a `deny` rule also matches a value that merely overlaps
//! it (an unscoped `allow-net`, a range holding a denied address, a read
//! of a directory holding the denied root, a link into it), and a deny
//! that matches always decides, so a deny can never be walked around. A
//! host deny of either net kind (`allow-net`, `allow-net-private`) holds
//! for both. Otherwise the most specific matching rule wins. A value
//! matching no rule keeps its kind's class, so a policy without rules
//! decides exactly as before.

use super::kind::RequestKind;
use super::net::{Rank, pattern_cover};
use super::reach::{Piece, Reach};
use super::root::{Grant, Root};
use super::target::{ResolvedTarget, contains, fold_case};

/// What a rule turns a matching request into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Judged at this risk class instead of the kind's (the target's class
    /// still applies).
    Risk(String),
    /// Judged by this grant instead of its level's (`deny` denies outright;
    /// `allow` and `needs_auth` still give way to the target's class).
    Verdict(Grant),
}

impl Outcome {
    pub fn written(&self) -> &str {
        match self {
            Outcome::Risk(r) => r,
            Outcome::Verdict(Grant::Allow) => "allow",
            Outcome::Verdict(Grant::NeedsAuth) => "needs_auth",
            Outcome::Verdict(Grant::Deny) => "deny",
        }
    }

    pub fn is_deny(&self) -> bool {
        *self == Outcome::Verdict(Grant::Deny)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Pattern {
    /// What a host pattern covers, and its rank (see `pattern_cover`).
    Net {
        cover: Vec<Piece>,
        rank: Rank,
    },
    Paths(Vec<Root>),
    Specifier {
        text: String,
        prefix: bool,
    },
}

/// One rule, as written and as parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub kind: RequestKind,
    /// The pattern as written in the policy.
    pub pattern: String,
    pub outcome: Outcome,
    parsed: Pattern,
}

/// What kind of values a request kind has.
enum Values {
    Hosts,
    Paths,
    Specifiers,
    None,
}

fn values_of(kind: RequestKind) -> Values {
    match kind {
        RequestKind::AllowNet | RequestKind::AllowNetPrivate => Values::Hosts,
        RequestKind::AllowImportGithub => Values::Specifiers,
        RequestKind::UnsafeFunctionConstructor | RequestKind::UnsafeShadowrealm => Values::None,
        _ => Values::Paths,
    }
}

impl Rule {
    /// Parses one rule. `resolve` expands a path pattern into its roots
    /// (one per anchor for a relative one), as the policy's own roots are.
    /// The error is the problem, without the policy's path.
    pub fn parse(
        kind: RequestKind,
        pattern: &str,
        outcome: Outcome,
        resolve: &dyn Fn(&str) -> Result<Vec<Root>, String>,
    ) -> Result<Rule, String> {
        let never = |why: &str| {
            format!(
                "rule {} {} could never match: {why}",
                kind.name(),
                crate::core::config::json::quote_json_string(pattern)
            )
        };
        if pattern.is_empty() {
            return Err(never("the pattern is empty"));
        }
        let parsed = match values_of(kind) {
            Values::None => {
                return Err(never(&format!("a {} request has no value", kind.name())));
            }
            Values::Hosts => {
                let (cover, rank) = pattern_cover(pattern).map_err(|w| never(&w))?;
                Pattern::Net { cover, rank }
            }
            Values::Paths => Pattern::Paths(resolve(pattern).map_err(|w| never(&w))?),
            Values::Specifiers => {
                let (text, prefix) = match pattern.strip_suffix('*') {
                    Some(p) => (p, true),
                    None => (pattern, false),
                };
                if text.contains('*') {
                    return Err(never("`*` may only end a specifier pattern"));
                }
                if text.starts_with("node_modules") {
                    return Err(never(
                        "node_modules imports are the allow-import-node-modules kind, a path",
                    ));
                }
                Pattern::Specifier {
                    text: text.to_string(),
                    prefix,
                }
            }
        };
        Ok(Rule {
            kind,
            pattern: pattern.to_string(),
            outcome,
            parsed,
        })
    }

    /// `<kind> "<pattern>" -> <outcome>`, as reasons and `policy show` name it.
    pub fn label(&self) -> String {
        format!(
            "{} {} -> {}",
            self.kind.name(),
            crate::core::config::json::quote_json_string(&self.pattern),
            self.outcome.written()
        )
    }

    /// The first part of `reach` this host rule covers.
    pub fn net_meet(&self, reach: &Reach) -> Option<Piece> {
        match &self.parsed {
            Pattern::Net { cover, .. } => reach.meet(cover),
            _ => None,
        }
    }

    /// The resolved roots of a path rule (for `policy show`).
    pub fn roots(&self) -> &[Root] {
        match &self.parsed {
            Pattern::Paths(roots) => roots,
            _ => &[],
        }
    }

    /// How specific the rule is for a value it matches: higher wins.
    fn specificity(&self, value: &Value<'_>) -> (u32, u32, u32) {
        match (&self.parsed, value) {
            (Pattern::Net { rank, .. }, _) => *rank,
            (Pattern::Paths(roots), Value::Path(t)) => {
                // The deepest root of this rule that concerns the value.
                let depth = roots
                    .iter()
                    .filter(|r| root_touches(r, t))
                    .map(|r| r.lexical.matches('/').count() as u32)
                    .max()
                    .unwrap_or(0);
                (0, depth, 0)
            }
            (Pattern::Paths(roots), _) => (
                0,
                roots
                    .iter()
                    .map(|r| r.lexical.matches('/').count() as u32)
                    .max()
                    .unwrap_or(0),
                0,
            ),
            (Pattern::Specifier { text, prefix }, _) => (u32::from(!prefix), text.len() as u32, 0),
        }
    }

    /// Whether this rule and `other` (same kind) can match one value with
    /// equal specificity: then their outcomes must agree.
    pub fn same_values(&self, other: &Rule) -> bool {
        match (&self.parsed, &other.parsed) {
            (Pattern::Paths(a), Pattern::Paths(b)) => {
                a.iter().any(|r| b.iter().any(|s| r.lexical == s.lexical))
            }
            (a, b) => a == b,
        }
    }

    fn matches(&self, value: &Value<'_>) -> bool {
        let deny = self.outcome.is_deny();
        match (&self.parsed, value) {
            (Pattern::Net { cover, .. }, Value::Net(reach)) => {
                if deny {
                    reach.meet(cover).is_some()
                } else {
                    reach.inside(cover)
                }
            }
            (Pattern::Paths(roots), Value::Path(t)) => roots.iter().any(|r| {
                let spellings = spellings(t);
                let inside = |s: &String| contains(&r.lexical, s) || contains(&r.canonical, s);
                let all_inside = t.canonical.is_some() && spellings.iter().all(inside);
                all_inside || (deny && root_touches(r, t))
            }),
            (Pattern::Specifier { text, prefix }, Value::Scope(scope)) => {
                let Some(v) = scope else {
                    // Unscoped: every specifier.
                    return deny || (*prefix && text.is_empty());
                };
                let inside = if *prefix {
                    v.starts_with(text.as_str())
                } else {
                    v == text
                };
                // A scope covering the pattern (`github` covers
                // `github:org/x`) overlaps it.
                let covers = text.starts_with(*v)
                    && matches!(text.as_bytes().get(v.len()), None | Some(b':' | b'/'));
                inside || (deny && covers)
            }
            _ => false,
        }
    }
}

/// A value as rules see it.
pub enum Value<'a> {
    /// A specifier scope; `None` unscoped.
    Scope(Option<&'a str>),
    /// What a host value reaches.
    Net(&'a Reach),
    /// The resolved path judged.
    Path(&'a ResolvedTarget),
}

fn spellings(t: &ResolvedTarget) -> Vec<String> {
    std::iter::once(&t.lexical)
        .chain(t.canonical.as_ref())
        .map(|s| fold_case(s))
        .collect()
}

/// The target lies inside the root or holds it, in any spelling.
fn root_touches(r: &Root, t: &ResolvedTarget) -> bool {
    spellings(t).iter().any(|s| {
        [&r.lexical, &r.canonical]
            .iter()
            .any(|root| contains(root, s) || contains(s, root))
    })
}

/// Refuses two rules of one kind that match the same values with equal
/// specificity but different outcomes (which one wins would be arbitrary).
pub fn check_conflicts(rules: &[Rule]) -> Result<(), String> {
    for (i, a) in rules.iter().enumerate() {
        for b in &rules[..i] {
            if a.kind == b.kind && a.outcome != b.outcome && a.same_values(b) {
                return Err(format!(
                    "rules {} {} and {} match the same values with equal specificity but differ ({}, {})",
                    a.kind.name(),
                    crate::core::config::json::quote_json_string(&b.pattern),
                    crate::core::config::json::quote_json_string(&a.pattern),
                    b.outcome.written(),
                    a.outcome.written()
                ));
            }
        }
    }
    Ok(())
}

/// Whether a rule speaks about a value of `kind`: a rule of that kind, and
/// a host deny of either net kind (a deny names what may not be reached,
/// whichever class the request falls in).
fn applies(rule: &Rule, kind: RequestKind) -> bool {
    let net = |k| matches!(values_of(k), Values::Hosts);
    rule.kind == kind || (rule.outcome.is_deny() && net(rule.kind) && net(kind))
}

/// The rule deciding a value of `kind`: a deny the value overlaps, else
/// the most specific rule covering the value; `None` when no rule matches.
pub fn rule_for<'r>(rules: &'r [Rule], kind: RequestKind, value: &Value<'_>) -> Option<&'r Rule> {
    let pick = |deny: bool| {
        rules
            .iter()
            .filter(|r| r.outcome.is_deny() == deny && applies(r, kind) && r.matches(value))
            .max_by_key(|r| r.specificity(value))
    };
    pick(true).or_else(|| pick(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host_rule(p: &str, o: Outcome) -> Rule {
        Rule::parse(RequestKind::AllowNet, p, o, &|_| Ok(Vec::new())).unwrap()
    }

    #[test]
    fn the_most_specific_host_wins_and_a_deny_always_does() {
        let r0 = Outcome::Risk("R0".into());
        let rules = vec![
            host_rule("*.example.com", r0.clone()),
            host_rule("*.a.example.com", Outcome::Verdict(Grant::Deny)),
            host_rule("ok.a.example.com", r0.clone()),
            host_rule("*:443", Outcome::Verdict(Grant::NeedsAuth)),
        ];
        let pick = |v: Option<&str>| {
            let reach = super::super::net::value_reach(v).unwrap();
            rule_for(&rules, RequestKind::AllowNet, &Value::Net(&reach)).map(|r| r.pattern.clone())
        };
        assert_eq!(
            pick(Some("x.example.com")).as_deref(),
            Some("*.example.com")
        );
        assert_eq!(
            pick(Some("X.Example.COM:8080")).as_deref(),
            Some("*.example.com")
        );
        assert_eq!(
            pick(Some("b.a.example.com")).as_deref(),
            Some("*.a.example.com")
        );
        // A deny the value lies in decides, however specific an allow.
        assert_eq!(
            pick(Some("ok.a.example.com")).as_deref(),
            Some("*.a.example.com")
        );
        assert_eq!(pick(Some("example.com")), None);
        assert_eq!(pick(Some("evil-example.com")), None);
        assert_eq!(pick(Some("other.org:443")).as_deref(), Some("*:443"));
        assert_eq!(pick(Some("other.org")), None);
        // A wildcard scope reaching into a deny is denied.
        assert_eq!(
            pick(Some("*.example.com")).as_deref(),
            Some("*.a.example.com")
        );
        // Unscoped: every host, so every deny overlaps it.
        assert_eq!(pick(None).as_deref(), Some("*.a.example.com"));
    }

    #[test]
    fn specifier_prefixes() {
        let parse = |p: &str, o| {
            Rule::parse(RequestKind::AllowImportGithub, p, o, &|_| Ok(Vec::new())).unwrap()
        };
        let rules = vec![
            parse("github:my-org/*", Outcome::Risk("R0".into())),
            parse("github:my-org/bad", Outcome::Verdict(Grant::Deny)),
        ];
        let pick = |v: Option<&str>| {
            rule_for(&rules, RequestKind::AllowImportGithub, &Value::Scope(v))
                .map(|r| r.pattern.clone())
        };
        assert_eq!(
            pick(Some("github:my-org/x")).as_deref(),
            Some("github:my-org/*")
        );
        assert_eq!(
            pick(Some("github:my-org/bad")).as_deref(),
            Some("github:my-org/bad")
        );
        assert_eq!(
            pick(Some("github:my-org")).as_deref(),
            Some("github:my-org/bad")
        );
        assert_eq!(pick(Some("github:other/x")), None);
    }
}

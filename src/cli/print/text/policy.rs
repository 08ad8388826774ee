//! `policy show`'s explanation on stderr: every root of the policy as
//! resolved, so an operator sees what `.` became, and its per-value rules.

use crate::cli::io::Io;
use crate::cli::terminal::Values;
use crate::core::config::json::quote_json_string;
use crate::core::policy::Policy;

/// The roots (each path escaped whole, as every path on every stream) and
/// the rules, after the anchors `.` resolved against and `why`. Best effort:
/// stderr failing does not fail the command.
pub fn roots(policy: &Policy, why: &str, io: &mut Io<'_>) {
    let text = |s: &str| Values.text(s).into_owned();
    let _ = writeln!(
        io.err,
        "Roots resolved against {} ({why}):",
        text(&policy.anchors.join(", "))
    );
    for (list, root) in policy.roots() {
        let links = if root.canonical != root.lexical {
            format!(" (links resolved: {})", text(&root.canonical))
        } else {
            String::new()
        };
        let _ = writeln!(
            io.err,
            "  {list} {} -> {}{links}",
            text(&quote_json_string(&root.written)),
            text(&root.resolved)
        );
    }
    if !policy.rules.is_empty() {
        let _ = writeln!(
            io.err,
            "Rules (the most specific match decides; deny first at equal specificity):"
        );
        for rule in &policy.rules {
            let roots: Vec<&str> = rule.roots().iter().map(|r| r.resolved.as_str()).collect();
            let resolved = if roots.is_empty() {
                String::new()
            } else {
                format!(" ({})", roots.join(", "))
            };
            let _ = writeln!(io.err, "  {}{}", text(&rule.label()), text(&resolved));
        }
    }
}

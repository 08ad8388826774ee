//! Where path scopes really lead. A scope is recorded with its target
//! (docs/src/compatibility.md#recorded-targets), but GocciaScript's listings show only the
//! scope as written, so `allow-read: /repo/t/data` may hide a link to
//! `~/.ssh`. Wherever a trust is decided, each scope that resolves
//! elsewhere gets a line of ours under the request line naming it; every
//! GocciaScript line stays as it is.

use crate::core::config::request::Capability;
use crate::core::config::scope::NODE_MODULES_PREFIX;
use crate::core::review::report::DiffLine;
use crate::core::review::style::Styler;

/// A path scope whose resolution differs from the scope as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Destination {
    /// The permission key whose line names the scope (`allow-read`), or
    /// `path` when no current line does.
    pub key: String,
    pub scope: String,
    /// Where it resolves now (links followed).
    pub target: String,
}

impl Destination {
    /// `      -> allow-read /repo/t/data resolves to /home/u/.ssh`: indented
    /// under the request line, in no GocciaScript format.
    pub fn render(&self) -> String {
        format!(
            "      -> {} {} resolves to {}",
            self.key, self.scope, self.target
        )
    }
}

/// A line of a listing: GocciaScript's, or a destination we add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShownLine<'a> {
    Line(&'a DiffLine),
    Destination(Destination),
}

impl ShownLine<'_> {
    /// The line as printed, a line's sign styled by what it is.
    pub fn render_styled(&self, style: Styler<'_>) -> String {
        match self {
            ShownLine::Line(l) => l.render_styled(style),
            ShownLine::Destination(d) => d.render(),
        }
    }
}

/// The scopes of `targets` (scope → target) that lead elsewhere.
pub fn moved_scopes(targets: &[(String, String)]) -> impl Iterator<Item = (&str, &str)> {
    targets
        .iter()
        .filter(|(scope, target)| scope != target)
        .map(|(s, t)| (s.as_str(), t.as_str()))
}

/// `lines` with, after each current (unchanged or added) line of a path
/// key, one destination line per scope of it that resolves elsewhere.
/// A scope no current line names is still shown, after the last line.
pub fn with_destinations<'a>(
    lines: &'a [DiffLine],
    targets: &[(String, String)],
) -> Vec<ShownLine<'a>> {
    let moved: Vec<(&str, &str)> = moved_scopes(targets).collect();
    let mut placed = vec![false; moved.len()];
    let mut out = Vec::with_capacity(lines.len() + moved.len());
    for line in lines {
        out.push(ShownLine::Line(line));
        let (DiffLine::Unchanged(text) | DiffLine::Added(text)) = line else {
            continue;
        };
        let Some((key, items)) = path_key_line(text) else {
            continue;
        };
        for (i, (scope, target)) in moved.iter().enumerate() {
            if names_scope(items, scope) {
                placed[i] = true;
                out.push(ShownLine::Destination(Destination {
                    key: key.to_string(),
                    scope: scope.to_string(),
                    target: target.to_string(),
                }));
            }
        }
    }
    for (i, (scope, target)) in moved.iter().enumerate() {
        if !placed[i] {
            out.push(ShownLine::Destination(Destination {
                key: "path".to_string(),
                scope: scope.to_string(),
                target: target.to_string(),
            }));
        }
    }
    out
}

/// Every destination of a config, each named by its key as in
/// [`with_destinations`], for JSON.
pub fn destinations(lines: &[DiffLine], targets: &[(String, String)]) -> Vec<Destination> {
    with_destinations(lines, targets)
        .into_iter()
        .filter_map(|l| match l {
            ShownLine::Destination(d) => Some(d),
            ShownLine::Line(_) => None,
        })
        .collect()
}

/// `allow-read: a, b` → (`allow-read`, `a, b`) for a key whose scopes are
/// paths (read, ffi, import).
fn path_key_line(text: &str) -> Option<(&str, &str)> {
    let (key, items) = text.split_once(": ")?;
    match Capability::parse_key(key)? {
        (_, Capability::Read | Capability::Ffi | Capability::Import) => Some((key, items)),
        (_, Capability::Net) => None,
    }
}

/// Whether `items` (`a, b, c`) holds `scope`, or `node_modules=<scope>`.
fn names_scope(items: &str, scope: &str) -> bool {
    let import = format!("{NODE_MODULES_PREFIX}{scope}");
    [scope, import.as_str()].iter().any(|s| {
        items == *s
            || items.starts_with(&format!("{s}, "))
            || items.ends_with(&format!(", {s}"))
            || items.contains(&format!(", {s}, "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn destinations_go_under_the_line_naming_the_scope() {
        let lines = vec![
            DiffLine::Unchanged("allow-ffi: /r/lib/a.so".into()),
            DiffLine::Removed("allow-read: /r/old".into()),
            DiffLine::Added("allow-read: /r/docs, /r/t/data".into()),
            DiffLine::Unchanged("allow-import: node_modules=/r/nm".into()),
            DiffLine::Unchanged("allow-net: /r/t/data".into()),
        ];
        let targets = pairs(&[
            ("/r/docs", "/r/docs"),
            ("/r/lib/a.so", "/r/lib/a.so"),
            ("/r/nm", "/elsewhere/nm"),
            ("/r/old", "/etc"),
            ("/r/t/data", "/home/u/.ssh"),
        ]);
        let shown: Vec<String> = with_destinations(&lines, &targets)
            .iter()
            .map(|l| l.render_styled(&crate::core::review::style::plain))
            .collect();
        assert_eq!(
            shown,
            vec![
                "    allow-ffi: /r/lib/a.so",
                "  - allow-read: /r/old",
                "  + allow-read: /r/docs, /r/t/data",
                "      -> allow-read /r/t/data resolves to /home/u/.ssh",
                "    allow-import: node_modules=/r/nm",
                "      -> allow-import /r/nm resolves to /elsewhere/nm",
                "    allow-net: /r/t/data",
                "      -> path /r/old resolves to /etc",
            ]
        );
    }

    #[test]
    fn a_scope_is_matched_whole_not_as_a_prefix() {
        let lines = vec![DiffLine::Unchanged("deny-read: /r/data2, /r/x".into())];
        let targets = pairs(&[("/r/data", "/etc")]);
        assert_eq!(
            destinations(&lines, &targets),
            vec![Destination {
                key: "path".into(),
                scope: "/r/data".into(),
                target: "/etc".into()
            }]
        );
        assert!(destinations(&lines, &pairs(&[("/r/x", "/r/x")])).is_empty());
    }
}

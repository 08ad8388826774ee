//! Value-level diffs (issue 12): a changed config compared with what was
//! trusted value by value, not line by line. Each host, path scope, import,
//! library and sandbox entry is its own unit, so swapping one host of thirty
//! reads `- host17.example.com` / `+ host17.attacker.io` under `allow-net`
//! instead of two lines of thirty hosts each.
//!
//! Computed from the blocks themselves (the stored one and the current one),
//! never by splitting GocciaScript's `, `-joined lines, so a value holding
//! `, ` stays one value. GocciaScript's own lines are untouched: this is an
//! extra view beside them.

use crate::core::review::style::{Emphasis, Styler};
use similar::{Algorithm, ChangeTag, utils::diff_slices};

use crate::core::config::describe::unscoped_description;
use crate::core::config::json::Json;
use crate::core::config::scope::NODE_MODULES_PREFIX;

/// How one value compares with the trusted block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Added,
    Removed,
    Unchanged,
    /// The value is the same but the path it names now resolves elsewhere.
    Retargeted,
}

impl Change {
    /// The JSON spelling, the one `diff[].change` already uses.
    pub fn json_name(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Removed => "removed",
            Change::Unchanged => "unchanged",
            Change::Retargeted => "retargeted",
        }
    }

    /// `+`, `-`, ` ` or `~`.
    pub fn sign(self) -> char {
        match self {
            Change::Added => '+',
            Change::Removed => '-',
            Change::Unchanged => ' ',
            Change::Retargeted => '~',
        }
    }

    /// What the sign stands for, to style it; none for an unchanged value.
    pub fn emphasis(self) -> Option<Emphasis> {
        match self {
            Change::Added => Some(Emphasis::Added),
            Change::Removed => Some(Emphasis::Removed),
            Change::Unchanged => None,
            Change::Retargeted => Some(Emphasis::Changed),
        }
    }
}

/// One value of one request, and how it changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueChange {
    /// The request key: `allow-net`, `sandbox.copy`, `unsafe-shadowrealm`,
    /// `sandbox`; `path` for a recorded target no current value names.
    pub request: String,
    pub change: Change,
    pub value: String,
    /// Where the path the value names leads now, when that is elsewhere
    /// (a link), or when it moved since it was trusted.
    pub destination: Option<String>,
}

/// The values of a block, grouped by request key in the block's order:
/// `("allow-net", ["a.test", "b.test"])`. Read as [`description_lines`]
/// reads the block (members in document order, unknown sections, numbers
/// and `false` ignored), but each array item kept as its own value.
///
/// [`description_lines`]: crate::core::config::describe::description_lines
pub fn block_values(block: &Json) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let Json::Object(sections) = block else {
        return out;
    };
    let mut push = |key: String, values: Vec<String>| match out.iter_mut().find(|(k, _)| *k == key)
    {
        Some((_, existing)) => existing.extend(values),
        None => out.push((key, values)),
    };
    for (section, body) in sections {
        let Json::Object(members) = body else {
            continue;
        };
        let sandbox = section == "sandbox";
        if !matches!(section.as_str(), "permissions" | "unsafe" | "sandbox") {
            continue;
        }
        let mut any = false;
        for (key, value) in members {
            let name = if sandbox {
                format!("sandbox.{key}")
            } else {
                key.clone()
            };
            let values: Vec<String> = match value {
                Json::Bool(true) if section == "permissions" => {
                    vec![unscoped_description(key).to_owned()]
                }
                Json::Bool(true) => vec!["true".to_owned()],
                Json::String(s) if sandbox => vec![s.clone()],
                Json::Array(items) if section != "unsafe" => items
                    .iter()
                    .filter_map(|i| match i {
                        Json::String(s) => Some(s.clone()),
                        _ => None,
                    })
                    .collect(),
                _ => continue,
            };
            any = true;
            push(name, values);
        }
        if sandbox && !any {
            push(
                "sandbox".to_owned(),
                vec!["no inputs (sandbox mode only)".to_owned()],
            );
        }
    }
    out
}

/// The value-level diff of `old` (trusted) against `new` (current), request
/// by request in the current block's order (requests only the trusted block
/// had come where they were). `targets` maps each current path scope to
/// where it resolves now; `moved` holds the `~` target lines of the
/// comparison (a recorded target that now resolves elsewhere).
pub fn diff_values(
    old: &[(String, Vec<String>)],
    new: &[(String, Vec<String>)],
    targets: &[(String, String)],
    moved: &[(String, String, String)],
) -> Vec<ValueChange> {
    let mut keys: Vec<&str> = new.iter().map(|(k, _)| k.as_str()).collect();
    for (i, (key, _)) in old.iter().enumerate() {
        if keys.contains(&key.as_str()) {
            continue;
        }
        // After the request that preceded it in the trusted block.
        let at = old[..i]
            .iter()
            .rev()
            .find_map(|(k, _)| keys.iter().position(|x| x == k))
            .map_or(0, |p| p + 1);
        keys.insert(at, key);
    }
    let empty = Vec::new();
    let values_of = |set: &'_ [(String, Vec<String>)], key: &str| -> Vec<String> {
        set.iter()
            .find(|(k, _)| k == key)
            .map_or(&empty, |(_, v)| v)
            .clone()
    };
    let mut placed = vec![false; moved.len()];
    let mut out = Vec::new();
    for key in keys {
        let before = values_of(old, key);
        let after = values_of(new, key);
        for (tag, slice) in diff_slices(Algorithm::Myers, &before, &after) {
            for value in slice {
                let path = path_of(key, value);
                let mut change = match tag {
                    ChangeTag::Delete => Change::Removed,
                    ChangeTag::Insert => Change::Added,
                    ChangeTag::Equal => Change::Unchanged,
                };
                let mut destination = None;
                if let Some(path) = path {
                    if tag != ChangeTag::Delete {
                        destination = targets
                            .iter()
                            .find(|(s, t)| s == path && t != path)
                            .map(|(_, t)| t.clone());
                    }
                    if let Some(i) = moved.iter().position(|(s, _, _)| s == path) {
                        placed[i] = true;
                        if change == Change::Unchanged {
                            change = Change::Retargeted;
                            destination = Some(moved[i].2.clone());
                        }
                    }
                }
                out.push(ValueChange {
                    request: key.to_owned(),
                    change,
                    value: value.clone(),
                    destination,
                });
            }
        }
    }
    for (i, (scope, _, current)) in moved.iter().enumerate() {
        if !placed[i] {
            out.push(ValueChange {
                request: "path".to_owned(),
                change: Change::Retargeted,
                value: scope.clone(),
                destination: Some(current.clone()),
            });
        }
    }
    out
}

/// The path a value of `key` names, if its target is recorded: read and
/// ffi scopes, and the directory of `node_modules=<dir>`.
fn path_of<'a>(key: &str, value: &'a str) -> Option<&'a str> {
    let cap = key.strip_prefix("allow-").or(key.strip_prefix("deny-"))?;
    match cap {
        "read" | "ffi" => Some(value),
        "import" => value.strip_prefix(NODE_MODULES_PREFIX),
        _ => None,
    }
}

/// `+2 -1 ~1`: values added, removed and re-targeted.
pub fn value_summary(values: &[ValueChange]) -> String {
    let count = |c: Change| values.iter().filter(|v| v.change == c).count();
    let mut parts = Vec::new();
    for (c, sign) in [
        (Change::Added, '+'),
        (Change::Removed, '-'),
        (Change::Retargeted, '~'),
    ] {
        let n = count(c);
        if n > 0 {
            parts.push(format!("{sign}{n}"));
        }
    }
    parts.join(" ")
}

/// A request's values as shown in text: the key as a heading, then one line
/// per changed value (`  - host17.example.com`, `  ~ /r/data -> /tmp/x`),
/// runs of more than `keep` unchanged values collapsed to
/// `    … 28 unchanged`. `text` escapes a config-derived value; `style`
/// styles each sign by its change.
pub fn render_text(
    values: &[ValueChange],
    keep: usize,
    text: &dyn Fn(&str) -> String,
    style: Styler<'_>,
) -> String {
    let mut out = String::new();
    for group in group_by_request(values) {
        out.push_str(&format!("  {}\n", text(&group[0].request)));
        for item in collapse(group, keep) {
            match item {
                Shown::Value(v) => {
                    let dest = match &v.destination {
                        Some(d) if v.change == Change::Retargeted => {
                            format!(" (now resolves to {})", text(d))
                        }
                        Some(d) => format!(" -> {}", text(d)),
                        None => String::new(),
                    };
                    let sign = v.change.sign().to_string();
                    let sign = match v.change.emphasis() {
                        Some(e) => style(e, &sign),
                        None => sign,
                    };
                    out.push_str(&format!("    {sign} {}{dest}\n", text(&v.value)));
                }
                Shown::Unchanged(n) => out.push_str(&format!("      … {n} unchanged\n")),
            }
        }
    }
    out
}

/// The values, in runs of one request each.
pub fn group_by_request(values: &[ValueChange]) -> Vec<&[ValueChange]> {
    let mut groups = Vec::new();
    let mut start = 0;
    for i in 1..=values.len() {
        if i == values.len() || values[i].request != values[start].request {
            if i > start {
                groups.push(&values[start..i]);
            }
            start = i;
        }
    }
    groups
}

/// A value to show, or a collapsed run of unchanged ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown<'a> {
    Value(&'a ValueChange),
    Unchanged(usize),
}

/// Unchanged values shown around a change before a run of them is
/// collapsed to `… N unchanged`, wherever a value-level diff is shown (the
/// TUI's detail pane and confirmation, `scan` and the `trust` prompt on a
/// terminal).
pub const UNCHANGED_KEPT: usize = 2;

/// Runs of more than `keep` unchanged values collapsed to a count.
pub fn collapse(group: &[ValueChange], keep: usize) -> Vec<Shown<'_>> {
    fn flush<'a>(run: &mut Vec<&'a ValueChange>, out: &mut Vec<Shown<'a>>, keep: usize) {
        if run.len() > keep {
            out.push(Shown::Unchanged(run.len()));
        } else {
            out.extend(run.iter().map(|v| Shown::Value(v)));
        }
        run.clear();
    }
    let mut run: Vec<&ValueChange> = Vec::new();
    let mut items: Vec<Shown<'_>> = Vec::new();
    for v in group {
        if v.change == Change::Unchanged && v.destination.is_none() {
            run.push(v);
        } else {
            flush(&mut run, &mut items, keep);
            items.push(Shown::Value(v));
        }
    }
    flush(&mut run, &mut items, keep);
    items
}

#[cfg(test)]
mod tests;

//! Where in a config file a request is written: the 1-based line of a
//! request key (`allow-net`, `"permissions.allow-read"`, `unsafe-eval = true`),
//! so CI annotations (SARIF regions, GitHub `line=`) point at the request
//! instead of the top of the file. A best effort by design: a request the
//! file gets from its `extends` chain is not in the file, and then there is
//! no line (the config file itself is still the location).

use crate::core::paths::bounded::{CONFIG_MAX_BYTES, read_regular};
use crate::core::review::report::{ConfigReport, ConfigState, DiffLine};

/// The 1-based line of the first place `request` is written as a key in
/// `text`: the name bounded by a non-name character (or a `.` of a dotted
/// key) before it and followed, after an optional closing quote and spaces,
/// by `:` or `=`.
pub fn line_of_request(text: &str, request: &str) -> Option<usize> {
    if request.is_empty() {
        return None;
    }
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    for (n, line) in text.lines().enumerate() {
        let mut from = 0;
        while let Some(at) = line[from..].find(request) {
            let start = from + at;
            let end = start + request.len();
            from = start + 1;
            let before_ok = line[..start]
                .chars()
                .next_back()
                .is_none_or(|c| !is_name(c));
            let rest = &line[end..];
            if rest.chars().next().is_some_and(is_name) {
                continue;
            }
            let rest = rest.trim_start_matches(['"', '\'']).trim_start();
            if before_ok && (rest.starts_with(':') || rest.starts_with('=')) {
                return Some(n + 1);
            }
        }
    }
    None
}

/// The request name a description line is about: `allow-net` for
/// `allow-net: a.test, b.test`; none for a target line (it names a scope).
pub fn request_of(line: &DiffLine) -> Option<&str> {
    match line {
        DiffLine::Added(l) | DiffLine::Removed(l) | DiffLine::Unchanged(l) => {
            l.split_once(':').map(|(name, _)| name.trim())
        }
        DiffLine::Target { .. } => None,
    }
}

/// The requests a report draws attention to, most relevant first: what was
/// added or moved in a changed config (then what stayed), every request of
/// any other.
pub fn requests_of_interest(report: &ConfigReport) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    let changed = report.state == ConfigState::Changed;
    let first = report
        .lines
        .iter()
        .filter(|l| !changed || matches!(l, DiffLine::Added(_) | DiffLine::Target { .. }));
    let rest = report.lines.iter().filter(|_| changed);
    for l in first.chain(rest) {
        if let Some(name) = request_of(l)
            && !names.contains(&name)
        {
            names.push(name);
        }
    }
    names
}

/// The line of the first of `requests` written in the config file at
/// `path`, read again (at most as much as a config may hold); `None` when
/// the file cannot be read or none of them is written in it.
pub fn request_line_in_file(path: &str, requests: &[&str]) -> Option<usize> {
    let bytes = read_regular(path, CONFIG_MAX_BYTES).ok()?;
    request_line_in_text(&String::from_utf8_lossy(&bytes), requests)
}

/// The line of the first of `requests` written in `text`, a config file's
/// contents.
pub fn request_line_in_text(text: &str, requests: &[&str]) -> Option<usize> {
    // `sandbox.copy` is written as `copy` inside `sandbox`.
    requests.iter().find_map(|r| {
        line_of_request(text, r).or_else(|| {
            r.rsplit_once('.')
                .and_then(|(_, last)| line_of_request(text, last))
        })
    })
}

/// The line of the request a report is about, in the config file itself.
pub fn report_line(report: &ConfigReport) -> Option<usize> {
    request_line_in_file(&report.key, &requests_of_interest(report))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_key_in_each_format() {
        let json =
            "{\n  \"permissions\": {\n    \"deny-net\": [],\n    \"allow-net\": [\"a\"]\n  }\n}\n";
        assert_eq!(line_of_request(json, "allow-net"), Some(4));
        let dotted = "{\"x\": 1,\n\"permissions.allow-read\": true}";
        assert_eq!(line_of_request(dotted, "allow-read"), Some(2));
        let toml = "[permissions]\nallow-read-x = 1\nallow-read = [\"/x\"]\n";
        assert_eq!(line_of_request(toml, "allow-read"), Some(3));
        let json5 = "{\n  // allow-net: in a comment is still a key shape\n  permissions: {\n    'allow-ffi' : ['x'] } }";
        assert_eq!(line_of_request(json5, "allow-ffi"), Some(4));
        assert_eq!(line_of_request("\"x-allow-net\": 1", "allow-net"), None);
        assert_eq!(
            line_of_request("{\"a\": [\"allow-net\"]}", "allow-net"),
            None
        );
        assert_eq!(line_of_request("anything", ""), None);
    }

    #[test]
    fn a_description_line_names_its_request() {
        assert_eq!(
            request_of(&DiffLine::Added("allow-net: a, b".into())),
            Some("allow-net")
        );
        assert_eq!(
            request_of(&DiffLine::Unchanged("unsafe-eval: enabled".into())),
            Some("unsafe-eval")
        );
        let moved = DiffLine::Target {
            scope: "./a".into(),
            recorded: "/x".into(),
            current: "/y".into(),
        };
        assert_eq!(request_of(&moved), None);
    }
}

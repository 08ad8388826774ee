//! Which lines of a config file hold a value of its normalized block: the
//! line map blame needs. The text is read as tokens (strings, keys,
//! comments skipped) in any of the three formats, each string value under
//! the key written last before it; a value is on a line where a string of
//! its request's key is written that resolves to it (a path scope as
//! written, `../shared`, resolves against the file's directory as
//! GocciaScript resolves it). A switch (`allow-net: true`,
//! `unsafe-eval = true`) is on its key's line. Nothing found is no line,
//! never a guess.

use crate::core::config::describe::unscoped_description;
use crate::core::config::scope::{NODE_MODULES_PREFIX, absolute_path, declaring_dir};
use crate::core::env::Env;
use crate::core::paths::pascal_trim;

/// A token of a config text that locating a value needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// A key (its last dotted part), on its 1-based line.
    Key { line: usize, name: String },
    /// A string that is not a key: its decoded forms (with and without
    /// escapes read, for the formats that differ), on its starting line.
    Str { line: usize, forms: Vec<String> },
}

/// The 1-based lines of `text` (the file at `path`, absolute) holding
/// `value` of `request` (`allow-net`, `sandbox.copy`, `sandbox`).
pub fn value_lines(text: &str, path: &str, request: &str, value: &str, env: &Env) -> Vec<usize> {
    let name = request.rsplit('.').next().unwrap_or(request);
    let tokens = tokens(text);
    let dir = declaring_dir(path);
    let mut owner: Option<&str> = None;
    let mut lines = Vec::new();
    for t in &tokens {
        match t {
            Found::Key { name: k, .. } => owner = Some(k),
            Found::Str { line, forms } => {
                if owner == Some(name) && forms.iter().any(|f| resolves_to(f, value, dir, env)) {
                    lines.push(*line);
                }
            }
        }
    }
    let switch = value == "true" || value == unscoped_description(name) || request == "sandbox";
    if lines.is_empty() && switch {
        for t in &tokens {
            if let Found::Key { line, name: k } = t
                && k == name
            {
                lines.push(*line);
            }
        }
    }
    lines.dedup();
    lines
}

/// Whether a string written in the file at `dir` names `value` once
/// resolved: as it is (a host, a provider), or as a path, or as a
/// `node_modules=<dir>` import.
fn resolves_to(written: &str, value: &str, dir: &str, env: &Env) -> bool {
    let scope = pascal_trim(written);
    if scope == value {
        return true;
    }
    if value.starts_with('/') && absolute_path(scope, dir, env) == value {
        return true;
    }
    let prefix = NODE_MODULES_PREFIX.len();
    if scope.len() > prefix
        && scope.is_char_boundary(prefix)
        && scope[..prefix].eq_ignore_ascii_case(NODE_MODULES_PREFIX)
    {
        let resolved = format!(
            "{NODE_MODULES_PREFIX}{}",
            absolute_path(&scope[prefix..], dir, env)
        );
        return resolved == value;
    }
    false
}

/// The keys and strings of `text`, in order. JSON, JSON5 and TOML share
/// enough for this: strings in `"` or `'` (TOML's `"""`/`'''` too), keys
/// followed by `:` or `=`, bare keys, and comments (`//`, `/* */`, `#`)
/// that hold nothing.
pub fn tokens(text: &str) -> Vec<Found> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let is_bare = |ch: char| ch.is_alphanumeric() || matches!(ch, '-' | '_' | '.' | '$');
    while i < c.len() {
        let ch = c[i];
        match ch {
            '\n' => {
                line += 1;
                i += 1;
            }
            '#' => i = skip_to_eol(&c, i),
            '/' if c.get(i + 1) == Some(&'/') => i = skip_to_eol(&c, i),
            '/' if c.get(i + 1) == Some(&'*') => {
                i += 2;
                while i < c.len() && !(c[i] == '*' && c.get(i + 1) == Some(&'/')) {
                    line += usize::from(c[i] == '\n');
                    i += 1;
                }
                i += 2;
            }
            '"' | '\'' => {
                let start = line;
                let Some((forms, end, lines)) = string_at(&c, i) else {
                    // Unterminated: nothing after it is read as a token.
                    break;
                };
                line += lines;
                i = end;
                match key_follows(&c, i) {
                    true => out.push(Found::Key {
                        line: start,
                        name: last_part(&forms[0]),
                    }),
                    false => out.push(Found::Str { line: start, forms }),
                }
            }
            ch if is_bare(ch) => {
                let start = i;
                while i < c.len() && is_bare(c[i]) {
                    i += 1;
                }
                if key_follows(&c, i) {
                    let word: String = c[start..i].iter().collect();
                    out.push(Found::Key {
                        line,
                        name: last_part(&word),
                    });
                }
            }
            _ => i += 1,
        }
    }
    out
}

fn last_part(key: &str) -> String {
    key.rsplit('.').next().unwrap_or(key).to_string()
}

fn skip_to_eol(c: &[char], mut i: usize) -> usize {
    while i < c.len() && c[i] != '\n' {
        i += 1;
    }
    i
}

/// Whether a `:` or `=` follows position `i`, after spaces.
fn key_follows(c: &[char], mut i: usize) -> bool {
    while i < c.len() && matches!(c[i], ' ' | '\t') {
        i += 1;
    }
    matches!(c.get(i), Some(':') | Some('='))
}

/// The string starting at `c[i]` (a quote): its forms, the index after it,
/// and how many line breaks it holds. `None` when it never ends.
fn string_at(c: &[char], i: usize) -> Option<(Vec<String>, usize, usize)> {
    let q = c[i];
    let triple = c.get(i + 1) == Some(&q) && c.get(i + 2) == Some(&q);
    let (open, multi) = if triple { (3, true) } else { (1, false) };
    let mut j = i + open;
    let mut raw = String::new();
    loop {
        let ch = *c.get(j)?;
        if ch == '\n' && !multi {
            return None;
        }
        if ch == q && (!multi || (c.get(j + 1) == Some(&q) && c.get(j + 2) == Some(&q))) {
            let end = j + open;
            let lines = raw.matches('\n').count();
            let mut forms = vec![unescape(&raw)];
            if q == '\'' && forms[0] != raw {
                // TOML's literal strings read no escape; JSON5's do.
                forms.push(raw);
            }
            return Some((forms, end, lines));
        }
        if ch == '\\' {
            raw.push(ch);
            if let Some(&next) = c.get(j + 1) {
                raw.push(next);
                j += 2;
                continue;
            }
        }
        raw.push(ch);
        j += 1;
    }
}

/// JSON, JSON5 and TOML escapes read; an unknown one keeps its character.
fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut it = raw.chars().peekable();
    while let Some(ch) = it.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        let Some(e) = it.next() else {
            out.push('\\');
            break;
        };
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            '0' => out.push('\0'),
            'u' | 'U' | 'x' => {
                let n = match e {
                    'u' => 4,
                    'U' => 8,
                    _ => 2,
                };
                let hex: String = (0..n).filter_map(|_| it.next()).collect();
                let mut code = u32::from_str_radix(&hex, 16).unwrap_or(0xFFFD);
                // A UTF-16 surrogate pair, as JSON writes one.
                if (0xD800..0xDC00).contains(&code) && it.peek() == Some(&'\\') {
                    let rest: String = it.clone().take(6).collect();
                    if let Some(low) = rest.strip_prefix("\\u")
                        && let Ok(low) = u32::from_str_radix(low, 16)
                        && (0xDC00..0xE000).contains(&low)
                    {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                        it.nth(5);
                    }
                }
                out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
            }
            '\n' => {
                // A line continuation: the break and the next line's
                // leading spaces go.
                while it.peek().is_some_and(|c| c.is_whitespace()) {
                    it.next();
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> Env {
        Env::at("/w", "/home/u")
    }

    #[test]
    fn values_are_found_on_their_lines_in_each_format() {
        let e = env();
        let json = "{\n  \"permissions\": {\n    \"allow-net\": [\n      \"a.test\",\n      \"b.test\"\n    ],\n    \"deny-net\": [\"b.test\"]\n  }\n}\n";
        let at = |text, req, v| value_lines(text, "/r/goccia.json", req, v, &e);
        assert_eq!(at(json, "allow-net", "b.test"), vec![5]);
        assert_eq!(at(json, "deny-net", "b.test"), vec![7]);
        assert_eq!(at(json, "allow-net", "c.test"), Vec::<usize>::new());
        let toml = "# allow-net = [\"x.test\"]\n[permissions]\nallow-net = [\"a.test\",\n  'x.test']\nallow-read = ['../shared']\n[sandbox]\ncopy = [\"data\"]\n";
        let at = |req, v| value_lines(toml, "/r/app/goccia.toml", req, v, &e);
        assert_eq!(at("allow-net", "x.test"), vec![4], "not the comment's");
        assert_eq!(at("allow-read", "/r/shared"), vec![5]);
        assert_eq!(at("sandbox.copy", "/r/app/data"), vec![7]);
        let json5 = "{\n  // 'allow-ffi': ['/lib/x.so']\n  permissions: {\n    'allow-ffi': ['/lib/x.so'],\n    allow-net: true, /* \"allow-net\": [\"z\"] */\n  },\n  unsafe: { 'function-constructor': true }\n}";
        let at = |req, v| value_lines(json5, "/r/goccia.json5", req, v, &e);
        assert_eq!(at("allow-ffi", "/lib/x.so"), vec![4]);
        assert_eq!(at("allow-net", unscoped_description("allow-net")), vec![5]);
        assert_eq!(
            at("allow-net", "z"),
            Vec::<usize>::new(),
            "not the comment's"
        );
        assert_eq!(at("function-constructor", "true"), vec![7]);
    }

    #[test]
    fn a_value_written_twice_is_on_both_lines_and_escapes_are_read() {
        let e = env();
        let json =
            "{\"permissions\": {\"allow-net\": [\"a.test\",\n\"a.test\", \"\\u0062.test\"]}}";
        let at = |v| value_lines(json, "/r/goccia.json", "allow-net", v, &e);
        assert_eq!(at("a.test"), vec![1, 2]);
        assert_eq!(at("b.test"), vec![2]);
    }
}

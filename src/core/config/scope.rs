//! Permission scopes: how GocciaScript 0.14 makes a scope absolute
//! (docs/src/compatibility.md#resolution-per-capability) and which scopes each capability accepts (#scope-validation).
//!
//! Validity is decided exactly as `TGocciaCapabilities.Allow` decides it, down
//! to Free Pascal's `TryStrToInt` for ports and CIDR prefixes, because a scope
//! GocciaScript refuses must be refused here with the same message, and one it
//! accepts must be hashed, not refused.

use crate::core::config::capability::Capability;
use crate::core::env::Env;
use crate::core::error::ConfigError;
use crate::core::paths::{expand_without_trailing_separator, fpc_try_str_to_int, pascal_trim};

/// The `node_modules=<dir>` prefix, in the spelling the request keeps.
pub const NODE_MODULES_PREFIX: &str = "node_modules=";

/// The parenthesized advice of an invalid-scope message.
pub fn scope_hint(capability: Capability) -> &'static str {
    match capability {
        Capability::Net => "use host, host:port, *.domain, an IP, a CIDR range, or private",
        Capability::Import => "use node_modules, node_modules=<dir>, or a provider such as github",
        // Never shown: a resolved path scope is always valid.
        Capability::Read | Capability::Ffi => "use a path",
    }
}

pub use crate::core::paths::declaring_dir;

/// GocciaScript's `AbsolutePath`: an absolute path (leading `/` only — a
/// backslash does not root a path on Unix) is expanded as is; anything else
/// is appended to the declaring directory *before* expansion, so a relative
/// `~/x` names `<dir>/~/x`, never `$HOME/x`. One trailing `/` goes; `""`
/// becomes `/`.
pub fn absolute_path(path: &str, dir_with_separator: &str, env: &Env) -> String {
    if path.starts_with('/') {
        expand_without_trailing_separator(path, &env.cwd, &env.home)
    } else {
        let mut joined = String::with_capacity(dir_with_separator.len() + 1 + path.len());
        joined.push_str(dir_with_separator);
        if !joined.ends_with(['/', '\\']) {
            joined.push('/');
        }
        joined.push_str(path);
        expand_without_trailing_separator(&joined, &env.cwd, &env.home)
    }
}

/// `prefix` matched ASCII-case-insensitively at the start of `text`.
pub(crate) fn strip_prefix_ignore_ascii_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.as_bytes().get(..prefix.len())?;
    // The prefix is ASCII, so a match ends on a character boundary.
    head.eq_ignore_ascii_case(prefix.as_bytes())
        .then(|| &text[prefix.len()..])
}

/// A scope as written, resolved against the directory of the file that
/// declares it (docs/src/compatibility.md#resolution-per-capability): read/ffi become absolute lexical paths, the directory
/// of `node_modules=<dir>` too (with the prefix lower-cased), and everything
/// else is only trimmed.
pub fn resolve_scope(
    capability: Capability,
    written: &str,
    dir_with_separator: &str,
    env: &Env,
) -> String {
    let scope = pascal_trim(written);
    match capability {
        Capability::Read | Capability::Ffi => absolute_path(scope, dir_with_separator, env),
        Capability::Import => match strip_prefix_ignore_ascii_case(scope, NODE_MODULES_PREFIX) {
            Some(dir) if !dir.is_empty() => {
                format!(
                    "{NODE_MODULES_PREFIX}{}",
                    absolute_path(dir, dir_with_separator, env)
                )
            }
            _ => scope.to_owned(),
        },
        Capability::Net => scope.to_owned(),
    }
}

/// Why GocciaScript refuses a scope: its message, without the location
/// (`<file>: `) a config's error starts with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScopeError {
    /// `"<key>" has an empty scope`.
    Empty(String),
    /// `invalid scope in "<key>": "<as written>" (<hint>)`.
    Invalid(String),
}

impl ScopeError {
    pub fn message(&self) -> &str {
        match self {
            ScopeError::Empty(m) | ScopeError::Invalid(m) => m,
        }
    }

    /// The config's error: `<location>: <message>` (exit 1).
    pub fn with_location(&self, location: &str) -> ConfigError {
        ConfigError::invalid(format!("{location}: {}", self.message()))
    }
}

/// One scope of `key` (`permissions.allow-net`, ...) as written, read as
/// GocciaScript reads it: refused when empty after `Trim` or invalid once
/// resolved against `dir_with_separator`; else the resolved
/// scope. A config's request and `policy evaluate --value` both read their
/// scopes here.
pub fn read_scope(
    capability: Capability,
    key: &str,
    written: &str,
    dir_with_separator: &str,
    env: &Env,
) -> Result<String, ScopeError> {
    if pascal_trim(written).is_empty() {
        return Err(ScopeError::Empty(format!("\"{key}\" has an empty scope")));
    }
    let resolved = resolve_scope(capability, written, dir_with_separator, env);
    if !is_valid_scope(capability, &resolved) {
        return Err(ScopeError::Invalid(format!(
            "invalid scope in \"{key}\": \"{written}\" ({})",
            scope_hint(capability)
        )));
    }
    Ok(resolved)
}

/// Whether GocciaScript accepts an already resolved scope for `capability`.
pub fn is_valid_scope(capability: Capability, resolved: &str) -> bool {
    match capability {
        // Resolution always yields an absolute path; only a relative one is
        // refused.
        Capability::Read | Capability::Ffi => resolved.starts_with('/'),
        Capability::Net => is_valid_net_scope(resolved),
        Capability::Import => is_valid_import_scope(resolved),
    }
}

/// Import scopes as docs/src/compatibility.md#import-scopes gives them: `node_modules`,
/// `node_modules=<absolute dir>`, `github`, `github:<owner>`,
/// `github:<owner>/<repo>`, case-insensitive. Owner and repo are read as
/// `[a-z0-9._-]+` after lower-casing (the documentation names no set).
pub fn is_valid_import_scope(scope: &str) -> bool {
    let text = pascal_trim(scope);
    if text.eq_ignore_ascii_case("node_modules") {
        return true;
    }
    if let Some(ceiling) = strip_prefix_ignore_ascii_case(text, NODE_MODULES_PREFIX) {
        return ceiling.starts_with('/');
    }
    let provider = text.to_ascii_lowercase();
    let Some(rest) = provider.strip_prefix("github") else {
        return false;
    };
    if rest.is_empty() {
        return true;
    }
    let Some(path) = rest.strip_prefix(':') else {
        return false;
    };
    let name_ok = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'.' | b'_' | b'-'))
    };
    match path.split_once('/') {
        None => name_ok(path),
        Some((owner, repo)) => name_ok(owner) && name_ok(repo),
    }
}

/// docs/src/compatibility.md#scope-validation net scopes, as `TryParseNetScope` reads them: on the trimmed,
/// ASCII-lower-cased text.
pub fn is_valid_net_scope(scope: &str) -> bool {
    let text = pascal_trim(scope).to_ascii_lowercase();
    if text.is_empty() {
        return false;
    }
    if text == "private" {
        return true;
    }
    if text.contains('/') {
        return is_cidr(&text);
    }

    let (host, port) = if text.starts_with('[') {
        // The first `]` closes the literal, and it must enclose something.
        let Some(close) = text.find(']').filter(|&i| i >= 2) else {
            return false;
        };
        let port = match &text[close + 1..] {
            "" => None,
            after => match after.strip_prefix(':') {
                Some("") | None => return false,
                Some(port) => Some(port),
            },
        };
        (&text[1..close], port)
    } else if text.bytes().filter(|&b| b == b':').count() == 1 {
        match text.split_once(':') {
            Some((_, "")) | None => return false,
            Some((host, port)) => (host, Some(port)),
        }
    } else {
        (text.as_str(), None)
    };

    if let Some(port) = port {
        let in_range = fpc_try_str_to_int(port).is_some_and(|p| (1..=65535).contains(&p));
        if !in_range || port.contains(['+', '-']) {
            return false;
        }
    }

    let host = strip_trailing_dot(host);
    if is_ip_address(host) {
        return true;
    }
    if host.contains(':') {
        return false;
    }
    match host.strip_prefix("*.") {
        Some(domain) => is_valid_host_name(domain),
        None => is_valid_host_name(host),
    }
}

/// One trailing dot names the same host; a lone `.` stays as it is.
fn strip_trailing_dot(host: &str) -> &str {
    if host.len() > 1 {
        host.strip_suffix('.').unwrap_or(host)
    } else {
        host
    }
}

fn is_valid_host_name(host: &str) -> bool {
    !host.is_empty()
        && !host.starts_with('.')
        && !host.ends_with('.')
        && !host.contains("..")
        && host
            .bytes()
            .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_'))
}

fn is_ip_address(text: &str) -> bool {
    parse_ipv4(text) || parse_ipv6(text)
}

/// Strict dotted quad: four decimal parts of one to three digits, each ≤ 255.
/// Shorthand, hex and bare-integer spellings are refused.
fn parse_ipv4(text: &str) -> bool {
    let parts: Vec<&str> = text.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            (1..=3).contains(&p.len())
                && p.bytes().all(|b| b.is_ascii_digit())
                && p.parse::<u16>().is_ok_and(|v| v <= 255)
        })
}

/// RFC 4291 text: `::` once at most, groups of one to four hex digits, an
/// IPv4 tail after the last `:`. Surrounding brackets and a `%zone` suffix
/// (anything after the first `%`, but not nothing) are accepted.
fn parse_ipv6(text: &str) -> bool {
    let mut text = text;
    if text.len() >= 2 && text.starts_with('[') && text.ends_with(']') {
        text = &text[1..text.len() - 1];
    }
    if let Some(percent) = text.find('%') {
        if percent + 1 == text.len() {
            return false;
        }
        text = &text[..percent];
    }
    if text.is_empty() || !text.contains(':') {
        return false;
    }
    match text.find("::") {
        Some(at) => {
            let (head, tail) = (&text[..at], &text[at + 2..]);
            if tail.contains("::") {
                return false;
            }
            match (ipv6_group_count(head, false), ipv6_group_count(tail, true)) {
                (Some(h), Some(t)) => h + t <= 7,
                _ => false,
            }
        }
        None => ipv6_group_count(text, true) == Some(8),
    }
}

/// How many 16-bit groups a `:`-separated run holds (an IPv4 tail counts
/// two), or `None` when a piece is malformed.
fn ipv6_group_count(run: &str, allow_ipv4_tail: bool) -> Option<usize> {
    if run.is_empty() {
        return Some(0);
    }
    let pieces: Vec<&str> = run.split(':').collect();
    let mut count = 0;
    for (i, piece) in pieces.iter().enumerate() {
        if piece.is_empty() {
            return None;
        }
        let last = i + 1 == pieces.len();
        if last && allow_ipv4_tail && piece.contains('.') {
            if !parse_ipv4(piece) || count + 2 > 8 {
                return None;
            }
            count += 2;
        } else {
            if piece.len() > 4 || count >= 8 || !piece.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            count += 1;
        }
    }
    Some(count)
}

/// `<address>/<prefix>`, the prefix read by `TryStrToInt` and bounded by the
/// family (IPv4 if the address is a dotted quad, else IPv6).
fn is_cidr(text: &str) -> bool {
    let Some(slash) = text.find('/') else {
        return false;
    };
    if slash == 0 || slash + 1 == text.len() {
        return false;
    }
    let (address, prefix) = (&text[..slash], &text[slash + 1..]);
    let max = if parse_ipv4(address) {
        32
    } else if parse_ipv6(address) {
        128
    } else {
        return false;
    };
    fpc_try_str_to_int(prefix).is_some_and(|p| (0..=max).contains(&p))
}

#[cfg(test)]
mod tests;

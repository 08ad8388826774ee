//! Permission scopes: how GocciaScript 0.14 makes a scope absolute
//! (goccia-reference.md §3.3) and which scopes each capability accepts (§4).
//!
//! Validity is decided exactly as `TGocciaCapabilities.Allow` decides it, down
//! to Free Pascal's `TryStrToInt` for ports and CIDR prefixes, because a scope
//! GocciaScript refuses must be refused here with the same message, and one it
//! accepts must be hashed, not refused.

use crate::core::config::request::Capability;
use crate::core::env::Env;
use crate::core::paths::{expand_without_trailing_separator, pascal_trim};

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

/// Free Pascal's `ExtractFilePath`: everything up to and including the last
/// separator. On Unix FPC counts `\` as a separator here too.
pub fn declaring_dir(source_file: &str) -> &str {
    match source_file.rfind(['/', '\\']) {
        Some(i) => &source_file[..=i],
        None => "",
    }
}

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
/// declares it (§3.3): read/ffi become absolute lexical paths, the directory
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

/// §4 import scopes, following goccia-permissions.md (0.14): `node_modules`,
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

/// §4 net scopes, as `TryParseNetScope` reads them: on the trimmed,
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

/// Free Pascal 3.2.2's `TryStrToInt` into a `Longint` on a 64-bit host:
/// leading spaces and tabs, an optional sign, then `$`/`x`/`0x` (hex), `%`
/// (binary) or `&` (octal); the value is accumulated in 64 bits (a decimal
/// one bounded by `Int64`, others by `QWord`), then truncated to 32 bits. A
/// NUL ends the number early; text longer than 255 bytes is refused.
pub fn fpc_try_str_to_int(text: &str) -> Option<i32> {
    let s = text.as_bytes();
    let len = s.len();
    if len == 0 || len > 255 {
        return None;
    }
    // 1-based like the Pascal original; past the end reads as NUL.
    let at = |i: usize| if (1..=len).contains(&i) { s[i - 1] } else { 0 };

    let mut code = 1;
    while code <= len && matches!(at(code), b' ' | b'\t') {
        code += 1;
    }
    let mut negative = false;
    match at(code) {
        b'-' => {
            negative = true;
            code += 1;
        }
        b'+' => code += 1,
        _ => {}
    }
    let mut base: u64 = 10;
    if code <= len {
        match at(code) {
            b'$' | b'x' | b'X' => {
                base = 16;
                code += 1;
            }
            b'%' => {
                base = 2;
                code += 1;
            }
            b'&' => {
                base = 8;
                code += 1;
            }
            b'0' if code < len && matches!(at(code + 1), b'x' | b'X') => {
                base = 16;
                code += 2;
            }
            _ => {}
        }
    }
    while code < len && at(code) == b'0' {
        code += 1;
    }
    if code > len {
        return None;
    }
    if at(code) == 0 {
        return (code > 1 && at(code - 1) == b'0').then_some(0);
    }

    let max_prev = u64::MAX / base;
    let max_new = if base == 10 {
        i64::MAX as u64 + u64::from(negative)
    } else {
        u64::MAX
    };
    let mut value: u64 = 0;
    while code <= len {
        let c = at(code);
        let digit = match c {
            b'0'..=b'9' => u64::from(c - b'0'),
            b'a'..=b'f' => u64::from(c - b'a' + 10),
            b'A'..=b'F' => u64::from(c - b'A' + 10),
            0 => break,
            _ => 16,
        };
        let prev = value;
        let shifted = value.wrapping_mul(base);
        if digit >= base || max_new - digit < shifted || prev > max_prev {
            return None;
        }
        value = shifted + digit;
        code += 1;
    }
    let mut result = value as i64;
    if negative {
        result = result.wrapping_neg();
    }
    // Truncation to Longint, as the assignment of the 64-bit result does.
    Some(result as i32)
}

#[cfg(test)]
mod tests;

//! The normalized permission block and its SHA-256 (goccia-reference.md §5):
//! the exact bytes GocciaScript 0.14 hashes, so a trust recorded here and one
//! recorded by GocciaScript are interchangeable.

use sha2::{Digest, Sha256};

use crate::core::config::json::quote_json_string;
use crate::core::config::request::{Capability, KeyRequest, PermissionRequest};
use crate::core::config::sandbox::{SandboxDiff, SandboxRequest};
use crate::core::config::scope::{NODE_MODULES_PREFIX, strip_prefix_ignore_ascii_case};
use crate::core::paths::pascal_trim;

/// A request's canonical compact JSON text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NormalizedBlock {
    text: String,
}

impl NormalizedBlock {
    pub fn from_request(request: &PermissionRequest) -> NormalizedBlock {
        let mut text = String::from("{");

        let mut members: Vec<(String, String)> = Vec::new();
        for allow in [true, false] {
            for capability in Capability::ALL {
                let key = request.keys(allow).get(capability);
                if key.requests_any() {
                    members.push((capability.key(allow), scopes_json(capability, key)));
                }
            }
        }
        if !members.is_empty() {
            members.sort();
            text.push_str("\"permissions\":{");
            push_members(&mut text, &members);
            text.push_str("},");
        }

        if let Some(sandbox) = &request.sandbox {
            text.push_str("\"sandbox\":");
            text.push_str(&sandbox_json(sandbox));
            text.push(',');
        }

        // Already in byte order.
        let unsafe_keys: Vec<&str> = [
            (
                "unsafe-function-constructor",
                request.unsafe_function_constructor,
            ),
            ("unsafe-shadowrealm", request.unsafe_shadowrealm),
        ]
        .into_iter()
        .filter_map(|(k, on)| on.then_some(k))
        .collect();
        if !unsafe_keys.is_empty() {
            text.push_str("\"unsafe\":{");
            let members: Vec<(String, String)> = unsafe_keys
                .iter()
                .map(|k| (k.to_string(), "true".to_owned()))
                .collect();
            push_members(&mut text, &members);
            text.push_str("},");
        }

        text.push_str("\"version\":1}");
        NormalizedBlock { text }
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The block's text, without copying it.
    pub fn into_string(self) -> String {
        self.text
    }

    /// Lower-case hex SHA-256 of the block's UTF-8 bytes.
    pub fn sha256(&self) -> String {
        sha256_hex(self.text.as_bytes())
    }
}

impl std::fmt::Display for NormalizedBlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// Lower-case hex SHA-256 (sha2 0.11 digests do not format with `{:x}`).
pub fn sha256_hex(bytes: &[u8]) -> String {
    lower_hex(&Sha256::digest(bytes))
}

/// Bytes as lower-case hex, two digits each.
pub fn lower_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut hex = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        // A table, not `format!`: this runs for every config hashed.
        hex.push(char::from(DIGITS[usize::from(byte >> 4)]));
        hex.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    hex
}

/// §5 scope normalization: read/ffi trimmed; net trimmed and ASCII
/// lower-cased (a trailing dot kept); import lower-cased except the path of
/// `node_modules=<dir>`, whose prefix is spelled in lower case.
pub fn normalize_scope(capability: Capability, scope: &str) -> String {
    let scope = pascal_trim(scope);
    match capability {
        Capability::Read | Capability::Ffi => scope.to_owned(),
        Capability::Net => scope.to_ascii_lowercase(),
        Capability::Import => match strip_prefix_ignore_ascii_case(scope, NODE_MODULES_PREFIX) {
            Some(dir) => format!("{NODE_MODULES_PREFIX}{dir}"),
            None => scope.to_ascii_lowercase(),
        },
    }
}

/// `true` when unscoped, else the normalized scopes, de-duplicated and
/// sorted by UTF-8 bytes.
fn scopes_json(capability: Capability, key: &KeyRequest) -> String {
    if key.unscoped {
        return "true".to_owned();
    }
    let mut scopes: Vec<String> = key
        .scopes
        .iter()
        .map(|s| normalize_scope(capability, &s.resolved))
        .collect();
    scopes.sort();
    scopes.dedup();
    string_array(scopes.iter().map(String::as_str))
}

fn string_array<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let quoted: Vec<String> = items.map(quote_json_string).collect();
    format!("[{}]", quoted.join(","))
}

fn push_members(text: &mut String, members: &[(String, String)]) {
    for (i, (key, value)) in members.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&quote_json_string(key));
        text.push(':');
        text.push_str(value);
    }
}

/// Members in the fixed order copy, copy-rw, diff, diff-file, entry, each
/// only when non-empty; inputs keep their order and duplicates because a
/// later input may overwrite an earlier one in the sandbox.
fn sandbox_json(sandbox: &SandboxRequest) -> String {
    let mut members: Vec<(String, String)> = Vec::new();
    for (key, inputs) in [("copy", &sandbox.copy), ("copy-rw", &sandbox.copy_rw)] {
        if !inputs.is_empty() {
            let texts: Vec<String> = inputs.iter().map(|i| i.block_text()).collect();
            members.push((
                key.to_owned(),
                string_array(texts.iter().map(String::as_str)),
            ));
        }
    }
    if let Some(diff) = sandbox.diff {
        let value = match diff {
            SandboxDiff::Default => "true".to_owned(),
            SandboxDiff::Json => quote_json_string("json"),
            SandboxDiff::Unified => quote_json_string("unified"),
        };
        members.push(("diff".to_owned(), value));
    }
    for (key, value) in [("diff-file", &sandbox.diff_file), ("entry", &sandbox.entry)] {
        if let Some(value) = value.as_deref().filter(|v| !v.is_empty()) {
            members.push((key.to_owned(), quote_json_string(value)));
        }
    }
    let mut text = String::from("{");
    push_members(&mut text, &members);
    text.push('}');
    text
}

#[cfg(test)]
mod tests;

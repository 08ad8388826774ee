//! The normalized permission block and its SHA-256 (docs/src/compatibility.md#the-normalized-block):
//! the exact bytes GocciaScript 0.14 hashes, so a trust recorded here and one
//! recorded by GocciaScript are interchangeable.

use std::borrow::Cow;

use sha2::{Digest, Sha256};

use crate::core::config::json::{self, Json, quote_json_string_into};
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
    /// The block written straight into its text: members are put in order
    /// first, then each value is quoted into place (this runs for every
    /// config loaded, so nothing is formatted twice).
    pub fn from_request(request: &PermissionRequest) -> NormalizedBlock {
        let mut text = String::with_capacity(128);
        text.push('{');

        let mut members: Vec<(&'static str, Capability, &KeyRequest)> = Vec::new();
        for allow in [true, false] {
            for capability in Capability::ALL {
                let key = request.keys(allow).get(capability);
                if key.requests_any() {
                    members.push((capability.key(allow), capability, key));
                }
            }
        }
        if !members.is_empty() {
            members.sort_unstable_by_key(|(name, _, _)| *name);
            text.push_str("\"permissions\":{");
            for (i, (name, capability, key)) in members.into_iter().enumerate() {
                push_member_name(&mut text, i, name);
                push_scopes(&mut text, capability, key);
            }
            text.push_str("},");
        }

        if let Some(sandbox) = &request.sandbox {
            text.push_str("\"sandbox\":");
            push_sandbox(&mut text, sandbox);
            text.push(',');
        }

        // Already in byte order.
        let unsafe_keys = [
            (
                "unsafe-function-constructor",
                request.unsafe_function_constructor,
            ),
            ("unsafe-shadowrealm", request.unsafe_shadowrealm),
        ];
        if unsafe_keys.iter().any(|(_, on)| *on) {
            text.push_str("\"unsafe\":{");
            let on = unsafe_keys
                .into_iter()
                .filter_map(|(k, on)| on.then_some(k));
            for (i, name) in on.enumerate() {
                push_member_name(&mut text, i, name);
                text.push_str("true");
            }
            text.push_str("},");
        }

        text.push_str("\"version\":1}");
        NormalizedBlock { text }
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// A block this tool wrote earlier, given back as its text (a listing
    /// keeps the text, not the request it was written from).
    pub fn of_text(text: String) -> NormalizedBlock {
        NormalizedBlock { text }
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

impl NormalizedBlock {
    /// The block with its JSON: the one time this tool's own block text is
    /// parsed. Everything after (the description lines, the value diff,
    /// the store entry, provenance, the JSON reports) takes the [`Block`].
    #[allow(clippy::expect_used)] // our own writer's JSON; see the comment below
    pub fn into_block(self) -> Block {
        // Our own compact JSON: `parse` cannot refuse it (the property test
        // `no_input_panics` in `block/tests.rs` holds it to that).
        let json = json::parse(&self.text).expect("a normalized block is valid JSON");
        Block {
            text: self.text,
            json,
        }
    }
}

/// A block with its parsed JSON, made once and passed on: the text is what
/// is hashed and recorded, the JSON what is compared and described.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    text: String,
    json: Json,
}

impl Block {
    /// The normalized block of `request`, written and parsed.
    pub fn from_request(request: &PermissionRequest) -> Block {
        NormalizedBlock::from_request(request).into_block()
    }

    /// A block's text from elsewhere (a report's, a revision's), parsed
    /// here once.
    #[cfg(any(test, feature = "test-support"))]
    pub fn parse(text: &str) -> Result<Block, json::JsonError> {
        Ok(Block {
            json: json::parse(text)?,
            text: text.to_string(),
        })
    }

    /// A stored block (already JSON), with its compact text.
    pub fn from_json(json: Json) -> Block {
        Block {
            text: json.to_compact(),
            json,
        }
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn json(&self) -> &Json {
        &self.json
    }

    /// Lower-case hex SHA-256 of the text's UTF-8 bytes.
    pub fn sha256(&self) -> String {
        sha256_hex(self.text.as_bytes())
    }
}

impl std::fmt::Display for Block {
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

/// docs/src/compatibility.md#the-normalized-block scope normalization: read/ffi trimmed; net trimmed and ASCII
/// lower-cased (a trailing dot kept); import lower-cased except the path of
/// `node_modules=<dir>`, whose prefix is spelled in lower case.
pub fn normalize_scope(capability: Capability, scope: &str) -> String {
    normalized_scope(capability, scope).into_owned()
}

/// [`normalize_scope`], borrowing the scope when it is already normal.
fn normalized_scope(capability: Capability, scope: &str) -> Cow<'_, str> {
    fn lower(s: &str) -> Cow<'_, str> {
        match s.bytes().any(|b| b.is_ascii_uppercase()) {
            true => Cow::Owned(s.to_ascii_lowercase()),
            false => Cow::Borrowed(s),
        }
    }
    let scope = pascal_trim(scope);
    match capability {
        Capability::Read | Capability::Ffi => Cow::Borrowed(scope),
        Capability::Net => lower(scope),
        Capability::Import => match strip_prefix_ignore_ascii_case(scope, NODE_MODULES_PREFIX) {
            Some(_) if scope.starts_with(NODE_MODULES_PREFIX) => Cow::Borrowed(scope),
            Some(dir) => Cow::Owned(format!("{NODE_MODULES_PREFIX}{dir}")),
            None => lower(scope),
        },
    }
}

/// `true` when unscoped, else the normalized scopes, de-duplicated and
/// sorted by UTF-8 bytes.
fn push_scopes(text: &mut String, capability: Capability, key: &KeyRequest) {
    if key.unscoped {
        text.push_str("true");
        return;
    }
    let mut scopes: Vec<Cow<'_, str>> = key
        .scopes
        .iter()
        .map(|s| normalized_scope(capability, &s.resolved))
        .collect();
    scopes.sort_unstable();
    scopes.dedup();
    push_string_array(text, scopes.iter().map(|s| s.as_ref()));
}

fn push_string_array<'a>(text: &mut String, items: impl Iterator<Item = &'a str>) {
    text.push('[');
    for (i, item) in items.enumerate() {
        if i > 0 {
            text.push(',');
        }
        quote_json_string_into(item, text);
    }
    text.push(']');
}

/// `,` before every member but the first, then its quoted name and `:`.
fn push_member_name(text: &mut String, index: usize, name: &str) {
    if index > 0 {
        text.push(',');
    }
    quote_json_string_into(name, text);
    text.push(':');
}

/// Members in the fixed order copy, copy-rw, diff, diff-file, entry, each
/// only when non-empty; inputs keep their order and duplicates because a
/// later input may overwrite an earlier one in the sandbox.
fn push_sandbox(text: &mut String, sandbox: &SandboxRequest) {
    text.push('{');
    let mut index = 0;
    for (key, inputs) in [("copy", &sandbox.copy), ("copy-rw", &sandbox.copy_rw)] {
        if !inputs.is_empty() {
            push_member_name(text, index, key);
            index += 1;
            let texts: Vec<String> = inputs.iter().map(|i| i.block_text()).collect();
            push_string_array(text, texts.iter().map(String::as_str));
        }
    }
    if let Some(diff) = sandbox.diff {
        push_member_name(text, index, "diff");
        index += 1;
        match diff {
            SandboxDiff::Default => text.push_str("true"),
            SandboxDiff::Json => quote_json_string_into("json", text),
            SandboxDiff::Unified => quote_json_string_into("unified", text),
        }
    }
    for (key, value) in [("diff-file", &sandbox.diff_file), ("entry", &sandbox.entry)] {
        if let Some(value) = value.as_deref().filter(|v| !v.is_empty()) {
            push_member_name(text, index, key);
            index += 1;
            quote_json_string_into(value, text);
        }
    }
    text.push('}');
}

#[cfg(test)]
mod tests;

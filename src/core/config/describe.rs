//! Description lines of a normalized block (goccia-reference.md §11), as
//! reports, `--trust` and `--list-trusted` print them.
//!
//! GocciaScript derives them from the block's JSON text with a streaming
//! reader, so a block read back from the store (written by any version, in
//! any member order, with duplicate keys) is described the same way: members
//! in document order, unknown sections and numbers ignored.

use crate::core::config::json::Json;
use crate::core::config::request::Capability;

/// One line per member of the block: `allow-net: a.test, b.test`,
/// `allow-read: any path`, `unsafe-shadowrealm: true`, `sandbox.copy: …`,
/// `sandbox: no inputs (sandbox mode only)` for an empty section.
pub fn description_lines(block: &Json) -> Vec<String> {
    let mut walker = Walker::default();
    walker.visit(block);
    walker.lines
}

/// The keys a `--list-trusted` line shows: the part of each description line
/// before its first `:`, joined by `, `.
pub fn summary_keys(lines: &[String]) -> String {
    let keys: Vec<&str> = lines
        .iter()
        .map(|l| l.split(':').next().unwrap_or(l))
        .collect();
    keys.join(", ")
}

/// What an unscoped (`true`) permission key covers. Import has no wording
/// of its own (an unscoped import is never valid), so like any unknown key
/// it reads `true`.
pub fn unscoped_description(key: &str) -> &'static str {
    match Capability::parse_key(key) {
        Some((_, Capability::Read)) => "any path",
        Some((true, Capability::Net)) => "any public host",
        Some((false, Capability::Net)) => "any host",
        Some((_, Capability::Ffi)) => "any library",
        _ => "true",
    }
}

/// The reader's state, with depth counted as GocciaScript counts it: the
/// top-level object is depth 1, a section's object depth 2, a scope array
/// depth 3.
#[derive(Default)]
struct Walker {
    lines: Vec<String>,
    depth: usize,
    section: String,
    key: String,
    /// The strings of the scope array being read, joined by `, `. Like
    /// GocciaScript, an empty string adds no separator while the text so far
    /// is empty.
    scopes: Option<String>,
    /// Lines added since the sandbox object opened.
    sandbox_lines: usize,
}

impl Walker {
    fn add_line(&mut self, value: &str) {
        if self.section == "sandbox" {
            self.lines.push(format!("sandbox.{}: {value}", self.key));
            self.sandbox_lines += 1;
        } else {
            self.lines.push(format!("{}: {value}", self.key));
        }
    }

    fn visit(&mut self, value: &Json) {
        match value {
            Json::Null | Json::Number(_) => {}
            Json::Bool(on) => {
                if self.depth != 2 || !on {
                    return;
                }
                match self.section.as_str() {
                    "permissions" => {
                        let text = unscoped_description(&self.key);
                        self.add_line(text);
                    }
                    "unsafe" | "sandbox" => self.add_line("true"),
                    _ => {}
                }
            }
            Json::String(text) => {
                if self.depth == 2 && self.section == "sandbox" {
                    self.add_line(text);
                } else if let Some(scopes) = &mut self.scopes {
                    if !scopes.is_empty() {
                        scopes.push_str(", ");
                    }
                    scopes.push_str(text);
                }
            }
            Json::Object(members) => {
                self.depth += 1;
                if self.depth == 2 && self.section == "sandbox" {
                    self.sandbox_lines = 0;
                }
                for (key, member) in members {
                    match self.depth {
                        1 => self.section = key.clone(),
                        2 => self.key = key.clone(),
                        _ => {}
                    }
                    self.visit(member);
                }
                if self.depth == 2 && self.section == "sandbox" && self.sandbox_lines == 0 {
                    self.lines
                        .push("sandbox: no inputs (sandbox mode only)".to_owned());
                }
                self.depth -= 1;
            }
            Json::Array(items) => {
                self.depth += 1;
                let opens_list =
                    self.depth == 3 && (self.section == "permissions" || self.section == "sandbox");
                if opens_list {
                    self.scopes = Some(String::new());
                }
                for item in items {
                    self.visit(item);
                }
                if self.depth == 3
                    && let Some(scopes) = self.scopes.take()
                {
                    self.add_line(&scopes);
                }
                self.depth -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests;

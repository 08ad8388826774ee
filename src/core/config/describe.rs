//! Description lines of a normalized block (docs/src/compatibility.md#description-lines), as
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
    let mut lines = Vec::new();
    Walker::new(Sink::Lines(&mut lines)).visit(block);
    lines
}

/// The keys a `--list-trusted` line shows: the part of each description line
/// before its first `:`, joined by `, `.
pub fn summary_keys(lines: &[String]) -> String {
    let keys: Vec<&str> = lines.iter().map(|l| line_key(l)).collect();
    keys.join(", ")
}

/// [`summary_keys`] of the block's [`description_lines`], without making
/// the lines: `list` shows only this for an entry that still matches.
pub fn block_summary(block: &Json) -> String {
    let mut summary = String::with_capacity(64);
    Walker::new(Sink::Keys {
        summary: &mut summary,
        lines: 0,
    })
    .visit(block);
    summary
}

fn line_key(line: &str) -> &str {
    line.split(':').next().unwrap_or(line)
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

/// Where the walker's lines go.
enum Sink<'o> {
    /// Whole lines.
    Lines(&'o mut Vec<String>),
    /// Each line's key (the part before its first `:`), joined by `, `;
    /// the scope texts are not gathered.
    Keys {
        summary: &'o mut String,
        /// Lines seen so far (a key may be empty).
        lines: usize,
    },
}

/// The reader's state, with depth counted as GocciaScript counts it: the
/// top-level object is depth 1, a section's object depth 2, a scope array
/// depth 3. Section and key borrow the block's own strings.
struct Walker<'a, 'o> {
    sink: Sink<'o>,
    depth: usize,
    section: &'a str,
    key: &'a str,
    /// The strings of the scope array being read, joined by `, `. Like
    /// GocciaScript, an empty string adds no separator while the text so far
    /// is empty.
    scopes: Option<String>,
    /// Lines added since the sandbox object opened.
    sandbox_lines: usize,
}

impl<'a, 'o> Walker<'a, 'o> {
    fn new(sink: Sink<'o>) -> Self {
        Walker {
            sink,
            depth: 0,
            section: "",
            key: "",
            scopes: None,
            sandbox_lines: 0,
        }
    }

    fn add_line(&mut self, value: &str) {
        let prefix = if self.section == "sandbox" {
            self.sandbox_lines += 1;
            "sandbox."
        } else {
            ""
        };
        self.push([prefix, self.key, ": ", value]);
    }

    fn push(&mut self, parts: [&str; 4]) {
        match &mut self.sink {
            Sink::Lines(lines) => lines.push(parts.concat()),
            Sink::Keys { summary, lines } => {
                if *lines > 0 {
                    summary.push_str(", ");
                }
                *lines += 1;
                // The line up to its first `:`, which may be the key's own.
                for part in parts {
                    match part.find(':') {
                        Some(i) => {
                            summary.push_str(&part[..i]);
                            break;
                        }
                        None => summary.push_str(part),
                    }
                }
            }
        }
    }

    fn visit(&mut self, value: &'a Json) {
        match value {
            Json::Null | Json::Number(_) => {}
            Json::Bool(on) => {
                if self.depth != 2 || !on {
                    return;
                }
                match self.section {
                    "permissions" => {
                        let text = unscoped_description(self.key);
                        self.add_line(text);
                    }
                    "unsafe" | "sandbox" => self.add_line("true"),
                    _ => {}
                }
            }
            Json::String(text) => {
                if self.depth == 2 && self.section == "sandbox" {
                    self.add_line(text);
                } else if let Some(scopes) = &mut self.scopes
                    && matches!(self.sink, Sink::Lines(_))
                {
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
                        1 => self.section = key,
                        2 => self.key = key,
                        _ => {}
                    }
                    self.visit(member);
                }
                if self.depth == 2 && self.section == "sandbox" && self.sandbox_lines == 0 {
                    self.push(["sandbox: no inputs (sandbox mode only)", "", "", ""]);
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

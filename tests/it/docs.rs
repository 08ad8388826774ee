//! The documents say true things (issue 25): README.md, ARCHITECTURE.md,
//! CONTRIBUTING.md and the book in `docs/src/`.
//!
//! * every relative link and `#anchor` resolves (mdBook's heading-id rule);
//! * every page of the book is in `SUMMARY.md`;
//! * the TUI's key table is the keymap, the command reference names every
//!   subcommand and option of the clap definition, and every `Error:` /
//!   `Warning:` message the sources can print has a troubleshooting entry;
//! * every transcript (a fenced block whose first line starts with `$ `) is
//!   marked `<!-- check: SCENARIO -->` and is the real binary's output: the
//!   scenario is built in a temporary directory, each `$ ` line is run by
//!   `sh` there (stdout and stderr on one pipe, as a terminal shows them),
//!   and what it prints is compared with the lines under it. The temporary
//!   directory is shown as the page's directory (`/tmp/ci-example`), and
//!   timestamps and decision-record ids, which no run can repeat, are
//!   compared by shape; `$ echo $?` prints the status of the line before,
//!   and a paragraph right after the block that starts `Exit N` is compared
//!   with the last line's status;
//! * a block after `<!-- file: SCENARIO PATH -->` is that file of the
//!   scenario, written before its transcripts run, so the inputs a page
//!   shows are the ones its outputs came from;
//! * README's test command is the one `.ci/run` runs.
//!
//! `doc_claims.rs` checks that every fenced block is one of these, or says
//! why it is not run.

use std::collections::HashSet;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use goccia_trust::core::env::Env;
use goccia_trust::demo::{Demo, build};

pub(crate) const ROOT: &str = env!("CARGO_MANIFEST_DIR");

pub(crate) fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The book's pages in `SUMMARY.md` order.
pub(crate) fn book_pages() -> Vec<String> {
    let summary = read("docs/src/SUMMARY.md");
    links(&summary)
        .into_iter()
        .map(|(_, target)| format!("docs/src/{target}"))
        .collect()
}

/// Every document the checks cover: README first, then the book in order.
fn documents() -> Vec<String> {
    let mut docs = vec![
        "README.md".to_string(),
        "ARCHITECTURE.md".to_string(),
        "CONTRIBUTING.md".to_string(),
        "docs/src/SUMMARY.md".to_string(),
    ];
    docs.extend(book_pages());
    docs
}

/// The text outside fenced code blocks, line by line (fenced lines blank).
pub(crate) fn prose_lines(text: &str) -> Vec<String> {
    let mut fence: Option<String> = None;
    text.lines()
        .map(|l| {
            let t = l.trim_start();
            if let Some(f) = &fence {
                if t.starts_with(f.as_str()) && t.trim_end().chars().all(|c| c == '`' || c == '~') {
                    fence = None;
                }
                return String::new();
            }
            if t.starts_with("```") || t.starts_with("~~~") {
                let f: String = t.chars().take_while(|c| *c == '`' || *c == '~').collect();
                fence = Some(f);
                return String::new();
            }
            l.to_string()
        })
        .collect()
}

/// Removes inline code spans (so `[a](b)` inside backticks is no link).
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find('`') {
        out.push_str(&rest[..at]);
        let ticks = rest[at..].chars().take_while(|c| *c == '`').count();
        let fence = "`".repeat(ticks);
        let after = &rest[at + ticks..];
        match after.find(&fence) {
            Some(end) => rest = &after[end + ticks..],
            None => {
                out.push_str(&rest[at..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// `[text](target)` and `![alt](target)` links of a page, outside code.
pub(crate) fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in prose_lines(text).iter().enumerate() {
        let line = without_code_spans(line);
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("");
            found.push((n + 1, target.to_string()));
            rest = &after[end..];
        }
    }
    found
}

/// mdBook 0.5's heading id (`mdbook-html`'s `id_from_content`) of the
/// heading's text: lower-cased, alphanumerics, `_` and `-` kept, white
/// space made `-`, everything else dropped; repeats get `-1`, `-2`.
fn heading_id(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c)
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// The rendered text of a heading's markdown: code ticks, emphasis and
/// link targets dropped.
fn heading_text(md: &str) -> String {
    let mut out = String::new();
    let mut rest = md;
    while let Some(at) = rest.find("](") {
        let open = rest[..at].rfind('[').unwrap_or(at);
        out.push_str(&rest[..open]);
        out.push_str(&rest[open + 1..at]);
        rest = rest[at..].find(')').map_or("", |e| &rest[at + e + 1..]);
    }
    out.push_str(rest);
    out.replace(['`', '*'], "")
}

/// The anchors of a markdown page.
pub(crate) fn anchors(text: &str) -> HashSet<String> {
    let mut used = HashSet::new();
    for line in prose_lines(text) {
        let t = line.trim_start();
        let hashes = t.chars().take_while(|c| *c == '#').count();
        if hashes == 0 || hashes > 6 || !t[hashes..].starts_with(' ') {
            continue;
        }
        let id = heading_id(&heading_text(&t[hashes + 1..]));
        let mut unique = id.clone();
        let mut n = 0;
        while !used.insert(unique.clone()) {
            n += 1;
            unique = format!("{id}-{n}");
        }
    }
    used
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    if !crate::common::in_checkout() {
        return;
    }
    let mut broken = Vec::new();
    for doc in documents() {
        let text = read(&doc);
        let dir = Path::new(&doc).parent().unwrap().to_path_buf();
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                PathBuf::from(&doc)
            } else {
                dir.join(path)
            };
            let full = Path::new(ROOT).join(&file);
            if !full.exists() {
                broken.push(format!("{doc}:{line}: {target}: no {}", file.display()));
                continue;
            }
            if let Some(anchor) = anchor {
                let page = std::fs::read_to_string(&full).unwrap_or_default();
                if !anchors(&page).contains(anchor) {
                    broken.push(format!("{doc}:{line}: {target}: no heading #{anchor}"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_anchor_rule_is_mdbooks() {
    // mdbook-html's own examples (utils.rs tests).
    assert_eq!(
        heading_id(&heading_text("`--passes`: add more rustdoc passes")),
        "--passes-add-more-rustdoc-passes"
    );
    assert_eq!(
        heading_id(&heading_text("`trust` — review and record")),
        "trust--review-and-record"
    );
    let page = "# A\n## A\n```\n# not a heading\n```\n## [Link](x.md) here\n";
    let ids = anchors(page);
    assert!(ids.contains("a") && ids.contains("a-1") && ids.contains("link-here"));
    assert!(!ids.contains("not-a-heading"));
}

#[test]
fn every_page_of_the_book_is_in_the_summary() {
    if !crate::common::in_checkout() {
        return;
    }
    let listed: HashSet<String> = book_pages().into_iter().collect();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(Path::new(ROOT).join("docs/src")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".md") && name != "SUMMARY.md" {
            let page = format!("docs/src/{name}");
            if !listed.contains(&page) {
                missing.push(page);
            }
        }
    }
    assert!(missing.is_empty(), "not in SUMMARY.md: {missing:?}");
}

/// The block between `<!-- NAME -->` and `<!-- /NAME -->`-style markers.
fn between<'a>(text: &'a str, begin: &str, end: &str) -> &'a str {
    let at = text.find(begin).unwrap_or_else(|| panic!("no {begin}")) + begin.len();
    let to = text[at..].find(end).unwrap_or_else(|| panic!("no {end}")) + at;
    &text[at..to]
}

#[test]
fn the_books_key_table_is_the_keymap() {
    if !crate::common::in_checkout() {
        return;
    }
    let page = read("docs/src/tui.md");
    let table = between(
        &page,
        "<!-- keys: generated from src/tui/keymap.rs -->\n",
        "<!-- /keys -->",
    );
    assert_eq!(
        table,
        goccia_trust::tui::keymap::markdown_table(),
        "docs/src/tui.md's key table differs from the keymap; paste the right side"
    );
}

/// The command reference: `commands.md`'s sections by heading.
fn sections(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in prose_lines(text) {
        if line.starts_with("## ") || line.starts_with("### ") {
            out.push((line.clone(), String::new()));
        } else if let Some(last) = out.last_mut() {
            last.1.push_str(&line);
            last.1.push('\n');
        }
    }
    out
}

/// Each subcommand (by its path, `policy evaluate`) with its options
/// (`--long`, `-s`, and positionals as `VALUE`), hidden ones included.
pub(crate) fn clap_reference() -> Vec<(String, Vec<String>)> {
    fn walk(cmd: &clap::Command, path: &str, out: &mut Vec<(String, Vec<String>)>) {
        let mut options = Vec::new();
        for a in cmd.get_arguments() {
            if a.is_global_set() && !path.is_empty() {
                continue; // listed once, under the global options
            }
            if matches!(a.get_id().as_str(), "help" | "version") {
                continue;
            }
            if let Some(long) = a.get_long() {
                options.push(format!("--{long}"));
            } else if a.is_positional() {
                let name = a
                    .get_value_names()
                    .and_then(|v| v.first())
                    .map(|v| v.to_string())
                    .unwrap_or_else(|| a.get_id().as_str().to_uppercase());
                options.push(name);
            }
            if let Some(short) = a.get_short() {
                options.push(format!("-{short}"));
            }
        }
        out.push((path.to_string(), options));
        for sub in cmd.get_subcommands() {
            if sub.get_name() == "help" {
                continue;
            }
            let p = if path.is_empty() {
                sub.get_name().to_string()
            } else {
                format!("{path} {}", sub.get_name())
            };
            walk(sub, &p, out);
        }
    }
    let mut out = Vec::new();
    walk(&goccia_trust::cli::args::command(), "", &mut out);
    out
}

#[test]
fn the_command_reference_names_every_subcommand_and_option() {
    if !crate::common::in_checkout() {
        return;
    }
    let page = read("docs/src/commands.md");
    let sections = sections(&page);
    let mut missing = Vec::new();
    for (path, options) in clap_reference() {
        // The top level's section is "Global options"; each subcommand's
        // heading names it in code: `scan`, `policy evaluate`.
        let wanted = if path.is_empty() {
            "Global options".to_string()
        } else {
            format!("`{path}`")
        };
        let Some((_, body)) = sections.iter().find(|(h, _)| h.contains(&wanted)) else {
            missing.push(format!("no section for {wanted}"));
            continue;
        };
        for option in options {
            let written = if option.starts_with('-') {
                format!("`{option}")
            } else {
                option.clone()
            };
            if !body.contains(&written) {
                missing.push(format!("{wanted}: {option}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/src/commands.md lacks:\n{}",
        missing.join("\n")
    );
}

// ---------------------------------------------------------------------------
// Troubleshooting: every message the sources can print.

/// One Rust string literal starting at `s[at] == '"'`: its value and the
/// index after it.
fn string_literal(s: &str, at: usize) -> (String, usize) {
    let b = s.as_bytes();
    let mut i = at + 1;
    let mut out = String::new();
    while b[i] != b'"' {
        if b[i] == b'\\' {
            let next = s[i + 1..].chars().next().unwrap();
            i += 1 + next.len_utf8();
            match next {
                '\n' => {
                    while matches!(b[i], b' ' | b'\t' | b'\n') {
                        i += 1;
                    }
                }
                'n' => out.push('\n'),
                't' => out.push('\t'),
                other => out.push(other),
            }
            continue;
        }
        let c = s[i..].chars().next().unwrap();
        out.push(c);
        i += c.len_utf8();
    }
    (out, i + 1)
}

/// The first string literal among a call's arguments (`s[from..]` just
/// after its `(`), if the call has one before it closes.
fn first_literal(s: &str, from: usize) -> Option<String> {
    let b = s.as_bytes();
    let mut depth = 1;
    let mut i = from;
    while i < b.len() && depth > 0 {
        match b[i] {
            b'"' => return Some(string_literal(s, i).0),
            b'\'' if i + 2 < b.len() && b[i + 2] == b'\'' => i += 2,
            b'(' => depth += 1,
            b')' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    None
}

/// A message as a pattern: `Error: ` / `Warning: ` dropped, each `{…}`
/// argument of a format string (and each `<…>` placeholder of a page)
/// made `<>`.
fn message_pattern(text: &str, placeholders: (char, char)) -> String {
    let text = text
        .strip_prefix("Error: ")
        .or_else(|| text.strip_prefix("Warning: "))
        .unwrap_or(text);
    let text = if placeholders.0 == '{' {
        text.replace("{{", "\u{1}").replace("}}", "\u{2}")
    } else {
        text.to_string()
    };
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find(placeholders.0) {
        let Some(end) = rest[at..].find(placeholders.1) else {
            break;
        };
        out.push_str(&rest[..at]);
        out.push_str("<>");
        rest = &rest[at + end + 1..];
    }
    out.push_str(rest);
    let out = out.replace('\u{1}', "{").replace('\u{2}', "}");
    // A source message may also hold a placeholder of its own
    // (`--trust-store=<path>`): the page writes it the same way.
    if placeholders.0 == '{' {
        message_pattern(&out, ('<', '>'))
    } else {
        out
    }
}

/// The messages the sources can print: the first literal of every error
/// constructor (`CliError::usage|failed|new|config_text`,
/// `ConfigError::invalid|usage`, `UsageError`, thiserror's `#[error]`) and
/// every literal starting `Warning: `, outside tests. A message that is
/// only arguments (`"{path}: {}"`, forwarding another error) is left to
/// the constructor of that error. Each with where it was found.
fn printable_messages() -> Vec<(String, String)> {
    const CONSTRUCTORS: &[&str] = &[
        "CliError::usage(",
        "CliError::failed(",
        "CliError::new(",
        "CliError::config_text(",
        "ConfigError::invalid(",
        "ConfigError::usage(",
        "UsageError(",
        "#[error(",
    ];
    let mut files = Vec::new();
    let mut dirs = vec![Path::new(ROOT).join("src")];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for file in files {
        let name = file.file_name().unwrap().to_str().unwrap();
        // Tests and test doubles print nothing a user meets.
        if name.ends_with("_tests.rs")
            || name == "tests.rs"
            || ["fake.rs", "fixtures.rs", "demo.rs"].contains(&name)
        {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let text = match text.find("#[cfg(test)]\nmod tests") {
            Some(at) => &text[..at],
            None => &text[..],
        };
        let rel = file.strip_prefix(ROOT).unwrap().display().to_string();
        let mut found = Vec::new();
        for c in CONSTRUCTORS {
            for (at, _) in text.match_indices(c) {
                if let Some(m) = first_literal(text, at + c.len()) {
                    found.push(m);
                }
            }
        }
        for (at, _) in text.match_indices("\"Warning: ") {
            found.push(string_literal(text, at).0);
        }
        for m in found {
            let pattern = message_pattern(&m, ('{', '}'));
            let letters = pattern
                .replace("<>", "")
                .chars()
                .filter(|c| c.is_alphabetic())
                .count();
            if letters >= 3 && seen.insert(pattern.clone()) {
                out.push((pattern, rel.clone()));
            }
        }
    }
    out
}

#[test]
fn every_printable_message_has_a_troubleshooting_entry() {
    if !crate::common::in_checkout() {
        return;
    }
    let page = read("docs/src/troubleshooting.md");
    // The entries: every code span of the page, as a pattern (a span
    // opened by two backticks may hold one, and drops a space each side).
    let mut entries = HashSet::new();
    for line in prose_lines(&page) {
        let mut rest = line.as_str();
        while let Some(at) = rest.find('`') {
            let ticks = rest[at..].chars().take_while(|c| *c == '`').count();
            let fence = "`".repeat(ticks);
            let after = &rest[at + ticks..];
            let Some(end) = after.find(&fence) else { break };
            let span = &after[..end];
            let span = match (span.strip_prefix(' '), ticks > 1) {
                (Some(inner), true) => inner.strip_suffix(' ').unwrap_or(inner),
                _ => span,
            };
            entries.insert(message_pattern(span, ('<', '>')));
            rest = &after[end + ticks..];
        }
    }
    let messages = printable_messages();
    assert!(messages.len() > 50, "the scan found {}", messages.len());
    let missing: Vec<String> = messages
        .iter()
        .filter(|(m, _)| !entries.contains(m))
        .map(|(m, file)| format!("- `{m}` ({file})"))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/src/troubleshooting.md has no entry for these messages (write each \
         as a code span, an argument as <name>):\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_message_scan_reads_rust_literals() {
    let src = r#"CliError::usage(format!(
            "{flag} needs \"a\" \
             path {{x}}", flag = f("(")))"#;
    assert_eq!(
        message_pattern(&first_literal(src, 16).unwrap(), ('{', '}')),
        "<> needs \"a\" path {x}"
    );
    assert_eq!(
        message_pattern("Warning: cannot read <path>: <reason>", ('<', '>')),
        "cannot read <>: <>"
    );
}

// ---------------------------------------------------------------------------
// Transcripts: shown output is the real binary's.

/// A fenced block of a page with the marker line before it, if any.
pub(crate) struct Block {
    pub(crate) page: String,
    pub(crate) line: usize,
    pub(crate) marker: Option<String>,
    pub(crate) text: String,
    /// The first line of prose after the block (blank lines skipped), where
    /// a page states an example's exit code (`Exit 0.`).
    after: String,
}

pub(crate) fn blocks(page: &str) -> Vec<Block> {
    let text = read(page);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            let mark = t.chars().next().unwrap();
            let fence: String = t.chars().take_while(|c| *c == mark).collect();
            let start = i;
            let mut body = String::new();
            i += 1;
            while i < lines.len() && lines[i].trim() != fence {
                body.push_str(lines[i]);
                body.push('\n');
                i += 1;
            }
            let after = lines[(i + 1).min(lines.len())..]
                .iter()
                .find(|l| !l.trim().is_empty())
                .map_or(String::new(), |l| l.trim().to_string());
            let marker = lines[..start]
                .iter()
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(|l| l.trim())
                .filter(|l| l.starts_with("<!--"))
                .map(|l| l.to_string());
            out.push(Block {
                page: page.to_string(),
                line: start + 1,
                marker,
                text: body,
                after,
            });
        }
        i += 1;
    }
    out
}

fn all_blocks() -> Vec<Block> {
    let mut docs = documents();
    docs.retain(|d| d != "docs/src/SUMMARY.md");
    docs.iter().flat_map(|d| blocks(d)).collect()
}

#[test]
fn every_transcript_is_checked() {
    if !crate::common::in_checkout() {
        return;
    }
    let unchecked: Vec<String> = all_blocks()
        .into_iter()
        .filter(|b| b.text.starts_with("$ "))
        .filter(|b| {
            !b.marker
                .as_deref()
                .is_some_and(|m| m.starts_with("<!-- check: ") || m == "<!-- demo scan: start -->")
        })
        .map(|b| format!("{}:{}", b.page, b.line))
        .collect();
    assert!(
        unchecked.is_empty(),
        "blocks that show output without <!-- check: SCENARIO --> before them: {unchecked:?}"
    );
}

/// A scenario: a directory the transcripts run in, and how its temporary
/// path is shown on the page.
struct Scenario {
    _tmp: tempfile::TempDir,
    /// The temporary root and the path the pages show for it.
    root: PathBuf,
    shown: &'static str,
    cwd: PathBuf,
    env: Vec<(String, String)>,
}

impl Scenario {
    fn new(shown: &'static str) -> Scenario {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("home")).unwrap();
        let home = root.join("home").display().to_string();
        Scenario {
            cwd: root.clone(),
            _tmp: tmp,
            root,
            shown,
            env: vec![("HOME".into(), home)],
        }
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    }

    /// Runs one `$ ` line with `sh`; what it printed, and its status.
    fn run(&self, line: &str, status: i32) -> (String, i32) {
        let bin = Path::new(env!("CARGO_BIN_EXE_goccia-trust"))
            .parent()
            .unwrap();
        let line = line.replace(self.shown, self.root.to_str().unwrap());
        let script = format!("(exit {status}); {line}");
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("exec 2>&1; {script}"))
            .env_clear()
            .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
            .env("LC_ALL", "C.UTF-8")
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .current_dir(&self.cwd)
            .output()
            .unwrap();
        let text =
            String::from_utf8_lossy(&out.stdout).replace(self.root.to_str().unwrap(), self.shown);
        (text, out.status.code().unwrap_or(-1))
    }
}

/// What no second run can repeat, made a shape: ISO timestamps and
/// decision-record ids.
fn shape(text: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    // `2026-12-02T09:12:03Z`, `2026-12-02T09-25-23-290Z`.
    let date_at = |i: usize| {
        i + 11 <= chars.len()
            && chars[i..i + 4].iter().all(|c| c.is_ascii_digit())
            && chars[i + 4] == '-'
            && chars[i + 7] == '-'
            && chars[i + 10] == 'T'
    };
    while i < chars.len() {
        if date_at(i) {
            let mut j = i + 11;
            while j < chars.len() && (chars[j].is_ascii_digit() || ":-.".contains(chars[j])) {
                j += 1;
            }
            if j < chars.len() && chars[j] == 'Z' {
                j += 1;
                // A record id goes on: -<pid>-<random>.
                if j < chars.len() && chars[j] == '-' {
                    while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '-') {
                        j += 1;
                    }
                }
                out.push_str("<time>");
                i = j;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// Runs every block of `scenario` on every page, in page order: `file:`
/// blocks are written, `check:` blocks are run and compared.
fn check_scenario(name: &str, sc: &Scenario, setup_after_files: impl FnOnce(&Scenario)) {
    let blocks = all_blocks();
    let file_marker = format!("<!-- file: {name} ");
    for b in &blocks {
        if let Some(rest) = b
            .marker
            .as_deref()
            .and_then(|m| m.strip_prefix(&file_marker))
        {
            let rel = rest.trim_end_matches("-->").trim();
            sc.write(rel, &b.text);
        }
    }
    setup_after_files(sc);
    let check_marker = format!("<!-- check: {name} -->");
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut wrong_exit = Vec::new();
    for b in blocks
        .iter()
        .filter(|b| b.marker.as_deref() == Some(&check_marker))
    {
        let mut want = String::new();
        let mut got = String::new();
        let mut status = 0;
        let mut lines = b.text.lines().peekable();
        while let Some(line) = lines.next() {
            let command = line
                .strip_prefix("$ ")
                .unwrap_or_else(|| panic!("{}:{}: a transcript starts with `$ `", b.page, b.line));
            want.push_str(line);
            want.push('\n');
            got.push_str(line);
            got.push('\n');
            while let Some(out) = lines.next_if(|l| !l.starts_with("$ ")) {
                want.push_str(out);
                want.push('\n');
            }
            let (printed, code) = sc.run(command, status);
            got.push_str(&printed);
            status = code;
        }
        checked += 1;
        if let Some(stated) = stated_exit(&b.after)
            && stated != status
        {
            wrong_exit.push(format!(
                "{}:{}: the page says `Exit {stated}` after this transcript; its last command exited {status}",
                b.page, b.line
            ));
        }
        if shape(&want) != shape(&got) {
            failures.push((b.page.clone(), b.line, want, got));
        }
    }
    assert!(checked > 0, "no transcript uses scenario {name}");
    if std::env::var_os("GOCCIA_DOCS_BLESS").is_some() {
        bless(&failures);
    }
    let mut report: Vec<String> = failures
        .iter()
        .map(|(page, line, want, got)| {
            format!("{page}:{line}: the page shows\n{want}\nthe binary printed\n{got}")
        })
        .collect();
    report.extend(wrong_exit);
    assert!(
        report.is_empty(),
        "{}\n(GOCCIA_DOCS_BLESS=1 writes what the binary printed into the pages)",
        report.join("\n")
    );
}

/// The exit code a page states for the transcript just above it: the
/// paragraph after the block starts `Exit N` (`Exit 0.`, `Exit 2: ...`).
fn stated_exit(after: &str) -> Option<i32> {
    let rest = after.strip_prefix("Exit ")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// `GOCCIA_DOCS_BLESS=1`: each failing transcript's block is replaced by
/// what the binary printed (then review the diff before committing).
fn bless(failures: &[(String, usize, String, String)]) {
    let mut pages: Vec<&String> = failures.iter().map(|f| &f.0).collect();
    pages.dedup();
    for page in pages {
        let path = Path::new(ROOT).join(page);
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let mut mine: Vec<_> = failures.iter().filter(|f| &f.0 == page).collect();
        mine.sort_by_key(|f| std::cmp::Reverse(f.1));
        for (_, line, _, got) in mine {
            let open = line - 1;
            // The block's own fence: a longer one holds shorter ones.
            let fence: String = lines[open]
                .trim_start()
                .chars()
                .take_while(|c| *c == '`')
                .collect();
            let close = open
                + 1
                + lines[open + 1..]
                    .iter()
                    .position(|l| l.trim() == fence)
                    .unwrap();
            lines.splice(open + 1..close, got.lines().map(String::from));
        }
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    }
}

/// The live demo, built as `cargo run --features demo --bin goccia-trust-demo` builds it, shown as
/// `scripts/screenshots.sh` builds it (`/tmp/goccia-trust-demo`).
#[test]
fn transcripts_of_the_demo_are_real() {
    if !crate::common::in_checkout() {
        return;
    }
    let mut sc = Scenario::new("/tmp/goccia-trust-demo");
    let home = sc.root.join("home");
    let base = Env::at(sc.root.to_str().unwrap(), home.to_str().unwrap());
    let dir = sc.root.join("demo");
    build(&dir, &base).unwrap();
    // The demo's own directory is the one shown.
    sc.root = dir.clone();
    sc.cwd = dir;
    sc.env
        .push(("GOCCIA_TRUST_STATE_DIR".into(), Demo::STATE.into()));
    check_scenario("demo", &sc, |_| {});
}

/// The CI bootstrap's worked example (`policy.md`): a checkout that is a
/// repository, `tools/vendor` a link to `~/.ssh`, the operator's policy
/// beside it in `ci/`.
#[test]
fn transcripts_of_the_ci_example_are_real() {
    if !crate::common::in_checkout() {
        return;
    }
    let mut sc = Scenario::new("/tmp/ci-example");
    sc.cwd = sc.root.join("checkout");
    check_scenario("ci-example", &sc, |sc| {
        std::fs::create_dir_all(sc.root.join("checkout/.git")).unwrap();
        std::fs::create_dir_all(sc.root.join("home/.ssh")).unwrap();
        std::os::unix::fs::symlink(
            sc.root.join("home/.ssh"),
            sc.root.join("checkout/tools/vendor"),
        )
        .unwrap();
        old_runs(&sc.root.join("ci/old-state"), 800);
    });
}

/// A state directory holding the summaries of `n` earlier `trust --yes
/// --policy` runs (`policy.md`'s listing larger than a pipe), each in the
/// shape such a run writes.
fn old_runs(state: &Path, n: usize) {
    let runs = state.join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    for dir in [state, runs.as_path()] {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    for i in 0..n {
        let id = format!(
            "2026-11-{:02}T06-00-{:02}-{:03}Z-4242-run{i:03}",
            1 + i / 60,
            i % 60,
            i
        );
        let summary = serde_json::json!({
            "id": id,
            "enforced_before_execution": true,
            "op": "config-trust-run",
            "policy": "/tmp/ci-example/ci/policy.json",
            "policy_sha256": "e9fa8f4abadac53dfc01556806dccc20c6a1fafb5aa10fb7f6fcb2ca0892b188",
            "counts": {"ALLOWED": 1, "NEEDS_AUTH": 1, "DENIED": 1},
            "configs": [],
            "executed": true,
            "trusted": [],
        });
        std::fs::write(runs.join(format!("{id}.json")), summary.to_string()).unwrap();
    }
}

/// Who changed what (`who-changed.md`): a repository whose config was
/// trusted, then changed by two authors' commits and a working-tree edit.
#[test]
fn transcripts_of_who_changed_are_real() {
    if !crate::common::in_checkout() {
        return;
    }
    let mut sc = Scenario::new("/home/u");
    sc.root = sc.root.join("home");
    sc.cwd = sc.root.join("shop");
    check_scenario("who-changed", &sc, |sc| {
        let app = std::fs::read_to_string(sc.root.join("shop/app/goccia.json")).unwrap();
        let base = std::fs::read_to_string(sc.root.join("shop/base.json")).unwrap();
        let net = |hosts: &[&str]| {
            let hosts: Vec<String> = hosts.iter().map(|h| format!("\"{h}\"")).collect();
            format!(
                "{{\n  \"extends\": \"../base.json\",\n  \"permissions\": {{\n    \"allow-net\": [\n      {}\n    ]\n  }}\n}}\n",
                hosts.join(",\n      ")
            )
        };
        let git = |args: &[&str], who: &str, date: &str| {
            let email = format!("{}@example.com", who.to_lowercase());
            let out = Command::new("git")
                .current_dir(&sc.cwd)
                .env_clear()
                .env("PATH", "/usr/bin:/bin")
                .env("HOME", &sc.root)
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .envs([("GIT_AUTHOR_NAME", who), ("GIT_COMMITTER_NAME", who)])
                .envs([
                    ("GIT_AUTHOR_EMAIL", &email),
                    ("GIT_COMMITTER_EMAIL", &email),
                ])
                .envs([("GIT_AUTHOR_DATE", date), ("GIT_COMMITTER_DATE", date)])
                .args(args)
                .output()
                .unwrap();
            assert!(out.status.success(), "git {args:?}: {out:?}");
        };
        let commit = |who: &str, date: &str, msg: &str| {
            git(&["add", "-A"], who, date);
            git(&["commit", "-q", "-m", msg], who, date);
        };
        // Alice's first version, trusted on November 15.
        git(
            &["init", "-q", "-b", "main"],
            "Alice",
            "2026-11-01T09:00:00Z",
        );
        std::fs::write(
            sc.root.join("shop/app/goccia.json"),
            net(&["api.example.com"]),
        )
        .unwrap();
        let first_base = base.replace("true", "false");
        std::fs::write(sc.root.join("shop/base.json"), &first_base).unwrap();
        commit("Alice", "2026-11-01T09:00:00Z", "Add the app config");
        let (out, code) = sc.run("goccia-trust trust app --yes", 0);
        assert_eq!(code, 0, "{out}");
        let store = sc.root.join(".config/goccia/trust.json");
        let text = std::fs::read_to_string(&store).unwrap();
        let at = text.find("\"trustedAt\": \"").unwrap() + 14;
        let text = format!("{}2026-11-15T10:00:00Z{}", &text[..at], &text[at + 20..]);
        std::fs::write(&store, text).unwrap();
        // Bob's host, Carol's base, then a host not committed.
        std::fs::write(
            sc.root.join("shop/app/goccia.json"),
            net(&["api.example.com", "cdn.example.net"]),
        )
        .unwrap();
        commit("Bob", "2026-11-20T14:30:00Z", "Load assets from the CDN");
        std::fs::write(sc.root.join("shop/base.json"), &base).unwrap();
        commit(
            "Carol",
            "2026-11-21T08:00:00Z",
            "Allow the function constructor",
        );
        std::fs::write(sc.root.join("shop/app/goccia.json"), &app).unwrap();
    });
}

/// Who introduced each value (`pull-requests.md`): the config the page
/// shows is `topic`'s; `main` has it without Bob's and Mallory's lines,
/// each added by its own commit, at fixed dates (so the ids are the same
/// on every run).
#[test]
fn transcripts_of_the_pull_request_example_are_real() {
    if !crate::common::in_checkout() {
        return;
    }
    let sc = Scenario::new("/tmp/pr-example");
    check_scenario("pull-request", &sc, |sc| {
        let topic = std::fs::read_to_string(sc.root.join("goccia.json")).unwrap();
        let git = |args: &[&str], who: &str, date: &str| {
            let email = format!("{}@example.com", who.to_lowercase());
            let out = Command::new("git")
                .current_dir(&sc.root)
                .env_clear()
                .env("PATH", "/usr/bin:/bin")
                .env("HOME", sc.root.join("home"))
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .envs([
                    ("GIT_AUTHOR_NAME", who),
                    ("GIT_COMMITTER_NAME", who),
                    ("GIT_AUTHOR_EMAIL", email.as_str()),
                    ("GIT_COMMITTER_EMAIL", email.as_str()),
                    ("GIT_AUTHOR_DATE", date),
                    ("GIT_COMMITTER_DATE", date),
                ])
                .args(args)
                .output()
                .unwrap();
            assert!(out.status.success(), "git {args:?}: {out:?}");
        };
        let commit = |who: &str, date: &str, text: &str, msg: &str| {
            sc.write("goccia.json", text);
            git(&["add", "goccia.json"], who, date);
            git(&["commit", "-q", "-m", msg], who, date);
        };
        git(
            &["init", "-q", "-b", "main"],
            "Alice",
            "2026-11-01T10:00:00Z",
        );
        let alice = topic
            .replace(
                "      \"api.example.com\",\n      \"cdn.evil.example\"",
                "      \"api.example.com\"",
            )
            .replace("      \"./assets\"\n", "");
        commit("Alice", "2026-11-01T10:00:00Z", &alice, "start");
        git(
            &["checkout", "-q", "-b", "topic"],
            "Bob",
            "2026-11-30T10:00:00Z",
        );
        let bob = topic.replace(
            "      \"api.example.com\",\n      \"cdn.evil.example\"",
            "      \"api.example.com\"",
        );
        commit("Bob", "2026-11-30T10:00:00Z", &bob, "serve assets");
        commit("Mallory", "2026-12-01T10:00:00Z", &topic, "bump deps");
    });
}

/// The commands' examples (`commands.md`): a home with a project in it.
#[test]
fn transcripts_of_the_commands_are_real() {
    if !crate::common::in_checkout() {
        return;
    }
    let mut sc = Scenario::new("/home/u");
    sc.root = sc.root.join("home");
    sc.cwd = sc.root.clone();
    check_scenario("commands", &sc, |_| {});
}

#[test]
fn the_readmes_test_command_is_what_ci_runs() {
    if !crate::common::in_checkout() {
        return;
    }
    let readme = read("README.md");
    let try_it = between(&readme, "## Try it", "\n## ");
    let command = try_it
        .lines()
        .skip_while(|l| !l.starts_with("# Run the tests"))
        .nth(1)
        .expect("README's Try it has the test command");
    let ci = read(".ci/run");
    assert!(
        ci.lines().any(|l| l.trim() == command.trim()),
        ".ci/run does not run README's test command {command:?}"
    );
}

#[test]
fn the_readme_is_a_front_door() {
    if !crate::common::in_checkout() {
        return;
    }
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= 250,
        "README.md has {lines} lines; the guide is docs/"
    );
    for heading in ["## Install", "## Try it"] {
        assert!(readme.contains(&format!("\n{heading}\n")), "no {heading}");
    }
    let into_the_guide = links(&readme)
        .iter()
        .filter(|(_, target)| target.starts_with("docs/src/"))
        .count();
    assert!(
        into_the_guide >= 10,
        "{into_the_guide} links into the guide"
    );
}

/// The signed reviews guide (`signed-reviews.md`): a repository with three
/// configs, alice's and bob's keys made here by ssh-keygen, and bob's
/// review of `a` already committed; the page signs as alice and verifies.
#[test]
fn transcripts_of_signed_reviews_are_real() {
    if !crate::common::in_checkout() {
        return;
    }
    let mut sc = Scenario::new("/home/u");
    sc.root = sc.root.join("home");
    sc.cwd = sc.root.join("project");
    check_scenario("signed-reviews", &sc, |sc| {
        // A real repository with the configs committed: `review sign`
        // warns about a config that differs from the commit.
        let project = sc.root.join("project");
        crate::common::git::git(&project, &["init", "-q", "-b", "main"]);
        crate::common::git::git(&project, &["add", "."]);
        crate::common::git::git(&project, &["commit", "-q", "-m", "configs"]);
        std::fs::create_dir_all(sc.root.join(".ssh")).unwrap();
        let mut allowed = String::new();
        for who in ["alice", "bob"] {
            let key = sc.root.join(".ssh").join(who);
            let out = Command::new("ssh-keygen")
                .args(["-q", "-t", "ed25519", "-N", "", "-C", who, "-f"])
                .arg(&key)
                .output()
                .unwrap();
            assert!(out.status.success());
            let public = std::fs::read_to_string(key.with_extension("pub")).unwrap();
            let mut words = public.split_whitespace();
            let (kind, base64) = (words.next().unwrap(), words.next().unwrap());
            allowed.push_str(&format!("{who}@example.com {kind} {base64}\n"));
        }
        let file = sc.root.join(".config/goccia/allowed_signers");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, allowed).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        let (out, code) = sc.run(
            "goccia-trust review sign --yes --principal bob@example.com --key ~/.ssh/bob a",
            0,
        );
        assert_eq!(code, 0, "{out}");
    });
}

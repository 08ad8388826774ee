//! `diff BASE [HEAD]`: the permission diff between two revisions of the
//! repository holding the working directory (HEAD: the working tree by
//! default), as text, JSON (`--json`), a pull-request comment
//! (`--format markdown`) or where CI looks (`--format sarif|github`: one
//! finding per widened, broken or narrowed config, on the line of the
//! request at HEAD, through `cli::ci_out`). Exit 1 when something widened or a config no
//! longer loads (`--exit-zero`: 0), 2 on a usage error (not a repository,
//! an unknown revision: git's message). Reads only; writes nothing.

use std::fmt::Write as _;

use clap::{Args, ValueEnum};
use serde::Serialize;

use crate::cli::ci_out::{self, Finding, Rule};
use crate::cli::json_out::{JsonError, is_unscoped, to_json};
use crate::cli::paint::{mark, styled};
use crate::cli::{CliError, CliResult, Io};
use crate::core::config::block::sha256_hex;
use crate::core::config::json::{self as config_json, Json};
use crate::core::env::Env;
use crate::core::error::ConfigError;
use crate::core::exit;
use crate::core::paths::bounded::{CONFIG_MAX_BYTES, read_regular};
use crate::core::review::locate::{line_of_request, request_line_in_text};
use crate::core::review::value_diff::Change;
use crate::core::revision::compare::{
    ConfigDiff, DiffValue, RevisionDiff, Status, Verdict, compare, judged_values,
};
use crate::core::revision::{
    ConfigAt, Snapshot, note_links_over, read_revision, read_working_tree, repository_root,
};
use crate::sanitize::clean;
use crate::tui::theme::Role;

/// The permission diff between two revisions (HEAD: the working tree).
#[derive(Debug, Clone, Default, Args)]
pub struct DiffArgs {
    /// The revision to compare against (`main`, `HEAD~1`, a commit).
    pub base: String,
    /// The revision to compare (default: the working tree).
    pub head: Option<String>,
    /// Print one JSON document (schema 1, `schemas/diff.schema.json`).
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Output format.
    #[arg(long, value_enum)]
    pub format: Option<DiffFormat>,
    /// Also list the configs that did not change.
    #[arg(long)]
    pub all: bool,
    /// Exit 0 even when permissions widened (only report).
    #[arg(long = "exit-zero")]
    pub exit_zero: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Text,
    Markdown,
    /// SARIF 2.1.0 for code scanning.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
}

pub fn run(args: &DiffArgs, env: &Env, io: &mut Io<'_>) -> CliResult {
    let root = repository_root(env).map_err(|e| CliError::usage(e.0))?;
    let base = read_revision(&root, &args.base, env).map_err(|e| CliError::usage(e.0))?;
    let head = match &args.head {
        Some(rev) => read_revision(&root, rev, env).map_err(|e| CliError::usage(e.0))?,
        None => {
            let mut head = read_working_tree(&root, env);
            note_links_over(&mut head, &root, base.configs.keys());
            head
        }
    };
    let diff = compare(&base, &head);
    match args.format {
        Some(f @ (DiffFormat::Sarif | DiffFormat::Github)) => {
            let found = findings(&diff, &base, &head, &root, args.head.is_none());
            let not_read = not_read(&diff);
            let log = ci_out::Log {
                rules: &Rule::DIFF,
                findings: &found,
                src_root: &root,
                not_read: &not_read,
            };
            log.write(f == DiffFormat::Github, io)?;
        }
        _ => {
            let text = if args.json {
                json(&diff, &base, &head, &root, args.all)
            } else if args.format == Some(DiffFormat::Markdown) {
                markdown(&diff, args.all)
            } else {
                text(&diff, &root, args.all)
            };
            io.out.write_all(text.as_bytes())?;
        }
    }
    let flagged = diff.widened() || diff.broken() || diff.incomplete();
    Ok(if flagged && !args.exit_zero {
        exit::FAILURE
    } else {
        exit::SUCCESS
    })
}

fn shown(diff: &RevisionDiff, all: bool) -> impl Iterator<Item = &ConfigDiff> {
    diff.configs
        .iter()
        .filter(move |c| all || c.status != Status::Unchanged)
}

fn summary(diff: &RevisionDiff) -> String {
    use crate::core::revision::compare::Verdict::*;
    let changed = diff
        .configs
        .iter()
        .filter(|c| c.status != Status::Unchanged)
        .count();
    format!(
        "{changed} config{} changed: {} widened, {} narrowed, {} broken",
        if changed == 1 { "" } else { "s" },
        diff.count(Widened),
        diff.count(Narrowed),
        diff.count(Broken)
    )
}

/// The values of one config, request by request: changed ones always,
/// unchanged ones only with `all`.
fn groups(c: &ConfigDiff, all: bool) -> Vec<(&str, Vec<&DiffValue>)> {
    let mut out: Vec<(&str, Vec<&DiffValue>)> = Vec::new();
    for v in &c.values {
        if !all && v.change == Change::Unchanged {
            continue;
        }
        match out.last_mut() {
            Some((r, vs)) if *r == v.request => vs.push(v),
            _ => out.push((&v.request, vec![v])),
        }
    }
    out
}

/// Text: every config-derived value escaped whole (a newline or an escape
/// sequence in a path scope cannot forge a line, on a terminal or in a CI
/// log).
fn text(diff: &RevisionDiff, root: &str, all: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Permission diff of {} from {} to {}",
        clean(root),
        clean(&diff.base),
        clean(&diff.head)
    );
    if diff.head == "working tree" {
        out.push_str("(symlink targets are resolved on disk for the working tree only)\n");
    }
    for c in shown(diff, all) {
        let verdict = format!("({})", c.verdict.name());
        let verdict = match c.verdict {
            Verdict::Widened => mark(Role::Untrusted, &verdict),
            Verdict::Broken => mark(Role::Error, &verdict),
            Verdict::Narrowed => mark(Role::Trusted, &verdict),
            Verdict::Same => verdict,
        };
        let _ = write!(out, "\n{} {} {verdict}\n", c.status.name(), clean(&c.path),);
        if let Some(e) = &c.base_error {
            let _ = writeln!(out, "  at {}: {}", clean(&diff.base), clean(&e.message));
        }
        if let Some(e) = &c.head_error {
            let _ = writeln!(out, "  at {}: {}", clean(&diff.head), clean(&e.message));
        }
        if let Some(p) = &c.now_under {
            let _ = writeln!(
                out,
                "  its directory now falls under {}, which allows more",
                clean(p)
            );
        }
        if let Some(link) = &c.relinked {
            let _ = writeln!(out, "  {}", clean(&relinked_text(link)));
        }
        for (request, values) in groups(c, all) {
            let _ = writeln!(out, "  {}", clean(request));
            for v in values {
                let widens = if v.widens { "  (widens)" } else { "" };
                let sign = v.change.sign().to_string();
                let sign = match v.change.emphasis() {
                    Some(e) => styled(e, &sign),
                    None => sign,
                };
                let _ = writeln!(out, "    {sign} {}{widens}", clean(&v.shown()));
            }
        }
    }
    for (label, notes) in [
        (&diff.base, &diff.base_notes),
        (&diff.head, &diff.head_notes),
    ] {
        for n in notes {
            let _ = writeln!(out, "note ({}): {}", clean(label), clean(n));
        }
    }
    for n in &diff.not_read {
        let _ = writeln!(
            out,
            "not read ({}): {}",
            clean(&diff.head),
            clean(&n.message)
        );
    }
    let _ = writeln!(out, "\n{}", summary(diff));
    if diff.incomplete() {
        let _ = writeln!(out, "{}", incomplete_text(diff));
    }
    out
}

/// What a config removed because its directory became a link means.
fn relinked_text(link: &str) -> String {
    format!("its directory is now a symbolic link ({link}): its files are whatever that leads to")
}

/// The line that says the comparison is incomplete.
fn incomplete_text(diff: &RevisionDiff) -> String {
    let n = diff.not_read.len();
    format!(
        "incomplete: {n} path{} at {} not read; a config may hide there",
        if n == 1 { "" } else { "s" },
        diff.head
    )
}

/// One value of a request. An unscoped request (the boolean `true`, a
/// sandbox with no inputs) is `"unscoped": true` and has no `value`: the
/// text output's `any path` is a description, not data.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonValue<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<&'a str>,
    change: &'static str,
    unscoped: bool,
    widens: bool,
    /// A re-targeted scope: where it led at BASE and leads at HEAD.
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    to: Option<&'a str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonRequest<'a> {
    request: &'a str,
    values: Vec<JsonValue<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonConfig<'a> {
    path: &'a str,
    status: &'static str,
    verdict: &'static str,
    /// `{"message", "exit"}`, as every document of the contract gives a
    /// load error.
    base_error: Option<JsonError>,
    head_error: Option<JsonError>,
    now_under: Option<&'a str>,
    relinked: Option<&'a str>,
    /// The SHA-256 of the config's normalized block at HEAD, as computed
    /// for this checkout (its scopes are absolute paths here): what `trust
    /// --expect` pins on this same checkout. `null` when it does not load
    /// or is gone at HEAD.
    sha256: Option<String>,
    requests: Vec<JsonRequest<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonNotRead<'a> {
    path: &'a str,
    message: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonDiff<'a> {
    schema: u32,
    root: &'a str,
    base: &'a str,
    /// `null` for the working tree.
    head: Option<&'a str>,
    widened: bool,
    broken: bool,
    incomplete: bool,
    configs: Vec<JsonConfig<'a>>,
    not_read: Vec<JsonNotRead<'a>>,
    base_notes: &'a [String],
    head_notes: &'a [String],
}

fn json_error(e: &ConfigError) -> JsonError {
    JsonError {
        message: e.message.clone(),
        exit: e.class.code(),
    }
}

/// The block of config `path` at one side, parsed, when it loads there.
fn block_at(snap: &Snapshot, path: &str) -> Option<Json> {
    match snap.configs.get(path) {
        Some(ConfigAt::Loaded { block, .. }) => config_json::parse(block).ok(),
        _ => None,
    }
}

fn json(diff: &RevisionDiff, base: &Snapshot, head: &Snapshot, root: &str, all: bool) -> String {
    let configs = shown(diff, all)
        .map(|c| {
            let (base_block, head_block) = (block_at(base, &c.path), block_at(head, &c.path));
            // A removed value is the base's, any other the head's.
            let unscoped = |v: &DiffValue| {
                let side = match v.change {
                    Change::Removed => &base_block,
                    Change::Retargeted => &None,
                    Change::Added | Change::Unchanged => &head_block,
                };
                side.as_ref().is_some_and(|b| is_unscoped(b, &v.request))
            };
            JsonConfig {
                path: &c.path,
                status: c.status.name(),
                verdict: c.verdict.name(),
                base_error: c.base_error.as_ref().map(json_error),
                head_error: c.head_error.as_ref().map(json_error),
                now_under: c.now_under.as_deref(),
                relinked: c.relinked.as_deref(),
                sha256: match head.configs.get(&c.path) {
                    Some(ConfigAt::Loaded { block, .. }) => Some(sha256_hex(block.as_bytes())),
                    _ => None,
                },
                requests: groups(c, all)
                    .into_iter()
                    .map(|(request, values)| JsonRequest {
                        request,
                        values: values
                            .into_iter()
                            .map(|v| {
                                let unscoped = unscoped(v);
                                JsonValue {
                                    value: (!unscoped).then_some(v.value.as_str()),
                                    change: v.change.json_name(),
                                    unscoped,
                                    widens: v.widens,
                                    from: v.retarget.as_ref().map(|(f, _)| f.as_str()),
                                    to: v.retarget.as_ref().map(|(_, t)| t.as_str()),
                                }
                            })
                            .collect(),
                    })
                    .collect(),
            }
        })
        .collect();
    let doc = JsonDiff {
        schema: 1,
        root,
        base: &diff.base,
        head: (diff.head != "working tree").then_some(diff.head.as_str()),
        widened: diff.widened(),
        broken: diff.broken(),
        incomplete: diff.incomplete(),
        configs,
        not_read: diff
            .not_read
            .iter()
            .map(|n| JsonNotRead {
                path: &n.path,
                message: &n.message,
            })
            .collect(),
        base_notes: &diff.base_notes,
        head_notes: &diff.head_notes,
    };
    // Pretty, as every document of the contract.
    to_json(&doc)
}

/// What either side could not read, each line naming its side.
fn not_read(diff: &RevisionDiff) -> Vec<String> {
    let base = diff
        .base_notes
        .iter()
        .map(|n| format!("{}: {n}", diff.base));
    let head = diff
        .head_notes
        .iter()
        .map(|n| format!("{}: {n}", diff.head));
    base.chain(head).collect()
}

/// The text of config `path` at HEAD: the revision's blob as read, or for
/// the working tree the file on disk; `None` when there is none (removed,
/// a link in the tree, unreadable).
fn head_text(head: &Snapshot, root: &str, path: &str, working_tree: bool) -> Option<String> {
    if working_tree {
        let abs = if root == "/" {
            format!("/{path}")
        } else {
            format!("{root}/{path}")
        };
        let bytes = read_regular(abs, CONFIG_MAX_BYTES).ok()?;
        Some(String::from_utf8_lossy(&bytes).into_owned())
    } else {
        head.texts.get(path).cloned()
    }
}

/// The line at HEAD of the first of `requests` written in the file, else
/// (the value comes from the `extends` chain) the line of `extends`.
fn line_at_head(text: Option<&str>, requests: &[&str]) -> Option<usize> {
    let text = text?;
    request_line_in_text(text, requests).or_else(|| line_of_request(text, "extends"))
}

fn value_lines<'a>(values: impl Iterator<Item = &'a DiffValue>) -> Vec<String> {
    values
        .map(|v| {
            let mark = if v.widens { "  (widens)" } else { "" };
            format!(
                "{}: {} {}{mark}",
                clean(&v.request),
                v.change.sign(),
                clean(&v.shown())
            )
        })
        .collect()
}

fn values_of<'a>(snap: &'a Snapshot, path: &str) -> &'a [(String, Vec<String>)] {
    match snap.configs.get(path) {
        Some(ConfigAt::Loaded { values, .. }) => values,
        _ => &[],
    }
}

/// One finding per widened, broken or narrowed config (unchanged ones are
/// not findings), located on the line of the request at HEAD:
/// * widened (added or changed): the first request that gained a value,
///   else `extends` (the value came from its chain);
/// * widened by removal: the config is gone at HEAD, so the finding is on
///   the parent config its directory now falls under, at the first request
///   that allows more than the removed one did;
/// * broken: the config's file, without a line (it does not parse, or is
///   not a file at HEAD);
/// * narrowed: the first changed request; a removed config has no file at
///   HEAD, so only its path (no line).
pub fn findings(
    diff: &RevisionDiff,
    base: &Snapshot,
    head: &Snapshot,
    root: &str,
    working_tree: bool,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let span = format!("from {} to {}", clean(&diff.base), clean(&diff.head));
    for c in &diff.configs {
        let shown_path = clean(&c.path);
        let changed: Vec<&DiffValue> = c
            .values
            .iter()
            .filter(|v| v.change != Change::Unchanged)
            .collect();
        let head_of = |p: &str| head_text(head, root, p, working_tree);
        let finding = match c.verdict {
            Verdict::Same => continue,
            Verdict::Broken => Finding {
                rule: Rule::Broken,
                path: c.path.clone(),
                line: None,
                message: format!(
                    "{shown_path} ({}) does not load at {}: {}",
                    c.status.name(),
                    clean(&diff.head),
                    clean(
                        c.head_error
                            .as_ref()
                            .or(c.base_error.as_ref())
                            .map_or("", |e| e.message.as_str())
                    )
                ),
                state: None,
                status: Some(c.status.name()),
                identity: c.status.name().to_string(),
            },
            Verdict::Widened if c.status == Status::Removed => {
                let (path, line, detail) = match &c.now_under {
                    Some(parent) => {
                        let gained =
                            judged_values(values_of(base, &c.path), values_of(head, parent), &[]);
                        let gained: Vec<&DiffValue> = gained.iter().filter(|v| v.widens).collect();
                        let requests: Vec<&str> =
                            gained.iter().map(|v| v.request.as_str()).collect();
                        let line = line_at_head(head_of(parent).as_deref(), &requests);
                        let detail = format!(
                            "its directory now falls under {}, which allows more:\n{}",
                            clean(parent),
                            value_lines(gained.into_iter()).join("\n")
                        );
                        (parent.clone(), line, detail)
                    }
                    None if c.relinked.is_some() => (
                        c.path.clone(),
                        None,
                        clean(&relinked_text(c.relinked.as_deref().unwrap_or(""))).into_owned(),
                    ),
                    None => (
                        c.path.clone(),
                        None,
                        value_lines(changed.into_iter()).join("\n"),
                    ),
                };
                Finding {
                    rule: Rule::Widened,
                    path,
                    line,
                    message: format!("{shown_path} (removed) widened permissions {span}: {detail}"),
                    state: None,
                    status: Some(c.status.name()),
                    identity: format!("{shown_path} (removed): {detail}"),
                }
            }
            Verdict::Widened => {
                let widening = changed.iter().filter(|v| v.widens).copied();
                let requests: Vec<&str> = widening.clone().map(|v| v.request.as_str()).collect();
                let mut message = format!(
                    "{shown_path} ({}) widened permissions {span}",
                    c.status.name()
                );
                if let Some(e) = &c.base_error {
                    message.push_str(&format!(
                        " (it did not load at {}: {})",
                        clean(&diff.base),
                        clean(&e.message)
                    ));
                }
                let lines =
                    value_lines(widening.chain(changed.iter().filter(|v| !v.widens).copied()));
                for l in &lines {
                    message.push('\n');
                    message.push_str(l);
                }
                Finding {
                    rule: Rule::Widened,
                    path: c.path.clone(),
                    line: line_at_head(head_of(&c.path).as_deref(), &requests),
                    message,
                    state: None,
                    status: Some(c.status.name()),
                    identity: lines.join("\n"),
                }
            }
            Verdict::Narrowed => {
                let requests: Vec<&str> = changed.iter().map(|v| v.request.as_str()).collect();
                let line = if c.status == Status::Removed {
                    None
                } else {
                    line_at_head(head_of(&c.path).as_deref(), &requests)
                };
                let mut message = format!(
                    "{shown_path} ({}) narrowed permissions {span}",
                    c.status.name()
                );
                let lines = value_lines(changed.into_iter());
                for l in &lines {
                    message.push('\n');
                    message.push_str(l);
                }
                Finding {
                    rule: Rule::Narrowed,
                    path: c.path.clone(),
                    line,
                    message,
                    state: None,
                    status: Some(c.status.name()),
                    identity: lines.join("\n"),
                }
            }
        };
        out.push(finding);
    }
    for n in &diff.not_read {
        out.push(Finding {
            rule: Rule::NotRead,
            path: n.path.clone(),
            line: None,
            message: format!(
                "{} at {}; the comparison is incomplete",
                clean(&n.message),
                clean(&diff.head)
            ),
            state: None,
            status: None,
            identity: clean(&n.message).into_owned(),
        });
    }
    out
}

/// Config (or revision) text in markdown: a code span, so nothing in it
/// is interpreted (no emphasis, link, HTML, `@mention`, and no autolink of
/// `www.`, `http://` or an e-mail address), its delimiter longer than any
/// run of backticks inside; line breaks and other control or invisible
/// characters shown as escapes. In a table cell a `|` is escaped, as GFM
/// requires even inside a code span.
pub fn md_code(s: &str, in_table: bool) -> String {
    let mut body = code_text(s);
    if in_table {
        body = body.replace('|', "\\|");
    }
    if body.is_empty() {
        return "(empty)".to_string();
    }
    let ticks = "`".repeat(longest_backtick_run(&body) + 1);
    let pad = body.starts_with('`')
        || body.ends_with('`')
        || (body.starts_with(' ') && body.ends_with(' ') && !body.trim().is_empty());
    let space = if pad { " " } else { "" };
    format!("{ticks}{space}{body}{space}{ticks}")
}

/// Config text inside a fenced code block: on one line (line breaks and
/// control characters escaped), so it cannot close the fence; the fence
/// itself is longer than any run of backticks in the block.
fn code_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() || crate::sanitize::is_unsafe(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

fn markdown(diff: &RevisionDiff, all: bool) -> String {
    let mut out = String::new();
    let head = if diff.widened() {
        "Permissions widened"
    } else if diff.broken() {
        "A config does not load"
    } else if diff.incomplete() {
        "Incomplete: not everything was read"
    } else {
        "No permission widened"
    };
    let _ = writeln!(
        out,
        "### goccia-trust: {head}\n\nFrom {} to {}. {}.\n",
        md_code(&diff.base, false),
        md_code(&diff.head, false),
        summary(diff)
    );
    let configs: Vec<&ConfigDiff> = shown(diff, all).collect();
    if !configs.is_empty() {
        out.push_str("| Config | Change | Verdict |\n|---|---|---|\n");
        for c in &configs {
            let verdict = match c.verdict.name() {
                v @ ("widened" | "broken") => format!("**{v}**"),
                v => v.to_string(),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {verdict} |",
                md_code(&c.path, true),
                c.status.name()
            );
        }
    }
    for c in &configs {
        markdown_config(&mut out, diff, c, all);
    }
    markdown_not_read(&mut out, diff);
    out
}

/// One config's section: its errors, what now governs it, its values.
fn markdown_config(out: &mut String, diff: &RevisionDiff, c: &ConfigDiff, all: bool) {
    let _ = write!(
        out,
        "\n#### {} ({}, {})\n\n",
        md_code(&c.path, false),
        c.status.name(),
        c.verdict.name()
    );
    for (label, e) in [(&diff.base, &c.base_error), (&diff.head, &c.head_error)] {
        if let Some(e) = e {
            let _ = writeln!(
                out,
                "Does not load at {}: {}\n",
                md_code(label, false),
                md_code(&e.message, false)
            );
        }
    }
    if let Some(p) = &c.now_under {
        let _ = writeln!(
            out,
            "Its directory now falls under {}, which allows more.\n",
            md_code(p, false)
        );
    }
    if let Some(link) = &c.relinked {
        let _ = writeln!(
            out,
            "Its directory is now a symbolic link: {}. Its files are whatever that leads to.\n",
            md_code(link, false)
        );
    }
    let mut block = String::new();
    for (request, values) in groups(c, all) {
        let _ = writeln!(block, "@@ {} @@", code_text(request));
        for v in values {
            let mark = if v.widens { "   (widens)" } else { "" };
            let _ = writeln!(block, "{} {}{mark}", v.change.sign(), code_text(&v.shown()));
        }
    }
    if !block.is_empty() {
        let fence = "`".repeat(longest_backtick_run(&block).max(2) + 1);
        let _ = write!(out, "{fence}diff\n{block}{fence}\n");
    }
}

/// What was not read (the comparison is incomplete) and every note of
/// either side: always in the comment, never only in the log.
fn markdown_not_read(out: &mut String, diff: &RevisionDiff) {
    if !diff.not_read.is_empty() {
        let _ = write!(
            out,
            "\n#### Not read: the comparison is incomplete\n\n{}\n\n",
            incomplete_text(diff)
        );
        for n in &diff.not_read {
            let _ = writeln!(out, "- {}", md_code(&n.message, false));
        }
    }
    let notes: Vec<(&String, &String)> = diff
        .base_notes
        .iter()
        .map(|n| (&diff.base, n))
        .chain(diff.head_notes.iter().map(|n| (&diff.head, n)))
        .collect();
    if !notes.is_empty() {
        out.push_str("\n#### Notes\n\n");
        for (label, n) in notes {
            let _ = writeln!(out, "- {}: {}", md_code(label, false), md_code(n, false));
        }
    }
}

fn longest_backtick_run(s: &str) -> usize {
    let (mut best, mut run) = (0, 0);
    for c in s.chars() {
        if c == '`' {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_text_is_one_code_span() {
        let hostile = "/a|b`c<img src=x onerror=alert(1)>](http://evil)\n| x |@team www.x.com";
        let s = md_code(hostile, true);
        // One span: opened and closed by the same run of two backticks,
        // which appears nowhere else; no raw line break; every `|` escaped.
        assert!(s.starts_with("``") && s.ends_with("``"), "{s}");
        assert!(!s[2..s.len() - 2].contains("``"), "{s}");
        assert!(!s.contains('\n'), "{s}");
        assert_eq!(s.matches('|').count(), s.matches("\\|").count(), "{s}");
        assert!(s.contains("\\n"));
        // A leading or trailing backtick is padded, so it cannot join the
        // delimiter.
        assert_eq!(md_code("`x`", false), "`` `x` ``");
        assert_eq!(md_code("www.evil-phish.com", false), "`www.evil-phish.com`");
    }

    #[test]
    fn a_fence_outlasts_the_backticks_inside() {
        assert_eq!(longest_backtick_run("a ```` b ` c"), 4);
        assert_eq!(code_text("x\n```"), "x\\n```");
    }
}

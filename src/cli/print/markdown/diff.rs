//! `diff --format markdown`: a pull-request comment. Config and revision
//! text is always a code span or inside a fenced block ([`md_code`],
//! [`code_text`]), so nothing in it is interpreted.

use std::fmt::Write as _;

use crate::cli::io::Io;
use crate::cli::outcome::diff::{DiffResult, Listed, ListedValue};
use crate::cli::outcome::diff_reviews::HeadReviews;
use crate::cli::print::text::diff::{incomplete, origin_text, summary};
use crate::core::revision::compare::ConfigDiff;
use crate::core::revision::provenance::{Commit, ValueOrigin};

pub fn print(r: &DiffResult, io: &mut Io<'_>) -> std::io::Result<()> {
    io.out.write_all(render(r).as_bytes())
}

fn render(r: &DiffResult) -> String {
    let diff = &r.diff;
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
    let configs: Vec<Listed<'_>> = r.listed().collect();
    if !configs.is_empty() {
        out.push_str("| Config | Change | Verdict |\n|---|---|---|\n");
        for l in &configs {
            table_row(&mut out, l.config);
        }
    }
    for l in &configs {
        config(&mut out, r, *l);
    }
    not_read(&mut out, r);
    out
}

fn table_row(out: &mut String, c: &ConfigDiff) {
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

/// One config's section: its errors, what now governs it, its values,
/// the commits that introduced them.
fn config(out: &mut String, r: &DiffResult, l: Listed<'_>) {
    let (diff, c) = (&r.diff, l.config);
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
            "Its directory now falls under {}, which allows more:\n",
            md_code(p, false)
        );
        // What it allows more, as CI's message says it.
        for v in l.at_head.place.iter().flat_map(|p| &p.gained) {
            let _ = writeln!(
                out,
                "- {}: {} {} (widens)",
                md_code(&v.request, false),
                v.change.sign(),
                md_code(&v.shown(), false)
            );
        }
        out.push('\n');
    }
    if let Some(link) = &c.relinked {
        let _ = writeln!(
            out,
            "Its directory is now a symbolic link: {}. Its files are whatever that leads to.\n",
            md_code(link, false)
        );
    }
    let mut block = String::new();
    for (request, values) in l.groups() {
        let _ = writeln!(block, "@@ {} @@", code_text(request));
        for v in values {
            value_line(&mut block, v, &diff.base);
        }
    }
    if !block.is_empty() {
        let fence = "`".repeat(longest_backtick_run(&block).max(2) + 1);
        let _ = write!(out, "{fence}diff\n{block}{fence}\n");
    }
    if let Some(h) = &l.at_head.reviews {
        reviews(out, h);
    }
    introduced_by(out, r, l);
}

/// The config's signed reviews at HEAD: `Reviewed by alice@example.com
/// (this version)` (each name a code span), or `Not reviewed at HEAD` and
/// why, then each record that did not count.
fn reviews(out: &mut String, h: &HeadReviews) {
    let names = |names: &[&str]| {
        names
            .iter()
            .map(|n| md_code(n, false))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let line = if h.count > 0 {
        let reviewers: Vec<&str> = h.reviewers.iter().map(String::as_str).collect();
        format!("Reviewed by {} (this version)", names(&reviewers))
    } else if let Some(why) = &h.problem {
        format!("Not reviewed at HEAD: {}", md_code(why, false))
    } else if h.unchecked().is_empty() {
        "Not reviewed at HEAD".to_string()
    } else {
        format!(
            "Not reviewed at HEAD: signed by {}, not checked (no allowed signers: pass `--reviewed-by FILE`)",
            names(&h.unchecked())
        )
    };
    let _ = writeln!(out, "\n{line}\n");
    let mut any = false;
    for c in h.not_counted() {
        let _ = writeln!(out, "- {}", md_code(&c.text, false));
        any = true;
    }
    if any {
        out.push('\n');
    }
}

/// One value's line of the fenced `diff` block: where markdown writes a
/// value, and only here.
fn value_line(block: &mut String, l: ListedValue<'_>, base: &str) {
    let v = l.value;
    let mark = if v.widens { "   (widens)" } else { "" };
    let origin = l
        .origin
        .map(|o| origin_text(o, base, code_text))
        .unwrap_or_default();
    let _ = writeln!(
        block,
        "{} {}{mark}{origin}",
        v.change.sign(),
        code_text(&v.shown())
    );
}

/// The commits that introduced the config's widening values, each once,
/// as the block first names them: its short id (a link to the commit on
/// GitHub when [`DiffResult::commit_url`] says where), author, day and
/// subject, every part from git a code span.
fn introduced_by(out: &mut String, r: &DiffResult, l: Listed<'_>) {
    let mut commits: Vec<&Commit> = Vec::new();
    for (_, values) in l.groups() {
        for v in values {
            if let Some(ValueOrigin::Committed(c)) = v.origin
                && !commits.iter().any(|seen| seen.sha == c.sha)
            {
                commits.push(c);
            }
        }
    }
    if commits.is_empty() {
        return;
    }
    out.push_str("\nIntroduced by:\n\n");
    for c in commits {
        let short = md_code(&c.short, false);
        let id = match &r.commit_url {
            Some(url) if c.sha.bytes().all(|b| b.is_ascii_hexdigit()) => {
                format!("[{short}]({url}{})", c.sha)
            }
            _ => short,
        };
        let _ = writeln!(
            out,
            "- {id} {} on {}: {}",
            md_code(&format!("{} <{}>", c.author, c.email), false),
            md_code(c.day(), false),
            md_code(&c.subject, false)
        );
    }
}

/// What was not read (the comparison is incomplete), every note of either
/// side, and why provenance is absent: always in the comment, never only
/// in the log.
fn not_read(out: &mut String, r: &DiffResult) {
    let diff = &r.diff;
    if !diff.not_read.is_empty() {
        let _ = write!(
            out,
            "\n#### Not read: the comparison is incomplete\n\n{}\n\n",
            incomplete(diff, |r| md_code(r, false))
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
    if !notes.is_empty() || r.provenance.is_some() {
        out.push_str("\n#### Notes\n\n");
        for (label, n) in notes {
            let _ = writeln!(out, "- {}: {}", md_code(label, false), md_code(n, false));
        }
        if let Some(absent) = &r.provenance {
            let _ = writeln!(out, "- {}", md_code(&absent.describe(), false));
        }
    }
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

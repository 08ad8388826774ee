//! The book says what happens (issue 46): every fenced block of README.md
//! and `docs/src/*.md` is run, is an input of what is run, or says why it
//! is not, so a page cannot slip in a claim nobody checks.
//!
//! The marker is an HTML comment (mdBook renders nothing for it) on the
//! last non-blank line before the block's opening fence:
//!
//! * `<!-- check: SCENARIO -->`: a transcript (`$ ` lines, each followed by
//!   what it prints), run by `tests/it/docs.rs` in SCENARIO and compared;
//!   `$ echo $?` prints the status of the line before, and a paragraph
//!   right after the block that starts `Exit N` is compared with the last
//!   line's status;
//! * `<!-- file: SCENARIO PATH -->`: the file PATH of SCENARIO, written
//!   before its transcripts run;
//! * `<!-- measured: scripts/NAME ARGS -->`: the date-and-machine line of a
//!   measurement, which `scripts/NAME ARGS` reproduces (the script exists);
//! * `<!-- not run: REASON -->`: deliberately not run (an install, a
//!   workflow for a GitHub runner, a sketch of a session), REASON says why;
//! * a marker another test reads (`READ_ELSEWHERE`, each with that test).
//!
//! SCENARIO is one of the scenarios `tests/it/docs.rs` builds (the names it
//! passes to `check_scenario`). An unmarked block, an unknown marker or an
//! unknown scenario fails `every_block_is_run_or_says_why_not`.

use std::path::Path;

use crate::docs::{ROOT, blocks, book_pages, clap_reference, links, prose_lines, read};

/// Markers other tests read: the marker, the test, and text of the test's
/// source that reads it (so a renamed marker fails here, not silently).
const READ_ELSEWHERE: &[(&str, &str, &str)] = &[
    (
        "<!-- demo scan: start -->",
        "tests/it/demo.rs",
        "readme_block(&readme, \"demo scan\")",
    ),
    (SYNOPSIS, "tests/it/doc_claims.rs", "fn synopsis_names()"),
];

/// commands.md's synopsis: every subcommand of the clap definition.
const SYNOPSIS: &str = "<!-- synopsis: every subcommand, checked by tests/it/doc_claims.rs -->";

/// README and the book's pages: what a user reads.
fn pages() -> Vec<String> {
    let mut pages = vec!["README.md".to_string()];
    pages.extend(book_pages());
    pages
}

/// The scenarios `tests/it/docs.rs` runs: each `check_scenario("NAME"`.
fn scenarios() -> Vec<String> {
    let source = read("tests/it/docs.rs");
    source
        .split("check_scenario(\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|name| !name.is_empty())
        .map(String::from)
        .collect()
}

/// What is wrong with a block's marker, if anything.
fn marker_fault(marker: Option<&str>, scenarios: &[String]) -> Option<String> {
    let Some(marker) = marker else {
        return Some(
            "no marker: put <!-- check: SCENARIO -->, <!-- file: SCENARIO PATH -->, \
             <!-- measured: scripts/… --> or <!-- not run: REASON --> on the line before it"
                .into(),
        );
    };
    let inner = marker
        .strip_prefix("<!--")
        .and_then(|m| m.strip_suffix("-->"))
        .map(str::trim)
        .unwrap_or("");
    let known = |name: &str| {
        if scenarios.iter().any(|s| s == name) {
            None
        } else {
            Some(format!(
                "{marker}: no scenario {name:?} (tests/it/docs.rs runs {scenarios:?})"
            ))
        }
    };
    if let Some(name) = inner.strip_prefix("check: ") {
        return known(name.trim());
    }
    if let Some(rest) = inner.strip_prefix("file: ") {
        let mut words = rest.split_whitespace();
        let (name, path) = (words.next().unwrap_or(""), words.next());
        return match path {
            Some(_) => known(name),
            None => Some(format!("{marker}: no PATH")),
        };
    }
    if let Some(command) = inner.strip_prefix("measured: ") {
        let script = command.split_whitespace().next().unwrap_or("");
        return if script.starts_with("scripts/") && Path::new(ROOT).join(script).is_file() {
            None
        } else {
            Some(format!("{marker}: {script:?} is not a script in scripts/"))
        };
    }
    if let Some(reason) = inner.strip_prefix("not run: ") {
        let letters = reason.chars().filter(|c| c.is_alphabetic()).count();
        return (letters < 3).then(|| format!("{marker}: the reason is missing"));
    }
    // docs/src/prompt.md's snippets: tests/it/prompt_clients.rs runs each
    // block marked `<!-- prompt: NAME -->` (and fails on one it does not).
    if inner.starts_with("prompt: ") {
        let test = "tests/it/prompt_clients.rs";
        return (!read(test).contains("format!(\"<!-- prompt: {name} -->"))
            .then(|| format!("{marker}: {test} no longer reads it"));
    }
    match READ_ELSEWHERE.iter().find(|(m, _, _)| *m == marker) {
        Some((_, test, needle)) if read(test).contains(needle) => None,
        Some((_, test, _)) => Some(format!("{marker}: {test} no longer reads it")),
        None => Some(format!(
            "{marker}: not a marker tests/it/doc_claims.rs knows"
        )),
    }
}

#[test]
fn every_block_is_run_or_says_why_not() {
    if !crate::common::in_checkout() {
        return;
    }
    let scenarios = scenarios();
    assert!(
        scenarios.len() >= 5,
        "the scan of tests/it/docs.rs found {scenarios:?}"
    );
    let mut faults = Vec::new();
    let mut counted = [0usize; 2];
    for page in pages() {
        for b in blocks(&page) {
            let marker = b.marker.as_deref();
            counted[usize::from(marker.is_some_and(|m| m.starts_with("<!-- not run: ")))] += 1;
            if let Some(fault) = marker_fault(marker, &scenarios) {
                faults.push(format!("{}:{}: {fault}", b.page, b.line));
            }
        }
    }
    assert!(
        faults.is_empty(),
        "fenced blocks that are neither run nor say why not (see CONTRIBUTING.md, \
         Documentation):\n{}",
        faults.join("\n")
    );
    // Most of what the book shows is run.
    assert!(
        counted[0] > counted[1],
        "run or input {}, not run {}",
        counted[0],
        counted[1]
    );
}

#[test]
fn a_tilde_fence_is_a_block_too() {
    if !crate::common::in_checkout() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.md");
    std::fs::write(&page, "Text.\n\n~~~sh\n$ goccia-trust scan\n~~~\n").unwrap();
    let found = blocks(page.to_str().unwrap());
    assert_eq!(found.len(), 1);
    assert!(marker_fault(found[0].marker.as_deref(), &scenarios()).is_some());
}

#[test]
fn a_marker_is_known_or_refused() {
    if !crate::common::in_checkout() {
        return;
    }
    let s = vec!["demo".to_string()];
    assert_eq!(marker_fault(Some("<!-- check: demo -->"), &s), None);
    assert_eq!(
        marker_fault(Some("<!-- file: demo a/goccia.json -->"), &s),
        None
    );
    assert_eq!(
        marker_fault(Some("<!-- not run: needs the network -->"), &s),
        None
    );
    assert_eq!(
        marker_fault(Some("<!-- measured: scripts/bench.sh --full -->"), &s),
        None
    );
    for bad in [
        None,
        Some("<!-- check: nosuch -->"),
        Some("<!-- file: demo -->"),
        Some("<!-- not run: -->"),
        Some("<!-- measured: cargo bench -->"),
        Some("<!-- measured: scripts/nosuch.sh -->"),
        Some("<!-- checked -->"),
    ] {
        assert!(marker_fault(bad, &s).is_some(), "{bad:?}");
    }
}

/// The subcommands commands.md's synopsis names: `scan` for
/// `goccia-trust scan …`, and `policy show`, `policy run` for
/// `goccia-trust policy show|run …`.
fn synopsis_names() -> Vec<String> {
    let block = blocks("docs/src/commands.md")
        .into_iter()
        .find(|b| b.marker.as_deref() == Some(SYNOPSIS))
        .unwrap_or_else(|| panic!("docs/src/commands.md has no block after {SYNOPSIS}"));
    let mut names = Vec::new();
    for line in block.text.lines() {
        for usage in line.split("goccia-trust ").skip(1) {
            let mut words = usage.split_whitespace();
            let Some(command) = words.next() else {
                continue;
            };
            // `[tui]`: a subcommand that may be left out.
            let command = command
                .strip_prefix('[')
                .and_then(|c| c.strip_suffix(']'))
                .unwrap_or(command);
            if !command.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                || command.starts_with('-')
            {
                continue; // an option of the review: `[--policy FILE]`
            }
            names.push(command.to_string());
            if let Some(subs) = words.next() {
                for sub in subs.split('|') {
                    if !sub.is_empty() && sub.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
                        names.push(format!("{command} {sub}"));
                    }
                }
            }
        }
    }
    names
}

#[test]
fn the_synopsis_lists_every_subcommand() {
    if !crate::common::in_checkout() {
        return;
    }
    let names = synopsis_names();
    let clap: Vec<String> = clap_reference()
        .into_iter()
        .map(|(path, _)| path)
        .filter(|p| !p.is_empty())
        .collect();
    let missing: Vec<&String> = clap.iter().filter(|p| !names.contains(p)).collect();
    assert!(
        missing.is_empty(),
        "docs/src/commands.md's synopsis lacks {missing:?}"
    );
    let unknown: Vec<&String> = names
        .iter()
        .filter(|n| !n.contains(' ') && !clap.contains(n))
        .collect();
    assert!(
        unknown.is_empty(),
        "the synopsis names no such command: {unknown:?}"
    );
}

// ---------------------------------------------------------------------------
// Performance claims.

/// A paragraph claims a speed: a duration (`0.2 s`, `10 ms`) or a
/// comparison (`half the time`, `faster`) with a verb of measuring.
/// Whether a paragraph claims a speed: one of its sentences, list items
/// or table rows names a duration (or a comparison) and a measuring verb.
fn claims_speed(paragraph: &str) -> bool {
    paragraph
        .split("\n- ")
        .flat_map(|item| item.split("\n|"))
        .flat_map(|unit| unit.split(". "))
        .any(unit_claims_speed)
}

fn unit_claims_speed(unit: &str) -> bool {
    // A quoted message (`check took too long`) claims nothing.
    let prose: String = unit.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    let p = prose.to_lowercase();
    let words: Vec<&str> = p
        .split(|c: char| c.is_whitespace() || "(),;:".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    let duration = words.windows(2).any(|w| {
        w[0].trim_start_matches('~')
            .split(['–', '-'])
            .all(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit() || c == '.'))
            && matches!(w[1].trim_end_matches('.'), "ms" | "s")
    });
    let comparison = ["half the time", "faster", "slower", "times as fast"]
        .iter()
        .any(|c| p.contains(c));
    let measuring = [
        "takes",
        "took",
        "half the time",
        "faster",
        "slower",
        "times as fast",
    ]
    .iter()
    .any(|v| p.contains(v));
    (duration || comparison) && measuring
}

/// The prose paragraphs of a page (code spans kept, fenced blocks out),
/// each with the heading it is under.
fn paragraphs(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let (mut heading, mut current) = (String::new(), String::new());
    for line in prose_lines(text) {
        if line.starts_with('#') {
            heading = line.clone();
        }
        if line.trim().is_empty() || line.starts_with('#') {
            if !current.is_empty() {
                out.push((heading.clone(), std::mem::take(&mut current)));
            }
            continue;
        }
        current.push_str(&line);
        current.push('\n');
    }
    if !current.is_empty() {
        out.push((heading, current));
    }
    out
}

#[test]
fn performance_claims_say_how_they_were_measured() {
    if !crate::common::in_checkout() {
        return;
    }
    let mut faults = Vec::new();
    for page in pages() {
        let text = read(&page);
        // The headings of performance.md whose section holds a measurement.
        let measured: Vec<String> = {
            let mut heading = String::new();
            let mut found = Vec::new();
            for line in text.lines() {
                if line.starts_with('#') {
                    heading = line.to_string();
                }
                if line.starts_with("<!-- measured: scripts/") {
                    found.push(heading.clone());
                }
            }
            found
        };
        for (heading, paragraph) in paragraphs(&text) {
            if !claims_speed(&paragraph) {
                continue;
            }
            let first = paragraph.lines().next().unwrap_or("");
            let fine = if page.ends_with("/performance.md") {
                // Measured in its section, or a script named beside it.
                measured.contains(&heading) || paragraph.contains("`scripts/")
            } else {
                links(&paragraph).iter().any(|(_, target)| {
                    target
                        .split('#')
                        .next()
                        .unwrap()
                        .ends_with("performance.md")
                })
            };
            if !fine {
                faults.push(format!("{page}: {first}"));
            }
        }
    }
    assert!(
        faults.is_empty(),
        "speed claims without the command and machine they were measured on (outside \
         performance.md, link to its section; in it, a <!-- measured: scripts/… --> block \
         in the section):\n{}",
        faults.join("\n")
    );
}

#[test]
fn a_speed_claim_is_recognised() {
    if !crate::common::in_checkout() {
        return;
    }
    assert!(claims_speed("It takes about 0.2 s on a 2-core machine."));
    assert!(claims_speed("in about half the time of `git status`"));
    assert!(claims_speed("took 0.27–0.34 s in three runs"));
    assert!(!claims_speed("the list is refreshed (debounced, 300 ms)"));
    assert!(!claims_speed("they give up after one second"));
}

//! `goccia-trust completions SHELL` and `goccia-trust man` over the real
//! binary (issue 14 item 1): the scripts parse and complete, the manual page
//! renders without a single groff warning, and the new subcommands leave
//! the existing parsing alone.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::TestEnv;

const SUBCOMMANDS: &[&str] = &[
    "scan",
    "trust",
    "untrust",
    "list",
    "check",
    "inspect",
    "policy",
    "completions",
    "man",
];

fn generate(env: &TestEnv, args: &[&str]) -> String {
    let out = env.run(args);
    assert_eq!(out.code, 0, "{args:?}: {out}");
    assert_eq!(out.stderr, "", "{args:?}");
    assert!(!out.stdout.is_empty(), "{args:?} printed nothing");
    out.stdout
}

/// Sources the bash script and asks its completion function what it offers
/// for `words`, the last one being the word under the cursor.
fn bash_complete(script: &Path, words: &[&str]) -> Vec<String> {
    let cword = words.len() - 1;
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let prev = if cword > 0 { words[cword - 1] } else { "" };
    let program = format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={cword}\n_goccia__trust goccia-trust '{}' '{prev}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        quoted.join(" "),
        words[cword],
    );
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completion_parses_and_completes_subcommands_and_their_options() {
    let env = TestEnv::new();
    let script = generate(&env, &["completions", "bash"]);
    let path = env.write("goccia-trust.bash", &script);

    let syntax = Command::new("bash").arg("-n").arg(&path).output().unwrap();
    assert!(syntax.status.success(), "bash -n: {syntax:?}");

    // The first word: every subcommand is offered.
    let first = bash_complete(&path, &["goccia-trust", ""]);
    for sub in SUBCOMMANDS {
        assert!(first.iter().any(|w| w == sub), "{sub} not in {first:?}");
    }
    assert_eq!(bash_complete(&path, &["goccia-trust", "ins"]), ["inspect"]);
    // After a subcommand, its own arguments (this needs the hyphenated
    // bin-name fix: clap_complete alone offers nothing here).
    let shells = bash_complete(&path, &["goccia-trust", "completions", ""]);
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        assert!(
            shells.iter().any(|w| w == shell),
            "{shell} not in {shells:?}"
        );
    }
    let scan = bash_complete(&path, &["goccia-trust", "scan", "--"]);
    assert!(scan.iter().any(|w| w == "--json"), "{scan:?}");
    assert!(scan.iter().any(|w| w == "--policy"), "{scan:?}");
    let review = bash_complete(&path, &["goccia-trust", "tui", "--s"]);
    assert!(review.iter().any(|w| w == "--since"), "{review:?}");
    let show = bash_complete(&path, &["goccia-trust", "policy", "show", "--p"]);
    assert_eq!(show, ["--policy", "--pretty"]);
}

#[test]
fn other_shells_get_scripts_naming_every_subcommand() {
    let env = TestEnv::new();
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let script = generate(&env, &["completions", shell]);
        for sub in SUBCOMMANDS {
            assert!(script.contains(sub), "{shell}: {sub} missing");
        }
        assert!(script.contains("trust-store"), "{shell}");
    }
    // zsh registers the function for the binary's name.
    assert!(generate(&env, &["completions", "zsh"]).starts_with("#compdef goccia-trust\n"));
    assert!(generate(&env, &["completions", "fish"]).contains("complete -c goccia-trust "));
}

#[test]
fn completions_need_a_known_shell() {
    let env = TestEnv::new();
    let out = env.run(&["completions", "tcsh"]);
    assert_eq!(out.code, 2, "{out}");
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("invalid value 'tcsh'"), "{out}");
    let out = env.run(&["completions"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(out.stderr.contains("<SHELL>"), "{out}");
}

/// grotty's bold and underline are `X\x08X` and `_\x08X`: keep the last.
fn without_overstrike(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '\u{8}' {
            out.pop();
        } else {
            out.push(c);
        }
    }
    out
}

/// groff prints warnings on stderr and still exits 0, so the test is that
/// stderr stays empty under `man --warnings` and `groff -ww`.
#[test]
fn man_page_renders_without_warnings() {
    let env = TestEnv::new();
    let page = generate(&env, &["man"]);
    assert!(page.starts_with(".ie \\n(.g .ds Aq \\(aq\n"), "{page}");
    let path = env.write("goccia-trust.1", &page);

    let man = Command::new("man")
        .args(["--warnings", "-l"])
        .arg(&path)
        .env("MANWIDTH", "80")
        .output()
        .expect("man (man-db) is needed; .ci/run installs it");
    let stderr = String::from_utf8_lossy(&man.stderr);
    assert!(man.status.success(), "man -l: {stderr}");
    assert_eq!(stderr, "", "man -l warned");
    let text = without_overstrike(&String::from_utf8_lossy(&man.stdout));
    for heading in [
        "NAME",
        "SYNOPSIS",
        "OPTIONS",
        "COMMANDS",
        "EXIT STATUS",
        "VERSION",
    ] {
        assert!(text.contains(heading), "{heading} missing:\n{text}");
    }
    for sub in SUBCOMMANDS {
        assert!(
            text.contains(&format!("goccia-trust {sub}")),
            "{sub} missing:\n{text}"
        );
    }
    assert!(text.contains("goccia-trust policy evaluate"), "{text}");
    assert!(text.contains("--trust-store"), "{text}");
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("`--since BASE` compares each config with its version"),
        "{text}"
    );

    let groff = Command::new("groff")
        .args(["-man", "-ww", "-z"])
        .arg(&path)
        .output()
        .expect("groff is needed; .ci/run installs it");
    assert!(groff.status.success());
    assert_eq!(String::from_utf8_lossy(&groff.stderr), "", "groff warned");
}

/// The subcommands are clap words: GocciaScript's spellings parse as
/// before, and a directory that happens to be called `man` is reached as
/// `./man`, as one called `scan` always was.
#[test]
fn new_subcommands_leave_the_other_spellings_alone() {
    let env = TestEnv::new();
    env.write(
        "man/goccia.json",
        r#"{"permissions": {"allow-net": ["x.test"]}}"#,
    );
    let out = env.run(&["./man"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout.contains("never trusted  man/goccia.json"),
        "{out}"
    );
    let out = env.run(&["--list-trusted"]);
    assert_eq!(out.code, 0, "{out}");
    let out = env.run(&["man", "--trust-store", "x"]);
    assert_eq!(
        out.to_string(),
        "--- stderr ---\nError: --trust-store needs a path: --trust-store=<path>\n[exit status: 2]"
    );
}

/// `goccia-trust man | head -1`: a reader that goes away ends the command
/// quietly, not with an error or a panic: exit 141, as every command
/// (README "Exit codes").
#[test]
fn a_closed_stdout_ends_quietly() {
    for args in [&["man"][..], &["completions", "bash"][..]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_goccia-trust"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Closed before the child can have written: its writes fail with
        // EPIPE (Rust ignores SIGPIPE).
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
        assert_eq!(out.status.code(), Some(141), "{args:?}");
    }
}

//! The `--trust` prompt on a real terminal: `script` gives the binary a
//! pseudo-terminal and types the answer (docs/src/compatibility.md#the-trust-listing-prompt-and-confirmation).

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::TestEnv;

/// Runs `goccia-trust ARGS` on a pseudo-terminal with `answer` typed in;
/// returns the terminal's text (CRLF folded) and the exit code.
fn on_terminal(env: &TestEnv, args: &str, answer: &str) -> (String, i32) {
    let bin = env!("CARGO_BIN_EXE_goccia-trust");
    let mut child = Command::new("script")
        .args(["-qec", &format!("{bin} {args}"), "/dev/null"])
        .current_dir(&env.work)
        .env_clear()
        .env("HOME", &env.home)
        .env("PATH", "/usr/bin:/bin")
        // These tests read the text; colour on a terminal is tested in
        // cli_conventions.rs.
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("script(1) from util-linux");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(answer.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
    (env.redact(&text), out.status.code().unwrap_or(-1))
}

fn project(env: &TestEnv) {
    env.write(
        "p/goccia.json",
        r#"{"permissions": {"allow-net": ["x.test"]}}"#,
    );
}

#[test]
fn yes_at_the_prompt_trusts() {
    let env = TestEnv::new();
    project(&env);
    let (text, code) = on_terminal(&env, "--trust p", " YES \n");
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(
            "\n  p/goccia.json (new)\n    allow-net: x.test\n\nTrust 1 config file? [y/N] "
        ),
        "{text}"
    );
    assert!(
        text.contains("Trusted 1 config file in $ROOT/home/.config/goccia/trust.json\n"),
        "{text}"
    );
    assert!(env.default_store().exists());
}

#[test]
fn anything_else_trusts_nothing_and_exits_1() {
    for answer in ["n\n", "\n", "yy\n", ""] {
        let env = TestEnv::new();
        project(&env);
        let (text, code) = on_terminal(&env, "trust p", answer);
        assert_eq!(code, 1, "{answer:?}: {text}");
        assert!(text.contains("Trust 1 config file? [y/N] "), "{text}");
        assert!(
            text.contains("Nothing was trusted.\n"),
            "{answer:?}: {text}"
        );
        assert!(!env.default_store().exists(), "{answer:?}");
    }
}

#[test]
fn untrusted_text_cannot_forge_the_prompt_on_a_terminal() {
    let env = TestEnv::new();
    // A scope whose text erases the line and writes a prompt of its own.
    env.write(
        "p/goccia.json",
        r#"{"permissions": {"allow-read": ["x\u001b[2K\rTrust 0 config files? [y/N] \u202e"]}}"#,
    );
    let (text, code) = on_terminal(&env, "--trust p", "n\n");
    assert_eq!(code, 1, "{text}");
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}'),
        "{text:?}"
    );
    assert!(
        text.contains(
            "    allow-read: $ROOT/work/p/x^[[2K^MTrust 0 config files? [y/N] \\u{202e}\n"
        ),
        "{text}"
    );
    // Piped (a CI log), the same: config text never reaches any stream
    // raw (issue 28 item 9).
    let out = env.run(&["--trust", "p"]);
    assert!(
        out.stdout
            .contains("x^[[2K^MTrust 0 config files? [y/N] \\u{202e}\n"),
        "{out}"
    );
}

/// A config asking for 36 hosts, `gw18` replaced by `swapped` when given.
fn hosts(env: &TestEnv, swapped: Option<&str>) {
    let list: Vec<String> = (1..=36)
        .map(|i| match (i, swapped) {
            (18, Some(h)) => format!("\"{h}\""),
            _ => format!("\"gw{i:02}.example.com\""),
        })
        .collect();
    env.write(
        "p/goccia.json",
        &format!(
            r#"{{"permissions": {{"allow-net": [{}]}}}}"#,
            list.join(", ")
        ),
    );
}

/// Issue 30 item 4: where the decision is made, a one-host change in a
/// 36-host list reads as the detail pane and `scan` show it, value by
/// value with the unchanged runs collapsed, not as the whole list twice;
/// piped, GocciaScript's lines stay byte for byte.
#[test]
fn the_prompt_shows_a_changed_list_value_by_value() {
    let env = TestEnv::new();
    hosts(&env, None);
    let out = env.run(&["--trust", "p", "--yes"]);
    assert_eq!(out.code, 0, "{out}");
    hosts(&env, Some("gw18.attacker.io"));
    let (text, code) = on_terminal(&env, "--trust p", "n\n");
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains(
            "\n  p/goccia.json (changed)\n  allow-net\n      … 17 unchanged\n    - gw18.example.com\n    + gw18.attacker.io\n      … 18 unchanged\n\nTrust 1 config file? [y/N] "
        ),
        "{text}"
    );
    assert!(
        !text.contains("allow-net: gw01"),
        "no wall of hosts:\n{text}"
    );
    // Piped: GocciaScript's listing, the removed line then the added one.
    let out = env.run(&["--trust", "p"]);
    assert_eq!(out.code, 2, "{out}");
    let old: Vec<String> = (1..=36).map(|i| format!("gw{i:02}.example.com")).collect();
    let mut new = old.clone();
    new[17] = "gw18.attacker.io".into();
    assert!(
        out.stdout.contains(&format!(
            "\n  p/goccia.json (changed)\n  - allow-net: {}\n  + allow-net: {}\n\n",
            old.join(", "),
            new.join(", ")
        )),
        "{out}"
    );
    assert!(!out.stdout.contains("unchanged"), "{out}");
}

/// A new config is listed as GocciaScript lists it, on a terminal too:
/// there is nothing to compare with.
#[test]
fn the_prompt_lists_a_new_config_as_its_lines() {
    let env = TestEnv::new();
    hosts(&env, None);
    let (text, code) = on_terminal(&env, "--trust p", "n\n");
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("\n  p/goccia.json (new)\n    allow-net: gw01.example.com, gw02.example.com"),
        "{text}"
    );
}

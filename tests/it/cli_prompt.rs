//! The `--trust` prompt on a real terminal: `script` gives the binary a
//! pseudo-terminal and types the answer (goccia-reference.md §15.2).

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

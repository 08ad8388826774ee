//! What you see is what you trust (issue 8): config text cannot forge or
//! hide a listing on a terminal, every symlink destination is shown where a
//! trust is decided, what is recorded is what was shown, and `check`'s
//! suggestions name a command that works.

use crate::common;

use common::TestEnv;

fn untrusted(env: &TestEnv) {
    env.write(
        "p/goccia.json",
        r#"{"permissions": {"allow-net": ["x.test"]}}"#,
    );
    env.write("p/m.js", "");
}

#[test]
fn check_suggests_gocciascripts_runner_by_default() {
    let env = TestEnv::new();
    untrusted(&env);
    let out = env.run(&["check", "p/m.js"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr.ends_with(
            "To accept them for this run only:\n  GocciaRunner -P p/m.js\nTo run with command-line grants only:\n  GocciaRunner --ignore-config-permissions p/m.js\n"
        ),
        "{out}"
    );
    // The `--trust` suggestion is for this tool, and stays so.
    assert!(
        out.stderr
            .contains("\n  goccia-trust --trust p/goccia.json\n"),
        "{out}"
    );
}

#[test]
fn check_runner_names_another_runner() {
    let env = TestEnv::new();
    untrusted(&env);
    let out = env.run(&[
        "check",
        "--runner",
        "/opt/my runner/GocciaTestRunner",
        "p/m.js",
    ]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr
            .contains("\n  '/opt/my runner/GocciaTestRunner' -P p/m.js\n"),
        "{out}"
    );
    assert!(
        out.stderr
            .contains("\n  '/opt/my runner/GocciaTestRunner' --ignore-config-permissions p/m.js\n"),
        "{out}"
    );
    let blank = env.run(&["check", "--runner=", "p/m.js"]);
    assert_eq!(blank.code, 2, "{blank}");
    assert!(
        blank.stderr.contains("--runner needs a program name"),
        "{blank}"
    );
}

/// `t/data -> ~/.ssh` and a config reading `./data` (attack 3).
fn linked_scope(env: &TestEnv) {
    std::fs::create_dir_all(env.home.join(".ssh")).unwrap();
    env.symlink(env.home.join(".ssh").to_str().unwrap(), "t/data");
    env.write(
        "t/goccia.json",
        r#"{"permissions": {"allow-read": ["./data", "./docs"], "allow-net": ["x.test"]}}"#,
    );
    env.mkdir("t/docs");
    env.write("t/m.js", "");
}

const DESTINATION: &str = "      -> allow-read $ROOT/work/t/data resolves to $ROOT/home/.ssh\n";
/// The same link seen by the walk: a directory link out of `t/`, not walked.
const NOT_FOLLOWED: &str = "\n  not followed: t/data -> $ROOT/home/.ssh (outside t/)\n";

#[test]
fn trust_yes_to_a_pipe_shows_the_destination() {
    let env = TestEnv::new();
    linked_scope(&env);
    let out = env.run(&["trust", "t", "--yes"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(
        out.stdout,
        format!(
            "Permission requests under t/:\n\n  t/goccia.json (new)\n    allow-net: x.test\n    allow-read: $ROOT/work/t/data, $ROOT/work/t/docs\n{DESTINATION}{NOT_FOLLOWED}\nTrusted 1 config file in $ROOT/home/.config/goccia/trust.json\n"
        ),
        "{out}"
    );
    // And what was recorded is that destination.
    assert!(
        env.read_store()
            .contains(r#""$ROOT/work/t/data": "$ROOT/home/.ssh""#),
        "{}",
        env.read_store()
    );
}

#[test]
fn trust_dry_run_and_the_gocciascript_spelling_show_the_destination() {
    let env = TestEnv::new();
    linked_scope(&env);
    let dry = env.run(&["trust", "t", "--dry-run"]);
    assert_eq!(dry.code, 0, "{dry}");
    assert!(dry.stdout.contains(DESTINATION), "{dry}");
    let unconfirmed = env.run(&["--trust", "t"]);
    assert_eq!(unconfirmed.code, 2, "{unconfirmed}");
    assert!(unconfirmed.stdout.contains(DESTINATION), "{unconfirmed}");
}

#[test]
fn a_scope_that_is_no_link_adds_no_line() {
    let env = TestEnv::new();
    env.mkdir("t/docs");
    env.write(
        "t/goccia.json",
        r#"{"permissions": {"allow-read": ["./docs", "./missing"]}}"#,
    );
    let out = env.run(&["trust", "t", "--yes"]);
    assert_eq!(
        out.stdout,
        "Permission requests under t/:\n\n  t/goccia.json (new)\n    allow-read: $ROOT/work/t/docs, $ROOT/work/t/missing\n\nTrusted 1 config file in $ROOT/home/.config/goccia/trust.json\n",
        "{out}"
    );
}

#[test]
fn scan_shows_the_destination_in_text_and_json() {
    let env = TestEnv::new();
    linked_scope(&env);
    let out = env.run(&["scan", "t"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout.contains(&format!(
            "never trusted  t/goccia.json  2 requests\n{DESTINATION}"
        )),
        "{out}"
    );
    let json = env.run(&["scan", "t", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(
        doc["configs"][0]["destinations"],
        serde_json::json!([{
            "key": "allow-read",
            "scope": "$ROOT/work/t/data",
            "resolvesTo": "$ROOT/home/.ssh"
        }]),
        "{json}"
    );
}

#[test]
fn check_shows_the_destination_in_the_report_and_json() {
    let env = TestEnv::new();
    linked_scope(&env);
    let out = env.run(&["check", "t/m.js"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr.contains(&format!(
            "  t/goccia.json (never trusted)\n    allow-net: x.test\n    allow-read: $ROOT/work/t/data, $ROOT/work/t/docs\n{DESTINATION}\nNothing was run."
        )),
        "{out}"
    );
    let json = env.run(&["check", "t/m.js", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(
        doc["configs"][0]["destinations"][0]["resolvesTo"], "$ROOT/home/.ssh",
        "{json}"
    );
    // Trusted, the check passes and still says where the scope leads.
    assert_eq!(env.run(&["trust", "t", "--yes"]).code, 0);
    let ok = env.run(&["check", "t/m.js"]);
    assert_eq!(ok.code, 0, "{ok}");
    assert_eq!(
        ok.stdout,
        format!("t/goccia.json (trusted)\n{DESTINATION}"),
        "{ok}"
    );
}

// ---------------------------------------------------------------------------
// On a terminal: `script` gives the binary a pseudo-terminal for stdin (and
// for stdout/stderr unless the command line redirects them).

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Runs `shell_line` (`$BIN` is the binary) under `script` in the work
/// directory; once the terminal shows `[y/N] `, calls `before_answer`, then
/// types `answer` (with no answer, nothing is awaited or typed). Returns the terminal's text (CRLF folded, root redacted)
/// and the exit code.
fn on_terminal(
    env: &TestEnv,
    shell_line: &str,
    before_answer: impl FnOnce(),
    answer: &str,
) -> (String, i32) {
    let bin = env!("CARGO_BIN_EXE_goccia-trust");
    let line = shell_line.replace("$BIN", bin);
    let mut child = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .current_dir(&env.work)
        .env_clear()
        .env("HOME", &env.home)
        .env("PATH", "/usr/bin:/bin")
        // Text and escaping are read here; colour on a terminal is
        // tested in cli_conventions.rs.
        .env("NO_COLOR", "1")
        .env("SHELL", "/bin/sh")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("script(1) from util-linux");
    let screen = Arc::new(Mutex::new(Vec::new()));
    let mut stdout = child.stdout.take().unwrap();
    let reader = {
        let screen = screen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    break;
                }
                screen.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        })
    };
    let start = Instant::now();
    while !answer.is_empty() && !String::from_utf8_lossy(&screen.lock().unwrap()).contains("[y/N] ")
    {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no prompt: {}",
            String::from_utf8_lossy(&screen.lock().unwrap())
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    before_answer();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(answer.as_bytes()).unwrap();
    let status = child.wait().unwrap();
    drop(stdin);
    reader.join().unwrap();
    let text = String::from_utf8_lossy(&screen.lock().unwrap()).replace("\r\n", "\n");
    (env.redact(&text), status.code().unwrap_or(-1))
}

/// A config whose `allow-read` really asks for `~/.ssh`, with a scope that
/// pushes it off the screen and draws a harmless listing instead.
fn forged_newlines(env: &TestEnv) {
    let ssh = env.home.join(".ssh");
    let ssh = ssh.to_str().unwrap();
    let fake = format!(
        "/zz{}Permission requests under q/:\\n\\n  q/goccia.json (new)\\n    allow-read: q/data",
        "\\n".repeat(60)
    );
    env.write(
        "q/goccia.json",
        &format!(r#"{{"permissions": {{"allow-read": ["{fake}", "{ssh}"]}}}}"#),
    );
}

#[test]
fn a_newline_cannot_forge_the_listing_on_a_terminal() {
    let env = TestEnv::new();
    forged_newlines(&env);
    let (screen, code) = on_terminal(&env, "$BIN trust q", || {}, "n\n");
    assert_eq!(code, 1, "{screen}");
    // The scope stays on one line, its newlines shown as ^J, and the real
    // request is on the line right after it.
    assert!(
        screen.contains(&format!(
            "    allow-read: $ROOT/home/.ssh, /zz{}Permission requests under q/:^J^J  q/goccia.json (new)^J    allow-read: q/data\n\nTrust 1 config file? [y/N] ",
            "^J".repeat(60)
        )),
        "{screen}"
    );
    assert_eq!(
        screen.matches("Permission requests under").count(),
        2,
        "{screen}"
    );
    assert_eq!(
        screen
            .lines()
            .filter(|l| l.starts_with("Permission requests under"))
            .count(),
        1,
        "only the real heading starts a line: {screen}"
    );
    assert!(!env.default_store().exists());
    // Piped with no prompt (a CI log), the same: the newlines escaped.
    let piped = env.run(&["trust", "q", "--dry-run"]);
    assert!(
        piped
            .stdout
            .contains(&format!("/zz{}Permission", "^J".repeat(60))),
        "{piped}"
    );
}

#[test]
fn piped_stdout_with_a_prompt_shows_the_listing_escaped_on_the_terminal_once() {
    let env = TestEnv::new();
    env.write(
        "r/goccia.json",
        r#"{"permissions": {"allow-net": ["exfil.example.net"], "allow-read": ["./\u001b[2J\u001b[HPermission requests under r/:\n\n  r/goccia.json (new)\n    allow-net: api.example.com\n\nTrust 1 config file? [y/N] "]}}"#,
    );
    let (screen, _) = on_terminal(&env, "$BIN trust r | tee log", || {}, "y\n");
    assert!(
        !screen.contains('\u{1b}'),
        "no escape sequence reaches the screen: {screen:?}"
    );
    assert!(
        screen.contains(
            "Permission requests under r/:\n\n  r/goccia.json (new)\n    allow-net: exfil.example.net\n    allow-read: $ROOT/work/r/^[[2J^[[HPermission requests under r/:^J^J  r/goccia.json (new)^J    allow-net: api.example.com^J^JTrust 1 config file? [y/N]\n\nTrust 1 config file? [y/N] "
        ),
        "{screen}"
    );
    assert_eq!(
        screen.matches("\nTrust 1 config file? [y/N]").count(),
        1,
        "shown once, not again through tee: {screen}"
    );
    assert!(
        screen.contains("Trusted 1 config file in $ROOT/home/.config/goccia/trust.json\n"),
        "{screen}"
    );
    // The log (stdout) has the outcome; the listing went to the terminal.
    let log = env.redact(&std::fs::read_to_string(env.work.join("log")).unwrap());
    assert_eq!(
        log,
        "Trusted 1 config file in $ROOT/home/.config/goccia/trust.json\n"
    );
    assert!(
        env.read_store().contains("exfil.example.net"),
        "what was shown is what was recorded"
    );
}

#[test]
fn stdout_to_a_file_with_a_prompt_is_escaped_too() {
    let env = TestEnv::new();
    env.write(
        "r/goccia.json",
        r#"{"permissions": {"allow-read": ["./x\u001b]0;title\u0007\n "]}}"#,
    );
    let (screen, code) = on_terminal(&env, "$BIN trust r > out.txt", || {}, "n\n");
    assert_eq!(code, 1, "{screen}");
    // (Pascal `Trim` drops the scope's trailing BEL and newline.)
    assert!(
        screen.contains("    allow-read: $ROOT/work/r/x^[]0;title\n"),
        "{screen}"
    );
    let out = std::fs::read_to_string(env.work.join("out.txt")).unwrap();
    assert_eq!(out, "Nothing was trusted.\n");
}

#[test]
fn invisible_characters_are_shown_on_a_terminal() {
    let env = TestEnv::new();
    // `da<SHY>ta` reads as `data`; the others hide, reorder or tag text.
    env.write(
        "s/goccia.json",
        r#"{"permissions": {"allow-read": ["./da\u00adta", "./a\u180eb\u034fc\ufe0f", "./x\u202ey\udb40\udc20"]}}"#,
    );
    let (screen, code) = on_terminal(&env, "$BIN trust s", || {}, "n\n");
    assert_eq!(code, 1, "{screen}");
    for hidden in [
        '\u{ad}',
        '\u{180e}',
        '\u{34f}',
        '\u{fe0f}',
        '\u{202e}',
        '\u{e0020}',
    ] {
        assert!(
            !screen.contains(hidden),
            "{hidden:?} reached the terminal: {screen}"
        );
    }
    assert!(
        screen.contains(
            "    allow-read: $ROOT/work/s/a\\u{180e}b\\u{34f}c\\u{fe0f}, $ROOT/work/s/da\\u{ad}ta, $ROOT/work/s/x\\u{202e}y\\u{e0020}\n"
        ),
        "{screen}"
    );
}

#[test]
fn a_prompted_trust_shows_the_destination() {
    let env = TestEnv::new();
    linked_scope(&env);
    let (screen, code) = on_terminal(&env, "$BIN trust t", || {}, "y\n");
    assert_eq!(code, 0, "{screen}");
    assert!(
        screen.contains(&format!(
            "    allow-read: $ROOT/work/t/data, $ROOT/work/t/docs\n{DESTINATION}{NOT_FOLLOWED}\nTrust 1 config file? [y/N] "
        )),
        "{screen}"
    );
}

#[test]
fn a_config_changed_before_the_answer_is_refused_and_the_others_recorded() {
    let env = TestEnv::new();
    linked_scope(&env);
    env.write(
        "u/goccia.json",
        r#"{"permissions": {"allow-net": ["u.test"]}}"#,
    );
    env.write(
        "v/goccia.json",
        r#"{"permissions": {"allow-net": ["v.test"]}}"#,
    );
    env.mkdir("etc-like");
    let (screen, code) = on_terminal(
        &env,
        "$BIN trust t u v",
        || {
            // After the listing: `t/data` re-pointed, `u` given a new host.
            std::fs::remove_file(env.work.join("t/data")).unwrap();
            env.symlink(env.work.join("etc-like").to_str().unwrap(), "t/data");
            env.write(
                "u/goccia.json",
                r#"{"permissions": {"allow-net": ["u.test", "exfil.test"]}}"#,
            );
        },
        "y\n",
    );
    assert_eq!(code, 1, "{screen}");
    assert!(screen.contains("Trust 3 config files? [y/N] "), "{screen}");
    assert!(
        screen.contains("Refused: t/goccia.json changed since shown; not trusted\n"),
        "{screen}"
    );
    assert!(
        screen.contains("Refused: u/goccia.json changed since shown; not trusted\n"),
        "{screen}"
    );
    assert!(screen.contains("Trusted 1 config file in "), "{screen}");
    let store: serde_json::Value = serde_json::from_str(&env.read_store()).unwrap();
    let entries = store["trusted"].as_object().unwrap();
    let keys: Vec<&String> = entries.keys().collect();
    assert_eq!(keys, vec!["$ROOT/work/v/goccia.json"], "{store}");
}

#[test]
fn trust_yes_refuses_nothing_when_nothing_changed() {
    let env = TestEnv::new();
    linked_scope(&env);
    let out = env.run(&["trust", "t", "--yes"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stderr.is_empty(), "{out}");
}

#[test]
fn with_a_prompt_even_a_redirected_stderr_gets_escaped_config_text() {
    let env = TestEnv::new();
    let dir = "e\u{1b}[2J\nx";
    env.write(
        &format!("{dir}/goccia.json"),
        r#"{"permissions": {"allow-net": ["e.test"]}}"#,
    );
    let (screen, code) = on_terminal(
        &env,
        "$BIN trust e* 2> err.txt",
        || {
            env.write(
                &format!("{dir}/goccia.json"),
                r#"{"permissions": {"allow-net": ["e.test", "more.test"]}}"#,
            );
        },
        "y\n",
    );
    assert_eq!(code, 1, "{screen}");
    assert!(
        screen.contains("  e^[[2J^Jx/goccia.json (new)\n"),
        "{screen}"
    );
    let err = std::fs::read_to_string(env.work.join("err.txt")).unwrap();
    assert_eq!(
        err,
        "Refused: e^[[2J^Jx/goccia.json changed since shown; not trusted\n"
    );
    assert!(!env.default_store().exists());
}

#[test]
fn every_command_escapes_config_text_on_a_terminal() {
    let env = TestEnv::new();
    // A directory name that would start a line of its own.
    let dir = "n\nUNTRUSTED x";
    env.write(
        &format!("{dir}/goccia.json"),
        r#"{"permissions": {"allow-net": ["n.test"]}}"#,
    );
    env.write(&format!("{dir}/m.js"), "");
    let shown = "n^JUNTRUSTED x/goccia.json";
    let (screen, _) = on_terminal(&env, "$BIN scan", || {}, "");
    assert!(
        screen.contains(&format!("never trusted  {shown}  1 request")),
        "{screen}"
    );
    let (screen, _) = on_terminal(&env, "$BIN check n*/m.js", || {}, "");
    assert!(
        screen.contains(&format!("\n  {shown} (never trusted)\n")),
        "{screen}"
    );
    assert_eq!(env.run(&["trust", ".", "--yes"]).code, 0);
    let (screen, _) = on_terminal(&env, "$BIN list", || {}, "");
    assert!(
        screen.contains(&format!("$ROOT/work/{shown}  trusted ")),
        "{screen}"
    );
    let (screen, _) = on_terminal(&env, "$BIN inspect n*/goccia.json", || {}, "");
    assert!(
        screen.contains(&format!("Key:     $ROOT/work/{shown}\n")),
        "{screen}"
    );
    let (screen, _) = on_terminal(&env, "$BIN check n*/m.js", || {}, "");
    assert!(screen.contains(&format!("{shown} (trusted)\n")), "{screen}");
    for line in screen.lines() {
        assert!(!line.starts_with("UNTRUSTED"), "{screen}");
    }
    // Piped (a CI log), the same: no line starts with the forged word.
    let piped = env.run(&["list"]);
    assert!(
        piped
            .stdout
            .contains(&format!("$ROOT/work/{shown}  trusted ")),
        "{piped}"
    );
    assert!(
        !piped.stdout.lines().any(|l| l.starts_with("UNTRUSTED")),
        "{piped}"
    );
}

#[test]
fn no_prompt_when_neither_stdout_nor_stderr_reaches_the_terminal() {
    let env = TestEnv::new();
    untrusted(&env);
    let (screen, code) = on_terminal(&env, "$BIN trust p > out.txt 2> err.txt", || {}, "");
    assert_eq!(code, 2, "{screen}");
    assert!(!screen.contains("[y/N]"), "{screen}");
    let err = std::fs::read_to_string(env.work.join("err.txt")).unwrap();
    assert_eq!(
        err,
        "Error: trust needs confirmation; re-run with --yes to trust without a prompt\n"
    );
    let out = std::fs::read_to_string(env.work.join("out.txt")).unwrap();
    assert!(out.starts_with("Permission requests under p/:\n"), "{out}");
    assert!(!env.default_store().exists());
}

/// Issue 30 item 4: `inspect` of a config whose path scope's link was
/// re-pointed since it was trusted shows where it led then beside where it
/// leads now, piped and on a terminal alike.
#[test]
fn inspect_shows_a_retargeted_scopes_old_target_beside_the_new() {
    let env = TestEnv::new();
    env.mkdir("shared");
    env.mkdir("elsewhere");
    env.symlink(env.work.join("shared").to_str().unwrap(), "app/assets");
    env.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-read": ["./assets"]}}"#,
    );
    let out = env.run(&["trust", "app", "--yes"]);
    assert_eq!(out.code, 0, "{out}");
    let out = env.run(&["inspect", "app/goccia.json"]);
    assert!(
        env.redact(&out.stdout)
            .contains("Targets:\n    $ROOT/work/app/assets -> $ROOT/work/shared\n"),
        "unchanged, as before:\n{out}"
    );
    std::fs::remove_file(env.work.join("app/assets")).unwrap();
    env.symlink(env.work.join("elsewhere").to_str().unwrap(), "app/assets");
    let out = env.run(&["inspect", "app/goccia.json"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        env.redact(&out.stdout).contains(
            "Targets:\n    $ROOT/work/app/assets -> $ROOT/work/elsewhere (was $ROOT/work/shared when trusted)\n"
        ),
        "{out}"
    );
}

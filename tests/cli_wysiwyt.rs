//! What you see is what you trust (issue 8): config text cannot forge or
//! hide a listing on a terminal, every symlink destination is shown where a
//! trust is decided, what is recorded is what was shown, and `check`'s
//! suggestions name a command that works.

mod common;

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

#[test]
fn trust_yes_to_a_pipe_shows_the_destination() {
    let env = TestEnv::new();
    linked_scope(&env);
    let out = env.run(&["trust", "t", "--yes"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(
        out.stdout,
        format!(
            "Permission requests under t/:\n\n  t/goccia.json (new)\n    allow-net: x.test\n    allow-read: $ROOT/work/t/data, $ROOT/work/t/docs\n{DESTINATION}\nTrusted 1 config file in $ROOT/home/.config/goccia/trust.json\n"
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

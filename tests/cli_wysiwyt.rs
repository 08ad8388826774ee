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

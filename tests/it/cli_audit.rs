//! Discrepancies found by auditing the trust commands against
//! docs/src/compatibility.md#command-output, #the-store and #subcommands-and-gocciascripts-flags;
//! each test names the rule it pins.

use crate::common;

use common::TestEnv;

fn requesting_project(env: &TestEnv) {
    env.write(
        "p/goccia.json",
        r#"{"permissions": {"allow-net": ["x.test"]}}"#,
    );
    env.write("p/m.js", "");
}

/// docs/src/compatibility.md#store-location: a `--trust-store` path that is a
/// directory is an error with status 1, refused before anything runs; `check`
/// decides as a run does, so it refuses too instead of reporting the
/// directory as a store that "cannot be located".
#[test]
fn check_refuses_a_trust_store_that_is_a_directory() {
    let env = TestEnv::new();
    requesting_project(&env);
    env.mkdir("stores");
    let out = env.run(&["--trust-store=stores", "check", "p/m.js"]);
    assert_eq!(
        out.to_string(),
        "--- stderr ---\nError: trust store $ROOT/work/stores is a directory; --trust-store needs the path of a file\n[exit status: 1]"
    );
}

/// docs/src/compatibility.md#option-errors option errors come before the commands' own checks (docs/src/compatibility.md#the-trust-listing-prompt-and-confirmation, #blank-paths-and-empty-variables:
/// the blank-path test is `--trust`'s and `--untrust`'s first check, made
/// once the options are known to go together).
#[test]
fn option_errors_come_before_the_blank_path_check() {
    let env = TestEnv::new();
    let usage = |args: &[&str], message: &str| {
        assert_eq!(
            env.run(args).to_string(),
            format!("--- stderr ---\nError: {message}\n[exit status: 2]"),
            "{args:?}"
        );
    };
    usage(
        &["--trust", "", "--untrust", "x"],
        "--trust, --untrust, and --list-trusted cannot be combined; run each on its own",
    );
    usage(
        &["--untrust=", "--list-trusted"],
        "--trust, --untrust, and --list-trusted cannot be combined; run each on its own",
    );
    usage(&["--untrust", " ", "--yes"], "--yes only confirms --trust");
    usage(
        &["--trust", "\t", "x.js"],
        "--trust cannot be combined with input files; run it on its own",
    );
    usage(
        &["--trust=", "-P"],
        "--trust cannot be combined with -P or --ignore-config-permissions",
    );
    // Alone, a blank path is still the usage error it always was.
    usage(&["--trust", " ", "--yes"], "--trust needs a path");
    usage(&["--untrust", "\t"], "--untrust needs a path");
    usage(&["--trust"], "--trust needs a path");
}

/// docs/src/compatibility.md#subcommands-and-gocciascripts-flags: `trust PATH... [--yes]` is `--trust PATH [--yes]`,
/// and GocciaScript has no `--trust` without a path: `trust --yes` alone is
/// a usage error, not "No config under  requests permissions" with exit 0.
#[test]
fn trust_yes_without_a_path_is_a_usage_error() {
    let env = TestEnv::new();
    requesting_project(&env);
    let out = env.run(&["trust", "--yes"]);
    assert_eq!(
        out.to_string(),
        "--- stderr ---\nError: --trust needs a path\n[exit status: 2]"
    );
    assert!(!env.default_store().exists());
}

/// docs/src/compatibility.md#option-errors: in GocciaScript's spellings `--trust-store` without `=` is
/// `--trust-store needs a path: --trust-store=<path>` (exit 2); a
/// subcommand also takes the path as the next word (issue 44), and without
/// one gives the same message.
#[test]
fn trust_store_without_equals_keeps_goccia_rule_and_subcommands_take_a_space() {
    let env = TestEnv::new();
    requesting_project(&env);
    for args in [
        &["trust", "p", "--trust-store"][..],
        &["list", "--trust-store", "-q"],
        &["--trust-store", "s.json", "--list-trusted"],
        &["--list-trusted", "--trust-store", "s.json"],
    ] {
        assert_eq!(
            env.run(args).to_string(),
            "--- stderr ---\nError: --trust-store needs a path: --trust-store=<path>\n[exit status: 2]",
            "{args:?}"
        );
    }
    let store = env.root.join("s.json");
    let store = store.to_str().unwrap();
    let out = env.run(&["trust", "p", "--yes", "--trust-store", store]);
    assert_eq!(out.code, 0, "{out}");
    for args in [
        &["list", "--trust-store", store][..],
        &["--trust-store", store, "list"],
    ] {
        let out = env.run(args);
        assert_eq!(out.code, 0, "{args:?}: {out}");
        assert!(out.stdout.contains("p/goccia.json"), "{args:?}: {out}");
    }
    assert_eq!(
        env.run(&["list", "--trust-store", store]).stdout,
        env.run(&["list", &format!("--trust-store={store}")]).stdout
    );
}

/// `--list-trusted` takes no path: the blank-path check of `--trust` and
/// `--untrust` never applies to it.
#[test]
fn list_trusted_alone_is_not_a_path_error() {
    let env = TestEnv::new();
    assert_eq!(
        env.run(&["--list-trusted"]).to_string(),
        "Trust store: $ROOT/home/.config/goccia/trust.json\nNo trusted configs\n[exit status: 0]"
    );
}

/// docs/src/compatibility.md#the-untrusted-run-report: a store problem changes what follows "Nothing was run." on its
/// line; the sentence itself stays (GocciaScript's unit test pins
/// `Nothing was run. Trust store /s.json is not valid JSON; fix or delete
/// it. Then …`, the problem's first letter upper-cased after the period).
#[test]
fn store_problems_keep_nothing_was_run() {
    let env = TestEnv::new();
    requesting_project(&env);
    let store = env.default_store();
    std::fs::create_dir_all(store.parent().unwrap()).unwrap();
    std::fs::write(&store, "{not json").unwrap();
    let out = env.run(&["check", "p/m.js"]);
    assert_eq!(
        out.to_string(),
        "--- stderr ---\nError: 1 config file requests permissions that have not been trusted:\n\n  p/goccia.json (never trusted)\n    allow-net: x.test\n\nNothing was run. Trust store $ROOT/home/.config/goccia/trust.json is not valid JSON; fix or delete it. Then, to trust these requests:\n  goccia-trust --trust p/goccia.json\nTo accept them for this run only:\n  GocciaRunner -P p/m.js\nTo run with command-line grants only:\n  GocciaRunner --ignore-config-permissions p/m.js\n[exit status: 2]"
    );

    let out = env.run_with_env(&["check", "p/m.js"], &[("HOME", "")]);
    assert_eq!(
        out.to_string(),
        "--- stderr ---\nError: 1 config file requests permissions that have not been trusted:\n\n  p/goccia.json (never trusted)\n    allow-net: x.test\n\nNothing was run. The per-user trust store cannot be located (HOME is not set); to trust these requests, name a store:\n  goccia-trust --trust-store=<path> --trust p/goccia.json\nTo accept them for this run only:\n  GocciaRunner -P p/m.js\nTo run with command-line grants only:\n  GocciaRunner --ignore-config-permissions p/m.js\n[exit status: 2]"
    );
}

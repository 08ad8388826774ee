//! The trust commands against the exact texts of goccia-reference.md §12 and
//! §15, run as a user would: the real binary, a temporary HOME and store.

mod common;

use common::{TestEnv, redact_timestamps};

fn proj(env: &TestEnv) {
    env.write(
        "proj/goccia.json",
        r#"{"permissions": {"allow-net": ["example.com"]}}"#,
    );
}

#[test]
fn trust_yes_prints_the_reference_example_and_writes_the_store() {
    let env = TestEnv::new();
    proj(&env);
    let out = env.run(&["--trust-store=../s/trust.json", "--trust", "proj", "--yes"]);
    assert_eq!(
        out.to_string(),
        "Permission requests under proj/:\n\n  proj/goccia.json (new)\n    allow-net: example.com\n\nTrusted 1 config file in $ROOT/s/trust.json\n[exit status: 0]"
    );
    let store = env.redact(&std::fs::read_to_string(env.root.join("s/trust.json")).unwrap());
    assert_eq!(
        redact_timestamps(&store),
        format!(
            "{{\n  \"version\": 1,\n  \"trusted\": {{\n    \"$ROOT/work/proj/goccia.json\": {{\n      \"sha256\": \"{}\",\n      \"block\": {{\"permissions\":{{\"allow-net\":[\"example.com\"]}},\"version\":1}},\n      \"targets\": {{}},\n      \"trustedAt\": \"<TS>\",\n      \"trustedBy\": \"goccia-trust {}\"\n    }}\n  }}\n}}\n",
            sha256_hex(r#"{"permissions":{"allow-net":["example.com"]},"version":1}"#),
            env!("CARGO_PKG_VERSION")
        )
    );
}

fn sha256_hex(s: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(s.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn trust_without_terminal_needs_yes_and_leaves_the_store_alone() {
    let env = TestEnv::new();
    proj(&env);
    let out = env.run(&["trust", "proj"]);
    assert_eq!(
        out.to_string(),
        "Permission requests under proj/:\n\n  proj/goccia.json (new)\n    allow-net: example.com\n\n--- stderr ---\nError: --trust needs confirmation; re-run with --yes to trust without a prompt\n[exit status: 2]"
    );
    assert!(!env.default_store().exists());
}

#[test]
fn trusting_again_changes_nothing() {
    let env = TestEnv::new();
    proj(&env);
    assert_eq!(env.run(&["--trust", "proj", "--yes"]).code, 0);
    let before = std::fs::read(env.default_store()).unwrap();
    let out = env.run(&["--trust", "proj", "--yes"]);
    assert_eq!(
        out.to_string(),
        "The config file under proj/ is already trusted\n[exit status: 0]"
    );
    assert_eq!(std::fs::read(env.default_store()).unwrap(), before);

    env.write("proj/b/goccia.json", r#"{"unsafe-shadowrealm": true}"#);
    assert_eq!(env.run(&["trust", "--yes", "proj"]).code, 0);
    let out = env.run(&["trust", "--yes", "proj/", "proj/b/goccia.json"]);
    assert_eq!(
        out.to_string(),
        "All 2 config files under proj/, proj/b/goccia.json are already trusted\n[exit status: 0]"
    );
}

#[test]
fn deny_only_configs_request_nothing() {
    let env = TestEnv::new();
    env.write(
        "proj/goccia.json",
        r#"{"permissions": {"deny-net": true, "allow-read": false, "allow-ffi": []}}"#,
    );
    let out = env.run(&["--trust", "proj", "--yes"]);
    assert_eq!(
        out.to_string(),
        "No config under proj/ requests permissions\n[exit status: 0]"
    );
    assert!(!env.default_store().exists());
}

#[test]
fn changed_config_lists_removed_then_current_lines() {
    let env = TestEnv::new();
    env.write(
        "proj/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"], "allow-ffi": ["/lib/x.so"]}}"#,
    );
    env.write(
        "proj/other/goccia.json",
        r#"{"permissions": {"allow-net": ["b.test"]}}"#,
    );
    assert_eq!(env.run(&["--trust", ".", "--yes"]).code, 0);
    env.write(
        "proj/goccia.json",
        r#"{"permissions": {"allow-read": ["/data"], "allow-ffi": ["/lib/x.so"]}}"#,
    );
    let out = env.run(&["--trust", "."]);
    assert_eq!(
        out.to_string(),
        "Permission requests under ./:\n\n  proj/goccia.json (changed)\n  - allow-net: a.test\n    allow-ffi: /lib/x.so\n  + allow-read: /data\n\n  1 more already trusted and unchanged.\n\n--- stderr ---\nError: --trust needs confirmation; re-run with --yes to trust without a prompt\n[exit status: 2]"
    );
}

#[test]
fn trust_argument_errors() {
    let env = TestEnv::new();
    assert_eq!(
        env.run(&["--trust", "nope"]).to_string(),
        "--- stderr ---\nError: --trust path not found: nope\n[exit status: 1]"
    );
    assert_eq!(
        env.run(&["--trust", " "]).to_string(),
        "--- stderr ---\nError: --trust needs a path\n[exit status: 2]"
    );
    assert_eq!(
        env.run(&["trust", ""]).to_string(),
        "--- stderr ---\nError: --trust needs a path\n[exit status: 2]"
    );
    assert_eq!(
        env.run(&["--trust-store", "x", "--list-trusted"])
            .to_string(),
        "--- stderr ---\nError: --trust-store needs a path: --trust-store=<path>\n[exit status: 2]"
    );
}

#[test]
fn a_bad_config_fails_trust_with_its_own_error_and_class() {
    let env = TestEnv::new();
    env.write(
        "proj/goccia.json",
        r#"{"permissions": {"allow-nett": ["x"]}}"#,
    );
    let out = env.run(&["--trust", "proj", "--yes"]);
    assert_eq!(
        out.to_string(),
        "--- stderr ---\nError: $ROOT/work/proj/goccia.json: unknown permission \"allow-nett\" (valid: allow-read, allow-net, allow-ffi, allow-import, deny-read, deny-net, deny-ffi, deny-import)\n[exit status: 2]"
    );
    env.write(
        "proj/goccia.json",
        r#"{"permissions": {"allow-net": ["http://x"]}}"#,
    );
    let out = env.run(&["--trust", "proj", "--yes"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(!env.default_store().exists());
}

#[test]
fn untrust_removes_at_or_under_with_boundaries() {
    let env = TestEnv::new();
    env.write(
        "a/b/goccia.json",
        r#"{"permissions": {"allow-net": ["x.test"]}}"#,
    );
    env.write(
        "a/bc/goccia.json",
        r#"{"permissions": {"allow-net": ["y.test"]}}"#,
    );
    assert_eq!(env.run(&["--trust", "a", "--yes"]).code, 0);
    let out = env.run(&["--untrust", "a/b"]);
    assert_eq!(
        out.to_string(),
        "Removed trust for 1 config file under a/b/\n[exit status: 0]"
    );
    let out = env.run(&["untrust", "a/b", "gone1", "."]);
    assert_eq!(
        out.to_string(),
        "No trusted config at or under a/b/\nNo trusted config at or under gone1\nRemoved trust for 1 config file under ./\n[exit status: 0]"
    );
    assert_eq!(
        env.run(&["--untrust="]).to_string(),
        "--- stderr ---\nError: --untrust needs a path\n[exit status: 2]"
    );
}

#[test]
fn list_trusted_marks_changed_and_missing() {
    let env = TestEnv::new();
    env.write("p/goccia.json", r#"{"permissions": {"allow-net": ["x.test"], "allow-read": ["/r"]}, "unsafe-shadowrealm": true}"#);
    env.write(
        "q/goccia.json",
        r#"{"permissions": {"allow-net": ["x.test"]}}"#,
    );
    env.write(
        "r/goccia.json",
        r#"{"permissions": {"allow-net": ["x.test"]}}"#,
    );
    assert_eq!(env.run(&["--trust", ".", "--yes"]).code, 0);
    env.write(
        "q/goccia.json",
        r#"{"permissions": {"allow-net": ["z.test"]}}"#,
    );
    std::fs::remove_file(env.work.join("r/goccia.json")).unwrap();
    let out = redact_timestamps(&env.run(&["--list-trusted"]).to_string());
    assert_eq!(
        out,
        "Trust store: $ROOT/home/.config/goccia/trust.json\n\
         $ROOT/work/p/goccia.json  trusted <TS>  allow-net, allow-read, unsafe-shadowrealm\n\
         $ROOT/work/q/goccia.json  trusted <TS>  allow-net  (changed)\n\
         $ROOT/work/r/goccia.json  trusted <TS>  allow-net  (missing)\n\
         [exit status: 0]"
    );
    let out = env.run(&["untrust", "--missing"]);
    assert_eq!(
        out.to_string(),
        "Removed trust for missing r/goccia.json\n[exit status: 0]"
    );
    let out = env.run(&["untrust", "--missing"]);
    assert_eq!(
        out.to_string(),
        "No missing configs in $ROOT/home/.config/goccia/trust.json\n[exit status: 0]"
    );
}

#[test]
fn list_of_an_empty_or_absent_store() {
    let env = TestEnv::new();
    assert_eq!(
        env.run(&["list"]).to_string(),
        "Trust store: $ROOT/home/.config/goccia/trust.json\nNo trusted configs\n[exit status: 0]"
    );
}

#[test]
fn no_home_means_no_store() {
    let env = TestEnv::new();
    proj(&env);
    let out = env.run_with_env(&["--trust", "proj", "--yes"], &[("HOME", "")]);
    assert_eq!(
        out.to_string(),
        "--- stderr ---\nError: cannot locate the per-user trust store (HOME is not set); pass --trust-store=<path>\n[exit status: 1]"
    );
}

#[test]
fn an_unreadable_store_is_never_overwritten() {
    let env = TestEnv::new();
    proj(&env);
    let store = env.default_store();
    std::fs::create_dir_all(store.parent().unwrap()).unwrap();
    std::fs::write(&store, "{not json").unwrap();
    for args in [
        &["--trust", "proj", "--yes"][..],
        &["--untrust", "proj"],
        &["--list-trusted"],
    ] {
        let out = env.run(args);
        assert_eq!(
            out.to_string(),
            "--- stderr ---\nError: trust store $ROOT/home/.config/goccia/trust.json is not valid JSON; fix or delete it\n[exit status: 1]",
            "{args:?}"
        );
    }
    assert_eq!(std::fs::read_to_string(&store).unwrap(), "{not json");
}

#[test]
fn check_reports_blocking_configs_like_a_run() {
    let env = TestEnv::new();
    env.write(
        "tests/ffi/goccia.json",
        r#"{"permissions": {"allow-ffi": ["/opt/ffi"]}}"#,
    );
    env.write(
        "tests/fetch/goccia.json",
        r#"{"permissions": {"allow-net": ["example.com", "127.0.0.1", "0.0.0.0"]}}"#,
    );
    env.write("tests/fetch/a.js", "");
    env.write("tests/ffi/b.js", "");
    env.write("plain/c.js", "");
    let out = env.run(&["check", "tests/fetch/a.js", "tests/ffi/b.js", "plain/c.js"]);
    assert_eq!(
        out.to_string(),
        "--- stderr ---\nError: 2 config files request permissions that have not been trusted:\n\n  tests/fetch/goccia.json (never trusted)\n    allow-net: 0.0.0.0, 127.0.0.1, example.com\n\n  tests/ffi/goccia.json (never trusted)\n    allow-ffi: /opt/ffi\n\nNothing was run. To trust these requests (stored in $ROOT/home/.config/goccia/trust.json):\n  goccia-trust --trust tests/fetch/goccia.json --trust tests/ffi/goccia.json\nTo accept them for this run only:\n  goccia-trust -P tests/fetch/a.js tests/ffi/b.js plain/c.js\nTo run with command-line grants only:\n  goccia-trust --ignore-config-permissions tests/fetch/a.js tests/ffi/b.js plain/c.js\n[exit status: 2]"
    );
    assert_eq!(env.run(&["--trust", "tests", "--yes"]).code, 0);
    let out = env.run(&["check", "tests/fetch/a.js"]);
    assert_eq!(
        out.to_string(),
        "tests/fetch/goccia.json (trusted)\n[exit status: 0]"
    );
}

#[test]
fn check_with_more_than_three_configs_suggests_their_common_directory() {
    let env = TestEnv::new();
    for d in ["a", "b", "c", "d"] {
        env.write(
            &format!("x y/{d}/goccia.json"),
            r#"{"unsafe-function-constructor": true}"#,
        );
        env.write(&format!("x y/{d}/m.js"), "");
    }
    let out = env.run(&[
        "--trust-store=my store.json",
        "check",
        "x y/a/m.js",
        "x y/b/m.js",
        "x y/c/m.js",
        "x y/d/m.js",
    ]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("\n  goccia-trust '--trust-store=my store.json' --trust 'x y/'\n"),
        "{out}"
    );
    assert!(
        out.stderr
            .contains("goccia-trust -P 'x y/a/m.js' 'x y/b/m.js'"),
        "{out}"
    );
}

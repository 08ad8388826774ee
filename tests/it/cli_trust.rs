//! The trust commands against the exact texts of docs/src/compatibility.md#command-output and
//! #blank-paths-and-empty-variables, run as a user would: the real binary, a temporary HOME and store.

use crate::common;

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
        "Permission requests under proj/:\n\n  proj/goccia.json (new)\n    allow-net: example.com\n\n--- stderr ---\nError: trust needs confirmation; re-run with --yes to trust without a prompt\n[exit status: 2]"
    );
    // Issue 44 try 15: the subcommand's name; GocciaScript's `--trust PATH`
    // keeps GocciaScript's message.
    let out = env.run(&["--trust", "proj"]);
    assert!(
        out.stderr.ends_with(
            "Error: --trust needs confirmation; re-run with --yes to trust without a prompt\n"
        ),
        "{out}"
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
    // Where `/lib` is a link (merged /usr), the listing adds where the
    // scope leads (issue 8); GocciaScript's lines are unchanged.
    let lib = std::fs::canonicalize("/lib/x.so")
        .or_else(|_| std::fs::canonicalize("/lib").map(|l| l.join("x.so")))
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "/lib/x.so".into());
    let destination = if lib == "/lib/x.so" {
        String::new()
    } else {
        format!("      -> allow-ffi /lib/x.so resolves to {lib}\n")
    };
    assert_eq!(
        out.to_string(),
        format!(
            "Permission requests under ./:\n\n  proj/goccia.json (changed)\n  - allow-net: a.test\n    allow-ffi: /lib/x.so\n{destination}  + allow-read: /data\n\n  1 more already trusted and unchanged.\n\n--- stderr ---\nError: --trust needs confirmation; re-run with --yes to trust without a prompt\n[exit status: 2]"
        )
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
        "--- stderr ---\nError: 2 config files request permissions that have not been trusted:\n\n  tests/fetch/goccia.json (never trusted)\n    allow-net: 0.0.0.0, 127.0.0.1, example.com\n\n  tests/ffi/goccia.json (never trusted)\n    allow-ffi: /opt/ffi\n\nNothing was run. To trust these requests (stored in $ROOT/home/.config/goccia/trust.json):\n  goccia-trust --trust tests/fetch/goccia.json --trust tests/ffi/goccia.json\nTo accept them for this run only:\n  GocciaRunner -P tests/fetch/a.js tests/ffi/b.js plain/c.js\nTo run with command-line grants only:\n  GocciaRunner --ignore-config-permissions tests/fetch/a.js tests/ffi/b.js plain/c.js\n[exit status: 2]"
    );
    assert_eq!(env.run(&["--trust", "tests", "--yes"]).code, 0);
    let out = env.run(&["check", "tests/fetch/a.js"]);
    assert_eq!(
        out.to_string(),
        "tests/fetch/goccia.json (trusted)\n[exit status: 0]"
    );
}

#[test]
fn check_of_config_files_suggests_only_the_trust_command() {
    // The pre-commit hook passes the staged configs themselves: running a
    // config with GocciaRunner -P makes no sense, so only trusting is
    // suggested.
    let env = TestEnv::new();
    env.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-net": ["example.com"]}}"#,
    );
    env.write("lib/goccia.toml", "unsafe-function-constructor = true\n");
    env.write("lib/m.js", "");
    let head = "--- stderr ---\nError: 1 config file requests permissions that have not been trusted:\n\n  app/goccia.json (never trusted)\n    allow-net: example.com\n\nNothing was run. To trust these requests (stored in $ROOT/home/.config/goccia/trust.json):\n  goccia-trust --trust app/goccia.json";
    let out = env.run(&["check", "app/goccia.json"]);
    assert_eq!(out.to_string(), format!("{head}\n[exit status: 2]"));
    // One config among the inputs is enough.
    let out = env.run(&["check", "lib/m.js", "./app/goccia.json"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr
            .ends_with("  goccia-trust --trust app/goccia.json --trust lib/goccia.toml\n"),
        "{out}"
    );
    assert!(!out.stderr.contains("GocciaRunner"), "{out}");
    // A script alone keeps docs/src/compatibility.md#the-untrusted-run-report's report byte for byte.
    let out = env.run(&["check", "lib/m.js"]);
    assert!(
        out.stderr.ends_with(
            "  goccia-trust --trust lib/goccia.toml\nTo accept them for this run only:\n  GocciaRunner -P lib/m.js\nTo run with command-line grants only:\n  GocciaRunner --ignore-config-permissions lib/m.js\n"
        ),
        "{out}"
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
            .contains("GocciaRunner -P 'x y/a/m.js' 'x y/b/m.js'"),
        "{out}"
    );
}

#[test]
fn check_names_a_store_problem_in_the_report() {
    let env = TestEnv::new();
    env.write(
        "p/goccia.json",
        r#"{"permissions": {"allow-net": ["x.test"]}}"#,
    );
    env.write("p/m.js", "");
    let store = env.default_store();
    std::fs::create_dir_all(store.parent().unwrap()).unwrap();
    std::fs::write(&store, r#"{"version": 1}"#).unwrap();
    let out = env.run(&["check", "p/m.js"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr.contains("\n\nNothing was run. Trust store $ROOT/home/.config/goccia/trust.json is not a valid trust store (no \"trusted\"); fix or delete it. Then, to trust these requests:\n  goccia-trust --trust p/goccia.json\n"),
        "{out}"
    );

    let out = env.run_with_env(&["check", "p/m.js"], &[("HOME", "")]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr.contains("\n\nNothing was run. The per-user trust store cannot be located (HOME is not set); to trust these requests, name a store:\n  goccia-trust --trust-store=<path> --trust p/goccia.json\n"),
        "{out}"
    );
}

#[test]
fn check_stops_on_a_config_that_does_not_load() {
    let env = TestEnv::new();
    env.write("p/goccia.toml", "[permissions]\nallow-import = true\n");
    env.write("p/m.js", "");
    let out = env.run(&["check", "p/m.js"]);
    assert_eq!(
        out.to_string(),
        "--- stderr ---\nError: $ROOT/work/p/goccia.toml: \"permissions.allow-import\" needs scopes: node_modules[=<dir>] or a provider such as github\n[exit status: 2]"
    );
}

#[test]
fn scan_shows_every_state_and_exits_with_the_worst_error_class() {
    let env = TestEnv::new();
    env.write(
        "a/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    env.write(
        "b/goccia.json",
        r#"{"permissions": {"allow-net": ["b.test"]}}"#,
    );
    env.write("c/goccia.json", r#"{"permissions": {"deny-read": true}}"#);
    env.write(
        "d/goccia.json",
        r#"{"permissions": {"allow-net": ["http://x"]}}"#,
    );
    env.write(
        "e/goccia.json5",
        "{permissions: {'allow-ffi': ['./lib.so']}}",
    );
    assert_eq!(env.run(&["trust", "--yes", "a", "b"]).code, 0);
    env.write(
        "b/goccia.json",
        r#"{"permissions": {"allow-net": ["c.test"]}}"#,
    );
    let out = env.run(&["scan"]);
    assert_eq!(
        out.to_string(),
        "STATE          CONFIG          SUMMARY\n\
         trusted        a/goccia.json   1 request\n\
         changed        b/goccia.json   +1 -1\n\
         \x20 - allow-net: b.test\n\
         \x20 + allow-net: c.test\n\
         no request     c/goccia.json   only denies\n\
         error          d/goccia.json   $ROOT/work/d/goccia.json: invalid scope in \"permissions.allow-net\": \"http://x\" (use host, host:port, *.domain, an IP, a CIDR range, or private)\n\
         never trusted  e/goccia.json5  1 request\n\
         [exit status: 1]"
    );
    let json: serde_json::Value =
        serde_json::from_str(&env.run(&["scan", "--json", "."]).stdout).unwrap();
    let states: Vec<&str> = json["configs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["state"].as_str().unwrap())
        .collect();
    assert_eq!(
        states,
        ["trusted", "changed", "no-request", "error", "never-trusted"]
    );
    // Schema 1: the diff is value-level items, an error `{message, exit}`.
    assert!(
        json["configs"][1]["diff"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["change"] == "removed"),
        "{json}"
    );
    assert_eq!(json["configs"][3]["error"]["exit"], 1);
    assert_eq!(
        json["configs"][4]["lines"][0],
        "allow-ffi: $ROOT/work/e/lib.so"
    );
}

#[test]
fn list_json_reports_each_entry() {
    let env = TestEnv::new();
    env.write(
        "a/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"], "allow-read": ["d"]}}"#,
    );
    assert_eq!(env.run(&["trust", "--yes", "a"]).code, 0);
    let json: serde_json::Value =
        serde_json::from_str(&env.run(&["list", "--json"]).stdout).unwrap();
    assert_eq!(json["store"], "$ROOT/home/.config/goccia/trust.json");
    let e = &json["entries"][0];
    assert_eq!(e["key"], "$ROOT/work/a/goccia.json");
    assert_eq!(e["status"], "ok");
    let requests: Vec<&str> = e["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["request"].as_str().unwrap())
        .collect();
    assert_eq!(requests, ["allow-net", "allow-read"]);
    std::fs::remove_file(env.work.join("a/goccia.json")).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&env.run(&["list", "--json"]).stdout).unwrap();
    assert_eq!(json["entries"][0]["status"], "missing");
}

#[test]
fn symlinked_directories_key_at_their_target() {
    let env = TestEnv::new();
    env.write(
        "real/goccia.json",
        r#"{"permissions": {"allow-read": ["./data"]}}"#,
    );
    env.symlink("real", "linkdir");
    let out = env.run(&["--trust", "linkdir", "--yes"]);
    assert_eq!(
        out.to_string(),
        "Permission requests under linkdir/:\n\n  real/goccia.json (new)\n    allow-read: $ROOT/work/real/data\n\nTrusted 1 config file in $ROOT/home/.config/goccia/trust.json\n[exit status: 0]"
    );
    // Re-pointing an existing part of a scope's path is a change.
    env.mkdir("elsewhere");
    env.symlink("../elsewhere", "real/data");
    let out = env.run(&["check", "real"]);
    assert!(
        out.stderr.contains("  real/goccia.json (changed since trusted ")
            && out.stderr.contains("    allow-read: $ROOT/work/real/data\n      -> allow-read $ROOT/work/real/data resolves to $ROOT/work/elsewhere\n  ~ target of $ROOT/work/real/data: $ROOT/work/real/data -> $ROOT/work/elsewhere\n"),
        "{out}"
    );
}

/// `list` makes its reports a batch at a time and writes each as it is
/// made: a store longer than several batches still lists every entry once,
/// in store order, each checked against the disk as it is now: a changed
/// config, a vanished one and a re-pointed link in the first, middle and
/// last batches, in text and JSON, and `--exit-code` sees them.
#[test]
fn a_long_store_lists_every_entry_in_order_with_its_state_now() {
    let env = TestEnv::new();
    let n = 700;
    for i in 0..n {
        env.write(
            &format!("c{i:03}/goccia.json"),
            r#"{"permissions": {"allow-read": ["./data"]}}"#,
        );
        env.mkdir(&format!("c{i:03}/one"));
    }
    let (changed, missing, moved) = ([3, 300, 699], [4, 511, 698], [5, 256, 697]);
    for i in moved {
        env.symlink("one", &format!("c{i:03}/data"));
    }
    assert_eq!(env.run(&["trust", "--yes", "."]).code, 0);
    for i in changed {
        env.write(
            &format!("c{i:03}/goccia.json"),
            r#"{"permissions": {"allow-read": ["./other"]}}"#,
        );
    }
    for i in missing {
        std::fs::remove_file(env.work.join(format!("c{i:03}/goccia.json"))).unwrap();
    }
    for i in moved {
        let link = env.work.join(format!("c{i:03}/data"));
        std::fs::remove_file(&link).unwrap();
        env.mkdir(&format!("c{i:03}/two"));
        env.symlink("two", &format!("c{i:03}/data"));
    }
    let mut want = "Trust store: $ROOT/home/.config/goccia/trust.json\n".to_string();
    for i in 0..n {
        let key = format!("$ROOT/work/c{i:03}/goccia.json");
        want.push_str(&format!("{key}  trusted <TS>  allow-read"));
        if changed.contains(&i) {
            want.push_str("  (changed)");
        } else if missing.contains(&i) {
            want.push_str("  (missing)");
        } else if moved.contains(&i) {
            let dir = format!("$ROOT/work/c{i:03}");
            want.push_str(&format!(
                "  (changed)\n  ~ target of {dir}/data: {dir}/one -> {dir}/two"
            ));
        }
        want.push('\n');
    }
    let out = env.run(&["list"]);
    assert_eq!(out.code, 0);
    assert_eq!(redact_timestamps(&out.stdout), want);
    assert_eq!(env.run(&["list", "--exit-code"]).code, 1);
    let json: serde_json::Value =
        serde_json::from_str(&env.run(&["list", "--json"]).stdout).unwrap();
    let statuses: Vec<(String, String)> = json["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["key"].as_str().unwrap().into(),
                e["status"].as_str().unwrap().into(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = (0..n)
        .map(|i| {
            let status = match i {
                _ if missing.contains(&i) => "missing",
                _ if changed.contains(&i) || moved.contains(&i) => "changed",
                _ => "ok",
            };
            (format!("$ROOT/work/c{i:03}/goccia.json"), status.into())
        })
        .collect();
    assert_eq!(statuses, want);
}

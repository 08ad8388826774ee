//! `ignore` / `unignore` (issue 31 item 1), run as a user would: the real
//! binary, a temporary HOME, store and state directory. The ignore list
//! lives in the state directory; GocciaScript's store is never touched.

use std::os::unix::fs::PermissionsExt;

use crate::common::{TestEnv, redact_timestamps};

fn two(env: &TestEnv) {
    env.write(
        "repo/a/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    env.write(
        "repo/b/goccia.json",
        r#"{"permissions": {"allow-net": ["b.test"]}}"#,
    );
}

fn ignore_file(env: &TestEnv) -> std::path::PathBuf {
    env.root.join("state/ignored.json")
}

#[test]
fn an_ignored_config_shows_ignored_until_it_changes_and_the_store_is_untouched() {
    let env = TestEnv::new();
    two(&env);
    env.write(
        "repo/c/goccia.json",
        r#"{"permissions": {"allow-net": ["c.test"]}}"#,
    );
    assert_eq!(env.run(&["trust", "--yes", "repo/c"]).code, 0);
    let store_before = std::fs::read(env.default_store()).unwrap();

    let out = env.run(&["ignore", "repo/a", "repo/c"]);
    assert_eq!(
        out.to_string(),
        "Ignored repo/a/goccia.json\n\
         Not ignored (trusted; untrust it first) repo/c/goccia.json\n\
         [exit status: 0]"
    );
    assert_eq!(
        std::fs::read(env.default_store()).unwrap(),
        store_before,
        "GocciaScript's store keeps its bytes"
    );
    // Recorded by key and sha256, privately, in the state directory.
    let list: serde_json::Value =
        serde_json::from_slice(&std::fs::read(ignore_file(&env)).unwrap()).unwrap();
    let key = format!("{}/work/repo/a/goccia.json", env.root.display());
    assert_eq!(list["ignored"][&key]["sha256"].as_str().unwrap().len(), 64);
    assert!(list["ignored"][&key]["ignoredAt"].is_string());
    let mode = std::fs::metadata(ignore_file(&env))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o600);

    assert_eq!(
        env.run(&["scan", "repo"]).to_string(),
        "STATE          CONFIG              SUMMARY\n\
         ignored        repo/a/goccia.json  1 request\n\
         never trusted  repo/b/goccia.json  1 request\n\
         trusted        repo/c/goccia.json  1 request\n\
         [exit status: 0]"
    );
    let json: serde_json::Value =
        serde_json::from_str(&env.run(&["scan", "--json", "repo"]).stdout).unwrap();
    assert_eq!(json["configs"][0]["state"], "ignored");
    assert_eq!(json["configs"][1]["state"], "never-trusted");

    // Ignoring again changes nothing.
    assert_eq!(
        env.run(&["ignore", "repo/a/goccia.json"]).to_string(),
        "Already ignored repo/a/goccia.json\n[exit status: 0]"
    );

    // A change asks again.
    env.write(
        "repo/a/goccia.json",
        r#"{"permissions": {"allow-net": ["a2.test"]}}"#,
    );
    assert!(
        env.run(&["scan", "repo/a"])
            .stdout
            .contains("never trusted  repo/a/goccia.json")
    );
    assert_eq!(
        std::fs::read(env.default_store()).unwrap(),
        store_before,
        "GocciaScript's store keeps its bytes"
    );
}

#[test]
fn unignore_asks_again() {
    let env = TestEnv::new();
    two(&env);
    assert_eq!(env.run(&["ignore", "repo"]).code, 0);
    assert!(
        env.run(&["scan", "repo"])
            .stdout
            .contains("ignored        repo/b/goccia.json")
    );
    assert_eq!(
        env.run(&["unignore", "repo/b", "elsewhere"]).to_string(),
        "Unignored repo/b/goccia.json\n\
         No ignored config at or under elsewhere\n\
         [exit status: 0]"
    );
    let scan = env.run(&["scan", "repo"]).stdout;
    assert!(scan.contains("ignored        repo/a/goccia.json"), "{scan}");
    assert!(scan.contains("never trusted  repo/b/goccia.json"), "{scan}");
}

#[test]
fn ignore_of_a_path_without_a_config_is_an_error_and_writes_nothing() {
    let env = TestEnv::new();
    two(&env);
    env.mkdir("empty");
    assert_eq!(
        env.run(&["ignore", "repo/a", "nope"]).to_string(),
        "--- stderr ---\nError: ignore path not found: nope\n[exit status: 1]"
    );
    assert_eq!(
        env.run(&["ignore", "repo/a", "empty"]).to_string(),
        "--- stderr ---\nError: ignore: no config at or under empty\n[exit status: 1]"
    );
    assert!(
        !ignore_file(&env).exists(),
        "a failed command changes nothing"
    );
    assert_eq!(
        env.run(&["ignore"]).to_string(),
        "--- stderr ---\nError: ignore needs a path\n[exit status: 2]"
    );
}

#[test]
fn trust_of_a_directory_leaves_ignored_configs_out_unless_named() {
    let env = TestEnv::new();
    two(&env);
    assert_eq!(env.run(&["ignore", "repo/a"]).code, 0);
    let out = env.run(&["trust", "--yes", "repo"]);
    assert_eq!(
        out.to_string(),
        "Permission requests under repo/:\n\n  repo/b/goccia.json (new)\n    allow-net: b.test\n\nTrusted 1 config file in $ROOT/home/.config/goccia/trust.json\n\
         --- stderr ---\n\
         Left out (ignored; name the config file to trust it): repo/a/goccia.json\n\
         [exit status: 0]"
    );
    let store = env.read_store();
    assert!(!store.contains("repo/a/goccia.json"), "{store}");
    // Nothing left but the ignored one: said so, not "no config requests".
    assert_eq!(
        env.run(&["trust", "--yes", "repo/a"]).to_string(),
        "Nothing to trust under repo/a/: 1 config file ignored (unignore, or name a config file to trust it)\n\
         --- stderr ---\n\
         Left out (ignored; name the config file to trust it): repo/a/goccia.json\n\
         [exit status: 0]"
    );
    // Named explicitly, it is trusted.
    let out = env.run(&["trust", "--yes", "repo/a/goccia.json"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(env.read_store().contains("repo/a/goccia.json"));
    assert!(
        env.run(&["scan", "repo/a"])
            .stdout
            .contains("trusted        repo/a/goccia.json")
    );
}

#[test]
fn list_ignored_shows_key_sha256_and_when() {
    let env = TestEnv::new();
    two(&env);
    assert_eq!(
        env.run(&["list", "--ignored"]).to_string(),
        "No ignored configs in $ROOT/state/ignored.json\n[exit status: 0]"
    );
    assert_eq!(env.run(&["ignore", "repo/b"]).code, 0);
    let list: serde_json::Value =
        serde_json::from_slice(&std::fs::read(ignore_file(&env)).unwrap()).unwrap();
    let key = format!("{}/work/repo/b/goccia.json", env.root.display());
    let sha = list["ignored"][&key]["sha256"]
        .as_str()
        .unwrap()
        .to_string();
    let out = env.run(&["list", "--ignored"]);
    assert_eq!(
        redact_timestamps(&out.to_string()),
        format!(
            "Ignored configs in $ROOT/state/ignored.json:\n  $ROOT/work/repo/b/goccia.json\n    sha256: {sha}\n    ignored at: <TS>\n[exit status: 0]"
        )
    );
    // A config that changed since is marked: its ignore no longer applies.
    env.write(
        "repo/b/goccia.json",
        r#"{"permissions": {"allow-net": ["x.test"]}}"#,
    );
    assert!(
        env.run(&["list", "--ignored"])
            .stdout
            .contains("  $ROOT/work/repo/b/goccia.json (changed)\n")
    );
}

#[test]
fn an_unreadable_or_unsafe_ignore_list_hides_nothing_and_is_not_overwritten() {
    let env = TestEnv::new();
    two(&env);
    assert_eq!(env.run(&["ignore", "repo/a"]).code, 0);
    let good = std::fs::read(ignore_file(&env)).unwrap();

    // Writable by others: not believed, reported.
    std::fs::set_permissions(ignore_file(&env), std::fs::Permissions::from_mode(0o666)).unwrap();
    let out = env.run(&["scan", "repo/a"]);
    assert!(
        out.stdout.contains("never trusted  repo/a/goccia.json"),
        "{out}"
    );
    assert_eq!(
        out.stderr,
        "Warning: ignore list $ROOT/state/ignored.json is writable by others (mode 0666); nothing is treated as ignored\n"
    );
    let out = env.run(&["trust", "--yes", "repo"]);
    assert_eq!(out.code, 0);
    assert!(
        env.read_store().contains("repo/a/goccia.json"),
        "fail closed: not hidden"
    );
    std::fs::set_permissions(ignore_file(&env), std::fs::Permissions::from_mode(0o600)).unwrap();

    // Corrupt: reported, and `ignore` refuses to write over it.
    std::fs::write(ignore_file(&env), b"{\"ignored\": [").unwrap();
    let out = env.run(&["ignore", "repo/b"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        out.stderr
            .starts_with("Error: ignore list $ROOT/state/ignored.json is corrupt ("),
        "{out}"
    );
    assert!(
        out.stderr.ends_with("; not changed (fix or remove it)\n"),
        "{out}"
    );
    assert_eq!(
        std::fs::read(ignore_file(&env)).unwrap(),
        b"{\"ignored\": ["
    );
    let _ = good;
}

#[test]
fn ignore_help_says_gocciascript_still_refuses_the_config() {
    let env = TestEnv::new();
    let out = env.run(&["ignore", "--help"]);
    assert_eq!(out.code, 0);
    let help = out.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("GocciaScript still refuses to run an ignored config"),
        "{help}"
    );
    assert!(
        help.contains("never in GocciaScript's trust store"),
        "{help}"
    );
}

/// An ignored config that changed since it was trusted counts its requests,
/// not the lines of its diff: one key asked for once is `1 request` (the
/// removed value of the stored version is not a request).
#[test]
fn an_ignored_changed_config_counts_its_requests() {
    let env = TestEnv::new();
    env.write(
        "repo/p/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    assert_eq!(env.run(&["trust", "--yes", "repo/p"]).code, 0);
    env.write(
        "repo/p/goccia.json",
        r#"{"permissions": {"allow-net": ["b.test"]}}"#,
    );
    assert_eq!(env.run(&["ignore", "repo/p/goccia.json"]).code, 0);
    let out = env.run(&["scan", "repo/p"]);
    assert!(
        out.stdout
            .contains("ignored        repo/p/goccia.json  1 request\n"),
        "{out}"
    );
}

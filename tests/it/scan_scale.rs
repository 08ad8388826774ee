//! `scan` over more configs than it loads at once: rows stream out in key
//! order, the CONFIG column is as wide as the widest path wherever it
//! comes, and an error in a late batch still sets the exit code. And the
//! walk reports a directory it cannot read once, however many paths lead
//! to it.

use crate::common;

use std::os::unix::fs::PermissionsExt;

use common::{TestEnv, run_unprivileged};

const REQUEST: &str = r#"{"permissions": {"allow-net": ["a.test"]}}"#;
const LONG: &str = "c/598-a-much-longer-directory-name/goccia.json";

fn many() -> (TestEnv, Vec<String>) {
    let env = TestEnv::new();
    let mut paths = Vec::new();
    for i in 0..600 {
        let path = match i {
            598 => LONG.to_string(),
            _ => format!("c/{i:03}/goccia.json"),
        };
        // The last config (last in key order) does not parse.
        env.write(&path, if i == 599 { "{" } else { REQUEST });
        paths.push(path);
    }
    paths.sort();
    (env, paths)
}

#[test]
fn a_scan_of_many_configs_keeps_key_order_width_and_exit_code() {
    let (env, paths) = many();

    let json = env.run(&["scan", "--json", "c"]);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let configs = doc["configs"].as_array().unwrap();
    let shown: Vec<&str> = configs
        .iter()
        .map(|c| c["path"].as_str().unwrap())
        .collect();
    assert_eq!(shown, paths);
    let last = &configs[599];
    assert_eq!(last["state"], "error");
    let code = last["error"]["exit"].as_i64().unwrap() as i32;
    assert_ne!(code, 0);
    assert_eq!(json.code, code, "{}", json.stderr);
    assert!(configs[..599].iter().all(|c| c["state"] == "never-trusted"));

    let text = env.run(&["scan", "c"]);
    assert_eq!(text.code, code, "{}", text.stderr);
    let lines: Vec<&str> = text.stdout.lines().collect();
    assert_eq!(lines.len(), 601, "{}", text.stdout);
    let width = LONG.len();
    assert_eq!(
        lines[0],
        format!("{:<13}  {:<width$}  SUMMARY", "STATE", "CONFIG")
    );
    for (line, path) in lines[1..600].iter().zip(&paths) {
        assert_eq!(*line, format!("never trusted  {path:<width$}  1 request"));
    }
    let message = last["error"]["message"].as_str().unwrap();
    assert_eq!(
        lines[600],
        format!("{:<13}  {:<width$}  {message}", "error", paths[599])
    );
}

#[test]
fn a_directory_that_cannot_be_read_is_reported_once_however_it_is_reached() {
    let env = TestEnv::new();
    env.write("p/ok/goccia.json", REQUEST);
    env.write("p/locked/goccia.json", REQUEST);
    env.symlink("locked", "p/again");
    crate::common::open_for_unprivileged(&env, &["work", "work/p", "work/p/ok", "work/p/locked"]);
    let locked = env.work.join("p/locked");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();

    let (out, err, code) = run_unprivileged(&env, &["scan", "--json", "p"]);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(code, 1, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let unreadable = doc["unreadable"].as_array().unwrap();
    assert_eq!(unreadable.len(), 1, "{unreadable:?}");
    assert_eq!(unreadable[0]["reason"], "Permission denied");
    let path = unreadable[0]["path"].as_str().unwrap();
    assert!(
        path == "$ROOT/work/p/locked" || path == "$ROOT/work/p/again",
        "{path}"
    );
    assert_eq!(doc["configs"].as_array().unwrap().len(), 1);
}

#[test]
fn a_chain_of_400_directories_is_walked_whole() {
    // Each directory is opened by name from its parent, held open for it
    // (while fewer than 256 are held), at any depth.
    let env = TestEnv::new();
    let mut dir = String::from("deep");
    for i in 0..400 {
        dir.push_str("/d");
        if i == 100 || i == 399 {
            env.write(&format!("{dir}/goccia.json"), REQUEST);
        }
    }
    let out = env.run(&["scan", "--json", "deep"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let depths: Vec<usize> = doc["configs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["path"].as_str().unwrap().matches("/d").count())
        .collect();
    // Key order: `d/d/…` sorts before `d/goccia.json`.
    assert_eq!(depths, [400, 101]);
}

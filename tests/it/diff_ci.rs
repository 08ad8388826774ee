//! `diff --format sarif|github` (issue 15): one finding per widened,
//! broken or narrowed config, located on the line of the request at HEAD,
//! over a real git repository built in the test; SARIF validated against
//! the vendored 2.1.0 schema, workflow commands that a hostile directory
//! name cannot break.

use serde_json::Value;

use crate::cli_ci::{assert_valid_sarif, parse_command, results};
use crate::cli_conventions::on_terminal;
use crate::common::git::{GIT_ENV, perms};
use crate::diff::Repo;

fn found(rule: &str, uri: &str, line: Option<u64>) -> (String, String, Option<u64>) {
    (rule.to_string(), uri.to_string(), line)
}

/// BASE: a root config allowing one host, a package reading two paths, a
/// config extending a shared base, one under a subdirectory, one that
/// loads. HEAD: each changes in its own way.
pub(crate) fn changed_repo() -> Repo {
    let r = Repo::new();
    r.write(
        "goccia.json",
        "{\n  \"permissions\": {\n    \"allow-net\": [\"a.test\"]\n  }\n}\n",
    );
    r.write(
        "pkg/goccia.json",
        &perms(r#""allow-read": ["./data", "./cache"]"#),
    );
    r.write("shared/base.json", &perms(""));
    r.write(
        "ext/goccia.json",
        "{\n  \"extends\": \"../shared/base.json\",\n  \"permissions\": {\"allow-read\": [\"./x\"]}\n}\n",
    );
    r.write("sub/goccia.json", &perms(r#""allow-read": ["./x"]"#));
    r.write("brk/goccia.json", &perms(r#""allow-read": ["./x"]"#));
    r.commit("base");
    // Widened: one host more, on its own line (line 3 holds the key).
    r.write(
        "goccia.json",
        "{\n  \"permissions\": {\n    \"allow-net\": [\n      \"a.test\",\n      \"b.test\"\n    ]\n  }\n}\n",
    );
    // Added.
    r.write(
        "new/goccia.toml",
        "# new package\n[permissions]\nallow-ffi = [\"./lib.so\"]\n",
    );
    // Widened through the extends chain: the finding is on `extends`.
    r.write("shared/base.json", &perms(r#""allow-net": ["evil.test"]"#));
    // Narrowed.
    r.write("pkg/goccia.json", &perms(r#""allow-read": ["./data"]"#));
    // Removed: sub/ now falls under the root config, which allows hosts.
    std::fs::remove_file(r.t.work.join("sub/goccia.json")).unwrap();
    // Broken.
    r.write("brk/goccia.json", "{\"permissions\": ");
    r.commit("head");
    r
}

#[test]
fn sarif_has_one_result_per_changed_config_on_the_requests_line_and_validates() {
    let r = changed_repo();
    let out = r.diff(&["HEAD~1", "HEAD", "--format", "sarif"]);
    assert_eq!(out.code, 1, "{out}");
    let log = assert_valid_sarif(&out.stdout);
    let rules: Vec<(&str, &str)> = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap(),
                r["defaultConfiguration"]["level"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rules,
        [
            ("permissions-widened", "warning"),
            ("config-broken", "error"),
            ("permissions-narrowed", "note"),
            ("not-read", "warning"),
        ]
    );
    assert_eq!(
        results(&log),
        [
            found("config-broken", "brk/goccia.json", Some(1)),
            found("permissions-widened", "ext/goccia.json", Some(2)),
            found("permissions-widened", "goccia.json", Some(3)),
            found("permissions-widened", "new/goccia.toml", Some(3)),
            found("permissions-narrowed", "pkg/goccia.json", Some(1)),
            // The removed config has no file at HEAD: the finding is on the
            // parent config that now governs its directory.
            found("permissions-widened", "goccia.json", Some(3)),
        ]
    );
    let res = log["runs"][0]["results"].as_array().unwrap();
    let levels: Vec<&str> = res.iter().map(|r| r["level"].as_str().unwrap()).collect();
    assert_eq!(
        levels,
        ["error", "warning", "warning", "warning", "note", "warning"]
    );
    let text = |i: usize| res[i]["message"]["text"].as_str().unwrap().to_string();
    assert!(
        text(0).starts_with("brk/goccia.json (changed) does not load at HEAD: brk/goccia.json: "),
        "{}",
        text(0)
    );
    assert_eq!(
        text(2),
        "goccia.json (changed) widened permissions from HEAD~1 to HEAD\nallow-net: + b.test  (widens) · 9b9ec7e Test 2026-01-01 \"head\""
    );
    assert!(
        text(1).contains("allow-net: + evil.test  (widens)"),
        "{}",
        text(1)
    );
    assert_eq!(
        text(5),
        "sub/goccia.json (removed) widened permissions from HEAD~1 to HEAD: its directory now falls under goccia.json, which allows more:\nallow-net: + a.test  (widens)\nallow-net: + b.test  (widens)"
    );
    assert_eq!(res[5]["properties"]["status"], "removed");
    assert!(
        text(4).contains("allow-read: - $ROOT/work/pkg/cache"),
        "{}",
        text(4)
    );
    // URIs are relative to the repository's root.
    assert_eq!(
        log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"],
        "file://$ROOT/work/"
    );

    // The same from a subdirectory: locations stay relative to the root.
    let sub = r.t.work.join("pkg");
    let again = r.t.run_in(
        &sub,
        &["diff", "HEAD~1", "HEAD", "--format", "sarif"],
        GIT_ENV,
    );
    assert_eq!(again.stdout, out.stdout);
    // --exit-zero only reports.
    let quiet = r.diff(&["HEAD~1", "HEAD", "--format", "sarif", "--exit-zero"]);
    assert_eq!((quiet.code, &quiet.stdout), (0, &out.stdout));
}

#[test]
fn github_commands_per_config_and_exit_codes_as_for_text() {
    let r = changed_repo();
    let out = r.diff(&["HEAD~1", "HEAD", "--format", "github"]);
    assert_eq!(out.code, 1, "{out}");
    let commands: Vec<_> = out.stdout.lines().map(parse_command).collect();
    let shape: Vec<(&str, &str, Option<&str>)> = commands
        .iter()
        .map(|(level, props, _)| {
            let get = |k: &str| props.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
            (level.as_str(), get("file").unwrap(), get("line"))
        })
        .collect();
    assert_eq!(
        shape,
        [
            ("error", "brk/goccia.json", None),
            ("warning", "ext/goccia.json", Some("2")),
            ("warning", "goccia.json", Some("3")),
            ("warning", "new/goccia.toml", Some("3")),
            ("notice", "pkg/goccia.json", Some("1")),
            ("warning", "goccia.json", Some("3")),
        ]
    );
    assert_eq!(
        commands[2].1.last().unwrap(),
        &(
            "title".to_string(),
            "goccia-trust: permissions widened".to_string()
        )
    );
    assert!(
        out.stdout.lines().nth(2).unwrap().ends_with(
            "::goccia.json (changed) widened permissions from HEAD~1 to HEAD%0Aallow-net: + b.test  (widens) · 9b9ec7e Test 2026-01-01 \"head\""
        ),
        "{out}"
    );

    // Only narrowed: notices, exit 0. A request gone from the file has no
    // line at HEAD: the annotation is on the file.
    r.write("pkg/goccia.json", &perms(""));
    r.commit("narrow more");
    let out = r.diff(&["HEAD~1", "HEAD", "--format", "github"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(out.stdout.lines().count(), 1, "{out}");
    assert!(
        out.stdout.starts_with(
            "::notice file=pkg/goccia.json,title=goccia-trust%3A permissions narrowed::"
        ),
        "{out}"
    );
    // Nothing changed: no command at all.
    let out = r.diff(&["HEAD", "HEAD", "--format", "github"]);
    assert_eq!((out.code, out.stdout.as_str()), (0, ""), "{out}");
    // A usage error prints no log.
    let out = r.diff(&["no-such-rev", "--format", "sarif"]);
    assert_eq!((out.code, out.stdout.as_str()), (2, ""), "{out}");
    let out = r.diff(&["HEAD", "--json", "--format", "sarif"]);
    assert_eq!(out.code, 2, "{out}");
}

#[test]
fn the_working_tree_is_located_in_the_file_on_disk() {
    let r = changed_repo();
    r.write(
        "pkg/goccia.json",
        "{\n\n\n  \"permissions\": {\"allow-read\": [\"./data\"],\n  \"allow-net\": [\"out.test\"]}\n}\n",
    );
    let out = r.diff(&["HEAD", "--format", "github"]);
    assert_eq!(out.code, 1, "{out}");
    let pkg = out
        .stdout
        .lines()
        .find(|l| l.contains("file=pkg/"))
        .unwrap_or_else(|| panic!("{out}"));
    let (level, props, message) = parse_command(pkg);
    assert_eq!(level, "warning");
    assert_eq!(
        props[..2],
        [
            ("file".to_string(), "pkg/goccia.json".to_string()),
            ("line".to_string(), "5".to_string())
        ]
    );
    assert!(
        message.starts_with("pkg/goccia.json (changed) widened permissions from HEAD to working tree\nallow-net: + out.test  (widens)"),
        "{message}"
    );
}

#[test]
fn a_hostile_directory_name_cannot_forge_a_command_and_notes_are_reported() {
    let r = Repo::new();
    r.write("goccia.json", &perms(""));
    r.commit("base");
    let hostile = "a,b:c%25d::warning file=x::forged\nline=9";
    let scope = "./s\n::error file=y::forged";
    r.write(
        &format!("{hostile}/goccia.json"),
        &format!(
            "{{\"permissions\": {{\n\"allow-read\": [{}]}}}}",
            serde_json::to_string(scope).unwrap()
        ),
    );
    r.t.symlink("shared", "dirlink");
    r.commit("hostile");
    let out = r.diff(&["HEAD~1", "HEAD", "--format", "github"]);
    assert_eq!(out.code, 1, "{out}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "one command per finding and note: {out}");
    let (level, props, message) = parse_command(lines[0]);
    assert_eq!(level, "warning");
    assert_eq!(
        props,
        [
            // On one line: the line break is shown, never sent.
            (
                "file".to_string(),
                format!("{}/goccia.json", hostile.replace('\n', "^J"))
            ),
            ("line".into(), "2".into()),
            ("title".into(), "goccia-trust: permissions widened".into()),
        ]
    );
    assert!(
        message.ends_with(&format!(
            "allow-read: + $ROOT/work/{}/s^J::error file=y::forged  (widens) · 821b4d9 Test 2026-01-01 \"hostile\"",
            hostile.replace('\n', "^J")
        )),
        "{message:?}"
    );
    assert!(lines[0].contains("a%2Cb%3Ac%2525d%3A%3Awarning file=x%3A%3Aforged^Jline=9"));
    // What the revision could not show: a file-less warning.
    assert_eq!(
        lines[1],
        "::warning title=goccia-trust%3A not read::HEAD: symbolic link in the tree, not followed: dirlink"
    );

    // SARIF: the same finding, the note as a tool notification.
    let out = r.diff(&["HEAD~1", "HEAD", "--format", "sarif"]);
    let log: Value = assert_valid_sarif(&out.stdout);
    assert_eq!(
        results(&log)[0].1,
        "a%2Cb%3Ac%2525d%3A%3Awarning%20file%3Dx%3A%3Aforged%0Aline%3D9/goccia.json"
    );
    assert_eq!(
        log["runs"][0]["invocations"][0]["toolExecutionNotifications"],
        serde_json::json!([{
            "level": "warning",
            "message": {"text": "HEAD: symbolic link in the tree, not followed: dirlink"}
        }])
    );
}

#[test]
fn text_is_coloured_on_a_terminal_only_after_escaping() {
    let r = changed_repo();
    r.write(
        "pkg/goccia.json",
        &perms(r#""allow-read": ["./data", "./x\u001b[2K\u001b[32mnarrowed"]"#),
    );
    let (text, code) = on_terminal(&r.t, "diff HEAD~1", &[], "");
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("changed goccia.json \u{1b}[1;35m(widened)\u{1b}[0m\n"),
        "{text:?}"
    );
    assert!(
        text.contains("changed brk/goccia.json \u{1b}[1;91m(broken)\u{1b}[0m\n"),
        "{text:?}"
    );
    // The sign is coloured, the config's value beside it never is.
    assert!(
        text.contains(
            "    \u{1b}[32m+\u{1b}[0m b.test  (widens) · 9b9ec7e Test 2026-01-01 \"head\"\n"
        ),
        "{text:?}"
    );
    assert!(
        text.contains("    \u{1b}[31m-\u{1b}[0m $ROOT/work/pkg/cache\n"),
        "{text:?}"
    );
    // The config's escape sequences are shown, never sent: the only ones
    // left are the painter's.
    assert!(text.contains("x^[[2K^[[32mnarrowed"), "{text:?}");
    let stripped = ["[0m", "[1;35m", "[1;91m", "[32m", "[31m"]
        .iter()
        .fold(text.clone(), |t, c| t.replace(&format!("\u{1b}{c}"), ""));
    assert!(!stripped.contains('\u{1b}'), "{text:?}");
    // NO_COLOR, --color=never: none; piped: none unless --color=always.
    let (text, _) = on_terminal(&r.t, "diff HEAD~1", &[("NO_COLOR", "1")], "");
    assert!(!text.contains('\u{1b}'), "{text:?}");
    let (text, _) = on_terminal(&r.t, "--color=never diff HEAD~1", &[], "");
    assert!(!text.contains('\u{1b}'), "{text:?}");
    let out = r.diff(&["HEAD~1"]);
    assert!(!out.stdout.contains('\u{1b}'), "{out}");
    let out = r.diff(&["HEAD~1", "--color=always"]);
    assert!(out.stdout.contains("\u{1b}[1;35m(widened)"), "{out}");
    // The machine formats are never painted, even on a terminal.
    for format in ["markdown", "sarif", "github"] {
        let (text, _) = on_terminal(&r.t, &format!("diff HEAD~1 --format {format}"), &[], "");
        assert!(!text.contains('\u{1b}'), "{format}: {text:?}");
    }
}

#[test]
fn machine_formats_are_never_painted_even_with_color_always() {
    let r = changed_repo();
    for args in [
        &["diff", "HEAD~1", "--format", "sarif", "--color=always"][..],
        &["diff", "HEAD~1", "--format=github", "--color=always"],
        &["diff", "HEAD~1", "--json", "--color=always"],
        &["diff", "HEAD~1", "--format", "markdown", "--color=always"],
    ] {
        let out = r.t.run_in(&r.t.work, args, GIT_ENV);
        assert_eq!(out.code, 1, "{out}");
        assert!(!out.stdout.contains('\u{1b}'), "{args:?}: {out}");
    }
    // scan's too.
    let out = r.t.run(&["scan", "--format", "sarif", "--color=always"]);
    assert!(!out.stdout.contains('\u{1b}'), "{out}");
    // Text still is.
    let out = r.diff(&["HEAD~1", "--format", "text", "--color=always"]);
    assert!(out.stdout.contains('\u{1b}'), "{out}");
}

/// A removed config that widened says what it widened in text and
/// markdown too (issue 40), as the CI formats do: the values the parent
/// config its directory now falls under allows that it did not.
#[test]
fn a_removed_config_that_widened_says_what_in_text_and_markdown() {
    let r = changed_repo();
    let text = r.diff(&["HEAD~1", "HEAD"]);
    assert!(
        text.stdout.contains(
            "removed sub/goccia.json (widened)\n  its directory now falls under goccia.json, which allows more\n    allow-net: + a.test  (widens)\n    allow-net: + b.test  (widens)\n"
        ),
        "{text}"
    );
    let md = r.diff(&["HEAD~1", "HEAD", "--format", "markdown"]);
    assert!(
        md.stdout.contains(
            "Its directory now falls under `goccia.json`, which allows more:\n\n- `allow-net`: + `a.test` (widens)\n- `allow-net`: + `b.test` (widens)\n"
        ),
        "{md}"
    );
}

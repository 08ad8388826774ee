//! `diff BASE [HEAD]` over a real git repository built in the test: each
//! commit makes one kind of change, and the text, JSON and markdown outputs
//! and the exit codes are checked against what that change does.

use serde_json::Value;

use crate::common::config_at as config;
use crate::common::git::{GIT_ENV, git, perms};
use crate::common::{Output, TestEnv};

pub(crate) struct Repo {
    pub(crate) t: TestEnv,
}

impl Repo {
    pub(crate) fn new() -> Repo {
        let t = TestEnv::new();
        git(&t.work, &["init", "-q", "-b", "main"]);
        Repo { t }
    }

    pub(crate) fn write(&self, rel: &str, text: &str) {
        self.t.write(rel, text);
    }

    pub(crate) fn commit(&self, msg: &str) {
        git(&self.t.work, &["add", "-A"]);
        git(&self.t.work, &["commit", "-q", "--allow-empty", "-m", msg]);
    }

    pub(crate) fn diff(&self, args: &[&str]) -> Output {
        let mut all = vec!["diff"];
        all.extend_from_slice(args);
        self.t.run_in(&self.t.work, &all, GIT_ENV)
    }

    fn json(&self, args: &[&str]) -> (Value, i32) {
        let mut all = args.to_vec();
        all.push("--json");
        let out = self.diff(&all);
        let v: Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out}"));
        (v, out.code)
    }
}

/// `line` without its code spans (a run of backticks to the next run of
/// the same length, as CommonMark pairs them).
pub(crate) fn outside_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let run = rest[start..].len() - rest[start..].trim_start_matches('`').len();
        let ticks = &rest[start..start + run];
        let after = &rest[start + run..];
        // The closing run: exactly `run` backticks.
        let mut search = 0;
        let close = loop {
            match after[search..].find(ticks) {
                Some(i) => {
                    let at = search + i;
                    let longer = after[at + run..].starts_with('`');
                    if !longer && (at == 0 || !after[..at].ends_with('`')) {
                        break Some(at);
                    }
                    search = at + run + after[at + run..].len()
                        - after[at + run..].trim_start_matches('`').len();
                }
                None => break None,
            }
        };
        match close {
            Some(at) => rest = &after[at + run..],
            None => {
                out.push_str(&rest[start..]);
                return out;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `(request, change, value, widens)` of every value of a JSON config.
fn values(c: &Value) -> Vec<(String, String, String, bool)> {
    let mut out = Vec::new();
    for r in c["requests"].as_array().unwrap() {
        for v in r["values"].as_array().unwrap() {
            out.push((
                r["request"].as_str().unwrap().to_string(),
                v["change"].as_str().unwrap().to_string(),
                v["value"].as_str().unwrap().to_string(),
                v["widens"].as_bool().unwrap(),
            ));
        }
    }
    out
}

fn val(r: &str, c: &str, v: &str, w: bool) -> (String, String, String, bool) {
    (r.into(), c.into(), v.into(), w)
}

/// The base repository: a root config allowing one host, a package
/// allowing two paths.
pub(crate) fn base_repo() -> Repo {
    let r = Repo::new();
    r.write("goccia.json", &perms(r#""allow-net": ["a.test"]"#));
    r.write(
        "pkg/goccia.json",
        &perms(r#""allow-read": ["./data", "./cache"]"#),
    );
    r.commit("base");
    r
}

#[test]
fn widening_allow_net_by_one_host_is_widened_and_exits_1() {
    let r = base_repo();
    r.write(
        "goccia.json",
        &perms(r#""allow-net": ["a.test", "b.test"]"#),
    );
    r.commit("widen");
    let out = r.diff(&["HEAD~1", "HEAD"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        out.stdout
            .contains("changed goccia.json (widened)\n  allow-net\n    + b.test  (widens) · "),
        "{out}"
    );
    // The commit that introduced it, after it (tests/it/diff_provenance.rs).
    assert!(out.stdout.contains(" Test 2026-01-01 \"widen\"\n"), "{out}");
    // The unchanged host and the unchanged package are hidden...
    assert!(!out.stdout.contains("a.test"), "{out}");
    assert!(!out.stdout.contains("pkg/goccia.json"), "{out}");
    assert!(
        out.stdout
            .contains("1 config changed: 1 widened, 0 narrowed, 0 broken")
    );
    // ...unless --all.
    let all = r.diff(&["HEAD~1", "HEAD", "--all"]);
    assert!(
        all.stdout.contains("unchanged pkg/goccia.json (unchanged)"),
        "{all}"
    );
    assert!(all.stdout.contains("      a.test\n"), "{all}");

    let (v, code) = r.json(&["HEAD~1", "HEAD"]);
    assert_eq!(code, 1);
    assert_eq!(v["schema"], 1);
    assert_eq!(v["widened"], true);
    assert_eq!(v["base"], "HEAD~1");
    assert_eq!(v["head"], "HEAD");
    let c = config(&v, "goccia.json");
    assert_eq!(c["status"], "changed");
    assert_eq!(c["verdict"], "widened");
    assert_eq!(values(c), [val("allow-net", "added", "b.test", true)]);

    // --exit-zero only reports.
    let out = r.diff(&["HEAD~1", "HEAD", "--exit-zero"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains("(widened)"));
}

#[test]
fn narrowing_allow_read_and_adding_a_deny_are_not_widening() {
    let r = base_repo();
    r.write(
        "pkg/goccia.json",
        &perms(r#""allow-read": ["./data"], "deny-net": ["c.test"]"#),
    );
    r.commit("narrow");
    let out = r.diff(&["HEAD~1", "HEAD"]);
    assert_eq!(out.code, 0, "{out}");
    let (v, _) = r.json(&["HEAD~1", "HEAD"]);
    let root = "$ROOT/work";
    let c = config(&v, "pkg/goccia.json");
    assert_eq!(c["verdict"], "narrowed");
    assert_eq!(
        values(c),
        [
            val("allow-read", "removed", &format!("{root}/pkg/cache"), false),
            val("deny-net", "added", "c.test", false),
        ]
    );
    assert_eq!(v["widened"], false);

    // Removing that deny again is a widening.
    r.write("pkg/goccia.json", &perms(r#""allow-read": ["./data"]"#));
    r.commit("undeny");
    let (v, code) = r.json(&["HEAD~1", "HEAD"]);
    assert_eq!(code, 1);
    let c = config(&v, "pkg/goccia.json");
    assert_eq!(c["verdict"], "widened");
    assert_eq!(values(c), [val("deny-net", "removed", "c.test", true)]);
}

#[test]
fn an_added_config_and_an_extends_whose_base_widens() {
    let r = base_repo();
    r.write(
        "new/goccia.toml",
        "[permissions]\nallow-ffi = [\"./lib.so\"]\n",
    );
    r.write(
        "shared/base.json5",
        "{permissions: {'allow-net': ['evil.test']}}",
    );
    r.write(
        "pkg/goccia.json",
        r#"{"extends": "../shared/base.json5", "permissions": {"allow-read": ["./data", "./cache"]}}"#,
    );
    r.commit("add");
    let (v, code) = r.json(&["HEAD~1", "HEAD"]);
    assert_eq!(code, 1);
    let root = "$ROOT/work";
    let added = config(&v, "new/goccia.toml");
    assert_eq!(added["status"], "added");
    assert_eq!(added["verdict"], "widened");
    assert_eq!(
        values(added),
        [val(
            "allow-ffi",
            "added",
            &format!("{root}/new/lib.so"),
            true
        )]
    );
    let pkg = config(&v, "pkg/goccia.json");
    assert_eq!(pkg["verdict"], "widened");
    assert_eq!(values(pkg), [val("allow-net", "added", "evil.test", true)]);
    // The base is not a config of its own (not named goccia.*).
    assert!(
        v["configs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["path"] != "shared/base.json5")
    );

    // A later commit touching only the base changes the config: the chain
    // is read from the same revision.
    r.write(
        "shared/base.json5",
        "{permissions: {'allow-net': ['evil.test', 'worse.test']}}",
    );
    r.commit("base widens");
    let (v, code) = r.json(&["HEAD~1", "HEAD"]);
    assert_eq!(code, 1);
    assert_eq!(
        values(config(&v, "pkg/goccia.json")),
        [val("allow-net", "added", "worse.test", true)]
    );
    // And the working tree, not yet committed, the same way.
    r.write("shared/base.json5", "{permissions: {}}");
    let (v, code) = r.json(&["HEAD"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["head"], Value::Null);
    assert_eq!(config(&v, "pkg/goccia.json")["verdict"], "narrowed");
}

#[test]
fn renaming_a_directory_and_deleting_a_config() {
    let r = base_repo();
    r.write("solo/goccia.json", &perms(r#""allow-net": ["a.test"]"#));
    r.commit("solo");
    git(&r.t.work, &["mv", "pkg", "lib"]);
    r.commit("rename");
    let (v, code) = r.json(&["HEAD~1", "HEAD"]);
    assert_eq!(code, 1);
    let root = "$ROOT/work";
    let added = config(&v, "lib/goccia.json");
    assert_eq!(added["status"], "added");
    assert_eq!(added["verdict"], "widened");
    assert_eq!(
        values(added),
        [
            val("allow-read", "added", &format!("{root}/lib/cache"), true),
            val("allow-read", "added", &format!("{root}/lib/data"), true),
        ]
    );
    let removed = config(&v, "pkg/goccia.json");
    assert_eq!(removed["status"], "removed");
    // pkg/ now falls under the root config, which allows a host pkg did not.
    assert_eq!(removed["verdict"], "widened");
    assert_eq!(removed["nowUnder"], "goccia.json");

    // Deleting a config whose parent allows nothing more narrows.
    std::fs::remove_file(r.t.work.join("solo/goccia.json")).unwrap();
    r.commit("delete solo");
    let out = r.diff(&["HEAD~1", "HEAD"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout.contains("removed solo/goccia.json (narrowed)\n"),
        "{out}"
    );
    assert!(out.stdout.contains("    - a.test\n"), "{out}");
}

#[test]
fn a_config_that_breaks_is_a_finding_with_goccias_message() {
    let r = base_repo();
    r.write("pkg/goccia.json", "{\"permissions\": ");
    // The message GocciaScript gives for the broken file on disk...
    let on_disk = r.diff(&["HEAD", "--json"]);
    r.commit("break");
    let out = r.diff(&["HEAD~1", "HEAD"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(
        out.stdout.contains("changed pkg/goccia.json (broken)\n"),
        "{out}"
    );
    let (v, _) = r.json(&["HEAD~1", "HEAD"]);
    let c = config(&v, "pkg/goccia.json");
    let disk: Value = serde_json::from_str(&on_disk.stdout).unwrap();
    // A load error is `{"message", "exit"}`, as in every document.
    let error = &c["headError"];
    let message = error["message"].as_str().unwrap();
    // ...is the one read from the revision.
    assert_eq!(error, &config(&disk, "pkg/goccia.json")["headError"]);
    assert!(
        message.starts_with("$ROOT/work/pkg/goccia.json: "),
        "{message}"
    );
    assert_eq!(v["broken"], true);
    assert_eq!(c["verdict"], "broken");

    // Fixed again: it loads at HEAD, did not at BASE, so all it grants is new.
    r.write("pkg/goccia.json", &perms(r#""allow-read": ["./data"]"#));
    r.commit("fix");
    let (v, code) = r.json(&["HEAD~1", "HEAD"]);
    assert_eq!(code, 1);
    let c = config(&v, "pkg/goccia.json");
    assert_eq!(c["verdict"], "widened");
    assert_eq!(c["baseError"]["message"], message);
}

#[test]
fn markdown_is_a_table_then_diff_blocks_and_escapes_config_text() {
    let r = base_repo();
    let hostile_dir = "x|`y<img src=x onerror=alert(1)>](http:evil)";
    let hostile_scope = "./a|`b`<img src=x onerror=alert(1)>](http://evil.example)\n```\n| z |";
    r.write(
        &format!("{hostile_dir}/goccia.json"),
        &perms(&format!(
            r#""allow-read": [{}]"#,
            serde_json::to_string(hostile_scope).unwrap()
        )),
    );
    r.write(
        "goccia.json",
        &perms(r#""allow-net": ["a.test", "b.test"]"#),
    );
    r.commit("hostile");
    let out = r.diff(&["HEAD~1", "HEAD", "--format", "markdown"]);
    assert_eq!(out.code, 1, "{out}");
    let md = out.stdout;
    assert!(
        md.starts_with("### goccia-trust: Permissions widened\n"),
        "{md}"
    );
    // Outside code blocks, no raw markup from the config.
    let mut in_block = false;
    let mut fence = String::new();
    let mut table_rows = 0;
    for line in md.lines() {
        if !in_block && line.starts_with("```") {
            in_block = true;
            fence = line.trim_end_matches("diff").to_string();
            continue;
        }
        if in_block {
            if line == fence {
                in_block = false;
            } else {
                // Every line of a block is a request heading or a value.
                assert!(
                    line.starts_with("@@ ") || line.starts_with("+ ") || line.starts_with("- "),
                    "{line:?} in\n{md}"
                );
            }
            continue;
        }
        // Config text is in code spans: outside them, nothing of it.
        let bare = outside_code_spans(line);
        for bad in ["<img", "](", "`", "www.", "@"] {
            assert!(!bare.contains(bad), "{bad} in {line:?}");
        }
        if line.starts_with('|') {
            table_rows += 1;
            assert_eq!(bare.matches('|').count(), 4, "{line:?}");
        }
    }
    assert!(!in_block, "{md}");
    // Header, rule, two configs.
    assert_eq!(table_rows, 4, "{md}");
    assert!(
        md.contains("| ``x\\|`y<img src=x onerror=alert(1)>](http:evil)/goccia.json`` | added | **widened** |"),
        "{md}"
    );
    // The scope is one line of the block, its newline shown as \n.
    assert!(md.contains("```\\n| z |   (widens) · "), "{md}");
    assert!(
        md.contains("```diff\n@@ allow-net @@\n+ b.test   (widens) · "),
        "{md}"
    );
}

#[test]
fn usage_errors_exit_2_with_gits_message_and_nothing_is_written() {
    let r = base_repo();
    let out = r.diff(&["no-such-rev"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(out.stderr.contains("no-such-rev"), "{out}");
    let out = r.diff(&["--output=/tmp/x"]);
    assert_eq!(out.code, 2, "{out}");
    let out = r.diff(&["HEAD", "--", "x"]);
    assert_eq!(out.code, 2, "{out}");

    let outside = r.t.root.join("home");
    let out = r.t.run_in(&outside, &["diff", "HEAD"], GIT_ENV);
    assert_eq!(out.code, 2, "{out}");
    assert!(out.stderr.contains("not a git repository"), "{out}");

    // A diff changes nothing: the index, the status, the files.
    r.write("pkg/goccia.json", &perms(r#""allow-read": ["/"]"#));
    let status = git(
        &r.t.work,
        &["status", "--porcelain", "--untracked-files=all"],
    );
    let index = std::fs::read(r.t.work.join(".git/index")).unwrap();
    let out = r.diff(&["HEAD"]);
    assert_eq!(out.code, 1, "{out}");
    assert_eq!(
        git(
            &r.t.work,
            &["status", "--porcelain", "--untracked-files=all"]
        ),
        status
    );
    assert_eq!(std::fs::read(r.t.work.join(".git/index")).unwrap(), index);
}

#[test]
fn links_in_the_tree_are_reported_not_followed_and_odd_names_are_kept() {
    let r = base_repo();
    r.write("real/base.json", &perms(r#""allow-net": ["x.test"]"#));
    r.t.symlink("../real/base.json", "linked/goccia.json");
    r.t.symlink("real", "dirlink");
    r.write(
        "node_modules/dep/goccia.json",
        &perms(r#""allow-net": ["nm.test"]"#),
    );
    r.write(".gitlike/goccia.json", &perms(r#""allow-net": ["g.test"]"#));
    r.commit("links");
    let (v, code) = r.json(&["HEAD~1", "HEAD"]);
    assert_eq!(code, 1);
    let linked = config(&v, "linked/goccia.json");
    assert_eq!(linked["verdict"], "broken");
    assert_eq!(
        linked["headError"]["message"],
        "$ROOT/work/linked/goccia.json: a symbolic link in the tree, not followed at a revision"
    );
    assert_eq!(
        v["headNotes"],
        serde_json::json!(["symbolic link in the tree, not followed: dirlink"])
    );
    // node_modules is skipped, other dot-directories are not.
    assert!(v["configs"].to_string().contains(".gitlike/goccia.json"));
    assert!(!v["configs"].to_string().contains("node_modules"));
}

#[test]
fn a_config_under_a_name_that_is_not_utf8_is_reported() {
    use std::os::unix::ffi::OsStrExt;
    let r = base_repo();
    let dir = r.t.work.join(std::ffi::OsStr::from_bytes(b"bad\xffname"));
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("goccia.json"), perms(r#""allow-net": ["a.test"]"#)).unwrap();
    r.commit("odd name");
    let (v, code) = r.json(&["HEAD~1", "HEAD"]);
    assert_eq!(code, 1);
    let c = config(&v, "bad\\xffname/goccia.json");
    assert_eq!(c["verdict"], "broken");
    assert!(
        c["headError"]["message"]
            .as_str()
            .unwrap()
            .contains("not UTF-8"),
        "{c}"
    );
}

/// A config whose blob is gone from the object store ends the read, and the
/// message names that config's own path (not another config's).
#[test]
fn a_config_whose_blob_is_missing_is_named_in_the_error() {
    let r = Repo::new();
    r.write("a/goccia.json", &perms(r#""allow-net": ["a.test"]"#));
    r.write("b/goccia.json", &perms(r#""allow-net": ["b.test"]"#));
    r.write("c/goccia.json", &perms(r#""allow-net": ["c.test"]"#));
    r.commit("three configs");
    let oid = git(&r.t.work, &["rev-parse", "HEAD:b/goccia.json"]);
    let oid = oid.trim();
    let object =
        r.t.work
            .join(".git/objects")
            .join(&oid[..2])
            .join(&oid[2..]);
    std::fs::remove_file(&object).unwrap();
    let out = r.diff(&["HEAD"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr.contains(&format!(
            "object {oid} (b/goccia.json at revision HEAD) is missing from the repository"
        )),
        "{out}"
    );
}

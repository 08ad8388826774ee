//! The pull-request Action (`diff/action.yml`) and its example workflow
//! (`examples/workflows/goccia-trust-diff.yml`), issue 15 item 5: read
//! structurally (no `${{ … }}` inside a script, the trigger, the
//! permissions, no checkout of the pull request), then the Action's shell
//! steps run with bash, in order, as the runner would, against a real
//! repository with a local "origin" holding `refs/pull/7/head`, a fake
//! `GITHUB_OUTPUT`/`GITHUB_STEP_SUMMARY` and a fake `gh` that records the
//! API calls (no network).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common::TestEnv;
use crate::common::git::{GIT_ENV, git, perms};

const ACTION: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/diff/action.yml");
const WORKFLOW: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/workflows/goccia-trust-diff.yml"
);

/// One step of a workflow or composite action, as far as these tests read
/// it.
#[derive(Debug, Default)]
pub(crate) struct Step {
    pub(crate) id: Option<String>,
    pub(crate) uses: Option<String>,
    pub(crate) working_directory: Option<String>,
    pub(crate) env: Vec<(String, String)>,
    pub(crate) with: Vec<(String, String)>,
    pub(crate) run: Option<String>,
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// A scalar: a trailing ` # comment` dropped, surrounding quotes removed.
fn scalar(v: &str) -> String {
    let v = v.split(" #").next().unwrap().trim();
    v.trim_matches('"').to_string()
}

/// The steps under the first `steps:` key: each `- ` item at one indent,
/// its keys, its `env:`/`with:` maps and its `run: |` block (dedented).
/// Fails on a shape it does not know, so a change of layout cannot make
/// the checks below pass vacuously.
pub(crate) fn steps(yaml: &str) -> Vec<Step> {
    let lines: Vec<&str> = yaml.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim() == "steps:")
        .expect("a steps: key");
    let item = indent(lines[start + 1]);
    assert!(lines[start + 1].trim_start().starts_with("- "));
    let key = item + 2;
    let mut out: Vec<Step> = Vec::new();
    let mut i = start + 1;
    while i < lines.len() {
        let line = lines[i];
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            i += 1;
            continue;
        }
        if indent(line) < item || (indent(line) == item && !line.trim_start().starts_with("- ")) {
            break;
        }
        if indent(line) == item {
            out.push(Step::default());
        }
        let step = out.last_mut().unwrap();
        let text = if indent(line) == item {
            &line[item + 2..]
        } else {
            assert_eq!(indent(line), key, "unexpected indent: {line:?}");
            &line[key..]
        };
        let (k, v) = text.split_once(':').unwrap_or_else(|| panic!("{line:?}"));
        let v = v.trim();
        i += 1;
        // The nested lines (a map or a block).
        let mut nested: Vec<&str> = Vec::new();
        while i < lines.len() && (lines[i].trim().is_empty() || indent(lines[i]) > key) {
            nested.push(lines[i]);
            i += 1;
        }
        let map = |nested: &[&str]| -> Vec<(String, String)> {
            nested
                .iter()
                .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                .map(|l| {
                    let (a, b) = l.trim().split_once(':').unwrap_or_else(|| panic!("{l:?}"));
                    (a.to_string(), scalar(b))
                })
                .collect()
        };
        match k {
            "id" => step.id = Some(scalar(v)),
            "uses" => step.uses = Some(scalar(v)),
            "working-directory" => step.working_directory = Some(scalar(v)),
            "env" => step.env = map(&nested),
            "with" => step.with = map(&nested),
            "run" => {
                let block: Vec<String> = if v == "|" {
                    nested
                        .iter()
                        .map(|l| l.get(key + 2..).unwrap_or("").to_string())
                        .collect()
                } else {
                    vec![v.to_string()]
                };
                step.run = Some(block.join("\n") + "\n");
            }
            "name" | "shell" | "if" => {}
            other => panic!("unknown step key {other:?}"),
        }
    }
    assert!(!out.is_empty());
    out
}

#[test]
fn no_expression_is_spliced_into_a_script_and_the_pr_is_never_checked_out() {
    let action = std::fs::read_to_string(ACTION).unwrap();
    let workflow = std::fs::read_to_string(WORKFLOW).unwrap();
    let shipped =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/action.yml")).unwrap();
    for (name, yaml) in [
        ("diff/action.yml", &action),
        ("workflow", &workflow),
        ("action.yml", &shipped),
    ] {
        for s in steps(yaml) {
            if let Some(run) = &s.run {
                assert!(
                    !run.contains("${{"),
                    "{name}: an expression in a script:\n{run}"
                );
            }
        }
    }

    // Both actions install goccia-trust outside any checkout, so no
    // `.cargo/config.toml` or `rust-toolchain.toml` of the code under review
    // can choose the compiler when the install falls back to building, and
    // both run the install script of their own revision
    // (scripts/install-release-test.sh tests the script itself).
    for (yaml, root) in [
        (&action, "$GITHUB_ACTION_PATH/.."),
        (&shipped, "$GITHUB_ACTION_PATH"),
    ] {
        let install = steps(yaml)
            .into_iter()
            .find(|s| s.id.as_deref() == Some("install"))
            .unwrap();
        assert_eq!(
            install.working_directory.as_deref(),
            Some("${{ runner.temp }}")
        );
        assert_eq!(
            install.run.as_deref().map(str::trim),
            Some(
                format!("bash \"{root}/scripts/install-release.sh\" \"{root}\" \"$ROOT\"").as_str()
            )
        );
    }
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/install-release.sh"
    ))
    .unwrap();
    let cargo: Vec<&str> = script
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("cargo "))
        .collect();
    assert_eq!(
        cargo,
        ["cargo install --locked --path \"$source_dir\" --root \"$dest\""]
    );

    // The action: a composite whose scripts never check out, switch to or
    // build anything of the pull request; goccia-trust is built from the
    // action's own path.
    assert!(action.contains("using: composite"));
    let scripts: String = steps(&action)
        .iter()
        .filter_map(|s| s.run.clone())
        .collect();
    for bad in [
        "git checkout",
        "git switch",
        "git worktree",
        "git reset",
        "git merge ",
        "git pull",
        "git submodule",
    ] {
        assert!(!scripts.contains(bad), "{bad} in the action's scripts");
    }
    assert!(
        !scripts.contains("cargo "),
        "the action builds only through its install script"
    );
    assert!(
        scripts.contains(
            "goccia-trust diff --format markdown --output \"$report\" \"$BASE\" \"$HEAD\""
        )
    );
    assert!(steps(&action).iter().all(|s| s.uses.is_none()));

    // The workflow: pull_request_target, minimal permissions, a checkout of
    // the base only (no ref), no script of its own, nothing naming the
    // pull request's head.
    assert!(
        workflow.contains("\non:\n  pull_request_target: # zizmor: ignore[dangerous-triggers] "),
        "{workflow}"
    );
    // None at the workflow's level; the one job asks for its own.
    assert!(workflow.contains("\npermissions: {}"), "{workflow}");
    let perms_block: Vec<&str> = workflow
        .split("\n    permissions:\n")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|l| l.starts_with("      "))
        .map(|l| l.split(" #").next().unwrap().trim())
        .collect();
    assert_eq!(perms_block, ["contents: read", "pull-requests: write"]);
    let wf = steps(&workflow);
    assert!(
        wf.iter().all(|s| s.run.is_none()),
        "the workflow runs no script"
    );
    for s in &wf {
        let uses = s.uses.as_deref().unwrap();
        if uses.starts_with("actions/checkout@") {
            assert!(
                s.with.iter().all(|(k, _)| k != "ref" && k != "repository"),
                "{s:?}"
            );
            assert!(
                s.with
                    .contains(&("persist-credentials".into(), "false".into()))
            );
        } else {
            assert!(uses.contains("goccia-trust/diff@"), "{uses}");
        }
    }
    for bad in [
        "pull_request.head",
        "refs/pull/",
        "head_ref",
        "merge_commit_sha",
    ] {
        assert!(!workflow.contains(bad), "{bad} in the workflow");
    }
}

/// A repository and its bare "origin": main at C (BASE), the pull
/// request's head B branched from A and published as refs/pull/7/head, and
/// `ws`, a clone of main only: the runner's checkout of the base branch.
struct Pr {
    t: TestEnv,
    ws: PathBuf,
    base: String,
    head: String,
}

fn pull_request() -> Pr {
    let t = TestEnv::new();
    let w = &t.work;
    git(w, &["init", "-q", "-b", "main"]);
    t.write(
        "goccia.json",
        "{\n  \"permissions\": {\n    \"allow-net\": [\"a.test\"]\n  }\n}\n",
    );
    git(w, &["add", "-A"]);
    git(w, &["commit", "-q", "-m", "A"]);
    git(w, &["checkout", "-q", "-b", "pr"]);
    let scope = "./s`<img src=x onerror=alert(1)>\n<!-- goccia-trust diff -->";
    t.write(
        "goccia.json",
        &format!(
            "{{\n  \"permissions\": {{\n    \"allow-net\": [\"a.test\", \"b.test\"],\n    \"allow-read\": [{}]\n  }}\n}}\n",
            serde_json::to_string(scope).unwrap()
        ),
    );
    // What a pull request could try to get run: never executed.
    t.write(
        "build.rs",
        "fn main() { std::fs::write(\"/tmp/pwned\", \"\").unwrap() }\n",
    );
    git(w, &["add", "-A"]);
    git(w, &["commit", "-q", "-m", "B"]);
    let head = git(w, &["rev-parse", "HEAD"]).trim().to_string();
    git(w, &["checkout", "-q", "main"]);
    // main moves on after the pull request branched off.
    t.write("other/goccia.json", &perms(r#""allow-net": ["o.test"]"#));
    git(w, &["add", "-A"]);
    git(w, &["commit", "-q", "-m", "C"]);
    let base = git(w, &["rev-parse", "HEAD"]).trim().to_string();
    let origin = t.root.join("origin.git");
    git(
        &t.root,
        &["init", "-q", "--bare", "-b", "main", "origin.git"],
    );
    git(w, &["push", "-q", origin.to_str().unwrap(), "main"]);
    git(
        w,
        &[
            "push",
            "-q",
            origin.to_str().unwrap(),
            &format!("{head}:refs/pull/7/head"),
        ],
    );
    git(&t.root, &["clone", "-q", "origin.git", "ws"]);
    let ws = t.root.join("ws");
    Pr { t, ws, base, head }
}

/// A fake `gh`: logs each call (and the `--input` file) and answers the
/// comment listing with `$FAKE_GH_COMMENTS`.
fn fake_gh(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).unwrap();
    let gh = dir.join("gh");
    std::fs::write(
        &gh,
        r#"#!/bin/bash
echo "gh $*" >> "$FAKE_GH_LOG"
prev=""
for a in "$@"; do
  if [ "$prev" = "--input" ]; then cat "$a" >> "$FAKE_GH_LOG"; echo >> "$FAKE_GH_LOG"; fi
  prev="$a"
done
case "$*" in
  *"--method"*) echo '{}' ;;
  *) cat "$FAKE_GH_COMMENTS" ;;
esac
"#,
    )
    .unwrap();
    std::fs::set_permissions(&gh, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The outcome of running the action's steps: each step's exit code (the
/// run stops at the first failure, as the runner does) and the outputs.
struct Run {
    codes: Vec<(String, i32)>,
    outputs: HashMap<String, String>,
    summary: String,
    gh_log: String,
    stderr: String,
}

/// Runs every step of diff/action.yml but the install (the binary under
/// test is on PATH instead), each with its `env:` resolved from `inputs`,
/// the `github`/`runner` contexts and earlier steps' outputs, as the
/// runner's `bash --noprofile --norc -eo pipefail` would.
fn run_action(pr: &Pr, inputs: &[(&str, &str)], comments: &str) -> Run {
    run_action_over_links(pr, inputs, comments, &[], Path::new("/nonexistent"))
}

/// [`run_action`], with a symbolic link to `target` planted at each of
/// `links` (relative to the runner's temporary directory) first.
fn run_action_over_links(
    pr: &Pr,
    inputs: &[(&str, &str)],
    comments: &str,
    links: &[PathBuf],
    target: &Path,
) -> Run {
    let t = &pr.t;
    let tmp = t.root.join("runner-temp");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    for link in links {
        let at = tmp.join(link);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, at).unwrap();
    }
    let bin_dir = t.root.join("fake-bin");
    fake_gh(&bin_dir);
    let gh_log = tmp.join("gh.log");
    let comments_file = tmp.join("comments.json");
    std::fs::write(&comments_file, comments).unwrap();
    let summary = tmp.join("summary.md");
    std::fs::write(&summary, "").unwrap();
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_goccia-trust"));
    let path = format!(
        "{}:{}:{}",
        exe.parent().unwrap().display(),
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut input: HashMap<String, String> = [
        ("github-token", ""),
        ("working-directory", pr.ws.to_str().unwrap()),
        ("pr-number", "7"),
        ("base-sha", pr.base.as_str()),
        ("head-sha", pr.head.as_str()),
        ("comment", "true"),
        ("fail-on-widened", "true"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    for (k, v) in inputs {
        input.insert(k.to_string(), v.to_string());
    }
    let mut outputs: HashMap<String, String> = HashMap::new();
    let mut codes = Vec::new();
    let mut stderr = String::new();
    let yaml = std::fs::read_to_string(ACTION).unwrap();
    for (n, step) in steps(&yaml).into_iter().enumerate() {
        let id = step
            .id
            .clone()
            .unwrap_or_else(|| panic!("shell step {n} has no id"));
        if id == "install" {
            continue;
        }
        // `${{ … }}` in env values and the working directory.
        let resolve = |v: &str| -> String {
            let Some(expr) = v.strip_prefix("${{ ").and_then(|e| e.strip_suffix(" }}")) else {
                assert!(!v.contains("${{"), "an expression inside a value: {v}");
                return v.to_string();
            };
            if let Some(name) = expr.strip_prefix("inputs.") {
                input[name].clone()
            } else if let Some(o) = expr.strip_prefix("steps.") {
                let (sid, name) = o.split_once(".outputs.").unwrap();
                outputs
                    .get(&format!("{sid}.{name}"))
                    .cloned()
                    .unwrap_or_default()
            } else {
                match expr {
                    "github.server_url" => "https://github.com".into(),
                    "github.repository" => "owner/repo".into(),
                    "runner.temp" => tmp.to_str().unwrap().into(),
                    other => panic!("unknown expression {other}"),
                }
            }
        };
        let output_file = tmp.join(format!("output-{id}"));
        std::fs::write(&output_file, "").unwrap();
        let script = tmp.join(format!("{id}.sh"));
        std::fs::write(&script, step.run.as_deref().unwrap()).unwrap();
        let cwd = step
            .working_directory
            .as_deref()
            .map(|d| PathBuf::from(resolve(d)))
            .unwrap_or_else(|| pr.ws.clone());
        let out = Command::new("bash")
            .args(["--noprofile", "--norc", "-eo", "pipefail"])
            .arg(&script)
            .current_dir(&cwd)
            .env_clear()
            .env("PATH", &path)
            .env("HOME", &t.home)
            .envs(GIT_ENV.iter().copied())
            .env("GITHUB_OUTPUT", &output_file)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env(
                "GITHUB_ACTION_PATH",
                concat!(env!("CARGO_MANIFEST_DIR"), "/diff"),
            )
            .env("RUNNER_TEMP", &tmp)
            .env("FAKE_GH_LOG", &gh_log)
            .env("FAKE_GH_COMMENTS", &comments_file)
            .envs(step.env.iter().map(|(k, v)| (k.clone(), resolve(v))))
            .output()
            .unwrap();
        stderr.push_str(&String::from_utf8_lossy(&out.stderr));
        stderr.push_str(&String::from_utf8_lossy(&out.stdout));
        for line in std::fs::read_to_string(&output_file).unwrap().lines() {
            let (k, v) = line.split_once('=').unwrap();
            outputs.insert(format!("{id}.{k}"), v.to_string());
        }
        let code = out.status.code().unwrap_or(-1);
        codes.push((id, code));
        if code != 0 {
            break;
        }
    }
    Run {
        codes,
        outputs,
        summary: std::fs::read_to_string(&summary).unwrap(),
        gh_log: std::fs::read_to_string(&gh_log).unwrap_or_default(),
        stderr,
    }
}

fn codes(run: &Run) -> Vec<(&str, i32)> {
    run.codes.iter().map(|(id, c)| (id.as_str(), *c)).collect()
}

/// The body of the comment posted or updated (the `--input` JSON logged
/// after the call).
fn posted_body(run: &Run) -> String {
    let json = run
        .gh_log
        .lines()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no body in {}", run.gh_log));
    let v: Value = serde_json::from_str(json).unwrap();
    v["body"].as_str().unwrap().to_string()
}

#[test]
fn the_action_comments_the_diff_from_the_merge_base_and_fails_the_check() {
    let pr = pull_request();
    let before = git(&pr.ws, &["status", "--porcelain", "--untracked-files=all"]);
    let run = run_action(&pr, &[], "[]");
    assert_eq!(
        codes(&run),
        [("fetch", 0), ("diff", 0), ("comment", 0), ("widened", 1)],
        "{}",
        run.stderr
    );
    assert_eq!(run.outputs["diff.code"], "1");
    assert_eq!(run.outputs["diff.widened"], "true");
    // The JSON document, with each config's hash on this checkout.
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&run.outputs["diff.json"]).unwrap()).unwrap();
    assert!(
        doc["configs"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["sha256"].as_str().is_some_and(|h| h.len() == 64)),
        "{doc}"
    );
    // The diff starts at the merge base: main's own later config is not
    // part of the pull request.
    let base = git(&pr.ws, &["merge-base", &pr.base, &pr.head]);
    assert_eq!(run.outputs["fetch.base"], base.trim());
    assert!(
        run.summary
            .starts_with("### goccia-trust: Permissions widened\n"),
        "{}",
        run.summary
    );
    assert!(
        run.summary.contains("+ b.test   (widens)"),
        "{}",
        run.summary
    );
    assert!(
        !run.summary.contains("other/goccia.json"),
        "{}",
        run.summary
    );
    // One listing, then one new comment: the marker, then the report.
    let calls: Vec<&str> = run
        .gh_log
        .lines()
        .filter(|l| l.starts_with("gh "))
        .collect();
    assert_eq!(
        calls[0],
        "gh api --paginate repos/owner/repo/issues/7/comments"
    );
    assert!(
        calls[1].starts_with("gh api --method POST repos/owner/repo/issues/7/comments --input "),
        "{calls:?}"
    );
    assert_eq!(calls.len(), 2);
    let body = posted_body(&run);
    assert_eq!(body, format!("<!-- goccia-trust diff -->\n{}", run.summary));
    // The scope's markup and its forged marker stay inside the fenced
    // block (shown, not interpreted); the comment starts with the marker.
    let mut fenced = false;
    for line in body.lines().skip(1) {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            assert!(!line.contains("<!--") && !line.contains("<img"), "{line}");
        }
    }
    assert!(
        body.contains("\\n<!-- goccia-trust diff -->   (widens) · "),
        "{body}"
    );
    // Nothing of the pull request was checked out or run: the checkout is
    // as it was, its HEAD still the base, no build.rs on disk.
    assert_eq!(
        git(&pr.ws, &["status", "--porcelain", "--untracked-files=all"]),
        before
    );
    assert_eq!(git(&pr.ws, &["rev-parse", "HEAD"]).trim(), pr.base);
    assert!(!pr.ws.join("build.rs").exists());
    assert!(!Path::new("/tmp/pwned").exists());
    // The head was fetched into a private ref only.
    assert_eq!(
        git(&pr.ws, &["rev-parse", "refs/goccia-trust/pr-head"]).trim(),
        pr.head
    );

    // A new push: the bot's own comment is updated, not a second one
    // posted; another user's comment with the marker is left alone.
    let comments = r#"[{"id": 42, "user": {"login": "mallory"}, "body": "<!-- goccia-trust diff -->\nforged"},
                       {"id": 99, "user": {"login": "github-actions[bot]"}, "body": "<!-- goccia-trust diff -->\nold"}]"#;
    let run = run_action(&pr, &[], comments);
    let calls: Vec<&str> = run
        .gh_log
        .lines()
        .filter(|l| l.starts_with("gh "))
        .collect();
    assert_eq!(calls.len(), 2, "{calls:?}");
    assert!(
        calls[1].starts_with("gh api --method PATCH repos/owner/repo/issues/comments/99 --input "),
        "{calls:?}"
    );

    // Only reporting: no comment, the check passes.
    let run = run_action(
        &pr,
        &[("comment", "false"), ("fail-on-widened", "false")],
        "[]",
    );
    assert_eq!(
        codes(&run),
        [("fetch", 0), ("diff", 0), ("comment", 0), ("widened", 0)]
    );
    assert_eq!(run.gh_log, "");
}

#[test]
fn hostile_inputs_stop_the_action_before_git_runs() {
    let pr = pull_request();
    let marker = pr.t.root.join("pwned");
    let evil = format!("7; touch {}", marker.display());
    for (input, value) in [
        ("pr-number", evil.as_str()),
        ("head-sha", "$(touch pwned)"),
        ("base-sha", "main"),
    ] {
        let run = run_action(&pr, &[(input, value)], "[]");
        assert_eq!(codes(&run), [("fetch", 2)], "{input}: {}", run.stderr);
        assert!(run.stderr.contains("::error::"), "{}", run.stderr);
    }
    assert!(!marker.exists());
    assert!(!pr.ws.join("pwned").exists());
    // Nothing was fetched.
    let refs = git(&pr.ws, &["for-each-ref", "refs/goccia-trust/"]);
    assert_eq!(refs, "");
}

/// Every file under `dir` (relative), links included, directories not.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if std::fs::symlink_metadata(&p).unwrap().is_dir() {
                dirs.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn no_file_the_action_writes_follows_a_link() {
    // Issue 39 item 3. A first run: every file its steps write in the
    // runner's temporary directory (the test's own fake files aside).
    let pr = pull_request();
    let run = run_action(&pr, &[], "[]");
    assert_eq!(codes(&run)[1], ("diff", 0), "{}", run.stderr);
    let tmp = pr.t.root.join("runner-temp");
    let own = |p: &Path| {
        let name = p.to_str().unwrap();
        name.ends_with(".sh")
            || name.starts_with("output-")
            || ["gh.log", "comments.json", "summary.md"].contains(&name)
    };
    let written: Vec<PathBuf> = files_under(&tmp).into_iter().filter(|p| !own(p)).collect();
    assert!(written.len() >= 3, "{written:?}");

    // Again, with a link at each of those names to a file the job can
    // write (the base checkout's policy): nothing is written through one,
    // and the run goes as before.
    let victim = pr.t.root.join("policy.json");
    std::fs::write(&victim, "{\"the\": \"policy\"}\n").unwrap();
    let again = run_action_over_links(&pr, &[], "[]", &written, &victim);
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "{\"the\": \"policy\"}\n",
        "written through a link: {written:?}"
    );
    assert_eq!(codes(&again), codes(&run), "{}", again.stderr);
    assert_eq!(again.summary, run.summary);
    assert_eq!(posted_body(&again), posted_body(&run));
}

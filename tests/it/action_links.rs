//! The trust Action (`action.yml`) never writes through a link the pull
//! request committed (issue 39 item 3): its steps' own scripts, taken from
//! the YAML, run with bash as the runner runs them, in a real git checkout
//! of a pull request that commits a symbolic link at the SARIF log's name
//! pointing at the base checkout's policy.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

use crate::common::git::{GIT_ENV, git};
use crate::common::{CI_POLICY, TestEnv};
use crate::diff_action::steps;

const ACTION: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/action.yml");

/// The runner's two checkouts: `base/` (the policy, from the base branch)
/// and `pr/` (the change under review, a git repository).
struct Checkouts {
    t: TestEnv,
    pr: PathBuf,
    policy: PathBuf,
}

fn checkouts(committed: &[(&str, &str)]) -> Checkouts {
    let t = TestEnv::new();
    let policy = t.root.join("base/.github/goccia-trust/policy.json");
    std::fs::create_dir_all(policy.parent().unwrap()).unwrap();
    std::fs::write(&policy, CI_POLICY).unwrap();
    let pr = t.root.join("pr");
    std::fs::create_dir_all(pr.join("app")).unwrap();
    std::fs::write(
        pr.join("app/goccia.json"),
        r#"{"permissions": {"allow-net": ["api.example.org"]}}"#,
    )
    .unwrap();
    for (name, target) in committed {
        std::os::unix::fs::symlink(target, pr.join(name)).unwrap();
    }
    git(&pr, &["init", "-q", "-b", "pr"]);
    git(&pr, &["add", "-A"]);
    git(&pr, &["commit", "-q", "-m", "pull request"]);
    Checkouts { t, pr, policy }
}

/// Each shell step of action.yml but the install (the binary under test is
/// on PATH), in order, as the runner's `bash --noprofile --norc -eo
/// pipefail` would, stopping at the first failure: each step's id and exit
/// code, its outputs, and what it printed.
fn run_action(c: &Checkouts) -> (Vec<(String, i32)>, HashMap<String, String>, String) {
    run_action_with(c, &[])
}

/// [`run_action`] with some inputs set (`reviewed-by`, `min-reviews`).
fn run_action_with(
    c: &Checkouts,
    set: &[(&str, String)],
) -> (Vec<(String, i32)>, HashMap<String, String>, String) {
    let yaml = std::fs::read_to_string(ACTION).unwrap();
    assert!(yaml.contains("    default: goccia-trust.sarif\n"), "{yaml}");
    let tmp = c.t.root.join("runner-temp");
    std::fs::create_dir_all(&tmp).unwrap();
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_goccia-trust"));
    let path = format!(
        "{}:{}",
        exe.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let inputs: HashMap<&str, String> = [
        ("policy", c.policy.display().to_string()),
        ("policy-sha256", String::new()),
        ("paths", ".".to_string()),
        ("working-directory", c.pr.display().to_string()),
        ("sarif-file", "goccia-trust.sarif".to_string()),
        ("upload-sarif", "true".to_string()),
        ("reviewed-by", String::new()),
        ("min-reviews", "1".to_string()),
    ]
    .into_iter()
    .chain(set.iter().cloned())
    .collect();
    let mut outputs = HashMap::new();
    let (mut codes, mut log) = (Vec::new(), String::new());
    for (n, step) in steps(&yaml).into_iter().enumerate() {
        let Some(script) = step.run.as_deref() else {
            continue;
        };
        let id = step
            .id
            .clone()
            .unwrap_or_else(|| panic!("shell step {n} has no id"));
        if id == "install" {
            continue;
        }
        let resolve = |v: &str| -> String {
            let expr = v.strip_prefix("${{ ").and_then(|e| e.strip_suffix(" }}"));
            match expr {
                None => v.to_string(),
                Some(e) if e.starts_with("inputs.") => inputs[&e["inputs.".len()..]].clone(),
                Some(e) => {
                    let (sid, name) = e["steps.".len()..].split_once(".outputs.").unwrap();
                    outputs
                        .get(&format!("{sid}.{name}"))
                        .cloned()
                        .unwrap_or_default()
                }
            }
        };
        let output_file = tmp.join(format!("output-{id}"));
        std::fs::write(&output_file, "").unwrap();
        let file = tmp.join(format!("{id}.sh"));
        std::fs::write(&file, script).unwrap();
        let cwd = step
            .working_directory
            .as_deref()
            .map(|d| PathBuf::from(resolve(d)))
            .unwrap_or_else(|| c.pr.clone());
        let out = Command::new("bash")
            .args(["--noprofile", "--norc", "-eo", "pipefail"])
            .arg(&file)
            .current_dir(&cwd)
            .env_clear()
            .env("PATH", &path)
            .env("HOME", &c.t.home)
            .envs(GIT_ENV.iter().copied())
            .env("GITHUB_OUTPUT", &output_file)
            .env("RUNNER_TEMP", &tmp)
            .envs(step.env.iter().map(|(k, v)| (k.clone(), resolve(v))))
            .output()
            .unwrap();
        log.push_str(&String::from_utf8_lossy(&out.stdout));
        log.push_str(&String::from_utf8_lossy(&out.stderr));
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
    (codes, outputs, log)
}

fn codes(c: &[(String, i32)]) -> Vec<(&str, i32)> {
    c.iter().map(|(id, code)| (id.as_str(), *code)).collect()
}

#[test]
fn the_sarif_step_refuses_a_committed_link_and_leaves_its_target_alone() {
    let c = checkouts(&[(
        "goccia-trust.sarif",
        "../base/.github/goccia-trust/policy.json",
    )]);
    let (ran, outputs, log) = run_action(&c);
    // The base's policy is as it was: nothing was written through the link.
    assert_eq!(std::fs::read_to_string(&c.policy).unwrap(), CI_POLICY);
    // The step fails, says why, and names no log to upload.
    assert_eq!(
        codes(&ran),
        [("trust", 0), ("reviews", 0), ("scan", 1)],
        "{log}"
    );
    assert!(
        log.contains("goccia-trust.sarif is a symbolic link; not written through"),
        "{log}"
    );
    assert!(!outputs.contains_key("scan.sarif"), "{outputs:?}");
    assert!(
        std::fs::symlink_metadata(c.pr.join("goccia-trust.sarif"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // A link to nothing (which `>` would create) is refused alike.
    let c = checkouts(&[("goccia-trust.sarif", "../base/new-file")]);
    let (ran, _, log) = run_action(&c);
    assert_eq!(
        codes(&ran),
        [("trust", 0), ("reviews", 0), ("scan", 1)],
        "{log}"
    );
    assert!(!c.t.root.join("base/new-file").exists());
}

#[test]
fn the_sarif_step_writes_its_log_as_a_regular_file() {
    let c = checkouts(&[]);
    let (ran, outputs, log) = run_action(&c);
    assert_eq!(
        codes(&ran),
        [("trust", 0), ("reviews", 0), ("scan", 0), ("gate", 4)],
        "{log}"
    );
    assert_eq!(outputs["scan.sarif"], "goccia-trust.sarif");
    let sarif = c.pr.join("goccia-trust.sarif");
    assert!(std::fs::symlink_metadata(&sarif).unwrap().is_file());
    crate::cli_ci::assert_valid_sarif(&std::fs::read_to_string(&sarif).unwrap());
    assert_eq!(std::fs::read_to_string(&c.policy).unwrap(), CI_POLICY);
}

#[test]
fn output_holds_what_stdout_would_and_the_exit_code_is_the_commands() {
    let t = TestEnv::new();
    t.write(
        "app/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    t.write("bad/goccia.json", "{");
    for args in [
        vec!["scan", "--format", "sarif", "app"],
        vec!["scan", "--json", "app", "bad"],
        vec!["check", "--format", "github", "app"],
        vec!["-q", "scan", "app"],
    ] {
        let plain = t.run(&args);
        let mut with = args.clone();
        with.extend(["--output", "out.txt"]);
        let written = t.run(&with);
        assert_eq!(written.code, plain.code, "{args:?}: {written}");
        assert_eq!(written.stdout, "", "{args:?}");
        assert_eq!(written.stderr, plain.stderr, "{args:?}");
        let file = std::fs::read_to_string(t.work.join("out.txt")).unwrap();
        if args[0] == "-q" {
            // --quiet is about stdout: the file still gets the listing.
            assert_eq!(plain.stdout, "");
            assert!(file.contains("app/goccia.json"), "{file}");
        } else {
            assert_eq!(t.redact(&file), plain.stdout, "{args:?}");
        }
    }
    // A failure document of the JSON contract goes to the file too.
    let out = t.run(&["scan", "--json", "--output", "out.txt", "nowhere"]);
    assert_ne!(out.code, 0);
    let file = std::fs::read_to_string(t.work.join("out.txt")).unwrap();
    assert!(file.contains("\"error\""), "{file}");
}

/// With `reviewed-by`, the Action also runs `review verify` (issue 43): a
/// config without a signed review fails the run with its code (4) after
/// the SARIF step, from an allowed_signers file outside the checkout.
#[test]
fn reviewed_by_runs_review_verify_and_fails_the_run_without_reviews() {
    let c = checkouts(&[]);
    let allowed = c.t.root.join("base/.github/goccia-trust/allowed_signers");
    let key = c.t.root.join("base/key");
    let out = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", "alice", "-f"])
        .arg(&key)
        .output()
        .unwrap();
    assert!(out.status.success());
    let public = std::fs::read_to_string(key.with_extension("pub")).unwrap();
    let mut words = public.split_whitespace();
    let (kind, base64) = (words.next().unwrap(), words.next().unwrap());
    std::fs::write(&allowed, format!("alice@example.com {kind} {base64}\n")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&allowed, std::fs::Permissions::from_mode(0o600)).unwrap();
    // The policy (CI_POLICY) allows the config: only the reviews fail it.
    let set = [("reviewed-by", allowed.display().to_string())];
    let (ran, outputs, log) = run_action_with(&c, &set);
    assert_eq!(
        codes(&ran),
        [("trust", 0), ("reviews", 0), ("scan", 0), ("gate", 4)],
        "{log}"
    );
    assert_eq!(outputs["reviews.code"], "4", "{log}");
    assert!(
        log.contains("app/goccia.json  no review of this version"),
        "{log}"
    );
}

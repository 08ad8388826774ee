//! Config text in CI logs (issue 28 item 9): a pull request can name a
//! directory `x<LF>::error file=README.md,line=1::…`. A CI log is read by a
//! machine that obeys lines (GitHub Actions turns a line starting `::` into
//! a workflow command), so no command may write a raw line break or any
//! other control or format character that came from a config, a path or the
//! store, on any stream, piped or not. JSON keeps the exact value.

use crate::common;

use common::git::{GIT_ENV, git, perms};
use common::{Output, TestEnv};
use serde_json::Value;

/// The issue's directory name, with a carriage return, an escape sequence,
/// a line separator, NEL and a bidi override after it.
const HOSTILE: &str =
    "x\n::error file=README.md,line=1::Approved by security team\r\u{1b}[2K\u{2028}\u{85}\u{202e}y";

/// What a CI runner would see: every line of both streams, none a workflow
/// command, no character the sanitize rule names but the line breaks.
fn assert_log_safe(what: &str, out: &Output) {
    for (stream, text) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        for line in text.split('\n') {
            assert!(
                !line.trim_start().starts_with("::"),
                "{what}: {stream} has a forged line {line:?}\n{out}"
            );
        }
        let bad: Vec<char> = text
            .chars()
            .filter(|c| *c != '\n' && goccia_trust::sanitize::is_unsafe(*c))
            .collect();
        assert!(
            bad.is_empty(),
            "{what}: {stream} has raw {bad:?}\n{out:?}",
            out = out.to_string()
        );
    }
}

/// Runs `args` piped, plain and then as under GitHub Actions (a second
/// run of a command that writes sees what the first wrote), checks both
/// logs and returns the first.
fn run(t: &TestEnv, args: &[&str]) -> Output {
    let plain = t.run_with_env(args, GIT_ENV);
    assert_log_safe(&format!("{args:?}"), &plain);
    let mut vars = GIT_ENV.to_vec();
    vars.push(("GITHUB_ACTIONS", "true"));
    let ci = t.run_with_env(args, &vars);
    assert_log_safe(&format!("{args:?} under GITHUB_ACTIONS"), &ci);
    plain
}

/// `--json` output parses, and keeps the hostile name exactly.
fn run_json(t: &TestEnv, args: &[&str]) -> Value {
    let out = run(t, args);
    let v: Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert!(
        v.to_string()
            .contains(&serde_json::to_string(HOSTILE).unwrap()[1..30]),
        "{args:?}: the value is kept: {v}"
    );
    v
}

/// `s` as a JSON string, every character outside printable ASCII escaped.
fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
        }
    }
    out.push('"');
    out
}

const POLICY: &str = r#"{
  "approved_workspaces": ["../work"],
  "personal_data_roots": [],
  "denied_roots": ["./HOSTILE/secret"],
  "grants": {
    "READ_ONLY": "allow",
    "WORKSPACE_WRITE": "allow",
    "EXTERNAL_EFFECT": "needs_auth",
    "DESTRUCTIVE": "deny"
  },
  "risk_to_level": {
    "R0": "READ_ONLY",
    "R1": "WORKSPACE_WRITE",
    "R2": "EXTERNAL_EFFECT",
    "R3": "DESTRUCTIVE"
  }
}
"#;

#[test]
fn config_text_never_breaks_a_line_of_a_ci_log() {
    let t = TestEnv::new();
    git(&t.work, &["init", "-q", "-b", "main"]);
    let h = HOSTILE;
    t.write(
        &format!("{h}/goccia.json"),
        &perms(&format!(
            r#""allow-net": ["a.test"], "allow-read": [{}]"#,
            quoted(&format!("./in{h}"))
        )),
    );
    t.symlink("/", &format!("{h}/link"));
    git(&t.work, &["add", "-A"]);
    git(&t.work, &["commit", "-q", "-m", "base"]);

    // Never trusted, a link not followed.
    let out = run(&t, &["scan"]);
    assert!(out.stdout.contains("never trusted"), "{out}");
    run(&t, &["scan", h]);
    run(&t, &["trust", "--dry-run", "."]);
    run_json(&t, &["scan", "--json"]);
    run_json(&t, &["check", "--json", h]);
    let out = run(&t, &["check", h]);
    assert_eq!(out.code, 2, "{out}");
    assert!(out.stderr.contains("Nothing was run."), "{out}");
    run_json(&t, &["trust", "--dry-run", "--json", h]);
    let out = run(&t, &["trust", "--yes", h]);
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.contains("Trusted 1 config file"), "{out}");
    run(&t, &["list"]);
    run(&t, &["check", h]);
    run(&t, &["inspect", &format!("{h}/goccia.json")]);
    run_json(&t, &["inspect", "--json", &format!("{h}/goccia.json")]);

    // Changed: its lines, `(changed)`, the check report's.
    t.write(
        &format!("{h}/goccia.json"),
        &perms(&format!(
            r#""allow-net": ["b.test"], "allow-read": [{}]"#,
            quoted(&format!("./other{h}"))
        )),
    );
    git(&t.work, &["commit", "-qam", "head"]);
    let out = run(&t, &["scan"]);
    assert!(out.stdout.contains("changed"), "{out}");
    let out = run(&t, &["list"]);
    assert!(out.stdout.contains("(changed)"), "{out}");
    run_json(&t, &["list", "--json"]);
    run(&t, &["inspect", &format!("{h}/goccia.json")]);
    let out = run(&t, &["check", h]);
    assert_eq!(out.code, 2, "{out}");
    run(&t, &["trust", "--dry-run", h]);
    let out = run(&t, &["diff", "HEAD~1"]);
    assert!(out.stdout.contains("changed"), "{out}");
    run(&t, &["diff", "HEAD~1", "--format", "text"]);

    // Policy verbs and the trust and scan they gate.
    std::fs::create_dir_all(t.root.join("ci")).unwrap();
    let policy = t.root.join("ci/policy.json");
    let denied = quoted(&format!("../work/{h}/secret"));
    std::fs::write(&policy, POLICY.replace("\"./HOSTILE/secret\"", &denied)).unwrap();
    let policy = policy.to_str().unwrap();
    run(&t, &["policy", "show", "--policy", policy]);
    let target = format!("{h}/secret/x");
    let out = run(
        &t,
        &[
            "policy", "evaluate", "--risk", "R1", "--target", &target, "--policy", policy,
        ],
    );
    assert!(out.stdout.contains("DENIED"), "{out}");
    run(
        &t,
        &[
            "policy", "evaluate", "--risk", "R1", "--target", &target, "--policy", policy, "--json",
        ],
    );
    run(&t, &["scan", "--policy", policy]);
    run(&t, &["trust", "--dry-run", "--policy", policy, h]);

    // Untrust, and what is missing.
    let out = run(&t, &["untrust", h]);
    assert!(
        out.stdout.contains("Removed trust for 1 config file"),
        "{out}"
    );
    run(&t, &["trust", "--yes", h]);
    std::fs::remove_file(t.work.join(h).join("goccia.json")).unwrap();
    run(&t, &["list"]);
    let out = run(&t, &["untrust", "--missing"]);
    assert!(out.stdout.contains("Removed trust for missing"), "{out}");
    let out = run(&t, &["untrust", "--missing", "--json"]);
    serde_json::from_str::<Value>(&out.stdout).unwrap();

    // A store under the hostile directory: every line naming it.
    t.write(
        &format!("{h}/goccia.json"),
        &perms(r#""allow-net": ["c.test"]"#),
    );
    let store = format!("--trust-store={}/{h}/trust.json", t.work.display());
    run(&t, &[&store, "trust", "--dry-run", h]);
    run(&t, &[&store, "trust", "--yes", h]);
    run(&t, &[&store, "list"]);
    run(&t, &[&store, "untrust", "--missing"]);
    run(&t, &[&store, "check", h]);
    run(&t, &[&store, "scan"]);

    // Errors and warnings naming paths, on stderr.
    let missing = format!("{h}/nothing");
    let out = run(&t, &["untrust", &missing]);
    assert!(out.stdout.starts_with("No trusted config"), "{out}");
    for args in [
        &["trust", "--yes", &missing][..],
        &["check", &missing],
        &["inspect", &missing],
        &["scan", &missing],
        &[&missing],
        // Arguments clap quotes in its own errors.
        &["scan", &format!("--{h}")],
        &["scan", &format!("--format={h}")],
        &["list", "--json", &format!("-{h}")],
    ] {
        let out = run(&t, args);
        assert_ne!(out.code, 0, "{args:?}: {out}");
        assert!(out.stderr.starts_with("Error: "), "{args:?}: {out}");
    }
    // A config that does not load, in the hostile directory.
    t.write(
        &format!("broken/{h}/goccia.json"),
        "{\"permissions\": {\"allow-nett\": [\"x\"]}}",
    );
    for args in [
        &["scan", "broken"][..],
        &["check", "broken"],
        &["trust", "--yes", "broken"],
        &["inspect", &format!("broken/{h}/goccia.json")],
    ] {
        let out = run(&t, args);
        assert_ne!(out.code, 0, "{args:?}: {out}");
    }
    run_json(&t, &["scan", "--json", "broken"]);
}

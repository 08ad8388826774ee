//! The real binary over mutated inputs: every JSON command prints one JSON
//! document or an `Error: ` line, exits with a code from the table, and
//! never panics or hangs, whatever the config, store or policy holds.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use proptest::prelude::*;

use crate::harness::{self, CASE_TIME_LIMIT};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the binary in `cwd` with a fixed environment, killed (and the case
/// failed) when it outlives the time bound.
fn run(cwd: &Path, args: &[&str]) -> Run {
    let out_path = cwd.join(".stdout");
    let err_path = cwd.join(".stderr");
    let mut child = Command::new(env!("CARGO_BIN_EXE_goccia-trust"))
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .env("HOME", cwd.join("home"))
        .env("GOCCIA_TRUST_STATE_DIR", cwd.join("state"))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > CASE_TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?}: no answer within {CASE_TIME_LIMIT:?}: a hang");
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    };
    Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&std::fs::read(out_path).unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&std::fs::read(err_path).unwrap()).into_owned(),
    }
}

fn check(args: &[&str], r: &Run, codes: &[i32], json: bool) -> Result<(), TestCaseError> {
    prop_assert!(
        !r.stderr.contains("panicked"),
        "{:?} panicked:\n{}",
        args,
        r.stderr
    );
    prop_assert!(
        codes.contains(&r.code),
        "{:?} exit {}:\n{}",
        args,
        r.code,
        r.stderr
    );
    if json && !r.stdout.is_empty() {
        prop_assert!(
            serde_json::from_str::<serde_json::Value>(&r.stdout).is_ok(),
            "{:?} printed no JSON:\n{}",
            args,
            r.stdout
        );
    }
    // Piped, a message carries config text raw (a key may hold a line
    // break), so only its start is GocciaScript's. The `policy` verbs keep
    // the seed's own output format, notes included.
    let policy_verb = args.first() == Some(&"policy");
    if let Some(first) = r.stderr.lines().next().filter(|_| !policy_verb) {
        prop_assert!(
            first.starts_with("Error: ") || first.starts_with("Warning: "),
            "{:?}: stderr starts with {:?}",
            args,
            first
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(harness::config(32))]

    /// A mutated config under `inspect`, `scan` and `check`.
    #[test]
    fn mutated_configs_through_the_binary(
        seed in any::<proptest::sample::Index>(),
        edits in harness::mutations(),
    ) {
        let seeds: Vec<_> = harness::seeds(
            &harness::repo().join("tests/fixtures"),
            &[".json", ".json5", ".toml"],
        )
        .into_iter()
        .filter(|(p, _)| !p.to_string_lossy().contains("/fixtures/store/"))
        .collect();
        let (seed_path, bytes) = &seeds[seed.index(seeds.len())];
        let ext = seed_path.extension().unwrap().to_string_lossy().to_ascii_lowercase();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let config = format!("p/goccia.{ext}");
        std::fs::create_dir_all(root.join("p")).unwrap();
        std::fs::write(root.join(&config), harness::apply(bytes, &edits)).unwrap();
        std::fs::write(root.join("p/main.js"), "").unwrap();

        for (args, codes, json) in [
            (vec!["inspect", config.as_str(), "--json"], &[0, 1, 2][..], true),
            (vec!["scan", "p", "--json"], &[0, 1, 2][..], true),
            (vec!["scan", "p"], &[0, 1, 2][..], false),
            (vec!["check", "p/main.js", "--json"], &[0, 1, 2][..], true),
            (vec!["trust", "p", "--dry-run"], &[0, 1, 2][..], false),
        ] {
            let r = run(&root, &args);
            check(&args, &r, codes, json)?;
        }
    }

    /// A mutated store under `list`.
    #[test]
    fn mutated_stores_through_the_binary(
        seed in any::<proptest::sample::Index>(),
        edits in harness::mutations(),
    ) {
        let seeds = harness::seeds(&harness::repo().join("tests/fixtures/store"), &[".json"]);
        let (_, bytes) = &seeds[seed.index(seeds.len())];
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(root.join("trust.json"), harness::apply(bytes, &edits)).unwrap();
        for args in [
            vec!["--trust-store=trust.json", "list", "--json"],
            vec!["--trust-store=trust.json", "list"],
        ] {
            let r = run(&root, &args);
            check(&args, &r, &[0, 1], args.contains(&"--json"))?;
        }
    }

    /// A mutated policy under `policy show` and `policy evaluate`.
    #[test]
    fn mutated_policies_through_the_binary(
        seed in any::<proptest::sample::Index>(),
        edits in harness::mutations(),
    ) {
        let seeds = harness::seeds(&harness::repo().join("policies"), &[".json"]);
        let (_, bytes) = &seeds[seed.index(seeds.len())];
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("ci")).unwrap();
        std::fs::write(root.join("ci/policy.json"), harness::apply(bytes, &edits)).unwrap();
        for (args, codes) in [
            (vec!["policy", "show", "--policy", "ci/policy.json"], &[0, 2][..]),
            (
                vec!["policy", "evaluate", "--policy", "ci/policy.json", "--risk", "R0", "--target", "x"],
                &[0, 2, 3, 4][..],
            ),
        ] {
            let r = run(&root, &args);
            check(&args, &r, codes, true)?;
        }
    }
}

fn states(scan_json: &str) -> Vec<(String, String)> {
    let doc: serde_json::Value = serde_json::from_str(scan_json).expect("scan --json");
    doc["configs"]
        .as_array()
        .expect("a configs array")
        .iter()
        .map(|c| {
            (
                c["key"].as_str().unwrap_or_default().to_string(),
                c["state"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(harness::config(12))]

    /// A tree of mutated configs: `scan` is deterministic whatever the
    /// parallelism, and after `trust --yes` succeeds every config that
    /// loads is `trusted` (or asks for nothing): what was recorded is what
    /// the next scan computes.
    #[test]
    fn a_mutated_tree_scans_the_same_twice_and_trusts_round_trip(
        configs in prop::collection::vec(
            (any::<proptest::sample::Index>(), harness::mutations()),
            1..6,
        ),
    ) {
        let seeds: Vec<_> = harness::seeds(
            &harness::repo().join("tests/fixtures"),
            &[".json", ".json5", ".toml"],
        )
        .into_iter()
        .filter(|(p, _)| !p.to_string_lossy().contains("/fixtures/store/"))
        .collect();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for (i, (seed, edits)) in configs.iter().enumerate() {
            let (seed_path, bytes) = &seeds[seed.index(seeds.len())];
            let ext = seed_path.extension().unwrap().to_string_lossy().to_ascii_lowercase();
            let path = root.join(format!("t/d{i}/goccia.{ext}"));
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, harness::apply(bytes, edits)).unwrap();
        }
        let store = "--trust-store=store/trust.json";
        let scan = [store, "scan", "t", "--json"];
        let first = run(&root, &scan);
        check(&scan, &first, &[0, 1, 2], true)?;
        let second = run(&root, &scan);
        prop_assert_eq!(&first.stdout, &second.stdout);
        prop_assert_eq!(first.code, second.code);

        // Each config on its own: one that fails to load fails its own
        // `trust` (as GocciaScript's --trust does), not the others'.
        let mut recorded = Vec::new();
        for i in 0..configs.len() {
            let target = format!("t/d{i}");
            let trust = [store, "trust", target.as_str(), "--yes"];
            let r = run(&root, &trust);
            check(&trust, &r, &[0, 1, 2], false)?;
            if r.code == 0 {
                recorded.push(format!("{}/t/d{i}/", root.display()));
            }
        }
        let after = run(&root, &scan);
        check(&scan, &after, &[0, 1, 2], true)?;
        for (key, state) in states(&after.stdout) {
            if recorded.iter().any(|dir| key.starts_with(dir.as_str())) {
                prop_assert!(
                    ["trusted", "no-request"].contains(&state.as_str()),
                    "{} is {} after trust --yes succeeded",
                    key,
                    state
                );
            }
        }
    }
}

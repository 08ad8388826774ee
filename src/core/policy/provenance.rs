//! Who supplies the policy. A policy that judges a repository must come from
//! the operator, not from the repository: otherwise whoever can open a pull
//! request widens the policy in the same change that widens a config, and a
//! CI bootstrap trusts both. So for config requests a policy file is refused
//! when it lies inside a tree under review (links resolved, and inside the
//! repository root containing a PATH), or when group or others may write it.
//! An operator who really keeps the policy in the repository pins its
//! content with `--policy-sha256`: then only that content is accepted,
//! wherever the file lives.

use super::load::{Policy, PolicySource};
use super::target::{canonical_path, contains, fold_case, lexical_path};
use crate::core::env::Env;
use crate::core::paths::expand_file_name;
use crate::core::paths::portable::mode_bits;

#[derive(Debug, thiserror::Error)]
pub enum ProvenanceError {
    #[error(
        "policy {policy} lies inside {tree}, a tree under review; the policy must come from outside the reviewed tree (or pin its content with --policy-sha256)"
    )]
    InsideReview { policy: String, tree: String },
    #[error(
        "policy {policy} is writable by {who} (mode {mode:04o}); run chmod go-w {policy}, or pin its content with --policy-sha256"
    )]
    Writable {
        policy: String,
        who: &'static str,
        mode: u32,
    },
    #[error(
        "policy {policy} has sha256 {actual}, not the pinned --policy-sha256 {pinned}; no other content is accepted"
    )]
    PinMismatch {
        policy: String,
        actual: String,
        pinned: String,
    },
    #[error("cannot check who may write policy {policy}: {source}")]
    Unreadable {
        policy: String,
        #[source]
        source: std::io::Error,
    },
}

/// `--policy-sha256` lower-cased; anything but 64 hex digits is refused.
pub fn parse_pin(value: &str) -> Result<String, String> {
    if value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(value.to_ascii_lowercase())
    } else {
        Err(format!(
            "--policy-sha256 needs the policy file's SHA-256 (64 hex digits), got {value:?}"
        ))
    }
}

/// Checks that `policy` may judge the configs under `paths`, whose trees
/// under review are `trees`. The built-in policy is part of the binary and
/// always may. `pin` is a lower-case SHA-256 from [`parse_pin`].
pub fn check_provenance(
    policy: &Policy,
    paths: &[String],
    trees: &[String],
    pin: Option<&str>,
    env: &Env,
) -> Result<(), ProvenanceError> {
    let PolicySource::File(path) = &policy.source else {
        return Ok(());
    };
    let shown = path.display().to_string();
    // The bytes judged are the bytes hashed: a pin settles the content
    // whoever can write the file and wherever it lives.
    if let Some(pinned) = pin {
        if policy.sha256 != pinned {
            return Err(ProvenanceError::PinMismatch {
                policy: shown,
                actual: policy.sha256.clone(),
                pinned: pinned.to_string(),
            });
        }
        return Ok(());
    }

    let lexical = lexical_path(&shown, &env.cwd);
    let spellings: Vec<String> = std::iter::once(lexical.clone())
        .chain(canonical_path(&lexical))
        .map(|p| fold_case(&p))
        .collect();
    let mut reviewed: Vec<String> = trees.to_vec();
    for p in paths {
        let lexical = lexical_path(&expand_file_name(p, &env.cwd, &env.home), &env.cwd);
        reviewed.extend(canonical_path(&lexical));
        reviewed.push(lexical);
    }
    for tree in &reviewed {
        let folded = fold_case(tree);
        if spellings.iter().any(|p| contains(&folded, p)) {
            return Err(ProvenanceError::InsideReview {
                policy: shown,
                tree: tree.clone(),
            });
        }
    }

    let meta = std::fs::metadata(path).map_err(|source| ProvenanceError::Unreadable {
        policy: shown.clone(),
        source,
    })?;
    // Windows has no permission bits to judge (README "Platforms"): there
    // the policy's place (outside the tree) and --policy-sha256 protect it.
    let Some(mode) = mode_bits(&meta) else {
        return Ok(());
    };
    let who = match (mode & 0o020 != 0, mode & 0o002 != 0) {
        (true, true) => "group and others",
        (true, false) => "its group",
        (false, true) => "others",
        (false, false) => return Ok(()),
    };
    Err(ProvenanceError::Writable {
        policy: shown,
        who,
        mode,
    })
}

// Unix-only tests (modes, links, owners); Windows builds the rest.
#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::core::policy::test_support::env_at;
    use crate::core::policy::{LoadContext, load_policy};
    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;

    const POLICY: &str = r#"{"approved_workspaces": ["."], "grants": {}, "risk_to_level": {}}"#;

    fn load(file: &Path, env: &Env, trees: &[String]) -> Policy {
        let ctx = LoadContext {
            env,
            anchors: trees,
            store_dir: Path::new(""),
            state_dir: None,
        };
        load_policy(Some(&file.to_string_lossy()), &ctx).unwrap()
    }

    #[test]
    fn a_policy_inside_the_tree_is_refused_unless_pinned() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let repo = root.join("repo");
        std::fs::create_dir_all(repo.join("pkg")).unwrap();
        std::fs::create_dir_all(root.join("ops")).unwrap();
        let inside = repo.join("ci-policy.json");
        std::fs::write(&inside, POLICY).unwrap();
        std::fs::set_permissions(&inside, std::fs::Permissions::from_mode(0o644)).unwrap();
        // Reached through a link from outside: still inside once resolved.
        let link = root.join("ops/linked.json");
        std::os::unix::fs::symlink(&inside, &link).unwrap();
        let env = env_at(&root.to_string_lossy(), "/nonexistent");
        let trees = vec![repo.to_string_lossy().into_owned()];
        let paths = vec!["repo/pkg".to_string()];
        for file in [&inside, &link] {
            let pol = load(file, &env, &trees);
            let e = check_provenance(&pol, &paths, &trees, None, &env).unwrap_err();
            assert!(matches!(e, ProvenanceError::InsideReview { .. }), "{e}");
            let sha = pol.sha256.clone();
            check_provenance(&pol, &paths, &trees, Some(&sha), &env).unwrap();
            let wrong = "0".repeat(64);
            let e = check_provenance(&pol, &paths, &trees, Some(&wrong), &env).unwrap_err();
            assert!(matches!(e, ProvenanceError::PinMismatch { .. }), "{e}");
        }
        // Outside and private: accepted.
        let outside = root.join("ops/policy.json");
        std::fs::write(&outside, POLICY).unwrap();
        std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o600)).unwrap();
        let pol = load(&outside, &env, &trees);
        check_provenance(&pol, &paths, &trees, None, &env).unwrap();
        // Group- or world-writable: refused.
        for (mode, who) in [
            (0o664, "its group"),
            (0o646, "others"),
            (0o666, "group and others"),
        ] {
            std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(mode)).unwrap();
            let e = check_provenance(&pol, &paths, &trees, None, &env).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "policy {p} is writable by {who} (mode {mode:04o}); run chmod go-w {p}, or pin its content with --policy-sha256",
                    p = outside.display()
                )
            );
        }
    }

    #[test]
    fn a_pin_is_64_hex_digits() {
        assert_eq!(parse_pin(&"AB".repeat(32)).unwrap(), "ab".repeat(32));
        assert!(parse_pin("abc").is_err());
        assert!(parse_pin(&"g".repeat(64)).is_err());
    }
}

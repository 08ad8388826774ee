//! A config compared with its store entry: its state and the `+`/`-`/`~`
//! lines GocciaScript shows (docs/src/compatibility.md#verdicts-and-audit-reasons, #description-lines).

use similar::{Algorithm, ChangeTag, utils::diff_slices};

use crate::core::config::describe::description_lines;
use crate::core::config::targets::{Targets, target_changes};
use crate::core::config::{ConfigSnapshot, HashedConfig};
use crate::core::review::report::{ConfigState, DiffLine};
use crate::core::store::StoredEntry;

/// The verdict on one loaded config against the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    pub state: ConfigState,
    /// Description lines; for `Changed`, the diff and the target lines.
    pub lines: Vec<DiffLine>,
}

/// Compares a config with what the store holds for its key.
pub fn compare(snapshot: &ConfigSnapshot, stored: Option<&StoredEntry>) -> Comparison {
    let unchanged = || {
        snapshot
            .lines
            .iter()
            .cloned()
            .map(DiffLine::Unchanged)
            .collect()
    };
    if !snapshot.requests_grants() {
        return Comparison {
            state: ConfigState::NoRequest,
            lines: unchanged(),
        };
    }
    let Some(stored) = stored else {
        return Comparison {
            state: ConfigState::NeverTrusted,
            lines: unchanged(),
        };
    };
    let moved = moved_targets(stored, &snapshot.targets);
    if stored.sha256 == snapshot.sha256 && moved.is_empty() {
        return Comparison {
            state: ConfigState::Trusted,
            lines: unchanged(),
        };
    }
    let old_lines = description_lines(&stored.block);
    let mut lines = diff_lines(&old_lines, &snapshot.lines);
    lines.extend(moved);
    Comparison {
        state: ConfigState::Changed,
        lines,
    }
}

/// Whether a stored entry still matches the config as it is now.
pub fn entry_matches(now: &HashedConfig, stored: &StoredEntry) -> bool {
    stored.sha256 == now.sha256 && moved_targets(stored, &now.targets).is_empty()
}

/// The recorded targets that now resolve elsewhere, as `~` lines. `now`
/// holds where the config's current scopes resolve; a recorded scope the
/// config no longer names is resolved afresh.
pub fn moved_targets(stored: &StoredEntry, now: &Targets) -> Vec<DiffLine> {
    let known: Vec<(String, String)> = stored
        .targets
        .iter()
        .filter(|(scope, _)| now.get(scope).is_none())
        .map(|(scope, target)| (scope.to_string(), target.to_string()))
        .collect();
    let from_snapshot = stored.targets.iter().filter_map(|(scope, recorded)| {
        let current = now.get(scope)?;
        (**current != **recorded)
            .then(|| (scope.to_string(), recorded.to_string(), current.clone()))
    });
    // Keep the store's order of scopes.
    let mut moved: Vec<(String, String, String)> =
        from_snapshot.chain(target_changes(&known)).collect();
    let order = |scope: &str| stored.targets.iter().position(|(s, _)| **s == *scope);
    moved.sort_by_key(|(scope, _, _)| order(scope));
    moved
        .into_iter()
        .map(|(scope, recorded, current)| DiffLine::Target {
            scope,
            recorded,
            current,
        })
        .collect()
}

/// Removed lines first, then every current line marked unchanged or added.
pub fn diff_lines(old: &[String], new: &[String]) -> Vec<DiffLine> {
    let changes = diff_slices(Algorithm::Myers, old, new);
    let mut removed = Vec::new();
    let mut current = Vec::new();
    for (tag, slice) in changes {
        for line in slice {
            match tag {
                ChangeTag::Delete => removed.push(DiffLine::Removed(line.clone())),
                ChangeTag::Equal => current.push(DiffLine::Unchanged(line.clone())),
                ChangeTag::Insert => current.push(DiffLine::Added(line.clone())),
            }
        }
    }
    removed.extend(current);
    removed
}

// Unix-only tests (modes, links, owners); Windows builds the rest.
#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn removed_first_then_current_in_order() {
        let lines = diff_lines(
            &s(&["allow-ffi: /a", "allow-net: x"]),
            &s(&["allow-ffi: /a", "allow-read: /r"]),
        );
        assert_eq!(
            lines,
            vec![
                DiffLine::Removed("allow-net: x".into()),
                DiffLine::Unchanged("allow-ffi: /a".into()),
                DiffLine::Added("allow-read: /r".into()),
            ]
        );
        assert_eq!(crate::core::review::report::diff_summary(&lines), "+1 -1");
    }

    #[test]
    fn moved_targets_use_the_snapshot_and_resolve_dropped_scopes_afresh() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir
            .path()
            .canonicalize()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        std::fs::create_dir(format!("{root}/real")).unwrap();
        std::os::unix::fs::symlink(format!("{root}/real"), format!("{root}/gone-link")).unwrap();
        let stored = StoredEntry {
            sha256: crate::core::store::Sha256::from_hex(&"0".repeat(64)).unwrap(),
            block: crate::core::config::json::parse(r#"{"version":1}"#)
                .unwrap()
                .into(),
            targets: StoredEntry::boxed_targets([
                (format!("{root}/a"), format!("{root}/a")),
                (format!("{root}/gone-link"), format!("{root}/gone-link")),
                (format!("{root}/z"), format!("{root}/z")),
            ]),
            trusted_at: "2026-01-01T00:00:00Z".into(),
            trusted_by: "t".into(),
        };
        let now = Targets::from_pairs([
            (format!("{root}/a"), format!("{root}/a")),
            (format!("{root}/z"), "/elsewhere".into()),
        ]);
        // `gone-link` is no longer in the config: it is resolved on disk.
        assert_eq!(
            moved_targets(&stored, &now),
            vec![
                DiffLine::Target {
                    scope: format!("{root}/gone-link"),
                    recorded: format!("{root}/gone-link"),
                    current: format!("{root}/real"),
                },
                DiffLine::Target {
                    scope: format!("{root}/z"),
                    recorded: format!("{root}/z"),
                    current: "/elsewhere".into(),
                },
            ]
        );
    }
}

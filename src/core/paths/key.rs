//! The trust key of a config: its canonical directory plus its own file name
//! (docs/src/compatibility.md#the-trust-key).

use std::fmt;

use crate::core::env::Env;
use crate::core::paths::{expand_without_trailing_separator, file_name, parent_dir};

/// A store key. Keys compare by bytes, which is GocciaScript's order on
/// Linux and BSD (macOS and Windows case folding is not modelled).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TrustKey(pub String);

impl fmt::Display for TrustKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TrustKey {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The key of a config path: `ExpandFileName` against the working directory
/// and `$HOME`, one trailing `/` dropped; then the directory with links
/// resolved (kept as is when it does not exist) and the file name unresolved,
/// so a config that is itself a link has a key of its own.
pub fn trust_key_for_path(path: &str, env: &Env) -> TrustKey {
    key_for_expanded(&expand_without_trailing_separator(
        path, &env.cwd, &env.home,
    ))
}

/// [`trust_key_for_path`] for a path already expanded.
pub(crate) fn key_for_expanded(path: &str) -> TrustKey {
    join_key(&resolve_or_keep(parent_dir(path)), file_name(path))
}

/// `<resolved dir>` + `/` + `<name>`, the directory having lost one trailing
/// `/` first (so the root gives `/name`).
pub(crate) fn join_key(resolved_dir: &str, name: &str) -> TrustKey {
    let dir = resolved_dir.strip_suffix('/').unwrap_or(resolved_dir);
    TrustKey(format!("{dir}/{name}"))
}

/// What `--untrust <path>` matches against: an existing directory (links
/// followed) is itself resolved; anything else gets the key of
/// [`trust_key_for_path`].
pub fn trust_key_for_directory(path: &str, env: &Env) -> String {
    let expanded = expand_without_trailing_separator(path, &env.cwd, &env.home);
    if super::input::is_directory(&expanded) {
        let resolved = resolve_or_keep(&expanded);
        match resolved.strip_suffix('/') {
            Some(trimmed) if !trimmed.is_empty() => trimmed.to_string(),
            _ => resolved,
        }
    } else {
        key_for_expanded(&expanded).0
    }
}

/// `realpath`, or the path unchanged when it cannot be resolved (missing, a
/// dangling link, a file used as a directory) or resolves to a name that is
/// not UTF-8 (a key is a JSON string).
pub(crate) fn resolve_or_keep(path: &str) -> String {
    crate::core::paths::realpath::realpath(path).unwrap_or_else(|_| path.to_string())
}

/// Whether `key` is `dir` or lies under it, separator-bounded: `/a/b` covers
/// `/a/b/goccia.json` but not `/a/bc/goccia.json`; `/` covers every key.
pub fn is_under(key: &str, dir: &str) -> bool {
    if key == dir || dir == "/" {
        return true;
    }
    key.strip_prefix(dir)
        .is_some_and(|rest| rest.starts_with('/'))
}

// Unix-only tests (modes, links, owners); Windows builds the rest.
#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::symlink;
    use std::path::Path;

    fn env(cwd: &str) -> Env {
        Env {
            cwd: cwd.into(),
            home: "/home/u".into(),
            xdg_config_home: String::new(),
            xdg_state_home: String::new(),
            ..Env::default()
        }
    }

    /// A temp dir by its canonical path (on some systems /tmp is a link).
    fn tmp() -> (tempfile::TempDir, String) {
        let t = tempfile::tempdir().unwrap();
        let real = fs::canonicalize(t.path())
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        (t, real)
    }

    #[test]
    fn missing_directories_stay_lexical() {
        let e = env("/nonexistent-w");
        let k = |p: &str| trust_key_for_path(p, &e).0;
        assert_eq!(k("x/goccia.json"), "/nonexistent-w/x/goccia.json");
        assert_eq!(k("x/goccia.json/"), "/nonexistent-w/x/goccia.json");
        assert_eq!(k("~/p/goccia.toml"), "/home/u/p/goccia.toml");
        assert_eq!(k("a\\b/../c/goccia.json"), "/nonexistent-w/a/c/goccia.json");
        assert_eq!(k("/goccia.json"), "/goccia.json");
        assert_eq!(k("/"), "/");
    }

    #[test]
    fn the_directory_is_resolved_and_the_name_is_not() {
        let (_t, root) = tmp();
        fs::create_dir(format!("{root}/real")).unwrap();
        fs::write(format!("{root}/real/goccia.json"), "{}").unwrap();
        symlink(format!("{root}/real"), format!("{root}/linkdir")).unwrap();
        symlink(
            format!("{root}/real/goccia.json"),
            format!("{root}/real/alias.json"),
        )
        .unwrap();
        let e = env(&root);
        // Through a linked directory: the key is at the target directory.
        assert_eq!(
            trust_key_for_path("linkdir/goccia.json", &e).0,
            format!("{root}/real/goccia.json")
        );
        // A config that is itself a link keys at the link's own path.
        assert_eq!(
            trust_key_for_path("linkdir/alias.json", &e).0,
            format!("{root}/real/alias.json")
        );
        // The file need not exist; the directory is still resolved.
        assert_eq!(
            trust_key_for_path("linkdir/gone.toml", &e).0,
            format!("{root}/real/gone.toml")
        );
    }

    #[test]
    fn odd_characters_pass_through() {
        let (_t, root) = tmp();
        let dir = format!("{root}/sp ace \"q\" é");
        fs::create_dir(&dir).unwrap();
        let e = env(&dir);
        assert_eq!(
            trust_key_for_path("goccia.json", &e).0,
            format!("{dir}/goccia.json")
        );
    }

    #[test]
    fn directory_keys() {
        let (_t, root) = tmp();
        fs::create_dir_all(format!("{root}/real/sub")).unwrap();
        symlink(format!("{root}/real"), format!("{root}/link")).unwrap();
        let e = env(&root);
        assert_eq!(trust_key_for_directory("link/", &e), format!("{root}/real"));
        assert_eq!(
            trust_key_for_directory("link/sub", &e),
            format!("{root}/real/sub")
        );
        // Not a directory: the config-path key (directory part resolved).
        assert_eq!(
            trust_key_for_directory("link/gone", &e),
            format!("{root}/real/gone")
        );
        assert_eq!(trust_key_for_directory("/", &e), "/");
    }

    #[test]
    fn is_under_is_separator_bounded() {
        assert!(is_under("/a/b/goccia.json", "/a/b"));
        assert!(is_under("/a/b", "/a/b"));
        assert!(!is_under("/a/bc/goccia.json", "/a/b"));
        assert!(!is_under("/a", "/a/b"));
        assert!(is_under("/anything", "/"));
        assert!(is_under("/a/b/c/d", "/a"));
    }

    #[test]
    fn keys_order_by_bytes() {
        let mut keys = [
            TrustKey("/p/goccia.toml".into()),
            TrustKey("/p/a/goccia.json".into()),
            TrustKey("/p/Z/goccia.json".into()),
        ];
        keys.sort();
        let shown: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
        assert_eq!(
            shown,
            ["/p/Z/goccia.json", "/p/a/goccia.json", "/p/goccia.toml"]
        );
        assert!(Path::new(keys[0].as_str()).is_absolute());
    }
}

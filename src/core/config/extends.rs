//! A config and its `extends` chain merged into one entry list
//! (docs/src/compatibility.md#extends-chains).

use crate::core::config::entries::{Entry, EntryKind, read_entries};
use crate::core::env::Env;
use crate::core::error::ConfigError;
use crate::core::paths::{expand_file_name, parent_dir};

/// GocciaScript refuses the file reached at this depth (the given file is
/// depth 0), so a chain of 11 files loads and 12 do not; a cycle always
/// reaches it.
pub const MAX_EXTENDS_DEPTH: usize = 10;

/// A config's entries with its bases' appended, and the chain of files read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedConfig {
    /// The config's own entries (without `extends`), then its base's, and so
    /// on down the chain; each keeps the file that declared it.
    pub entries: Vec<Entry>,
    /// Expanded paths of the chain, the config first.
    pub files: Vec<String>,
}

/// Where a config and its bases are read from: the disk (every command
/// but `diff`), or a git revision's tree (`core::revision`). Paths are
/// expanded absolute paths as the checkout names them.
pub trait ConfigFiles {
    /// The entries of the file at `path`, with GocciaScript's messages.
    fn read_entries(&self, path: &str) -> Result<Vec<Entry>, ConfigError>;
    /// Whether an `extends` target exists as a non-directory. An error is a
    /// target this source will not read (a link in a revision's tree).
    fn base_exists(&self, path: &str) -> Result<bool, ConfigError>;
}

/// The files on disk, as GocciaScript reads them.
pub struct Disk;

impl ConfigFiles for Disk {
    fn read_entries(&self, path: &str) -> Result<Vec<Entry>, ConfigError> {
        read_entries(path)
    }

    fn base_exists(&self, path: &str) -> Result<bool, ConfigError> {
        // Links are followed here only to ask whether a file is there; the
        // path itself stays lexical.
        Ok(crate::core::paths::input::is_file_like(path))
    }
}

/// Loads `path` (expanded against `env`) and every base it extends.
pub fn load_config_entries(path: &str, env: &Env) -> Result<LoadedConfig, ConfigError> {
    load_config_entries_from(path, env, &Disk)
}

/// [`load_config_entries`] reading every file of the chain from `files`.
pub fn load_config_entries_from(
    path: &str,
    env: &Env,
    files: &dyn ConfigFiles,
) -> Result<LoadedConfig, ConfigError> {
    let mut loaded = LoadedConfig {
        entries: Vec::new(),
        files: Vec::new(),
    };
    let mut file = expand_file_name(path, &env.cwd, &env.home);
    let mut depth = 0;
    loop {
        if depth > MAX_EXTENDS_DEPTH {
            return Err(ConfigError::invalid(format!(
                "Circular or too-deeply-nested extends in config: {file}"
            )));
        }
        let mut entries = files.read_entries(&file)?;
        let base = base_of(&file, &entries, env, files)?;
        entries.retain(|e| e.key != "extends");
        // The config's own entries are taken as they are, not copied: a
        // config near the size cap holds tens of thousands.
        if loaded.entries.is_empty() {
            loaded.entries = entries;
        } else {
            loaded.entries.append(&mut entries);
        }
        loaded.files.push(file);
        match base {
            None => return Ok(loaded),
            Some(next) => {
                file = next;
                depth += 1;
            }
        }
    }
}

/// The expanded path of the file `file` extends, checked to exist as a
/// non-directory. Only the first `extends` entry counts.
fn base_of(
    file: &str,
    entries: &[Entry],
    env: &Env,
    files: &dyn ConfigFiles,
) -> Result<Option<String>, ConfigError> {
    let Some(extends) = entries.iter().find(|e| e.key == "extends") else {
        return Ok(None);
    };
    if extends.kind != EntryKind::String || extends.in_array {
        return Err(ConfigError::invalid(format!(
            "{file}: \"extends\" must be a path"
        )));
    }
    let target = if extends.value.starts_with('/') {
        expand_file_name(&extends.value, &env.cwd, &env.home)
    } else {
        // `IncludeTrailingPathDelimiter(ExtractFileDir(file))`: the root
        // directory already ends with its separator.
        let dir = parent_dir(file);
        let sep = if dir.ends_with('/') { "" } else { "/" };
        expand_file_name(&format!("{dir}{sep}{}", extends.value), &env.cwd, &env.home)
    };
    if files.base_exists(&target)? {
        Ok(Some(target))
    } else {
        Err(ConfigError::invalid(format!(
            "Config extends target not found: {target}"
        )))
    }
}

// Unix-only tests (modes, links, owners); Windows builds the rest.
#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::core::error::ExitClass;
    use std::fs;
    use std::path::Path;

    fn env(cwd: &Path) -> Env {
        Env {
            cwd: cwd.to_str().unwrap().to_string(),
            home: "/home/nobody".into(),
            xdg_config_home: String::new(),
            xdg_state_home: String::new(),
            ..Env::default()
        }
    }

    fn write(dir: &Path, rel: &str, text: &str) -> String {
        let path = dir.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    }

    fn keyed(loaded: &LoadedConfig) -> Vec<(String, String, String)> {
        loaded
            .entries
            .iter()
            .map(|e| (e.key.clone(), e.value.clone(), e.source.to_string()))
            .collect()
    }

    #[test]
    fn merges_child_first_across_formats_keeping_sources() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        let child = write(
            d,
            "p/goccia.json",
            r#"{"a": 1, "extends": "../base/goccia.toml", "b": 2}"#,
        );
        // An absolute extends, used as is.
        let root = d.to_str().unwrap();
        let base = write(
            d,
            "base/goccia.toml",
            &format!("extends = \"{root}/deep/goccia.json5\"\nc = 3\n"),
        );
        let deep = write(d, "deep/goccia.json5", "{d: 4}");
        let loaded = load_config_entries(&child, &env(d)).unwrap();
        assert_eq!(loaded.files, [child.clone(), base.clone(), deep.clone()]);
        let c = |k: &str, v: &str, s: &str| (k.to_string(), v.to_string(), s.to_string());
        assert_eq!(
            keyed(&loaded),
            [
                c("a", "1", &child),
                c("b", "2", &child),
                c("c", "3", &base),
                c("d", "4", &deep)
            ]
        );
    }

    #[test]
    fn relative_config_path_and_extends_are_expanded_lexically() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        write(d, "real/base.json", r#"{"x": 1}"#);
        write(d, "p/goccia.json", r#"{"extends": "../link/./base.json"}"#);
        std::os::unix::fs::symlink(d.join("real"), d.join("link")).unwrap();
        let loaded = load_config_entries("p//goccia.json", &env(d)).unwrap();
        let root = d.to_str().unwrap();
        // The link is not resolved: the base keeps the path it was named by.
        assert_eq!(
            loaded.files,
            [
                format!("{root}/p/goccia.json"),
                format!("{root}/link/base.json")
            ]
        );
        assert_eq!(&*loaded.entries[0].source, format!("{root}/link/base.json"));
    }

    #[test]
    fn only_the_first_extends_counts() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        write(d, "a.json", r#"{"y": 1}"#);
        let child = write(
            d,
            "c.json",
            r#"{"extends": "a.json", "extends": 5, "extends": "missing.json"}"#,
        );
        let loaded = load_config_entries(&child, &env(d)).unwrap();
        assert_eq!(loaded.files.len(), 2);
        assert!(loaded.entries.iter().all(|e| e.key != "extends"));
    }

    #[test]
    fn extends_must_be_a_string_outside_an_array() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        for text in [
            r#"{"extends": ["a.json"]}"#,
            r#"{"extends": []}"#,
            r#"{"extends": 1}"#,
            r#"{"extends": true}"#,
            r#"{"extends": null}"#,
            r#"{"extends": {"path": "a.json"}}"#,
            r#"{"extends": 1, "extends": "a.json"}"#,
        ] {
            let child = write(d, "c.json", text);
            let e = load_config_entries(&child, &env(d)).unwrap_err();
            assert_eq!(
                e.message,
                format!("{child}: \"extends\" must be a path"),
                "{text}"
            );
            assert_eq!(e.class, ExitClass::Invalid);
        }
    }

    #[test]
    fn missing_dangling_or_directory_target_is_not_found() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        let root = d.to_str().unwrap();
        fs::create_dir(d.join("sub")).unwrap();
        std::os::unix::fs::symlink(d.join("nowhere"), d.join("dangling.json")).unwrap();
        for (value, shown) in [
            ("missing.json", format!("{root}/missing.json")),
            ("sub", format!("{root}/sub")),
            ("sub/", format!("{root}/sub/")),
            ("", format!("{root}/")),
            ("dangling.json", format!("{root}/dangling.json")),
        ] {
            let child = write(d, "c.json", &format!(r#"{{"extends": "{value}"}}"#));
            let e = load_config_entries(&child, &env(d)).unwrap_err();
            assert_eq!(
                e.message,
                format!("Config extends target not found: {shown}")
            );
            assert_eq!(e.class, ExitClass::Invalid);
        }
    }

    #[test]
    fn a_fifo_or_device_base_is_refused_without_waiting() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        let fifo = d.join("fifo.json");
        crate::core::paths::portable::mkfifo(&fifo);
        std::os::unix::fs::symlink("/dev/zero", d.join("zero.json")).unwrap();
        let root = d.to_str().unwrap();
        for base in ["fifo.json", "zero.json"] {
            let child = write(d, "c.json", &format!(r#"{{"extends": "{base}"}}"#));
            let start = std::time::Instant::now();
            let e = load_config_entries(&child, &env(d)).unwrap_err();
            assert_eq!(e.message, format!("{root}/{base}: not a regular file"));
            assert_eq!(e.class, ExitClass::Invalid);
            assert!(start.elapsed() < std::time::Duration::from_secs(1));
        }
    }

    #[test]
    fn a_base_error_names_the_base() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        let base = write(d, "b.json", "{");
        let child = write(d, "c.json", r#"{"extends": "b.json"}"#);
        let e = load_config_entries(&child, &env(d)).unwrap_err();
        assert!(e.message.starts_with(&format!("{base}: ")), "{}", e.message);
    }

    /// `n` files, each extending the next.
    fn chain(d: &Path, n: usize) -> String {
        for i in 0..n {
            let next = if i + 1 < n {
                format!(r#""extends": "f{}.json", "#, i + 1)
            } else {
                String::new()
            };
            write(
                d,
                &format!("f{i}.json"),
                &format!(r#"{{{next}"k{i}": {i}}}"#),
            );
        }
        d.join("f0.json").to_str().unwrap().to_string()
    }

    #[test]
    fn eleven_files_load_twelve_do_not() {
        let t = tempfile::tempdir().unwrap();
        let loaded = load_config_entries(&chain(t.path(), 11), &env(t.path())).unwrap();
        assert_eq!(loaded.files.len(), 11);
        assert_eq!(loaded.entries.len(), 11);

        let t = tempfile::tempdir().unwrap();
        let e = load_config_entries(&chain(t.path(), 12), &env(t.path())).unwrap_err();
        let last = t.path().join("f11.json");
        assert_eq!(
            e.message,
            format!(
                "Circular or too-deeply-nested extends in config: {}",
                last.display()
            )
        );
        assert_eq!(e.class, ExitClass::Invalid);
    }

    #[test]
    fn a_cycle_fails_at_the_depth_limit() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        let a = write(d, "a.json", r#"{"extends": "b.toml"}"#);
        let b = write(d, "b.toml", "extends = \"a.json\"\n");
        let e = load_config_entries(&a, &env(d)).unwrap_err();
        // Depth 11 is odd, so the file reached there is b.
        assert_eq!(
            e.message,
            format!("Circular or too-deeply-nested extends in config: {b}")
        );

        let s = write(d, "self.json5", "{extends: './self.json5'}");
        let e = load_config_entries(&s, &env(d)).unwrap_err();
        assert_eq!(
            e.message,
            format!("Circular or too-deeply-nested extends in config: {s}")
        );
    }

    #[test]
    fn config_at_the_root_joins_without_a_double_slash() {
        // A base beside a config in `/` is `/base`, not `//base` (which
        // ExpandFileName would keep). Checked on the join alone: `/` is not
        // writable in tests.
        let entries = vec![Entry {
            key: "extends".into(),
            value: "etc/hostname".into(),
            kind: EntryKind::String,
            in_array: false,
            source: "/goccia.json".into(),
        }];
        let env = env(Path::new("/"));
        match base_of("/goccia.json", &entries, &env, &Disk) {
            Ok(p) => assert_eq!(p.as_deref(), Some("/etc/hostname")),
            Err(e) => assert_eq!(e.message, "Config extends target not found: /etc/hostname"),
        }
    }
}

//! How GocciaScript shows paths and arguments in its messages
//! (docs/src/compatibility.md#the-untrusted-run-report, #untrust-lines).

use crate::core::env::Env;
use crate::core::paths::expand_without_trailing_separator;
use crate::core::paths::platform::Platform;

/// A path relative to the working directory when strictly under it (a byte
/// prefix on Linux), else the path itself.
pub fn display_path(path: &str, cwd: &str) -> String {
    Platform::CURRENT
        .strip_dir(path, cwd)
        .unwrap_or(path)
        .to_string()
}

/// A `--trust`/`--untrust` argument as GocciaScript echoes it: expanded, one
/// trailing `/` dropped, `.` for the working directory, else its display
/// path, and `/` appended when it names an existing directory (links
/// followed).
pub fn describe_target(arg: &str, env: &Env) -> String {
    let expanded = expand_without_trailing_separator(arg, &env.cwd, &env.home);
    let mut shown = if expanded == env.cwd {
        ".".to_string()
    } else {
        display_path(&expanded, &env.cwd)
    };
    if super::input::is_directory(&expanded) && !shown.ends_with('/') {
        shown.push('/');
    }
    shown
}

/// Several targets joined as GocciaScript lists them: `a/, b/goccia.json`.
pub fn describe_targets(args: &[String], env: &Env) -> String {
    args.iter()
        .map(|a| describe_target(a, env))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Shell quoting of a suggested command's arguments: bare when every
/// character is in `A-Za-z0-9_-./=:,@%+`, else single-quoted with `'`
/// written as `'\''`; the empty string is `''`.
pub fn shell_quote(arg: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./=:,@%+".contains(c);
    if !arg.is_empty() && arg.chars().all(safe) {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', "'\\''"))
    }
}

/// The deepest directory containing every path (component-wise).
pub fn common_directory<'a>(paths: impl IntoIterator<Item = &'a str>) -> String {
    let mut common: Option<Vec<&str>> = None;
    for path in paths {
        let dir = crate::core::paths::parent_dir(path);
        let parts: Vec<&str> = dir.split('/').filter(|s| !s.is_empty()).collect();
        common = Some(match common {
            None => parts,
            Some(prev) => prev
                .iter()
                .zip(parts.iter())
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| *a)
                .collect(),
        });
    }
    let parts = common.unwrap_or_default();
    format!("/{}", parts.join("/"))
}

/// `1 config file` / `N config files`.
pub fn count_config_files(n: usize) -> String {
    if n == 1 {
        "1 config file".to_string()
    } else {
        format!("{n} config files")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_paths() {
        assert_eq!(display_path("/w/a/goccia.json", "/w"), "a/goccia.json");
        assert_eq!(display_path("/w", "/w"), "/w");
        assert_eq!(display_path("/wx/a", "/w"), "/wx/a");
        assert_eq!(display_path("/x/a", "/w"), "/x/a");
        assert_eq!(display_path("/a/b", "/"), "a/b");
    }

    #[test]
    fn quoting() {
        assert_eq!(
            shell_quote("a/b-c_d.e=f:g,h@i%j+k"),
            "a/b-c_d.e=f:g,h@i%j+k"
        );
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote("é"), "'é'");
    }

    #[test]
    fn common_dirs() {
        assert_eq!(
            common_directory(["/w/a/x/goccia.json", "/w/a/y/goccia.json"]),
            "/w/a"
        );
        assert_eq!(
            common_directory(["/w/ab/goccia.json", "/w/a/goccia.json"]),
            "/w"
        );
        assert_eq!(common_directory(["/a/goccia.json", "/b/goccia.json"]), "/");
    }

    #[test]
    fn counts() {
        assert_eq!(count_config_files(1), "1 config file");
        assert_eq!(count_config_files(2), "2 config files");
    }
}

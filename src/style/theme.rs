//! Themes name styles by what they mean (added, error, selection ...), never
//! by colour, so a view says `theme.style(Role::Added)` and a theme file
//! decides what that looks like. Built-ins are `themes/*.toml`, embedded; a
//! user file `<config dir>/themes/<name>.toml` wins over a built-in.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

/// What a piece of text means; each theme gives every role a style.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Ordinary text.
    Normal,
    Added,
    Removed,
    /// `~` target lines and the `changed` state.
    Changed,
    Trusted,
    /// `never trusted` configs.
    Untrusted,
    /// `no request` configs: nothing to decide.
    NoRequest,
    /// `ignored` configs: refused, not asked about until they change.
    Ignored,
    Error,
    /// Store entries whose config is gone.
    Missing,
    /// Config files GocciaScript does not read: a higher-priority name is
    /// in the same directory.
    Shadowed,
    Selection,
    /// Rows marked with `space`.
    Marked,
    Border,
    Title,
    Muted,
    /// The key in the hint bar and help.
    KeyHint,
    /// The status bar background line.
    Status,
}

impl Role {
    pub const ALL: [Role; 18] = [
        Role::Normal,
        Role::Added,
        Role::Removed,
        Role::Changed,
        Role::Trusted,
        Role::Untrusted,
        Role::NoRequest,
        Role::Ignored,
        Role::Error,
        Role::Missing,
        Role::Shadowed,
        Role::Selection,
        Role::Marked,
        Role::Border,
        Role::Title,
        Role::Muted,
        Role::KeyHint,
        Role::Status,
    ];

    /// The key used in theme files.
    pub fn name(self) -> &'static str {
        match self {
            Role::Normal => "normal",
            Role::Added => "added",
            Role::Removed => "removed",
            Role::Changed => "changed",
            Role::Trusted => "trusted",
            Role::Untrusted => "untrusted",
            Role::NoRequest => "no-request",
            Role::Ignored => "ignored",
            Role::Error => "error",
            Role::Missing => "missing",
            Role::Shadowed => "shadowed",
            Role::Selection => "selection",
            Role::Marked => "marked",
            Role::Border => "border",
            Role::Title => "title",
            Role::Muted => "muted",
            Role::KeyHint => "key-hint",
            Role::Status => "status",
        }
    }

    fn index(self) -> usize {
        Role::ALL.iter().position(|r| *r == self).unwrap_or(0)
    }
}

/// A resolved theme: one style per role.
#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    pub name: String,
    styles: [Style; Role::ALL.len()],
    /// Draw with ASCII only (`ascii = true` in the file, `--ascii`, or a
    /// locale without UTF-8).
    pub ascii: bool,
}

impl Theme {
    pub fn style(&self, role: Role) -> Style {
        self.styles[role.index()]
    }

    /// A built-in theme by name; panics only if an embedded file is broken,
    /// which the theme tests rule out.
    #[allow(clippy::expect_used)] // embedded files, parsed by the theme tests
    pub fn builtin(name: &str) -> Option<Theme> {
        BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(n, text)| parse_theme(n, text).expect("embedded theme parses"))
    }

    /// The plain theme used for `NO_COLOR` and `--color=never`.
    #[allow(clippy::expect_used)] // "mono" is in BUILTIN
    pub fn mono() -> Theme {
        Theme::builtin("mono").expect("mono is built in")
    }
}

impl Default for Theme {
    #[allow(clippy::expect_used)] // "default" is in BUILTIN
    fn default() -> Self {
        Theme::builtin("default").expect("default is built in")
    }
}

pub const BUILTIN: [(&str, &str); 4] = [
    ("default", include_str!("../../themes/default.toml")),
    ("light", include_str!("../../themes/light.toml")),
    (
        "high-contrast",
        include_str!("../../themes/high-contrast.toml"),
    ),
    ("mono", include_str!("../../themes/mono.toml")),
];

/// `--color=auto|always|never`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

#[derive(Debug)]
pub enum ThemeError {
    /// No built-in and no user file of that name.
    Unknown {
        name: String,
        available: Vec<String>,
    },
    Read {
        path: PathBuf,
        message: String,
    },
    /// `source` is the file path, or `built-in <name>`.
    Invalid {
        source: String,
        message: String,
    },
}

impl fmt::Display for ThemeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThemeError::Unknown { name, available } => write!(
                f,
                "unknown theme `{name}` (built-in: {}; or give a path to a .toml file)",
                available.join(", ")
            ),
            ThemeError::Read { path, message } => {
                write!(f, "cannot read theme file {}: {message}", path.display())
            }
            ThemeError::Invalid { source, message } => {
                write!(f, "invalid theme file {source}: {message}")
            }
        }
    }
}

impl std::error::Error for ThemeError {}

/// Resolve `--theme` (a name or a path) under `--color`. `NO_COLOR` (set and
/// non-empty, read once into `Env::no_color`) and `--color=never` give `mono`
/// whatever `spec` says, unless `--color=always` overrides `NO_COLOR`.
pub fn load_theme(
    spec: Option<&str>,
    color: ColorChoice,
    config_dir: Option<&Path>,
    no_color: bool,
) -> Result<Theme, ThemeError> {
    // Validate the requested theme even when colour is off, so a typo in
    // `--theme` is reported the same way in every environment.
    let theme = resolve(spec.unwrap_or("default"), config_dir)?;
    match color {
        ColorChoice::Never => Ok(Theme::mono()),
        ColorChoice::Auto if no_color => Ok(Theme::mono()),
        _ => Ok(theme),
    }
}

fn resolve(spec: &str, config_dir: Option<&Path>) -> Result<Theme, ThemeError> {
    if spec.contains(std::path::MAIN_SEPARATOR) || spec.ends_with(".toml") {
        return load_file(Path::new(spec));
    }
    if let Some(dir) = config_dir {
        let user = dir.join("themes").join(format!("{spec}.toml"));
        if user.is_file() {
            return load_file(&user);
        }
    }
    match BUILTIN.iter().find(|(n, _)| *n == spec) {
        Some((n, text)) => parse_theme(n, text).map_err(|message| ThemeError::Invalid {
            source: format!("built-in {n}"),
            message,
        }),
        None => Err(ThemeError::Unknown {
            name: spec.to_string(),
            available: BUILTIN.iter().map(|(n, _)| n.to_string()).collect(),
        }),
    }
}

fn load_file(path: &Path) -> Result<Theme, ThemeError> {
    let text = std::fs::read_to_string(path).map_err(|e| ThemeError::Read {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    parse_theme(&name, &text).map_err(|message| ThemeError::Invalid {
        source: path.display().to_string(),
        message,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    #[allow(dead_code)] // documentation for humans reading the file
    description: Option<String>,
    #[serde(default)]
    styles: BTreeMap<String, StyleSpec>,
    /// Draw with ASCII only.
    #[serde(default)]
    ascii: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StyleSpec {
    fg: Option<String>,
    bg: Option<String>,
    #[serde(default)]
    modifiers: Vec<String>,
}

/// Parse a theme file. Roles it leaves out are unstyled, so a short user
/// file stays valid when new roles are added.
pub fn parse_theme(name: &str, text: &str) -> Result<Theme, String> {
    let file: ThemeFile = toml::from_str(text).map_err(|e| e.to_string().trim().to_string())?;
    let mut styles = [Style::default(); Role::ALL.len()];
    for (key, spec) in &file.styles {
        let role = Role::ALL.iter().find(|r| r.name() == key).ok_or_else(|| {
            let known: Vec<_> = Role::ALL.iter().map(|r| r.name()).collect();
            format!("unknown style `{key}` (known: {})", known.join(", "))
        })?;
        styles[role.index()] = spec.to_style().map_err(|m| format!("styles.{key}: {m}"))?;
    }
    Ok(Theme {
        name: name.to_string(),
        styles,
        ascii: file.ascii,
    })
}

impl StyleSpec {
    fn to_style(&self) -> Result<Style, String> {
        let mut style = Style::default();
        if let Some(fg) = &self.fg {
            style = style.fg(parse_color(fg)?);
        }
        if let Some(bg) = &self.bg {
            style = style.bg(parse_color(bg)?);
        }
        for m in &self.modifiers {
            style = style.add_modifier(match m.as_str() {
                "bold" => Modifier::BOLD,
                "dim" => Modifier::DIM,
                "italic" => Modifier::ITALIC,
                "underlined" => Modifier::UNDERLINED,
                "reversed" => Modifier::REVERSED,
                "crossed-out" => Modifier::CROSSED_OUT,
                other => {
                    return Err(format!(
                        "unknown modifier `{other}` (bold, dim, italic, underlined, reversed, crossed-out)"
                    ));
                }
            });
        }
        Ok(style)
    }
}

fn parse_color(s: &str) -> Result<Color, String> {
    Color::from_str(s).map_err(|_| {
        format!("unknown colour `{s}` (a name like `green`, `#rrggbb`, or an index 0-255)")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_parses_and_styles_every_role_it_names() {
        for (name, _) in BUILTIN {
            let t = Theme::builtin(name).unwrap();
            assert_eq!(t.name, name);
        }
        let d = Theme::default();
        assert_eq!(d.style(Role::Added).fg, Some(Color::Green));
    }

    #[test]
    fn no_color_and_never_give_mono() {
        let mono = Theme::mono();
        let t = load_theme(Some("light"), ColorChoice::Never, None, false).unwrap();
        assert_eq!(t, mono);
        let t = load_theme(None, ColorChoice::Auto, None, true).unwrap();
        assert_eq!(t, mono);
        let t = load_theme(None, ColorChoice::Always, None, true).unwrap();
        assert_eq!(t.name, "default", "--color=always beats NO_COLOR");
        for role in Role::ALL {
            assert!(mono.style(role).fg.is_none() && mono.style(role).bg.is_none());
        }
    }

    #[test]
    fn a_user_file_overrides_a_builtin_and_paths_work() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("themes")).unwrap();
        let file = dir.path().join("themes/light.toml");
        std::fs::write(&file, "[styles]\nadded = { fg = \"#010203\" }\n").unwrap();
        let t = load_theme(Some("light"), ColorChoice::Auto, Some(dir.path()), false).unwrap();
        assert_eq!(t.style(Role::Added).fg, Some(Color::Rgb(1, 2, 3)));
        let by_path = file.to_str().unwrap();
        let t = load_theme(Some(by_path), ColorChoice::Auto, None, false).unwrap();
        assert_eq!(t.style(Role::Added).fg, Some(Color::Rgb(1, 2, 3)));
    }

    #[test]
    fn bad_themes_name_the_file_and_the_problem() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bad.toml");
        let path = file.to_str().unwrap();
        let err = |text: &str| {
            std::fs::write(&file, text).unwrap();
            load_theme(Some(path), ColorChoice::Auto, None, false)
                .unwrap_err()
                .to_string()
        };
        let e = err("[styles]\nadded = { fg = \"greenish\" }\n");
        assert!(
            e.starts_with(&format!(
                "invalid theme file {path}: styles.added: unknown colour `greenish`"
            )),
            "{e}"
        );
        let e = err("[styles]\nadditions = {}\n");
        assert!(e.contains("unknown style `additions`"), "{e}");
        let e = err("[styles]\nadded = { fg = \"red\", modifiers = [\"blink\"] }\n");
        assert!(e.contains("unknown modifier `blink`"), "{e}");
        let e = err("[styles\n");
        assert!(e.starts_with(&format!("invalid theme file {path}:")), "{e}");
        let missing = dir.path().join("nope.toml");
        let e = load_theme(missing.to_str(), ColorChoice::Auto, None, false).unwrap_err();
        assert!(e.to_string().starts_with("cannot read theme file"), "{e}");
        let e = load_theme(Some("solarized"), ColorChoice::Auto, None, false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown theme `solarized` (built-in: default, light, high-contrast, mono; or give a path to a .toml file)"
        );
    }
}

//! Colour for the command line (issue 14 item 4): on a terminal, states
//! (`never trusted`, `changed`, `(missing)`, ...), the signs of `+`/`-`/`~`
//! lines, `diff`'s verdicts and policy verdicts are coloured with the
//! theme's roles (the palette the interactive review uses), in every
//! command. With `--color=auto` (the default), a stream is coloured when
//! it is a terminal, unless `TERM=dumb` or `CLICOLOR=0`, or whatever it is
//! under `CLICOLOR_FORCE`; never under `NO_COLOR`. `--color=always|never`
//! overrides them all (`cli::app::main` decides; the variables are read through
//! `core::env::Env`).
//!
//! Style is attached where a line is built, from the data (issue 28 item
//! 2): a builder wraps one of this tool's own words with [`mark`] (or
//! [`styled`], the [`Styler`] core's builders take), which puts a marker
//! character before it and one after. Config-derived text never carries a
//! marker: markers are C0 controls, which every value is escaped of before
//! it is formatted (`cli::terminal::Values`). The one writer under
//! each stream (`cli::terminal::SafeWriter`) turns markers into
//! SGR sequences with its palette, or drops them without one.

use ratatui::style::{Color, Modifier, Style};

use crate::core::env::{Env, UserDir};
use crate::core::review::style::{Emphasis, Styler};
use crate::style::roles::role_of;
use crate::style::theme::{ColorChoice as ThemeColor, Role, Theme, load_theme};

pub const RESET: &str = "\x1b[0m";

/// The roles the command line uses; a role's marker is `START` plus its
/// index here.
const ROLES: [Role; 8] = [
    Role::Added,
    Role::Removed,
    Role::Changed,
    Role::Trusted,
    Role::Untrusted,
    Role::NoRequest,
    Role::Error,
    Role::Missing,
];

/// The first role's marker (DLE); the others follow it.
const START: u8 = 0x10;
/// The end of a styled word (SI).
const END: char = '\u{f}';

/// What a marker character means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    Start(Role),
    End,
}

/// The marker `c` is, if it is one.
pub fn marker(c: char) -> Option<Marker> {
    if c == END {
        return Some(Marker::End);
    }
    let i = (c as u32).checked_sub(u32::from(START))?;
    ROLES.get(i as usize).map(|r| Marker::Start(*r))
}

/// `text`, one of this tool's own words, marked to be styled as `role`
/// (a role the command line does not use: unmarked).
pub fn mark(role: Role, text: &str) -> String {
    match ROLES.iter().position(|r| *r == role) {
        Some(i) => format!("{}{text}{END}", char::from(START + i as u8)),
        None => text.to_string(),
    }
}

/// The [`Styler`] for core's builders: marks as [`mark`] does.
pub fn styled(e: Emphasis, text: &str) -> String {
    mark(role_of(e), text)
}

/// [`styled`] as a [`Styler`].
pub const STYLED: Styler<'static> = &styled;

/// The SGR sequence of each role used on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Palette {
    sgr: Vec<(Role, String)>,
}

impl Palette {
    /// The palette of `theme`; `None` when it styles nothing (mono keeps
    /// its bold and dim).
    pub fn from_theme(theme: &Theme) -> Option<Palette> {
        let sgr: Vec<(Role, String)> = ROLES
            .into_iter()
            .filter_map(|r| sgr(theme.style(r)).map(|s| (r, s)))
            .collect();
        (!sgr.is_empty()).then_some(Palette { sgr })
    }

    /// The palette for one stream when it is coloured (`cli::app::main`
    /// decides that from `--color`, the environment and the stream), from
    /// `--theme` (the default theme when the named one cannot be loaded:
    /// the interactive review reports that).
    pub fn for_stream(coloured: bool, theme: Option<&str>, env: &Env) -> Option<Palette> {
        if !coloured {
            return None;
        }
        let theme = load_theme(
            theme,
            ThemeColor::Always,
            env.user_dir(UserDir::Config).as_deref(),
            false,
        )
        .unwrap_or_default();
        Palette::from_theme(&theme)
    }

    /// The SGR sequence that starts `role`, when the theme styles it.
    pub fn code(&self, role: Role) -> Option<&str> {
        self.sgr
            .iter()
            .find(|(r, _)| *r == role)
            .map(|(_, s)| s.as_str())
    }
}

/// The SGR sequence of a style's foreground and modifiers (backgrounds are
/// for the interactive review's panes); `None` for a plain style.
fn sgr(style: Style) -> Option<String> {
    let mut codes: Vec<String> = Vec::new();
    let m = style.add_modifier;
    for (flag, code) in [
        (Modifier::BOLD, "1"),
        (Modifier::DIM, "2"),
        (Modifier::ITALIC, "3"),
        (Modifier::UNDERLINED, "4"),
        (Modifier::REVERSED, "7"),
        (Modifier::CROSSED_OUT, "9"),
    ] {
        if m.contains(flag) {
            codes.push(code.to_string());
        }
    }
    if let Some(fg) = style.fg {
        let c = match fg {
            Color::Reset => None,
            Color::Black => Some("30".to_string()),
            Color::Red => Some("31".into()),
            Color::Green => Some("32".into()),
            Color::Yellow => Some("33".into()),
            Color::Blue => Some("34".into()),
            Color::Magenta => Some("35".into()),
            Color::Cyan => Some("36".into()),
            Color::Gray => Some("37".into()),
            Color::DarkGray => Some("90".into()),
            Color::LightRed => Some("91".into()),
            Color::LightGreen => Some("92".into()),
            Color::LightYellow => Some("93".into()),
            Color::LightBlue => Some("94".into()),
            Color::LightMagenta => Some("95".into()),
            Color::LightCyan => Some("96".into()),
            Color::White => Some("97".into()),
            Color::Rgb(r, g, b) => Some(format!("38;2;{r};{g};{b}")),
            Color::Indexed(i) => Some(format!("38;5;{i}")),
        };
        codes.extend(c);
    }
    (!codes.is_empty()).then(|| format!("\x1b[{}m", codes.join(";")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_role_has_its_own_marker_and_back() {
        for role in ROLES {
            let marked = mark(role, "w");
            let mut chars = marked.chars();
            assert_eq!(marker(chars.next().unwrap()), Some(Marker::Start(role)));
            assert_eq!(chars.next(), Some('w'));
            assert_eq!(marker(chars.next().unwrap()), Some(Marker::End));
        }
        assert_eq!(mark(Role::Normal, "w"), "w");
        assert_eq!(marker('a'), None);
        assert_eq!(marker('\u{18}'), None);
        assert_eq!(marker('\n'), None);
    }

    #[test]
    fn the_default_and_mono_palettes() {
        let p = Palette::from_theme(&Theme::default()).unwrap();
        assert_eq!(p.code(Role::Untrusted), Some("\x1b[1;35m"));
        assert_eq!(p.code(Role::Added), Some("\x1b[32m"));
        // mono keeps emphasis, no colour.
        let mono = Palette::from_theme(&Theme::mono()).unwrap();
        assert_eq!(mono.code(Role::Untrusted), Some("\x1b[1m"));
    }
}

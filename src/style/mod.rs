//! The style both faces share: the theme ([`theme`]: roles named by what
//! text means, styles from `themes/*.toml` or a user file), which role
//! each meaning gets ([`roles`]), the ASCII fallback for the tool's own
//! decorations ([`glyphs`]), and the command line's painting ([`paint`]:
//! a word marked with its role where a line is built, turned into SGR
//! sequences by the theme's palette).
//!
//! It imports `core` (the states, verdicts and emphasis it gives a role)
//! and never `cli` or `tui`; `core` never imports it. Its one dependency
//! on a terminal crate is ratatui's `Style`/`Color`/`Modifier`, the value
//! a theme resolves to: the interactive review draws with it as it is,
//! and `paint` encodes its foreground and modifiers as SGR.

pub mod glyphs;
pub mod paint;
pub mod roles;
pub mod theme;

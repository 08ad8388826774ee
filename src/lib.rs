pub mod core;
pub mod tui;

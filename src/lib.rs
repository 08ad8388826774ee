pub mod cli;
pub mod core;
pub mod sanitize;
pub mod tui;

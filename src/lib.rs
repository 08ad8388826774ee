pub mod cli;
pub mod core;
pub mod tui;

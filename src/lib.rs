pub mod cli;
pub mod core;

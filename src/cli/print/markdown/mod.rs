//! Markdown for a pull-request comment.

pub mod diff;

//! `diff`'s result as markdown.

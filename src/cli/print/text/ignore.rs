//! `ignore`'s result as text.

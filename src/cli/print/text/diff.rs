//! `diff`'s result as text.

//! `list`'s result as text.

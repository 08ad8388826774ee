//! `inspect`'s result as text.

//! `hook`'s result as text.

//! `scan`'s result as text.

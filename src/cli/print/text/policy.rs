//! `policy`'s result as text.

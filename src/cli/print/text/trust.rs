//! `trust`'s result as text.

//! `status`'s result as text.

//! `check`'s result as text.

//! `diff`'s result as ci.

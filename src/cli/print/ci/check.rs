//! `check`'s result as ci.

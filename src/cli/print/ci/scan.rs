//! `scan`'s result as ci.

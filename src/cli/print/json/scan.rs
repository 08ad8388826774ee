//! `scan`'s result as json.

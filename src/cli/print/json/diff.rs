//! `diff`'s result as json.

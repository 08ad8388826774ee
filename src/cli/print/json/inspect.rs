//! `inspect`'s result as json.

//! `list`'s result as json.

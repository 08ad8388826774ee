//! `policy`'s result as json.

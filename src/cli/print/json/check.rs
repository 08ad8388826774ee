//! `check`'s result as json.

//! `trust`'s result as json.

//! `status`'s result as json.

//! `untrust`'s result as json.

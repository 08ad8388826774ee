//! `untrust`'s result as text.

//! The version a store entry trusted, as provenance looks for it in the
//! history: what the entry says of it, and which commit holds it.

/// What a store entry says of the version trusted: its block's SHA-256,
/// where each path scope led (the recorded targets, scope -> target) and
/// when it was trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trusted {
    pub sha256: String,
    pub targets: Vec<(String, String)>,
    pub at: String,
}

impl Trusted {
    /// What `entry` says of the version trusted.
    pub fn of(entry: &crate::core::store::StoredEntry) -> Trusted {
        Trusted {
            sha256: entry.sha256.to_hex(),
            targets: entry.target_pairs(),
            at: entry.trusted_at.to_string(),
        }
    }
}

/// Which commit holds the trusted version ([`super::content::reviewed`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TrustedVersion {
    /// The newest commit whose block hashes to the stored SHA-256 and
    /// whose links lead each recorded scope to its recorded target.
    Commit(String),
    /// None within the bound: counted by date, said as such.
    NotFound,
    /// A commit whose block hashes the same whose targets cannot be told
    /// from its tree (a link leading out of the repository, a path it does
    /// not hold): which commit is the trusted version is not said, and why.
    Unknown(String),
}

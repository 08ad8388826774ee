//! The four capabilities a permission key names (`allow-read`, `deny-net`,
//! ...): the lowest file of `config`, which the request and the scope rules
//! both build on.

/// A capability a permission key names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Capability {
    Read,
    Net,
    Ffi,
    Import,
}

impl Capability {
    /// In GocciaScript's declaration order, which its messages list.
    pub const ALL: [Capability; 4] = [
        Capability::Read,
        Capability::Net,
        Capability::Ffi,
        Capability::Import,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Capability::Read => "read",
            Capability::Net => "net",
            Capability::Ffi => "ffi",
            Capability::Import => "import",
        }
    }

    /// `allow-<cap>` or `deny-<cap>`.
    pub fn key(self, allow: bool) -> &'static str {
        match (allow, self) {
            (true, Capability::Read) => "allow-read",
            (true, Capability::Net) => "allow-net",
            (true, Capability::Ffi) => "allow-ffi",
            (true, Capability::Import) => "allow-import",
            (false, Capability::Read) => "deny-read",
            (false, Capability::Net) => "deny-net",
            (false, Capability::Ffi) => "deny-ffi",
            (false, Capability::Import) => "deny-import",
        }
    }

    /// Parses a permission key exactly (case-sensitive): `Some((allow, cap))`.
    pub fn parse_key(key: &str) -> Option<(bool, Capability)> {
        let (allow, name) = if let Some(name) = key.strip_prefix("allow-") {
            (true, name)
        } else {
            (false, key.strip_prefix("deny-")?)
        };
        let capability = Capability::ALL.into_iter().find(|c| c.name() == name)?;
        Some((allow, capability))
    }
}

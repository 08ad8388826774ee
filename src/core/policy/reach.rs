//! What a network request reaches, as a set the gate can compare: a union
//! of pieces, each a destination (host names, or a block of addresses) on
//! one port or on every port. `net` turns a config's `allow-net` value and
//! a rule's pattern into such a set; rules then ask two questions of it:
//! does a request's reach meet what a deny covers, and does it lie wholly
//! inside what a rule covers. How GocciaScript reads the values is written
//! down in docs/src/policy.md ("Net requests are judged by what they
//! reach").
//!
//! Addresses live in one 128-bit space where the IPv4 address `a.b.c.d` is
//! its IPv4-mapped IPv6 form `::ffff:a.b.c.d` (GocciaScript judges a mapped
//! address as the IPv4 address it names), so `169.254.169.254`,
//! `::ffff:a9fe:a9fe` and `0.0.0.0/0` compare by value.

use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};

/// Where IPv4 lives in the 128-bit space: `::ffff:0:0/96`.
const MAPPED: u128 = 0xffff << 32;

/// A CIDR block of the 128-bit space, host bits cleared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Block {
    pub net: u128,
    pub len: u8,
}

fn mask(len: u8) -> u128 {
    match len {
        0 => 0,
        n => !0u128 << (128 - u32::from(n.min(128))),
    }
}

impl Block {
    /// The block of `len` bits holding `addr` (host bits set are cleared:
    /// `10.1.2.3/8` is `10.0.0.0/8`).
    pub fn new(addr: u128, len: u8) -> Block {
        let len = len.min(128);
        Block {
            net: addr & mask(len),
            len,
        }
    }

    /// An IPv4 block, `len` 0 to 32.
    pub fn v4(addr: u32, len: u8) -> Block {
        Block::new(MAPPED | u128::from(addr), 96 + len.min(32))
    }

    /// Every address.
    pub const ALL: Block = Block { net: 0, len: 0 };

    pub fn contains(&self, other: &Block) -> bool {
        other.len >= self.len && other.net & mask(self.len) == self.net
    }

    /// Two CIDR blocks meet only when one holds the other.
    pub fn meet(&self, other: &Block) -> Option<Block> {
        if self.contains(other) {
            Some(*other)
        } else if other.contains(self) {
            Some(*self)
        } else {
            None
        }
    }

    /// The IPv4 block, when this block lies inside the IPv4 space.
    fn as_v4(&self) -> Option<(Ipv4Addr, u8)> {
        (self.len >= 96 && self.net >> 32 == 0xffff)
            .then(|| (Ipv4Addr::from(self.net as u32), self.len - 96))
    }

    /// The IPv4 blocks an IPv6 block reaches through the prefixes that
    /// embed an IPv4 host: IPv4-compatible `::/96`, NAT64 `64:ff9b::/96`
    /// (host in the last 32 bits) and 6to4 `2002::/16` (host in bits 16 to
    /// 48). A block holding a whole prefix reaches every IPv4 address.
    /// The unspecified `::` and loopback `::1` are not IPv4-compatible.
    pub fn embedded(&self) -> Vec<Block> {
        if Block::new(0, 127).contains(self) {
            return Vec::new();
        }
        const EMBEDDING: [(u128, u8, u32); 3] = [
            (0, 96, 0),
            (0x0064_ff9b << 96, 96, 0),
            (0x2002 << 112, 16, 80),
        ];
        let mut out = Vec::new();
        for (prefix, plen, shift) in EMBEDDING {
            let prefix = Block::new(prefix, plen);
            if self.contains(&prefix) {
                out.push(Block::v4(0, 0));
            } else if prefix.contains(self) {
                let host = (self.net >> shift) as u32;
                let len = (self.len - plen).min(32);
                out.push(Block::v4(host, len));
            }
        }
        out.retain(|b| !self.contains(b));
        out
    }

    /// Whether some private, loopback or link-local block holds this one
    /// (`certain`: only the ranges GocciaScript names as private, without
    /// "this network" `0.0.0.0/8` and the unspecified `::`).
    fn inside_private(&self, certain: bool) -> bool {
        private_blocks(certain).iter().any(|p| p.contains(self))
    }

    /// Whether the block holds any private address.
    pub fn touches_private(&self) -> bool {
        private_blocks(false).iter().any(|p| p.meet(self).is_some())
    }
}

impl fmt::Display for Block {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_v4() {
            Some((a, 32)) => write!(f, "{a}"),
            Some((a, len)) => write!(f, "{a}/{len}"),
            None if self.len == 128 => write!(f, "{}", Ipv6Addr::from(self.net)),
            None => write!(f, "{}/{}", Ipv6Addr::from(self.net), self.len),
        }
    }
}

/// IPv4 ranges GocciaScript treats as private: RFC 1918, CGNAT, loopback,
/// link-local, and (not certain) "this network" `0.0.0.0/8`.
const PRIVATE_V4: [(u32, u8, bool); 7] = [
    (0x0000_0000, 8, false),
    (0x0a00_0000, 8, true),
    (0x6440_0000, 10, true),
    (0x7f00_0000, 8, true),
    (0xa9fe_0000, 16, true),
    (0xac10_0000, 12, true),
    (0xc0a8_0000, 16, true),
];

/// Native IPv6 private space: loopback, ULA, link-local, and (not certain)
/// the unspecified address.
const PRIVATE_V6: [(u128, u8, bool); 4] = [
    (0, 128, false),
    (1, 128, true),
    (0xfc00 << 112, 7, true),
    (0xfe80 << 112, 10, true),
];

/// Every private block: the IPv4 ranges (and so their IPv4-mapped forms),
/// the native IPv6 ranges, and the IPv4 ranges embedded in the compatible,
/// NAT64 and 6to4 prefixes (private when the host they embed is).
pub fn private_blocks(certain: bool) -> Vec<Block> {
    let mut out = Vec::new();
    for (net, len, sure) in PRIVATE_V4 {
        if sure || !certain {
            out.push(Block::v4(net, len));
            let host = u128::from(net);
            out.push(Block::new(host, 96 + len));
            out.push(Block::new((0x0064_ff9b << 96) | host, 96 + len));
            out.push(Block::new((0x2002 << 112) | (host << 80), 16 + len));
        }
    }
    for (net, len, sure) in PRIVATE_V6 {
        if sure || !certain {
            out.push(Block::new(net, len));
        }
    }
    out
}

/// Which addresses a name (or an address block) stands for: GocciaScript
/// lets a host name through on its name, then judges the address it
/// resolves to: public unless `private` (or an address allow) names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Space {
    Any,
    Public,
    Private,
}

impl Space {
    fn meet(self, other: Space) -> Option<Space> {
        match (self, other) {
            (Space::Any, s) | (s, Space::Any) => Some(s),
            (a, b) if a == b => Some(a),
            _ => None,
        }
    }

    fn inside(self, outer: Space) -> bool {
        outer == Space::Any || self == outer
    }
}

/// Host names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Names {
    Every,
    Exact(String),
    /// Every name strictly below the domain.
    Below(String),
}

fn below(name: &str, domain: &str) -> bool {
    name.len() > domain.len()
        && name.ends_with(domain)
        && name.as_bytes()[name.len() - domain.len() - 1] == b'.'
}

impl Names {
    fn meet(&self, other: &Names) -> Option<Names> {
        match (self, other) {
            (Names::Every, n) | (n, Names::Every) => Some(n.clone()),
            (Names::Exact(a), Names::Exact(b)) => (a == b).then(|| self.clone()),
            (Names::Exact(a), Names::Below(d)) | (Names::Below(d), Names::Exact(a)) => {
                below(a, d).then(|| Names::Exact(a.clone()))
            }
            (Names::Below(a), Names::Below(b)) => {
                if a == b || below(a, b) {
                    Some(self.clone())
                } else if below(b, a) {
                    Some(other.clone())
                } else {
                    None
                }
            }
        }
    }

    fn inside(&self, outer: &Names) -> bool {
        match (self, outer) {
            (_, Names::Every) => true,
            (Names::Every, _) => false,
            (Names::Exact(a), Names::Exact(b)) => a == b,
            (Names::Exact(a), Names::Below(d)) => below(a, d),
            (Names::Below(a), Names::Below(d)) => a == d || below(a, d),
            (Names::Below(_), Names::Exact(_)) => false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Dest {
    /// Names, resolving into `space`.
    Names { names: Names, space: Space },
    /// Addresses of the block (`Space::Public`: its public ones only).
    Addrs { block: Block, space: Space },
}

impl Dest {
    fn meet(&self, other: &Dest) -> Option<Dest> {
        match (self, other) {
            (Dest::Names { names: a, space: s }, Dest::Names { names: b, space: t }) => {
                Some(Dest::Names {
                    names: a.meet(b)?,
                    space: s.meet(*t)?,
                })
            }
            (Dest::Addrs { block: a, space: s }, Dest::Addrs { block: b, space: t }) => {
                let block = a.meet(b)?;
                let space = s.meet(*t)?;
                match space {
                    Space::Public if block.inside_private(true) => None,
                    Space::Private if !block.touches_private() => None,
                    _ => Some(Dest::Addrs { block, space }),
                }
            }
            _ => None,
        }
    }

    fn inside(&self, outer: &Dest) -> bool {
        match (self, outer) {
            (Dest::Names { names: a, space: s }, Dest::Names { names: b, space: t }) => {
                a.inside(b) && s.inside(*t)
            }
            (Dest::Addrs { block: a, space: s }, Dest::Addrs { block: b, space: t }) => {
                b.contains(a) && s.inside(*t)
            }
            _ => false,
        }
    }
}

/// One destination on one port (`None`: every port).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Piece {
    pub dest: Dest,
    pub port: Option<u16>,
}

impl Piece {
    pub fn addrs(block: Block, port: Option<u16>) -> Piece {
        Piece {
            dest: Dest::Addrs {
                block,
                space: Space::Any,
            },
            port,
        }
    }

    pub fn names(names: Names, space: Space, port: Option<u16>) -> Piece {
        Piece {
            dest: Dest::Names { names, space },
            port,
        }
    }

    /// What both pieces reach, if anything.
    pub fn meet(&self, other: &Piece) -> Option<Piece> {
        let port = match (self.port, other.port) {
            (None, p) | (p, None) => p,
            (Some(a), Some(b)) if a == b => Some(a),
            _ => return None,
        };
        Some(Piece {
            dest: self.dest.meet(&other.dest)?,
            port,
        })
    }

    /// Whether everything this piece reaches, `outer` covers.
    pub fn inside(&self, outer: &Piece) -> bool {
        (outer.port.is_none() || outer.port == self.port) && self.dest.inside(&outer.dest)
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let port = |f: &mut fmt::Formatter<'_>, sep: &str| match self.port {
            Some(p) => write!(f, "{sep}{p}"),
            None => Ok(()),
        };
        match &self.dest {
            Dest::Names { names, space } => {
                match names {
                    Names::Every => write!(f, "*")?,
                    Names::Exact(n) => write!(f, "{n}")?,
                    Names::Below(d) => write!(f, "*.{d}")?,
                }
                port(f, ":")?;
                match space {
                    Space::Private => write!(f, " (at a private address)"),
                    _ => Ok(()),
                }
            }
            Dest::Addrs { block, space } => {
                if *block == Block::ALL && *space == Space::Public {
                    write!(f, "every public address")?;
                    return port(f, " port ");
                }
                match (block.as_v4(), block.len) {
                    (Some((_, 32)), _) => write!(f, "{block}")?,
                    (None, 128) if self.port.is_some() => write!(f, "[{block}]")?,
                    (None, 128) => return write!(f, "{block}"),
                    _ => {
                        write!(f, "{block}")?;
                        return port(f, " port ");
                    }
                }
                port(f, ":")
            }
        }
    }
}

/// What a request reaches: the union of its pieces, and how `policy
/// evaluate` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reach {
    pub pieces: Vec<Piece>,
    pub shown: Vec<String>,
}

impl Reach {
    /// A reach listed piece by piece.
    pub fn of(pieces: Vec<Piece>) -> Reach {
        let shown = pieces.iter().map(Piece::to_string).collect();
        Reach { pieces, shown }
    }

    /// The first part of this reach that `cover` also reaches.
    pub fn meet(&self, cover: &[Piece]) -> Option<Piece> {
        self.pieces
            .iter()
            .find_map(|p| cover.iter().find_map(|c| p.meet(c)))
    }

    /// Whether every piece lies inside one piece of `cover`.
    pub fn inside(&self, cover: &[Piece]) -> bool {
        self.pieces
            .iter()
            .all(|p| cover.iter().any(|c| p.inside(c)))
    }

    /// Whether any address it reaches is private, loopback or link-local.
    pub fn touches_private(&self) -> bool {
        self.pieces.iter().any(|p| match &p.dest {
            Dest::Addrs {
                block,
                space: Space::Any | Space::Private,
            } => block.touches_private(),
            Dest::Names { space, .. } => *space == Space::Private,
            Dest::Addrs { .. } => false,
        })
    }
}

#[cfg(test)]
#[path = "reach_tests.rs"]
mod tests;

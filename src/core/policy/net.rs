//! `allow-net` values and host rules read as GocciaScript reads a net
//! scope (its `TryParseNetScope`, described in docs/src/policy.md, "Net
//! requests are judged by what they reach"), into the set of destinations
//! they reach ([`Reach`]):
//!
//! - the text is trimmed (Pascal `Trim`) and ASCII-lower-cased; one
//!   trailing `.` of a host is dropped;
//! - `private` is every private, loopback and link-local address, and
//!   every host name resolving to one;
//! - `<ip>/<prefix>` is the block of that prefix, host bits cleared; the
//!   prefix and ports are read by Free Pascal's `TryStrToInt` (`0x16`,
//!   `$16`, `&26` and `%10110` are all 22); no port is every port;
//! - an IPv6 literal may be bracketed, fully expanded, embed an IPv4 tail
//!   or carry a `%zone` (the zone picks an interface, not another
//!   address); an IPv4-mapped address is the IPv4 address it names, and an
//!   address in the IPv4-compatible, NAT64 or 6to4 prefix also reaches the
//!   IPv4 host it embeds;
//! - a host name reaches that name on public addresses; a name the system
//!   resolver reads as an IPv4 address (`2130706433`, `0x7f.1`,
//!   `0177.0.0.1`) reaches that address too, and a dotted quad with a
//!   leading zero both the decimal address GocciaScript reads and the
//!   octal one a resolver reads;
//! - unscoped (`true`) reaches every name and every public address.

use std::net::Ipv6Addr;

use super::reach::{Block, Names, Piece, Reach, Space, private_blocks};
use crate::core::config::scope::is_valid_net_scope;
use crate::core::paths::{fpc_try_str_to_int, pascal_trim};

/// A port as GocciaScript reads it: `TryStrToInt`, 1 to 65535, no sign.
fn port_of(text: &str) -> Option<u16> {
    if text.contains(['+', '-']) {
        return None;
    }
    fpc_try_str_to_int(text)
        .and_then(|p| u16::try_from(p).ok())
        .filter(|&p| p != 0)
}

/// GocciaScript's strict dotted quad: four decimal parts of one to three
/// digits, each at most 255.
fn strict_v4(text: &str) -> Option<u32> {
    let parts: Vec<&str> = text.split('.').collect();
    if parts.len() != 4 {
        return None;
    }
    let mut v = 0u32;
    for p in parts {
        if !(1..=3).contains(&p.len()) || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: u32 = p.parse().ok()?;
        if n > 255 {
            return None;
        }
        v = v << 8 | n;
    }
    Some(v)
}

/// IPv4 as the system resolver (`inet_aton`) reads a host name: one to
/// four parts, each decimal, `0x` hex or `0`-prefixed octal, the last
/// filling the remaining bytes (`127.1`, `0x7f000001`, `2130706433`).
fn resolver_v4(s: &str) -> Option<u32> {
    let parts: Vec<&str> = s.split('.').collect();
    if parts.len() > 4 {
        return None;
    }
    let mut nums = Vec::with_capacity(parts.len());
    for p in &parts {
        let n = if let Some(h) = p.strip_prefix("0x") {
            match h {
                "" => 0,
                h => u64::from_str_radix(h, 16).ok()?,
            }
        } else if p.len() > 1 && p.starts_with('0') {
            u64::from_str_radix(&p[1..], 8).ok()?
        } else {
            p.parse::<u64>().ok()?
        };
        nums.push(n);
    }
    let (last, init) = nums.split_last()?;
    if init.iter().any(|&n| n > 255) || *last >= 1u64 << (8 * (5 - nums.len())) {
        return None;
    }
    let mut v = *last;
    for (i, &n) in init.iter().enumerate() {
        v += n << (8 * (3 - i));
    }
    u32::try_from(v).ok()
}

/// An IPv6 literal, brackets and a `%zone` stripped.
fn v6(text: &str) -> Option<u128> {
    let text = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .unwrap_or(text);
    let text = text.split_once('%').map_or(text, |(a, _zone)| a);
    if let Ok(a) = text.parse::<Ipv6Addr>() {
        return Some(a.into());
    }
    // An IPv4 tail GocciaScript reads as a strict dotted quad, leading
    // zeros and all (`::ffff:010.0.0.1` is 10.0.0.1), as two groups.
    let (head, tail) = text.rsplit_once(':')?;
    let v4 = strict_v4(tail)?;
    format!("{head}:{:x}:{:x}", v4 >> 16, v4 & 0xffff)
        .parse::<Ipv6Addr>()
        .ok()
        .map(u128::from)
}

/// An address literal (IPv4 strict, or IPv6) as a block of `len` bits
/// (`None`: a single address).
fn literal(text: &str, len: Option<&str>) -> Option<Block> {
    if let Some(a) = strict_v4(text) {
        let len = match len {
            Some(l) => u8::try_from(fpc_try_str_to_int(l)?)
                .ok()
                .filter(|&l| l <= 32)?,
            None => 32,
        };
        return Some(Block::v4(a, len));
    }
    let a = v6(text)?;
    let len = match len {
        Some(l) => u8::try_from(fpc_try_str_to_int(l)?)
            .ok()
            .filter(|&l| l <= 128)?,
        None => 128,
    };
    Some(Block::new(a, len))
}

/// `host`, `host:port`, `[v6]` or `[v6]:port`, as GocciaScript splits them;
/// `None` for a malformed port.
fn split_port(text: &str) -> Option<(&str, Option<u16>)> {
    if let Some(rest) = text.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        return match after {
            "" => Some((host, None)),
            after => Some((host, Some(port_of(after.strip_prefix(':')?)?))),
        };
    }
    if text.bytes().filter(|&b| b == b':').count() == 1 {
        let (host, port) = text.split_once(':')?;
        return Some((host, Some(port_of(port)?)));
    }
    Some((text, None))
}

/// One trailing dot names the same host.
fn strip_dot(host: &str) -> &str {
    match host.strip_suffix('.') {
        Some(h) if !h.is_empty() => h,
        _ => host,
    }
}

/// The addresses a block reaches: itself, and the IPv4 hosts it embeds.
fn with_embedded(block: Block, port: Option<u16>, out: &mut Vec<Piece>) {
    out.push(Piece::addrs(block, port));
    for e in block.embedded() {
        out.push(Piece::addrs(e, port));
    }
}

/// `private`: every private block, and every name on a private address.
fn private(port: Option<u16>) -> Vec<Piece> {
    let mut out: Vec<Piece> = private_blocks(false)
        .into_iter()
        .map(|b| Piece::addrs(b, port))
        .collect();
    out.push(Piece::names(Names::Every, Space::Private, port));
    out
}

/// What a config's `allow-net` value reaches (`None`: unscoped). `None`
/// when it cannot be determined, which includes every value GocciaScript
/// refuses.
pub fn value_reach(scope: Option<&str>) -> Option<Reach> {
    let Some(scope) = scope else {
        return Some(Reach::of(vec![
            Piece::names(Names::Every, Space::Public, None),
            Piece {
                dest: super::reach::Dest::Addrs {
                    block: Block::ALL,
                    space: Space::Public,
                },
                port: None,
            },
        ]));
    };
    if !is_valid_net_scope(scope) {
        return None;
    }
    let text = pascal_trim(scope).to_ascii_lowercase();
    if text == "private" {
        return Some(Reach {
            pieces: private(None),
            shown: vec!["private".into()],
        });
    }
    let mut pieces = Vec::new();
    if let Some((addr, len)) = text.split_once('/') {
        with_embedded(literal(addr, Some(len))?, None, &mut pieces);
        return Some(Reach::of(pieces));
    }
    let (host, port) = split_port(&text)?;
    let host = strip_dot(host);
    if let Some(block) = literal(host, None) {
        with_embedded(block, port, &mut pieces);
    } else if host.contains(':') {
        // An address literal GocciaScript accepts but not read here.
        return None;
    } else if let Some(domain) = host.strip_prefix("*.") {
        pieces.push(Piece::names(
            Names::Below(domain.into()),
            Space::Public,
            port,
        ));
    } else {
        pieces.push(Piece::names(Names::Exact(host.into()), Space::Public, port));
    }
    if let Some(a) = resolver_v4(host)
        && !pieces.contains(&Piece::addrs(Block::v4(a, 32), port))
    {
        pieces.push(Piece::addrs(Block::v4(a, 32), port));
    }
    Some(Reach::of(pieces))
}

/// Whether an `allow-net` value reaches private space (a value whose
/// reach cannot be determined is assumed to: erring towards the higher
/// risk class only asks for more review).
pub(super) fn reaches_private(scope: &str) -> bool {
    value_reach(Some(scope)).is_none_or(|r| r.touches_private())
}

/// How specific a host pattern is: (form, labels or prefix length, port).
pub type Rank = (u32, u32, u32);

/// What a host rule's pattern covers, and how specific it is (higher
/// wins): `*` (every name and address), `private`, `*.domain`, an address
/// block, an exact name or address; a port counts above none. The error
/// says why the pattern could never match.
pub fn pattern_cover(pattern: &str) -> Result<(Vec<Piece>, Rank), String> {
    let text = pattern.to_ascii_lowercase();
    if text == "private" {
        return Ok((private(None), (1, 0, 0)));
    }
    if let Some((addr, len)) = text.split_once('/') {
        let block = literal(addr, Some(len))
            .ok_or_else(|| format!("{pattern:?} is not an address range"))?;
        return Ok((
            vec![Piece::addrs(block, None)],
            (3, u32::from(block.len), 0),
        ));
    }
    let (host, port) = pattern_port(&text)?;
    let host = strip_dot(host);
    if host.is_empty() {
        return Err("the host is empty".into());
    }
    let rank_port = u32::from(port.is_some());
    if host == "*" {
        let cover = vec![
            Piece::names(Names::Every, Space::Any, port),
            Piece::addrs(Block::ALL, port),
        ];
        return Ok((cover, (0, 0, rank_port)));
    }
    if let Some(block) = literal(host, None) {
        return Ok((
            vec![Piece::addrs(block, port)],
            (3, u32::from(block.len), rank_port),
        ));
    }
    let (names, name, rank) = match host.strip_prefix("*.") {
        Some(d) => (Names::Below(d.into()), d, 2),
        None => (Names::Exact(host.into()), host, 4),
    };
    check_name(name)?;
    let mut cover = vec![Piece::names(names, Space::Any, port)];
    if rank == 4
        && let Some(a) = resolver_v4(name)
    {
        cover.push(Piece::addrs(Block::v4(a, 32), port));
    }
    Ok((cover, (rank, name.split('.').count() as u32, rank_port)))
}

/// A pattern's port, read as a config's is.
fn pattern_port(text: &str) -> Result<(&str, Option<u16>), String> {
    let (host, port) = match text.strip_prefix('[') {
        Some(rest) => match rest.split_once(']') {
            Some((h, "")) => return Ok((h, None)),
            Some((h, after)) => match after.strip_prefix(':') {
                Some(p) => (h, p),
                None => return Err(format!("{after:?} follows the address")),
            },
            None => return Err("the `[` is not closed".into()),
        },
        None => match text.split_once(':') {
            Some((h, p)) if !p.contains(':') => (h, p),
            _ => return Ok((text, None)),
        },
    };
    let n = fpc_try_str_to_int(port).ok_or_else(|| format!("port {port:?} is not a number"))?;
    match port_of(port) {
        Some(p) => Ok((host, Some(p))),
        None => Err(format!("port {n} is not 1 to 65535")),
    }
}

fn check_name(name: &str) -> Result<(), String> {
    if name.contains('*') {
        return Err("a wildcard stands only for whole leading labels (\"*.example.com\")".into());
    }
    if name.split('.').any(str::is_empty) {
        return Err("a host has no empty labels".into());
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'))
    {
        return Err("a host holds only letters, digits, `-`, `_` and `.`".into());
    }
    Ok(())
}

#[cfg(test)]
#[path = "net_tests.rs"]
mod tests;

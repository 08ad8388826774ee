//! Whether an `allow-net` scope reaches private space. GocciaScript refuses
//! private destinations unless `private` or an IP/CIDR allow names them
//! (goccia-permissions.md, "net scopes and private ranges"); such an allow
//! is a bigger grant than a public host, so it is its own request kind.

use std::net::{Ipv4Addr, Ipv6Addr};

/// IPv4 ranges GocciaScript treats as private: this network, RFC 1918,
/// CGNAT, loopback, link-local.
const PRIVATE_V4: [(u32, u32); 7] = [
    (0x0000_0000, 8),  // 0.0.0.0/8
    (0x0a00_0000, 8),  // 10.0.0.0/8
    (0x6440_0000, 10), // 100.64.0.0/10
    (0x7f00_0000, 8),  // 127.0.0.0/8
    (0xa9fe_0000, 16), // 169.254.0.0/16
    (0xac10_0000, 12), // 172.16.0.0/12
    (0xc0a8_0000, 16), // 192.168.0.0/16
];

/// Native IPv6 private space: unspecified, loopback, ULA, link-local.
const PRIVATE_V6: [(u128, u32); 4] = [(0, 128), (1, 128), (0xfc00 << 112, 7), (0xfe80 << 112, 10)];

/// IPv6 prefixes that embed an IPv4 host, with the bit offset of the host:
/// IPv4-mapped `::ffff:0:0/96`, IPv4-compatible `::/96`, NAT64
/// `64:ff9b::/96` and 6to4 `2002::/16`. Such an address is private when the
/// host it embeds is.
const EMBEDDING_V6: [(u128, u32); 4] = [
    (0xffff << 32, 96),
    (0, 96),
    (0x0064_ff9b << 96, 96),
    (0x2002 << 112, 16),
];

fn overlaps(a: u128, a_len: u32, b: u128, b_len: u32, bits: u32) -> bool {
    let len = a_len.min(b_len);
    if len == 0 {
        return true;
    }
    let mask = !0u128 << (bits - len);
    let keep = if bits == 128 {
        !0u128
    } else {
        (1u128 << bits) - 1
    };
    (a & mask & keep) == (b & mask & keep)
}

fn v4_private(net: u32, len: u32) -> bool {
    PRIVATE_V4
        .iter()
        .any(|&(p, pl)| overlaps(net.into(), len, p.into(), pl, 32))
}

fn v6_private(net: u128, len: u32) -> bool {
    if PRIVATE_V6
        .iter()
        .any(|&(p, pl)| overlaps(net, len, p, pl, 128))
    {
        return true;
    }
    EMBEDDING_V6.iter().any(|&(prefix, plen)| {
        PRIVATE_V4.iter().any(|&(p4, l4)| {
            let shift = 128 - plen - 32;
            let embedded = prefix | (u128::from(p4) << shift);
            overlaps(net, len, embedded, plen + l4, 128)
        })
    })
}

/// IPv4 as a URL host parser reads it: one to four parts, each decimal,
/// `0x` hex or `0`-prefixed octal, the last filling the remaining bytes
/// (`127.1`, `0x7f000001`, `2130706433`), since a URL spelled that way
/// reaches the same address.
fn parse_v4(s: &str) -> Option<u32> {
    if let Ok(a) = s.parse::<Ipv4Addr>() {
        return Some(a.into());
    }
    let parts: Vec<&str> = s.split('.').collect();
    if parts.len() > 4 {
        return None;
    }
    let mut nums = Vec::with_capacity(parts.len());
    for p in &parts {
        let n = if let Some(h) = p.strip_prefix("0x").or_else(|| p.strip_prefix("0X")) {
            if h.is_empty() {
                0
            } else {
                u64::from_str_radix(h, 16).ok()?
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

pub(super) fn reaches_private(scope: &str) -> bool {
    let s = scope.trim();
    if s.eq_ignore_ascii_case("private") {
        return true;
    }
    let (addr, prefix) = match s.split_once('/') {
        Some((a, p)) => match p.parse::<u32>() {
            Ok(n) => (a, Some(n)),
            // A range we cannot read is assumed to reach private space:
            // erring towards the higher risk class only asks for more review.
            Err(_) => return true,
        },
        None => (s, None),
    };
    let addr = addr.strip_suffix('.').unwrap_or(addr);
    // `[v6]`, `[v6]:port`, bare v6, `v4:port`, `v4`.
    let (host, bracketed) = match addr.strip_prefix('[') {
        Some(rest) => match rest.split_once(']') {
            Some((h, _port)) => (h, true),
            None => return prefix.is_some(),
        },
        None => (addr, false),
    };
    if bracketed || host.matches(':').count() > 1 {
        return match host.parse::<Ipv6Addr>() {
            Ok(a) => match prefix {
                Some(n) if n > 128 => true,
                n => v6_private(a.into(), n.unwrap_or(128)),
            },
            Err(_) => prefix.is_some(),
        };
    }
    let host = host.split_once(':').map_or(host, |(h, _port)| h);
    let host = host.strip_suffix('.').unwrap_or(host);
    match parse_v4(host) {
        Some(a) => match prefix {
            Some(n) if n > 32 => true,
            n => v4_private(a, n.unwrap_or(32)),
        },
        // A host name: judged by its resolved address at run time, not here.
        None => prefix.is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::reaches_private as p;

    #[test]
    fn private_keyword_and_host_names() {
        assert!(p("private"));
        assert!(!p("example.com"));
        assert!(!p("api.example.com:8443"));
        assert!(!p("*.example.com"));
        assert!(!p("localhost"));
    }

    #[test]
    fn ipv4_literals() {
        for s in [
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "127.0.0.1",
            "127.0.0.1:18765",
            "127.0.0.1.",
            "169.254.169.254",
            "100.64.0.1",
            "100.127.255.255",
            "0.0.0.0",
            "0.1.2.3",
            "127.1",
            "2130706433",
            "0x7f000001",
        ] {
            assert!(p(s), "{s}");
        }
        for s in [
            "8.8.8.8",
            "172.32.0.1",
            "172.15.255.255",
            "100.128.0.1",
            "192.169.0.1",
            "203.0.113.7:80",
            "1.0.0.0",
        ] {
            assert!(!p(s), "{s}");
        }
    }

    #[test]
    fn ipv4_ranges_overlap() {
        for s in [
            "0.0.0.0/0",
            "10.0.0.0/8",
            "10.5.0.0/16",
            "8.0.0.0/6",
            "100.0.0.0/8",
            "169.254.169.254/32",
            "192.0.0.0/2",
        ] {
            assert!(p(s), "{s}");
        }
        for s in [
            "8.8.8.0/24",
            "203.0.113.0/24",
            "11.0.0.0/8",
            "100.128.0.0/9",
        ] {
            assert!(!p(s), "{s}");
        }
    }

    #[test]
    fn ipv6_literals_and_ranges() {
        for s in [
            "::1",
            "[::1]",
            "[::1]:8080",
            "::",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "febf::1",
            "::ffff:10.0.0.1",
            "[::ffff:169.254.169.254]:80",
            "::ffff:a9fe:a9fe",
            "::127.0.0.1",
            "64:ff9b::a00:5",
            "2002:a00:5::1",
            "::/0",
            "fc00::/7",
            "fe80::/10",
            "2000::/3",
            "::ffff:0:0/96",
            "2002::/16",
        ] {
            assert!(p(s), "{s}");
        }
        for s in [
            "2001:db8::1",
            "[2001:db8::1]:8080",
            "2001:db8::/32",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
            "fec0::1",
        ] {
            assert!(!p(s), "{s}");
        }
    }

    #[test]
    fn unreadable_ranges_count_as_private() {
        assert!(p("10.0.0.0/x"));
        assert!(p("1.2.3.4/33"));
        assert!(p("[::1/8"));
    }
}

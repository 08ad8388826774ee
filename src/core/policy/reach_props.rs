//! The property of issue 39: a request whose reach meets a deny is never
//! ALLOWED. Requests are generated from what they mean (an address and its
//! prefix, a name, a port) and then spelled in one of the ways GocciaScript
//! accepts (IPv4-mapped, hex groups, fully expanded, a zone id, brackets, a
//! trailing dot, upper case, an integer host, NAT64; ports in hex, octal,
//! binary or with a leading zero); whether the request meets the deny is
//! decided here from the meaning alone, independently of the parser.

use std::net::{Ipv4Addr, Ipv6Addr};

use proptest::prelude::*;

use crate::core::policy::gate::operation_for_value;
use crate::core::policy::test_support::{env_at, policy};
use crate::core::policy::{RequestKind, Verdict, evaluate_operation};

const V4: [&str; 6] = [
    "169.254.169.254",
    "10.0.0.5",
    "8.8.8.8",
    "203.0.113.9",
    "127.0.0.1",
    "192.168.1.1",
];
const V6: [&str; 3] = ["::1", "fe80::1", "2001:db8::1"];
const NAMES: [&str; 4] = [
    "h.example.org",
    "a.b.example.org",
    "example.org",
    "other.net",
];
const DOMAINS: [&str; 2] = ["example.org", "b.example.org"];
const PORTS: [u16; 3] = [22, 80, 443];

/// The private blocks, written out here as GocciaScript's documentation
/// names them (IPv4 in its mapped form).
const PRIVATE: [(&str, u8); 9] = [
    ("::ffff:10.0.0.0", 104),
    ("::ffff:172.16.0.0", 108),
    ("::ffff:192.168.0.0", 112),
    ("::ffff:127.0.0.0", 104),
    ("::ffff:169.254.0.0", 112),
    ("::ffff:100.64.0.0", 106),
    ("::1", 128),
    ("fe80::", 10),
    ("fc00::", 7),
];

/// What a value or pattern stands for.
#[derive(Debug, Clone)]
enum Sem {
    Addrs(u128, u8),
    Name(String),
    Below(String),
    /// Every name: resolving anywhere (a pattern's `*`), or only to a
    /// private address (`private`).
    Names {
        private: bool,
    },
}

fn mapped(a: &str) -> u128 {
    u128::from(a.parse::<Ipv4Addr>().unwrap().to_ipv6_mapped())
}

fn v6(a: &str) -> u128 {
    u128::from(a.parse::<Ipv6Addr>().unwrap())
}

fn holds(net: u128, len: u8, addr: u128) -> bool {
    len == 0 || (net ^ addr) >> (128 - u32::from(len)) == 0
}

fn under(name: &str, domain: &str) -> bool {
    name.ends_with(&format!(".{domain}"))
}

/// Whether a request piece meets a deny piece; request names resolve to
/// public addresses only, a deny's names anywhere.
fn meets(req: &Sem, deny: &Sem) -> bool {
    match (req, deny) {
        (Sem::Addrs(a, la), Sem::Addrs(b, lb)) => holds(*a, *la, *b) || holds(*b, *lb, *a),
        (Sem::Names { .. }, Sem::Names { .. }) => true,
        (Sem::Names { .. }, Sem::Name(_) | Sem::Below(_)) => true,
        (Sem::Name(_) | Sem::Below(_), Sem::Names { private }) => !private,
        (Sem::Name(a), Sem::Name(b)) => a == b,
        (Sem::Name(a), Sem::Below(d)) | (Sem::Below(d), Sem::Name(a)) => under(a, d),
        (Sem::Below(a), Sem::Below(b)) => a == b || under(a, b) || under(b, a),
        _ => false,
    }
}

fn private_sem() -> Vec<Sem> {
    let mut out: Vec<Sem> = PRIVATE.iter().map(|(a, l)| Sem::Addrs(v6(a), *l)).collect();
    out.push(Sem::Names { private: true });
    out
}

fn port_text(port: u16, style: u8) -> String {
    match style {
        0 => port.to_string(),
        1 => format!("0x{port:x}"),
        2 => format!("${port:X}"),
        3 => format!("&{port:o}"),
        4 => format!("%{port:b}"),
        _ => format!("0{port}"),
    }
}

/// A host spelled with an optional port: brackets around IPv6.
fn with_port(host: &str, port: Option<(u16, u8)>) -> String {
    match port {
        None => host.to_string(),
        Some((p, s)) if host.contains(':') => format!("[{host}]:{}", port_text(p, s)),
        Some((p, s)) => format!("{host}:{}", port_text(p, s)),
    }
}

/// A generated request: its spelling and what it reaches.
#[derive(Debug, Clone)]
struct Request {
    text: String,
    sem: Vec<Sem>,
    port: Option<u16>,
    /// Whether the model may be stricter than this oracle (a range holding
    /// a prefix that embeds IPv4, or this-network space).
    wide: bool,
}

fn v4_request(i: usize, prefix: Option<u8>, style: u8, port: Option<(u16, u8)>) -> Request {
    let a = V4[i];
    let n = mapped(a);
    let len = prefix.map_or(128, |p| 96 + p);
    let block = Sem::Addrs(n, len);
    let port = if prefix.is_some() { None } else { port };
    let p = |base: u8| prefix.map_or(String::new(), |p| format!("/{}", base + p));
    let octets = a.parse::<Ipv4Addr>().unwrap().octets();
    let hex = format!(
        "{:x}:{:x}",
        u16::from_be_bytes([octets[0], octets[1]]),
        u16::from_be_bytes([octets[2], octets[3]])
    );
    let (host, sem) = match (style, prefix) {
        (1, _) => (format!("::ffff:{a}{}", p(96)), vec![block]),
        (2, _) => (format!("::FFFF:{hex}{}", p(96)), vec![block]),
        (3, _) => (format!("::ffff:{a}%eth0{}", p(96)), vec![block]),
        (4, None) => (
            u32::from(a.parse::<Ipv4Addr>().unwrap()).to_string(),
            vec![
                Sem::Name(u32::from(a.parse::<Ipv4Addr>().unwrap()).to_string()),
                block,
            ],
        ),
        (5, _) => (
            format!("64:ff9b::{hex}{}", p(96)),
            vec![Sem::Addrs(v6(&format!("64:ff9b::{hex}")), len), block],
        ),
        (6, None) => (format!("{a}."), vec![block]),
        _ => (format!("{a}{}", p(0)), vec![block]),
    };
    Request {
        text: with_port(&host, port),
        sem,
        port: port.map(|p| p.0),
        wide: prefix.is_some_and(|p| p < 8),
    }
}

fn v6_request(i: usize, prefix: Option<u8>, style: u8, port: Option<(u16, u8)>) -> Request {
    let a: Ipv6Addr = V6[i].parse().unwrap();
    let port = if prefix.is_some() { None } else { port };
    let host = match style {
        0 => a.to_string(),
        1 => a
            .segments()
            .iter()
            .map(|s| format!("{s:04x}"))
            .collect::<Vec<_>>()
            .join(":"),
        2 => a.to_string().to_uppercase(),
        _ => format!("{a}%lo"),
    };
    let host = host + &prefix.map_or(String::new(), |p| format!("/{p}"));
    Request {
        text: with_port(&host, port),
        sem: vec![Sem::Addrs(u128::from(a), prefix.unwrap_or(128))],
        port: port.map(|p| p.0),
        // A block in ::/96 (bar :: and ::1) is IPv4-compatible, which the
        // model also reads as the IPv4 block it embeds.
        wide: prefix.is_some_and(|p| p < 97 || (V6[i] == "::1" && p < 127)),
    }
}

fn name_request(name: String, wild: bool, style: u8, port: Option<(u16, u8)>) -> Request {
    let mut text = if wild {
        format!("*.{name}")
    } else {
        name.clone()
    };
    if style & 1 == 1 {
        text = text.to_uppercase();
    }
    if style & 2 == 2 {
        text.push('.');
    }
    Request {
        text: with_port(&text, port),
        sem: vec![if wild {
            Sem::Below(name)
        } else {
            Sem::Name(name)
        }],
        port: port.map(|p| p.0),
        wide: false,
    }
}

fn port() -> impl Strategy<Value = Option<(u16, u8)>> {
    proptest::option::of((proptest::sample::select(&PORTS[..]), 0u8..6))
}

fn prefix(max: u8) -> impl Strategy<Value = Option<u8>> {
    proptest::option::of(prop_oneof![Just(0u8), Just(8), Just(16), Just(24), 0..=max])
}

fn request() -> impl Strategy<Value = Request> {
    prop_oneof![
        4 => (0..V4.len(), prefix(32), 0u8..8, port())
            .prop_map(|(i, p, s, port)| v4_request(i, p, s, port)),
        2 => (0..V6.len(), prefix(128), 0u8..4, port())
            .prop_map(|(i, p, s, port)| v6_request(i, p, s, port)),
        3 => (proptest::sample::select(&NAMES[..]), 0u8..4, port())
            .prop_map(|(n, s, port)| name_request(n.into(), false, s, port)),
        1 => (proptest::sample::select(&DOMAINS[..]), 0u8..4, port())
            .prop_map(|(d, s, port)| name_request(d.into(), true, s, port)),
        1 => Just(Request { text: "private".into(), sem: private_sem(), port: None, wide: true }),
    ]
}

/// A deny pattern: its text, what it covers and its port.
fn deny() -> impl Strategy<Value = (String, Vec<Sem>, Option<u16>)> {
    let port = proptest::option::of(proptest::sample::select(&PORTS[..]));
    prop_oneof![
        3 => (0..V4.len(), prefix(32), port.clone()).prop_map(|(i, p, port)| match p {
            Some(p) => (format!("{}/{p}", V4[i]), vec![Sem::Addrs(mapped(V4[i]), 96 + p)], None),
            None => (with_port(V4[i], port.map(|p| (p, 0))), vec![Sem::Addrs(mapped(V4[i]), 128)], port),
        }),
        1 => (0..V6.len(), port.clone()).prop_map(|(i, port)| {
            (with_port(V6[i], port.map(|p| (p, 0))), vec![Sem::Addrs(v6(V6[i]), 128)], port)
        }),
        2 => (proptest::sample::select(&NAMES[..]), port.clone()).prop_map(|(n, port)| {
            (with_port(n, port.map(|p| (p, 0))), vec![Sem::Name(n.into())], port)
        }),
        1 => (proptest::sample::select(&DOMAINS[..]), port.clone()).prop_map(|(d, port)| {
            (with_port(&format!("*.{d}"), port.map(|p| (p, 0))), vec![Sem::Below(d.into())], port)
        }),
        1 => port.clone().prop_map(|port| {
            let all = vec![Sem::Names { private: false }, Sem::Addrs(0, 0)];
            (with_port("*", port.map(|p| (p, 0))), all, port)
        }),
        1 => Just(("private".to_string(), private_sem(), None)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_request_reaching_a_deny_is_never_allowed(
        req in request(),
        (pattern, cover, deny_port) in deny(),
        deny_private in any::<bool>(),
    ) {
        let env = env_at("/w", "/h");
        let deny_kind = if deny_private { "allow-net-private" } else { "allow-net" };
        let mut text = r#"{"grants": {"READ_ONLY": "allow"}, "risk_to_level": {"R0": "READ_ONLY"},
               "rules": { "allow-net": {"*": "R0"}, "allow-net-private": {"*": "R0"} } }"#
            .to_string();
        // The deny joins its kind's rules (`*` for `*` itself).
        let key = format!("\"{deny_kind}\": {{\"*\": \"R0\"");
        let entry = format!("\"{deny_kind}\": {{{}: \"deny\"", serde_json::to_string(&pattern).unwrap());
        if pattern == "*" {
            text = text.replace(&key, &entry);
        } else {
            text = text.replace(&key, &format!("{entry}, \"*\": \"R0\""));
        }
        let policy = policy(&text, &env);
        let op = operation_for_value(RequestKind::AllowNet, &req.text, &env)
            .map_err(|e| TestCaseError::fail(format!("{}: {e}", req.text)))?;
        let decision = evaluate_operation(&policy, &op, &env);
        let ports_meet = req.port.is_none() || deny_port.is_none() || req.port == deny_port;
        let reaches = ports_meet && req.sem.iter().any(|r| cover.iter().any(|d| meets(r, d)));
        if reaches {
            prop_assert_ne!(decision.verdict, Verdict::Allowed,
                "{} reaches deny {} ({}): {:?}", req.text, pattern, deny_kind, decision);
        } else if !req.wide {
            // And nothing else is denied: `*` at R0 allows the rest.
            prop_assert_eq!(decision.verdict, Verdict::Allowed,
                "{} misses deny {} ({}): {:?}", req.text, pattern, deny_kind, decision);
        }
    }
}

/// Spellings of one IPv4 target (plain, mapped, mapped in hex, with a zone
/// id, a trailing dot) or of one IPv6 target (compressed, expanded, upper
/// case, zone id), with one port written two ways.
fn same_target_pair() -> impl Strategy<Value = (Request, Request)> {
    let v4_style = proptest::sample::select(&[0u8, 1, 2, 3, 6][..]);
    prop_oneof![
        (
            0..V4.len(),
            v4_style.clone(),
            v4_style,
            proptest::option::of((proptest::sample::select(&PORTS[..]), 0u8..6, 0u8..6))
        )
            .prop_map(|(i, a, b, port)| (
                v4_request(i, None, a, port.map(|(p, s, _)| (p, s))),
                v4_request(i, None, b, port.map(|(p, _, t)| (p, t))),
            )),
        (
            0..V6.len(),
            0u8..4,
            0u8..4,
            proptest::option::of((proptest::sample::select(&PORTS[..]), 0u8..6, 0u8..6))
        )
            .prop_map(|(i, a, b, port)| (
                v6_request(i, None, a, port.map(|(p, s, _)| (p, s))),
                v6_request(i, None, b, port.map(|(p, _, t)| (p, t))),
            )),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn two_spellings_of_one_target_get_one_verdict(
        (a, b) in same_target_pair(),
        (pattern, _, _) in deny(),
        outcome in proptest::sample::select(&["deny", "R0", "needs_auth"][..]),
    ) {
        let env = env_at("/w", "/h");
        let text = format!(
            r#"{{"grants": {{"READ_ONLY": "allow", "EXTERNAL_EFFECT": "needs_auth", "DESTRUCTIVE": "needs_auth"}},
                "risk_to_level": {{"R0": "READ_ONLY", "R2": "EXTERNAL_EFFECT", "R3": "DESTRUCTIVE"}},
                "rules": {{ "allow-net": {{{p}: "{outcome}"}}, "allow-net-private": {{{p}: "{outcome}"}} }} }}"#,
            p = serde_json::to_string(&pattern).unwrap()
        );
        let policy = policy(&text, &env);
        let judge = |r: &Request| {
            let op = operation_for_value(RequestKind::AllowNet, &r.text, &env).unwrap();
            let d = evaluate_operation(&policy, &op, &env);
            (op.kind, d.verdict, d.risk, d.rule)
        };
        prop_assert_eq!(judge(&a), judge(&b), "{} vs {}", a.text, b.text);
    }
}

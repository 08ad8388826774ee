//! The scope validators: any text is judged without panicking, the
//! judgement ignores what GocciaScript ignores (surrounding blanks, ASCII
//! case), a resolved path scope is always absolute and valid, normalizing
//! twice changes nothing, and `TryStrToInt` agrees with Rust on plain
//! decimals.

use goccia_trust::core::config::block::normalize_scope;
use goccia_trust::core::config::request::Capability;
use goccia_trust::core::config::scope::{
    is_valid_import_scope, is_valid_net_scope, is_valid_scope, resolve_scope,
};
use goccia_trust::core::env::Env;
use goccia_trust::core::paths::fpc_try_str_to_int;
use proptest::prelude::*;

use crate::harness::{self, bounded};

const CAPABILITIES: [Capability; 4] = [
    Capability::Read,
    Capability::Net,
    Capability::Ffi,
    Capability::Import,
];

fn env() -> Env {
    Env {
        cwd: "/work/dir".into(),
        home: "/home/u".into(),
        xdg_config_home: String::new(),
        xdg_state_home: String::new(),
    }
}

/// Scope-shaped text: hosts, ports, CIDRs, IPv6, providers, paths, and
/// noise.
fn scope() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9*.-]{0,12}(:[-+ $%&x0-9a-fA-F]{0,7})?",
        "[0-9]{1,3}(\\.[0-9]{1,3}){0,4}(/[-+0-9x$]{0,4})?",
        "\\[[0-9a-fA-F:.]{0,20}\\](:[0-9]{0,6})?",
        "(node_modules|NODE_MODULES|github|GitHub)[=:/]{0,2}[a-zA-Z0-9._/~-]{0,10}",
        "[ \t]{0,2}[./~a-z]{0,10}[ \t]{0,2}",
        harness::text(24),
    ]
}

proptest! {
    #![proptest_config(harness::config(512))]

    #[test]
    fn validators_judge_any_text_as_goccia_reads_it(s in scope(), pad in "[ \t\r\n]{0,3}") {
        let (net, import) = bounded("validators", {
            let s = s.clone();
            move || (is_valid_net_scope(&s), is_valid_import_scope(&s))
        });
        // Surrounding blanks and ASCII case are not part of a scope.
        let padded = format!("{pad}{s}{pad}");
        prop_assert_eq!(is_valid_net_scope(&padded), net);
        prop_assert_eq!(is_valid_import_scope(&padded), import);
        prop_assert_eq!(is_valid_net_scope(&s.to_ascii_uppercase()), net);
        prop_assert_eq!(is_valid_scope(Capability::Net, &s), net);
        prop_assert_eq!(is_valid_scope(Capability::Import, &s), import);
    }

    #[test]
    fn resolved_scopes_are_valid_paths_and_normalize_once(
        written in scope(),
        dir in prop_oneof![Just(String::new()), "/[a-z/]{0,12}", "[a-z~][a-z/]{0,8}"],
    ) {
        let env = env();
        for capability in CAPABILITIES {
            let resolved = resolve_scope(capability, &written, &dir, &env);
            if matches!(capability, Capability::Read | Capability::Ffi) {
                prop_assert!(resolved.starts_with('/'), "{} -> {}", written, resolved);
                prop_assert!(is_valid_scope(capability, &resolved));
            }
            let once = normalize_scope(capability, &resolved);
            prop_assert_eq!(normalize_scope(capability, &once), once.clone());
        }
    }

    #[test]
    fn try_str_to_int_agrees_with_rust_on_decimals(
        lead in "[ \t]{0,2}",
        sign in "[+-]?",
        digits in "[0-9]{1,9}",
    ) {
        let text = format!("{lead}{sign}{digits}");
        let expected: i32 = format!("{sign}{digits}").parse().unwrap();
        prop_assert_eq!(fpc_try_str_to_int(&text), Some(expected));
    }

    #[test]
    fn try_str_to_int_takes_any_text(s in harness::text(300)) {
        let long = s.len() > 255;
        let got = bounded("fpc_try_str_to_int", move || fpc_try_str_to_int(&s));
        if long {
            prop_assert_eq!(got, None);
        }
    }
}

/// Each dotted part without its leading zeros: there GocciaScript's dotted
/// quad (one to three digits) and Rust's (no leading zeros) differ on
/// purpose.
fn without_leading_zeros(s: &str) -> String {
    s.split('.')
        .map(|p| match p.trim_start_matches('0') {
            "" if !p.is_empty() => "0",
            t => t,
        })
        .collect::<Vec<_>>()
        .join(".")
}

proptest! {
    #![proptest_config(harness::config(512))]

    /// An IPv6 literal in brackets is valid exactly when the standard
    /// library reads it as one (RFC 4291 text, `::` at most once).
    #[test]
    fn ipv6_literals_agree_with_the_standard_library(
        s in "[0-9a-fA-F:]{0,12}:[0-9a-fA-F:]{0,24}(:[0-9]{1,3}(\\.[0-9]{1,3}){1,3})?",
    ) {
        let (head, tail) = s.rsplit_once(':').unwrap();
        let s = format!("{head}:{}", without_leading_zeros(tail));
        let std_ok = s.parse::<std::net::Ipv6Addr>().is_ok();
        prop_assert_eq!(is_valid_net_scope(&format!("[{s}]")), std_ok, "[{}]", s);
        prop_assert_eq!(is_valid_net_scope(&format!("{s}/64")), std_ok, "{}/64", s);
    }

    /// A CIDR's address is a dotted quad exactly when the standard library
    /// reads one (parts without leading zeros).
    #[test]
    fn ipv4_cidrs_agree_with_the_standard_library(
        s in "[0-9]{1,4}(\\.[0-9]{1,4}){0,4}\\.?",
        prefix in 0u32..40,
    ) {
        let s = without_leading_zeros(&s);
        let std_ok = s.parse::<std::net::Ipv4Addr>().is_ok() && prefix <= 32;
        prop_assert_eq!(is_valid_net_scope(&format!("{s}/{prefix}")), std_ok, "{}/{}", s, prefix);
    }
}

proptest! {
    #![proptest_config(harness::config(512))]

    /// `host:port` is valid exactly for ports 1 to 65535 written in
    /// decimal, for names, wildcards and addresses alike.
    #[test]
    fn ports_are_one_to_65535(
        host in prop_oneof![
            "[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?(\\.[a-z]{2,6}){0,2}",
            "\\*\\.[a-z]{1,8}\\.[a-z]{2,4}",
            "[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}"
                .prop_map(|s| without_leading_zeros(&s))
                .prop_filter("a dotted quad", |s| s.parse::<std::net::Ipv4Addr>().is_ok()),
            Just("[::1]".to_string()),
        ],
        port in prop_oneof![0u32..70_000, 65_530u32..65_540, 0u32..3, Just(99_999)],
    ) {
        prop_assert!(is_valid_net_scope(&host), "{}", host);
        let valid = (1..=65_535).contains(&port);
        prop_assert_eq!(is_valid_net_scope(&format!("{host}:{port}")), valid, "{}:{}", host, port);
    }
}

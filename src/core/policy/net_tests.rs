//! Which values reach private space, and what values and patterns reach.

use super::reaches_private as p;
use super::{pattern_cover, value_reach};

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

fn shown(v: &str) -> Vec<String> {
    value_reach(Some(v)).unwrap().shown
}

#[test]
fn zone_ids_keep_an_address_private() {
    for s in [
        "[::1%lo]:6379",
        "fe80::1%eth0",
        "[fe80::a9fe:a9fe%eth0]:80",
        "[::ffff:127.0.0.1%lo]",
        "fe80::1%eth0/64",
    ] {
        assert!(p(s), "{s}");
    }
    assert_eq!(shown("[::1%lo]:6379"), ["[::1]:6379"]);
}

#[test]
fn ports_are_read_by_try_str_to_int() {
    for s in [
        "h.example.org:0x16",
        "h.example.org:$16",
        "h.example.org:&26",
        "h.example.org:%10110",
        "h.example.org: 22",
    ] {
        assert_eq!(shown(s), ["h.example.org:22"], "{s}");
    }
    assert_eq!(shown("h.example.org:026"), ["h.example.org:26"]);
    assert_eq!(shown("h.example.org"), ["h.example.org"]);
    assert!(value_reach(Some("h.example.org:0")).is_none());
    assert!(value_reach(Some("h.example.org:+22")).is_none());
}

#[test]
fn ranges_are_values_with_host_bits_cleared() {
    assert_eq!(shown("10.1.2.3/8"), ["10.0.0.0/8"]);
    assert_eq!(shown("::ffff:0:0/96"), ["0.0.0.0/0"]);
    assert_eq!(shown("10.0.0.0/0x8"), ["10.0.0.0/8"]);
    assert_eq!(shown("2002::/15"), ["2002::/15", "0.0.0.0/0"]);
    assert_eq!(shown("2002:a00::/24"), ["2002:a00::/24", "10.0.0.0/8"]);
    assert_eq!(
        value_reach(None).unwrap().shown,
        ["*", "every public address"]
    );
}

#[test]
fn patterns_refuse_what_could_never_match() {
    for (p, want) in [
        (
            "a.*.example.com",
            "a wildcard stands only for whole leading labels (\"*.example.com\")",
        ),
        ("example.com:0", "port 0 is not 1 to 65535"),
        ("example.com:http", "port \"http\" is not a number"),
        ("a..b", "a host has no empty labels"),
        ("a b", "a host holds only letters, digits, `-`, `_` and `.`"),
        ("10.0.0.0/33", "\"10.0.0.0/33\" is not an address range"),
        (":80", "the host is empty"),
    ] {
        assert_eq!(pattern_cover(p).unwrap_err(), want, "{p}");
    }
    let spec = |p: &str| pattern_cover(p).unwrap().1;
    assert!(spec("*") < spec("private"));
    assert!(spec("private") < spec("*.example.com"));
    assert!(spec("*.example.com") < spec("*.a.example.com"));
    assert!(spec("10.0.0.0/8") < spec("10.1.0.0/16"));
    assert!(spec("api.example.com") < spec("api.example.com:443"));
}

#[test]
fn an_ipv4_tail_with_leading_zeros_is_read_as_goccia_reads_it() {
    assert_eq!(shown("::ffff:010.0.0.1"), ["10.0.0.1"]);
    assert_eq!(
        shown("[64:ff9b::010.0.0.1]:80"),
        ["[64:ff9b::a00:1]:80", "10.0.0.1:80"]
    );
    assert!(p("::ffff:010.0.0.1"));
}

#[test]
fn patterns_are_values_too() {
    let cover = |p: &str| pattern_cover(p).unwrap();
    assert_eq!(cover("0:0:0:0:0:0:0:1"), cover("::1"));
    assert_eq!(cover("[::1]"), cover("::1"));
    assert_eq!(cover("10.1.2.3/8"), cover("10.0.0.0/8"));
    assert_eq!(cover("::ffff:10.0.0.0/104"), cover("10.0.0.0/8"));
    assert_eq!(cover("::ffff:a9fe:a9fe"), cover("169.254.169.254"));
    assert_eq!(cover("Example.COM.:0x1bb"), cover("example.com:443"));
    assert_eq!(cover("fe80::1%eth0"), cover("fe80::1"));
}

//! The set operations of a reach.

use super::*;

fn v4(s: &str, len: u8) -> Block {
    Block::v4(u32::from(s.parse::<Ipv4Addr>().unwrap()), len)
}

fn v6(s: &str, len: u8) -> Block {
    Block::new(u128::from(s.parse::<Ipv6Addr>().unwrap()), len)
}

#[test]
fn blocks_meet_when_one_holds_the_other() {
    let a = v4("169.254.0.0", 16);
    let b = v4("169.254.169.254", 32);
    assert_eq!(a.meet(&b), Some(b));
    assert_eq!(b.meet(&a), Some(b));
    assert_eq!(v4("10.0.0.0", 8).meet(&a), None);
    // The IPv4-mapped form is the same address.
    assert_eq!(v6("::ffff:a9fe:a9fe", 128), b);
    assert!(Block::ALL.contains(&b));
    assert_eq!(v4("10.1.2.3", 8), v4("10.0.0.0", 8));
}

#[test]
fn embedded_hosts() {
    assert_eq!(
        v6("64:ff9b::a9fe:a9fe", 128).embedded(),
        [v4("169.254.169.254", 32)]
    );
    assert_eq!(
        v6("2002:a9fe:a9fe::1", 128).embedded(),
        [v4("169.254.169.254", 32)]
    );
    assert_eq!(
        v6("::a9fe:a9fe", 128).embedded(),
        [v4("169.254.169.254", 32)]
    );
    assert_eq!(v6("2002::", 16).embedded(), [v4("0.0.0.0", 0)]);
    // ::/0 holds all of IPv4 itself.
    assert!(Block::ALL.embedded().is_empty());
    assert!(v6("2001:db8::1", 128).embedded().is_empty());
}

#[test]
fn public_space_misses_private_blocks() {
    let public = Piece {
        dest: Dest::Addrs {
            block: Block::ALL,
            space: Space::Public,
        },
        port: None,
    };
    let metadata = Piece::addrs(v4("169.254.169.254", 32), None);
    assert_eq!(public.meet(&metadata), None);
    let dns = Piece::addrs(v4("8.8.8.8", 32), Some(53));
    assert!(public.meet(&dns).is_some());
    // A block holding public addresses is met.
    let wide = Piece::addrs(v4("0.0.0.0", 0), None);
    assert!(public.meet(&wide).is_some());
}

#[test]
fn names_and_ports() {
    let name = |n: &str, port| Piece::names(Names::Exact(n.into()), Space::Public, port);
    let below = |d: &str, port| Piece::names(Names::Below(d.into()), Space::Any, port);
    assert!(
        name("h.example.org", None)
            .meet(&below("example.org", Some(22)))
            .is_some()
    );
    assert!(
        name("h.example.org", Some(443))
            .meet(&below("example.org", Some(22)))
            .is_none()
    );
    assert!(
        name("example.org", None)
            .meet(&below("example.org", None))
            .is_none()
    );
    assert!(name("h.example.org", Some(443)).inside(&below("example.org", None)));
    assert!(!name("h.example.org", None).inside(&below("example.org", Some(443))));
    // A public name never meets a name resolving privately.
    let private = Piece::names(Names::Every, Space::Private, None);
    assert!(name("h.example.org", None).meet(&private).is_none());
    assert!(private.meet(&below("example.org", None)).is_some());
}

#[test]
fn display() {
    assert_eq!(
        Piece::addrs(v4("10.0.0.1", 32), Some(80)).to_string(),
        "10.0.0.1:80"
    );
    assert_eq!(
        Piece::addrs(v4("10.0.0.0", 8), Some(80)).to_string(),
        "10.0.0.0/8 port 80"
    );
    assert_eq!(
        Piece::addrs(v6("::1", 128), Some(80)).to_string(),
        "[::1]:80"
    );
    assert_eq!(Piece::addrs(v6("::1", 128), None).to_string(), "::1");
    assert_eq!(
        Piece::addrs(v6("fe80::", 10), None).to_string(),
        "fe80::/10"
    );
}

use super::*;

fn env() -> Env {
    Env {
        cwd: "/cwd".into(),
        home: "/home/u".into(),
        xdg_config_home: String::new(),
        xdg_state_home: String::new(),
    }
}

#[test]
fn path_scopes_resolve_against_the_declaring_directory() {
    let cases = [
        ("data", "/p/data"),
        ("./data/", "/p/data"),
        ("../shared", "/shared"),
        ("../../../../x", "/x"),
        ("  data  ", "/p/data"),
        ("\tdata\n", "/p/data"),
        ("/abs//lib/", "/abs/lib"),
        ("/", "/"),
        (".", "/p"),
        ("..", "/"),
        // A relative `~` is a directory name: the config directory comes first.
        ("~/x", "/p/~/x"),
        ("~", "/p/~"),
        // A backslash is a separator, but does not root a path on Unix.
        ("a\\b", "/p/a/b"),
        ("\\abs", "/p/abs"),
        ("a b/\"q\"/é", "/p/a b/\"q\"/é"),
        ("a/b/..", "/p/a"),
        ("//net", "//net"),
    ];
    for (written, resolved) in cases {
        for cap in [Capability::Read, Capability::Ffi] {
            assert_eq!(
                resolve_scope(cap, written, "/p/", &env()),
                resolved,
                "{written:?}"
            );
        }
    }
    assert_eq!(resolve_scope(Capability::Read, "x", "/", &env()), "/x");
}

#[test]
fn import_and_net_scopes_resolve_as_text() {
    let e = env();
    let r = |cap, s| resolve_scope(cap, s, "/p/", &e);
    assert_eq!(
        r(Capability::Import, "Node_Modules=../Lib/"),
        "node_modules=/Lib"
    );
    assert_eq!(r(Capability::Import, " NODE_MODULES=. "), "node_modules=/p");
    assert_eq!(r(Capability::Import, "node_modules="), "node_modules=");
    assert_eq!(r(Capability::Import, " GitHub:Owner "), "GitHub:Owner");
    assert_eq!(r(Capability::Net, " Example.COM. "), "Example.COM.");
}

#[test]
fn declaring_dir_is_extract_file_path() {
    assert_eq!(declaring_dir("/a/b/goccia.json"), "/a/b/");
    assert_eq!(declaring_dir("/goccia.json"), "/");
    assert_eq!(declaring_dir("/a\\b"), "/a\\");
}

#[test]
fn valid_net_scopes() {
    for scope in [
        "private",
        "PRIVATE",
        " example.com ",
        "Example.COM",
        "example.com.",
        "a_b-c.d",
        "localhost",
        "*.example.com",
        "*.example.com.",
        "example.com:8443",
        "example.com:080",
        "example.com:0x50",
        "example.com:x50",
        "example.com:$1BB",
        "example.com:&17",
        "example.com:%101",
        "example.com: 80",
        "example.com:\t80",
        "example.com:65535",
        "127.0.0.1",
        "127.0.0.1.",
        "127.0.0.1:18765",
        "0.0.0.0",
        "255.255.255.255",
        "10.0.0.0/8",
        "0.0.0.0/0",
        "10.0.0.0/32",
        "10.0.0.0/0x8",
        "2001:db8::/32",
        "::/0",
        "::1/128",
        "[::1]/64",
        "::1",
        "::",
        "[::1]",
        "[::1]:8080",
        "[2001:db8::1]:8080",
        "2001:db8:0:0:0:0:0:1",
        "1:2:3:4:5:6:7::",
        "::ffff:169.254.169.254",
        "64:ff9b::a9fe:a9fe",
        "1:2:3:4:5:6:1.2.3.4",
        "fe80::1%eth0",
        "[fe80::1%eth0]:80",
        // Brackets are taken off whatever they hold, as GocciaScript does.
        "[1.2.3.4]",
        "[example.com]:80",
        "[*.x]",
        "::1.",
        // Not dotted quads, but every character is a host-name character, so
        // GocciaScript takes them as names (which never match an address).
        "1.2.3",
        "1.2.3.4.5",
        "256.0.0.1",
        "01234.0.0.1",
    ] {
        assert!(is_valid_net_scope(scope), "{scope:?} should be valid");
    }
}

#[test]
fn invalid_net_scopes() {
    for scope in [
        "",
        "   ",
        "*",
        "*.",
        "*.*.com",
        "http://x",
        "a:b:c",
        ".example.com",
        "example..com",
        "example.com..",
        ".",
        "exa mple.com",
        "exämple.com",
        "例え.jp",
        "example.com:",
        "example.com:0",
        "example.com:65536",
        "example.com:+80",
        "example.com:-80",
        "example.com:80 x",
        "example.com:8o",
        "example.com:0x",
        "example.com:$",
        ":80",
        "1..2.3",
        "10.0.0.0/33",
        "10.0.0.0/",
        "/8",
        "10.0.0.0/8/8",
        "example.com/8",
        "::/129",
        ":::",
        "1::2::3",
        "1:2:3:4:5:6:7:8:9",
        "1:2:3:4:5:6:7",
        "12345::1",
        "g::1",
        "fe80::1%",
        "[]",
        "[::1",
        "[::1]:",
        "[::1]x",
        "[::1]:0",
        "[a:b]",
    ] {
        assert!(!is_valid_net_scope(scope), "{scope:?} should be invalid");
    }
}

#[test]
fn import_scopes() {
    for scope in [
        "node_modules",
        "NODE_MODULES",
        "node_modules=/abs",
        "Node_Modules=/Abs/Dir",
        "github",
        "GitHub",
        "github:owner",
        "github:Owner-1",
        "github:owner/repo",
        "github:o.w_n-er/re.po_-",
    ] {
        assert!(is_valid_import_scope(scope), "{scope:?} should be valid");
    }
    for scope in [
        "",
        "node_modules=",
        "node_modules=rel",
        "node_module",
        "gitlab",
        "github:",
        "github:/repo",
        "github:owner/",
        "github:owner/repo/x",
        "github:own er",
        "github:öwner",
        "github/owner",
        "githubx",
        "npm:left-pad",
    ] {
        assert!(!is_valid_import_scope(scope), "{scope:?} should be invalid");
    }
}

#[test]
fn try_str_to_int_follows_free_pascal() {
    // Each answer was checked against Free Pascal 3.2.2 (tools/fpc-oracle).
    let cases: [(&str, Option<i32>); 18] = [
        ("80", Some(80)),
        ("080", Some(80)),
        ("0x50", Some(80)),
        ("x50", Some(80)),
        ("$1BB", Some(443)),
        ("&17", Some(15)),
        ("%101", Some(5)),
        ("  \t80", Some(80)),
        ("80 ", None),
        ("", None),
        ("0x", None),
        ("-5", Some(-5)),
        ("+5", Some(5)),
        ("80\0zz", Some(80)),
        ("4294967376", Some(80)),
        ("$100000050", Some(80)),
        ("99999999999999999999", None),
        ("8g", None),
    ];
    for (text, want) in cases {
        assert_eq!(fpc_try_str_to_int(text), want, "{text:?}");
    }
    assert_eq!(fpc_try_str_to_int(&format!("{}1", "0".repeat(255))), None);
}

#[test]
fn path_scopes_are_always_valid_once_resolved() {
    assert!(is_valid_scope(Capability::Read, "/x"));
    assert!(!is_valid_scope(Capability::Ffi, "x"));
    assert!(is_valid_scope(Capability::Import, "node_modules=/x"));
}

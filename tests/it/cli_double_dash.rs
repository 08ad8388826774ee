//! `--` at the top level (issue 33 item 4): the word after it is a PATH even
//! when it starts with `-`, as after `scan --`; GocciaScript's own
//! `--trust PATH` keeps taking the next word whatever it is.

use crate::common::TestEnv;

const REQUEST: &str = r#"{"permissions": {"allow-net": ["example.com"]}}"#;

#[test]
fn the_word_after_a_double_dash_is_a_path() {
    let env = TestEnv::new();
    env.write("-weird/goccia.json", REQUEST);
    // Without a terminal the bare command prints `scan PATH`.
    let bare = env.run(&["--", "-weird"]);
    assert_eq!(bare.code, 0, "{bare}");
    assert!(bare.stdout.contains("-weird/goccia.json"), "{bare}");
    assert_eq!(bare.stdout, env.run(&["scan", "--", "-weird"]).stdout);
    // Before `--` an unknown option is still refused.
    let refused = env.run(&["-weird"]);
    assert_eq!(refused.code, 2, "{refused}");
    assert!(
        refused.stderr.contains("unknown option -weird"),
        "{refused}"
    );

    // GocciaScript's spelling takes the next word as the path.
    let trusted = env.run(&["--trust", "-weird", "--yes"]);
    assert_eq!(trusted.code, 0, "{trusted}");
    assert!(env.read_store().contains("-weird/goccia.json"));
    let listed = env.run(&["--", "-weird"]);
    assert!(listed.stdout.contains("trusted"), "{listed}");
}

//! The ASCII fallback (issue 44 item 7): under a locale without UTF-8
//! (`LC_ALL=C`), or with `--ascii`, the text output draws its decorations
//! (`·`, `—`, `…`, `✓`) in ASCII; a UTF-8 locale or none keeps them; a
//! document for machines (`--json`) is the same bytes whatever the locale.

use crate::common::git::GIT_ENV;
use crate::common::{CI_POLICY, Output, TestEnv};
use crate::diff_ci::changed_repo;

const C: &[(&str, &str)] = &[("LC_ALL", "C")];
const UTF8: &[(&str, &str)] = &[("LANG", "en_US.UTF-8")];

fn run(t: &TestEnv, args: &[&str], vars: &[(&str, &str)]) -> Output {
    let mut all: Vec<(&str, &str)> = GIT_ENV.to_vec();
    all.extend_from_slice(vars);
    t.run_in(&t.work, args, &all)
}

fn non_ascii(s: &str) -> Vec<char> {
    s.chars().filter(|c| !c.is_ascii()).collect()
}

/// Issue 44 try 10: `scan --policy` printed `—` and `diff` printed `·`
/// under `LC_ALL=C`.
#[test]
fn text_output_is_ascii_where_the_locale_has_no_utf8() {
    let t = TestEnv::new();
    t.write(
        "web/goccia.json",
        r#"{"permissions": {"allow-net": ["api.example.com"]}}"#,
    );
    let policy = t.root.join("policy.json");
    std::fs::write(&policy, CI_POLICY).unwrap();
    let policy = policy.to_str().unwrap();
    let scan = |vars| run(&t, &["scan", "--policy", policy], vars);
    let utf8 = scan(UTF8);
    assert!(!non_ascii(&utf8.stdout).is_empty(), "{utf8}");
    for vars in [C, &[("LANG", "C")], &[("LC_CTYPE", "en_US.ISO-8859-1")]] {
        let out = scan(vars);
        assert_eq!(out.code, utf8.code, "{out}");
        assert!(non_ascii(&out.stdout).is_empty(), "{vars:?}: {out}");
        assert!(non_ascii(&out.stderr).is_empty(), "{vars:?}: {out}");
    }
    // --ascii in a UTF-8 locale; the same text as LC_ALL=C.
    let forced = run(&t, &["scan", "--ascii", "--policy", policy], UTF8);
    assert_eq!(forced.stdout, scan(C).stdout);
    // A UTF-8 locale after a C one is still C: LC_ALL wins.
    let out = scan(&[("LC_ALL", "C"), ("LANG", "en_US.UTF-8")]);
    assert!(non_ascii(&out.stdout).is_empty(), "{out}");
    let out = scan(&[("LC_ALL", "C.UTF-8"), ("LANG", "C")]);
    assert_eq!(out.stdout, utf8.stdout);
    // No locale variable at all: UTF-8, as before.
    assert_eq!(
        run(&t, &["scan", "--policy", policy], &[]).stdout,
        utf8.stdout
    );
    // The JSON document does not depend on the locale.
    let json = |vars| run(&t, &["scan", "--json", "--policy", policy], vars).stdout;
    assert_eq!(json(C), json(UTF8));
}

#[test]
fn diff_draws_its_separators_in_ascii() {
    let r = changed_repo();
    let diff = |vars| {
        let mut all: Vec<(&str, &str)> = GIT_ENV.to_vec();
        all.extend_from_slice(vars);
        r.t.run_in(&r.t.work, &["diff", "HEAD~1", "HEAD", "--all"], &all)
    };
    let utf8 = diff(UTF8);
    assert!(utf8.stdout.contains('·'), "{utf8}");
    let c = diff(C);
    assert_eq!(c.code, utf8.code);
    assert!(non_ascii(&c.stdout).is_empty(), "{c}");
    assert_eq!(c.stdout, utf8.stdout.replace('·', "-"));
}

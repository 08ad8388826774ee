//! Discrepancies found by auditing the trust commands against
//! goccia-reference.md §12 and §15, goccia-permissions.md and DESIGN.md
//! "Surface"; each test names the rule it pins.

mod common;

use common::TestEnv;

fn requesting_project(env: &TestEnv) {
    env.write(
        "p/goccia.json",
        r#"{"permissions": {"allow-net": ["x.test"]}}"#,
    );
    env.write("p/m.js", "");
}

/// goccia-permissions.md "The store": a `--trust-store` path that is a
/// directory is an error with status 1, refused before anything runs; `check`
/// decides as a run does, so it refuses too instead of reporting the
/// directory as a store that "cannot be located".
#[test]
fn check_refuses_a_trust_store_that_is_a_directory() {
    let env = TestEnv::new();
    requesting_project(&env);
    env.mkdir("stores");
    let out = env.run(&["--trust-store=stores", "check", "p/m.js"]);
    assert_eq!(
        out.to_string(),
        "--- stderr ---\nError: trust store $ROOT/work/stores is a directory; --trust-store needs the path of a file\n[exit status: 1]"
    );
}

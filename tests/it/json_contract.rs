//! The JSON contract (README "JSON contract"): every `--json` output of the
//! real binary, over real trees in every state (trusted, never trusted,
//! changed, no request, error, missing, unreadable), validated against its
//! schema under `schemas/` (draft 2020-12), plus the promises a script
//! relies on: `"schema": 1`, camelCase names, requests as data, one diff
//! shape, hostile text kept valid JSON, and `list --exit-code`.

use crate::common;
use crate::common::config_at as config;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use common::CI_POLICY as POLICY;
use common::{Output, TestEnv};
use serde_json::Value;

const SCHEMAS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/schemas");

/// The schemas have no `$id`: each is its file, and its `$ref`s are
/// relative to it (so `check-jsonschema --schemafile schemas/x.json`
/// resolves them with no `--base-uri`).
fn base() -> String {
    format!("file://{SCHEMAS}/")
}

/// The strict copy of a published schema: every object that lists its
/// `properties` (outside an `if`/`then`/`else` test) refuses any other
/// member. The published schemas accept members added later (docs/src/json.md
/// promises only additions); the tests validate against the strict copies,
/// so a member the binary prints and the schema does not describe fails.
pub(crate) fn strict(schema: Value) -> Value {
    fn walk(node: Value, key: Option<&str>) -> Value {
        match node {
            Value::Object(map) => {
                let lists = map.contains_key("properties");
                let mut out: serde_json::Map<String, Value> = map
                    .into_iter()
                    .map(|(k, v)| {
                        let v = walk(v, Some(&k));
                        (k, v)
                    })
                    .collect();
                if lists
                    && !out.contains_key("additionalProperties")
                    && !matches!(key, Some("if" | "then" | "else"))
                {
                    out.insert("additionalProperties".into(), Value::Bool(false));
                }
                Value::Object(out)
            }
            Value::Array(items) => Value::Array(items.into_iter().map(|v| walk(v, key)).collect()),
            other => other,
        }
    }
    walk(schema, None)
}

/// Resolves the schemas' `$ref`s to the strict copies of the files under
/// `schemas/`, nothing else.
struct SchemaFiles;

impl jsonschema::Retrieve for SchemaFiles {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let name = uri
            .as_str()
            .strip_prefix(base().as_str())
            .ok_or_else(|| format!("{} is not one of schemas/", uri.as_str()))?;
        Ok(strict(serde_json::from_str(&std::fs::read_to_string(
            Path::new(SCHEMAS).join(name),
        )?)?))
    }
}

fn schema(name: &str) -> Value {
    let path = Path::new(SCHEMAS).join(format!("{name}.schema.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The strict copy's validator (`$ref`s to strict copies too).
fn validator(name: &str) -> jsonschema::Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .with_retriever(SchemaFiles)
        .with_base_uri(format!("{}{name}.schema.json", base()))
        .build(&strict(schema(name)))
        .unwrap_or_else(|e| panic!("schemas/{name}.schema.json: {e}"))
}

/// Resolves `$ref`s to the published files as they are.
struct PublishedFiles;

impl jsonschema::Retrieve for PublishedFiles {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let name = uri
            .as_str()
            .strip_prefix(base().as_str())
            .ok_or_else(|| format!("{} is not one of schemas/", uri.as_str()))?;
        Ok(serde_json::from_str(&std::fs::read_to_string(
            Path::new(SCHEMAS).join(name),
        )?)?)
    }
}

/// The published schema's validator, as a consumer builds it.
fn published_validator(name: &str) -> jsonschema::Validator {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .with_retriever(PublishedFiles)
        .with_base_uri(format!("{}{name}.schema.json", base()))
        .build(&schema(name))
        .unwrap_or_else(|e| panic!("schemas/{name}.schema.json: {e}"))
}

/// `doc` with a member no schema describes added to every object of it
/// (not to the maps whose keys are data, `targets` and `block`): what a
/// later version may print.
fn with_additions(doc: &Value) -> Value {
    match doc {
        Value::Object(map) => {
            let mut out: serde_json::Map<String, Value> = map
                .iter()
                .map(|(k, v)| match k.as_str() {
                    "targets" | "block" => (k.clone(), v.clone()),
                    _ => (k.clone(), with_additions(v)),
                })
                .collect();
            out.insert("addedLater".into(), serde_json::json!({"x": 1}));
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(with_additions).collect()),
        other => other.clone(),
    }
}

/// Parses `stdout` as one JSON document and validates it against
/// `schemas/<name>.schema.json`; returns the document.
pub(crate) fn valid(name: &str, stdout: &str) -> Value {
    let doc: Value = serde_json::from_str(stdout)
        .unwrap_or_else(|e| panic!("{name}: stdout is not one JSON document: {e}\n{stdout}"));
    let errors: Vec<String> = validator(name)
        .iter_errors(&doc)
        .map(|e| format!("{e} (at {})", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{name}: {errors:#?}\n{stdout}");
    assert_eq!(doc["schema"], 1, "{name}: {stdout}");
    assert_camel_case(&doc, name);
    doc
}

/// Every member name is camelCase (no `_`, no leading capital), except
/// the keys of `targets` and `block`, which are data.
fn assert_camel_case(v: &Value, context: &str) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                if k == "targets" || k == "block" {
                    continue;
                }
                assert!(
                    !k.contains('_')
                        && !k.contains('-')
                        && k.chars().next().is_some_and(|c| c.is_ascii_lowercase()),
                    "{context}: member {k:?} is not camelCase"
                );
                assert_camel_case(v, context);
            }
        }
        Value::Array(items) => items.iter().for_each(|i| assert_camel_case(i, context)),
        _ => {}
    }
}

fn write_policy(env: &TestEnv) -> String {
    let path = env.root.join("ci/policy.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, POLICY).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    path.to_str().unwrap().to_string()
}

/// A tree with a config in every state, and a store that knows some:
/// `t` trusted (a linked scope and an unscoped request), `n` never
/// trusted, `c` changed (a host swapped, a link re-pointed), `e` an
/// error, `d` asking for nothing, `m` trusted then deleted (missing), `u`
/// trusted then broken (unreadable in `list`).
fn states(env: &TestEnv) {
    env.mkdir("t/real");
    env.symlink("real", "t/data");
    env.write(
        "t/goccia.json",
        r#"{"permissions": {"allow-read": ["./data"], "allow-net": true}}"#,
    );
    env.write(
        "n/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test", "b.test"]}}"#,
    );
    env.mkdir("c/one");
    env.mkdir("c/two");
    env.symlink("one", "c/lib");
    env.write(
        "c/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test", "b.test"], "allow-read": ["./lib"]}}"#,
    );
    env.write(
        "m/goccia.json",
        r#"{"permissions": {"allow-net": ["m.test"]}}"#,
    );
    env.write(
        "u/goccia.json",
        r#"{"permissions": {"allow-net": ["u.test"]}}"#,
    );
    let out = env.run(&["trust", "--yes", "t", "c", "m", "u"]);
    assert_eq!(out.code, 0, "{out}");
    // Changed: one host swapped, the link re-pointed.
    env.write(
        "c/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test", "x.test"], "allow-read": ["./lib"]}}"#,
    );
    std::fs::remove_file(env.work.join("c/lib")).unwrap();
    env.symlink("two", "c/lib");
    std::fs::remove_file(env.work.join("m/goccia.json")).unwrap();
    env.write("u/goccia.json", r#"{"permissions": "#);
    env.write("e/goccia.json", r#"{"permissions": {"allow-read": [""]}}"#);
    env.write("d/goccia.json", "{}");
}

#[test]
fn scan_check_and_inspect_validate_in_every_state() {
    let env = TestEnv::new();
    states(&env);

    let out = env.run(&["scan", "--json"]);
    assert_eq!(out.code, 1, "the error row sets the exit: {out}");
    let doc = valid("scan", &out.stdout);
    let state = |p: &str| config(&doc, p)["state"].as_str().unwrap().to_string();
    assert_eq!(
        [
            "t/goccia.json",
            "n/goccia.json",
            "c/goccia.json",
            "e/goccia.json",
            "d/goccia.json",
            "u/goccia.json"
        ]
        .map(state),
        [
            "trusted",
            "never-trusted",
            "changed",
            "error",
            "no-request",
            "error"
        ]
    );
    // Requests are data; `true` is unscoped with no values.
    assert_eq!(
        config(&doc, "t/goccia.json")["requests"],
        serde_json::json!([
            {"request": "allow-net", "unscoped": true, "values": []},
            {"request": "allow-read", "unscoped": false, "values": ["$ROOT/work/t/data"]},
        ])
    );
    assert_eq!(
        config(&doc, "t/goccia.json")["destinations"],
        serde_json::json!([{"key": "allow-read", "scope": "$ROOT/work/t/data",
            "resolvesTo": "$ROOT/work/t/real"}])
    );
    // The diff: value-level items, with the request each belongs to.
    let c = config(&doc, "c/goccia.json");
    let changed: Vec<&Value> = c["diff"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["change"] != "unchanged")
        .collect();
    assert_eq!(
        changed,
        [
            &serde_json::json!({"request": "allow-net", "change": "removed", "unscoped": false, "value": "b.test"}),
            &serde_json::json!({"request": "allow-net", "change": "added", "unscoped": false, "value": "x.test"}),
            &serde_json::json!({"request": "allow-read", "change": "retargeted", "unscoped": false,
                "value": "$ROOT/work/c/lib", "destination": "$ROOT/work/c/two",
                "recordedDestination": "$ROOT/work/c/one"}),
        ]
    );
    // An error carries GocciaScript's message and its exit class.
    let e = &config(&doc, "e/goccia.json")["error"];
    assert_eq!(e["exit"], 1);
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .starts_with("$ROOT/work/e/goccia.json: "),
        "{e}"
    );

    // With a policy: the verdicts, and the policy file named.
    let policy = write_policy(&env);
    let out = env.run(&["scan", "--json", "--policy", &policy, "t", "n", "c", "d"]);
    let doc = valid("scan", &out.stdout);
    assert_eq!(doc["policy"]["path"], "$ROOT/ci/policy.json");
    assert_eq!(
        config(&doc, "n/goccia.json")["policy"]["verdict"],
        "NEEDS_AUTH"
    );

    // check: blocked (exit 2) and not.
    for input in ["n/x.js", "t/x.js", "e/x.js"] {
        env.write(input, "");
    }
    let out = env.run(&["check", "--json", "n/x.js", "c"]);
    assert_eq!(out.code, 2, "{out}");
    let doc = valid("check", &out.stdout);
    assert_eq!(doc["blocked"], true);
    assert_eq!(doc["inputs"][0]["config"], "$ROOT/work/n/goccia.json");
    let out = env.run(&["check", "--json", "t/x.js"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(valid("check", &out.stdout)["blocked"], false);

    // inspect: the block an object, its exact text beside it.
    for (dir, state) in [
        ("t", "trusted"),
        ("n", "never-trusted"),
        ("c", "changed"),
        ("d", "no-request"),
    ] {
        let out = env.run(&["inspect", "--json", dir]);
        assert_eq!(out.code, 0, "{out}");
        let doc = valid("inspect", &out.stdout);
        assert_eq!(doc["state"], state);
        let text: Value = serde_json::from_str(doc["blockText"].as_str().unwrap()).unwrap();
        assert_eq!(doc["block"], text, "{dir}");
    }
    // A config that fails, and a path that is not there: the failure
    // document, the same message as stderr's `Error: ` line.
    for args in [
        &["inspect", "--json", "e"][..],
        &["inspect", "--json", "nowhere"],
        &["check", "--json", "e/x.js"],
    ] {
        let out = env.run(args);
        assert_ne!(out.code, 0, "{out}");
        let doc = valid("error", &out.stdout);
        assert_eq!(
            format!("Error: {}\n", doc["error"]["message"].as_str().unwrap()),
            out.stderr,
            "{args:?}"
        );
        assert_eq!(doc["error"]["exit"], out.code, "{args:?}");
    }
}

#[test]
fn list_validates_in_every_state_and_exit_code_gates_it() {
    let env = TestEnv::new();
    states(&env);
    let out = env.run(&["list", "--json"]);
    assert_eq!(out.code, 0, "{out}");
    let doc = valid("list", &out.stdout);
    let status = |p: &str| {
        doc["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["path"] == p)
            .unwrap_or_else(|| panic!("no {p}"))
            .clone()
    };
    assert_eq!(status("t/goccia.json")["status"], "ok");
    assert_eq!(status("m/goccia.json")["status"], "missing");
    let u = status("u/goccia.json");
    assert_eq!(u["status"], "unreadable");
    assert_eq!(u["error"]["exit"], 1);
    let c = status("c/goccia.json");
    assert_eq!(c["status"], "changed");
    assert!(
        c["diff"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["change"] == "added" && d["value"] == "x.test"),
        "{c}"
    );
    assert_eq!(
        c["requests"][0],
        serde_json::json!({"request": "allow-net", "unscoped": false, "values": ["a.test", "b.test"]})
    );

    // --exit-code: 1 while anything is changed, missing or unreadable,
    // with or without --json; 0 once the store matches the disk.
    assert_eq!(env.run(&["list", "--exit-code"]).code, 1);
    assert_eq!(env.run(&["list", "--json", "--exit-code"]).code, 1);
    assert_eq!(env.run(&["untrust", "--missing"]).code, 0);
    assert_eq!(env.run(&["untrust", "u"]).code, 0);
    assert_eq!(
        env.run(&["list", "--exit-code"]).code,
        1,
        "c is still changed"
    );
    assert_eq!(env.run(&["trust", "--yes", "c"]).code, 0);
    let out = env.run(&["list", "--exit-code"]);
    assert_eq!(out.code, 0, "{out}");
    // Missing alone fails it too.
    std::fs::remove_file(env.work.join("t/goccia.json")).unwrap();
    assert_eq!(env.run(&["list", "--exit-code"]).code, 1);
    assert_eq!(
        env.run(&["list"]).code,
        0,
        "without the flag list informs only"
    );
    let help = env.run(&["list", "--help"]).stdout;
    assert!(help.contains("--exit-code"), "{help}");
}

#[test]
fn trust_and_untrust_json_say_what_was_recorded_refused_and_left_out() {
    let env = TestEnv::new();
    states(&env);
    std::fs::remove_file(env.work.join("e/goccia.json")).unwrap();
    std::fs::remove_file(env.work.join("u/goccia.json")).unwrap();

    // Without --yes or --dry-run a JSON run never prompts: the failure
    // document, and nothing written.
    let before = env.read_store();
    let out = env.run(&["trust", "--json", "n"]);
    assert_eq!(out.code, 2, "{out}");
    valid("error", &out.stdout);
    assert_eq!(env.read_store(), before);

    let out = env.run(&["trust", "--json", "--dry-run", "."]);
    assert_eq!(out.code, 0, "{out}");
    let doc = valid("trust", &out.stdout);
    assert_eq!(doc["dryRun"], true);
    assert_eq!(doc["alreadyTrusted"], 1);
    let outcomes: Vec<(&str, &str, &str)> = doc["configs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["path"].as_str().unwrap(),
                c["change"].as_str().unwrap(),
                c["outcome"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            ("c/goccia.json", "changed", "wouldRecord"),
            ("n/goccia.json", "new", "wouldRecord")
        ]
    );
    assert_eq!(env.read_store(), before);

    // The policy allows reading (c, after its network request is gone)
    // and leaves the network request of n to a person.
    env.write(
        "c/goccia.json",
        r#"{"permissions": {"allow-read": ["./lib"]}}"#,
    );
    let policy = write_policy(&env);
    let out = env.run(&["trust", "--json", "--yes", "--policy", &policy, "c", "n"]);
    assert_eq!(out.code, 4, "needs authorization: {out}");
    let doc = valid("trust", &out.stdout);
    assert_eq!(doc["policy"]["path"], "$ROOT/ci/policy.json");
    let by_path = |p: &str| config(&doc, p).clone();
    assert_eq!(by_path("c/goccia.json")["outcome"], "recorded");
    let n = by_path("n/goccia.json");
    assert_eq!(n["outcome"], "leftOut");
    assert_eq!(n["policy"]["verdict"], "NEEDS_AUTH");
    assert!(n["reason"].as_str().unwrap().contains("NEEDS_AUTH"), "{n}");
    assert!(env.read_store().contains("$ROOT/work/c/goccia.json"));
    assert!(!env.read_store().contains("$ROOT/work/n/goccia.json"));

    let out = env.run(&["trust", "--json", "--yes", "n"]);
    assert_eq!(out.code, 0, "{out}");
    let doc = valid("trust", &out.stdout);
    assert_eq!(doc["configs"][0]["outcome"], "recorded");
    assert_eq!(
        doc["configs"][0]["requests"][0]["values"],
        serde_json::json!(["a.test", "b.test"])
    );

    // Nothing to do is a document too.
    let out = env.run(&["trust", "--json", "--yes", "n"]);
    let doc = valid("trust", &out.stdout);
    assert_eq!(doc["configs"], serde_json::json!([]));
    assert_eq!(doc["alreadyTrusted"], 1);

    // untrust: what each path removed, and --missing.
    let out = env.run(&["untrust", "--json", "n", "nowhere"]);
    assert_eq!(out.code, 0, "{out}");
    let doc = valid("untrust", &out.stdout);
    assert_eq!(
        doc["removed"],
        serde_json::json!([{"key": "$ROOT/work/n/goccia.json", "path": "n/goccia.json"}])
    );
    assert_eq!(doc["paths"][0]["removed"], 1);
    assert_eq!(doc["paths"][1]["removed"], 0);
    let out = env.run(&["untrust", "--json", "--missing"]);
    let doc = valid("untrust", &out.stdout);
    assert_eq!(doc["missing"], true);
    assert_eq!(
        doc["removed"],
        serde_json::json!([
            {"key": "$ROOT/work/m/goccia.json", "path": "m/goccia.json"},
            {"key": "$ROOT/work/u/goccia.json", "path": "u/goccia.json"},
        ])
    );
}

#[test]
fn a_store_that_cannot_be_read_and_an_unreadable_path_are_in_the_documents() {
    let env = TestEnv::new();
    env.write(
        "p/ok/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    let store = env.default_store();
    std::fs::create_dir_all(store.parent().unwrap()).unwrap();
    std::fs::write(&store, "{ not json").unwrap();
    let doc = valid("scan", &env.run(&["scan", "--json", "p"]).stdout);
    assert!(
        doc["storeError"].as_str().unwrap().contains("trust.json"),
        "{doc}"
    );
    assert_eq!(doc["configs"][0]["state"], "never-trusted");
    let doc = valid("check", &env.run(&["check", "--json", "p"]).stdout);
    assert!(doc["storeError"].is_string(), "{doc}");
    // list cannot work without the store: the failure document.
    let out = env.run(&["list", "--json"]);
    assert_eq!(out.code, 1);
    valid("error", &out.stdout);
    std::fs::remove_file(&store).unwrap();

    // A directory the walk cannot read (run as nobody when root).
    env.write(
        "p/locked/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    crate::common::open_for_unprivileged(&env, &["work", "work/p", "work/p/ok", "work/p/locked"]);
    for f in ["work/p/ok/goccia.json", "work/p/locked/goccia.json"] {
        let p = env.root.join(f);
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    std::fs::set_permissions(
        env.work.join("p/locked"),
        std::fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    let (out, err, code) = crate::common::run_unprivileged(&env, &["scan", "--json", "p"]);
    assert_eq!(code, 1, "{err}");
    let doc = valid("scan", &out);
    assert_eq!(
        doc["unreadable"],
        serde_json::json!([{"path": "$ROOT/work/p/locked", "reason": "Permission denied"}])
    );
    let (out, _, _) = crate::common::run_unprivileged(&env, &["check", "--json", "p"]);
    assert_eq!(
        valid("check", &out)["unreadable"].as_array().unwrap().len(),
        1
    );
    // trust stops before listing: the failure document names it.
    let (out, _, code) =
        crate::common::run_unprivileged(&env, &["trust", "--json", "--dry-run", "p"]);
    assert_eq!(code, 1);
    let doc = valid("error", &out);
    assert!(
        doc["error"]["message"]
            .as_str()
            .unwrap()
            .contains("could not be read"),
        "{doc}"
    );
    std::fs::set_permissions(
        env.work.join("p/locked"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
}

#[test]
fn hostile_paths_and_values_stay_valid_json_and_round_trip() {
    let env = TestEnv::new();
    // A directory name and a path scope with quotes, a line break, an
    // escape sequence and other control characters (a backslash is a path
    // separator to GocciaScript, so it is not kept as written).
    let dir = "q\"uo'te\nnew\u{1b}[31mred\u{7}x";
    let scope = "./a\"b\u{1b}]0;title\u{7}\nc\u{1}d\te";
    let config = serde_json::json!({"permissions": {"allow-read": [scope]}}).to_string();
    env.write(&format!("{dir}/goccia.json"), &config);
    let key = format!("$ROOT/work/{dir}/goccia.json");
    let value = format!("$ROOT/work/{dir}/a\"b\u{1b}]0;title\u{7}\nc\u{1}d\te");

    let out = env.run(&["scan", "--json"]);
    let doc = valid("scan", &out.stdout);
    assert_eq!(doc["configs"][0]["key"], key.as_str());
    assert_eq!(
        doc["configs"][0]["requests"][0]["values"][0],
        value.as_str()
    );
    // Raw control characters never reach the output: JSON escapes them.
    assert!(
        !out.stdout.chars().any(|c| c.is_control() && c != '\n'),
        "{:?}",
        out.stdout
    );
    assert!(!out.stdout.contains("\u{1b}"));

    let out = env.run(&["trust", "--json", "--yes", dir]);
    assert_eq!(out.code, 0, "{out}");
    let doc = valid("trust", &out.stdout);
    assert_eq!(doc["configs"][0]["key"], key.as_str());
    assert_eq!(
        doc["configs"][0]["requests"][0]["values"][0],
        value.as_str()
    );

    let out = env.run(&["inspect", "--json", dir]);
    let doc = valid("inspect", &out.stdout);
    assert_eq!(doc["state"], "trusted");
    let text: Value = serde_json::from_str(doc["blockText"].as_str().unwrap()).unwrap();
    assert_eq!(doc["block"], text);

    let doc = valid("list", &env.run(&["list", "--json"]).stdout);
    assert_eq!(doc["entries"][0]["key"], key.as_str());
    let doc = valid("untrust", &env.run(&["untrust", "--json", dir]).stdout);
    assert_eq!(doc["removed"][0]["key"], key.as_str());
}

#[test]
fn the_schemas_are_strict() {
    // Each schema refuses a member it does not define and a wrong version:
    // a validation that passes says something.
    for name in [
        "scan",
        "check",
        "list",
        "inspect",
        "trust",
        "untrust",
        "error",
        "diff",
        "status",
        "ignored",
        "trust-reviewed",
        "review",
    ] {
        let v = validator(name);
        assert!(!v.is_valid(&serde_json::json!({"schema": 2})), "{name}");
        // The strict copy refuses unknown members; the published file
        // says nothing about them.
        assert_eq!(
            strict(schema(name))["additionalProperties"],
            false,
            "{name}"
        );
        let s = schema(name);
        assert_eq!(s["additionalProperties"], Value::Null, "{name}");
        assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
    }
    let v = validator("error");
    assert!(v.is_valid(&serde_json::json!({"schema": 1, "error": {"message": "m", "exit": 1}})));
    assert!(!v.is_valid(
        &serde_json::json!({"schema": 1, "error": {"message": "m", "exit": 1}, "extra": 0})
    ));
    // An unscoped request has no values; a scoped diff item has a value.
    let defs = validator("scan");
    let with = |request: Value| {
        serde_json::json!({"schema": 1, "configs": [{"key": "k", "path": "p", "state": "never-trusted",
            "sha256": "0".repeat(64), "requests": [request], "lines": [], "destinations": []}],
            "storeWarnings": [], "unreadable": [], "notFollowed": []})
    };
    assert!(defs.is_valid(&with(
        serde_json::json!({"request": "allow-read", "unscoped": true, "values": []})
    )));
    assert!(!defs.is_valid(&with(
        serde_json::json!({"request": "allow-read", "unscoped": true, "values": ["x"]})
    )));
}

#[test]
fn unscoped_requests_are_flagged_never_described() {
    let env = TestEnv::new();
    env.write(
        "s/goccia.json",
        r#"{"unsafe-shadowrealm": true, "sandbox": {}, "permissions": {"allow-read": true}}"#,
    );
    let doc = valid("inspect", &env.run(&["inspect", "--json", "s"]).stdout);
    let unscoped = |r: &str| serde_json::json!({"request": r, "unscoped": true, "values": []});
    assert_eq!(
        doc["requests"],
        serde_json::json!([
            unscoped("allow-read"),
            unscoped("sandbox"),
            unscoped("unsafe-shadowrealm")
        ])
    );
    // The text keeps GocciaScript's descriptions; the data does not.
    assert!(doc["lines"].to_string().contains("any path"), "{doc}");
    assert!(!doc["requests"].to_string().contains("any path"), "{doc}");
    // In a diff an unscoped item has no value.
    assert_eq!(env.run(&["trust", "--yes", "s"]).code, 0);
    env.write(
        "s/goccia.json",
        r#"{"permissions": {"allow-read": ["./any path"]}}"#,
    );
    let doc = valid("scan", &env.run(&["scan", "--json"]).stdout);
    let diff = &doc["configs"][0]["diff"];
    assert!(
        diff.as_array().unwrap().contains(
            &serde_json::json!({"request": "allow-read", "change": "removed", "unscoped": true})
        ),
        "{diff}"
    );
    assert!(
        diff.as_array()
            .unwrap()
            .contains(&serde_json::json!({"request": "allow-read",
            "change": "added", "unscoped": false, "value": "$ROOT/work/s/any path"})),
        "{diff}"
    );
}

/// `diff --json` (schemas/diff.schema.json): pretty like every document,
/// load errors as `{"message", "exit"}`, over a repository where configs
/// widen, narrow, appear, go and break, between two commits, against the
/// working tree and with `--all`.
#[test]
fn diff_validates_and_its_errors_are_objects() {
    let r = crate::diff_ci::changed_repo();
    for args in [
        &["HEAD~1", "HEAD", "--json"][..],
        &["HEAD~1", "--json"][..],
        &["HEAD~1", "HEAD", "--json", "--all"][..],
    ] {
        let out = r.diff(args);
        assert_eq!(out.code, 1, "{args:?}: {out}");
        assert!(
            out.stdout.starts_with("{\n  \"schema\": 1,\n"),
            "{args:?}: not pretty: {out}"
        );
        let doc = valid("diff", &out.stdout);
        let broken = config(&doc, "brk/goccia.json");
        assert_eq!(broken["verdict"], "broken");
        // The message and exit code scan gives the same file.
        let scan = valid("scan", &r.t.run(&["scan", "--json", "brk"]).stdout);
        assert_eq!(
            broken["headError"],
            config(&scan, "brk/goccia.json")["error"],
            "{broken}"
        );
        assert!(
            broken["headError"]["message"]
                .as_str()
                .unwrap()
                .starts_with("$ROOT/work/brk/goccia.json: "),
            "{broken}"
        );
        assert_eq!(broken["baseError"], Value::Null);
    }
    // Nothing changed: every config listed with --all, exit 0.
    let out = r.diff(&["HEAD", "HEAD", "--json", "--all"]);
    assert_eq!(out.code, 0, "{out}");
    let all = valid("diff", &out.stdout);
    let configs = all["configs"].as_array().unwrap();
    assert!(!configs.is_empty(), "{all}");
    assert!(
        configs
            .iter()
            .all(|c| c["status"] == "unchanged" && c["verdict"] == "unchanged"),
        "{all}"
    );
}

/// An unscoped value in `diff --json` is `"unscoped": true` with no value,
/// never the text output's description (`any path`); the text output keeps
/// it.
#[test]
fn diff_json_flags_unscoped_values() {
    let r = crate::diff::Repo::new();
    r.write(
        "goccia.json",
        r#"{"permissions": {"allow-read": ["./data"], "allow-net": true}}"#,
    );
    r.commit("base");
    r.write(
        "goccia.json",
        r#"{"permissions": {"allow-read": true, "allow-ffi": ["./any library"]}}"#,
    );
    r.commit("head");
    let doc = valid("diff", &r.diff(&["HEAD~1", "HEAD", "--json"]).stdout);
    let values = |request: &str| -> Vec<Value> {
        config(&doc, "goccia.json")["requests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|q| q["request"] == request)
            .unwrap_or_else(|| panic!("no {request} in {doc}"))["values"]
            .as_array()
            .unwrap()
            .clone()
    };
    assert_eq!(
        values("allow-net"),
        [serde_json::json!({"change": "removed", "unscoped": true, "widens": false})]
    );
    let read = values("allow-read");
    // The switch widens; its origin is the commit that wrote its key's
    // line (tests/it/diff_provenance.rs).
    let mut added = read
        .iter()
        .find(|v| v["change"] == "added")
        .unwrap_or_else(|| panic!("{read:?}"))
        .clone();
    let origin = added.as_object_mut().unwrap().remove("origin");
    assert_eq!(
        added,
        serde_json::json!({"change": "added", "unscoped": true, "widens": true})
    );
    assert_eq!(origin.unwrap()["kind"], "commit");
    assert!(
        read.iter()
            .any(|v| v["change"] == "removed" && v["unscoped"] == false && v["value"].is_string()),
        "{read:?}"
    );
    // A value spelled like a description is a value.
    let ffi = values("allow-ffi");
    assert_eq!(ffi.len(), 1, "{ffi:?}");
    assert_eq!(ffi[0]["unscoped"], false);
    assert!(
        ffi[0]["value"].as_str().unwrap().ends_with("any library"),
        "{ffi:?}"
    );
    assert!(!doc.to_string().contains("\"any path\""), "{doc}");
    let text = r.diff(&["HEAD~1", "HEAD"]).stdout;
    assert!(text.contains("+ any path"), "{text}");
}

/// The command lines whose `--json` fails before a document: a usage
/// error (clap's, ours, a mistyped subcommand) and, for `diff`, a bad
/// revision and a directory outside any repository. Each prints the
/// failure document on stdout and its `Error: ` line on stderr.
fn failures(env: &TestEnv) -> Vec<(Vec<&'static str>, Output)> {
    let outside = env.mkdir("not-a-repo");
    let mut out = Vec::new();
    for args in [
        &["scan", "--json", "--bogus"][..],
        &["scan", "--format", "json", "--bogus"][..],
        &["check", "--json"][..],
        &["list", "--json", "--bogus"][..],
        &["inspect", "--json"][..],
        &["trust", "--json", "--bogus", "x"][..],
        &["untrust", "--json", "--missing", "x"][..],
        &["diff", "--json"][..],
        &["diff", "--json", "--bogus", "HEAD"][..],
        &["scna", "--json"][..],
        &["diff", "HEAD", "--json"][..],
    ] {
        out.push((args.to_vec(), env.run_in(&outside, args, &[])));
    }
    let r = crate::diff::Repo::new();
    r.write(
        "goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    r.commit("base");
    for args in [
        &["diff", "no-such-revision", "--json"][..],
        &["diff", "HEAD", "no-such-revision", "--json"][..],
    ] {
        out.push((args.to_vec(), r.t.run_in(&r.t.work, args, &[])));
    }
    out
}

#[test]
fn a_json_command_that_fails_prints_the_failure_document() {
    let env = TestEnv::new();
    for (args, out) in failures(&env) {
        assert_eq!(out.code, 2, "{args:?}: {out}");
        let doc = valid("error", &out.stdout);
        let message = doc["error"]["message"].as_str().unwrap();
        assert_eq!(doc["error"]["exit"], 2, "{args:?}");
        assert!(!message.is_empty(), "{args:?}");
        assert!(
            out.stderr.starts_with(&format!("Error: {message}")),
            "{args:?}: {out}"
        );
    }
    // The policy verbs keep their own `{"error"}` form; text commands
    // print nothing on stdout.
    let out = env.run(&["policy", "show", "--json", "--bogus"]);
    assert!(!out.stdout.contains("\"schema\""), "{out}");
    let out = env.run(&["scan", "--bogus"]);
    assert_eq!((out.code, out.stdout.as_str()), (2, ""), "{out}");
}

/// check-jsonschema (PyPI), as a script would run it: `check-jsonschema
/// --schemafile schemas/NAME.schema.json FILE`, with no `--base-uri`, on
/// every command's `--json` output, the failure documents included.
#[test]
fn check_jsonschema_validates_every_document() {
    if !common::tool_available("check-jsonschema", "--version") {
        return;
    }
    let env = TestEnv::new();
    states(&env);
    let policy = write_policy(&env);
    let mut docs: Vec<(&str, String)> = vec![
        ("scan", env.run(&["scan", "--json"]).stdout),
        (
            "scan",
            env.run(&["scan", "--json", "--policy", &policy]).stdout,
        ),
        ("check", env.run(&["check", "--json", "n", "t", "c"]).stdout),
        ("list", env.run(&["list", "--json"]).stdout),
        ("inspect", env.run(&["inspect", "--json", "c"]).stdout),
        (
            "trust",
            env.run(&["trust", "--json", "--dry-run", "n"]).stdout,
        ),
        (
            "untrust",
            env.run(&["untrust", "--json", "--missing"]).stdout,
        ),
    ];
    let r = crate::diff_ci::changed_repo();
    docs.push((
        "diff",
        r.diff(&["HEAD~1", "HEAD", "--json", "--all"]).stdout,
    ));
    docs.push(("diff", r.diff(&["HEAD~1", "--json"]).stdout));
    let team = crate::team_reviews_gate::signed_team();
    docs.push((
        "trust-reviewed",
        team.trust(&team.clone, &["--json", "--dry-run", "."])
            .stdout,
    ));
    for (_, out) in failures(&env) {
        docs.push(("error", out.stdout));
    }
    let dir = tempfile::tempdir().unwrap();
    // The strict copies, side by side so their `$ref`s resolve.
    let strict_dir = dir.path().join("strict");
    std::fs::create_dir(&strict_dir).unwrap();
    for entry in std::fs::read_dir(SCHEMAS).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let copy = strict(serde_json::from_str(&text).unwrap());
        std::fs::write(
            strict_dir.join(path.file_name().unwrap()),
            serde_json::to_string_pretty(&copy).unwrap(),
        )
        .unwrap();
    }
    let check = |schema: &Path, file: &Path| {
        std::process::Command::new("check-jsonschema")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .arg("--schemafile")
            .arg(schema)
            .arg(file)
            .output()
            .unwrap()
    };
    for (i, (name, text)) in docs.iter().enumerate() {
        assert!(text.starts_with('{'), "{name}: {text}");
        let file = dir.path().join(format!("{i}-{name}.json"));
        std::fs::write(&file, text).unwrap();
        // Exactly what the strict copy describes...
        let out = check(&strict_dir.join(format!("{name}.schema.json")), &file);
        assert!(
            out.status.success(),
            "check-jsonschema, strict {name}: {}{}\n{text}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        // ...and the published schema, as a script runs it, still accepts
        // the document with a member added to every object (issue 44 try
        // 5: every published schema refused it).
        let added = dir.path().join(format!("{i}-{name}-added.json"));
        let doc: Value = serde_json::from_str(text).unwrap();
        std::fs::write(&added, with_additions(&doc).to_string()).unwrap();
        let published = Path::new("schemas").join(format!("{name}.schema.json"));
        for file in [&file, &added] {
            let out = check(&published, file);
            assert!(
                out.status.success(),
                "check-jsonschema, published {name}: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let out = check(&strict_dir.join(format!("{name}.schema.json")), &added);
        assert!(!out.status.success(), "strict {name} took an addition");
    }
    // It refuses what the schema refuses (the check says something).
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        r#"{"schema": 1, "error": {"message": "m", "exit": "2"}}"#,
    )
    .unwrap();
    let out = std::process::Command::new("check-jsonschema")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["--schemafile", "schemas/error.schema.json"])
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!out.status.success(), "{out:?}");
}

#[test]
fn status_validates_in_every_state() {
    let env = TestEnv::new();
    // Nothing to say: a config that needs no trust.
    env.write(
        "quiet/goccia.json",
        r#"{"permissions": {"deny-net": true}}"#,
    );
    let out = env.run(&["status", "--json", "quiet"]);
    assert_eq!(out.code, 0, "{out}");
    let doc = valid("status", &out.stdout);
    assert_eq!(doc["needsReview"], false);
    assert_eq!(doc["configs"][0]["state"], "no-request");
    // Trusted, changed (through its extends base), never trusted, error.
    env.write("t/base.json", r#"{"permissions": {"allow-read": ["."]}}"#);
    env.write(
        "t/goccia.json",
        r#"{"extends": "./base.json", "permissions": {"allow-net": ["a.test"]}}"#,
    );
    assert_eq!(env.run(&["trust", "--yes", "t"]).code, 0);
    let doc = valid("status", &env.run(&["status", "--json", "t"]).stdout);
    assert_eq!(doc["configs"][0]["state"], "trusted");
    assert_eq!(doc["configs"][0]["files"].as_array().unwrap().len(), 2);
    env.write("t/base.json", r#"{"permissions": {"allow-read": ["/"]}}"#);
    env.write(
        "t/new/goccia.json",
        r#"{"permissions": {"allow-net": ["b.test"]}}"#,
    );
    env.write("t/bad/goccia.json", "{");
    let out = env.run(&["status", "--json", "--tree", "t"]);
    assert_eq!(out.code, 1, "{out}");
    let doc = valid("status", &out.stdout);
    assert_eq!(
        (&doc["changed"], &doc["neverTrusted"], &doc["errors"]),
        (&Value::from(1), &Value::from(1), &Value::from(1))
    );
    assert_eq!(
        doc["notice"],
        "goccia: 1 changed, 1 never trusted, 1 config error (run goccia-trust to review)"
    );
    // A store that cannot be read: fail closed, nothing judged.
    std::fs::write(env.default_store(), "{ not json").unwrap();
    let out = env.run(&["status", "--json", "t"]);
    assert_eq!(out.code, 1, "{out}");
    let doc = valid("status", &out.stdout);
    assert!(doc["storeError"].is_string(), "{doc}");
    assert_eq!(doc["configs"], serde_json::json!([]));
    // A store others can write (issue 41 item 7): needs review.
    std::fs::remove_file(env.default_store()).unwrap();
    assert_eq!(env.run(&["trust", "--yes", "t/goccia.json"]).code, 0);
    let dir = env.default_store().parent().unwrap().to_path_buf();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let out = env.run(&["status", "--json", "t"]);
    assert_eq!(out.code, 1, "{out}");
    let doc = valid("status", &out.stdout);
    assert_eq!(
        (&doc["storeUnsafe"], &doc["needsReview"]),
        (&Value::from(true), &Value::from(true))
    );
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    // An ignored config: counted, needs review.
    assert_eq!(env.run(&["ignore", "t/new"]).code, 0);
    let doc = valid("status", &env.run(&["status", "--json", "t/new"]).stdout);
    assert_eq!(
        (&doc["ignored"], &doc["needsReview"]),
        (&Value::from(1), &Value::from(true))
    );
    assert_eq!(doc["storeUnsafe"], false);
}

#[test]
fn an_ignored_config_and_list_ignored_validate() {
    let env = TestEnv::new();
    env.write(
        "a/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    assert_eq!(env.run(&["ignore", "a"]).code, 0);
    let doc = valid("scan", &env.run(&["scan", "--json", "a"]).stdout);
    assert_eq!(config(&doc, "a/goccia.json")["state"], "ignored");
    let doc = valid("ignored", &env.run(&["list", "--ignored", "--json"]).stdout);
    assert_eq!(doc["ignored"][0]["path"], "a/goccia.json");
    assert_eq!(doc["ignored"][0]["current"], true);
    assert_eq!(doc["file"], "$ROOT/state/ignored.json");
}

/// `trust --json` says as data what the text listing says in its notes
/// (issue 30): a config file shadowed by a higher-priority one, a trusted
/// config now gone, and a config left out as ignored; with and without
/// `--policy`, and when the ignored config was all there was to list.
#[test]
fn trust_json_lists_shadowed_missing_and_ignored_configs() {
    let env = TestEnv::new();
    env.write(
        "app/goccia.toml",
        "[permissions]\n\"allow-net\" = [\"a.test\"]\n",
    );
    env.write("app/goccia.json", r#"{"permissions": {"allow-ffi": true}}"#);
    env.write(
        "gone/goccia.json",
        r#"{"permissions": {"allow-net": ["g.test"]}}"#,
    );
    env.write(
        "skip/goccia.json",
        r#"{"permissions": {"allow-net": ["s.test"]}}"#,
    );
    assert_eq!(env.run(&["trust", "--yes", "gone"]).code, 0);
    std::fs::remove_file(env.work.join("gone/goccia.json")).unwrap();
    assert_eq!(env.run(&["ignore", "skip"]).code, 0);

    let policy = write_policy(&env);
    let plain = env.run(&["trust", "--dry-run", "--json", "."]);
    let gated = env.run(&["trust", "--dry-run", "--json", "--policy", &policy, "."]);
    for out in [&plain, &gated] {
        assert!(
            out.stderr
                .contains("Left out (ignored; name the config file to trust it): skip/goccia.json"),
            "{out}"
        );
        let doc = valid("trust", &out.stdout);
        let listed: Vec<&str> = doc["configs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["path"].as_str().unwrap())
            .collect();
        assert_eq!(listed, ["app/goccia.toml"], "{doc}");
        assert_eq!(
            doc["shadowed"],
            serde_json::json!([{
                "path": "$ROOT/work/app/goccia.json",
                "by": "$ROOT/work/app/goccia.toml"
            }]),
            "{doc}"
        );
        let missing = doc["missing"].as_array().unwrap();
        assert_eq!(missing.len(), 1, "{doc}");
        assert_eq!(missing[0]["key"], "$ROOT/work/gone/goccia.json", "{doc}");
        assert!(missing[0]["trustedAt"].is_string(), "{doc}");
        let ignored = doc["ignored"].as_array().unwrap();
        assert_eq!(ignored.len(), 1, "{doc}");
        assert_eq!(ignored[0]["key"], "$ROOT/work/skip/goccia.json", "{doc}");
        assert_eq!(ignored[0]["path"], "skip/goccia.json", "{doc}");
        assert_eq!(ignored[0]["change"], "new", "{doc}");
        assert_eq!(ignored[0]["sha256"].as_str().unwrap().len(), 64, "{doc}");
    }

    // Only the ignored config under the path: nothing is listed, and the
    // document still names it.
    let out = env.run(&["trust", "--dry-run", "--json", "skip"]);
    assert_eq!(out.code, 0, "{out}");
    let doc = valid("trust", &out.stdout);
    assert_eq!(doc["configs"], serde_json::json!([]), "{doc}");
    assert_eq!(doc["ignored"][0]["path"], "skip/goccia.json", "{doc}");
    assert_eq!(doc["shadowed"], serde_json::json!([]), "{doc}");
    assert_eq!(doc["missing"], serde_json::json!([]), "{doc}");
}

/// Issue 44 try 5: a member added in a later version (docs/src/json.md
/// promises only additions) is accepted by every published schema, at any
/// depth, and refused by the strict copies the tests use.
#[test]
fn published_schemas_accept_additions_and_the_strict_copies_refuse_them() {
    let env = TestEnv::new();
    states(&env);
    let r = crate::diff_ci::changed_repo();
    let docs: Vec<(&str, String)> = vec![
        ("scan", env.run(&["scan", "--json"]).stdout),
        ("check", env.run(&["check", "--json", "n", "t", "c"]).stdout),
        ("list", env.run(&["list", "--json"]).stdout),
        ("inspect", env.run(&["inspect", "--json", "c"]).stdout),
        (
            "trust",
            env.run(&["trust", "--json", "--dry-run", "n"]).stdout,
        ),
        (
            "untrust",
            env.run(&["untrust", "--json", "--missing"]).stdout,
        ),
        ("status", env.run(&["status", "--json"]).stdout),
        (
            "diff",
            r.diff(&["HEAD~1", "HEAD", "--json", "--all"]).stdout,
        ),
    ];
    for (name, text) in docs {
        let doc = valid(name, &text);
        let added = with_additions(&doc);
        let errors: Vec<String> = published_validator(name)
            .iter_errors(&added)
            .map(|e| format!("{e} (at {})", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "published {name}: {errors:#?}");
        assert!(!validator(name).is_valid(&added), "strict {name}");
    }
}

/// `trust --reviewed-by --json` (issue 43 item 4): the same listing as
/// one document: each config trusted or left, with its reviewers and the
/// records that did not count (their status and text), and with
/// `--policy` the policy's verdict; `--dry-run` and `--yes` alike.
#[test]
fn trust_reviewed_by_json_validates_and_says_who_reviewed() {
    use crate::team_reviews::{ALICE, BOB};
    let t = crate::team_reviews_gate::signed_team();
    // Mallory's review of b counts for nobody.
    assert_eq!(t.sign(&t.clone, &t.mallory, BOB, &["b"]).code, 0);
    let dry = t.trust(
        &t.clone,
        &["--json", "--dry-run", "--min-reviews", "2", "."],
    );
    assert_eq!(dry.code, 4, "{dry}");
    let doc = valid("trust-reviewed", &dry.stdout);
    assert_eq!(doc["dryRun"], true);
    assert_eq!(doc["required"], 2);
    assert!(doc["policy"].is_null(), "{dry}");
    let configs = doc["configs"].as_array().unwrap();
    let outcomes: Vec<(&str, &str)> = configs
        .iter()
        .map(|c| (c["file"].as_str().unwrap(), c["outcome"].as_str().unwrap()))
        .collect();
    assert_eq!(
        outcomes,
        [
            ("a/goccia.json", "wouldRecord"),
            ("b/goccia.json", "left"),
            ("c/goccia.json", "left")
        ]
    );
    assert_eq!(configs[0]["reviewers"], serde_json::json!([ALICE, BOB]));
    assert_eq!(
        configs[0]["reason"],
        format!("reviewed by {ALICE}, {BOB} (2 of 2)")
    );
    assert_eq!(
        configs[1]["reason"],
        format!("1 of 2 reviews: {ALICE}; needs 1 more")
    );
    let not_counted = configs[1]["notCounted"].as_array().unwrap();
    assert_eq!(not_counted.len(), 1, "{dry}");
    assert_eq!(not_counted[0]["status"], "unknown-key");
    assert!(
        not_counted[0]["reason"]
            .as_str()
            .unwrap()
            .contains("a key not in"),
        "{dry}"
    );
    assert_eq!(
        doc["left"],
        serde_json::json!(["b/goccia.json", "c/goccia.json"])
    );
    // With the policy gate: a recorded, c denied (never handed to a
    // person), exit 3.
    let policy = crate::team_reviews_gate::policy(&t, "policy.json", true);
    let out = t.trust(&t.clone, &["--json", "--yes", "--policy", &policy, "."]);
    assert_eq!(out.code, 3, "{out}");
    let doc = valid("trust-reviewed", &out.stdout);
    assert_eq!(doc["dryRun"], false);
    assert!(doc["policy"]["sha256"].is_string(), "{out}");
    let configs = doc["configs"].as_array().unwrap();
    let got: Vec<(&str, &str, &str)> = configs
        .iter()
        .map(|c| {
            (
                c["file"].as_str().unwrap(),
                c["outcome"].as_str().unwrap(),
                c["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("a/goccia.json", "recorded", "ALLOWED"),
            ("b/goccia.json", "recorded", "ALLOWED"),
            ("c/goccia.json", "denied", "DENIED")
        ]
    );
    assert_eq!(doc["left"], serde_json::json!([]));
    assert_eq!(doc["denied"], serde_json::json!(["c/goccia.json"]));
    // Nothing left to trust: still one document.
    let out = t.trust(&t.clone, &["--json", "--dry-run", "a"]);
    assert_eq!(out.code, 0, "{out}");
    let doc = valid("trust-reviewed", &out.stdout);
    assert_eq!(doc["configs"], serde_json::json!([]));
}

//! Report fixtures for the demo, the screenshots and the tests: a small
//! realistic repository, a large generated one, and a hostile one whose
//! every string tries to smuggle control sequences onto the screen.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test-support code (tests, the demo, the screenshots): a panic is a broken fixture

use std::collections::HashMap;

use crate::core::error::ConfigError;
use crate::core::policy::{ConfigDecision, Operation, RequestKind, evaluate_config};
use crate::core::review::report::{
    ConfigReport, ConfigState, DiffLine, EntryStatus, Loaded, Outcome, StoreEntryReport, StoredInfo,
};

use crate::core::revision::since::{SinceBase, config_of, config_of_block};
use crate::core::revision::{ConfigAt, Snapshot};

/// What a `FakeBackend` serves.
#[derive(Debug, Clone, Default)]
pub struct Fixture {
    pub configs: Vec<ConfigReport>,
    pub store: Vec<StoreEntryReport>,
    /// Raw sources by path, for inspect.
    pub sources: HashMap<String, String>,
    /// With `--policy`: its label, and its decision on configs by key.
    pub policy: Option<String>,
    pub decisions: HashMap<String, ConfigDecision>,
    /// With `--since`: BASE as given, and its configs or why they could not
    /// be read.
    pub since: Option<(String, Result<std::sync::Arc<SinceBase>, String>)>,
}

const ROOT: &str = "/home/dev/shop";
const BY: &str = "goccia-trust 0.1.0";

fn unchanged(lines: &[&str]) -> Vec<DiffLine> {
    lines
        .iter()
        .map(|l| DiffLine::Unchanged(l.to_string()))
        .collect()
}

/// A fake but well-formed hash, distinct per seed.
pub fn fake_hash(seed: &str) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in seed.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x100000001b3);
    }
    (0..4)
        .map(|i| {
            format!(
                "{:016x}",
                h.rotate_left(i * 16) ^ (i as u64).wrapping_mul(0x9e3779b97f4a7c15)
            )
        })
        .collect()
}

pub fn report(rel: &str, state: ConfigState, lines: Vec<DiffLine>) -> ConfigReport {
    let key = if rel.starts_with('/') {
        rel.to_string()
    } else {
        format!("{ROOT}/{rel}")
    };
    let loads = state != ConfigState::Error;
    let stored = matches!(state, ConfigState::Trusted | ConfigState::Changed).then(|| StoredInfo {
        sha256: fake_hash(&format!("{key}@stored")),
        trusted_at: "2025-11-03T09:12:44Z".to_string(),
        trusted_by: BY.to_string(),
        block: crate::core::config::block::Block::parse("{\"version\":1}").expect("JSON"),
        targets: Vec::new(),
    });
    let sha = match state {
        ConfigState::Trusted => stored.as_ref().map(|s| s.sha256.clone()),
        _ => None,
    }
    .unwrap_or_else(|| fake_hash(&key));
    let (old_block, new_block) = blocks_of(&lines);
    let stored = stored.map(|s| StoredInfo {
        block: crate::core::config::block::Block::parse(&old_block)
            .expect("a fixture block is JSON"),
        ..s
    });
    let outcome = if loads {
        Outcome::Loaded(Loaded {
            block: crate::core::config::block::Block::parse(&new_block)
                .expect("a fixture block is JSON"),
            sha256: sha,
            targets: Vec::new(),
        })
    } else {
        Outcome::Failed(ConfigError::usage(format!(
            "Config file {key} does not load"
        )))
    };
    ConfigReport {
        display_path: key
            .strip_prefix(&format!("{ROOT}/"))
            .unwrap_or(&key)
            .to_string(),
        files: vec![key.clone()],
        key,
        state,
        lines,
        outcome,
        stored,
    }
}

/// Where a fixture's path scopes resolve now (it must have loaded).
fn set_targets(r: &mut ConfigReport, targets: Vec<(String, String)>) {
    r.loaded_mut().expect("a config that loaded").targets = targets;
}

/// The trusted and current blocks a fixture's lines describe, so value-level
/// diffs see what the lines say: `allow-net: a, b` is the array `["a","b"]`,
/// `allow-read: any path` is `true`.
fn blocks_of(lines: &[DiffLine]) -> (String, String) {
    fn block(lines: &[&str]) -> String {
        use crate::core::config::json::quote_json_string;
        let mut sections: Vec<(&str, Vec<String>)> = Vec::new();
        for line in lines {
            let Some((key, value)) = line.split_once(": ") else {
                continue;
            };
            let (section, key, member) = if let Some(k) = key.strip_prefix("sandbox.") {
                let v = if k.starts_with("copy") {
                    let items: Vec<String> = value.split(", ").map(quote_json_string).collect();
                    format!("[{}]", items.join(","))
                } else {
                    quote_json_string(value)
                };
                ("sandbox", k, v)
            } else if key.starts_with("unsafe-") {
                ("unsafe", key, "true".to_string())
            } else if value.starts_with("any ") {
                ("permissions", key, "true".to_string())
            } else {
                let items: Vec<String> = value.split(", ").map(quote_json_string).collect();
                ("permissions", key, format!("[{}]", items.join(",")))
            };
            let member = format!("{}:{member}", quote_json_string(key));
            match sections.iter_mut().find(|(s, _)| *s == section) {
                Some((_, m)) => m.push(member),
                None => sections.push((section, vec![member])),
            }
        }
        let mut parts: Vec<String> = sections
            .iter()
            .map(|(s, m)| format!("{}:{{{}}}", quote_json_string(s), m.join(",")))
            .collect();
        parts.push("\"version\":1".to_string());
        format!("{{{}}}", parts.join(","))
    }
    let old: Vec<&str> = lines
        .iter()
        .filter_map(|l| match l {
            DiffLine::Removed(s) | DiffLine::Unchanged(s) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    let new: Vec<&str> = lines
        .iter()
        .filter_map(|l| match l {
            DiffLine::Added(s) | DiffLine::Unchanged(s) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    (block(&old), block(&new))
}

fn entry_of(r: &ConfigReport, status: EntryStatus, summary: &str) -> StoreEntryReport {
    StoreEntryReport {
        key: r.key.clone(),
        display_path: r.display_path.clone(),
        status,
        trusted_at: "2025-11-03T09:12:44Z".to_string(),
        trusted_by: BY.to_string(),
        summary: summary.to_string(),
        lines: r.lines.clone(),
    }
}

/// A base revision `rev` of the repository at the fixtures' root, holding
/// `configs` (paths relative to the root).
pub fn since_base(rev: &str, configs: Vec<(&str, ConfigAt)>) -> SinceBase {
    SinceBase {
        rev: rev.to_string(),
        root: ROOT.to_string(),
        snapshot: Snapshot {
            label: rev.to_string(),
            configs: configs
                .into_iter()
                .map(|(p, c)| (p.to_string(), c))
                .collect(),
            ..Snapshot::default()
        },
    }
}

/// [`sample`] reviewed `--since main`: at `main`, `goccia.json`, `docs/`
/// and `bench/` were as they are now, `packages/api/` was as trusted (so
/// it widened since), `tools/` loaded (it broke since), `scripts/` did not
/// load, and `packages/web/` did not exist (added since).
pub fn sample_since() -> Fixture {
    let mut f = sample();
    let now = |rel: &str| {
        let r = f
            .configs
            .iter()
            .find(|c| c.display_path == rel)
            .expect("a sample config");
        config_of_block(r.block().expect("loads"))
    };
    let api_stored = f
        .configs
        .iter()
        .find(|c| c.display_path == "packages/api/goccia.toml")
        .and_then(|c| c.stored.as_ref())
        .map(|s| s.block.clone())
        .expect("stored");
    let base = since_base(
        "main",
        vec![
            ("goccia.json", now("goccia.json")),
            ("docs/goccia.json", now("docs/goccia.json")),
            ("bench/goccia.json", now("bench/goccia.json")),
            ("packages/api/goccia.toml", config_of(&api_stored)),
            (
                "tools/goccia.json",
                config_of_block(r#"{"permissions":{"allow-read":["/home/dev/shop/tools"]}}"#),
            ),
            (
                "scripts/goccia.toml",
                ConfigAt::Failed(crate::core::error::ConfigError::usage(
                    "/home/dev/shop/scripts/goccia.toml: Unexpected character at line 1",
                )),
            ),
        ],
    );
    f.since = Some(("main".to_string(), Ok(std::sync::Arc::new(base))));
    f
}

/// A small monorepo with one config in every state.
pub fn sample() -> Fixture {
    let root = report(
        "goccia.json",
        ConfigState::Trusted,
        unchanged(&["allow-read: /home/dev/shop/src", "allow-net: api.shop.test"]),
    );
    let mut api = report(
        "packages/api/goccia.toml",
        ConfigState::Changed,
        vec![
            DiffLine::Removed("allow-net: api.shop.test".into()),
            DiffLine::Added("allow-net: api.shop.test, payments.example".into()),
            DiffLine::Unchanged("allow-read: /home/dev/shop/data".into()),
            DiffLine::Added("unsafe-function-constructor: true".into()),
            DiffLine::Target {
                scope: "/home/dev/shop/data".into(),
                recorded: "/srv/shop-data".into(),
                current: "/tmp/shop-data".into(),
            },
        ],
    );
    set_targets(
        &mut api,
        vec![("/home/dev/shop/data".into(), "/tmp/shop-data".into())],
    );
    if let Some(s) = &mut api.stored {
        s.targets = vec![("/home/dev/shop/data".into(), "/srv/shop-data".into())];
    }
    let mut web = report(
        "packages/web/goccia.json5",
        ConfigState::NeverTrusted,
        unchanged(&[
            "allow-import: node_modules=/home/dev/shop/packages/web/node_modules",
            "allow-net: any public host",
            "unsafe-shadowrealm: true",
            "sandbox.copy: /home/dev/shop/packages/web/public=/public",
        ]),
    );
    web.files.push(format!("{ROOT}/base.json5"));
    let scripts = report(
        "scripts/goccia.toml",
        ConfigState::NeverTrusted,
        unchanged(&["allow-ffi: any library"]),
    );
    let mut tools = report("tools/goccia.json", ConfigState::Error, vec![]);
    tools.outcome = Outcome::Failed(ConfigError::usage(
        "Invalid config file /home/dev/shop/tools/goccia.json: permissions.allow-read must be an array of strings",
    ));
    let docs = report(
        "docs/goccia.json",
        ConfigState::NoRequest,
        unchanged(&["deny-net: any host"]),
    );
    let bench = report("bench/goccia.json", ConfigState::NoRequest, vec![]);

    let gone = report(
        "/home/dev/old-shop/goccia.json",
        ConfigState::Trusted,
        unchanged(&["allow-read: any path"]),
    );
    let other = report(
        "/home/dev/notes/goccia.toml",
        ConfigState::Trusted,
        unchanged(&["allow-net: notes.test"]),
    );
    let store = vec![
        entry_of(&other, EntryStatus::Ok, "allow-net"),
        entry_of(&gone, EntryStatus::Missing, "allow-read"),
        entry_of(&root, EntryStatus::Ok, "allow-net, allow-read"),
        entry_of(&api, EntryStatus::Changed, "allow-net, allow-read"),
    ];

    let sources = sample_sources(&web.key, &api.key);
    Fixture {
        configs: vec![root, api, web, scripts, tools, docs, bench],
        store,
        sources,
        ..Fixture::default()
    }
}

/// The sample's sources that inspect shows: the web app's config and the
/// file it extends, and the api's config (`web` and `api` are their keys).
fn sample_sources(web: &str, api: &str) -> HashMap<String, String> {
    let mut sources = HashMap::new();
    sources.insert(
        web.to_string(),
        "{\n  // the web app\n  \"extends\": \"../../base.json5\",\n  permissions: {\n    \"allow-import\": [\"node_modules=./node_modules\"],\n    \"allow-net\": true,\n  },\n  \"unsafe-shadowrealm\": true,\n}\n".to_string(),
    );
    sources.insert(
        format!("{ROOT}/base.json5"),
        "{\n  sandbox: {\n\tcopy: [\"./public=/public\"],\n  },\n}\n".to_string(),
    );
    sources.insert(
        api.to_string(),
        "[permissions]\nallow-net = [\"api.shop.test\", \"payments.example\"]\nallow-read = [\"../../data\"]\n\nunsafe-function-constructor = true\n".to_string(),
    );
    sources
}

/// The CI operator's policy the judged sample is reviewed with: the tree
/// is the workspace, network allowed, `DESTRUCTIVE` (R3: ffi, `unsafe-*`)
/// left to a person, the rest of home denied.
pub const SAMPLE_POLICY: &str = r#"{
  "approved_workspaces": ["."],
  "system_read_only_roots": ["/usr"],
  "personal_data_roots": ["~"],
  "denied_roots": ["~/.ssh"],
  "grants": {
    "READ_ONLY": "allow",
    "WORKSPACE_WRITE": "allow",
    "EXTERNAL_EFFECT": "allow",
    "DESTRUCTIVE": "needs_auth"
  },
  "risk_to_level": {"R0": "READ_ONLY", "R1": "WORKSPACE_WRITE", "R2": "EXTERNAL_EFFECT", "R3": "DESTRUCTIVE"}
}"#;

/// [`sample`] reviewed with `--policy` ([`SAMPLE_POLICY`]): each config's
/// requests as the gate's operations, judged by the real evaluation, so
/// the verdicts and reasons are the ones `trust --yes --policy` prints.
/// `goccia.json` is ALLOWED, `packages/api` and `packages/web` NEED_AUTH
/// (an `unsafe-*` key), `scripts` (ffi of any library, judged on `/`)
/// DENIED; the error and the configs asking nothing are not judged.
pub fn sample_judged() -> Fixture {
    use crate::core::env::Env;
    use crate::core::policy::load::{PolicySource, parse_policy};
    use RequestKind::*;
    let env = Env {
        cwd: ROOT.into(),
        home: "/home/dev".into(),
        ..Env::default()
    };
    let policy = parse_policy(
        SAMPLE_POLICY.as_bytes(),
        PolicySource::File("/etc/ci/trust-policy.json".into()),
        &env,
        &[ROOT.to_string()],
        std::path::Path::new("/home/dev/.config/goccia"),
    )
    .unwrap_or_else(|e| panic!("the sample policy: {e}"));
    let op = |kind, scope: Option<&str>, dir: &str| {
        Operation::for_request(kind, scope, std::path::Path::new(&format!("{ROOT}/{dir}")))
    };
    let requests: [(&str, Vec<Operation>); 4] = [
        (
            "goccia.json",
            vec![
                op(AllowRead, Some("/home/dev/shop/src"), ""),
                op(AllowNet, Some("api.shop.test"), ""),
            ],
        ),
        (
            "packages/api/goccia.toml",
            vec![
                op(AllowNet, Some("api.shop.test"), "packages/api"),
                op(AllowNet, Some("payments.example"), "packages/api"),
                op(AllowRead, Some("/home/dev/shop/data"), "packages/api"),
                op(UnsafeFunctionConstructor, None, "packages/api"),
            ],
        ),
        (
            "packages/web/goccia.json5",
            vec![
                op(
                    AllowImportNodeModules,
                    Some("node_modules=/home/dev/shop/packages/web/node_modules"),
                    "packages/web",
                ),
                op(AllowNet, None, "packages/web"),
                op(
                    SandboxCopy,
                    Some("/home/dev/shop/packages/web/public"),
                    "packages/web",
                ),
                op(UnsafeShadowrealm, None, "packages/web"),
            ],
        ),
        ("scripts/goccia.toml", vec![op(AllowFfi, None, "scripts")]),
    ];
    let mut f = sample();
    f.decisions = requests
        .into_iter()
        .map(|(rel, ops)| {
            (
                format!("{ROOT}/{rel}"),
                evaluate_config(&policy, &ops, &env),
            )
        })
        .collect();
    f.policy = Some(format!("{} (sha256 {})", policy.source, policy.sha256));
    f
}

/// `n` configs in a deterministic mix of states, for size and speed tests.
pub fn generated(n: usize) -> Fixture {
    let states = [
        ConfigState::Trusted,
        ConfigState::Trusted,
        ConfigState::NeverTrusted,
        ConfigState::NoRequest,
        ConfigState::Changed,
        ConfigState::Trusted,
        ConfigState::Error,
    ];
    let configs = (0..n)
        .map(|i| {
            let state = states[i % states.len()];
            let path = format!(
                "services/svc-{:05}/goccia.{}",
                i,
                ["json", "toml", "json5"][i % 3]
            );
            let lines = match state {
                ConfigState::Changed => vec![
                    DiffLine::Removed(format!("allow-net: svc-{i}.internal")),
                    DiffLine::Added(format!("allow-net: svc-{i}.internal, metrics.internal")),
                    DiffLine::Unchanged("allow-read: ./data".into()),
                ],
                ConfigState::NoRequest | ConfigState::Error => vec![],
                _ => unchanged(&["allow-read: ./data", "allow-net: registry.internal"]),
            };
            let mut r = report(&path, state, lines);
            if state == ConfigState::Error {
                r.outcome = Outcome::Failed(ConfigError::usage(format!(
                    "Config file {path} is not valid JSON at line {}",
                    i % 40 + 1
                )));
            }
            r
        })
        .collect::<Vec<_>>();
    let store = configs
        .iter()
        .filter(|c| c.stored.is_some())
        .map(|c| {
            let status = if c.state == ConfigState::Changed {
                EntryStatus::Changed
            } else {
                EntryStatus::Ok
            };
            entry_of(c, status, "allow-net, allow-read")
        })
        .collect();
    Fixture {
        configs,
        store,
        ..Fixture::default()
    }
}

/// Every string carries ESC sequences, NUL, DEL, C1 controls or bidi
/// overrides. Rendering any view of it must put none of them on screen.
pub fn hostile() -> Fixture {
    let evil = "\u{1b}[2J\u{1b}]0;pwned\u{7}\u{0}\u{7f}\u{9b}31m\u{202e}moc.live\u{202c}\u{2066}x\u{2069}\u{200e}\u{200f}\u{061c}\r\n\t";
    let path = format!("evil{evil}dir/goccia.json");
    let mut never = report(
        &path,
        ConfigState::NeverTrusted,
        unchanged(&[
            &format!("allow-net: {evil}.example"),
            &format!("allow-read: /tmp/{evil}"),
        ]),
    );
    never.files.push(format!("/home/dev/shop/base{evil}.json"));
    let mut changed = report(
        &format!("ch{evil}/goccia.toml"),
        ConfigState::Changed,
        vec![
            DiffLine::Removed(format!("allow-net: old{evil}")),
            DiffLine::Added(format!("allow-net: new{evil}")),
            DiffLine::Target {
                scope: format!("/data{evil}"),
                recorded: format!("/srv{evil}"),
                current: format!("/tmp{evil}"),
            },
        ],
    );
    if let Some(s) = &mut changed.stored {
        s.trusted_by = format!("goccia-trust{evil}");
        s.trusted_at = format!("2025{evil}");
        s.targets = vec![(format!("/data{evil}"), format!("/srv{evil}"))];
    }
    set_targets(
        &mut changed,
        vec![(format!("/data{evil}"), format!("/tmp{evil}"))],
    );
    let mut broken = report(
        &format!("err{evil}/goccia.json"),
        ConfigState::Error,
        vec![],
    );
    broken.outcome = Outcome::Failed(ConfigError::usage(format!(
        "Invalid config {evil}: bad\n{evil} second line"
    )));
    let mut store: Vec<StoreEntryReport> = [&never, &changed]
        .iter()
        .map(|c| entry_of(c, EntryStatus::Missing, &format!("allow-net{evil}")))
        .collect();
    store.push(StoreEntryReport {
        status: EntryStatus::Unreadable(ConfigError::usage(format!("cannot load {evil}"))),
        ..entry_of(&broken, EntryStatus::Ok, evil)
    });
    let mut sources = HashMap::new();
    sources.insert(
        never.key.clone(),
        format!("{{\n  \"permissions\": {{ \"allow-net\": [\"{evil}\"] }}\n}}\n"),
    );
    // Judged by a policy, with the hostile host and path in the decision
    // lines and in the policy's own label.
    let (policy, decisions) = hostile_judged(evil, &never.key);
    Fixture {
        configs: vec![never, changed, broken],
        store,
        sources,
        policy: Some(policy),
        decisions,
        since: None,
    }
}

/// The hostile fixture's policy label and its decision on the config of
/// `key`, each carrying `evil`.
fn hostile_judged(evil: &str, key: &str) -> (String, HashMap<String, ConfigDecision>) {
    let env = crate::core::env::Env {
        cwd: ROOT.into(),
        home: "/home/dev".into(),
        ..crate::core::env::Env::default()
    };
    let policy = crate::core::policy::load::parse_policy(
        SAMPLE_POLICY.as_bytes(),
        crate::core::policy::load::PolicySource::File(format!("/ci/{evil}.json").into()),
        &env,
        &[ROOT.to_string()],
        std::path::Path::new("/home/dev/.config/goccia"),
    )
    .unwrap_or_else(|e| panic!("the sample policy: {e}"));
    let dir = std::path::Path::new(ROOT);
    let ops = [
        Operation::for_request(RequestKind::AllowNet, Some(evil), dir),
        Operation::for_request(
            RequestKind::AllowRead,
            Some(&format!("/home/dev/.ssh/{evil}")),
            dir,
        ),
    ];
    let decisions = HashMap::from([(key.to_string(), evaluate_config(&policy, &ops, &env))]);
    let label = format!("{} (sha256 {})", policy.source, policy.sha256);
    (label, decisions)
}

/// The decision screens (issue 30 item 4): `hosts/` asks for 36 hosts and
/// one of them was swapped since it was trusted; `packages/app/` reads a
/// directory whose link was re-pointed from the shared assets to a long
/// path under `/tmp` since it was trusted.
pub fn decision_screens() -> Fixture {
    let list = |swapped: Option<&str>| {
        (1..=36)
            .map(|i| match (i, swapped) {
                (18, Some(h)) => h.to_string(),
                _ => format!("gw{i:02}.example.com"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let hosts = report(
        "hosts/goccia.json",
        ConfigState::Changed,
        vec![
            DiffLine::Removed(format!("allow-net: {}", list(None))),
            DiffLine::Added(format!("allow-net: {}", list(Some("gw18.attacker.io")))),
        ],
    );
    let scope = format!("{ROOT}/packages/app/assets");
    let was = format!("{ROOT}/shared/app-assets-v1");
    let now = "/tmp/attacker-controlled-checkout/app/assets/current".to_string();
    let mut app = report(
        "packages/app/goccia.json",
        ConfigState::Changed,
        vec![
            DiffLine::Unchanged(format!("allow-read: {scope}")),
            DiffLine::Target {
                scope: scope.clone(),
                recorded: was.clone(),
                current: now.clone(),
            },
        ],
    );
    set_targets(&mut app, vec![(scope.clone(), now)]);
    if let Some(s) = &mut app.stored {
        s.targets = vec![(scope, was)];
    }
    let mut sources = HashMap::new();
    sources.insert(
        app.key.clone(),
        "{\"permissions\": {\"allow-read\": [\"./assets\"]}}\n".to_string(),
    );
    Fixture {
        configs: vec![hosts, app],
        sources,
        ..Fixture::default()
    }
}

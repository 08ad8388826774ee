//! Who changed what, by content (issue 40): each value is credited to the
//! commit that made it a grant, not to the last commit that touched its
//! line; history is read as git stores it (grafts not believed, a shallow
//! boundary said). Each try on a real repository, in every surface that
//! shows provenance: `diff` (text, JSON, markdown, github, SARIF),
//! `inspect` (text, JSON), `trust --why`, and the TUI's pane at 80x24.

use crate::common::Output;
use crate::common::git::GIT_ENV;
use crate::provenance::Repo;

/// A config whose `allow-net` list is on one line, as written by
/// `indent` spaces.
pub(crate) fn one_line(indent: usize, hosts: &[&str]) -> String {
    let pad = " ".repeat(indent);
    let list: Vec<String> = hosts.iter().map(|h| format!("\"{h}\"")).collect();
    format!(
        "{{\n{pad}\"permissions\": {{\n{pad}{pad}\"allow-net\": [{}]\n{pad}}}\n}}\n",
        list.join(", ")
    )
}

pub(crate) fn short(sha: &str) -> String {
    sha[..7].to_string()
}

pub(crate) fn run(r: &Repo, args: &[&str]) -> Output {
    r.t.run_in(std::path::Path::new(&r.root), args, GIT_ENV)
}

/// Alice writes a one-line list (trusted, in commit `base`); Bob adds
/// `exfil.attacker.io` on that line, Carol `edge41.example` on the same
/// line, Dave re-indents the file; then `wip.example` is added on that line
/// in the working tree. Returns (repo, base, bob, carol).
pub(crate) fn three_authors_on_one_line() -> (Repo, String, String, String) {
    let r = Repo::new();
    r.write("app/goccia.json", &one_line(2, &["a.test"]));
    let base = r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    let out = run(&r, &["trust", "app", "--yes"]);
    assert_eq!(out.code, 0, "{out}");
    r.write(
        "app/goccia.json",
        &one_line(2, &["a.test", "exfil.attacker.io"]),
    );
    let bob = r.commit_as("Bob", "2099-03-01T09:00:00Z", "bump deps");
    r.write(
        "app/goccia.json",
        &one_line(2, &["a.test", "exfil.attacker.io", "edge41.example"]),
    );
    let carol = r.commit_as("Carol", "2099-03-02T09:00:00Z", "add the edge");
    r.write(
        "app/goccia.json",
        &one_line(4, &["a.test", "exfil.attacker.io", "edge41.example"]),
    );
    r.commit_as("Dave", "2099-03-03T09:00:00Z", "reformat");
    r.write(
        "app/goccia.json",
        &one_line(
            4,
            &[
                "a.test",
                "exfil.attacker.io",
                "edge41.example",
                "wip.example",
            ],
        ),
    );
    (r, base, short(&bob), short(&carol))
}

#[test]
fn one_line_three_authors_a_reformat_and_an_edit_in_inspect_and_trust_why() {
    let (r, _, bob, carol) = three_authors_on_one_line();
    let expect = [
        format!("    added allow-net: exfil.attacker.io · {bob} Bob 2099-03-01\n"),
        format!("    added allow-net: edge41.example · {carol} Carol 2099-03-02\n"),
        "    added allow-net: wip.example · not committed\n".to_string(),
    ];
    let inspect = run(&r, &["inspect", "app/goccia.json"]);
    let why = run(&r, &["trust", "app", "--dry-run", "--why"]);
    for out in [&inspect, &why] {
        assert_eq!(out.code, 0, "{out}");
        for line in &expect {
            assert!(out.stdout.contains(line.as_str()), "{line}\n{out}");
        }
        assert!(
            !out.stdout
                .contains("· not committed\n    added allow-net: edge41")
        );
    }
    // The reformat is listed (it touched the file) but credited nothing.
    assert!(
        inspect.stdout.contains("3 commits since trusted:"),
        "{inspect}"
    );
    let doc = crate::json_contract::valid(
        "inspect",
        &run(&r, &["inspect", "--json", "app/goccia.json"]).stdout,
    );
    let origins = doc["provenance"]["origins"].as_array().unwrap();
    let by = |v: &str| {
        origins
            .iter()
            .find(|o| o["value"] == v)
            .unwrap_or_else(|| panic!("{v}: {doc:#}"))["origin"]
            .clone()
    };
    assert_eq!(by("exfil.attacker.io")["commit"]["author"], "Bob");
    assert_eq!(by("edge41.example")["commit"]["author"], "Carol");
    assert_eq!(by("wip.example")["kind"], "notCommitted");
}

#[test]
fn one_line_three_authors_in_diff_in_every_format() {
    let (r, base, bob, carol) = three_authors_on_one_line();
    let text = run(&r, &["diff", &base]);
    assert_eq!(text.code, 1, "{text}");
    let line = |needle: &str| text.line_with(needle);
    assert!(
        line("exfil.attacker.io").ends_with(&format!("· {bob} Bob 2099-03-01 \"bump deps\"")),
        "{text}"
    );
    assert!(
        line("edge41.example").ends_with(&format!("· {carol} Carol 2099-03-02 \"add the edge\"")),
        "{text}"
    );
    assert!(line("wip.example").ends_with("· not committed"), "{text}");
    let json = run(&r, &["diff", &base, "--json"]);
    let doc = crate::json_contract::valid("diff", &json.stdout);
    let values = json_values(&doc);
    let origin = |v: &str| {
        values
            .iter()
            .find(|x| x["value"] == v)
            .unwrap_or_else(|| panic!("{v}: {doc:#}"))["origin"]
            .clone()
    };
    assert_eq!(origin("exfil.attacker.io")["commit"]["author"], "Bob");
    assert_eq!(origin("edge41.example")["commit"]["author"], "Carol");
    assert_eq!(origin("wip.example")["kind"], "notCommitted");
    for format in ["markdown", "github", "sarif"] {
        let out = run(&r, &["diff", &base, "--format", format]);
        assert!(
            out.stdout.contains(&format!("{bob} Bob 2099-03-01")),
            "{format}: {out}"
        );
        assert!(
            out.stdout.contains(&format!("{carol} Carol 2099-03-02")),
            "{format}: {out}"
        );
        assert!(!out.stdout.contains(" Dave "), "{format}: {out}");
    }
}

/// Every value of every request of the first config of `diff --json`.
pub(crate) fn json_values(doc: &serde_json::Value) -> Vec<serde_json::Value> {
    doc["configs"][0]["requests"]
        .as_array()
        .unwrap_or_else(|| panic!("{doc:#}"))
        .iter()
        .flat_map(|r| r["values"].as_array().unwrap().clone())
        .collect()
}

/// Alice's `deny-read` (trusted) made `allow-read` by Mallory, who changed
/// only the key's line: the widening is Mallory's.
fn key_line_changed() -> (Repo, String, String) {
    let r = Repo::new();
    let deny = "{\n  \"permissions\": {\n    \"allow-net\": [\"a.test\"],\n    \"deny-read\": [\n      \"./secrets\"\n    ]\n  }\n}\n";
    r.write("goccia.json", deny);
    let base = r.commit_as("Alice", "2026-01-10T09:00:00Z", "deny secrets");
    assert_eq!(run(&r, &["trust", ".", "--yes"]).code, 0);
    r.write("goccia.json", &deny.replace("deny-read", "allow-read"));
    let mallory = r.commit_as("Mallory", "2099-03-01T09:00:00Z", "tidy");
    (r, base, short(&mallory))
}

#[test]
fn a_key_line_change_is_credited_to_its_commit_everywhere() {
    let (r, base, m) = key_line_changed();
    let added = format!("added allow-read: $ROOT/work/secrets · {m} Mallory 2099-03-01\n");
    for args in [
        &["inspect", "goccia.json"][..],
        &["trust", ".", "--dry-run", "--why"][..],
    ] {
        let out = run(&r, args);
        assert!(out.stdout.contains(&added), "{args:?}: {out}");
    }
    let out = run(&r, &["diff", &base, "HEAD"]);
    let line = out
        .stdout
        .lines()
        .find(|l| l.starts_with("    + ") && l.contains("/secrets"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.ends_with(&format!("· {m} Mallory 2099-03-01 \"tidy\"")),
        "{out}"
    );
    let doc =
        crate::json_contract::valid("diff", &run(&r, &["diff", &base, "HEAD", "--json"]).stdout);
    let v = json_values(&doc)
        .into_iter()
        .find(|v| v["value"] == "$ROOT/work/secrets" && v["change"] == "added")
        .unwrap_or_else(|| panic!("{doc:#}"));
    assert_eq!(v["origin"]["commit"]["author"], "Mallory", "{doc:#}");
    let md = run(&r, &["diff", &base, "HEAD", "--format", "markdown"]);
    assert!(
        md.stdout.contains(&format!("{m}` Mallory")) || md.stdout.contains(&format!("{m} Mallory")),
        "{md}"
    );
    for format in ["github", "sarif"] {
        let out = run(&r, &["diff", &base, "HEAD", "--format", format]);
        assert!(
            out.stdout.contains(&format!("{m} Mallory 2099-03-01")),
            "{format}: {out}"
        );
        assert!(!out.stdout.contains(" Alice "), "{format}: {out}");
    }
    let doc = crate::json_contract::valid(
        "inspect",
        &run(&r, &["inspect", "--json", "goccia.json"]).stdout,
    );
    let o = &doc["provenance"]["origins"][0];
    assert_eq!(o["value"], "$ROOT/work/secrets", "{doc:#}");
    assert_eq!(o["origin"]["commit"]["author"], "Mallory", "{doc:#}");
}

/// The key-line change in the review at 80x24: the pane names Mallory on
/// the widening value's line, and so does the confirmation `t` opens.
#[test]
fn the_pane_and_the_confirmation_credit_a_key_line_change_at_80x24() {
    use crate::tui_tmux::Tmux;
    use std::time::Duration;
    if !Tmux::available() {
        return;
    }
    let (r, _, m) = key_line_changed();
    let store = format!(
        "--trust-store={}",
        r.t.home.join(".config/goccia/trust.json").display()
    );
    let t = crate::tui_provenance::review_at_80x24("content-key-line", &r, &r.t.home, &store, ".");
    let credit = format!("· {m} Mallory 2099-03-01");
    t.wait_for_all(&["/secrets", &credit], Duration::from_secs(10));
    t.send_keys(&["t"]);
    let screen = t.wait_for_all(&["(changed)", &credit], Duration::from_secs(10));
    // The confirmation's own value line (indented under its config), not
    // the pane's behind it.
    assert!(
        screen
            .lines()
            .any(|l| l.contains("│    + ") && l.contains(&credit)),
        "{screen}"
    );
    assert!(!screen.contains(" Alice "), "{screen}");
    t.send_keys(&["n"]);
    t.send_keys(&["q"]);
    t.wait_for("goccia-trust exited 0", Duration::from_secs(10));
}

/// Alice's trusted config; Mallory adds `evil.test`; Alice then adds
/// `ok.test`. Returns (repo, trusted commit, mallory, alice's second).
pub(crate) fn mallory_then_alice() -> (Repo, String, String, String) {
    let r = Repo::new();
    let v = |hosts: &[&str]| {
        let list: Vec<String> = hosts.iter().map(|h| format!("\n      \"{h}\"")).collect();
        format!(
            "{{\n  \"permissions\": {{\n    \"allow-net\": [{}\n    ]\n  }}\n}}\n",
            list.join(",")
        )
    };
    r.write("goccia.json", &v(&["a.test"]));
    let trusted = r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    assert_eq!(run(&r, &["trust", ".", "--yes"]).code, 0);
    r.write("goccia.json", &v(&["a.test", "evil.test"]));
    let mallory = r.commit_as("Mallory", "2099-03-01T09:00:00Z", "bump");
    r.write("goccia.json", &v(&["a.test", "evil.test", "ok.test"]));
    let alice = r.commit_as("Alice", "2099-03-02T09:00:00Z", "add ok");
    (r, trusted, mallory, alice)
}

#[test]
fn grafts_are_not_believed() {
    let (r, trusted, mallory, alice) = mallory_then_alice();
    // Alice's commit re-parented onto the trusted one: Mallory's vanishes
    // from any history git is asked for with the graft believed.
    std::fs::write(
        format!("{}/.git/info/grafts", r.root),
        format!("{alice} {trusted}\n"),
    )
    .unwrap();
    let believed = r.git(&["log", "--format=%an"]);
    assert!(!believed.contains("Mallory"), "the graft works: {believed}");
    let m = short(&mallory);
    let out = run(&r, &["inspect", "goccia.json"]);
    assert!(out.stdout.contains("2 commits since trusted:"), "{out}");
    assert!(
        out.stdout.contains(&format!(
            "added allow-net: evil.test · {m} Mallory 2099-03-01\n"
        )),
        "{out}"
    );
    let why = run(&r, &["trust", ".", "--dry-run", "--why"]);
    assert!(
        why.stdout.contains(&format!("evil.test · {m} Mallory")),
        "{why}"
    );
    let diff = run(&r, &["diff", &trusted, "HEAD"]);
    let line = diff
        .stdout
        .lines()
        .find(|l| l.contains("evil.test"))
        .unwrap_or_else(|| panic!("{diff}"));
    assert!(line.contains(&format!("· {m} Mallory")), "{diff}");
    for format in ["markdown", "github", "sarif"] {
        let out = run(&r, &["diff", &trusted, "HEAD", "--format", format]);
        assert!(
            out.stdout.contains(&format!("{m} Mallory")),
            "{format}: {out}"
        );
    }
    let doc = crate::json_contract::valid(
        "inspect",
        &run(&r, &["inspect", "--json", "goccia.json"]).stdout,
    );
    let o = &doc["provenance"]["origins"][0];
    assert_eq!(o["value"], "evil.test", "{doc:#}");
    assert_eq!(o["origin"]["commit"]["author"], "Mallory", "{doc:#}");
    let authors: Vec<&str> = doc["provenance"]["commits"]
        .as_array()
        .unwrap_or_else(|| panic!("{doc:#}"))
        .iter()
        .map(|c| c["author"].as_str().unwrap())
        .collect();
    assert_eq!(authors, ["Alice", "Mallory"], "{doc:#}");
    // `HEAD~1` is Mallory's commit too, not the trusted one.
    let diff = run(&r, &["diff", "HEAD~1", "HEAD"]);
    assert!(!diff.stdout.contains("evil.test  (widens)"), "{diff}");
}

#[test]
fn a_shallow_boundary_is_said_not_taken_for_an_origin() {
    let (r, _, _, alice) = mallory_then_alice();
    // `.git/shallow` naming Alice's commit: git shows it without parents,
    // as if it had written the whole file.
    std::fs::write(format!("{}/.git/shallow", r.root), format!("{alice}\n")).unwrap();
    let a = short(&alice);
    let said =
        format!("added allow-net: evil.test · origin unknown: history is shallow before {a}\n");
    for args in [
        &["inspect", "goccia.json"][..],
        &["trust", ".", "--dry-run", "--why"][..],
    ] {
        let out = run(&r, args);
        assert!(out.stdout.contains(&said), "{args:?}: {out}");
        assert!(!out.stdout.contains(&format!("evil.test · {a}")), "{out}");
    }
    let doc = crate::json_contract::valid(
        "inspect",
        &run(&r, &["inspect", "--json", "goccia.json"]).stdout,
    );
    let o = &doc["provenance"]["origins"][0]["origin"];
    assert_eq!(o["kind"], "unknown", "{doc:#}");
    assert_eq!(
        o["reason"],
        format!("history is shallow before {a}"),
        "{doc:#}"
    );
}

#[test]
fn a_shallow_clone_says_where_its_history_stops() {
    let (r, _, _, _) = mallory_then_alice();
    let clone = r.t.work.parent().unwrap().join("clone");
    crate::common::git::git(
        r.t.work.parent().unwrap(),
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            &format!("file://{}", r.root),
            clone.to_str().unwrap(),
        ],
    );
    let head = crate::common::git::git(&clone, &["rev-parse", "HEAD"]);
    let clone_root = std::fs::canonicalize(&clone).unwrap();
    // Trusted as Alice first wrote it, in the clone.
    let now = std::fs::read_to_string(clone_root.join("goccia.json")).unwrap();
    std::fs::write(
        clone_root.join("goccia.json"),
        "{\"permissions\": {\"allow-net\": [\"a.test\"]}}\n",
    )
    .unwrap();
    let out = r.t.run_in(&clone_root, &["trust", ".", "--yes"], GIT_ENV);
    assert_eq!(out.code, 0, "{out}");
    std::fs::write(clone_root.join("goccia.json"), now).unwrap();
    let out =
        r.t.run_in(&clone_root, &["inspect", "goccia.json"], GIT_ENV);
    assert!(
        out.stdout.contains(&format!(
            "added allow-net: evil.test · origin unknown: history is shallow before {}\n",
            short(head.trim())
        )),
        "{out}"
    );
}

/// The pane at 80x24 in tmux, on the one-line story: each value its
/// author, the working-tree edit not committed.
#[test]
fn the_pane_credits_each_value_of_one_line_at_80x24() {
    use crate::tui_tmux::Tmux;
    use std::time::Duration;
    if !Tmux::available() {
        return;
    }
    let (r, _, bob, carol) = three_authors_on_one_line();
    let home = r.t.home.clone();
    let store = format!(
        "--trust-store={}",
        r.t.home.join(".config/goccia/trust.json").display()
    );
    let t = crate::tui_provenance::review_at_80x24("content-origin", &r, &home, &store, ".");
    let (exfil, edge) = (
        format!("+ exfil.attacker.io · {bob} Bob"),
        format!("+ edge41.example · {carol} Carol"),
    );
    t.wait_for_all(
        &[&exfil, &edge, "+ wip.example · not committed"],
        Duration::from_secs(10),
    );
    t.send_keys(&["q"]);
    t.wait_for("goccia-trust exited 0", Duration::from_secs(10));
}

/// The store's `trustedAt` of its only entry.
pub(crate) fn trusted_at(r: &Repo) -> String {
    let store = std::fs::read_to_string(r.t.home.join(".config/goccia/trust.json")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&store).unwrap();
    let entries = doc.as_object().unwrap();
    let (_, entry) = entries
        .iter()
        .find(|(_, v)| v.get("trustedAt").is_some())
        .or_else(|| {
            entries.values().find_map(|v| {
                v.as_object()?
                    .iter()
                    .find(|(_, e)| e.get("trustedAt").is_some())
            })
        })
        .unwrap_or_else(|| panic!("{store}"));
    entry["trustedAt"].as_str().unwrap().to_string()
}

/// Trusted, then committed in the same second (scripted commit-then-trust
/// the other way round hits it too): the commit holds the trusted version,
/// so it is not "since trusted"; Bob's later one is.
#[test]
fn a_commit_of_the_trusted_version_in_the_same_second_is_not_since_trusted() {
    let r = Repo::new();
    r.write("goccia.json", &one_line(2, &["a.test"]));
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    r.write("goccia.json", &one_line(2, &["a.test", "b.test"]));
    assert_eq!(run(&r, &["trust", ".", "--yes"]).code, 0);
    let at = trusted_at(&r);
    let same = r.commit_as("Alice", &at, "commit what was trusted");
    r.write("goccia.json", &one_line(2, &["a.test", "b.test", "c.test"]));
    let bob = r.commit_as("Bob", "2099-03-01T09:00:00Z", "more");
    for args in [
        &["inspect", "goccia.json"][..],
        &["trust", ".", "--dry-run", "--why"][..],
    ] {
        let out = run(&r, args);
        assert!(
            out.stdout.contains("1 commit since trusted:\n"),
            "{args:?}: {out}"
        );
        assert!(!out.stdout.contains(&short(&same)), "{args:?}: {out}");
        assert!(out.stdout.contains(&short(&bob)), "{args:?}: {out}");
        assert!(!out.stdout.contains("counted by date"), "{out}");
    }
    let doc = crate::json_contract::valid(
        "inspect",
        &run(&r, &["inspect", "--json", "goccia.json"]).stdout,
    );
    assert_eq!(doc["provenance"]["trustedCommit"], same.as_str(), "{doc:#}");
    assert!(doc["provenance"].get("byDate").is_none(), "{doc:#}");
}

/// A version trusted but never committed: the commits are counted by date,
/// and that is said.
#[test]
fn without_a_commit_of_the_trusted_version_the_count_is_by_date_and_says_so() {
    let r = Repo::new();
    r.write("goccia.json", &one_line(2, &["a.test"]));
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    r.write("goccia.json", &one_line(2, &["a.test", "x.test"]));
    assert_eq!(run(&r, &["trust", ".", "--yes"]).code, 0);
    r.write("goccia.json", &one_line(2, &["a.test", "b.test"]));
    r.commit_as("Bob", "2099-03-01T09:00:00Z", "more");
    let out = run(&r, &["inspect", "goccia.json"]);
    assert!(
        out.stdout.contains(
            "1 commit since trusted:\n      (counted by date: no commit holds the trusted version)\n"
        ),
        "{out}"
    );
    let doc = crate::json_contract::valid(
        "inspect",
        &run(&r, &["inspect", "--json", "goccia.json"]).stdout,
    );
    assert_eq!(doc["provenance"]["byDate"], true, "{doc:#}");
}

/// `app` reads `../shared`, a link to `shared-v1` (Alice, trusted); Carol
/// re-points it to `shared-v2`. Returns (repo, base, carol's short id).
pub(crate) fn link_repointed() -> (Repo, String, String) {
    let r = Repo::new();
    r.write(
        "app/goccia.json",
        "{\"permissions\": {\"allow-read\": [\"../shared\"], \"allow-net\": [\"a.test\"]}}\n",
    );
    r.write("shared-v1/x", "x");
    r.write("shared-v2/x", "x");
    r.t.symlink("shared-v1", "shared");
    let base = r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    assert_eq!(run(&r, &["trust", "app", "--yes"]).code, 0);
    std::fs::remove_file(r.t.work.join("shared")).unwrap();
    r.t.symlink("shared-v2", "shared");
    let carol = r.commit_as("Carol", "2099-03-01T09:00:00Z", "move shared");
    (r, base, short(&carol))
}

#[test]
fn a_re_pointed_link_is_credited_in_inspect_and_trust_why() {
    let (r, _, carol) = link_repointed();
    let credited =
        format!("    re-targeted allow-read: $ROOT/work/shared · {carol} Carol 2099-03-01\n");
    let inspect = run(&r, &["inspect", "app/goccia.json"]);
    assert!(
        inspect.stdout.contains(
            "~ target of $ROOT/work/shared: $ROOT/work/shared-v1 -> $ROOT/work/shared-v2"
        ),
        "what it led to when trusted and now: {inspect}"
    );
    assert!(
        inspect.stdout.contains("1 commit since trusted:"),
        "{inspect}"
    );
    assert!(inspect.stdout.contains(&credited), "{inspect}");
    let why = run(&r, &["trust", "app", "--dry-run", "--why"]);
    assert!(why.stdout.contains(&credited), "{why}");
    let doc = crate::json_contract::valid(
        "inspect",
        &run(&r, &["inspect", "--json", "app/goccia.json"]).stdout,
    );
    let t = &doc["provenance"]["retargets"][0];
    assert_eq!(t["request"], "allow-read", "{doc:#}");
    assert_eq!(t["value"], "$ROOT/work/shared", "{doc:#}");
    assert_eq!(t["origin"]["commit"]["author"], "Carol", "{doc:#}");
    // Re-pointed again on disk, not committed: said so.
    std::fs::remove_file(r.t.work.join("shared")).unwrap();
    r.t.symlink("shared-v1/..", "shared");
    let out = run(&r, &["inspect", "app/goccia.json"]);
    assert!(
        out.stdout
            .contains("re-targeted allow-read: $ROOT/work/shared · not committed\n"),
        "{out}"
    );
}

/// The pane at 80x24 names the commit that re-pointed the link on the `~`
/// line.
#[test]
fn the_pane_credits_a_re_pointed_link_at_80x24() {
    use crate::tui_tmux::Tmux;
    use std::time::Duration;
    if !Tmux::available() {
        return;
    }
    let (r, _, carol) = link_repointed();
    let store = format!(
        "--trust-store={}",
        r.t.home.join(".config/goccia/trust.json").display()
    );
    let t = crate::tui_provenance::review_at_80x24("content-link", &r, &r.t.home, &store, "app");
    // The `~` line wraps at 80 columns: its id, then the author.
    let credit = format!("shared-v2 · {carol}");
    let screen = t.wait_for_all(&[&credit, "Carol 2099-03-01"], Duration::from_secs(10));
    assert!(!screen.contains("no commit since trusted"), "{screen}");
    t.send_keys(&["q"]);
    t.wait_for("goccia-trust exited 0", Duration::from_secs(10));
}

/// `goccia-trust ARGS` on a pseudo-terminal in the repository (stdin
/// closed): the terminal's text, CRLF folded.
fn on_terminal(r: &Repo, args: &str) -> String {
    use std::process::{Command, Stdio};
    let bin = env!("CARGO_BIN_EXE_goccia-trust");
    let mut child = Command::new("script")
        .args(["-qec", &format!("{bin} {args}"), "/dev/null"])
        .current_dir(&r.root)
        .env_clear()
        .env("HOME", &r.t.home)
        .env("PATH", "/usr/bin:/bin")
        .env("NO_COLOR", "1")
        .envs(GIT_ENV.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("script(1) from util-linux");
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    r.t.redact(&String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n"))
}

/// On a terminal, the `trust` listing names the commit and author of each
/// widening value, of a changed config and of a new one (the commit that
/// added it); piped, and as GocciaScript spells it, the bytes are
/// GocciaScript's.
#[test]
fn the_trust_listing_on_a_terminal_names_who_made_each_widening_value() {
    let (r, _, bob, carol) = three_authors_on_one_line();
    r.write("lib/goccia.json", &one_line(2, &["lib.example"]));
    // Only lib is committed: app's edit stays in the working tree.
    r.git(&["add", "lib"]);
    let who = [
        ("GIT_AUTHOR_NAME", "Dave"),
        ("GIT_AUTHOR_EMAIL", "dave@example.invalid"),
        ("GIT_AUTHOR_DATE", "2099-03-04T09:00:00Z"),
        ("GIT_COMMITTER_DATE", "2099-03-04T09:00:00Z"),
    ];
    r.git_env(&["commit", "-q", "-m", "add lib"], &who);
    let dave = short(r.git(&["rev-parse", "HEAD"]).trim());
    let screen = on_terminal(&r, "trust . --dry-run");
    for line in [
        format!("    added allow-net: exfil.attacker.io · {bob} Bob 2099-03-01\n"),
        format!("    added allow-net: edge41.example · {carol} Carol 2099-03-02\n"),
        "    added allow-net: wip.example · not committed\n".to_string(),
        format!("    added allow-net: lib.example · {dave} Dave 2099-03-04\n"),
    ] {
        assert!(screen.contains(&line), "{line}\n{screen}");
    }
    assert!(
        !screen.contains("since trusted"),
        "--why says more: {screen}"
    );
    // Piped: GocciaScript's listing, no author.
    let piped = run(&r, &["trust", ".", "--dry-run"]);
    assert!(!piped.stdout.contains(" · "), "{piped}");
    // GocciaScript's spelling on a terminal: no author either (declined:
    // no answer comes).
    let goccia = on_terminal(&r, "--trust .");
    assert!(goccia.contains("Permission requests under"), "{goccia}");
    assert!(!goccia.contains(&format!("· {bob}")), "{goccia}");
}

/// A trusted config deleted by a commit: `scan` on a terminal names the
/// commit under its `missing:` line; deleted only in the working tree, it
/// says so; piped, the line is as before.
#[test]
fn a_missing_config_names_the_commit_that_deleted_it_on_a_terminal() {
    let r = Repo::new();
    r.write("app/goccia.json", &one_line(2, &["a.test"]));
    r.write("tools/goccia.json", &one_line(2, &["t.test"]));
    r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    assert_eq!(run(&r, &["trust", ".", "--yes"]).code, 0);
    r.git(&["rm", "-q", "-r", "tools"]);
    let bob = short(&r.commit_as("Bob", "2099-03-01T09:00:00Z", "drop tools"));
    std::fs::remove_file(r.t.work.join("app/goccia.json")).unwrap();
    let screen = on_terminal(&r, "scan");
    assert!(
        screen.contains(&format!(
            "missing: tools/goccia.json (trusted, now gone; goccia-trust untrust --missing removes the entry)\n  deleted by {bob} Bob 2099-03-01 \"drop tools\"\n"
        )),
        "{screen}"
    );
    assert!(
        screen.contains(
            "missing: app/goccia.json (trusted, now gone; goccia-trust untrust --missing removes the entry)\n  deleted in the working tree, not committed\n"
        ),
        "{screen}"
    );
    let piped = run(&r, &["scan"]);
    assert!(!piped.stdout.contains("deleted"), "{piped}");
}

/// `app` reads `../shared`, a link to `shared-v1` (Alice, trusted);
/// Mallory re-points it to `shared-v2` in a commit that also re-indents
/// `app/goccia.json`: that commit's block hashes to the stored SHA-256, but
/// its link leads elsewhere than the recorded target. Returns (repo,
/// Alice's commit, Mallory's short id).
fn link_repointed_with_a_reformat() -> (Repo, String, String) {
    let r = Repo::new();
    let config = |pad: &str| {
        format!(
            "{{\n{pad}\"permissions\": {{\"allow-read\": [\"../shared\"], \"allow-net\": [\"a.test\"]}}\n}}\n"
        )
    };
    r.write("app/goccia.json", &config(""));
    r.write("shared-v1/x", "x");
    r.write("shared-v2/x", "x");
    r.t.symlink("shared-v1", "shared");
    let alice = r.commit_as("Alice", "2026-01-10T09:00:00Z", "start");
    assert_eq!(run(&r, &["trust", "app", "--yes"]).code, 0);
    std::fs::remove_file(r.t.work.join("shared")).unwrap();
    r.t.symlink("shared-v2", "shared");
    r.write("app/goccia.json", &config("    "));
    let mallory = r.commit_as("Mallory", "2099-03-01T09:00:00Z", "tidy");
    (r, alice, short(&mallory))
}

/// The trusted version is the newest commit whose block hashes to the
/// stored SHA-256 with the recorded targets: Mallory's commit hashes the
/// same but its link leads elsewhere, so it is since trusted, and the
/// re-pointing is credited to it (not `no commit since trusted`).
#[test]
fn a_commit_with_the_trusted_block_but_other_targets_is_not_the_trusted_version() {
    let (r, alice, mallory) = link_repointed_with_a_reformat();
    let credited =
        format!("    re-targeted allow-read: $ROOT/work/shared · {mallory} Mallory 2099-03-01\n");
    for args in [
        &["inspect", "app/goccia.json"][..],
        &["trust", "app", "--dry-run", "--why"][..],
    ] {
        let out = run(&r, args);
        assert!(
            out.stdout.contains("1 commit since trusted:\n"),
            "{args:?}: {out}"
        );
        assert!(out.stdout.contains(&credited), "{args:?}: {out}");
        assert!(!out.stdout.contains("counted by date"), "{args:?}: {out}");
    }
    let doc = crate::json_contract::valid(
        "inspect",
        &run(&r, &["inspect", "--json", "app/goccia.json"]).stdout,
    );
    assert_eq!(
        doc["provenance"]["trustedCommit"],
        alice.as_str(),
        "{doc:#}"
    );
    let t = &doc["provenance"]["retargets"][0];
    assert_eq!(t["origin"]["commit"]["author"], "Mallory", "{doc:#}");
}

/// A commit whose block hashes to the stored SHA-256 but whose link leads
/// out of the repository: what it led to is not in the history, so whether
/// it holds the trusted version cannot be told. Said, never guessed (not
/// Alice's older commit, not Mallory's).
#[test]
fn targets_a_commit_cannot_tell_leave_the_trusted_version_unknown() {
    let (r, _, mallory) = link_repointed_with_a_reformat();
    let outside = r.t.work.parent().unwrap().join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::remove_file(r.t.work.join("shared")).unwrap();
    r.t.symlink(outside.to_str().unwrap(), "shared");
    r.write(
        "app/goccia.json",
        "{\"permissions\": {\"allow-read\": [\"../shared\"], \"allow-net\": [\"a.test\"]}}\n",
    );
    let bob = short(&r.commit_as("Bob", "2099-03-02T09:00:00Z", "out"));
    let out = run(&r, &["inspect", "app/goccia.json"]);
    let why = format!(
        "the trusted version cannot be told: at {bob}, $ROOT/work/shared leads out of the repository"
    );
    assert!(
        out.stdout.contains(&format!("no provenance: {why}")),
        "{out}"
    );
    assert!(
        out.stdout.contains(&format!(
            "re-targeted allow-read: $ROOT/work/shared · origin unknown: {why}"
        )),
        "{out}"
    );
    assert!(!out.stdout.contains(&mallory), "{out}");
    assert!(!out.stdout.contains("since trusted"), "{out}");
}

//! The conventions of issue 14 items 4 and 5 over the real binary: the
//! `--trust-store /x` hint on a terminal only, did-you-mean for a mistyped
//! subcommand, one error style, help text for every argument, global
//! options listed once, the untrust usage line, `policy run` streaming the
//! child's output and passing its exit code through, colour on a terminal
//! (and not on a pipe), and `--quiet`.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::TestEnv;

/// Runs the binary on a pseudo-terminal (script(1)) with `vars` added;
/// returns what the terminal showed (CRLF folded) and the exit code.
pub(crate) fn on_terminal(
    t: &TestEnv,
    args: &str,
    vars: &[(&str, &str)],
    answer: &str,
) -> (String, i32) {
    let bin = env!("CARGO_BIN_EXE_goccia-trust");
    let mut cmd = Command::new("script");
    cmd.args(["-qec", &format!("{bin} {args}"), "/dev/null"])
        .current_dir(&t.work)
        .env_clear()
        .env("HOME", &t.home)
        .env("PATH", "/usr/bin:/bin")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("script(1) from util-linux");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(answer.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
    (t.redact(&text), out.status.code().unwrap_or(-1))
}

const MESSAGE: &str = "Error: --trust-store needs a path: --trust-store=<path>\n";

#[test]
fn trust_store_with_a_space_keeps_the_message_and_hints_on_a_terminal() {
    let t = TestEnv::new();
    // GocciaScript's spellings keep its rule: the value only after `=`.
    let out = t.run(&["--trust-store", "/x.json", "--list-trusted"]);
    assert_eq!((out.code, out.stderr.as_str()), (2, MESSAGE), "{out}");
    let plain = [("NO_COLOR", "1")];
    let (text, code) = on_terminal(&t, "--list-trusted --trust-store /x.json", &plain, "");
    assert_eq!(code, 2);
    assert_eq!(
        text,
        format!("{MESSAGE}hint: --trust-store takes its value after '=': --trust-store=/x.json\n")
    );
    // No value given: nothing to hint.
    let (text, _) = on_terminal(&t, "list --trust-store", &plain, "");
    assert_eq!(text, MESSAGE);
}

#[test]
fn a_mistyped_subcommand_gets_did_you_mean() {
    let t = TestEnv::new();
    let out = t.run(&["scna"]);
    assert_eq!(out.code, 2, "{out}");
    assert_eq!(
        out.stderr,
        "Error: path not found: scna; did you mean 'scan'?\n"
    );
    let out = t.run(&["untrst", "x"]);
    assert_eq!(out.code, 2, "{out}");
    // A directory that happens to be named like a typo is reviewed.
    t.mkdir("scna");
    let out = t.run(&["scna"]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "No configs found\n"),
        "{out}"
    );
}

#[test]
fn a_mistyped_nested_subcommand_suggests_the_closest_first() {
    let t = TestEnv::new();
    let out = t.run(&["hook", "instal"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr.starts_with(
            "Error: unrecognized subcommand 'instal'\n\n  tip: some similar subcommands exist: 'install', 'uninstall'\n"
        ),
        "{out}"
    );
    let out = t.run(&["hook", "uninstal"]);
    assert!(
        out.stderr
            .contains("tip: some similar subcommands exist: 'uninstall', 'install'\n"),
        "{out}"
    );
}

#[test]
fn a_mistyped_subcommand_gets_did_you_mean_whatever_follows() {
    let t = TestEnv::new();
    t.mkdir("p");
    for (args, word, suggestion) in [
        (&["scna", "p"][..], "scna", "scan"),
        (&["lsit", "--json"][..], "lsit", "list"),
        (&["tust", "."][..], "tust", "trust"),
        (
            &["--quiet", "chekc", "a", "b", "--bogus"][..],
            "chekc",
            "check",
        ),
        (&["dfif", "HEAD~1", "HEAD"][..], "dfif", "diff"),
        (&["--policy", "x.json", "scna"][..], "scna", "scan"),
    ] {
        let out = t.run(args);
        let message = format!("path not found: {word}; did you mean '{suggestion}'?");
        // Asked for JSON (`lsit --json`): stdout is the failure document.
        let stdout = if args.contains(&"--json") {
            format!(
                "{{\n  \"schema\": 1,\n  \"error\": {{\n    \"message\": {},\n    \"exit\": 2\n  }}\n}}\n",
                serde_json::to_string(&message).unwrap()
            )
        } else {
            String::new()
        };
        assert_eq!(
            (out.code, out.stdout.as_str(), out.stderr.as_str()),
            (2, stdout.as_str(), format!("Error: {message}\n").as_str()),
            "{args:?}"
        );
    }
    // On a terminal, the hint line gives the command as meant.
    let plain = [("NO_COLOR", "1")];
    let (text, code) = on_terminal(&t, "scna p --json", &plain, "");
    assert_eq!(code, 2);
    // (The failure document `--json` asks for follows on stdout.)
    assert_eq!(
        text.split('{').next().unwrap(),
        "Error: path not found: scna; did you mean 'scan'?\nhint: goccia-trust scan p --json\n"
    );
    // An existing path of that name is a path, whatever follows it.
    t.mkdir("scna");
    let out = t.run(&["scna", "p"]);
    assert_eq!(out.code, 2, "{out}");
    assert_eq!(
        out.stderr,
        "Error: without a subcommand goccia-trust takes one PATH; use scan for several\n"
    );
}

#[test]
fn clap_errors_use_the_one_error_style() {
    let t = TestEnv::new();
    let out = t.run(&["scan", "--bogus"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .starts_with("Error: unexpected argument '--bogus' found\n"),
        "{out}"
    );
    assert!(!out.stderr.contains("error:"), "{out}");
    let out = t.run(&["untrust", "--missing", "app"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains(
            "Usage: goccia-trust untrust [OPTIONS] <PATH>...\n       goccia-trust untrust --missing [OPTIONS]\n"
        ),
        "{out}"
    );
}

#[test]
fn every_argument_has_help_and_globals_are_listed_once() {
    fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
        for a in cmd.get_arguments() {
            if a.get_help().is_none() && !matches!(a.get_id().as_str(), "help" | "version") {
                missing.push(format!("{path} {}", a.get_id()));
            }
        }
        for s in cmd.get_subcommands() {
            walk(s, &format!("{path} {}", s.get_name()), missing);
        }
    }
    let mut cmd = goccia_trust::cli::args::command();
    cmd.build();
    let mut missing = Vec::new();
    walk(&cmd, "goccia-trust", &mut missing);
    assert_eq!(missing, Vec::<String>::new());

    let t = TestEnv::new();
    let top = t.run(&["--help"]).stdout;
    for global in [
        "--trust-store=<PATH>",
        "--color=<COLOR>",
        "--theme=",
        "--no-watch",
        "--quiet",
    ] {
        assert_eq!(top.matches(global).count(), 1, "{global} in\n{top}");
    }
    for sub in [
        "scan", "list", "check", "trust", "untrust", "inspect", "policy",
    ] {
        let help = t.run(&[sub, "--help"]).stdout;
        for global in [
            "--trust-store",
            "--color",
            "--theme",
            "--no-watch",
            "--quiet",
        ] {
            assert!(
                !help.contains(global),
                "{sub} --help lists {global}:\n{help}"
            );
        }
    }
    // Still accepted after a subcommand.
    let out = t.run(&["list", "--color=never", "--quiet"]);
    assert_eq!((out.code, out.stdout.as_str()), (0, ""), "{out}");
}

#[test]
fn no_flag_shows_possible_values_true_false() {
    // Every command path, as the binary's help shows it (wrapped lines
    // joined) and in the man page.
    fn paths(cmd: &clap::Command, path: Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(path.clone());
        for s in cmd.get_subcommands() {
            let mut p = path.clone();
            p.push(s.get_name().to_string());
            paths(s, p, out);
        }
    }
    let mut all = Vec::new();
    paths(&goccia_trust::cli::args::command(), Vec::new(), &mut all);
    assert!(all.len() > 10, "{all:?}");
    let t = TestEnv::new();
    let joined = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    for path in &all {
        for help in ["--help", "-h"] {
            let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
            args.push(help);
            let out = t.run(&args);
            assert_eq!(out.code, 0, "{args:?}: {out}");
            assert!(
                !joined(&out.stdout).contains("possible values: true, false"),
                "{args:?}:\n{}",
                out.stdout
            );
        }
    }
    let man = t.run(&["man"]);
    assert_eq!(man.code, 0, "{man}");
    assert!(
        !joined(&man.stdout).contains("true, false"),
        "{}",
        man.stdout
    );
}

#[test]
fn policy_run_spawn_streams_the_child_and_passes_its_code_through() {
    let t = TestEnv::new();
    let out = t.run(&[
        "policy",
        "run",
        "--risk",
        "R0",
        "--op",
        "spawn",
        "--",
        "sh",
        "-c",
        "echo to-stdout; echo to-stderr >&2; exit 7",
    ]);
    assert_eq!(out.code, 7, "{out}");
    // Both streams arrive on stderr as they are written; their relative
    // order is the threads' (each stream is passed on by its own).
    let mut lines: Vec<&str> = out.stderr.lines().collect();
    lines.sort_unstable();
    assert_eq!(lines, ["to-stderr", "to-stdout"], "{out}");
    // stdout stays the one JSON document, with the digests of what was
    // streamed recorded.
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["exit_code"], 7);
    let record = doc["record"]
        .as_str()
        .unwrap()
        .replace("$ROOT", t.root.to_str().unwrap());
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(record).unwrap()).unwrap();
    assert_eq!(record["stdout_bytes"], 10);
    assert_eq!(record["stderr_bytes"], 10);
    // --pretty and the seed's --json are one flag.
    let a = t.run(&["policy", "show", "--pretty"]);
    let b = t.run(&["policy", "show", "--json"]);
    assert_eq!(a.stdout, b.stdout);
    assert!(a.stdout.contains("\n  "), "{a}");
    assert!(!t.run(&["policy", "show"]).stdout.contains("\n  "));
}

fn project(t: &TestEnv) {
    t.write(
        "new/goccia.json",
        r#"{"permissions": {"allow-net": ["a.test"]}}"#,
    );
    t.write(
        "old/goccia.json",
        r#"{"permissions": {"allow-net": ["b.test"]}}"#,
    );
    assert_eq!(t.run(&["trust", "old", "--yes"]).code, 0);
    t.write(
        "old/goccia.json",
        r#"{"permissions": {"allow-net": ["c.test"]}}"#,
    );
}

#[test]
fn states_and_lines_are_coloured_on_a_terminal_only() {
    let t = TestEnv::new();
    project(&t);
    let (text, code) = on_terminal(&t, "scan", &[], "");
    assert_eq!(code, 0, "{text}");
    // never trusted: the theme's `untrusted` role (magenta, bold).
    assert!(
        text.contains("\u{1b}[1;35mnever trusted\u{1b}[0m  new/goccia.json"),
        "{text:?}"
    );
    assert!(text.contains("\u{1b}[33mchanged\u{1b}[0m"), "{text:?}");
    // `list` and `check` too (check's report is on stderr, also a tty).
    let (text, _) = on_terminal(&t, "list", &[], "");
    assert!(text.contains("\u{1b}[33m(changed)\u{1b}[0m"), "{text:?}");
    let (text, code) = on_terminal(&t, "check old", &[], "");
    assert_eq!(code, 2);
    // The sign is coloured, the config's text beside it never is.
    assert!(
        text.contains("  \u{1b}[31m-\u{1b}[0m allow-net: b.test\n"),
        "{text:?}"
    );
    assert!(
        text.contains("  \u{1b}[32m+\u{1b}[0m allow-net: c.test\n"),
        "{text:?}"
    );
    assert!(
        text.contains("  old/goccia.json \u{1b}[33m(changed since trusted\u{1b}[0m 20"),
        "{text:?}"
    );
    assert!(
        text.starts_with("\u{1b}[1;91mError:\u{1b}[0m 1 config"),
        "{text:?}"
    );
    // Piped: no colour; unless --color=always.
    let out = t.run(&["scan"]);
    assert!(!out.stdout.contains('\u{1b}'), "{out}");
    let out = t.run(&["scan", "--color=always"]);
    assert!(out.stdout.contains("\u{1b}[1;35mnever trusted"), "{out}");
    // NO_COLOR and --color=never on a terminal: none.
    let (text, _) = on_terminal(&t, "scan", &[("NO_COLOR", "1")], "");
    assert!(!text.contains('\u{1b}'), "{text:?}");
    let (text, _) = on_terminal(&t, "scan --color=never", &[], "");
    assert!(!text.contains('\u{1b}'), "{text:?}");
    // --theme picks the roles: mono keeps emphasis (bold), no colour.
    let (text, _) = on_terminal(&t, "--theme=mono scan", &[], "");
    assert!(text.contains("\u{1b}[1mnever trusted\u{1b}[0m"), "{text:?}");
    assert!(
        !text.contains("[1;35m") && !text.contains("[33m"),
        "{text:?}"
    );
}

/// Style comes from the data, never from the printed text (issue 28 item
/// 2): a directory name or a scope that spells a state marker, a verdict or
/// an error prefix is escaped onto its line and left unstyled, while the
/// real marker beside it is coloured.
#[test]
fn config_text_that_spells_a_marker_is_never_coloured() {
    let t = TestEnv::new();
    let scope = "/zz\n\nq/goccia.json (new)\nx DENIED (changed) never trusted";
    t.write(
        "d\n (new) x/goccia.json",
        &format!(
            r#"{{"permissions": {{"allow-read": [{}]}}}}"#,
            serde_json::to_string(scope).unwrap()
        ),
    );
    let forged_dir = "d^J (new) x/goccia.json";
    let forged_scope = "/zz^J^Jq/goccia.json (new)^Jx DENIED (changed) never trusted";
    let (text, _) = on_terminal(&t, "trust d* --dry-run --color=always", &[], "");
    assert!(
        text.contains(&format!("  {forged_dir} \u{1b}[1;35m(new)\u{1b}[0m\n")),
        "the real marker is coloured: {text:?}"
    );
    assert!(text.contains(forged_scope), "{text:?}");
    let (text, _) = on_terminal(&t, "scan --color=always", &[], "");
    assert!(
        text.contains(&format!(
            "\u{1b}[1;35mnever trusted\u{1b}[0m  {forged_dir}  "
        )),
        "{text:?}"
    );
    let (text, code) = on_terminal(&t, "check d* --color=always", &[], "");
    assert_eq!(code, 2, "{text}");
    assert!(text.contains(forged_dir), "{text:?}");
    assert!(text.contains(forged_scope), "{text:?}");
}

/// The colour conventions (issue 33): `TERM=dumb` and `CLICOLOR=0` turn a
/// terminal's colour off, `CLICOLOR_FORCE` turns it on when piped, and
/// `NO_COLOR` wins over it; `--color=always|never` overrides them all; a
/// machine format is never coloured.
#[test]
fn colour_follows_term_clicolor_and_clicolor_force() {
    let t = TestEnv::new();
    project(&t);
    let coloured = |text: &str| text.contains("\u{1b}[1;35mnever trusted\u{1b}[0m");
    for vars in [&[("TERM", "dumb")][..], &[("CLICOLOR", "0")]] {
        let (text, _) = on_terminal(&t, "scan", vars, "");
        assert!(!text.contains('\u{1b}'), "{vars:?}: {text:?}");
        let (text, _) = on_terminal(&t, "check old", vars, "");
        assert!(!text.contains('\u{1b}'), "{vars:?}: {text:?}");
        let (text, _) = on_terminal(&t, "scan --color=always", vars, "");
        assert!(coloured(&text), "{vars:?}: {text:?}");
    }
    let (text, _) = on_terminal(&t, "scan", &[("CLICOLOR", "1"), ("TERM", "xterm")], "");
    assert!(coloured(&text), "{text:?}");
    // Piped.
    let force = [("CLICOLOR_FORCE", "1")];
    let out = t.run_with_env(&["scan"], &force);
    assert!(coloured(&out.stdout), "{out}");
    let out = t.run_with_env(&["check", "old"], &force);
    assert!(
        out.stderr.starts_with("\u{1b}[1;91mError:\u{1b}[0m "),
        "{out}"
    );
    let out = t.run_with_env(&["scan"], &[("CLICOLOR_FORCE", "1"), ("TERM", "dumb")]);
    assert!(coloured(&out.stdout), "{out}");
    for vars in [
        &[("CLICOLOR_FORCE", "0")][..],
        &[("CLICOLOR_FORCE", "")],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
    ] {
        let out = t.run_with_env(&["scan"], vars);
        assert!(!out.stdout.contains('\u{1b}'), "{vars:?}: {out}");
    }
    let out = t.run_with_env(&["scan", "--color=never"], &force);
    assert!(!out.stdout.contains('\u{1b}'), "{out}");
    let out = t.run_with_env(&["scan", "--json"], &force);
    assert!(!out.stdout.contains('\u{1b}'), "{out}");
    let out = t.run_with_env(&["scan", "--color=always"], &[("NO_COLOR", "1")]);
    assert!(coloured(&out.stdout), "{out}");
}

#[test]
fn hostile_text_is_escaped_before_it_is_coloured() {
    let t = TestEnv::new();
    t.write(
        "p/goccia.json",
        r#"{"permissions": {"allow-read": ["x\u001b[2K\u001b[32mtrusted"]}}"#,
    );
    let (text, _) = on_terminal(&t, "trust p --dry-run", &[], "");
    // The only escape sequences are the painter's (SGR, reset); the
    // config's ESC is shown as ^[.
    assert!(text.contains("x^[[2K^[[32mtrusted"), "{text:?}");
    let stripped = text
        .replace("\u{1b}[0m", "")
        .replace("\u{1b}[1;35m", "")
        .replace("\u{1b}[33m", "")
        .replace("\u{1b}[32m", "");
    assert!(!stripped.contains('\u{1b}'), "{text:?}");
}

#[test]
fn quiet_prints_only_errors_and_keeps_the_exit_code() {
    let t = TestEnv::new();
    project(&t);
    t.write(
        "bad/goccia.json",
        r#"{"permissions": {"allow-nett": ["x"]}}"#,
    );
    let loud = t.run(&["scan"]);
    let quiet = t.run(&["scan", "--quiet"]);
    assert_eq!(loud.code, 2);
    assert_eq!((quiet.code, quiet.stdout.as_str()), (2, ""), "{quiet}");
    let out = t.run(&["-q", "check", "new"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.starts_with("Error: 1 config file requests"),
        "{out}"
    );
    assert_eq!(t.run(&["list", "-q"]).stdout, "");
    // What --yes records is still listed, with the outcome.
    let out = t.run(&["trust", "new", "--yes", "--quiet"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout.starts_with(
            "Permission requests under new/:\n\n  new/goccia.json (new)\n    allow-net: a.test\n"
        ),
        "{out}"
    );
    assert!(out.stdout.contains("Trusted 1 config file in "), "{out}");
    // And the listing a prompt asks about.
    let (text, code) = on_terminal(&t, "--quiet trust old", &[("NO_COLOR", "1")], "y\n");
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("  old/goccia.json (changed)\n"), "{text}");
    assert!(text.contains("Trust 1 config file? [y/N] "), "{text}");
    // A dry run records nothing: quiet.
    t.write(
        "new/goccia.json",
        r#"{"permissions": {"allow-net": ["z.test"]}}"#,
    );
    assert_eq!(t.run(&["trust", "new", "--dry-run", "-q"]).stdout, "");
}

#[test]
fn global_options_take_their_value_after_a_space_too_and_help_works_after_any_option() {
    let t = TestEnv::new();
    project(&t);
    // The default grammar (no subcommand) and a subcommand after the option.
    for args in [
        &["--color", "never", "--list-trusted"][..],
        &["--theme", "mono", "--list-trusted"][..],
        &["--color", "never", "list"][..],
        &["--theme", "mono", "--color", "always", "list", "--quiet"][..],
        &["list", "--color", "never", "--quiet"][..],
    ] {
        let out = t.run(args);
        assert_eq!(out.code, 0, "{args:?}: {out}");
        assert!(!out.stderr.contains("unknown option"), "{args:?}: {out}");
    }
    let out = t.run(&["--color", "sometimes", "--list-trusted"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(out.stderr.contains("invalid --color value"), "{out}");
    // --trust-store stays GocciaScript's `=`-only option.
    let out = t.run(&["--trust-store", "/x", "--list-trusted"]);
    assert!(out.stderr.contains("--trust-store=<path>"), "{out}");

    for args in [
        &["--policy", "p.json", "--help"][..],
        &["--since", "HEAD", "--help"][..],
        &["--policy-sha256", "ab", "-h"][..],
        &["--color", "never", "--help"][..],
        &["new", "--help"][..],
    ] {
        let out = t.run(args);
        assert_eq!(out.code, 0, "{args:?}: {out}");
        assert!(out.stdout.contains("Usage:"), "{args:?}: {out}");
        assert!(!out.stderr.contains("unknown option"), "{args:?}: {out}");
    }
}

#[test]
fn the_default_reviews_options_are_in_the_help_options_list() {
    let t = TestEnv::new();
    let top = t.run(&["--help"]).stdout;
    let options = top.split("\nOptions:\n").nth(1).unwrap_or_default();
    for opt in ["--policy <FILE>", "--policy-sha256 <HEX>", "--since <BASE>"] {
        assert_eq!(options.matches(opt).count(), 1, "{opt} in\n{top}");
    }
}

/// Issue 44 try 15: an option a subcommand does not have gets no tip that
/// makes it a PATH (`untrust --missing --dry-run` suggested `-- --dry-run`);
/// a mistyped option without a subcommand gets a did-you-mean
/// (`--colour=never`), as clap gives one after a subcommand.
#[test]
fn unknown_options_get_no_path_tip_and_a_did_you_mean() {
    let t = TestEnv::new();
    let out = t.run(&["untrust", "--missing", "--dry-run"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr
            .starts_with("Error: unexpected argument '--dry-run' found\n\nUsage:"),
        "{out}"
    );
    assert!(!out.stderr.contains("as a value"), "{out}");
    let out = t.run(&["--colour=never"]);
    assert_eq!(
        (out.code, out.stderr.as_str()),
        (
            2,
            "Error: unknown option --colour=never; did you mean --color=never? see goccia-trust --help\n"
        ),
        "{out}"
    );
    let out = t.run(&["--list-trsted"]);
    assert!(out.stderr.contains("did you mean --list-trusted?"), "{out}");
    // Nothing close: the message as before.
    let out = t.run(&["--frobnicate"]);
    assert_eq!(
        out.stderr,
        "Error: unknown option --frobnicate; see goccia-trust --help\n"
    );
}

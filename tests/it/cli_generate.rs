//! `goccia-trust completions SHELL` and `goccia-trust man` over the real
//! binary (issue 14 item 1): the scripts parse and complete, the manual page
//! renders without a single groff warning, and the new subcommands leave
//! the existing parsing alone.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::TestEnv;

const SUBCOMMANDS: &[&str] = &[
    "scan",
    "trust",
    "untrust",
    "list",
    "check",
    "inspect",
    "policy",
    "completions",
    "man",
];

fn generate(env: &TestEnv, args: &[&str]) -> String {
    let out = env.run(args);
    assert_eq!(out.code, 0, "{args:?}: {out}");
    assert_eq!(out.stderr, "", "{args:?}");
    assert!(!out.stdout.is_empty(), "{args:?} printed nothing");
    out.stdout
}

/// Sources the bash script and asks its completion function what it offers
/// for `words`, the last one being the word under the cursor (the function
/// asks the binary, as at a Tab).
fn bash_complete(script: &Path, words: &[&str]) -> Vec<String> {
    let cword = words.len() - 1;
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let prev = if cword > 0 { words[cword - 1] } else { "" };
    let program = format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={cword}\n_clap_complete_goccia_trust goccia-trust '{}' '{prev}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        quoted.join(" "),
        words[cword],
    );
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completion_parses_and_completes_subcommands_and_their_options() {
    let env = TestEnv::new();
    let script = generate(&env, &["completions", "bash"]);
    let path = env.write("goccia-trust.bash", &script);

    let syntax = Command::new("bash").arg("-n").arg(&path).output().unwrap();
    assert!(syntax.status.success(), "bash -n: {syntax:?}");

    // The first word: every subcommand is offered.
    let first = bash_complete(&path, &["goccia-trust", ""]);
    for sub in SUBCOMMANDS {
        assert!(first.iter().any(|w| w == sub), "{sub} not in {first:?}");
    }
    assert_eq!(bash_complete(&path, &["goccia-trust", "ins"]), ["inspect"]);
    // After a subcommand, its own arguments.
    let shells = bash_complete(&path, &["goccia-trust", "completions", ""]);
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        assert!(
            shells.iter().any(|w| w == shell),
            "{shell} not in {shells:?}"
        );
    }
    let scan = bash_complete(&path, &["goccia-trust", "scan", "--"]);
    assert!(scan.iter().any(|w| w == "--json"), "{scan:?}");
    assert!(scan.iter().any(|w| w == "--policy"), "{scan:?}");
    let review = bash_complete(&path, &["goccia-trust", "--s"]);
    assert!(review.iter().any(|w| w == "--since"), "{review:?}");
    let show = bash_complete(&path, &["goccia-trust", "policy", "show", "--p"]);
    assert_eq!(show, ["--policy", "--pretty"]);
}

/// Every shell's script asks the binary that printed it (by its path when
/// run by one; by name from PATH when run by name) under `COMPLETE=SHELL`.
#[test]
fn every_shell_gets_a_script_calling_back_the_binary() {
    let env = TestEnv::new();
    let bin = env!("CARGO_BIN_EXE_goccia-trust");
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = generate(&env, &["completions", shell]);
        assert!(script.contains(bin), "{shell}: {script}");
        assert!(script.contains("COMPLETE"), "{shell}: {script}");
        assert!(script.contains(shell), "{shell}: {script}");
    }
    // zsh registers the function for the binary's name.
    assert!(generate(&env, &["completions", "zsh"]).starts_with("#compdef goccia-trust\n"));
    assert!(generate(&env, &["completions", "fish"]).contains("--command goccia-trust "));
    // The same script as `COMPLETE=bash goccia-trust`.
    let out = Command::new(bin).env("COMPLETE", "bash").output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        generate(&env, &["completions", "bash"])
    );
}

#[test]
fn completions_need_a_known_shell() {
    let env = TestEnv::new();
    let out = env.run(&["completions", "tcsh"]);
    assert_eq!(out.code, 2, "{out}");
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("invalid value 'tcsh'"), "{out}");
    let out = env.run(&["completions"]);
    assert_eq!(out.code, 2, "{out}");
    assert!(out.stderr.contains("<SHELL>"), "{out}");
}

/// grotty's bold and underline are `X\x08X` and `_\x08X`: keep the last.
fn without_overstrike(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '\u{8}' {
            out.pop();
        } else {
            out.push(c);
        }
    }
    out
}

/// groff prints warnings on stderr and still exits 0, so the test is that
/// stderr stays empty under `man --warnings` and `groff -ww`.
#[test]
fn man_page_renders_without_warnings() {
    let env = TestEnv::new();
    let page = generate(&env, &["man"]);
    assert!(page.starts_with(".ie \\n(.g .ds Aq \\(aq\n"), "{page}");
    let path = env.write("goccia-trust.1", &page);

    let man = Command::new("man")
        .args(["--warnings", "-l"])
        .arg(&path)
        .env("MANWIDTH", "80")
        .output()
        .expect("man (man-db) is needed; .ci/run installs it");
    let stderr = String::from_utf8_lossy(&man.stderr);
    assert!(man.status.success(), "man -l: {stderr}");
    assert_eq!(stderr, "", "man -l warned");
    let text = without_overstrike(&String::from_utf8_lossy(&man.stdout));
    for heading in [
        "NAME",
        "SYNOPSIS",
        "OPTIONS",
        "COMMANDS",
        "EXIT STATUS",
        "ENVIRONMENT",
        "FILES",
        "EXAMPLES",
        "SEE ALSO",
        "VERSION",
    ] {
        assert!(text.contains(heading), "{heading} missing:\n{text}");
    }
    for sub in SUBCOMMANDS {
        assert!(
            text.contains(&format!("goccia-trust {sub}")),
            "{sub} missing:\n{text}"
        );
    }
    assert!(text.contains("goccia-trust policy evaluate"), "{text}");
    assert!(text.contains("--trust-store"), "{text}");
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("`--since BASE` compares each config with its version"),
        "{text}"
    );

    let groff = Command::new("groff")
        .args(["-man", "-ww", "-z"])
        .arg(&path)
        .output()
        .expect("groff is needed; .ci/run installs it");
    assert!(groff.status.success());
    assert_eq!(String::from_utf8_lossy(&groff.stderr), "", "groff warned");
}

/// The subcommands are clap words: GocciaScript's spellings parse as
/// before, and a directory that happens to be called `man` is reached as
/// `./man`, as one called `scan` always was.
#[test]
fn new_subcommands_leave_the_other_spellings_alone() {
    let env = TestEnv::new();
    env.write(
        "man/goccia.json",
        r#"{"permissions": {"allow-net": ["x.test"]}}"#,
    );
    let out = env.run(&["./man"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout.contains("never trusted  man/goccia.json"),
        "{out}"
    );
    let out = env.run(&["--list-trusted"]);
    assert_eq!(out.code, 0, "{out}");
    let out = env.run(&["--trust-store", "x", "--list-trusted"]);
    assert_eq!(
        out.to_string(),
        "--- stderr ---\nError: --trust-store needs a path: --trust-store=<path>\n[exit status: 2]"
    );
}

/// `goccia-trust man | head -1`: a reader that goes away ends the command
/// quietly, not with an error or a panic: exit 141, as every command
/// (README "Exit codes").
#[test]
#[cfg(unix)]
fn a_closed_stdout_ends_quietly() {
    for args in [&["man"][..], &["completions", "bash"][..]] {
        let child = Command::new(env!("CARGO_BIN_EXE_goccia-trust"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .stdout(full_pipe_without_reader())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
        assert_eq!(out.status.code(), Some(141), "{args:?}");
    }
}

/// A pipe already full, whose reader is closed. The child's first write
/// waits until no reader is left anywhere, then fails with EPIPE (Rust
/// ignores SIGPIPE): a pipe merely closed would take a short write while
/// another test's fork still holds a copy of its reader (until that
/// child's exec closes it), and the command would exit 0.
#[cfg(unix)]
fn full_pipe_without_reader() -> std::process::Stdio {
    use rustix::fs::{OFlags, fcntl_getfl, fcntl_setfl};
    use std::io::Write;
    let (reader, mut writer) = std::io::pipe().unwrap();
    let flags = fcntl_getfl(&writer).unwrap();
    fcntl_setfl(&writer, flags | OFlags::NONBLOCK).unwrap();
    let chunk = [b'x'; 4096];
    loop {
        match writer.write(&chunk) {
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
            Err(e) => panic!("filling the pipe: {e}"),
        }
    }
    // The flag belongs to the open pipe, which the child shares.
    fcntl_setfl(&writer, flags).unwrap();
    drop(reader);
    writer.into()
}

const FORMATS: [&str; 4] = ["text", "json", "sarif", "github"];

/// fish loads the script without a word on stderr (an unescaped `"` in a
/// help text made it print `complete: too many arguments` and offer files
/// for `--format`) and completes `scan --format ` to the formats.
#[test]
fn fish_loads_the_script_and_completes_the_formats() {
    if !common::tool_available("fish", "--version") {
        return;
    }
    let env = TestEnv::new();
    let path = env.write(
        "goccia-trust.fish",
        &generate(&env, &["completions", "fish"]),
    );
    let program = format!(
        "source '{}'; complete -C 'goccia-trust scan --format '",
        path.display()
    );
    let out = Command::new("fish")
        .args(["--no-config", "-c", &program])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "fish: {stderr}");
    assert_eq!(stderr, "", "fish warned loading the script");
    // `complete -C` prints `CANDIDATE\tDESCRIPTION` lines.
    // fish sorts them.
    let mut offered: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split('\t').next().unwrap_or("").to_string())
        .collect();
    offered.sort();
    let mut formats = FORMATS.to_vec();
    formats.sort();
    assert_eq!(offered, formats, "fish offered {offered:?}");
}

/// A zsh that runs the script as `compinit` would and records what the
/// completion system offers for LINE + TAB: an interactive zsh on a
/// pseudo-terminal (zsh/zpty), with `compadd` wrapped to write each
/// candidate it is given to OUT.
const ZSH_DRIVER: &str = r#"
zmodload zsh/zpty
script=$1 out=$2 line=$3
zpty z zsh -f -i
zpty -w z "PS1='' RPROMPT=''; autoload -U compinit; compinit -u -D"
zpty -w z "source ${(q)script}"
zpty -w z 'compadd() { if (( ${@[(I)-(O|A|D)]} == 0 )); then local -a __h; builtin compadd -O __h "$@"; print -rl -- $__h >> '${(q)out}'; fi; builtin compadd "$@"; }'
zpty -w z "zstyle ':completion:*' menu no; LISTMAX=10000"
zpty -n -w z "$line"$'\t'
integer i
for i in {1..100}; do
  [[ -s $out ]] && break
  sleep 0.1
done
sleep 0.5
zpty -d z
"#;

fn zsh_complete(env: &TestEnv, script: &Path, line: &str) -> Vec<String> {
    zsh_complete_in(env, script, line, &env.work)
}

fn zsh_complete_in(env: &TestEnv, script: &Path, line: &str, dir: &Path) -> Vec<String> {
    let driver = env.write("drive.zsh", ZSH_DRIVER);
    let out_file = env.root.join(format!("zsh-offered-{}", line.len()));
    let _ = std::fs::remove_file(&out_file);
    let out = Command::new("zsh")
        .current_dir(dir)
        .arg("-f")
        .arg(&driver)
        .arg(script)
        .arg(&out_file)
        .arg(line)
        .output()
        .unwrap();
    assert!(out.status.success(), "zsh driver: {out:?}");
    std::fs::read_to_string(&out_file)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// zsh completes `scan --format ` to the formats and `--format o` to
/// nothing (it completed to `output\)`, a word of a help text, when the
/// text held an unescaped `"`).
#[test]
fn zsh_completes_the_formats() {
    if !common::tool_available("zsh", "--version") {
        return;
    }
    let env = TestEnv::new();
    let script = env.write("_goccia-trust", &generate(&env, &["completions", "zsh"]));
    let offered = zsh_complete(&env, &script, "goccia-trust scan --format ");
    assert_eq!(offered, FORMATS, "zsh offered {offered:?}");
    let offered = zsh_complete(&env, &script, "goccia-trust check --format j");
    assert_eq!(offered, ["json"], "zsh offered {offered:?}");
    let offered = zsh_complete(&env, &script, "goccia-trust scan --format o");
    assert!(offered.is_empty(), "zsh offered {offered:?} for `o`");
}

#[test]
fn bash_completes_the_formats() {
    let env = TestEnv::new();
    let path = env.write(
        "goccia-trust.bash",
        &generate(&env, &["completions", "bash"]),
    );
    let offered = bash_complete(&path, &["goccia-trust", "scan", "--format", ""]);
    assert_eq!(offered, FORMATS, "bash offered {offered:?}");
}

/// mandoc's lint (issue 33 item 5): no warning, so `.TH` has the date in
/// the date's place and the version in the source's; the page documents
/// the environment it reads, its files and diff's exit 1.
#[test]
fn mandoc_lints_the_man_page_without_a_warning() {
    // The page's date is the commit's (build.rs): a build of the published
    // crate has none, and mandoc warns of the empty slot.
    if !crate::common::in_checkout() {
        return;
    }
    let env = TestEnv::new();
    let page = generate(&env, &["man"]);
    let th = page.lines().find(|l| l.starts_with(".TH ")).unwrap();
    let date = th.split('"').nth(5).unwrap_or("");
    assert!(
        date.len() == 10 && date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-',
        "the date slot: {th}"
    );
    assert!(
        th.ends_with(&format!(
            "\"goccia-trust {}\" \"User Commands\"",
            env!("CARGO_PKG_VERSION")
        )),
        "{th}"
    );
    for var in [
        "NO_COLOR",
        "GOCCIA_TRUST_STATE_DIR",
        "GOCCIA_TRUST_GIT_TIMEOUT",
        "XDG_CONFIG_HOME",
        "XDG_STATE_HOME",
        "HOME",
        "VISUAL",
        "EDITOR",
    ] {
        assert!(
            page.contains(&format!("\\fB{var}\\fR")),
            "{var} not under ENVIRONMENT"
        );
    }
    assert!(
        page.contains("for diff, a config widened or broken"),
        "{page}"
    );
    // mandoc has no version flag: an empty page is its cheapest success.
    if !common::tool_available("mandoc", "/dev/null") {
        return;
    }
    let path = env.write("goccia-trust.1", &page);
    let out = Command::new("mandoc")
        .args(["-T", "lint", "-W", "warning"])
        .arg(&path)
        .output()
        .unwrap();
    let report =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "mandoc -T lint: {report}");
    assert_eq!(report, "", "mandoc warned");
}

/// An interactive bash on a pseudo-terminal (driven by zsh/zpty), so bash
/// itself splits the line into words (`--theme=li` is `--theme`, `=`,
/// `li`): the script is sourced, `goccia-trust` is a function writing its
/// arguments to OUT, and LINE is typed, then `M-*` (readline's
/// insert-completions: every candidate, bash's file fallback included,
/// inserted into the line), then Enter.
const BASH_DRIVER: &str = r#"
zmodload zsh/zpty
script=$1 out=$2 line=$3
zpty b bash --norc --noprofile -i
zpty -w b "PS1=''; source ${(q)script}; goccia-trust() { printf '%s\n' \"\$@\" > ${(q)out}; }"
zpty -n -w b "$line"$'\e*\n'
integer i
for i in {1..100}; do
  [[ -s $out ]] && break
  sleep 0.1
done
zpty -d b
"#;

/// What each shell offers for LINE + TAB in DIR, sorted: the words after
/// LINE's last space or `=`.
fn offered(env: &TestEnv, shell: &str, line: &str, dir: &Path) -> Vec<String> {
    let script = env.write(
        &format!("goccia-trust.{shell}"),
        &generate(env, &["completions", shell]),
    );
    let mut words: Vec<String> = match shell {
        "bash" => {
            let driver = env.write("drive-bash.zsh", BASH_DRIVER);
            let out_file = env.root.join("bash-offered");
            let _ = std::fs::remove_file(&out_file);
            let out = Command::new("zsh")
                .current_dir(dir)
                .arg("-f")
                .arg(&driver)
                .arg(&script)
                .arg(&out_file)
                .arg(line)
                .output()
                .unwrap();
            assert!(out.status.success(), "bash driver: {out:?}");
            let args = std::fs::read_to_string(&out_file).unwrap_or_default();
            let typed = line.strip_prefix("goccia-trust ").unwrap();
            let fixed = &typed[..typed.rfind([' ', '=']).map_or(0, |i| i + 1)];
            let given = args.lines().collect::<Vec<_>>().join(" ");
            let rest = given
                .strip_prefix(fixed)
                .unwrap_or_else(|| panic!("bash gave {given:?} for {line:?}"));
            let rest = if rest == typed.trim_start_matches(fixed) {
                ""
            } else {
                rest
            };
            rest.split_whitespace().map(str::to_string).collect()
        }
        // zsh, like fish, is given the whole word (`--theme=light`).
        "zsh" => {
            let last = line.rsplit(' ').next().unwrap_or("");
            zsh_complete_in(env, &script, line, dir)
                .into_iter()
                .filter(|w| !w.is_empty())
                .map(|w| match last.split_once('=') {
                    Some(_) => w.split_once('=').map_or(w.as_str(), |(_, v)| v).to_string(),
                    None => w,
                })
                .collect()
        }
        "fish" => {
            let program = format!("source '{}'; complete -C '{line}'", script.display());
            let out = Command::new("fish")
                .current_dir(dir)
                .args(["--no-config", "-c", &program])
                .output()
                .unwrap();
            assert!(out.status.success(), "fish: {out:?}");
            // fish gives the whole word: `--theme=light` for `--theme=li`.
            let last = line.rsplit(' ').next().unwrap_or("");
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(|l| l.split('\t').next().unwrap_or(""))
                .map(|w| match last.split_once('=') {
                    Some(_) => w.split_once('=').map_or(w, |(_, v)| v).to_string(),
                    None => w.to_string(),
                })
                .collect()
        }
        _ => unreachable!(),
    };
    // bash and fish mark a directory with `/`, zsh does not.
    for w in &mut words {
        if let Some(d) = w.strip_suffix('/') {
            *w = d.to_string();
        }
    }
    words.sort();
    words.dedup();
    words
}

fn shells() -> Vec<&'static str> {
    // The bash driver is zsh's zpty.
    ["bash", "zsh", "fish"]
        .into_iter()
        .filter(|s| {
            common::tool_available("zsh", "--version") && common::tool_available(s, "--version")
        })
        .collect()
}

/// Issue 30 item 6: no shell is offered a hidden subcommand (`tui`, `hook
/// run`), where clap_complete alone listed both.
#[test]
fn completion_offers_no_hidden_subcommand() {
    let env = TestEnv::new();
    for shell in shells() {
        let first = offered(&env, shell, "goccia-trust ", &env.work);
        assert!(first.iter().any(|w| w == "scan"), "{shell}: {first:?}");
        assert!(!first.iter().any(|w| w == "tui"), "{shell}: {first:?}");
        let hook = offered(&env, shell, "goccia-trust hook ", &env.work);
        assert!(hook.iter().any(|w| w == "install"), "{shell}: {hook:?}");
        assert!(!hook.iter().any(|w| w == "run"), "{shell}: {hook:?}");
        // The default review's own options are offered where it takes them.
        let since = offered(&env, shell, "goccia-trust --sin", &env.work);
        assert!(
            since.iter().any(|w| w.starts_with("--since")),
            "{shell}: {since:?}"
        );
    }
}

/// Issue 30 item 6: `--theme=` completes the built-in names and files,
/// `--color=` its values, and the options and arguments taking a path the
/// shell's files (a directory option only directories).
#[test]
fn completion_completes_option_values_and_paths() {
    let env = TestEnv::new();
    env.write("files/mytheme.toml", "");
    env.write("files/web/goccia.json", "{}");
    let dir = env.work.join("files");
    let names_and_files = [
        "default",
        "high-contrast",
        "light",
        "mono",
        "mytheme.toml",
        "web",
    ];
    let files = ["mytheme.toml", "web"];
    for shell in shells() {
        let got = |line: &str| offered(&env, shell, line, &dir);
        assert_eq!(got("goccia-trust --theme="), names_and_files, "{shell}");
        assert_eq!(
            got("goccia-trust scan --theme "),
            names_and_files,
            "{shell}"
        );
        assert_eq!(got("goccia-trust --theme=li"), ["light"], "{shell}");
        assert_eq!(
            got("goccia-trust --color="),
            ["always", "auto", "never"],
            "{shell}"
        );
        assert_eq!(got("goccia-trust --color=n"), ["never"], "{shell}");
        assert_eq!(got("goccia-trust --trust-store="), files, "{shell}");
        assert_eq!(got("goccia-trust scan --policy "), files, "{shell}");
        assert_eq!(got("goccia-trust --policy "), files, "{shell}");
        // A directory option: the directories (and `.`, which fish leaves
        // out).
        let dirs =
            |line: &str| -> Vec<String> { got(line).into_iter().filter(|w| w != ".").collect() };
        assert_eq!(
            dirs("goccia-trust policy show --workspace "),
            ["web"],
            "{shell}"
        );
        assert_eq!(dirs("goccia-trust trust --state-dir "), ["web"], "{shell}");
        assert_eq!(got("goccia-trust scan w"), ["web"], "{shell}");
        assert_eq!(got("goccia-trust inspect m"), ["mytheme.toml"], "{shell}");
    }
}

/// Issue 44 tries 1 and 2: after `scan `, `trust `, `inspect ` each shell
/// offers the files there (bash inserted `-`, the options' common
/// prefix); `--trust-store PATH` (a space) completes a file as
/// `--trust-store=` does; `diff` and `--since` complete the repository's
/// branches, tags and recent commits.
///
/// Recent commits are offered too, so the branch's prefix `to` is one no
/// (hex) abbreviated hash can start with: the expected lists are exact
/// whatever hash the commit gets.
#[test]
fn completion_offers_files_after_path_arguments_and_revisions_after_diff() {
    let env = TestEnv::new();
    env.write("files/mytheme.toml", "");
    env.write("files/web/goccia.json", "{}");
    let dir = env.work.join("files");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .current_dir(&dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@t.test"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    git(&["init", "-q", "-b", "main"]);
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "one"]);
    git(&["branch", "topic-x"]);
    git(&["tag", "v1.0"]);
    let head = git(&["log", "-1", "--format=%h"]);
    for shell in shells() {
        let got = |line: &str| offered(&env, shell, line, &dir);
        for sub in ["scan", "trust", "inspect"] {
            let words = got(&format!("goccia-trust {sub} "));
            for file in ["mytheme.toml", "web"] {
                assert!(
                    words.iter().any(|w| w == file),
                    "{shell}: {sub} offered {words:?}"
                );
            }
        }
        assert_eq!(
            got("goccia-trust list --trust-store m"),
            ["mytheme.toml"],
            "{shell}"
        );
        assert_eq!(got("goccia-trust diff top"), ["topic-x"], "{shell}");
        assert_eq!(got("goccia-trust diff v"), ["v1.0"], "{shell}");
        assert_eq!(got("goccia-trust diff main to"), ["topic-x"], "{shell}");
        assert_eq!(got("goccia-trust --since to"), ["topic-x"], "{shell}");
        assert_eq!(got("goccia-trust --since=to"), ["topic-x"], "{shell}");
        assert_eq!(
            got(&format!("goccia-trust diff {}", &head[..4])),
            std::slice::from_ref(&head),
            "{shell}"
        );
    }
}

/// The commands of Getting started's "Shell completions and the man page"
/// block, one per line (comments left out).
fn getting_started_commands() -> Vec<String> {
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/getting-started.md"),
    )
    .unwrap();
    let section = page
        .split("## Shell completions and the man page")
        .nth(1)
        .expect("Getting started has the section");
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the section has an sh block");
    block
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Issue 44 try 3: Getting started's commands, pasted one by one into bash
/// in a HOME that has nothing yet and with the binary in `~/.cargo/bin`,
/// all succeed (without `mkdir -p`, `No such file or directory`); then a
/// new bash, zsh and fish complete with what they wrote, and `man` finds
/// the page.
#[test]
fn getting_started_works_as_pasted_in_a_fresh_home() {
    if !crate::common::in_checkout() {
        return;
    }
    let env = TestEnv::new();
    let home = env.root.join("fresh-home");
    let bin_dir = home.join(".cargo/bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    std::fs::copy(
        env!("CARGO_BIN_EXE_goccia-trust"),
        bin_dir.join("goccia-trust"),
    )
    .unwrap();
    let path = format!("{}:/usr/local/bin:/usr/bin:/bin", bin_dir.display());
    // zsh's completion system is set up first, as the page assumes.
    std::fs::write(home.join(".zshrc"), "autoload -U compinit && compinit -u\n").unwrap();
    let shell = |program: &str, args: &[&str]| {
        Command::new(program)
            .args(args)
            .current_dir(&home)
            .env_clear()
            .env("HOME", &home)
            .env("PATH", &path)
            .env("TERM", "dumb")
            .output()
            .unwrap()
    };
    let commands = getting_started_commands();
    assert!(commands.iter().any(|c| c.contains("completions bash")));
    // One shell, as pasted: a line's variables reach the next; the first
    // failing line stops it.
    let pasted: Vec<&str> = commands
        .iter()
        .map(String::as_str)
        .filter(|l| !l.starts_with("man "))
        .collect();
    let out = shell(
        "bash",
        &["--norc", "--noprofile", "-e", "-c", &pasted.join("\n")],
    );
    assert!(
        out.status.success(),
        "{pasted:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // bash reads ~/.bashrc and registers the completion.
    let out = shell("bash", &["-i", "-c", "complete -p goccia-trust"]);
    let registered = String::from_utf8_lossy(&out.stdout);
    assert!(
        registered.contains("_clap_complete_goccia_trust"),
        "{registered} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    if common::tool_available("zsh", "--version") {
        let out = shell("zsh", &["-i", "-c", "print -r -- ${_comps[goccia-trust]}"]);
        let function = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            function.trim(),
            "_clap_dynamic_completer_goccia_trust",
            "{out:?}"
        );
    }
    if common::tool_available("fish", "--version") {
        let out = shell("fish", &["-c", "complete -C 'goccia-trust sca'"]);
        let offered = String::from_utf8_lossy(&out.stdout);
        assert!(offered.starts_with("scan\t"), "{out:?}");
    }
    if common::tool_available("man", "--version") {
        let out = shell("man", &["-w", "goccia-trust"]);
        let found = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            Path::new(found.trim()).canonicalize().ok(),
            home.join(".cargo/share/man/man1/goccia-trust.1")
                .canonicalize()
                .ok(),
            "{out:?}"
        );
    }
}

/// Issue 44 try 11: the man page lists every environment variable the
/// program reads and every file of its state directory, from the one list
/// the code reads them by (`core::env`), and the 128+N exit status; as man
/// (man-db) renders it.
#[test]
fn the_man_page_lists_every_variable_state_file_and_signal_status() {
    use goccia_trust::core::env::{STATE_FILES, VARIABLES};
    let env = TestEnv::new();
    let page = generate(&env, &["man"]);
    let path = env.write("goccia-trust.1", &page);
    let man = Command::new("man")
        .arg("-l")
        .arg(&path)
        .env("MANWIDTH", "200")
        .env("MAN_KEEP_FORMATTING", "0")
        .output()
        .expect("man (man-db) is needed; .ci/run installs it");
    let text = without_overstrike(&String::from_utf8_lossy(&man.stdout));
    let section = |name: &str| -> String {
        let start = text
            .find(&format!("\n{name}\n"))
            .unwrap_or_else(|| panic!("no {name}:\n{text}"));
        let rest = &text[start + name.len() + 2..];
        let end = rest.find("\n\n\n").unwrap_or(rest.len());
        let end = rest[..end]
            .lines()
            .position(|l| l.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
            .map_or(rest.len(), |i| {
                rest.lines().take(i).map(|l| l.len() + 1).sum()
            });
        rest[..end].to_string()
    };
    // An item's tag starts a line at the section's indent (a short one has
    // its text beside it).
    let tagged = |section: &str, tag: &str| {
        section.lines().any(|l| {
            l.strip_prefix("       ")
                .is_some_and(|t| !t.starts_with(' ') && t.split_whitespace().next() == Some(tag))
        })
    };
    let environment = section("ENVIRONMENT");
    for v in VARIABLES {
        assert!(
            tagged(&environment, v.name),
            "{} not under ENVIRONMENT:\n{environment}",
            v.name
        );
    }
    // The ones the page missed.
    for name in [
        "CLICOLOR",
        "CLICOLOR_FORCE",
        "TERM",
        "GOCCIA_TRUST_HOOK_TIME_LIMIT_MS",
        "GITHUB_REPOSITORY",
        "GITHUB_SERVER_URL",
    ] {
        assert!(tagged(&environment, name), "{name}");
    }
    let files = section("FILES");
    for f in STATE_FILES {
        assert!(
            files.contains(&format!("STATE/{}", f.name)),
            "{} not under FILES:\n{files}",
            f.name
        );
    }
    for name in ["STATE/decisions/", "STATE/runs/", "STATE/ignored.json"] {
        assert!(files.contains(name), "{name}:\n{files}");
    }
    let status = section("EXIT STATUS");
    assert!(tagged(&status, "128+N"), "{status}");
    assert!(status.contains("SIGINT 130"), "{status}");
}

/// The list cannot drift from the code: every variable the source reads by
/// name (`var("X")`, `var_os("X")`) is one of `core::env::VARIABLES`. The
/// path oracle's (`GOCCIA_FPC_ORACLE`, `CI`) are the tests', not the
/// program's.
#[test]
fn every_variable_the_source_reads_is_in_the_documented_list() {
    use goccia_trust::core::env::VARIABLES;
    fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut read = Vec::new();
    for file in &files {
        if file.ends_with("core/paths/oracle.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for call in ["var(\"", "var_os(\""] {
            for (i, _) in text.match_indices(call) {
                let rest = &text[i + call.len()..];
                let name = &rest[..rest.find('"').unwrap()];
                read.push((file.display().to_string(), name.to_string()));
            }
        }
    }
    for (file, name) in &read {
        assert!(
            VARIABLES.iter().any(|v| v.name == name.as_str()),
            "{file} reads {name}, which core::env::VARIABLES (the man page's ENVIRONMENT) does not list"
        );
    }
}

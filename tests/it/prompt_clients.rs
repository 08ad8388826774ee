//! The prompt line in the real clients (issue 41 items 1, 2 and 9): the
//! snippets of docs/src/prompt.md, taken from the page, in real bash, zsh
//! and fish, and the starship module under starship's own rule; each shows
//! the line where a run would be refused, nothing where it would not, and
//! hands the user's exit status on unchanged.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::TestEnv;

const NET: &str = r#"{"permissions": {"allow-net": ["a.test"]}}"#;
const LINE: &str = "goccia: 1 never trusted (run goccia-trust to review)";

/// The page the snippets are taken from.
fn page() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/prompt.md")).unwrap()
}

/// Every block of docs/src/prompt.md marked `<!-- prompt: NAME -->`, as a
/// user copies it (the indentation of a block in a list taken off).
pub(crate) fn blocks(name: &str) -> Vec<String> {
    let page = page();
    let marker = format!("<!-- prompt: {name} -->\n");
    page.split(&marker)
        .skip(1)
        .map(|after| {
            let fence_line = after.lines().next().unwrap();
            let indent = fence_line.len() - fence_line.trim_start().len();
            assert!(fence_line.trim_start().starts_with("```"), "{name}");
            let mut body = String::new();
            for line in after.lines().skip(1) {
                if line.trim() == "```" {
                    break;
                }
                body += line.get(indent..).unwrap_or("");
                body += "\n";
            }
            body
        })
        .collect()
}

/// The one block marked NAME.
pub(crate) fn snippet(name: &str) -> String {
    let all = blocks(name);
    assert_eq!(all.len(), 1, "one block marked {name}");
    all.into_iter().next().unwrap()
}

/// What each marker stands for: a snippet a test runs, or `output`, a
/// line a test compares with what the command prints.
const MARKERS: &[&str] = &[
    "bash",
    "zsh",
    "fish",
    "starship",
    "output",
    "hook-block",
    "husky",
    "lefthook",
    "pre-commit",
];

/// docs/src/prompt.md shows only what the tests run: every fenced block
/// has a marker, and every marker is one a test takes its block by.
#[test]
fn every_block_of_the_prompt_page_is_run_by_a_test() {
    if !crate::common::in_checkout() {
        return;
    }
    let page = page();
    let lines: Vec<&str> = page.lines().collect();
    let mut open = false;
    for (i, line) in lines.iter().enumerate() {
        if !line.trim_start().starts_with("```") {
            continue;
        }
        if !open {
            let marker = lines[i - 1].trim();
            let name = marker
                .strip_prefix("<!-- prompt: ")
                .and_then(|m| m.strip_suffix(" -->"))
                .unwrap_or_else(|| panic!("line {}: a block without a marker", i + 1));
            assert!(MARKERS.contains(&name), "line {}: {name}", i + 1);
        }
        open = !open;
    }
    for name in MARKERS {
        assert!(!blocks(name).is_empty(), "{name}");
    }
}

/// The directory holding the binary under test, first on a PATH.
pub(crate) fn search_path() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_goccia-trust"))
        .parent()
        .unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// `bad/` needs review, `ok/` is trusted, the working directory has no
/// config.
fn two_dirs(env: &TestEnv) -> (PathBuf, PathBuf) {
    let bad = env.write("bad/goccia.json", NET);
    let ok = env.write("ok/goccia.json", NET);
    assert_eq!(env.run(&["trust", "--yes", "ok/goccia.json"]).code, 0);
    (
        bad.parent().unwrap().to_path_buf(),
        ok.parent().unwrap().to_path_buf(),
    )
}

/// A shell `argv` with `input` on stdin, in the test's HOME with the binary
/// on PATH; stdout and stderr interleaved as the terminal shows them.
fn shell(env: &TestEnv, argv: &[&str], input: &str, extra: &[(&str, &str)]) -> String {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("exec \"$@\" 2>&1")
        .arg("sh")
        .args(argv)
        .current_dir(&env.work)
        .env_clear()
        .env("HOME", &env.home)
        .env("PATH", search_path())
        .env("TERM", "dumb")
        .env("GOCCIA_TRUST_STATE_DIR", env.root.join("state"))
        // A debug build on a loaded machine: the budget is tested on its own.
        .env("GOCCIA_TRUST_PROMPT_TIME_LIMIT_MS", "60000")
        .envs(extra.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n")
}

/// The commands typed in each shell: into `bad`, a failing command, a
/// command exiting 3, into `ok`, a failing command.
fn typed(bad: &Path, ok: &Path) -> String {
    format!(
        "cd {}\nfalse\nsh -c 'exit 3'\ncd {}\nfalse\nexit\n",
        bad.display(),
        ok.display()
    )
}

#[test]
fn the_bash_snippet_shows_the_line_and_keeps_the_exit_status_for_prompt_command() {
    if !crate::common::in_checkout() {
        return;
    }
    let env = TestEnv::new();
    let (bad, ok) = two_dirs(&env);
    // The user's own prompt shows `$?`, and a PROMPT_COMMAND set before the
    // snippet prints it too.
    let rc = env.write(
        "../home/.bashrc-test",
        &format!(
            "PS1='[$?]> '\nPROMPT_COMMAND='echo \"last=$?\"'\n{}",
            snippet("bash")
        ),
    );
    let rc = rc.to_str().unwrap();
    let shown = shell(
        &env,
        &["bash", "--noprofile", "--rcfile", rc, "-i"],
        &typed(&bad, &ok),
        &[],
    );
    // (bash echoes each command it reads from a pipe, and says it has no
    // terminal to control.)
    let shown: String = shown
        .split_inclusive('\n')
        .filter(|l| !l.starts_with("bash: "))
        .collect();
    let want = format!(
        "last=0\n[0]> cd {bad}\nlast=0\n{LINE}\n[0]> false\nlast=1\n{LINE}\n[1]> sh -c 'exit 3'\n\
         last=3\n{LINE}\n[3]> cd {ok}\nlast=0\n[0]> false\nlast=1\n[1]> exit\n",
        bad = bad.display(),
        ok = ok.display()
    );
    assert!(shown.starts_with(&want), "{shown}");
}

#[test]
fn the_zsh_snippet_shows_the_line_and_keeps_the_exit_status_for_other_hooks() {
    if !crate::common::in_checkout() {
        return;
    }
    let env = TestEnv::new();
    let (bad, ok) = two_dirs(&env);
    let zdot = env.home.join("zdot");
    std::fs::create_dir_all(&zdot).unwrap();
    // precmd hooks of the user's before and after the snippet's.
    std::fs::write(
        zdot.join(".zshrc"),
        format!(
            "PROMPT='[%?]> '\nsetopt no_prompt_sp\nautoload -Uz add-zsh-hook\n\
             __before() {{ echo \"before=$?\" }}\nadd-zsh-hook precmd __before\n\
             {}__after() {{ echo \"after=$?\" }}\nadd-zsh-hook precmd __after\n",
            snippet("zsh")
        ),
    )
    .unwrap();
    let zdot = zdot.to_str().unwrap();
    let shown = shell(
        &env,
        &["zsh", "-i"],
        &typed(&bad, &ok),
        &[("ZDOTDIR", zdot)],
    );
    let want = format!(
        "before=0\nafter=0\n[0]> before=0\nafter=0\n{LINE}\n[0]> before=1\nafter=1\n{LINE}\n[1]> \
         before=3\nafter=3\n{LINE}\n[3]> before=0\nafter=0\n[0]> before=1\nafter=1\n[1]> "
    );
    assert!(shown.starts_with(&want), "{shown:?}");
}

/// Runs `argv` on a pseudo-terminal (script(1)), typing each of `lines`
/// once the prompt (`> `) has been drawn one more time; returns what the
/// terminal showed.
fn on_terminal(env: &TestEnv, command: &str, lines: &[String]) -> String {
    use std::io::Read;
    use std::sync::{Arc, Mutex};
    let mut child = Command::new("script")
        .args(["-qec", command, "/dev/null"])
        .current_dir(&env.work)
        .env_clear()
        .env("HOME", &env.home)
        .env("PATH", search_path())
        .env("TERM", "dumb")
        .env("GOCCIA_TRUST_STATE_DIR", env.root.join("state"))
        .env("GOCCIA_TRUST_PROMPT_TIME_LIMIT_MS", "60000")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("script(1) from util-linux");
    let shown = Arc::new(Mutex::new(Vec::new()));
    let mut stdout = child.stdout.take().unwrap();
    let reader = {
        let shown = Arc::clone(&shown);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    break;
                }
                shown.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        })
    };
    let mut stdin = child.stdin.take().unwrap();
    let start = std::time::Instant::now();
    // Where the last line was typed: the next prompt is a `]> ` after the
    // line break that ran it.
    let mut mark = 0;
    let prompt_after = |mark: usize| {
        let text = shown.lock().unwrap()[mark..].to_vec();
        let text = String::from_utf8_lossy(&text).into_owned();
        let from = if mark == 0 { Some(0) } else { text.find('\n') };
        from.is_some_and(|i| text[i..].contains("]> "))
    };
    for line in lines {
        while !prompt_after(mark) {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(60),
                "no prompt: {:?}",
                String::from_utf8_lossy(&shown.lock().unwrap())
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        mark = shown.lock().unwrap().len();
        stdin.write_all(format!("{line}\r").as_bytes()).unwrap();
    }
    drop(stdin);
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            panic!(
                "did not exit: {:?}",
                String::from_utf8_lossy(&shown.lock().unwrap())
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    reader.join().unwrap();
    let shown = shown.lock().unwrap();
    String::from_utf8_lossy(&shown).replace("\r\n", "\n")
}

#[test]
fn the_fish_snippet_shows_the_line_and_keeps_the_exit_status() {
    if !crate::common::in_checkout() {
        return;
    }
    let env = TestEnv::new();
    let (bad, ok) = two_dirs(&env);
    let config = env.home.join("config.fish");
    // The user's own prompt shows `$status`; the snippet leaves it be.
    std::fs::write(
        &config,
        format!(
            "function fish_prompt; echo -n \"[$status]> \"; end\n{}",
            snippet("fish")
        ),
    )
    .unwrap();
    // fish draws its prompt only on a terminal.
    let fish = format!(
        "fish --no-config -i -C 'source {}'",
        config.to_str().unwrap()
    );
    let lines: Vec<String> = typed(&bad, &ok).lines().map(str::to_string).collect();
    let shown = on_terminal(&env, &fish, &lines);
    // Each line as it stays on the screen (fish redraws the prompt as a
    // command is typed: the last draw of each line counts).
    let got: Vec<String> = shown
        .split('\n')
        .map(|l| l.rsplit('\r').next().unwrap().trim_end().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    let want: Vec<String> = [
        format!("[0]> cd {}", bad.display()),
        LINE.to_string(),
        "[0]> false".to_string(),
        LINE.to_string(),
        "[1]> sh -c 'exit 3'".to_string(),
        LINE.to_string(),
        format!("[3]> cd {}", ok.display()),
        "[0]> false".to_string(),
        "[1]> exit".to_string(),
    ]
    .to_vec();
    assert_eq!(got, want, "{shown:?}");
}

/// starship's custom module, as its source (`src/modules/custom.rs`) and
/// documentation define it: shown when `when` is `true` or a command that
/// exits 0; `$output` is the command's stdout, trimmed, only when the
/// command exits 0 within `command_timeout` (500 ms by default) and says
/// something; the command runs as `SHELL -c COMMAND` in the current
/// directory. Renders the module's `format` (text groups `[..](style)` and
/// conditional groups `(..)`, shown only when a variable in them has a
/// value); styles are dropped.
fn starship_custom_module(module: &toml::Table, cwd: &Path, env: &TestEnv) -> String {
    let shell: Vec<String> = match module.get("shell") {
        Some(toml::Value::Array(a)) => a.iter().map(|v| v.as_str().unwrap().into()).collect(),
        Some(toml::Value::String(s)) => vec![s.clone()],
        _ => vec!["sh".into()],
    };
    let run = |cmd: &str| -> Option<std::process::Output> {
        let mut c = Command::new(&shell[0]);
        match shell.len() {
            1 => c.arg("-c"),
            _ => c.args(&shell[1..]),
        };
        let mut child = c
            .arg(cmd)
            .current_dir(cwd)
            .env_clear()
            .env("HOME", &env.home)
            .env("PATH", search_path())
            .env("GOCCIA_TRUST_STATE_DIR", env.root.join("state"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .ok()?;
        let start = std::time::Instant::now();
        // A debug build on a loaded machine gets more than starship's 500
        // ms; the exit status rule is what this checks.
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > std::time::Duration::from_secs(30) {
                let _ = child.kill();
                return None;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        child.wait_with_output().ok()
    };
    let shown = match module.get("when") {
        Some(toml::Value::Boolean(b)) => *b,
        Some(toml::Value::String(cmd)) => run(cmd).is_some_and(|o| o.status.success()),
        _ => false,
    };
    if !shown {
        return String::new();
    }
    let command = module["command"].as_str().unwrap();
    let output = run(command)
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|o| !o.is_empty());
    render_format(module["format"].as_str().unwrap(), output.as_deref())
}

/// starship's format language, the part a custom module's format uses.
fn render_format(format: &str, output: Option<&str>) -> String {
    fn group(
        chars: &mut std::iter::Peekable<std::str::Chars>,
        out: Option<&str>,
    ) -> (String, bool) {
        let (mut text, mut any) = (String::new(), false);
        while let Some(c) = chars.next() {
            match c {
                ']' | ')' => break,
                '[' => {
                    let (inner, a) = group(chars, out);
                    // The style in `(..)` after a text group is dropped.
                    if chars.peek() == Some(&'(') {
                        chars.by_ref().take_while(|c| *c != ')').for_each(drop);
                    }
                    text += &inner;
                    any |= a;
                }
                '(' => {
                    let (inner, a) = group(chars, out);
                    if a {
                        text += &inner;
                        any = true;
                    }
                }
                '$' => {
                    let name: String =
                        std::iter::from_fn(|| chars.next_if(|c| c.is_alphanumeric() || *c == '_'))
                            .collect();
                    assert_eq!(name, "output", "only $output is rendered here");
                    if let Some(o) = out {
                        text += o;
                        any = true;
                    }
                }
                c => text.push(c),
            }
        }
        (text, any)
    }
    group(&mut format.chars().peekable(), output).0
}

#[test]
fn the_starship_module_shows_the_line_under_starships_rule() {
    if !crate::common::in_checkout() {
        return;
    }
    let env = TestEnv::new();
    let (bad, ok) = two_dirs(&env);
    let config: toml::Table = toml::from_str(&snippet("starship")).unwrap();
    let module = config["custom"]["goccia"].as_table().unwrap();
    assert_eq!(
        starship_custom_module(module, &bad, &env),
        format!("{LINE} ")
    );
    assert_eq!(starship_custom_module(module, &ok, &env), "");
    // The real starship, where it is installed (Debian does not package it).
    let real = Command::new("starship").arg("--version").output();
    if real.is_ok_and(|o| o.status.success()) {
        let file = env.home.join("starship.toml");
        std::fs::write(&file, snippet("starship")).unwrap();
        for (dir, want) in [(&bad, true), (&ok, false)] {
            let out = Command::new("starship")
                .args(["module", "custom.goccia"])
                .current_dir(dir)
                .env("STARSHIP_CONFIG", &file)
                .env("PATH", search_path())
                .env("HOME", &env.home)
                .env("GOCCIA_TRUST_STATE_DIR", env.root.join("state"))
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            assert_eq!(text.contains(LINE), want, "{text}");
        }
    } else {
        eprintln!("starship is not installed: its rule alone was checked");
    }
}

#[test]
fn status_prompt_exits_0_and_gives_up_at_its_time_limit() {
    let env = TestEnv::new();
    let (bad, ok) = two_dirs(&env);
    let limit = [("GOCCIA_TRUST_PROMPT_TIME_LIMIT_MS", "60000")];
    let out = env.run_in(&bad, &["status", "--prompt"], &limit);
    assert_eq!(out.to_string(), format!("{LINE}\n[exit status: 0]"));
    let out = env.run_in(&ok, &["status", "--prompt"], &limit);
    assert_eq!(out.to_string(), "[exit status: 0]");
    // Over its budget it says so, and still exits 0: 500 configs are not
    // read and hashed in a millisecond.
    for i in 0..500 {
        env.write(&format!("many/p{i}/goccia.json"), NET);
    }
    let out = env.run_in(
        &env.work,
        &["status", "--prompt", "--tree", "many"],
        &[("GOCCIA_TRUST_PROMPT_TIME_LIMIT_MS", "1")],
    );
    assert_eq!(
        out.to_string(),
        "goccia: check took too long (run goccia-trust status --tree)\n[exit status: 0]"
    );
    // A check that cannot be made is said, never an all clear.
    let out = env.run_in(&ok, &["status", "--prompt", "gone"], &limit);
    assert_eq!(
        out.to_string(),
        "goccia: check failed (run goccia-trust status for why)\n[exit status: 0]"
    );
    // Without --prompt, the exit status still tells scripts.
    assert_eq!(env.run_in(&bad, &["status"], &[]).code, 1);
}

/// Issue 41 item 9: a scope of 10,000 path components that do not exist
/// took hours (the cube of the components); resolving walks them once.
#[test]
fn status_is_linear_in_a_scopes_components() {
    let env = TestEnv::new();
    let deep: Vec<String> = (0..10_000).map(|i| format!("d{}", i % 10)).collect();
    env.write(
        "deep/goccia.json",
        &format!(
            r#"{{"permissions": {{"allow-read": ["./{}", "./x/{}"]}}}}"#,
            deep.join("/"),
            vec![".."; 10_000].join("/")
        ),
    );
    let start = std::time::Instant::now();
    let out = env.run(&["status", "deep"]);
    let took = start.elapsed();
    assert_eq!(out.stdout, format!("{LINE}\n"), "{out}");
    // A debug build on a shared machine: seconds of slack, where the cubic
    // resolution took hours.
    assert!(took < std::time::Duration::from_secs(10), "{took:?}");
    let start = std::time::Instant::now();
    assert_eq!(env.run(&["trust", "--yes", "deep"]).code, 0);
    assert_eq!(env.run(&["status", "deep"]).code, 0);
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
}

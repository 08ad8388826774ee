//! The house's layering, read from the sources: `core/` folders (and its
//! top-level modules) import each other without a cycle, so does each
//! `cli/` module, `core` knows nothing of the faces (`cli`, `tui`, clap,
//! crossterm, ratatui), and the TUI's pure `update` does not reach into the
//! drawing code (`views`).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The text of a source file without comments (a doc comment may name a
/// module without importing it).
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).expect("read source");
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every first path segment after `prefix` (e.g. `crate::core::`), with
/// brace groups opened: `crate::core::{paths::x, store}` gives `paths` and
/// `store`.
fn segments_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        rest = &rest[i + prefix.len()..];
        let body: &str = rest.trim_start();
        if let Some(group) = body.strip_prefix('{') {
            let mut depth = 1;
            let mut item = String::new();
            let mut at_top = true;
            for c in group.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        at_top = false;
                    }
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => {
                        out.insert(std::mem::take(&mut item));
                        at_top = true;
                    }
                    c if at_top && (c.is_alphanumeric() || c == '_') => item.push(c),
                    c if at_top && !c.is_whitespace() => at_top = false,
                    _ => {}
                }
            }
            out.insert(item);
        } else {
            let name: String = body
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.insert(name);
        }
    }
    out.remove("");
    out.remove("self");
    out
}

/// `unit(file)` names the unit a source file belongs to; the graph maps
/// each unit to the units it imports (through `prefix`).
fn graph(
    files: &[PathBuf],
    prefix: &str,
    unit: impl Fn(&Path) -> String,
) -> BTreeMap<String, BTreeSet<String>> {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let from = unit(f);
        let deps = segments_after(&code(f), prefix);
        let entry = g.entry(from.clone()).or_default();
        entry.extend(deps.into_iter().filter(|d| *d != from));
    }
    g
}

/// A cycle in the graph, as the path that closes it, if there is one.
fn find_cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = stack.iter().position(|s| s == n) {
            let mut cycle = stack[i..].to_vec();
            cycle.push(n.to_string());
            return Some(cycle);
        }
        if done.contains(n) {
            return None;
        }
        stack.push(n.to_string());
        for d in g.get(n).into_iter().flatten() {
            if let Some(c) = visit(d, g, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for n in g.keys() {
        if let Some(c) = visit(n, g, &mut Vec::new(), &mut done) {
            return Some(c);
        }
    }
    None
}

fn relative(f: &Path, base: &Path) -> Vec<String> {
    f.strip_prefix(base)
        .expect("under base")
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect()
}

#[test]
fn core_folders_import_each_other_without_a_cycle() {
    let base = src().join("core");
    let files = sources(&base);
    assert!(files.len() > 20, "{files:?}");
    let g = graph(&files, "crate::core::", |f| relative(f, &base)[0].clone());
    for folder in ["config", "paths", "store", "review", "policy"] {
        assert!(g.contains_key(folder), "core/{folder}/ is gone: {g:?}");
    }
    assert_eq!(find_cycle(&g), None, "{g:#?}");
}

/// A test module (`tests.rs`, `*_tests.rs`) sees everything of its parent:
/// not part of the layering.
fn is_test_file(f: &Path) -> bool {
    let name = f.file_stem().map(|n| n.to_string_lossy().into_owned());
    name.is_some_and(|n| n == "tests" || n.ends_with("_tests"))
}

/// Inside each folder of `core`, its files (a subfolder counts as one)
/// import each other without a cycle, so each concept has a lower file
/// that the others build on.
#[test]
fn files_inside_each_core_folder_import_each_other_without_a_cycle() {
    let core = src().join("core");
    let mut folders = 0;
    for entry in fs::read_dir(&core).expect("read core") {
        let dir = entry.expect("entry").path();
        if !dir.is_dir() {
            continue;
        }
        folders += 1;
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let files: Vec<PathBuf> = sources(&dir)
            .into_iter()
            .filter(|f| !is_test_file(f))
            .collect();
        let unit = |f: &Path| relative(f, &dir)[0].clone();
        let mut g = graph(&files, &format!("crate::core::{name}::"), unit);
        // `super::x` from a file directly in the folder, `self::x` from its
        // mod.rs, name a sibling too.
        for f in &files {
            let rel = relative(f, &dir);
            let from = rel[0].clone();
            let mut deps = BTreeSet::new();
            if rel.len() == 1 {
                deps.extend(segments_after(&code(f), "super::"));
                if from == "mod" {
                    deps.extend(segments_after(&code(f), "self::"));
                }
            }
            deps.retain(|d| {
                *d != from && dir.join(format!("{d}.rs")).exists() || dir.join(d).is_dir()
            });
            g.entry(from).or_default().extend(deps);
        }
        // mod.rs declares every file: only its own imports count.
        if let Some(m) = g.get_mut("mod") {
            m.retain(|d| d != "mod");
        }
        assert_eq!(find_cycle(&g), None, "core/{name}/");
    }
    assert!(folders >= 5);
}

#[test]
fn cli_modules_import_each_other_without_a_cycle() {
    let base = src().join("cli");
    let files = sources(&base);
    let g = graph(&files, "crate::cli::", |f| relative(f, &base)[0].clone());
    assert!(g.len() > 10, "{g:?}");
    assert_eq!(find_cycle(&g), None, "{g:#?}");
}

#[test]
fn core_knows_nothing_of_the_terminal_or_the_command_line() {
    let base = src().join("core");
    for f in sources(&base) {
        let code = code(&f);
        for face in ["crate::cli", "crate::tui", "clap::", "crossterm", "ratatui"] {
            assert!(!code.contains(face), "{} uses {face}", f.display());
        }
    }
}

#[test]
fn the_pure_update_does_not_reach_into_the_views() {
    let tui = src().join("tui");
    let mut files = vec![
        tui.join("update.rs"),
        tui.join("state.rs"),
        tui.join("msg.rs"),
    ];
    files.extend(sources(&tui.join("update")));
    for f in files {
        let code = code(&f);
        assert!(
            !segments_after(&code, "crate::tui::").contains("views") && !code.contains("views::"),
            "{} uses the views",
            f.display()
        );
    }
}

/// The checker itself: it must see an import hidden in a brace group, and
/// must find a cycle where there is one.
#[test]
fn the_checker_sees_grouped_imports_and_cycles() {
    let code = "use crate::core::{paths::key::{a, b}, store, review::x};\nfn f() { crate::core::env::Env::load(); }";
    let seen = segments_after(code, "crate::core::");
    let want: BTreeSet<String> = ["paths", "store", "review", "env"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(seen, want);
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.entry("a".into()).or_default().insert("b".into());
    g.entry("b".into()).or_default().insert("c".into());
    assert_eq!(find_cycle(&g), None);
    g.entry("c".into()).or_default().insert("a".into());
    assert_eq!(
        find_cycle(&g),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
}

/// The longest a function of `src/cli` or `src/core` may be, from its `fn`
/// line to its closing brace (#27: split by meaning into named steps).
const MAX_FN_LINES: usize = 80;

/// One token of Rust source, as far as measuring functions needs: a word
/// (identifier, keyword or number), a punctuation character, or a literal
/// (string, raw string, char, byte), with the line it starts on. Comments
/// are dropped.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Word(String),
    Punct(char),
    Literal,
}

/// The tokens of `text`, each with its 1-based line. Strings (with their
/// escapes, `b`/`c` prefixes, and raw strings with any number of `#`),
/// chars (told from lifetimes) and comments (nested block comments too)
/// are skipped whole, so a brace inside one is not counted.
fn tokens(text: &str) -> Vec<(Tok, usize)> {
    let s: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    // Moves past s[from..to], counting the lines it crosses.
    let advance = |line: &mut usize, from: usize, to: usize| {
        *line += s[from..to.min(s.len())]
            .iter()
            .filter(|c| **c == '\n')
            .count();
        to
    };
    while i < s.len() {
        let c = s[i];
        let at = line;
        if c == '/' && s.get(i + 1) == Some(&'/') {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && s.get(i + 1) == Some(&'*') {
            let (mut j, mut depth) = (i + 2, 1);
            while j < s.len() && depth > 0 {
                if s[j] == '/' && s.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 1;
                } else if s[j] == '*' && s.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 1;
                }
                j += 1;
            }
            i = advance(&mut line, i, j);
        } else if c == '"' {
            i = advance(&mut line, i, quoted_end(&s, i, '"'));
            out.push((Tok::Literal, at));
        } else if c == '\'' {
            // A char ('x', '\n', '\u{..}', '{') or a lifetime ('a).
            if s.get(i + 1) == Some(&'\\') || s.get(i + 2) == Some(&'\'') {
                i = advance(&mut line, i, quoted_end(&s, i, '\''));
                out.push((Tok::Literal, at));
            } else {
                i += 1;
                while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                    i += 1;
                }
                out.push((Tok::Literal, at));
            }
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                i += 1;
            }
            let word: String = s[start..i].iter().collect();
            let hashes = s[i..].iter().take_while(|c| **c == '#').count();
            let quote_after_hashes = s.get(i + hashes) == Some(&'"');
            if matches!(word.as_str(), "r" | "br" | "cr") && quote_after_hashes {
                // A raw string: ends at `"` followed by as many `#`.
                let mut j = i + hashes + 1;
                while j < s.len()
                    && !(s[j] == '"'
                        && s[j + 1..].iter().take_while(|c| **c == '#').count() >= hashes)
                {
                    j += 1;
                }
                i = advance(&mut line, i, j + 1 + hashes);
                out.push((Tok::Literal, at));
            } else if matches!(word.as_str(), "b" | "c") && s.get(i) == Some(&'"') {
                i = advance(&mut line, i, quoted_end(&s, i, '"'));
                out.push((Tok::Literal, at));
            } else if word == "b" && s.get(i) == Some(&'\'') {
                i = advance(&mut line, i, quoted_end(&s, i, '\''));
                out.push((Tok::Literal, at));
            } else if word == "r" && hashes == 1 {
                // A raw identifier, r#name.
                let start = i + 1;
                i = start;
                while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
                    i += 1;
                }
                out.push((Tok::Word(s[start..i].iter().collect()), at));
            } else {
                out.push((Tok::Word(word), at));
            }
        } else {
            if c == '\n' {
                line += 1;
            } else if !c.is_whitespace() {
                out.push((Tok::Punct(c), at));
            }
            i += 1;
        }
    }
    out
}

/// The index just past the literal opened by `quote` at `s[open]`,
/// skipping backslash escapes.
fn quoted_end(s: &[char], open: usize, quote: char) -> usize {
    let mut j = open + 1;
    while j < s.len() && s[j] != quote {
        if s[j] == '\\' {
            j += 1;
        }
        j += 1;
    }
    j + 1
}

/// The index of the token closing the group opened at `toks[open]`.
fn group_end(toks: &[(Tok, usize)], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, (t, _)) in toks.iter().enumerate().skip(open) {
        match t {
            Tok::Punct('{' | '(' | '[') => depth += 1,
            Tok::Punct('}' | ')' | ']') => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    toks.len() - 1
}

/// Whether the attribute opened by `#` at `toks[at]` is `#[cfg(test)]` or
/// `#[cfg(all(test, ...))]`: what it marks is compiled for tests only. (Not
/// `cfg(any(test, feature = ...))`, which the product may compile.)
fn is_test_only_attribute(toks: &[(Tok, usize)], at: usize) -> bool {
    let words: Vec<&Tok> = toks[at..].iter().map(|(t, _)| t).take(7).collect();
    let w = |s: &str| Tok::Word(s.to_string());
    let p = Tok::Punct;
    let starts = |pattern: &[Tok]| pattern.iter().zip(&words).all(|(a, b)| a == *b);
    starts(&[p('#'), p('['), w("cfg"), p('('), w("test"), p(')')])
        || starts(&[
            p('#'),
            p('['),
            w("cfg"),
            p('('),
            w("all"),
            p('('),
            w("test"),
        ])
}

/// The index just past the item starting at `toks[at]` (its attributes
/// included): at its `;`, or at the brace closing its body.
fn item_end(toks: &[(Tok, usize)], mut at: usize) -> usize {
    while at < toks.len() {
        match toks[at].0 {
            Tok::Punct('#') if toks.get(at + 1).map(|t| &t.0) == Some(&Tok::Punct('[')) => {
                at = group_end(toks, at + 1) + 1;
            }
            Tok::Punct('(' | '[') => at = group_end(toks, at) + 1,
            Tok::Punct(';') => return at + 1,
            Tok::Punct('{') => return group_end(toks, at) + 1,
            _ => at += 1,
        }
    }
    at
}

/// The index of the brace closing the body of the function whose
/// signature goes on at `toks[at]`: the body is the first `{` outside the
/// signature's parentheses; a `;` first means there is none.
fn body_end(toks: &[(Tok, usize)], mut at: usize) -> Option<usize> {
    while at < toks.len() {
        match toks[at].0 {
            Tok::Punct('(' | '[') => at = group_end(toks, at) + 1,
            Tok::Punct('{') => return Some(group_end(toks, at)),
            Tok::Punct(';') => return None,
            _ => at += 1,
        }
    }
    None
}

/// Every function with a body in `text`, outside test-only items, as
/// (name, line of its `fn`, lines from the `fn` line to its closing
/// brace). Nested functions are counted on their own too.
fn function_lengths(text: &str) -> Vec<(String, usize, usize)> {
    let toks = tokens(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i].0 == Tok::Punct('#') && is_test_only_attribute(&toks, i) {
            i = item_end(&toks, i);
            continue;
        }
        if let (Tok::Word(kw), Some((Tok::Word(name), _))) = (&toks[i].0, toks.get(i + 1))
            && kw == "fn"
            && let Some(close) = body_end(&toks, i + 2)
        {
            out.push((name.clone(), toks[i].1, toks[close].1 - toks[i].1 + 1));
        }
        i += 1;
    }
    out
}

/// Every function of `src/cli` and `src/core` longer than [`MAX_FN_LINES`],
/// outside test files and test-only items, as (file relative to the
/// crate, name, line, length).
fn long_functions() -> Vec<(String, String, usize, usize)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in ["cli", "core"] {
        for f in sources(&src().join(dir)) {
            if is_test_file(&f) {
                continue;
            }
            let text = fs::read_to_string(&f).expect("read source");
            let file = f.strip_prefix(root).expect("in crate");
            let file = file.to_string_lossy().replace('\\', "/");
            for (name, line, len) in function_lengths(&text) {
                if len > MAX_FN_LINES {
                    out.push((file.clone(), name, line, len));
                }
            }
        }
    }
    out
}

/// No function of `src/cli` or `src/core` is longer than 80 lines (tests
/// and the TUI, outside both, excepted).
#[test]
fn no_function_in_cli_or_core_is_longer_than_80_lines() {
    let long: Vec<String> = long_functions()
        .iter()
        .map(|(file, name, line, len)| format!("{file}:{line} fn {name}: {len} lines"))
        .collect();
    assert!(
        long.is_empty(),
        "functions longer than {MAX_FN_LINES} lines (split them by meaning into named steps):\n{}",
        long.join("\n")
    );
}

/// The measure itself: braces inside strings, raw strings, chars and
/// comments do not count, lifetimes are not chars, test-only items are
/// left out, and a function one line over the limit is seen.
#[test]
fn the_function_measure_skips_literals_comments_and_tests() {
    let text = r####"
fn braces_in_literals<'a>(x: &'a str) -> char {
    let _ = "}}} \" }";
    let _ = r#"}" }"#;
    let _ = br##"}"# }"##;
    let _ = b'}';
    let _ = '\u{7d}';
    // }
    /* } /* nested } */ } */
    '{'
}
fn declared_only(x: u8) -> u8;
fn pointer(f: fn(u8) -> u8, a: [u8; 2]) { f(a[0]); }
#[cfg(test)]
mod tests {
    fn hidden() {
    }
}
#[cfg(all(test, unix))]
#[path = "x_tests.rs"]
mod more_tests;
#[cfg(any(test, feature = "test-support"))]
fn for_test_support() {
}
"####;
    let got = function_lengths(text);
    let want = [
        ("braces_in_literals", 2, 10),
        ("pointer", 13, 1),
        ("for_test_support", 23, 2),
    ];
    let want: Vec<(String, usize, usize)> = want
        .iter()
        .map(|(n, l, len)| (n.to_string(), *l, *len))
        .collect();
    assert_eq!(got, want);

    let body = |lines: usize| {
        let mut f = String::from("fn long() {\n");
        f.push_str(&"    step();\n".repeat(lines - 2));
        f.push_str("}\n");
        f
    };
    assert_eq!(function_lengths(&body(MAX_FN_LINES))[0].2, MAX_FN_LINES);
    assert_eq!(
        function_lengths(&body(MAX_FN_LINES + 1))[0].2,
        MAX_FN_LINES + 1
    );
}

/// Every process the tool starts goes through the one bounded spawner
/// (`core::process`: a time limit, a process group, output limits), issue
/// 39 item 4: no other source file starts one (`.spawn()`, `.output()`,
/// `.status()` on a `Command`), but the interactive review's editor, which
/// runs in the user's terminal for as long as the user edits. Test code
/// (`#[cfg(test)]` modules, `*_tests.rs`, the Free Pascal oracle) aside.
#[test]
fn only_the_bounded_spawner_starts_a_process() {
    let allowed = ["core/process.rs", "core/paths/oracle.rs"];
    let mut found = Vec::new();
    for f in sources(&src()) {
        let rel = f.strip_prefix(src()).unwrap().display().to_string();
        if allowed.contains(&rel.as_str())
            || rel.ends_with("_tests.rs")
            || rel.ends_with("/tests.rs")
        {
            continue;
        }
        let text = code(&f);
        let text = match text.find("#[cfg(test)]\nmod tests") {
            Some(at) => &text[..at],
            None => &text[..],
        };
        for call in [".spawn()", ".output()", ".status()"] {
            for (at, _) in text.match_indices(call) {
                let line = text[..at].matches('\n').count() + 1;
                found.push(format!("{rel}:{line}: {call}"));
            }
        }
    }
    // The editor: `Command::new("/bin/sh")` … `.status()`, in the TUI.
    let editor: Vec<&String> = found
        .iter()
        .filter(|f| f.starts_with("tui/mod.rs:") && f.ends_with(".status()"))
        .collect();
    assert_eq!(editor.len(), 1, "{found:?}");
    let others: Vec<&String> = found.iter().filter(|f| !editor.contains(f)).collect();
    assert!(
        others.is_empty(),
        "a process started outside core::process: {others:?}"
    );
}

/// Every `unsafe` block, function, impl or trait in `src/` (comments and
/// literals skipped, test code counted too), as `file:line`, with whether
/// the comment lines right above it hold a `// SAFETY:` line.
fn unsafe_uses(root: &Path) -> Vec<(String, bool)> {
    let mut found = Vec::new();
    for f in sources(root) {
        let text = fs::read_to_string(&f).expect("read source");
        let lines: Vec<&str> = text.lines().collect();
        let toks = tokens(&text);
        for (i, (tok, line)) in toks.iter().enumerate() {
            if *tok != Tok::Word("unsafe".into()) {
                continue;
            }
            let next = toks.get(i + 1).map(|(t, _)| t);
            let opens = matches!(next, Some(Tok::Punct('{')))
                || matches!(next, Some(Tok::Word(w)) if ["fn", "impl", "trait", "extern"].contains(&w.as_str()));
            if !opens {
                continue;
            }
            // The run of `//` lines just above the line `unsafe` is on.
            let justified = lines[..line - 1]
                .iter()
                .rev()
                .map(|l| l.trim_start())
                .take_while(|l| l.starts_with("//"))
                .any(|l| l.starts_with("// SAFETY:"));
            let rel = f.strip_prefix(root).unwrap_or(&f).display().to_string();
            found.push((format!("{rel}:{line}"), justified));
        }
    }
    found
}

/// Issue 42 item 5: the system calls go through rustix's safe wrappers, so
/// at most five `unsafe` uses remain in `src/`, each right under a
/// `// SAFETY:` comment that says why it holds.
#[test]
fn at_most_five_unsafe_uses_each_with_a_safety_comment() {
    let found = unsafe_uses(&src());
    assert!(
        found.len() <= 5,
        "{} unsafe uses (at most 5): {found:?}",
        found.len()
    );
    let bare: Vec<&String> = found
        .iter()
        .filter(|(_, ok)| !ok)
        .map(|(at, _)| at)
        .collect();
    assert!(
        bare.is_empty(),
        "unsafe without a // SAFETY: comment above it: {bare:?}"
    );
}

/// The count sees blocks and functions, not the word in comments, strings
/// or names, and wants the SAFETY line in the comment run right above.
#[test]
fn the_unsafe_count_skips_comments_literals_and_names() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("a.rs"),
        r##"// unsafe { in a comment }
/* unsafe { } */
fn is_unsafe(c: char) -> bool { c == 'u' }
const S: &str = "unsafe { }";
const R: &str = r#"unsafe fn x()"#;
fn f() {
    // SAFETY: justified.
    let a = unsafe { g() };
    let b = unsafe { g() };
}
// SAFETY: on a function.
// (a second line)
unsafe fn g() -> u8 { 0 }
"##,
    )
    .unwrap();
    let found = unsafe_uses(dir.path());
    assert_eq!(
        found,
        [
            ("a.rs:8".to_string(), true),
            ("a.rs:9".to_string(), false),
            ("a.rs:13".to_string(), true),
        ]
    );
}

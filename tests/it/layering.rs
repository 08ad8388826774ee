//! The house's layering, read from the sources: `core/` folders (and its
//! top-level modules) import each other without a cycle, so does each
//! `cli/` module, `core` knows nothing of the faces (`cli`, `tui`, clap,
//! crossterm, ratatui), the TUI's pure `update` does not reach into the
//! drawing code (`views`), the TUI's files import each other without a
//! cycle, no function of `src/` is longer than 80 lines, and the command
//! line's printers only write while its outcomes decide the exit code.

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

/// [`code`] without its `#[cfg(test)] mod tests`: a test module sees
/// everything of its parent, and is not part of the layering.
fn product_code(path: &Path) -> String {
    let text = code(path);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let attribute = lines[i].trim();
        let next = lines.get(i + 1).map_or("", |l| l.trim());
        let module = next.strip_prefix("pub(crate) ").unwrap_or(next);
        let module = module.strip_prefix("pub ").unwrap_or(module);
        if attribute.starts_with("#[cfg(")
            && attribute.contains("test")
            && module.starts_with("mod ")
        {
            // Skips the module to its closing brace.
            let mut depth = 0i64;
            i += 1;
            while i < lines.len() {
                depth +=
                    lines[i].matches('{').count() as i64 - lines[i].matches('}').count() as i64;
                i += 1;
                if depth <= 0 && (lines[i - 1].contains('}') || lines[i - 1].ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        out.push(lines[i]);
        i += 1;
    }
    out.join("\n")
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
        let deps = segments_after(&product_code(f), prefix);
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

/// What in a printer's code would decide an exit code: the exit table
/// (`core::exit`, in any import spelling, or a path through `exit::`), or a
/// `CliError` made with a code (`new`, `usage`, `failed`, `report`, the
/// `Message` variant). A printer may still pass on a write's error (`?`,
/// `CliError::from`).
fn decides_a_code(code: &str) -> Vec<&'static str> {
    let mut found = Vec::new();
    if segments_after(code, "crate::core::").contains("exit") || code.contains("exit::") {
        found.push("core::exit");
    }
    for make in [
        "CliError::new",
        "CliError::usage",
        "CliError::failed",
        "CliError::report",
        "CliError::Message",
    ] {
        if code.contains(make) {
            found.push(make);
        }
    }
    found
}

/// Printers write, the outcome decides: no file under `src/cli/print`
/// reads the exit table or makes a `CliError` with a code, and every file
/// of `src/cli/outcome` has an `exit_code` (or its comments say
/// "No `exit_code`" and why).
#[test]
fn printers_write_and_each_outcome_decides_the_code() {
    let printers = sources(&src().join("cli").join("print"));
    assert!(printers.len() > 20, "{printers:?}");
    for f in printers {
        let found = decides_a_code(&product_code(&f));
        assert!(
            found.is_empty(),
            "{} decides a code: {found:?}",
            f.display()
        );
    }
    let outcomes = sources(&src().join("cli").join("outcome"));
    assert!(outcomes.len() > 10, "{outcomes:?}");
    for f in outcomes.iter().filter(|f| !f.ends_with("mod.rs")) {
        let says_why = fs::read_to_string(f)
            .expect("read source")
            .contains("No `exit_code`");
        assert!(
            product_code(f).contains("fn exit_code(") || says_why,
            "{} has no exit_code and does not say why",
            f.display()
        );
    }
}

/// The printer check itself: it sees the exit table however it is
/// imported and every way of making an error with a code, and lets a
/// printer pass a write's error on.
#[test]
fn the_printer_check_sees_a_decided_code() {
    for decides in [
        "use crate::core::exit;",
        "use crate::core::{env::Env, exit::unreadable_exit};",
        "fn f() -> u8 { crate::core::exit::FAILURE }",
        "return Err(CliError::new(c.class.code(), c));",
        "Err(CliError::failed(e))",
        "CliError::usage(e.0)",
        "CliError::report(2, text)",
        "CliError::Message { code: 1, message, report: false, json, hint }",
    ] {
        assert!(!decides_a_code(decides).is_empty(), "{decides}");
    }
    for writes in [
        "writeln!(io.out, \"{x}\")?; Ok(())",
        "io.out.write_all(b).map_err(CliError::from)?;",
        "use crate::core::env::Env; fn exit_code(&self) -> u8 { self.code }",
    ] {
        assert!(decides_a_code(writes).is_empty(), "{writes}");
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

/// The longest a function of `src/` may be, from its `fn` line to its
/// closing brace (#27, and the TUI too since issue 42: split by meaning into
/// named steps).
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

/// Every function of `folder` longer than [`MAX_FN_LINES`], outside test
/// files and test-only items, as (file relative to the crate, name, line,
/// length).
fn long_functions(folder: &Path) -> Vec<(String, String, usize, usize)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for f in sources(folder) {
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
    out
}

/// No function of `src/` (`cli`, `core`, the TUI and the top-level
/// modules) is longer than 80 lines; tests excepted.
#[test]
fn no_function_in_src_is_longer_than_80_lines() {
    let long: Vec<String> = long_functions(&src())
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

/// The style both faces share lives in `src/style` (issue 42 item 4): the
/// command line reaches the TUI only in `cli/tui.rs`, which starts it;
/// `style` imports neither face, and of the terminal crates only
/// ratatui's `style` values (what a theme resolves to); `core` imports
/// no face and no style. One home for the roles: no other file defines
/// the theme's `Role` or writes a colour as SGR.
#[test]
fn the_faces_share_the_style_and_only_cli_tui_starts_the_tui() {
    let crate_paths = |f: &Path| {
        let code = code(f);
        let mut seen = segments_after(&code, "crate::");
        // `super::super::tui` from a nested file names the crate root too.
        if code.contains("super::super::tui") {
            seen.insert("tui".into());
        }
        seen
    };
    let cli = src().join("cli");
    let starter = cli.join("tui.rs");
    assert!(starter.is_file(), "cli/tui.rs starts the TUI");
    let cli_files = sources(&cli);
    assert!(cli_files.len() > 20, "{cli_files:?}");
    for f in cli_files.iter().filter(|f| **f != starter) {
        assert!(
            !crate_paths(f).contains("tui"),
            "{} uses crate::tui (only cli/tui.rs starts the TUI; shared style is in src/style)",
            f.display()
        );
    }

    let style_files = sources(&src().join("style"));
    assert!(style_files.len() >= 4, "src/style/: {style_files:?}");
    for f in &style_files {
        let seen = crate_paths(f);
        for face in ["cli", "tui"] {
            assert!(!seen.contains(face), "{} imports {face}", f.display());
        }
        let code = code(f);
        assert!(
            !code.contains("crossterm"),
            "{} uses crossterm",
            f.display()
        );
        for (at, _) in code.match_indices("ratatui::") {
            assert!(
                code[at..].starts_with("ratatui::style::"),
                "{} uses ratatui beyond its style values",
                f.display()
            );
        }
    }

    for f in sources(&src().join("core")) {
        let seen = crate_paths(&f);
        for other in ["style", "cli", "tui"] {
            assert!(!seen.contains(other), "{} imports {other}", f.display());
        }
    }

    for f in sources(&src()) {
        if f.starts_with(src().join("style")) {
            continue;
        }
        let code = code(&f);
        let defines_roles = code.contains("pub enum Role") && code.contains("KeyHint");
        assert!(
            !code.contains("38;5;") && !defines_roles,
            "{} repeats the style (the theme's roles or their SGR)",
            f.display()
        );
    }
}

/// Every file named by input (a config, a hook, a store, a policy, a run
/// summary, a target of `policy run`) is read through the bounded reader
/// (`core/paths/bounded.rs`: a regular file only, of bounded size, never
/// waited on). No other product code opens a file to read it, but for the
/// few listed here, each with its reason.
#[test]
fn only_the_bounded_reader_reads_a_file() {
    // (file, or `*/name` for a file of that name in any folder; call; why)
    let allowed: &[(&str, &str, &str)] = &[
        ("core/paths/bounded.rs", "*", "the bounded reader itself"),
        (
            "core/paths/portable.rs",
            ".read(true)",
            "the non-blocking open the bounded reader uses",
        ),
        (
            "core/store/update.rs",
            "File::open(",
            "the store's own folder, opened to sync it after a write",
        ),
        (
            "core/store/update.rs",
            ".read(true)",
            "the store's lock file, created by this tool and checked regular",
        ),
        (
            "core/review/state_file.rs",
            ".read(true)",
            "a lock file of this tool's state folder, checked regular",
        ),
        ("tui/mod.rs", "File::open(", "the terminal, /dev/tty"),
        (
            "*/theme.rs",
            "read_to_string(",
            "the theme file the user names, never one a repository names",
        ),
        (
            "cli/outcome/hook.rs",
            "read_to_string(",
            "git's list on standard input, taken to 1 MiB",
        ),
    ];
    let calls = ["fs::read(", "read_to_string(", "File::open(", ".read(true)"];
    let mut found = Vec::new();
    for f in sources(&src()) {
        let rel = f.strip_prefix(src()).unwrap().display().to_string();
        if rel.ends_with("_tests.rs") || rel.ends_with("/tests.rs") {
            continue;
        }
        let text = code(&f);
        // A file's own tests (`mod tests` at its end, under any `cfg`).
        let text = match text.find("\nmod tests {") {
            Some(at) => &text[..at],
            None => &text[..],
        };
        for call in calls {
            let listed = allowed.iter().any(|(file, c, _)| {
                let file_ok = match file.strip_prefix("*/") {
                    Some(name) => rel == name || rel.ends_with(&format!("/{name}")),
                    None => rel == *file,
                };
                file_ok && (*c == "*" || *c == call)
            });
            if listed {
                continue;
            }
            for (at, _) in text.match_indices(call) {
                let line = text[..at].matches('\n').count() + 1;
                found.push(format!("{rel}:{line}: {call}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a file read outside core::paths::bounded: {found:?}"
    );
}

/// A normalized block is parsed once, where it is written
/// (`core/config/block.rs`'s `Block`), and its JSON passed on: no other
/// product code parses JSON text but the readers of the files that hold it.
#[test]
fn a_block_is_parsed_only_where_it_is_written() {
    let allowed = [
        ("core/config/block.rs", "the block, parsed once"),
        ("core/config/json.rs", "the parser itself"),
        ("core/config/entries/formats.rs", "a config file's JSON"),
        ("core/policy/load.rs", "a policy file"),
        ("core/store/read.rs", "the store file"),
        ("core/store/lean.rs", "the store file, entry by entry"),
        (
            "core/team/record.rs",
            "a line of the reviews file core::team::file reads",
        ),
        (
            "core/store/model.rs",
            "a stored block, kept as text and parsed when read",
        ),
    ];
    let mut found = Vec::new();
    for f in sources(&src()) {
        let rel = f.strip_prefix(src()).unwrap().display().to_string();
        if allowed.iter().any(|(file, _)| rel == *file)
            || rel.ends_with("_tests.rs")
            || rel.ends_with("/tests.rs")
        {
            continue;
        }
        let text = code(&f);
        let text = match text.find("\nmod tests {") {
            Some(at) => &text[..at],
            None => &text[..],
        };
        for call in ["json::parse(", "json::parse_wide(", "config_json::parse("] {
            for (at, _) in text.match_indices(call) {
                let line = text[..at].matches('\n').count() + 1;
                found.push(format!("{rel}:{line}: {call}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "JSON parsed outside core::config::block and the file readers: {found:?}"
    );
}

/// The module path of a source file under `src/`: `cli/print/text/hook.rs`
/// is `["cli", "print", "text", "hook"]`; a `mod.rs` is its folder's.
fn module_path(f: &Path) -> Vec<String> {
    let mut m = relative(f, &src());
    if m.last().is_some_and(|l| l == "mod") {
        m.pop();
    }
    m
}

/// The source file of the module at `path`, if there is one.
fn module_file(path: &[String]) -> Option<PathBuf> {
    let base = path.iter().fold(src(), |p, s| p.join(s));
    let file = base.with_extension("rs");
    let folder = base.join("mod.rs");
    if !path.is_empty() && file.is_file() {
        Some(file)
    } else if !path.is_empty() && folder.is_file() {
        Some(folder)
    } else {
        None
    }
}

/// Every path of the use tree or expression path starting at `s[*i]`,
/// brace groups opened (`a::{b, c::{d, self}}` gives `a::b`, `a::c::d` and
/// `a::c`); a glob or a group's `self` names the module before it.
fn path_tree(s: &[char], i: &mut usize) -> Vec<Vec<String>> {
    let skip_ws = |i: &mut usize| {
        while *i < s.len() && s[*i].is_whitespace() {
            *i += 1;
        }
    };
    let mut prefix: Vec<String> = Vec::new();
    loop {
        skip_ws(i);
        if s.get(*i) == Some(&'{') {
            *i += 1;
            let mut out = Vec::new();
            loop {
                skip_ws(i);
                if s.get(*i).is_none_or(|c| *c == '}') {
                    *i += 1;
                    break;
                }
                for p in path_tree(s, i) {
                    out.push(prefix.iter().cloned().chain(p).collect());
                }
                // `as alias`, then `,` or `}`.
                while *i < s.len() && !matches!(s[*i], ',' | '}' | '{') {
                    *i += 1;
                }
                if s.get(*i) == Some(&',') {
                    *i += 1;
                }
            }
            if out.is_empty() {
                out.push(prefix);
            }
            return out;
        }
        let start = *i;
        while *i < s.len() && (s[*i].is_alphanumeric() || s[*i] == '_') {
            *i += 1;
        }
        let word: String = s[start..*i].iter().collect();
        if word.is_empty() || word == "self" {
            return vec![prefix];
        }
        prefix.push(word);
        if s.get(*i) == Some(&':') && s.get(*i + 1) == Some(&':') {
            *i += 2;
        } else {
            return vec![prefix];
        }
    }
}

/// For each line of `text`, the inline modules (`mod unix { ... }`) it is
/// written in, outermost first.
fn inline_scopes(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut stack: Vec<(String, i64)> = Vec::new();
    let mut depth = 0i64;
    for line in text.lines() {
        out.push(stack.iter().map(|(n, _)| n.clone()).collect());
        let t = line.trim();
        let t = t.strip_prefix("pub(crate) ").unwrap_or(t);
        let t = t.strip_prefix("pub ").unwrap_or(t);
        let opened = t
            .strip_prefix("mod ")
            .and_then(|r| r.strip_suffix('{'))
            .map(|n| n.trim().to_string());
        if let Some(name) = opened {
            stack.push((name, depth));
        }
        depth += line.matches('{').count() as i64 - line.matches('}').count() as i64;
        while stack.last().is_some_and(|(_, d)| depth <= *d) {
            stack.pop();
        }
    }
    out.push(Vec::new());
    out
}

/// The files a source file imports: its `crate::`, `super::` and `self::`
/// paths (in `use`, `pub use` re-exports and expressions alike), and paths
/// through a child module it declares (`mod x;` then `x::y`), each resolved
/// to the deepest module file it names. `mod x;` itself is no import. Its
/// `#[cfg(test)] mod tests` is left out.
fn file_imports(f: &Path) -> BTreeSet<PathBuf> {
    let text = product_code(f);
    let s: Vec<char> = text.chars().collect();
    let me = module_path(f);
    let children: BTreeSet<String> = text
        .lines()
        .filter_map(|l| {
            let l = l.trim().strip_prefix("pub ").unwrap_or(l.trim());
            let l = l.strip_prefix("pub(crate) ").unwrap_or(l);
            l.strip_prefix("mod ")?
                .strip_suffix(';')
                .map(str::to_string)
        })
        .collect();
    let scopes = inline_scopes(&text);
    let lines: Vec<usize> = s
        .iter()
        .scan(0, |line, c| {
            let here = *line;
            *line += usize::from(*c == '\n');
            Some(here)
        })
        .collect();
    let line_of = |at: usize| lines[at];
    let mut out = BTreeSet::new();
    let mut i = 0;
    while i < s.len() {
        let word_start =
            i == 0 || !(s[i - 1].is_alphanumeric() || s[i - 1] == '_' || s[i - 1] == ':');
        if !(word_start && (s[i].is_alphanumeric() || s[i] == '_')) {
            i += 1;
            continue;
        }
        let start = i;
        let mut base: Option<Vec<String>> = None;
        let mut j = i;
        // `super::super::x` climbs once per `super`, from the inline
        // module (`mod unix { ... }`) the path is written in.
        let mut here: Vec<String> = me.iter().chain(&scopes[line_of(start)]).cloned().collect();
        loop {
            let rest: String = s[j..s.len().min(j + 7)].iter().collect();
            if rest.starts_with("crate::") {
                base = Some(Vec::new());
                j += 7;
            } else if rest.starts_with("self::") && base.is_none() {
                base = Some(here.clone());
                j += 6;
            } else if rest.starts_with("super::") {
                here.pop();
                base = Some(here.clone());
                j += 7;
                continue;
            }
            break;
        }
        let base = match base {
            Some(b) => b,
            None => {
                let word: String = s[start..]
                    .iter()
                    .take_while(|c| c.is_alphanumeric() || **c == '_')
                    .collect();
                let after = start + word.chars().count();
                let is_path = s.get(after) == Some(&':') && s.get(after + 1) == Some(&':');
                if !(is_path && children.contains(&word)) {
                    i = after;
                    continue;
                }
                j = start;
                me.clone()
            }
        };
        i = j;
        for tail in path_tree(&s, &mut i) {
            let mut full: Vec<String> = base.iter().cloned().chain(tail).collect();
            while !full.is_empty() {
                if let Some(file) = module_file(&full) {
                    out.insert(file);
                    break;
                }
                full.pop();
            }
        }
        i = i.max(start + 1);
    }
    out.remove(f);
    out
}

/// The file-level import graph of the sources under `folder` (test files
/// aside): each file, relative to `src/`, with the files of the same
/// folder it imports.
fn file_graph(folder: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let name = |f: &Path| f.strip_prefix(src()).expect("in src").display().to_string();
    let mut g = BTreeMap::new();
    for f in sources(folder).into_iter().filter(|f| !is_test_file(f)) {
        let deps = file_imports(&f)
            .into_iter()
            .filter(|d| d.starts_with(folder) && !is_test_file(d))
            .map(|d| name(&d))
            .collect();
        g.insert(name(&f), deps);
    }
    g
}

/// No circle between the files of `folder`: the cycle found, if any.
fn file_cycle(folder: &str) -> Option<Vec<String>> {
    let g = file_graph(&src().join(folder));
    assert!(g.len() > 10, "{folder}: {g:?}");
    find_cycle(&g)
}

/// No file of `src/cli` imports, through any path, a file that imports it
/// back: a printer never reaches the module that dispatches (issue 42).
#[test]
fn cli_files_import_each_other_without_a_cycle() {
    assert_eq!(file_cycle("cli"), None);
}

/// No file of `src/core` imports, through any path, a file that imports it
/// back.
#[test]
fn core_files_import_each_other_without_a_cycle() {
    assert_eq!(file_cycle("core"), None);
}

/// The file-level checker: it resolves `crate::`, `super::`, `self::` and
/// child-module paths to files, sees re-exports and grouped imports, and
/// finds the circle the old `cli/mod.rs` closed.
#[test]
fn the_file_checker_resolves_every_kind_of_path() {
    let tree = |t: &str| {
        let s: Vec<char> = t.chars().collect();
        path_tree(&s, &mut 0)
    };
    let v = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<String>>();
    assert_eq!(
        tree("a::{b, c::{d, self}, e as f}::x"),
        vec![
            v(&["a", "b"]),
            v(&["a", "c", "d"]),
            v(&["a", "c"]),
            v(&["a", "e"])
        ]
    );
    assert_eq!(tree("x::*;"), vec![v(&["x"])]);
    let cli = src().join("cli");
    let rel = |p: &str| src().join(p);
    // `crate::` paths resolve to the deepest file they name.
    let imports = file_imports(&cli.join("io.rs"));
    assert!(imports.contains(&rel("style/paint.rs")), "{imports:?}");
    assert!(imports.contains(&rel("cli/terminal.rs")), "{imports:?}");
    assert!(!imports.contains(&rel("cli/mod.rs")), "{imports:?}");
    // A printer imports `Io` from `cli/io.rs`.
    let printer = file_imports(&cli.join("print/text/hook.rs"));
    assert!(printer.contains(&rel("cli/io.rs")), "{printer:?}");
    // A cycle through two files is found.
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.entry("cli/mod.rs".into())
        .or_default()
        .insert("cli/hook.rs".into());
    g.entry("cli/hook.rs".into())
        .or_default()
        .insert("cli/print/text/hook.rs".into());
    g.entry("cli/print/text/hook.rs".into())
        .or_default()
        .insert("cli/mod.rs".into());
    assert!(find_cycle(&g).is_some());
}

/// The TUI's files import each other without a cycle: views may read the
/// state, the state never names a view, and `update`'s helpers do not
/// import `update` back.
#[test]
fn tui_files_import_each_other_without_a_cycle() {
    assert_eq!(file_cycle("tui"), None);
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

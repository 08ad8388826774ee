//! Lexical path handling exactly as GocciaScript 0.14 does it on Unix: Free
//! Pascal 3.2.2's `ExpandFileName`, Pascal's `Trim` and `TryStrToInt` (which
//! scopes use for ports and prefixes). Nothing here touches
//! the disk (docs/src/compatibility.md#pascal-trim, #expandfilename).

/// Pascal `Trim`: removes every character at or below U+0020 (all C0
/// controls and space) from both ends; NBSP and other Unicode spaces stay.
pub fn pascal_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= '\u{20}')
}

/// Free Pascal 3.2.2's `ExpandFileName` on Unix, against the given working
/// directory and `$HOME` (`""` when unset).
///
/// 1. every `\` becomes `/`;
/// 2. a leading `~` alone or `~/` becomes `$HOME`;
/// 3. a relative path is prefixed with the working directory;
/// 4. after the first character: runs of `/` collapse, `/./` goes, each
///    `<dir>/../` goes, a trailing `<dir>/..` goes only when the first `/..`
///    of the text is that trailing one, a trailing `/.` goes, leading `./`
///    and `../` go (nothing climbs above `/`), `.` or `..` alone go;
/// 5. a trailing `/` is kept only when the input ended with `/`.
pub fn expand_file_name(path: &str, cwd: &str, home: &str) -> String {
    expand_simple(path).unwrap_or_else(|| expand_by_rules(path, cwd, home))
}

/// The rules above, applied one after the other.
fn expand_by_rules(path: &str, cwd: &str, home: &str) -> String {
    let mut pa: String = path.replace('\\', "/");

    if pa.starts_with('~') && (pa.len() == 1 || pa.as_bytes()[1] == b'/') {
        if home.is_empty() || (home == "/" && pa.len() > 1) {
            pa.remove(0);
        } else if home.ends_with('/') {
            pa = format!("{home}{}", pa.get(2..).unwrap_or(""));
        } else {
            pa = format!("{home}{}", &pa[1..]);
        }
    }

    if !pa.starts_with('/') {
        pa = if cwd == "/" {
            format!("/{pa}")
        } else if pa.is_empty() {
            format!("{cwd}/")
        } else {
            format!("{cwd}/{pa}")
        };
    }

    // Everything after the leading separator.
    let mut dirs = collapse_separator_runs(&pa[1..]);

    while let Some(i) = dirs.find("/./") {
        dirs.replace_range(i..i + 2, "");
    }
    while let Some(i) = dirs.find("/../") {
        let start = dirs[..i].rfind('/').map_or(0, |j| j + 1);
        dirs.replace_range(start..i + 4, "");
    }
    if let Some(i) = dirs.find("/..")
        && i + 3 == dirs.len()
    {
        match dirs[..i].rfind('/') {
            None => dirs.clear(),
            Some(j) => dirs.truncate(j + 1),
        }
    }
    if dirs == "." {
        dirs.clear();
    } else if dirs.len() >= 2 && dirs.ends_with("/.") {
        dirs.truncate(dirs.len() - 2);
    }
    while dirs.starts_with("./") {
        dirs.replace_range(0..2, "");
    }
    while dirs.starts_with("../") {
        dirs.replace_range(0..3, "");
    }
    if dirs == "." || dirs == ".." {
        dirs.clear();
    }

    let mut result = format!("/{dirs}");
    if result.len() > 1 && result.ends_with('/') && !path.is_empty() && !path.ends_with(['/', '\\'])
    {
        // A trailing separator survives only when the caller wrote one; a
        // trailing backslash counts, since it became `/` first.
        result.pop();
    }
    result
}

/// The expansion of an absolute path without `..` components, `\\` or a
/// leading `//`, in one pass: the rules above then only drop empty and `.`
/// components, keeping one trailing `/` when the input ended with one (and
/// the result is not `/` itself). Most scopes are written this way, or
/// `./x` relative to the declaring directory. `None`: the rules apply.
fn expand_simple(path: &str) -> Option<String> {
    let rest = path.strip_prefix('/')?;
    if rest.starts_with('/') || path.contains('\\') {
        return None;
    }
    let mut out = String::with_capacity(path.len());
    for component in rest.split('/') {
        match component {
            "" | "." => {}
            ".." => return None,
            name => {
                out.push('/');
                out.push_str(name);
            }
        }
    }
    // `/` alone, or a trailing separator the input had.
    if out.is_empty() || path.ends_with('/') {
        out.push('/');
    }
    Some(out)
}

fn collapse_separator_runs(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut prev_sep = false;
    for c in s.chars() {
        if c == '/' {
            if prev_sep {
                continue;
            }
            prev_sep = true;
        } else {
            prev_sep = false;
        }
        out.push(c);
    }
    out
}

/// `ExpandFileName`, then one trailing `/` dropped, `""` becoming `/`: how
/// GocciaScript makes a path absolute for a trust key, a `--untrust` target
/// or a read/ffi scope.
pub fn expand_without_trailing_separator(path: &str, cwd: &str, home: &str) -> String {
    let mut p = expand_file_name(path, cwd, home);
    if p.ends_with('/') {
        p.pop();
    }
    if p.is_empty() {
        p.push('/');
    }
    p
}

/// The directory part of an absolute path (`/a/b` → `/a`, `/a` → `/`).
pub fn parent_dir(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) | None => "/",
        Some(i) => &path[..i],
    }
}

/// The last component of a path (`/a/b` → `b`).
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Free Pascal's `ExtractFilePath`: everything up to and including the last
/// separator. On Unix FPC counts `\` as a separator here too.
pub fn declaring_dir(source_file: &str) -> &str {
    match source_file.rfind(['/', '\\']) {
        Some(i) => &source_file[..=i],
        None => "",
    }
}

/// FPC's `ExtractFileDir` on Unix: up to the last separator, which is kept
/// only when it is the first character or follows another separator.
pub fn fpc_extract_file_dir(path: &str) -> &str {
    let is_sep = |b: u8| b == b'/' || b == b'\\';
    let bytes = path.as_bytes();
    match path.rfind(['/', '\\']) {
        None => "",
        Some(i) if i > 0 && !is_sep(bytes[i - 1]) => &path[..i],
        Some(i) => &path[..=i],
    }
}

/// `p` made absolute against `cwd` and normalized like Node's
/// `path.normalize` (nothing climbs above `/`). Never touches the disk.
pub fn lexical_path(p: &str, cwd: &str) -> String {
    let joined = if p.starts_with('/') {
        p.to_string()
    } else {
        format!("{cwd}/{p}")
    };
    let mut parts: Vec<&str> = Vec::new();
    for seg in joined.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    format!("/{}", parts.join("/"))
}

/// Free Pascal 3.2.2's `TryStrToInt` into a `Longint` on a 64-bit host:
/// leading spaces and tabs, an optional sign, then `$`/`x`/`0x` (hex), `%`
/// (binary) or `&` (octal); the value is accumulated in 64 bits (a decimal
/// one bounded by `Int64`, others by `QWord`), then truncated to 32 bits. A
/// NUL ends the number early; text longer than 255 bytes is refused.
pub fn fpc_try_str_to_int(text: &str) -> Option<i32> {
    let s = PascalStr(text.as_bytes());
    let len = s.len();
    if len == 0 || len > 255 {
        return None;
    }
    let (negative, base, mut code) = sign_and_base(&s);
    while code < len && s.at(code) == b'0' {
        code += 1;
    }
    if code > len {
        return None;
    }
    if s.at(code) == 0 {
        return (code > 1 && s.at(code - 1) == b'0').then_some(0);
    }
    let value = digits(&s, code, base, negative)?;
    let mut result = value as i64;
    if negative {
        result = result.wrapping_neg();
    }
    // Truncation to Longint, as the assignment of the 64-bit result does.
    Some(result as i32)
}

/// Text read 1-based like the Pascal original; past the end reads as NUL.
struct PascalStr<'a>(&'a [u8]);

impl PascalStr<'_> {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn at(&self, i: usize) -> u8 {
        if (1..=self.0.len()).contains(&i) {
            self.0[i - 1]
        } else {
            0
        }
    }
}

/// Past leading spaces and tabs, an optional sign and a base prefix:
/// whether the number is negative, its base, and where its digits start.
fn sign_and_base(s: &PascalStr<'_>) -> (bool, u64, usize) {
    let len = s.len();
    let mut code = 1;
    while code <= len && matches!(s.at(code), b' ' | b'\t') {
        code += 1;
    }
    let mut negative = false;
    match s.at(code) {
        b'-' => {
            negative = true;
            code += 1;
        }
        b'+' => code += 1,
        _ => {}
    }
    let mut base: u64 = 10;
    if code <= len {
        match s.at(code) {
            b'$' | b'x' | b'X' => {
                base = 16;
                code += 1;
            }
            b'%' => {
                base = 2;
                code += 1;
            }
            b'&' => {
                base = 8;
                code += 1;
            }
            b'0' if code < len && matches!(s.at(code + 1), b'x' | b'X') => {
                base = 16;
                code += 2;
            }
            _ => {}
        }
    }
    (negative, base, code)
}

/// The digits from `code` in `base`, up to the end or a NUL, accumulated
/// in 64 bits: a decimal value bounded by `Int64` (one more when
/// `negative`), others by `QWord`. `None` for a digit outside the base or
/// an overflow.
fn digits(s: &PascalStr<'_>, mut code: usize, base: u64, negative: bool) -> Option<u64> {
    let max_prev = u64::MAX / base;
    let max_new = if base == 10 {
        i64::MAX as u64 + u64::from(negative)
    } else {
        u64::MAX
    };
    let mut value: u64 = 0;
    while code <= s.len() {
        let c = s.at(code);
        let digit = match c {
            b'0'..=b'9' => u64::from(c - b'0'),
            b'a'..=b'f' => u64::from(c - b'a' + 10),
            b'A'..=b'F' => u64::from(c - b'A' + 10),
            0 => break,
            _ => 16,
        };
        let prev = value;
        let shifted = value.wrapping_mul(base);
        if digit >= base || max_new - digit < shifted || prev > max_prev {
            return None;
        }
        value = shifted + digit;
        code += 1;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x(p: &str) -> String {
        expand_file_name(p, "/w/d", "/home/u")
    }

    /// The one-pass expansion gives what the rules give, on every path of
    /// up to four components drawn from awkward names.
    #[test]
    fn the_one_pass_expansion_is_what_the_rules_give() {
        let names = ["a", "", ".", "..", "...", ".a", "a.", "~", "a\\b", " "];
        let mut paths = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = paths
                .iter()
                .flat_map(|p| names.iter().map(move |n| format!("{p}/{n}")))
                .collect();
            paths.extend(longer);
        }
        let mut fast = 0;
        for p in &paths {
            for p in [
                p.clone(),
                format!("{p}/"),
                p.trim_start_matches('/').to_string(),
            ] {
                if let Some(simple) = expand_simple(&p) {
                    fast += 1;
                    assert_eq!(expand_by_rules(&p, "/w/d", "/home/u"), simple, "{p:?}");
                }
            }
        }
        assert!(fast > 1000, "the fast path was taken {fast} times");
    }

    #[test]
    fn reference_examples() {
        assert_eq!(x("//a"), "//a");
        assert_eq!(x("///a"), "//a");
        assert_eq!(x("/.."), "/");
        assert_eq!(x("x/."), "/w/d/x");
        assert_eq!(x("/a/..b/.."), "/a/..b/..");
        assert_eq!(x("/a/.../.."), "/a/.../..");
        assert_eq!(x("/a/b/.."), "/a");
        assert_eq!(x("/a/b/../c"), "/a/c");
        assert_eq!(x("a\\b"), "/w/d/a/b");
        assert_eq!(x("~"), "/home/u");
        assert_eq!(x("~/x"), "/home/u/x");
        assert_eq!(x("~x"), "/w/d/~x");
        assert_eq!(x("../../../../e"), "/e");
        assert_eq!(x("a/"), "/w/d/a/");
        assert_eq!(x("/a//b//"), "/a/b/");
        assert_eq!(x(""), "/w/d/");
        assert_eq!(x("."), "/w/d");
        assert_eq!(x("./"), "/w/d/");
        assert_eq!(x(".."), "/w");
        assert_eq!(x("/./a"), "/a");
        assert_eq!(x("/../a"), "/a");
    }

    #[test]
    fn a_trailing_backslash_keeps_the_separator() {
        // Checked against Free Pascal 3.2.2: the backslash became `/` first.
        assert_eq!(x("b\\"), "/w/d/b/");
        assert_eq!(x("a.//\\"), "/w/d/a./");
        assert_eq!(x("//./\\"), "//");
        assert_eq!(expand_without_trailing_separator("b\\", "/w", ""), "/w/b");
    }

    #[test]
    fn spaces_quotes_and_non_ascii_are_plain_characters() {
        assert_eq!(x(" a \"b\" é/"), "/w/d/ a \"b\" é/");
        assert_eq!(x("~ /x"), "/w/d/~ /x");
        assert_eq!(x("/a/é/../ü"), "/a/ü");
    }

    proptest::proptest! {
        #[test]
        fn expanding_an_absolute_result_again_changes_nothing(path in "[/\\\\.~a é]{0,16}", home in "(/[a-z]{0,3}){0,2}/?") {
            let once = expand_file_name(&path, "/w/d", &home);
            if once.starts_with('/') {
                proptest::prop_assert_eq!(expand_file_name(&once, "/elsewhere", "/other"), once.clone());
            }
        }

        #[test]
        fn expansion_never_panics(path in "\\PC{0,24}", cwd in "/\\PC{0,8}", home in "\\PC{0,8}") {
            let out = expand_file_name(&path, &cwd, &home);
            let _ = expand_without_trailing_separator(&out, &cwd, &home);
        }
    }

    #[test]
    fn tilde_with_odd_homes() {
        assert_eq!(expand_file_name("~/x", "/w", ""), "/x");
        assert_eq!(expand_file_name("~/x", "/w", "/"), "/x");
        assert_eq!(expand_file_name("~", "/w", "/"), "/");
        assert_eq!(expand_file_name("~/x", "/w", "/h/"), "/h/x");
    }

    #[test]
    fn trim_is_pascal_trim() {
        assert_eq!(pascal_trim("\u{1}\t a b \n\u{1f}"), "a b");
        assert_eq!(pascal_trim("\u{a0}a\u{a0}"), "\u{a0}a\u{a0}");
    }

    #[test]
    fn without_trailing_separator() {
        assert_eq!(expand_without_trailing_separator("/a/", "/w", ""), "/a");
        assert_eq!(expand_without_trailing_separator("/", "/w", ""), "/");
    }
}

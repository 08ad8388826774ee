//! `scan` and `check` where CI looks (`--format sarif|github`, README "CI"):
//! one finding per config that needs review, per config that fails to load
//! and per path that cannot be read (a config may hide there), as a SARIF
//! 2.1.0 log for code scanning or as GitHub workflow commands for
//! annotations on the config's line. Config paths and text are hostile: in
//! SARIF they are JSON strings and percent-encoded URIs; in workflow
//! commands they are escaped as GitHub's runner unescapes them, so a path
//! cannot end one command and start another.

use crate::cli::error::CliError;

use crate::cli::io::Io;
use crate::core::env::Env;
use crate::core::paths::display::{display_path, shell_quote};
use crate::core::policy::{ConfigDecision, Verdict};
use crate::core::review::discover::Unreadable;
use crate::core::review::locate::{report_line, request_line_in_file};
use crate::core::review::report::{ConfigReport, ConfigState};
use crate::sanitize::clean;

/// The SARIF rules, one per reason a config needs attention: the first
/// four are `scan`'s and `check`'s ([`Rule::SCAN`]), the last three
/// `diff`'s ([`Rule::DIFF`]). Ids are stable (README "CI", "Reviewing a
/// pull request").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    NeverTrusted,
    Changed,
    Error,
    PolicyDenied,
    /// `diff`: the change grants authority the base did not.
    Widened,
    /// `diff`: the config does not load at HEAD.
    Broken,
    /// `diff`: the change only takes authority away.
    Narrowed,
    /// `diff`: HEAD holds something new that was not read (a submodule, a
    /// link leading out of the repository, an unreadable path).
    NotRead,
}

impl Rule {
    pub const SCAN: [Rule; 4] = [
        Rule::NeverTrusted,
        Rule::Changed,
        Rule::Error,
        Rule::PolicyDenied,
    ];

    pub const DIFF: [Rule; 4] = [Rule::Widened, Rule::Broken, Rule::Narrowed, Rule::NotRead];

    pub fn id(self) -> &'static str {
        match self {
            Rule::NeverTrusted => "never-trusted",
            Rule::Changed => "changed",
            Rule::Error => "error",
            Rule::PolicyDenied => "policy-denied",
            Rule::Widened => "permissions-widened",
            Rule::Broken => "config-broken",
            Rule::Narrowed => "permissions-narrowed",
            Rule::NotRead => "not-read",
        }
    }

    /// SARIF `level` (the workflow command's is the same, `note` being
    /// `notice`): a config that fails to load or that the policy denies is
    /// an error, one awaiting review or a widening a warning, a narrowing
    /// a note.
    pub fn level(self) -> &'static str {
        match self {
            Rule::NeverTrusted | Rule::Changed | Rule::Widened | Rule::NotRead => "warning",
            Rule::Error | Rule::PolicyDenied | Rule::Broken => "error",
            Rule::Narrowed => "note",
        }
    }

    fn short(self) -> &'static str {
        match self {
            Rule::NeverTrusted => "Config requests permissions that have never been trusted",
            Rule::Changed => "Config's permission requests changed since they were trusted",
            Rule::Error => "Config or path cannot be read or loaded",
            Rule::PolicyDenied => "Config requests what the policy denies",
            Rule::Widened => "The change grants a config authority it did not have",
            Rule::Broken => "The change leaves a config that does not load",
            Rule::Narrowed => "The change only takes authority away from a config",
            Rule::NotRead => "The change adds something that was not read, where a config may hide",
        }
    }

    fn help(self) -> &'static str {
        match self {
            Rule::NeverTrusted | Rule::Changed => {
                "A GocciaScript run stops on this config until its requests are reviewed and recorded: goccia-trust trust PATH (or trust --yes --policy FILE in CI)."
            }
            Rule::Error => {
                "GocciaScript cannot load this config (or the path cannot be read, and a config may hide there): fix the file or its permissions."
            }
            Rule::PolicyDenied => {
                "trust --yes --policy refuses this config: a person must review it, or the request must go."
            }
            Rule::Widened => {
                "Review what the change adds (each + value marked widens) before merging: once trusted, GocciaScript grants it."
            }
            Rule::Broken => {
                "GocciaScript refuses to run under a config it cannot load: fix the file before merging."
            }
            Rule::Narrowed => "Nothing is gained; shown so that a reviewer sees every change.",
            Rule::NotRead => {
                "A submodule, a link leading out of the repository or an unreadable path may hold configs this review did not see: review them before merging."
            }
        }
    }

    /// GitHub code scanning's `security-severity` (a score out of 10: 9 and
    /// up critical, 7 high, 4 medium, below 4 low): a denied request is
    /// high; a request nobody reviewed, a widening or an unread path that
    /// may hide one medium; a config that does not load (GocciaScript
    /// refuses to run under it) and a narrowing low.
    pub fn security_severity(self) -> &'static str {
        match self {
            Rule::PolicyDenied => "7.5",
            Rule::Widened => "6.5",
            Rule::NeverTrusted | Rule::Changed => "5.0",
            Rule::NotRead => "4.0",
            Rule::Error | Rule::Broken => "3.0",
            Rule::Narrowed => "1.0",
        }
    }

    /// SARIF's `precision`: how often a result is a true positive. Every
    /// rule but `not-read` is decided from the files themselves; what was
    /// not read may hold no config at all.
    pub fn precision(self) -> &'static str {
        match self {
            Rule::NotRead => "medium",
            _ => "very-high",
        }
    }

    /// The rule's section in the book (docs/src/sarif-rules.md), at the
    /// binary's own version; `None` without a repository in Cargo.toml.
    pub fn help_uri(self) -> Option<String> {
        INFORMATION_URI.map(|repo| {
            format!(
                "{}/blob/v{}/docs/src/sarif-rules.md#{}",
                repo.trim_end_matches('/'),
                env!("CARGO_PKG_VERSION"),
                self.id()
            )
        })
    }

    /// The rule's name for people (SARIF `name`), distinct from its id as
    /// SARIF asks.
    pub fn name(self) -> &'static str {
        match self {
            Rule::NeverTrusted => "NeverTrusted",
            Rule::Changed => "ChangedSinceTrusted",
            Rule::Error => "ConfigError",
            Rule::PolicyDenied => "PolicyDenied",
            Rule::Widened => "PermissionsWidened",
            Rule::Broken => "ConfigBroken",
            Rule::Narrowed => "PermissionsNarrowed",
            Rule::NotRead => "NotRead",
        }
    }

    /// SARIF `fullDescription` (GitHub code scanning requires one).
    fn full(self) -> &'static str {
        match self {
            Rule::NeverTrusted => {
                "The GocciaScript config requests permissions (network, file, import, environment) and has no entry in the per-user trust store, so a GocciaScript run under it stops until a person reviews and records its requests."
            }
            Rule::Changed => {
                "The GocciaScript config's permission requests differ from the ones recorded in the trust store when it was trusted, so a GocciaScript run under it stops until the new requests are reviewed and recorded."
            }
            Rule::Error => {
                "GocciaScript cannot load the config (it does not parse, or a request is invalid), or a path under review cannot be read and a config may hide there."
            }
            Rule::PolicyDenied => {
                "The policy file given with --policy denies a request of the config, so trust --yes --policy will not record it."
            }
            Rule::Widened => {
                "Between the two revisions a GocciaScript config gained authority: a new config with requests, a request allowing more, or a removed config whose directory now falls under one that allows more."
            }
            Rule::Broken => {
                "At the compared revision the GocciaScript config does not load, and GocciaScript refuses to run under a config it cannot load."
            }
            Rule::Narrowed => {
                "Between the two revisions a GocciaScript config only lost authority; nothing is gained."
            }
            Rule::NotRead => {
                "At the compared revision something new was not read (a submodule, a link leading out of the repository, an unreadable path), so the comparison is incomplete: a config may hide there."
            }
        }
    }

    fn title(self) -> &'static str {
        match self {
            Rule::NeverTrusted => "goccia-trust: never trusted",
            Rule::Changed => "goccia-trust: changed since trusted",
            Rule::Error => "goccia-trust: error",
            Rule::PolicyDenied => "goccia-trust: denied by policy",
            Rule::Widened => "goccia-trust: permissions widened",
            Rule::Broken => "goccia-trust: config broken",
            Rule::Narrowed => "goccia-trust: permissions narrowed",
            Rule::NotRead => "goccia-trust: not read",
        }
    }
}

/// One thing CI should show: a rule, the file (as shown, relative to the
/// working directory when under it), the line of the request when it is
/// written in the file, and the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: Rule,
    pub path: String,
    pub line: Option<usize>,
    pub message: String,
    /// The config's state, when the finding is about a config.
    pub state: Option<ConfigState>,
    /// `diff`: the config's status (`added`, `changed`, `removed`).
    pub status: Option<&'static str>,
    /// What identifies the finding besides its rule and file (the requests
    /// or values it is about; no line number, revision or time), for the
    /// SARIF `partialFingerprints` that let code scanning follow an alert
    /// from one commit to the next.
    pub identity: String,
}

/// The findings of a scan or check, in the reports' order, then the paths
/// that could not be read. `decisions`, when a policy judged the configs, is
/// in the same order as `reports`.
pub fn findings(
    reports: &[ConfigReport],
    decisions: Option<&[Option<ConfigDecision>]>,
    unreadable: &[Unreadable],
    env: &Env,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, r) in reports.iter().enumerate() {
        if let Some(e) = r.error() {
            out.push(error_finding(r, &e.message));
            continue;
        }
        if !r.state.needs_review() {
            continue;
        }
        let denied = decisions
            .and_then(|d| d.get(i))
            .and_then(Option::as_ref)
            .filter(|d| d.verdict == Verdict::Denied);
        out.push(match denied {
            Some(d) => denied_finding(r, d),
            None => review_finding(r),
        });
    }
    out.extend(unreadable.iter().map(|u| unreadable_finding(u, env)));
    out
}

/// A config that fails to load. GocciaScript's message names the config by
/// its absolute path; where CI looks it is the path shown everywhere else.
fn error_finding(r: &ConfigReport, error: &str) -> Finding {
    let path = r.display_path.clone();
    let message = match error.strip_prefix(r.key.as_str()) {
        Some(rest) if rest.starts_with(':') => format!("{path}{rest}"),
        _ => error.to_string(),
    };
    Finding {
        rule: Rule::Error,
        path,
        line: None,
        message: clean(&message).into_owned(),
        state: Some(r.state),
        status: None,
        identity: String::new(),
    }
}

/// A config awaiting review that the policy denies: each denied operation's
/// reason, at the line of the first denied request.
fn denied_finding(r: &ConfigReport, d: &ConfigDecision) -> Finding {
    let ops: Vec<&crate::core::policy::OperationDecision> = d
        .operations
        .iter()
        .filter(|o| o.decision.verdict == Verdict::Denied)
        .collect();
    let names: Vec<&str> = ops.iter().map(|o| o.operation.kind.name()).collect();
    let line = request_line_in_file(&r.key, &names).or_else(|| report_line(r));
    let reasons: Vec<String> = ops.iter().map(|o| clean(&o.line()).into_owned()).collect();
    Finding {
        rule: Rule::PolicyDenied,
        path: r.display_path.clone(),
        line,
        message: format!(
            "{} ({}) is DENIED by the policy:\n{}",
            clean(&r.display_path),
            r.state.label(),
            reasons.join("\n")
        ),
        state: Some(r.state),
        status: None,
        identity: reasons.join("\n"),
    }
}

/// A config never trusted or changed since: its lines and how to record it.
fn review_finding(r: &ConfigReport) -> Finding {
    let lines: Vec<String> = r
        .lines
        .iter()
        .map(|l| clean(l.render().trim_start()).into_owned())
        .collect();
    let (rule, head) = match r.state {
        ConfigState::Changed => {
            let since = r
                .stored
                .as_ref()
                .map(|s| format!(" {}", s.trusted_at))
                .unwrap_or_default();
            (
                Rule::Changed,
                format!("{} (changed since trusted{since})", clean(&r.display_path)),
            )
        }
        _ => (
            Rule::NeverTrusted,
            format!("{} (never trusted)", clean(&r.display_path)),
        ),
    };
    Finding {
        rule,
        path: r.display_path.clone(),
        line: report_line(r),
        message: format!(
            "{head}\n{}\nReview and record it: goccia-trust trust {}",
            lines.join("\n"),
            clean(&shell_quote(&r.display_path))
        ),
        state: Some(r.state),
        status: None,
        identity: lines.join("\n"),
    }
}

/// A path that could not be read: a config may hide there.
fn unreadable_finding(u: &Unreadable, env: &Env) -> Finding {
    let path = display_path(&u.path, &env.cwd);
    Finding {
        rule: Rule::Error,
        message: format!(
            "cannot read {}: {}; a config may hide there",
            clean(&path),
            clean(&u.reason)
        ),
        path,
        line: None,
        state: None,
        status: None,
        identity: String::new(),
    }
}

/// Writes `findings` as GitHub workflow commands (`github`) or SARIF on
/// stdout and returns `code`, the command's own exit code. (A flag, not
/// `args::OutputFormat`: `args` names `diff`'s arguments, and `diff` uses
/// this module.)
pub fn write(
    github: bool,
    findings: &[Finding],
    env: &Env,
    io: &mut Io<'_>,
) -> Result<(), CliError> {
    let log = Log {
        rules: &Rule::SCAN,
        findings,
        src_root: &env.cwd,
        not_read: &[],
    };
    log.write(github, io)?;
    Ok(())
}

/// What one command reports where CI looks.
pub struct Log<'a> {
    /// The rules the command can report (all listed in SARIF).
    pub rules: &'a [Rule],
    pub findings: &'a [Finding],
    /// The directory relative paths are relative to (`%SRCROOT%`).
    pub src_root: &'a str,
    /// What could not be read and is not tied to a config's line: SARIF
    /// tool notifications, `::warning` commands without a file.
    pub not_read: &'a [String],
}

impl Log<'_> {
    /// Workflow commands (`github`), else the SARIF log, on stdout.
    pub fn write(&self, github: bool, io: &mut Io<'_>) -> std::io::Result<()> {
        if github {
            for f in self.findings {
                writeln!(io.out, "{}", github_command(f))?;
            }
            for n in self.not_read {
                writeln!(
                    io.out,
                    "::warning title={}::{}",
                    escape_property("goccia-trust: not read"),
                    escape_data(&clean(n))
                )?;
            }
        } else {
            let log = self.sarif();
            // A Value's pretty form ({:#}) is serde_json's to_string_pretty.
            writeln!(io.out, "{log:#}")?;
        }
        Ok(())
    }

    /// The SARIF log.
    pub fn sarif(&self) -> serde_json::Value {
        let mut log = sarif_log(self.rules, self.findings, self.src_root);
        if !self.not_read.is_empty() {
            let notes: Vec<serde_json::Value> = self
                .not_read
                .iter()
                .map(|n| serde_json::json!({ "level": "warning", "message": { "text": clean(n) } }))
                .collect();
            log["runs"][0]["invocations"] = serde_json::json!([{
                "executionSuccessful": true,
                "toolExecutionNotifications": notes,
            }]);
        }
        log
    }
}

/// A SARIF 2.1.0 log of one run: the rules, then one result per finding,
/// each located at the config file (a relative URI under `%SRCROOT%`, the
/// working directory for `scan`, the repository's root for `diff`) and the
/// request's line when known.
fn sarif_log(rule_set: &[Rule], findings: &[Finding], src_root: &str) -> serde_json::Value {
    use serde_json::json;
    let rules: Vec<serde_json::Value> = rule_set.iter().map(|r| sarif_rule(*r)).collect();
    let mut root = src_root.to_string();
    if !root.ends_with('/') {
        root.push('/');
    }
    let results: Vec<serde_json::Value> = findings
        .iter()
        .map(|f| {
            let location = match relative_uri(&f.path) {
                Some(uri) => json!({ "uri": uri, "uriBaseId": "%SRCROOT%" }),
                None => json!({ "uri": file_uri(&f.path) }),
            };
            // GitHub code scanning requires a region: the whole file's
            // first line when the request's line is not known.
            let physical = json!({
                "artifactLocation": location,
                "region": { "startLine": f.line.unwrap_or(1) },
            });
            // The config named by its absolute path under the root reads
            // as the relative path the location gives.
            let mut message = f.message.clone();
            if relative_uri(&f.path).is_some() {
                message = message.replace(&format!("{root}{}", f.path), &f.path);
            }
            let mut result = json!({
                "ruleId": f.rule.id(),
                "ruleIndex": rule_set.iter().position(|r| *r == f.rule).unwrap_or(0),
                "level": f.rule.level(),
                "message": { "text": message },
                "locations": [ { "physicalLocation": physical } ],
                "partialFingerprints": { FINGERPRINT_KEY: fingerprint(f, &root) },
            });
            if let Some(state) = f.state {
                result["properties"] = json!({ "state": state.json_name() });
            }
            if let Some(status) = f.status {
                result["properties"] = json!({ "status": status });
            }
            result
        })
        .collect();
    let mut driver = json!({
        "name": "goccia-trust",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    });
    if let Some(uri) = INFORMATION_URI {
        driver["informationUri"] = json!(uri);
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": driver },
            "originalUriBaseIds": { "%SRCROOT%": { "uri": file_uri(&root) } },
            "results": results,
        }]
    })
}

/// A rule as SARIF describes it: its texts, level, what code scanning ranks
/// it by (`tags`, `security-severity`, `precision`) and its book section.
fn sarif_rule(r: Rule) -> serde_json::Value {
    let mut rule = serde_json::json!({
        "id": r.id(),
        "name": r.name(),
        "shortDescription": { "text": r.short() },
        "fullDescription": { "text": r.full() },
        "help": { "text": r.help() },
        "defaultConfiguration": { "level": r.level() },
        "properties": {
            "tags": ["security"],
            "security-severity": r.security_severity(),
            "precision": r.precision(),
        },
    });
    if let Some(uri) = r.help_uri() {
        rule["helpUri"] = serde_json::json!(uri);
    }
    rule
}

/// The repository named in Cargo.toml (`repository`), if any: the tool's
/// `informationUri` and the base of each rule's `helpUri`.
const INFORMATION_URI: Option<&str> = match option_env!("CARGO_PKG_REPOSITORY") {
    Some(uri) if !uri.is_empty() => Some(uri),
    _ => None,
};

/// The `partialFingerprints` key; the version changes if what is hashed does.
pub const FINGERPRINT_KEY: &str = "gocciaTrustFinding/v1";

/// A stable hash of what the finding is: its rule, its file as a path
/// relative to the SARIF root, and its identifying content with every path
/// under the root made relative (so neither the runner's checkout
/// directory nor a line number moves it).
fn fingerprint(f: &Finding, root: &str) -> String {
    use sha2::{Digest, Sha256};
    let path = f.path.strip_prefix(root).unwrap_or(&f.path);
    let identity = f.identity.replace(root, "");
    let mut h = Sha256::new();
    for part in [f.rule.id(), path, identity.as_str()] {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part.as_bytes());
    }
    h.finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()
}

/// A path relative to the working directory as a relative URI reference,
/// each byte outside the unreserved set and `/` percent-encoded (so `:` in
/// a first segment cannot read as a scheme, nor `?`/`#` end the path; on
/// Windows `\` separates segments, as `/`); `None` for an absolute path.
pub fn relative_uri(path: &str) -> Option<String> {
    if std::path::Path::new(path).is_absolute() || path.starts_with('/') {
        None
    } else if cfg!(windows) {
        Some(percent_encode(&path.replace('\\', "/")))
    } else {
        Some(percent_encode(path))
    }
}

/// An absolute path as a `file:` URI, as the platform reads the path
/// (`/t/é` is `file:///t/%C3%A9`; on Windows `C:\a b` is
/// `file:///C:/a%20b` and `\\host\share\x` `file://host/share/x`); a
/// directory's keeps its trailing `/`. Each byte outside the unreserved
/// set and `/` is percent-encoded.
pub fn file_uri(path: &str) -> String {
    file_uri_on(path, cfg!(windows))
}

fn file_uri_on(path: &str, windows: bool) -> String {
    if !windows {
        return format!("file://{}", encode_absolute_path(path));
    }
    let path = path.replace('\\', "/");
    if let Some(unc) = path.strip_prefix("//") {
        // `\\host\share\x`: the host is the URI's authority.
        return format!("file://{}", encode_absolute_path(unc));
    }
    let bytes = path.as_bytes();
    if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        // A drive letter stays as it is (`C:`), as RFC 8089 writes it.
        return format!("file:///{}", encode_absolute_path(&path));
    }
    format!("file://{}", encode_absolute_path(&path))
}

/// An absolute path's bytes as an RFC 3986 path: unreserved characters,
/// `/` and the other characters a path segment may hold as they are (`:`
/// and `@`, the sub-delimiters), every other byte percent-encoded (`#`,
/// `?`, `%`, a space, non-ASCII). A relative reference cannot keep `:`
/// (its first segment would read as a scheme); an absolute path can.
fn encode_absolute_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/:@!$&'()*+,;=".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn percent_encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `::warning file=<path>,line=<n>,title=<title>::<message>`, escaped as
/// GitHub's runner requires: in the message `%`, CR and LF; in property
/// values also `:` and `,`. A SARIF `note` is a `::notice`.
pub fn github_command(f: &Finding) -> String {
    let mut props = format!("file={}", escape_property(&f.path));
    if let Some(line) = f.line {
        props.push_str(&format!(",line={line}"));
    }
    props.push_str(&format!(",title={}", escape_property(f.rule.title())));
    let level = match f.rule.level() {
        "note" => "notice",
        l => l,
    };
    format!("::{level} {props}::{}", escape_data(&f.message))
}

/// A workflow command's message: line breaks (the message's own, between
/// its lines: config text in it is already escaped onto one line) as the
/// runner's `%0A`, and every other control, format, bidi or invisible
/// character shown as an escape, as every other output shows it.
pub fn escape_data(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c if crate::sanitize::is_unsafe(c) => {
                out.push_str(&crate::sanitize::clean(c.encode_utf8(&mut [0; 4])))
            }
            c => out.push(c),
        }
    }
    out
}

/// A workflow command's property value (a path, a title): on one line,
/// every unsafe character escaped, then `%`, `:` and `,` encoded.
pub fn escape_property(s: &str) -> String {
    crate::sanitize::clean(s)
        .replace('%', "%25")
        .replace(':', "%3A")
        .replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_the_runner() {
        assert_eq!(escape_data("50%\r\nx::y"), "50%25%0D%0Ax::y");
        assert_eq!(escape_property("a,b:c%"), "a%2Cb%3Ac%25");
        // A line break in a path never reaches the runner as one.
        assert!(!escape_property("a\nb").contains("%0A"));
        // Bidi and zero-width characters are shown, never written raw.
        for hostile in ["\u{202e}", "\u{200b}", "\u{2066}"] {
            assert!(!escape_data(hostile).contains(hostile));
            assert!(!escape_property(hostile).contains(hostile));
        }
    }

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(
            relative_uri("a b/c:d#e?f%/goccia.json").as_deref(),
            Some("a%20b/c%3Ad%23e%3Ff%25/goccia.json")
        );
        assert_eq!(relative_uri("/abs"), None);
    }

    #[cfg(unix)]
    #[test]
    fn file_uris_are_built_as_urls() {
        assert_eq!(file_uri("/t/é"), "file:///t/%C3%A9");
        assert_eq!(file_uri("/a b/c#d?e%/"), "file:///a%20b/c%23d%3Fe%25/");
        assert_eq!(file_uri("/a b/g.json"), "file:///a%20b/g.json");
    }

    #[test]
    fn windows_paths_are_file_uris_with_their_drive() {
        assert_eq!(
            file_uri_on(r"C:\a b\goccia.json", true),
            "file:///C:/a%20b/goccia.json"
        );
        assert_eq!(file_uri_on(r"C:\work\", true), "file:///C:/work/");
        assert_eq!(
            file_uri_on(r"\\host\share\g.json", true),
            "file://host/share/g.json"
        );
        assert_eq!(file_uri_on("/t/é", false), "file:///t/%C3%A9");
    }

    #[cfg(windows)]
    #[test]
    fn windows_relative_paths_are_relative_uris() {
        assert_eq!(
            relative_uri(r"web\goccia.json").as_deref(),
            Some("web/goccia.json")
        );
        assert_eq!(relative_uri(r"C:\x"), None);
    }
}

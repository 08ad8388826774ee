//! The command line: subcommands (parsed by clap) and GocciaScript's own
//! spellings (`--trust PATH`, `--untrust PATH`, `--list-trusted`, `--yes`,
//! `--trust-store=PATH`), parsed by hand because their rules are
//! GocciaScript's, not clap's (docs/src/compatibility.md#option-errors, #blank-paths-and-empty-variables).

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

pub use crate::cli::globals::{ColorChoice, GlobalArgs};
use crate::core::paths::pascal_trim;

/// Review, trust and audit GocciaScript config permission requests.
///
/// Without a subcommand, opens the interactive review of PATH (default `.`)
/// when stdin and stdout are terminals, and otherwise prints `scan PATH`;
/// `--policy FILE [--policy-sha256 HEX]` adds each config's verdict under
/// that policy, as `trust --yes --policy` would judge it; `--since BASE`
/// compares each config with its version at git revision BASE instead of
/// the store (as `diff BASE` does; trusting still records against the
/// store).
/// GocciaScript's spellings also work: `--trust PATH`, `--untrust PATH`,
/// `--list-trusted`, `--yes`.
#[derive(Debug, Parser)]
#[command(
    name = "goccia-trust",
    // With the commit and its date for a build from git (build.rs).
    version = env!("GOCCIA_TRUST_VERSION"),
    max_term_width = 100,
    override_usage = "goccia-trust [OPTIONS] [PATH]\n       goccia-trust [OPTIONS] <COMMAND>"
)]
pub struct Cli {
    #[command(flatten)]
    pub globals: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// What `scan` and `check` print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum OutputFormat {
    /// Tables and reports for people.
    #[default]
    Text,
    /// One JSON document (see the guide: JSON contract).
    Json,
    /// SARIF 2.1.0: one result per config needing review.
    Sarif,
    /// GitHub Actions workflow commands: one annotation per config.
    Github,
}

impl OutputFormat {
    /// The format asked for, `--json` being `--format json`.
    fn chosen(self, json: bool) -> OutputFormat {
        if json { OutputFormat::Json } else { self }
    }

    /// SARIF or GitHub annotations (`cli::ci_out`).
    pub fn is_ci(self) -> bool {
        matches!(self, OutputFormat::Sarif | OutputFormat::Github)
    }
}

impl Command {
    /// `--json` is `--format json`: settled once, as the command line is
    /// parsed, so that everything after reads `format` alone.
    fn settle_format(&mut self) {
        match self {
            Command::Scan(a) => a.format = a.format.chosen(a.json),
            Command::Check(a) => a.format = a.format.chosen(a.json),
            _ => {}
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    Scan(ScanArgs),
    Trust(TrustArgs),
    Untrust(UntrustArgs),
    Ignore(IgnoreArgs),
    Unignore(UnignoreArgs),
    List(ListArgs),
    Check(CheckArgs),
    Inspect(InspectArgs),
    /// The permission diff between two git revisions (HEAD: the working tree).
    Diff(crate::cli::diff::DiffArgs),
    #[command(name = "policy")]
    Policy(crate::cli::policy::PolicyArgs),
    Completions(CompletionsArgs),
    Man(ManArgs),
    /// Open the interactive review (the default without a subcommand).
    #[command(hide = true)]
    Tui(TuiArgs),
    Status(crate::cli::status::StatusArgs),
    Hook(crate::cli::hook::HookArgs),
    Review(crate::cli::review::ReviewArgs),
}

/// Every effective config at or under each PATH and its state.
#[derive(Debug, Clone, Default, Args)]
pub struct ScanArgs {
    /// Directories or config files (default `.`).
    #[arg(value_hint = clap::ValueHint::AnyPath)]
    pub paths: Vec<String>,
    /// Same as `--format json`: one JSON document (schema 1,
    /// `schemas/scan.schema.json`).
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Output: text, json (see the guide: JSON contract), sarif (SARIF
    /// 2.1.0 for code scanning) or github (workflow annotations); see the
    /// guide: CI formats.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// Also show each config's policy verdict (writes nothing).
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub policy: Option<String>,
    /// Accept the --policy file only with this SHA-256 of its bytes, even
    /// inside the reviewed tree.
    #[arg(long = "policy-sha256", value_name = "HEX", requires = "policy")]
    pub policy_sha256: Option<String>,
    /// Write the output to FILE instead of stdout: a new file (or one
    /// replacing a regular file), never written through a symbolic link;
    /// FILE is refused when it is a link or not a regular file.
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub output: Option<String>,
    /// With --json: the allowed_signers file each config's signed reviews
    /// are judged by (default `allowed_signers` in the store's directory,
    /// when it exists).
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub reviewed_by: Option<String>,
}

/// Show the requests of each config at or under PATH and record them.
#[derive(Debug, Clone, Default, Args)]
pub struct TrustArgs {
    /// Config files, or directories scanned for their effective configs.
    /// None is `--trust needs a path` (exit 2), checked with the blank ones.
    #[arg(value_hint = clap::ValueHint::AnyPath)]
    pub paths: Vec<String>,
    /// Trust without a prompt (needed without a terminal).
    #[arg(long)]
    pub yes: bool,
    /// Show what would be recorded and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print one JSON document of what was recorded, refused and left out
    /// (schema 1, `schemas/trust.schema.json`; with --reviewed-by,
    /// `schemas/trust-reviewed.schema.json`); never prompts.
    #[arg(long)]
    pub json: bool,
    /// With --yes (or --dry-run): record only configs this policy allows.
    /// It must lie outside the reviewed tree and be writable by you alone,
    /// unless pinned with --policy-sha256.
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub policy: Option<String>,
    /// Accept the --policy file only with this SHA-256 of its bytes, even
    /// inside the reviewed tree.
    #[arg(long = "policy-sha256", value_name = "HEX", requires = "policy")]
    pub policy_sha256: Option<String>,
    /// With --yes (or --dry-run): also require the block's SHA-256 to be one
    /// of these; judged by --policy, else the shipped default policy.
    #[arg(long, value_name = "SHA256")]
    pub expect: Vec<String>,
    /// With --yes (or --dry-run): record only configs with --min-reviews
    /// signed reviews of their current version by keys this allowed_signers
    /// file lists; outside the reviewed tree and writable by you alone,
    /// unless pinned with --reviewed-by-sha256.
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub reviewed_by: Option<String>,
    /// Reviews needed from distinct keys and people (default 1).
    #[arg(long, value_name = "N", requires = "reviewed_by")]
    pub min_reviews: Option<usize>,
    /// Public keys no longer accepted, one a line.
    #[arg(long, value_name = "FILE", requires = "reviewed_by")]
    pub revoked: Option<String>,
    /// Accept the --reviewed-by file only with this SHA-256 of its bytes,
    /// even inside the reviewed tree.
    #[arg(
        long = "reviewed-by-sha256",
        value_name = "HEX",
        requires = "reviewed_by"
    )]
    pub reviewed_by_sha256: Option<String>,
    /// Where decision records go (default $GOCCIA_TRUST_STATE_DIR, else the
    /// per-user state directory).
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub state_dir: Option<String>,
    /// With --policy: list every request, not one line per group of a
    /// config's requests sharing a verdict and reason.
    #[arg(long)]
    pub verbose: bool,
    /// Under each changed config, who changed it: the commits since it was
    /// trusted, and the commit of each added value (read from git).
    #[arg(long)]
    pub why: bool,
    /// Given in GocciaScript's spelling (`--trust PATH`), whose messages
    /// name `--trust`; the subcommand's name `trust`.
    #[arg(skip)]
    pub goccia_spelling: bool,
}

/// Remove the entries of configs at or under each PATH.
#[derive(Debug, Clone, Default, Args)]
#[command(
    override_usage = "goccia-trust untrust [OPTIONS] <PATH>...\n       goccia-trust untrust --missing [OPTIONS]"
)]
pub struct UntrustArgs {
    /// Config files or directories whose entries to remove. None, without
    /// `--missing`, is `--untrust needs a path` (exit 2).
    #[arg(value_hint = clap::ValueHint::AnyPath)]
    pub paths: Vec<String>,
    /// Remove every entry whose config file no longer exists (takes no PATH).
    #[arg(long, conflicts_with = "paths")]
    pub missing: bool,
    /// Print one JSON document of what was removed (schema 1,
    /// `schemas/untrust.schema.json`).
    #[arg(long)]
    pub json: bool,
}

/// Stop being asked about the configs at or under each PATH, until they
/// change.
///
/// Recorded in the per-user state directory (by trust key and the sha256
/// the config has now), never in GocciaScript's trust store: GocciaScript
/// still refuses to run an ignored config. An ignored config shows as
/// `ignored`, is not counted as needing review, and `trust DIR` leaves it
/// out unless the config file itself is named (`trust DIR/goccia.json`).
/// Once the config changes, it asks again.
#[derive(Debug, Clone, Default, Args)]
pub struct IgnoreArgs {
    /// Config files, or directories whose effective configs to ignore. A
    /// path with no config at or under it is an error (exit 1).
    #[arg(value_hint = clap::ValueHint::AnyPath)]
    pub paths: Vec<String>,
}

/// Ask again about the ignored configs at or under each PATH.
#[derive(Debug, Clone, Default, Args)]
pub struct UnignoreArgs {
    /// Config files or directories (they need not exist any more).
    #[arg(value_hint = clap::ValueHint::AnyPath)]
    pub paths: Vec<String>,
}

/// Every store entry, marked (changed) or (missing).
#[derive(Debug, Clone, Default, Args)]
pub struct ListArgs {
    /// Print one JSON document (schema 1, `schemas/list.schema.json`).
    #[arg(long)]
    pub json: bool,
    /// Exit 1 when any entry is changed, missing or unreadable (for CI).
    #[arg(long = "exit-code")]
    pub exit_code: bool,
    /// List the ignored configs instead (`ignore`): key, sha256 and when.
    #[arg(long, conflicts_with = "exit_code")]
    pub ignored: bool,
}

/// Which configs govern these inputs; exit 2 if any would block a run.
#[derive(Debug, Clone, Default, Args)]
pub struct CheckArgs {
    /// Files or directories a GocciaScript run would be given.
    #[arg(required = true, value_hint = clap::ValueHint::AnyPath)]
    pub inputs: Vec<String>,
    /// Same as `--format json`: one JSON document (schema 1,
    /// `schemas/check.schema.json`).
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Output: text, json, sarif (SARIF 2.1.0) or github (workflow
    /// annotations); see the guide: CI formats.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// The GocciaScript runner named in the report's `-P` and
    /// `--ignore-config-permissions` suggestions (this binary runs no code).
    #[arg(long, value_name = "NAME", default_value = DEFAULT_RUNNER, value_parser = runner_name)]
    pub runner: String,
    /// Write the output to FILE instead of stdout: a new file (or one
    /// replacing a regular file), never written through a symbolic link;
    /// FILE is refused when it is a link or not a regular file.
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub output: Option<String>,
}

/// A runner is one program name: blank is a usage error, not `''`.
fn runner_name(value: &str) -> Result<String, String> {
    if value.trim().is_empty() {
        Err("--runner needs a program name".into())
    } else {
        Ok(value.to_string())
    }
}

/// The runner GocciaScript's documentation uses in its examples.
pub const DEFAULT_RUNNER: &str = "GocciaRunner";

/// A config's key, extends chain, normalized block, sha256, targets and stored entry.
#[derive(Debug, Clone, Default, Args)]
pub struct InspectArgs {
    /// A config file, or a directory (its effective config).
    #[arg(value_hint = clap::ValueHint::AnyPath)]
    pub config: String,
    /// Print one JSON document (schema 1, `schemas/inspect.schema.json`).
    #[arg(long)]
    pub json: bool,
    /// The allowed_signers file the reviews are judged by (default
    /// `allowed_signers` in the store's directory, when it exists).
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub reviewed_by: Option<String>,
}

/// The interactive review (and, without a terminal, `scan`) of PATH.
#[derive(Debug, Clone, Default, Args)]
pub struct TuiArgs {
    /// The directory (or config file) to review (default `.`).
    #[arg(value_hint = clap::ValueHint::AnyPath)]
    pub path: Option<String>,
    /// Show each config's verdict under this policy, as `trust --yes
    /// --policy` would judge it (same anchoring and refusals).
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub policy: Option<String>,
    /// Accept the --policy file only with this SHA-256 of its bytes, even
    /// inside the reviewed tree.
    #[arg(long = "policy-sha256", value_name = "HEX", requires = "policy")]
    pub policy_sha256: Option<String>,
    /// Compare each config with its version at git revision BASE instead
    /// of the trust store (trusting still records against the store).
    #[arg(long, value_name = "BASE")]
    pub since: Option<String>,
    /// The allowed_signers file signed reviews are judged by (default
    /// `allowed_signers` in the store's directory, when it exists; without
    /// one, no review is checked).
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub reviewed_by: Option<String>,
}

/// What the command line asks for, whichever spelling was used.
#[derive(Debug)]
pub enum Invocation {
    Clap(Cli),
    /// GocciaScript's spellings.
    Trust(GlobalArgs, TrustArgs),
    Untrust(GlobalArgs, UntrustArgs),
    ListTrusted(GlobalArgs),
    /// No subcommand: the TUI on a terminal, else `scan`.
    Default(GlobalArgs, TuiArgs),
}

/// A usage error (exit 2), printed as `Error: <message>`.
#[derive(Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

const SUBCOMMANDS: &[&str] = &[
    "scan",
    "trust",
    "untrust",
    "ignore",
    "unignore",
    "list",
    "check",
    "inspect",
    "diff",
    "policy",
    "completions",
    "man",
    "tui",
    "help",
    "status",
    "hook",
    "review",
];

/// Splits the two spellings: a first word that is a subcommand (or a help or
/// version request) goes to clap, everything else is GocciaScript's grammar.
pub fn parse(args: Vec<String>) -> Result<Invocation, ParseOutcome> {
    let first_word = first_non_global(args.iter().take_while(|a| *a != "--"));
    let clap_mode = match first_word {
        Some(w) => {
            SUBCOMMANDS.contains(&w.as_str())
                || matches!(w.as_str(), "-h" | "--help" | "-V" | "--version")
        }
        None => false,
    };
    let before: Vec<&String> = args.iter().take_while(|a| *a != "--").collect();
    let asks_help = before.iter().enumerate().any(|(i, a)| {
        (*a == "--help" || *a == "-h")
            && !(i > 0 && matches!(before[i - 1].as_str(), "--trust" | "--untrust"))
    });
    if !clap_mode && asks_help {
        // `--help` after any option of the default review (`--policy x
        // --help`): the help, as clap gives it.
        return Err(ParseOutcome::Clap(command().error(
            clap::error::ErrorKind::DisplayHelp,
            command().render_help(),
        )));
    }
    if clap_mode {
        // A subcommand takes `--trust-store PATH` as well as
        // `--trust-store=PATH`; GocciaScript's spellings (below) keep
        // GocciaScript's rule, the value only after `=`. Without a value,
        // docs/src/compatibility.md#option-errors's message in both.
        if args
            .iter()
            .take_while(|a| *a != "--")
            .position(|a| a == "--trust-store")
            .is_some_and(|i| args.get(i + 1).is_none_or(|v| v.starts_with('-')))
        {
            return Err(ParseOutcome::Usage(trust_store_needs_path()));
        }
        let argv = std::iter::once("goccia-trust".to_string()).chain(args);
        return match command()
            .try_get_matches_from(argv)
            .and_then(|m| Cli::from_arg_matches(&m))
        {
            Ok(mut cli) => {
                check_globals(&cli.globals).map_err(ParseOutcome::Usage)?;
                cli.command.settle_format();
                Ok(Invocation::Clap(cli))
            }
            Err(e) => Err(ParseOutcome::Clap(closest_first(e))),
        };
    }
    match parse_goccia(&args) {
        Err(e) if e == trust_store_needs_path() => Err(trust_store_outcome(&args)),
        other => other.map_err(ParseOutcome::Usage),
    }
}

#[derive(Debug)]
pub enum ParseOutcome {
    Usage(UsageError),
    /// A usage error and a second line for a person: printed only when
    /// stderr is a terminal (scripts keep GocciaScript's one line).
    UsageHint(UsageError, String),
    Clap(clap::Error),
}

/// docs/src/compatibility.md#option-errors's message; when `--trust-store` was followed by a value (`--trust-store
/// /x`), that message misleads, so a hint says where the value goes.
fn trust_store_outcome(args: &[String]) -> ParseOutcome {
    let value = args
        .iter()
        .position(|a| a == "--trust-store")
        .and_then(|i| args.get(i + 1))
        .filter(|v| !v.is_empty() && !v.starts_with('-'));
    match value {
        Some(v) => ParseOutcome::UsageHint(
            trust_store_needs_path(),
            format!("hint: --trust-store takes its value after '=': --trust-store={v}"),
        ),
        None => ParseOutcome::Usage(trust_store_needs_path()),
    }
}

/// The clap command as parsed and as `--help` shows it: the global options
/// are hidden everywhere (clap copies them into every subcommand) and
/// listed once, in `goccia-trust --help`'s "Global options" section; they
/// still work before or after any subcommand.
pub fn command() -> clap::Command {
    let cmd = Cli::command();
    let mut section = String::from("Global options (before or after any command):\n");
    for a in cmd.get_arguments().filter(|a| a.is_global_set()) {
        let value = a
            .get_value_names()
            .and_then(|v| v.first())
            .filter(|_| a.get_action().takes_values())
            .map(|v| format!("=<{v}>"))
            .unwrap_or_default();
        let short = a.get_short().map(|s| format!("-{s}, ")).unwrap_or_default();
        let long = a.get_long().unwrap_or_default();
        let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
        // A plain flag's parser still knows `true`/`false`; it takes no
        // value, so it has none to show.
        let values: Vec<String> = a
            .get_possible_values()
            .iter()
            .filter(|_| a.get_action().takes_values())
            .map(|v| v.get_name().to_string())
            .collect();
        let values = if values.is_empty() {
            String::new()
        } else {
            format!(" [possible values: {}]", values.join(", "))
        };
        section.push_str(&format!(
            "  {short}--{long}{value}\n          {help}{values}\n"
        ));
    }
    // The default review's own options (parsed by hand in `parse_goccia`),
    // shown in the Options list; only `--help` and `--version` reach clap
    // with them.
    let cmd = cmd
        .arg(
            clap::Arg::new("review_policy")
                .long("policy")
                .value_name("FILE")
                .value_hint(clap::ValueHint::FilePath)
                .help("Without a subcommand: also show each config's verdict under this policy (writes nothing)"),
        )
        .arg(
            clap::Arg::new("review_policy_sha256")
                .long("policy-sha256")
                .value_name("HEX")
                .help("Without a subcommand: accept the --policy file only with this SHA-256 of its bytes"),
        )
        .arg(
            clap::Arg::new("review_since")
                .long("since")
                .value_name("BASE")
                .help("Without a subcommand: compare each config with its version at git revision BASE instead of the store"),
        )
        .arg(
            clap::Arg::new("review_reviewed_by")
                .long("reviewed-by")
                .value_name("FILE")
                .value_hint(clap::ValueHint::FilePath)
                .help("Without a subcommand: judge signed reviews by this allowed_signers file (default: allowed_signers in the store's directory)"),
        );
    cmd.after_help(section.trim_end().to_string())
}

/// The clap command with the global options shown on every subcommand,
/// for the completion scripts (so `scan --tr<TAB>` completes) and the man
/// page.
pub fn command_unhidden() -> clap::Command {
    let mut cmd = Cli::command();
    for id in [
        "trust_store",
        "color",
        "theme",
        "ascii",
        "no_watch",
        "quiet",
    ] {
        cmd = cmd.mut_arg(id, |a| a.hide(false));
    }
    cmd
}

/// The subcommands a mistyped first word is compared with.
const SUGGESTED: &[&str] = &[
    "scan",
    "trust",
    "untrust",
    "ignore",
    "unignore",
    "list",
    "check",
    "inspect",
    "diff",
    "policy",
    "completions",
    "man",
    "status",
    "hook",
    "review",
];

/// The first word of a command line that is neither a global option nor a
/// subcommand nor an option: where a mistyped subcommand stands
/// (`scna p`, `lsit --json`).
pub fn first_word(args: &[String]) -> Option<&str> {
    first_non_global(args.iter().take_while(|a| *a != "--"))
        .map(String::as_str)
        .filter(|w| !w.starts_with('-') && !SUBCOMMANDS.contains(w))
}

/// The subcommand `word` is probably a typo of: the closest within two
/// edits (a swap of neighbours counts as one), and closer than the word's
/// own length, so `x` suggests nothing.
pub fn suggest_subcommand(word: &str) -> Option<&'static str> {
    if word.contains('/') || word.contains('.') || word.is_empty() {
        return None;
    }
    let lower = word.to_lowercase();
    SUGGESTED
        .iter()
        .map(|s| (edit_distance(&lower, s), *s))
        .filter(|(d, s)| *d <= 2 && *d < word.chars().count().min(s.len()))
        .min_by_key(|(d, _)| *d)
        .map(|(_, s)| s)
}

/// clap lists a mistyped subcommand's similar subcommands least similar
/// first (`hook instal`: 'uninstall', 'install'); they are put closest
/// first: fewest edits, then the longest shared beginning, then clap's order.
fn closest_first(mut e: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue};
    let Some(ContextValue::String(typed)) = e.get(ContextKind::InvalidSubcommand) else {
        return e;
    };
    let typed = typed.clone();
    let Some(ContextValue::Strings(similar)) = e.get(ContextKind::SuggestedSubcommand) else {
        return e;
    };
    let mut similar = similar.clone();
    similar.sort_by_key(|s| {
        let shared = typed
            .chars()
            .zip(s.chars())
            .take_while(|(a, b)| a == b)
            .count();
        (edit_distance(&typed, s), std::cmp::Reverse(shared))
    });
    e.insert(
        ContextKind::SuggestedSubcommand,
        ContextValue::Strings(similar),
    );
    e
}

/// The options without a subcommand (GocciaScript's spellings, the global
/// and the review's): what a mistyped one is compared with.
const GOCCIA_OPTIONS: &[&str] = &[
    "--trust",
    "--untrust",
    "--list-trusted",
    "--yes",
    "--trust-store",
    "--color",
    "--theme",
    "--ascii",
    "--no-watch",
    "--quiet",
    "--policy",
    "--policy-sha256",
    "--since",
    "--reviewed-by",
    "--accept-config-permissions",
    "--ignore-config-permissions",
    "--help",
    "--version",
];

/// The option `word` (`--colour=never`) is probably a typo of, with its
/// `=value` kept (`--color=never`): the closest long option within two
/// edits.
fn suggest_option(word: &str) -> Option<String> {
    let (name, value) = match word.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (word, None),
    };
    if !name.starts_with("--") || name.len() < 4 {
        return None;
    }
    let close = GOCCIA_OPTIONS
        .iter()
        .map(|o| (edit_distance(name, o), *o))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)?
        .1;
    Some(match value {
        Some(v) => format!("{close}={v}"),
        None => close.to_string(),
    })
}

/// Optimal string alignment distance: insertions, deletions,
/// substitutions and transpositions of neighbours.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// `--color` and `--theme` as given before any `--` (`--color=always` or
/// `--color always`), for the painters set up before parsing; an invalid
/// `--color` value is left to the parser to report.
pub fn colour_options(args: &[String]) -> (ColorChoice, Option<&str>) {
    let mut choice = ColorChoice::Auto;
    let mut theme = None;
    let mut words = args.iter().take_while(|a| *a != "--");
    while let Some(a) = words.next() {
        if a == "--color" || a == "--theme" {
            let Some(v) = words.next() else { break };
            if a == "--theme" {
                theme = Some(v.as_str());
            } else if let Ok(c) = ColorChoice::from_str(v, false) {
                choice = c;
            }
        } else if let Some(v) = a.strip_prefix("--color=")
            && let Ok(c) = ColorChoice::from_str(v, false)
        {
            choice = c;
        } else if let Some(v) = a.strip_prefix("--theme=") {
            theme = Some(v);
        }
    }
    (choice, theme)
}

/// Whether the human output is drawn in ASCII (`crate::style::glyphs`): `--ascii`
/// before any `--`, or a locale without UTF-8; never for a document read
/// by machines or another program (`--json`, SARIF, `man`, `completions`),
/// whose bytes do not depend on the locale.
pub fn ascii_output(args: &[String], ascii_locale: bool) -> bool {
    let before: Vec<&String> = args.iter().take_while(|a| *a != "--").collect();
    let asked = before.iter().any(|a| *a == "--ascii");
    let document = machine_output(args)
        || first_non_global(before.iter().copied())
            .is_some_and(|w| w == "man" || w == "completions");
    (asked || ascii_locale) && !document
}

/// Whether the command line asks for a format read by machines (`--json`,
/// `--format json|sarif|github|markdown`) before any `--`: its stdout is
/// never painted, even with `--color=always` (a colour code inside a JSON
/// string or a workflow command would be data).
pub fn machine_output(args: &[String]) -> bool {
    const MACHINE: [&str; 4] = ["json", "sarif", "github", "markdown"];
    let before: Vec<&String> = args.iter().take_while(|a| *a != "--").collect();
    before.iter().enumerate().any(|(i, a)| {
        *a == "--json"
            || a.strip_prefix("--format=")
                .is_some_and(|v| MACHINE.contains(&v))
            || (*a == "--format"
                && before
                    .get(i + 1)
                    .is_some_and(|v| MACHINE.contains(&v.as_str())))
    })
}

/// Whether the command line asks for a document of the JSON contract
/// (`--json`, `--format json`, before any `--`), whatever else is wrong
/// with it: a usage error is then also the failure document on stdout, so
/// a script reading stdout always gets one JSON document. The `policy`
/// verbs' `--json` is their own (`{"error": ...}`), not the contract's.
pub fn asks_contract_json(args: &[String]) -> bool {
    let before: Vec<&String> = args.iter().take_while(|a| *a != "--").collect();
    if first_non_global(before.iter().copied()).is_some_and(|w| *w == "policy") {
        return false;
    }
    before.iter().enumerate().any(|(i, a)| {
        *a == "--json"
            || *a == "--format=json"
            || (*a == "--format" && before.get(i + 1).is_some_and(|v| *v == "json"))
    })
}

/// The first word that is neither a global option nor the value of a
/// global option given as the next word (`--color always`, `--theme mono`).
fn first_non_global<'a>(mut words: impl Iterator<Item = &'a String>) -> Option<&'a String> {
    while let Some(w) = words.next() {
        if w == "--color" || w == "--theme" || w == "--trust-store" {
            words.next();
        } else if !is_global_flag(w) {
            return Some(w);
        }
    }
    None
}

fn is_global_flag(a: &str) -> bool {
    a == "--quiet"
        || a == "-q"
        || a == "--trust-store"
        || a.starts_with("--trust-store=")
        || a.starts_with("--color=")
        || a.starts_with("--theme=")
        || a == "--no-watch"
        || a == "--ascii"
}

fn check_globals(g: &GlobalArgs) -> Result<(), UsageError> {
    if g.trust_store.as_deref() == Some("") {
        return Err(trust_store_needs_path());
    }
    Ok(())
}

fn trust_store_needs_path() -> UsageError {
    UsageError("--trust-store needs a path: --trust-store=<path>".into())
}

/// GocciaScript's own spellings (`--trust PATH`, `--list-trusted`, a
/// PATH alone for the review, ...): read word by word, then checked for
/// what goes together, then made the invocation they ask for.
fn parse_goccia(args: &[String]) -> Result<Invocation, UsageError> {
    let words = GocciaWords::read(args)?;
    words.check_combinations()?;
    words.check_mode_paths()?;
    Ok(words.into_invocation())
}

/// What GocciaScript's spellings said, before the rules of which go
/// together are checked.
#[derive(Default)]
struct GocciaWords {
    globals: GlobalArgs,
    trust: Vec<String>,
    untrust: Vec<String>,
    saw_trust: bool,
    saw_untrust: bool,
    list: bool,
    yes: bool,
    /// `-P` / `--accept-config-permissions`: a GocciaScript run's flag.
    accept: bool,
    /// `--ignore-config-permissions`: a GocciaScript run's flag.
    ignore: bool,
    inputs: Vec<String>,
    review: TuiArgs,
}

type Words<'a> = std::slice::Iter<'a, String>;

impl GocciaWords {
    /// Every word, each taken by the first reader that knows it: the global
    /// options, the trust modes, the review's options, a GocciaScript run's
    /// flags; then `--`, an unknown option, or an input.
    fn read(args: &[String]) -> Result<GocciaWords, UsageError> {
        let mut w = GocciaWords::default();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let a = arg.as_str();
            if global_word(&mut w.globals, a, &mut it)?
                || w.mode_word(a, &mut it)
                || review_word(&mut w.review, a, &mut it)?
                || w.run_flag_word(a)?
            {
                continue;
            }
            if a == "--" {
                // The end of the options: every word after it is a PATH, even
                // one that starts with `-` (`goccia-trust -- -weird`).
                w.inputs.extend(it.by_ref().cloned());
            } else if a.starts_with('-') && a != "-" {
                return Err(UsageError(match suggest_option(a) {
                    Some(close) => {
                        format!("unknown option {a}; did you mean {close}? see goccia-trust --help")
                    }
                    None => format!("unknown option {a}; see goccia-trust --help"),
                }));
            } else {
                w.inputs.push(a.to_string());
            }
        }
        Ok(w)
    }

    /// `--trust PATH`, `--untrust PATH` (also with `=`), `--list-trusted`,
    /// `--yes`.
    fn mode_word(&mut self, a: &str, it: &mut Words<'_>) -> bool {
        if a == "--trust" || a == "--untrust" {
            let path = it.next().map(String::as_str).unwrap_or("");
            self.push_path(a, path);
        } else if let Some(v) = a.strip_prefix("--trust=") {
            self.push_path("--trust", v);
        } else if let Some(v) = a.strip_prefix("--untrust=") {
            self.push_path("--untrust", v);
        } else if a == "--list-trusted" {
            self.list = true;
        } else if a == "--yes" {
            self.yes = true;
        } else {
            return false;
        }
        true
    }

    fn push_path(&mut self, flag: &str, path: &str) {
        if flag == "--trust" {
            self.saw_trust = true;
            self.trust.push(path.to_string());
        } else {
            self.saw_untrust = true;
            self.untrust.push(path.to_string());
        }
    }

    /// `-P`/`--accept-config-permissions` and `--ignore-config-permissions`,
    /// which take no value.
    fn run_flag_word(&mut self, a: &str) -> Result<bool, UsageError> {
        if a == "-P" || a == "--accept-config-permissions" {
            self.accept = true;
        } else if a.starts_with("-P=") || a.starts_with("--accept-config-permissions=") {
            return Err(UsageError(format!(
                "{} takes no value",
                a.split('=').next().unwrap_or(a)
            )));
        } else if a == "--ignore-config-permissions" {
            self.ignore = true;
        } else {
            return Ok(false);
        }
        Ok(true)
    }

    /// The trust mode asked for, by its flag.
    fn mode_name(&self) -> Option<&'static str> {
        if self.saw_trust {
            Some("--trust")
        } else if self.saw_untrust {
            Some("--untrust")
        } else if self.list {
            Some("--list-trusted")
        } else {
            None
        }
    }

    /// docs/src/compatibility.md#option-errors: which options go together; without a trust mode, at most
    /// one PATH.
    fn check_combinations(&self) -> Result<(), UsageError> {
        if self.accept && self.ignore {
            return Err(UsageError(
                "-P and --ignore-config-permissions cannot be combined".into(),
            ));
        }
        let modes = [self.saw_trust, self.saw_untrust, self.list]
            .iter()
            .filter(|m| **m)
            .count();
        if modes > 1 {
            return Err(UsageError(
                "--trust, --untrust, and --list-trusted cannot be combined; run each on its own"
                    .into(),
            ));
        }
        if self.yes && !self.saw_trust {
            return Err(UsageError("--yes only confirms --trust".into()));
        }
        if self.review.policy_sha256.is_some() && self.review.policy.is_none() {
            return Err(UsageError("--policy-sha256 needs --policy".into()));
        }
        match self.mode_name() {
            Some(name) => self.check_mode_alone(name),
            None if self.accept || self.ignore => Err(UsageError(
                "-P and --ignore-config-permissions apply to a GocciaScript run; goccia-trust runs no code (use check to see what a run would need)".into(),
            )),
            None if self.inputs.len() > 1 => Err(UsageError(
                "without a subcommand goccia-trust takes one PATH; use scan for several".into(),
            )),
            None => Ok(()),
        }
    }

    /// A trust mode (`name`) runs on its own: no review option, input file
    /// or run flag with it.
    fn check_mode_alone(&self, name: &str) -> Result<(), UsageError> {
        if self.review.since.is_some() {
            return Err(UsageError(format!(
                "{name} cannot be combined with --since; --since BASE [PATH] opens the interactive review"
            )));
        }
        if self.review.reviewed_by.is_some() {
            return Err(UsageError(format!(
                "{name} cannot be combined with --reviewed-by; reviews gate unattended trust: goccia-trust trust --yes --reviewed-by FILE PATH"
            )));
        }
        if self.review.policy.is_some() {
            return Err(UsageError(format!(
                "{name} cannot be combined with --policy; a policy gates unattended trust: goccia-trust trust --yes --policy FILE PATH"
            )));
        }
        if !self.inputs.is_empty() {
            return Err(UsageError(format!(
                "{name} cannot be combined with input files; run it on its own"
            )));
        }
        if self.accept || self.ignore {
            return Err(UsageError(format!(
                "{name} cannot be combined with -P or --ignore-config-permissions"
            )));
        }
        Ok(())
    }

    /// The commands' own first check (docs/src/compatibility.md#the-trust-listing-prompt-and-confirmation, #blank-paths-and-empty-variables), made once the options
    /// are known to go together (docs/src/compatibility.md#option-errors comes first).
    fn check_mode_paths(&self) -> Result<(), UsageError> {
        if self.saw_trust {
            check_paths("--trust", &self.trust)
        } else if self.saw_untrust {
            check_paths("--untrust", &self.untrust)
        } else {
            Ok(())
        }
    }

    /// The invocation asked for; without a mode, the review of at most one
    /// PATH.
    fn into_invocation(mut self) -> Invocation {
        if self.saw_trust {
            return Invocation::Trust(
                self.globals,
                TrustArgs {
                    paths: self.trust,
                    yes: self.yes,
                    goccia_spelling: true,
                    ..TrustArgs::default()
                },
            );
        }
        if self.saw_untrust {
            return Invocation::Untrust(
                self.globals,
                UntrustArgs {
                    paths: self.untrust,
                    ..UntrustArgs::default()
                },
            );
        }
        if self.list {
            return Invocation::ListTrusted(self.globals);
        }
        self.review.path = self.inputs.pop();
        Invocation::Default(self.globals, self.review)
    }
}

/// The global options in GocciaScript's spellings: `--trust-store=PATH`
/// (never with the value as the next word), `--color`, `--theme`,
/// `--no-watch`, `--quiet`.
fn global_word(g: &mut GlobalArgs, a: &str, it: &mut Words<'_>) -> Result<bool, UsageError> {
    if let Some(v) = a.strip_prefix("--trust-store=") {
        if v.is_empty() {
            return Err(trust_store_needs_path());
        }
        g.trust_store = Some(v.to_string());
    } else if a == "--trust-store" {
        return Err(trust_store_needs_path());
    } else if let Some(v) = a.strip_prefix("--color=") {
        g.color = color_value(v)?;
    } else if let Some(v) = a.strip_prefix("--theme=") {
        g.theme = Some(v.to_string());
    } else if a == "--color" || a == "--theme" {
        let v = it
            .next()
            .filter(|v| !v.is_empty())
            .ok_or_else(|| UsageError(format!("{a} needs a value")))?;
        if a == "--theme" {
            g.theme = Some(v.to_string());
        } else {
            g.color = color_value(v)?;
        }
    } else if a == "--no-watch" {
        g.no_watch = true;
    } else if a == "--ascii" {
        g.ascii = true;
    } else if a == "--quiet" || a == "-q" {
        g.quiet = true;
    } else {
        return Ok(false);
    }
    Ok(true)
}

fn color_value(v: &str) -> Result<ColorChoice, UsageError> {
    ColorChoice::from_str(v, false).map_err(|_| {
        UsageError(format!(
            "invalid --color value {v:?}; use auto, always or never"
        ))
    })
}

/// Our addition for the interactive review: `--policy`, `--policy-sha256`,
/// `--since` and `--reviewed-by`, each with its value as the next word or
/// after `=`.
fn review_word(review: &mut TuiArgs, a: &str, it: &mut Words<'_>) -> Result<bool, UsageError> {
    const TAKES: [&str; 4] = ["--policy", "--policy-sha256", "--since", "--reviewed-by"];
    if TAKES.contains(&a) {
        let v = it
            .next()
            .filter(|v| !v.is_empty())
            .ok_or_else(|| UsageError(format!("{a} needs a value")))?;
        review_option(review, a, v);
    } else if let Some((flag, v)) = a.split_once('=').filter(|(f, _)| TAKES.contains(f)) {
        if v.is_empty() {
            return Err(UsageError(format!("{flag} needs a value")));
        }
        review_option(review, flag, v);
    } else {
        return Ok(false);
    }
    Ok(true)
}

fn review_option(review: &mut TuiArgs, flag: &str, value: &str) {
    match flag {
        "--policy" => review.policy = Some(value.to_string()),
        "--since" => review.since = Some(value.to_string()),
        "--reviewed-by" => review.reviewed_by = Some(value.to_string()),
        _ => review.policy_sha256 = Some(value.to_string()),
    }
}

/// The blank-path rule of docs/src/compatibility.md#blank-paths-and-empty-variables, for both spellings; the subcommands can
/// also be given no path at all, which GocciaScript's `--trust PATH` cannot.
pub fn check_paths(flag: &str, paths: &[String]) -> Result<(), UsageError> {
    if paths.is_empty() || paths.iter().any(|p| pascal_trim(p).is_empty()) {
        return Err(UsageError(format!("{flag} needs a path")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Invocation, String> {
        parse(args.iter().map(|s| s.to_string()).collect()).map_err(|e| match e {
            ParseOutcome::Usage(u) | ParseOutcome::UsageHint(u, _) => u.0,
            ParseOutcome::Clap(c) => c.to_string(),
        })
    }

    #[test]
    fn goccia_rules() {
        assert_eq!(
            p(&["--trust", "a", "--untrust", "b"]).unwrap_err(),
            "--trust, --untrust, and --list-trusted cannot be combined; run each on its own"
        );
        assert_eq!(p(&["--yes"]).unwrap_err(), "--yes only confirms --trust");
        assert_eq!(
            p(&["--untrust", "a", "--yes"]).unwrap_err(),
            "--yes only confirms --trust"
        );
        assert_eq!(
            p(&["--trust", "a", "x.js"]).unwrap_err(),
            "--trust cannot be combined with input files; run it on its own"
        );
        assert_eq!(
            p(&["--list-trusted", "x.js"]).unwrap_err(),
            "--list-trusted cannot be combined with input files; run it on its own"
        );
        assert_eq!(
            p(&["--trust", "a", "-P"]).unwrap_err(),
            "--trust cannot be combined with -P or --ignore-config-permissions"
        );
        assert_eq!(
            p(&["-P", "--ignore-config-permissions", "x"]).unwrap_err(),
            "-P and --ignore-config-permissions cannot be combined"
        );
        assert_eq!(
            p(&["--trust-store", "s", "--list-trusted"]).unwrap_err(),
            "--trust-store needs a path: --trust-store=<path>"
        );
        assert_eq!(
            p(&["--trust-store=", "--list-trusted"]).unwrap_err(),
            "--trust-store needs a path: --trust-store=<path>"
        );
        assert_eq!(p(&["--trust", " "]).unwrap_err(), "--trust needs a path");
        assert_eq!(p(&["--trust="]).unwrap_err(), "--trust needs a path");
        assert_eq!(p(&["--untrust="]).unwrap_err(), "--untrust needs a path");
        assert_eq!(p(&["--trust"]).unwrap_err(), "--trust needs a path");
    }

    #[test]
    fn goccia_spellings_parse() {
        match p(&[
            "--trust-store=/s.json",
            "--trust",
            "a",
            "--trust=b",
            "--yes",
        ])
        .unwrap()
        {
            Invocation::Trust(g, t) => {
                assert_eq!(g.trust_store.as_deref(), Some("/s.json"));
                assert_eq!(t.paths, ["a", "b"]);
                assert!(t.yes);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            p(&["--list-trusted"]).unwrap(),
            Invocation::ListTrusted(_)
        ));
        assert!(matches!(
            p(&[]).unwrap(),
            Invocation::Default(_, TuiArgs { path: None, .. })
        ));
        assert!(matches!(
            p(&["dir"]).unwrap(),
            Invocation::Default(_, TuiArgs { path: Some(_), .. })
        ));
    }

    #[test]
    fn after_a_double_dash_every_word_is_a_path() {
        for (args, path) in [
            (&["--", "-weird"][..], "-weird"),
            (&["--", "--trust"][..], "--trust"),
            (&["--", "scan"][..], "scan"),
            (&["--color=never", "--", "-P"][..], "-P"),
            (&["--policy", "p.json", "--", "--since"][..], "--since"),
        ] {
            match p(args).unwrap() {
                Invocation::Default(_, t) => assert_eq!(t.path.as_deref(), Some(path), "{args:?}"),
                other => panic!("{args:?}: {other:?}"),
            }
        }
        assert!(matches!(
            p(&["--"]).unwrap(),
            Invocation::Default(_, TuiArgs { path: None, .. })
        ));
        // GocciaScript's spellings keep their rules: `--trust` takes the
        // next word whatever it is, and a mode does not take input files.
        match p(&["--trust", "--", "--yes"]).unwrap() {
            Invocation::Trust(_, t) => {
                assert_eq!(t.paths, ["--"]);
                assert!(t.yes);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            p(&["--list-trusted", "--", "-x"]).unwrap_err(),
            "--list-trusted cannot be combined with input files; run it on its own"
        );
        assert_eq!(
            p(&["--", "-a", "-b"]).unwrap_err(),
            "without a subcommand goccia-trust takes one PATH; use scan for several"
        );
    }

    #[test]
    fn the_review_takes_a_base_revision() {
        for args in [
            &["--since", "HEAD~1", "dir"][..],
            &["dir", "--since=HEAD~1"][..],
        ] {
            match p(args).unwrap() {
                Invocation::Default(_, t) => {
                    assert_eq!(t.path.as_deref(), Some("dir"));
                    assert_eq!(t.since.as_deref(), Some("HEAD~1"));
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(p(&["--since"]).unwrap_err(), "--since needs a value");
        assert_eq!(p(&["--since="]).unwrap_err(), "--since needs a value");
        assert_eq!(
            p(&["--trust", "a", "--since", "main"]).unwrap_err(),
            "--trust cannot be combined with --since; --since BASE [PATH] opens the interactive review"
        );
    }

    #[test]
    fn the_review_takes_a_policy() {
        for args in [
            &["--policy", "/ci/p.json", "dir"][..],
            &["dir", "--policy=/ci/p.json"][..],
        ] {
            match p(args).unwrap() {
                Invocation::Default(_, t) => {
                    assert_eq!(t.path.as_deref(), Some("dir"));
                    assert_eq!(t.policy.as_deref(), Some("/ci/p.json"));
                    assert_eq!(t.policy_sha256, None);
                }
                other => panic!("{other:?}"),
            }
        }
        match p(&["--policy", "p.json", "--policy-sha256=ab"]).unwrap() {
            Invocation::Default(_, t) => {
                assert_eq!(t.path, None);
                assert_eq!(t.policy_sha256.as_deref(), Some("ab"));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(p(&["--policy"]).unwrap_err(), "--policy needs a value");
        assert_eq!(p(&["--policy="]).unwrap_err(), "--policy needs a value");
        assert_eq!(
            p(&["--policy-sha256", "ab", "dir"]).unwrap_err(),
            "--policy-sha256 needs --policy"
        );
        assert_eq!(
            p(&["--trust", "a", "--policy", "p.json"]).unwrap_err(),
            "--trust cannot be combined with --policy; a policy gates unattended trust: goccia-trust trust --yes --policy FILE PATH"
        );
    }

    #[test]
    fn a_nested_subcommand_typo_lists_the_closest_first() {
        let suggested = |line: &[&str]| match parse(line.iter().map(|s| s.to_string()).collect()) {
            Err(ParseOutcome::Clap(e)) => {
                match e.get(clap::error::ContextKind::SuggestedSubcommand) {
                    Some(clap::error::ContextValue::Strings(s)) => s.clone(),
                    other => panic!("no suggestions: {other:?}"),
                }
            }
            _ => panic!("not a clap error: {line:?}"),
        };
        assert_eq!(suggested(&["hook", "instal"]), ["install", "uninstall"]);
        assert_eq!(suggested(&["hook", "uninstal"]), ["uninstall", "install"]);
    }

    #[test]
    fn a_typo_of_a_subcommand_is_suggested() {
        assert_eq!(suggest_subcommand("scna"), Some("scan"));
        assert_eq!(suggest_subcommand("untrst"), Some("untrust"));
        assert_eq!(suggest_subcommand("lsit"), Some("list"));
        assert_eq!(suggest_subcommand("Check"), Some("check"));
        assert_eq!(suggest_subcommand("tust"), Some("trust"));
        assert_eq!(suggest_subcommand("dfif"), Some("diff"));
        assert_eq!(suggest_subcommand("src"), None);
        assert_eq!(suggest_subcommand("x"), None);
        assert_eq!(suggest_subcommand("scan.js"), None);
        assert_eq!(suggest_subcommand("a/scna"), None);
    }

    #[test]
    fn the_trust_store_hint_names_the_value_given() {
        let args: Vec<String> = ["--list-trusted", "--trust-store", "/x.json"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        match parse(args) {
            Err(ParseOutcome::UsageHint(e, hint)) => {
                assert_eq!(e.0, "--trust-store needs a path: --trust-store=<path>");
                assert_eq!(
                    hint,
                    "hint: --trust-store takes its value after '=': --trust-store=/x.json"
                );
            }
            other => panic!("{other:?}"),
        }
        let args: Vec<String> = ["--trust-store", "/s", "--list-trusted"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert!(matches!(parse(args), Err(ParseOutcome::UsageHint(..))));
        let args = vec!["--trust-store".to_string()];
        assert!(matches!(parse(args), Err(ParseOutcome::Usage(_))));
    }

    #[test]
    fn subcommands_parse_with_globals_anywhere() {
        match p(&["--trust-store=/s.json", "trust", "a", "--yes"]).unwrap() {
            Invocation::Clap(cli) => {
                assert_eq!(cli.globals.trust_store.as_deref(), Some("/s.json"));
                assert!(matches!(cli.command, Command::Trust(ref t) if t.yes && t.paths == ["a"]));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            p(&["list", "--trust-store="]).unwrap_err(),
            "--trust-store needs a path: --trust-store=<path>"
        );
        // A subcommand takes the value as the next word too, before or
        // after the subcommand.
        for args in [
            &["list", "--trust-store", "/x.json"][..],
            &["--trust-store", "/x.json", "list"][..],
        ] {
            match p(args).unwrap() {
                Invocation::Clap(cli) => {
                    assert_eq!(cli.globals.trust_store.as_deref(), Some("/x.json"));
                    assert!(matches!(cli.command, Command::List(_)));
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(
            p(&["list", "--trust-store", ""]).unwrap_err(),
            "--trust-store needs a path: --trust-store=<path>"
        );
    }

    /// `--json` is settled into `format` as the command line is parsed:
    /// nothing after reads `json` to decide the format again.
    #[test]
    fn the_format_is_settled_once_when_parsed() {
        let format = |args: &[&str]| match p(args) {
            Ok(Invocation::Clap(cli)) => match cli.command {
                Command::Scan(a) => a.format,
                Command::Check(a) => a.format,
                _ => panic!("{args:?}"),
            },
            other => panic!("{args:?}: {other:?}"),
        };
        assert_eq!(format(&["scan", "--json"]), OutputFormat::Json);
        assert_eq!(format(&["scan", "--format", "sarif"]), OutputFormat::Sarif);
        assert_eq!(format(&["scan"]), OutputFormat::Text);
        assert_eq!(format(&["check", "--json", "x"]), OutputFormat::Json);
        assert_eq!(
            format(&["check", "--format", "github", "x"]),
            OutputFormat::Github
        );
    }
}

/// Print a shell completion script on stdout (see the guide: Getting started).
#[derive(Debug, Clone, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: ShellName,
}

/// The shells clap_complete writes for; our own enum so `--help` and the
/// man page list them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ShellName {
    Bash,
    Zsh,
    Fish,
    Elvish,
    Powershell,
}

/// Print the manual page (roff) on stdout: every command and its options
/// on one page, with the exit codes.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ManArgs {}

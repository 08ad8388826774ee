//! `goccia-trust completions SHELL` and `goccia-trust man`: the shell
//! completions (answered by the binary itself, `cli::complete`) and the
//! manual page, from the same clap definition as `--help`, so neither can
//! drift from the real command line.
//!
//! GocciaScript's own spellings (`--trust PATH`, `--list-trusted`, ...) are
//! parsed by hand (cli/args.rs) and so are not in the completions; the man
//! page names them in its description.

use std::io;

use clap_mangen::Man;
use roff::{Roff, bold, roman};

use crate::cli::args::{CompletionsArgs, ManArgs, ShellName};
use crate::cli::complete;
use crate::cli::error::{CliError, CliResult};
use crate::cli::io::Io;
use crate::core::{env, exit};

const BIN: &str = "goccia-trust";

pub fn run_completions(args: &CompletionsArgs, io: &mut Io<'_>) -> CliResult {
    io.out.write_all(&completion_script(args.shell)?)?;
    Ok(exit::SUCCESS)
}

/// What `completions SHELL` prints: the lines that make SHELL ask the
/// binary for its completions at each Tab (`cli::complete`).
pub fn completion_script(shell: ShellName) -> io::Result<Vec<u8>> {
    crate::cli::complete::registration(shell)
}

/// The command line the completions offer: every option, the global ones
/// on every subcommand (`scan --tr<TAB>`) and the default review's own
/// (`--policy`, `--since`); `--theme`'s built-in names and files; git
/// revisions for `diff` and `--since`; paths where a path goes; and
/// no hidden subcommand (`tui`, `hook run`: clap_complete lists hidden
/// subcommands, and clap cannot remove one, so the commands holding them
/// are rebuilt without them).
pub fn completion_command() -> clap::Command {
    let mut cmd = crate::cli::args::command();
    let globals: Vec<clap::Id> = cmd
        .get_arguments()
        .filter(|a| a.is_global_set())
        .map(|a| a.get_id().clone())
        .collect();
    for id in globals {
        cmd = cmd.mut_arg(id, |a| a.hide(false));
    }
    let cmd = cmd
        .mut_arg("theme", |a| a.add(complete::theme_completer()))
        .mut_arg("review_since", |a| a.add(complete::revision_completer()))
        .mut_subcommand("diff", |d| {
            d.mut_arg("base", |a| a.add(complete::revision_completer()))
                .mut_arg("head", |a| a.add(complete::revision_completer()))
        });
    without_hidden(&cmd)
}

/// `cmd` without its hidden subcommands, at every depth.
fn without_hidden(cmd: &clap::Command) -> clap::Command {
    fn hides(cmd: &clap::Command) -> bool {
        cmd.get_subcommands().any(|s| s.is_hide_set() || hides(s))
    }
    if !hides(cmd) {
        return cmd.clone();
    }
    // clap's strings are `&'static` without its `string` feature; the few
    // bytes of a once-per-process script are leaked.
    let text = |s: &str| -> &'static str { Box::leak(s.to_string().into_boxed_str()) };
    let mut out = clap::Command::new(text(cmd.get_name()))
        .subcommand_required(cmd.is_subcommand_required_set())
        .hide(cmd.is_hide_set())
        .args(cmd.get_arguments().cloned())
        .groups(cmd.get_groups().cloned())
        .subcommands(
            cmd.get_subcommands()
                .filter(|s| !s.is_hide_set())
                .map(without_hidden),
        );
    if let Some(about) = cmd.get_about() {
        out = out.about(about.clone());
    }
    if let Some(about) = cmd.get_long_about() {
        out = out.long_about(about.clone());
    }
    if let Some(version) = cmd.get_version() {
        out = out.version(text(version));
    }
    if let Some(version) = cmd.get_long_version() {
        out = out.long_version(text(version));
    }
    out.visible_aliases(cmd.get_visible_aliases().map(text).collect::<Vec<_>>())
}

/// A closed stdout (`goccia-trust man | head`) ends the command quietly,
/// exit 141, as every command (`cli::app::finish`).
pub fn run_man(_args: &ManArgs, io: &mut Io<'_>) -> CliResult {
    let page =
        man_page().map_err(|e| CliError::failed(format!("cannot render the manual page: {e}")))?;
    io.out.write_all(&page)?;
    Ok(exit::SUCCESS)
}

/// One page: clap_mangen's title, name, synopsis, description and global
/// options; then a COMMANDS section with each subcommand's usage, help and
/// options (clap_mangen would point at separate `goccia-trust-scan(1)`
/// pages, which a single `man` output cannot ship); then the exit codes.
pub fn man_page() -> io::Result<Vec<u8>> {
    let cmd = crate::cli::args::command_unhidden();
    let man = Man::new(cmd.clone());
    let mut page = Vec::new();
    // clap_mangen's title leaves out an empty date, which moves the source
    // into the date's place: the preamble it writes, then `.TH` with every
    // field in its place.
    let mut title = Vec::new();
    man.render_title(&mut title)?;
    for line in String::from_utf8_lossy(&title).lines() {
        if line.starts_with(".TH ") {
            page.extend_from_slice(title_line().as_bytes());
        } else {
            page.extend_from_slice(line.as_bytes());
        }
        page.push(b'\n');
    }
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;

    let mut commands = Roff::new();
    commands.control("SH", ["COMMANDS"]);
    commands.to_writer(&mut page)?;
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        render_command(sub, BIN, &mut page)?;
    }

    let mut status = Roff::new();
    status.control("SH", ["EXIT STATUS"]);
    for (code, meaning) in EXIT_TABLE {
        status.control("TP", []);
        status.text([bold(code.to_string())]);
        status.text([roman(*meaning)]);
    }
    status.control("TP", []);
    status.text([bold("128+N")]);
    status.text([roman(
        "the interactive review ended by signal N (SIGHUP 129, SIGINT 130, SIGQUIT 131, SIGTERM 143), after restoring the terminal",
    )]);
    status.to_writer(&mut page)?;
    extra_sections().to_writer(&mut page)?;
    man.render_version_section(&mut page)?;
    Ok(drop_repeated_preamble(&tidy_breaks(&page)))
}

/// `.TH TITLE SECTION DATE SOURCE MANUAL`, each field quoted, so an empty
/// one keeps its place: the date is the build's (`build.rs`: the commit's,
/// or `SOURCE_DATE_EPOCH`), empty when the build had none.
fn title_line() -> String {
    let date = option_env!("GOCCIA_TRUST_BUILD_DATE").unwrap_or("");
    format!(
        ".TH \"GOCCIA-TRUST\" \"1\" \"{date}\" \"goccia-trust {}\" \"User Commands\"",
        env!("CARGO_PKG_VERSION")
    )
}

/// clap_mangen separates a help text from its list of values with
/// `.br`, an empty line, `.br`: the empty line is a paragraph break that
/// the `.br`s around it only cancel (mandoc warns of each). One `.sp`.
fn tidy_breaks(page: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(page)
        .replace("\n.br\n\n.br\n", "\n.sp\n")
        .into_bytes()
}

/// The store, its lock, the state directory and the themes, on Linux and
/// the other Unix systems (macOS: under ~/Library/Application Support; see
/// the guide); then each file of the state directory ([`env::STATE_FILES`]).
const FILES: &[(&str, &str)] = &[
    (
        "$XDG_CONFIG_HOME/goccia/trust.json, else ~/.config/goccia/trust.json",
        "The per-user trust store GocciaScript reads (--trust-store=PATH names another).",
    ),
    (
        "trust.json.lock",
        "Beside the store (STORE.lock for --trust-store=STORE): the lock every writer of the store takes, as GocciaScript does.",
    ),
    (
        "$GOCCIA_TRUST_STATE_DIR, else $XDG_STATE_HOME/goccia-trust, else ~/.local/state/goccia-trust",
        "The state directory (STATE below).",
    ),
    (
        "$XDG_CONFIG_HOME/goccia-trust/themes/NAME.toml, else ~/.config/goccia-trust/themes/NAME.toml",
        "A theme for the interactive review (--theme=NAME); it overrides a built-in of the same name.",
    ),
];

const EXAMPLES: &[(&str, &str)] = &[
    (
        "goccia-trust",
        "Review the configs under the working directory interactively.",
    ),
    (
        "goccia-trust scan --json .",
        "Every config and its state, as one JSON document.",
    ),
    (
        "goccia-trust trust web/goccia.toml",
        "Show what the config requests and record it after you confirm.",
    ),
    (
        "goccia-trust check --format github web",
        "Fail (exit 2) if a GocciaScript run on web would stop, with an annotation per config.",
    ),
    (
        "goccia-trust diff origin/main --format markdown",
        "What a branch changes in the configs' permissions, as a pull-request comment.",
    ),
    (
        "goccia-trust trust --yes --policy /etc/goccia/policy.json .",
        "In CI: trust only what the policy allows (exit 3 or 4 otherwise).",
    ),
];

/// ENVIRONMENT, FILES, EXAMPLES and SEE ALSO.
fn extra_sections() -> Roff {
    let mut r = Roff::new();
    let environment: Vec<(String, &str)> = env::VARIABLES
        .iter()
        .map(|v| (v.name.to_string(), v.meaning))
        .collect();
    let files: Vec<(String, &str)> = FILES
        .iter()
        .map(|(t, m)| (t.to_string(), *m))
        .chain(env::STATE_FILES.iter().map(|f| {
            let slash = if f.name.contains('.') { "" } else { "/" };
            (format!("STATE/{}{slash}", f.name), f.meaning)
        }))
        .collect();
    let examples: Vec<(String, &str)> = EXAMPLES.iter().map(|(t, m)| (t.to_string(), *m)).collect();
    for (heading, items) in [
        ("ENVIRONMENT", environment),
        ("FILES", files),
        ("EXAMPLES", examples),
    ] {
        r.control("SH", [heading]);
        for (term, text) in items {
            r.control("TP", []);
            r.text([bold(term)]);
            r.text([roman(text)]);
        }
    }
    r.control("SH", ["SEE ALSO"]);
    r.control("BR", ["git", "(1)"]);
    r.control("PP", []);
    r.text([roman(
        "The user guide (docs/ in the source: getting started, commands, the trust store, CI formats, the JSON contract, exit codes) and GocciaScript's documentation of config permissions.",
    )]);
    r
}

/// Each piece rendered on its own starts with roff's two-line `Aq` string
/// definition; the page needs it once, at the top.
fn drop_repeated_preamble(page: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(page);
    let mut out = String::with_capacity(text.len());
    let mut seen = false;
    for line in text.lines() {
        let preamble = line == r".ie \n(.g .ds Aq \(aq" || line == ".el .ds Aq '";
        if preamble && seen {
            continue;
        }
        if line == ".el .ds Aq '" {
            seen = true;
        }
        out.push_str(line);
        out.push('\n');
    }
    out.into_bytes()
}

/// The guide's exit codes, as `core::exit` documents each constant.
const EXIT_TABLE: &[(u8, &str)] = &[
    (exit::SUCCESS, "success"),
    (
        exit::FAILURE,
        "invalid value or failure: unreadable store, held lock, failed write, invalid scope, \
         a prompt answered with anything but yes; for diff, a config widened or broken, or \
         the comparison incomplete (0 with --exit-zero); for list --exit-code, an entry \
         changed, missing or unreadable",
    ),
    (
        exit::USAGE,
        "usage error, malformed config, untrusted configs reported by check, --trust needing \
         confirmation without a terminal, policy file error",
    ),
    (exit::POLICY_DENIED, "the policy denied a request"),
    (
        exit::POLICY_NEEDS_AUTH,
        "the policy requires authorization for a request",
    ),
    (
        exit::CLOSED_STDOUT,
        "stdout was closed before the command finished; nothing more was written",
    ),
];

/// One subcommand under COMMANDS, then its own subcommands (`policy show`).
fn render_command(sub: &clap::Command, parent: &str, page: &mut Vec<u8>) -> io::Result<()> {
    let name = format!("{parent} {}", sub.get_name());
    let usage = sub.clone().bin_name(&name).render_usage().to_string();
    let usage = usage.strip_prefix("Usage: ").unwrap_or(&usage);
    let mut head = Roff::new();
    head.control("SS", [name.as_str()]);
    for (i, form) in usage.lines().map(str::trim).enumerate() {
        if i > 0 {
            head.control("br", []);
        }
        head.text([bold(form)]);
    }
    if let Some(about) = sub.get_long_about().or_else(|| sub.get_about()) {
        for para in about.to_string().split("\n\n") {
            head.control("PP", []);
            head.text([roman(para.replace('\n', " "))]);
        }
    }
    head.to_writer(page)?;

    // clap_mangen's option list, under this subsection instead of a
    // section of its own.
    let mut options = Vec::new();
    Man::new(sub.clone()).render_options_section(&mut options)?;
    for line in String::from_utf8_lossy(&options).lines() {
        if line != ".SH OPTIONS" {
            page.extend_from_slice(line.as_bytes());
            page.push(b'\n');
        }
    }

    for nested in sub.get_subcommands().filter(|s| !s.is_hide_set()) {
        render_command(nested, &name, page)?;
    }
    Ok(())
}

//! The command line: one file per command over the core.

pub mod args;
pub mod check;
pub mod ci_out;
pub mod complete;
pub mod diff;
pub mod diff_outcome;
pub mod error;
pub mod generate;
pub mod hook;
pub mod hook_outcome;
pub mod ignore;
pub mod inspect;
pub mod json_out;
pub mod list;
pub mod load;
pub mod paint;
pub mod policy;
pub mod policy_outcome;
pub mod policy_trust;
pub mod print;
pub mod review;
pub mod review_outcome;
pub mod scan;
pub mod status;
pub mod status_outcome;
pub mod streams;
pub mod terminal;
pub mod trust;
pub mod tui;
pub mod untrust;
pub mod walk;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use crate::cli::args::{Command, GlobalArgs, Invocation, ParseOutcome, ScanArgs};
pub use crate::cli::error::{CliError, CliResult, ErrorJson};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::store::{
    SafetyIssue, Store, StoreError, StoreLocation, User, check_store, locate_store, read_store,
    refusal, store_in_reviewed_tree,
};
use crate::sanitize::clean;
use crate::tui::theme::Role;

/// Where a command writes. Commands never print directly, so tests can run
/// them in-process and a broken pipe is an error, not a panic. Every write
/// to `out` is checked (`?` turns its failure into a [`CliError`]); an error
/// is returned, never printed by the command: [`finish`] prints it.
pub struct Io<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
    /// What the streams are, and `--quiet` (`cli::terminal`).
    pub escaping: &'a terminal::Escaping,
}

impl Io<'_> {
    /// Prints `Error: <message>` on stderr; for [`finish`], the one place
    /// errors are printed. The message is one line, escaped whole (a line
    /// break too): it may quote a path, an argument, a config or the store.
    pub fn error(&mut self, message: impl std::fmt::Display) {
        let _ = writeln!(
            self.err,
            "{} {}",
            error_prefix(),
            clean(&message.to_string())
        );
    }

    /// Prints `Warning: <message>` on stderr, escaped whole like
    /// [`Io::error`]'s.
    pub fn warn(&mut self, message: impl std::fmt::Display) {
        let _ = writeln!(
            self.err,
            "{} {}",
            paint::mark(Role::Changed, "Warning:"),
            clean(&message.to_string())
        );
    }
}

/// `Error:`, styled as an error.
fn error_prefix() -> String {
    paint::mark(Role::Error, "Error:")
}

pub fn main() -> ExitCode {
    // `COMPLETE=bash goccia-trust -- ...`: the shell asking for completions.
    complete::answer_request(generate::completion_command);
    let args: Result<Vec<String>, _> = std::env::args_os()
        .skip(1)
        .map(|a| a.into_string())
        .collect();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let escaping = terminal::Escaping::detect();
    let env = Env::from_process();
    // Colour is decided before the command line is parsed (the painters
    // wrap the streams every command writes to): `--color=` and `--theme=`
    // take their value after `=` only, so a scan up to `--` finds them.
    let (out_palette, err_palette) = match (&args, &env) {
        (Ok(args), Ok(env)) => {
            let (choice, theme) = args::colour_options(args);
            let out_choice = if args::machine_output(args) {
                args::ColorChoice::Never
            } else {
                choice
            };
            (
                paint::Palette::for_stream(
                    coloured(out_choice, escaping.stdout_is_terminal(), env),
                    theme,
                    env,
                ),
                paint::Palette::for_stream(
                    coloured(choice, escaping.stderr_is_terminal(), env),
                    theme,
                    env,
                ),
            )
        }
        _ => (None, None),
    };
    let buffered = streams::Stdout::new(stdout.lock(), escaping.stdout_is_terminal());
    let ascii = match (&args, &env) {
        (Ok(args), Ok(env)) => args::ascii_output(args, env.ascii_locale),
        _ => false,
    };
    let mut out =
        terminal::SafeWriter::stdout(buffered.writer(), &escaping, out_palette).ascii(ascii);
    let mut err =
        terminal::SafeWriter::stderr(buffered.ordered(stderr.lock()), err_palette).ascii(ascii);
    let mut io = Io {
        out: &mut out,
        err: &mut err,
        escaping: &escaping,
    };
    let result = match (args, env) {
        (Err(_), _) => Err(CliError::usage("arguments must be valid UTF-8")),
        (Ok(_), Err(e)) => Err(CliError::failed(format!(
            "cannot read the working directory: {e}"
        ))),
        (Ok(args), Ok(env)) => dispatch(args, &env, &mut io),
    };
    ExitCode::from(finish(result, &mut io))
}

/// Whether a stream is coloured: `--color=always|never` over everything,
/// else the environment's conventions (`Env::auto_colour`: `NO_COLOR`,
/// `CLICOLOR_FORCE`, `TERM=dumb`, `CLICOLOR=0`) and whether the stream is a
/// terminal.
fn coloured(choice: args::ColorChoice, is_terminal: bool, env: &Env) -> bool {
    match choice {
        args::ColorChoice::Always => true,
        args::ColorChoice::Never => false,
        args::ColorChoice::Auto => env.auto_colour(is_terminal),
    }
}

/// Parses and runs one command line, returning its exit code: the demo and
/// the screenshot tool run the binary's own command line in process. A
/// one-shot command turns on the process-wide path memo
/// (`core::paths::realpath`) for its duration, so run one command at a time
/// per process.
#[cfg(any(test, feature = "test-support"))]
pub fn run(args: Vec<String>, env: &Env, io: &mut Io<'_>) -> u8 {
    let result = dispatch(args, env, io);
    finish(result, io)
}

/// The one place a command's outcome is printed and mapped to the exit
/// table (`core::exit`, README "Exit codes"): an error is one `Error: `
/// line on stderr; a closed stdout ends the command quietly with 141.
pub fn finish(result: CliResult, io: &mut Io<'_>) -> u8 {
    // What is still buffered for stdout belongs to the command: a reader
    // gone before it arrived is a closed stdout too.
    let result = result.and_then(|code| {
        io.out.flush()?;
        Ok(code)
    });
    match result {
        Ok(code) => code,
        Err(CliError::ClosedStdout) => exit::CLOSED_STDOUT,
        Err(CliError::Stdout(e)) => {
            io.error(format!("cannot write to stdout: {e}"));
            exit::FAILURE
        }
        Err(CliError::Message {
            code,
            message,
            report,
            json,
            hint,
        }) => {
            if report {
                let _ = writeln!(io.err, "{} {message}", error_prefix());
            } else {
                io.error(&message);
            }
            if let Some(hint) = hint
                && io.escaping.stderr_is_terminal()
            {
                let _ = writeln!(io.err, "{}", clean(&hint));
            }
            // Best effort: the error is already on stderr.
            match json {
                ErrorJson::None => {}
                ErrorJson::Seed => {
                    let _ = writeln!(io.out, "{}", serde_json::json!({ "error": message }));
                }
                ErrorJson::Contract => {
                    let _ = io
                        .out
                        .write_all(json_out::failure_document(&message, code).as_bytes());
                }
            }
            let _ = io.out.flush();
            code
        }
    }
}

/// Parses one command line and runs its command.
fn dispatch(args: Vec<String>, env: &Env, io: &mut Io<'_>) -> CliResult {
    // A mistyped subcommand first, whatever follows it (`scna p`, `lsit
    // --json` would otherwise be refused for what follows).
    // A usage error of a command asked for JSON is also the failure
    // document on stdout.
    let json = args::asks_contract_json(&args);
    let usage = |e: CliError| if json { e.with_contract_json() } else { e };
    if let Some(word) = args::first_word(&args) {
        mistyped_subcommand(word, &args, env).map_err(usage)?;
    }
    let original = args.clone();
    let escaped = escaped_args(&args);
    let invocation = match args::parse(args) {
        Ok(inv) => inv,
        Err(ParseOutcome::Usage(e)) => return Err(usage(CliError::usage(e.0))),
        Err(ParseOutcome::UsageHint(e, hint)) => {
            return Err(usage(CliError::usage(e.0).with_hint(hint)));
        }
        Err(ParseOutcome::Clap(e)) => return clap_outcome(e, escaped, json, io),
    };
    // The one PATH of the bare command, after its options (`--policy p
    // scna`).
    if let Invocation::Default(_, review) = &invocation
        && let Some(word) = review.path.as_deref()
    {
        mistyped_subcommand(word, &original, env).map_err(usage)?;
    }
    if globals_of(&invocation).quiet {
        io.escaping.set_quiet();
    }
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let opens_tui = interactive
        && match &invocation {
            Invocation::Default(..) => true,
            Invocation::Clap(cli) => matches!(cli.command, Command::Tui(_)),
            _ => false,
        };
    // A one-shot command sees the filesystem at one moment, so it may
    // remember resolved directories; the TUI, long-lived, never does.
    let _memo = (!opens_tui).then(crate::core::paths::realpath::enable_cache);
    if let Some(file) = output_file(&invocation) {
        return run_into_file(&file, invocation, interactive, env, io);
    }
    run_counted(invocation, interactive, env, io)
}

/// Runs the command, with the failure document of the JSON contract when
/// it asks for one.
fn run_counted(invocation: Invocation, interactive: bool, env: &Env, io: &mut Io<'_>) -> CliResult {
    if contract_json(&invocation) {
        return run_with_failure_document(invocation, interactive, env, io);
    }
    run_invocation(invocation, interactive, env, io)
}

/// `--output FILE` of `scan`, `check` and `diff`.
fn output_file(invocation: &Invocation) -> Option<String> {
    let Invocation::Clap(cli) = invocation else {
        return None;
    };
    match &cli.command {
        Command::Scan(a) => a.output.clone(),
        Command::Check(a) => a.output.clone(),
        Command::Diff(a) => a.output.clone(),
        _ => None,
    }
}

/// Runs the command with what it would print on stdout written to `file`
/// (`core::paths::output`: never through a link), its error (and failure
/// document) included, as `> file` would have it; its messages stay on
/// stderr. A `file` that is a link or not a regular file is refused before
/// anything runs (exit 1, nothing written).
fn run_into_file(
    file: &str,
    invocation: Invocation,
    interactive: bool,
    env: &Env,
    io: &mut Io<'_>,
) -> CliResult {
    let path = std::path::PathBuf::from(crate::core::paths::lexical_path(file, &env.cwd));
    let mut output = crate::core::paths::output::create_output(&path).map_err(CliError::failed)?;
    let code = {
        let mut buffered = std::io::BufWriter::new(output.file());
        let mut out = terminal::SafeWriter::file(&mut buffered);
        let mut inner = Io {
            out: &mut out,
            err: &mut *io.err,
            escaping: io.escaping,
        };
        let result = run_counted(invocation, interactive, env, &mut inner);
        let code = finish(result, &mut inner);
        drop(out);
        buffered.flush().map_err(|e| {
            CliError::failed(format!("cannot write output {}: {e}", path.display()))
        })?;
        code
    };
    output.persist().map_err(CliError::failed)?;
    Ok(code)
}

/// clap's errors quote arguments, and its messages span lines: when an
/// argument holds a line break or another control character, the error is
/// that of the same command line with each argument escaped. `None` when
/// no argument needs it.
fn escaped_args(args: &[String]) -> Option<Vec<String>> {
    args.iter()
        .any(|a| matches!(clean(a), std::borrow::Cow::Owned(_)))
        .then(|| args.iter().map(|a| clean(a).into_owned()).collect())
}

/// clap's error without its tip that an unknown option could be a value
/// (`tip: to pass '--dry-run' as a value, use '-- --dry-run'`): after an
/// option a command does not have (`untrust --missing --dry-run`), it made
/// the option a PATH. A PATH that starts with `-` still follows `--`, as
/// the guide says.
fn without_value_tip(text: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for line in text.split('\n') {
        let tip = line.trim_start().starts_with("tip: to pass '")
            && line.contains("' as a value, use '-- ");
        if tip {
            // The blank line that opened the tip's paragraph goes too.
            if out.last().is_some_and(|l| l.trim().is_empty()) {
                out.pop();
            }
            continue;
        }
        out.push(line);
    }
    out.join("\n")
}

/// clap's own help and version (stdout, exit 0); its usage errors in its
/// words but in the one error style, `Error: ` (exit 2), and with `json`
/// also the failure document on stdout. `escaped` is the command line with
/// each argument escaped, when one needed it.
fn clap_outcome(
    e: clap::Error,
    escaped: Option<Vec<String>>,
    json: bool,
    io: &mut Io<'_>,
) -> CliResult {
    if !e.use_stderr() {
        write!(io.out, "{}", e.render())?;
        return Ok(exit::SUCCESS);
    }
    let hostile = escaped.is_some();
    let (e, quoted_raw) = match escaped.map(args::parse) {
        Some(Err(ParseOutcome::Clap(shown))) if shown.use_stderr() => (shown, false),
        _ => (e, hostile),
    };
    let text = without_value_tip(&e.render().to_string());
    // The escaped command line did not fail alike: the message
    // is shown on one line, escaped whole.
    let text = if quoted_raw {
        format!("{}\n", clean(text.trim_end_matches('\n')))
    } else {
        text
    };
    let bare = text.strip_prefix("error: ");
    match bare {
        Some(rest) => {
            let _ = write!(io.err, "{} {rest}", error_prefix());
        }
        None => {
            let _ = write!(io.err, "{text}");
        }
    }
    if json {
        // clap's message, without its prefix (and its style),
        // usage and tip paragraphs.
        let message = bare.unwrap_or(&text);
        let message = message.split("\n\n").next().unwrap_or(message).trim();
        io.out
            .write_all(json_out::failure_document(message, exit::USAGE).as_bytes())?;
    }
    Ok(exit::USAGE)
}

/// The global options, whichever spelling parsed them.
fn globals_of(invocation: &Invocation) -> &GlobalArgs {
    match invocation {
        Invocation::Clap(cli) => &cli.globals,
        Invocation::Trust(g, _)
        | Invocation::Untrust(g, _)
        | Invocation::ListTrusted(g)
        | Invocation::Default(g, _) => g,
    }
}

/// A `--json` command of the contract that fails before printing its
/// document prints the failure document instead: stdout is always one
/// JSON document a script can read.
fn run_with_failure_document(
    invocation: Invocation,
    interactive: bool,
    env: &Env,
    io: &mut Io<'_>,
) -> CliResult {
    let mut counted = CountingWriter {
        inner: &mut *io.out,
        written: 0,
    };
    let result = {
        let mut inner = Io {
            out: &mut counted,
            err: &mut *io.err,
            escaping: io.escaping,
        };
        run_invocation(invocation, interactive, env, &mut inner)
    };
    let written = counted.written;
    result.map_err(|e| {
        if written == 0 {
            e.with_contract_json()
        } else {
            e
        }
    })
}

/// Whether the command prints a document of the JSON contract.
fn contract_json(invocation: &Invocation) -> bool {
    match invocation {
        Invocation::Trust(_, t) => t.json,
        Invocation::Untrust(_, u) => u.json,
        Invocation::Clap(cli) => match &cli.command {
            Command::Scan(a) => a.format.chosen(a.json) == args::OutputFormat::Json,
            Command::Trust(a) => a.json,
            Command::Untrust(a) => a.json,
            Command::List(a) => a.json,
            Command::Check(a) => a.format.chosen(a.json) == args::OutputFormat::Json,
            Command::Diff(a) => a.json,
            Command::Inspect(a) => a.json,
            Command::Status(a) => a.json,
            _ => false,
        },
        _ => false,
    }
}

/// stdout, counting what went through.
struct CountingWriter<'a> {
    inner: &'a mut dyn Write,
    written: usize,
}

impl Write for CountingWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

fn run_invocation(
    invocation: Invocation,
    interactive: bool,
    env: &Env,
    io: &mut Io<'_>,
) -> CliResult {
    match invocation {
        Invocation::Trust(g, t) => trust::run(&g, &t, env, io),
        Invocation::Untrust(g, u) => untrust::run(&g, &u, env, io),
        Invocation::ListTrusted(g) => list::run(&g, &args::ListArgs::default(), env, io),
        Invocation::Default(g, review) => default_command(&g, &review, interactive, env, io),
        Invocation::Clap(cli) => {
            let g = &cli.globals;
            match &cli.command {
                Command::Scan(a) => scan::run(g, a, env, io),
                Command::Trust(a) => trust::run(g, a, env, io),
                Command::Untrust(a) => untrust::run(g, a, env, io),
                Command::Ignore(a) => ignore::run_ignore(g, a, env, io),
                Command::Unignore(a) => ignore::run_unignore(g, a, env, io),
                Command::List(a) => list::run(g, a, env, io),
                Command::Check(a) => check::run(g, a, env, io),
                Command::Inspect(a) => inspect::run(g, a, env, io),
                Command::Diff(a) => diff::run(a, env, io),
                Command::Policy(a) => policy_command(g, a, env, io),
                Command::Completions(a) => generate::run_completions(a, io),
                Command::Man(a) => generate::run_man(a, io),
                Command::Tui(a) => default_command(g, a, interactive, env, io),
                Command::Status(a) => status::run(g.trust_store.as_deref(), a, env, io),
                Command::Hook(a) => hook::run(g.trust_store.as_deref(), a, env, io),
                Command::Review(a) => review::run(a, env, io),
            }
        }
    }
}

/// A word that names no existing path but is close to a subcommand (`scna`)
/// is a mistyped command, not a path to review: exit 2 with `did you mean
/// 'scan'?`, and on a terminal a hint with the command line as meant.
fn mistyped_subcommand(word: &str, args: &[String], env: &Env) -> Result<(), CliError> {
    let Some(suggestion) = args::suggest_subcommand(word) else {
        return Ok(());
    };
    let expanded = crate::core::paths::expand_without_trailing_separator(word, &env.cwd, &env.home);
    match std::fs::symlink_metadata(&expanded) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let error = CliError::usage(format!(
                "path not found: {word}; did you mean '{suggestion}'?"
            ));
            // The user's own words, but never a control character on the
            // terminal: without a hint rather than with an escaped one.
            if args.iter().any(|a| a.chars().any(char::is_control)) {
                return Err(error);
            }
            let mut replaced = false;
            let meant: Vec<String> = args
                .iter()
                .map(|a| {
                    if !replaced && a == word {
                        replaced = true;
                        suggestion.to_string()
                    } else {
                        crate::core::paths::display::shell_quote(a)
                    }
                })
                .collect();
            Err(error.with_hint(format!("hint: goccia-trust {}", meant.join(" "))))
        }
        _ => Ok(()),
    }
}

/// No subcommand: the TUI when stdin and stdout are terminals, else `scan`
/// (with its `--policy`, so the verdicts are printed instead).
fn default_command(
    g: &GlobalArgs,
    review: &args::TuiArgs,
    interactive: bool,
    env: &Env,
    io: &mut Io<'_>,
) -> CliResult {
    let path = review.path.clone().unwrap_or_else(|| ".".to_string());
    if interactive {
        return crate::cli::tui::run(g, &path, review, env);
    }
    if let Some(rev) = &review.since {
        // Checked as the review would check it, then refused: `scan` has
        // no base to compare with, and `diff` is the one-shot comparison.
        crate::cli::tui::since_root(&path, rev, env)?;
        return Err(CliError::usage(format!(
            "--since opens the interactive review, which needs a terminal; without one, run: goccia-trust diff {}",
            crate::sanitize::clean(rev)
        )));
    }
    scan::run(
        g,
        &ScanArgs {
            paths: vec![path],
            policy: review.policy.clone(),
            policy_sha256: review.policy_sha256.clone(),
            ..ScanArgs::default()
        },
        env,
        io,
    )
}

/// Locates and reads the store for a command that will write it: a store, store
/// directory or link destination someone else can write (or owns), or a
/// `--trust-store` inside one of the `reviewed` trees, is refused with its
/// fix (exit 1) before anything is listed, asked or written.
pub fn load_store_for_write(
    g: &GlobalArgs,
    reviewed: &[String],
    env: &Env,
    io: &mut Io<'_>,
) -> Result<(StoreLocation, Store), CliError> {
    load_store_checked(g, reviewed, true, env, io)
}

/// Locates the store, judges who could have written it (refusing a writer,
/// warning a reader) and reads it.
pub fn load_store_checked(
    g: &GlobalArgs,
    reviewed: &[String],
    writes: bool,
    env: &Env,
    io: &mut Io<'_>,
) -> Result<(StoreLocation, Store), CliError> {
    let loc = locate_store(g.trust_store.as_deref(), env).map_err(CliError::failed)?;
    let issues = store_issues(&loc, reviewed, env);
    if writes && let Some(refused) = refusal(&issues) {
        return Err(CliError::failed(&refused.text));
    }
    print_store_warnings(&issues_text(&issues), io);
    let store = read_store(&loc.path).map_err(CliError::failed)?;
    Ok((loc, store))
}

/// Every ownership, mode and location issue of the store at `loc`, for
/// commands reviewing the `reviewed` paths (none for `list`).
pub fn store_issues(loc: &StoreLocation, reviewed: &[String], env: &Env) -> Vec<SafetyIssue> {
    let mut issues = check_store(loc, &User::current());
    issues.extend(store_in_reviewed_tree(loc, reviewed, env));
    issues
}

/// The texts of `issues`, as `storeWarnings` carries them.
pub fn issues_text(issues: &[SafetyIssue]) -> Vec<String> {
    issues.iter().map(|i| i.text.clone()).collect()
}

/// Store warnings for a command that reads the store: one `Warning: ` line
/// each on stderr, on every run, since every `trusted` it prints is only as
/// good as the store.
pub fn print_store_warnings(warnings: &[String], io: &mut Io<'_>) {
    for w in warnings {
        io.warn(w);
    }
}

/// A failed store write or lock (exit 1).
pub fn store_failure(e: &StoreError) -> CliError {
    CliError::failed(e)
}

/// `policy ...`: the store's own directory is always a denied root, so the
/// gate needs to know where the store is.
fn policy_command(
    g: &GlobalArgs,
    args: &policy::PolicyArgs,
    env: &Env,
    io: &mut Io<'_>,
) -> CliResult {
    let mut args = args.clone();
    args.store_dir = locate_store(g.trust_store.as_deref(), env)
        .ok()
        .map(|loc| loc.dir().to_path_buf());
    policy::run(&args, env, io)
}

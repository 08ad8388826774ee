//! The command line's entry: reads the process's arguments and streams,
//! parses them ([`dispatch`]), runs the one command they name, and prints
//! its error and maps it to the exit table ([`finish`]). The one module
//! that knows every command; no command or printer imports it.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use crate::cli::args::{self, Command, GlobalArgs, Invocation, ParseOutcome, ScanArgs};
use crate::cli::ctx::Ctx;
use crate::cli::error::{CliError, CliResult, ErrorJson};
use crate::cli::io::{Io, error_prefix};
use crate::cli::{
    check, complete, diff, generate, hook, ignore, inspect, json_out, list, policy, review,
    review_trust, scan, status, streams, terminal, trust, untrust,
};
use crate::core::env::Env;
use crate::core::exit;
use crate::sanitize::clean;
use crate::style::paint;

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
                    let _ = json_out::failure_document(&message, code)
                        .and_then(|doc| io.out.write_all(doc.as_bytes()));
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
            .write_all(json_out::failure_document(message, exit::USAGE)?.as_bytes())?;
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
            Command::Scan(a) => a.format == args::OutputFormat::Json,
            Command::Trust(a) => a.json,
            Command::Untrust(a) => a.json,
            Command::List(a) => a.json,
            Command::Check(a) => a.format == args::OutputFormat::Json,
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
        Invocation::Trust(g, t) => trust::run(&mut Ctx::new(env, &g, io), &t),
        Invocation::Untrust(g, u) => untrust::run(&mut Ctx::new(env, &g, io), &u),
        Invocation::ListTrusted(g) => {
            list::run(&mut Ctx::new(env, &g, io), &args::ListArgs::default())
        }
        Invocation::Default(g, review) => {
            default_command(&mut Ctx::new(env, &g, io), &review, interactive)
        }
        Invocation::Clap(cli) => run_command(
            &mut Ctx::new(env, &cli.globals, io),
            &cli.command,
            interactive,
        ),
    }
}

/// Runs one subcommand.
fn run_command(ctx: &mut Ctx<'_, '_>, command: &Command, interactive: bool) -> CliResult {
    match command {
        Command::Scan(a) => scan::run(ctx, a),
        Command::Trust(a) if a.reviewed_by.is_some() => review_trust::run(ctx, a),
        Command::Trust(a) => trust::run(ctx, a),
        Command::Untrust(a) => untrust::run(ctx, a),
        Command::Ignore(a) => ignore::run_ignore(ctx, a),
        Command::Unignore(a) => ignore::run_unignore(ctx, a),
        Command::List(a) => list::run(ctx, a),
        Command::Check(a) => check::run(ctx, a),
        Command::Inspect(a) => inspect::run(ctx, a),
        Command::Diff(a) => diff::run(ctx, a),
        Command::Policy(a) => policy::run(ctx, a),
        Command::Completions(a) => generate::run_completions(a, ctx.io),
        Command::Man(a) => generate::run_man(a, ctx.io),
        Command::Tui(a) => default_command(ctx, a, interactive),
        Command::Status(a) => status::run(ctx, a),
        Command::Hook(a) => hook::run(ctx, a),
        Command::Review(a) => review::run(ctx, a),
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
fn default_command(ctx: &mut Ctx<'_, '_>, review: &args::TuiArgs, interactive: bool) -> CliResult {
    let path = review.path.clone().unwrap_or_else(|| ".".to_string());
    if interactive {
        return crate::cli::tui::run(ctx.globals, &path, review, ctx.env);
    }
    if let Some(rev) = &review.since {
        // Checked as the review would check it, then refused: `scan` has
        // no base to compare with, and `diff` is the one-shot comparison.
        crate::cli::tui::since_root(&path, rev, ctx.env)?;
        return Err(CliError::usage(format!(
            "--since opens the interactive review, which needs a terminal; without one, run: goccia-trust diff {}",
            crate::sanitize::clean(rev)
        )));
    }
    if review.reviewed_by.is_some() {
        // Refused as the review would refuse it; `scan` shows no reviews.
        let store = crate::core::store::locate_store(ctx.globals.trust_store.as_deref(), ctx.env);
        crate::cli::tui::review_signers(&path, review, store.as_ref().ok(), ctx.env)?;
    }
    scan::run(
        ctx,
        &ScanArgs {
            paths: vec![path],
            policy: review.policy.clone(),
            policy_sha256: review.policy_sha256.clone(),
            ..ScanArgs::default()
        },
    )
}

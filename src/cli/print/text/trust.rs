//! `trust`'s result as text: GocciaScript's listing (docs/src/compatibility.md#the-trust-listing-prompt-and-confirmation) with our notes,
//! the prompt and the outcome lines; config text escaped where it is
//! written, the `(new)`/`(changed)` tags styled from the candidate's state.

use std::io::Write;

use rayon::prelude::*;

use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::cli::outcome::trust::{TrustEnd, TrustPrinter};
use crate::cli::print::text::provenance;
use crate::cli::terminal::Values;
use crate::core::env::Env;
use crate::core::paths::display::{count_config_files, display_path, shell_quote};
use crate::core::policy::Policy;
use crate::core::policy::{OperationDecision, RequestKind};
use crate::core::review::destination::with_destinations;
use crate::core::review::trust::outcome::{
    Gate, GateEnd, Judged, NothingToDo, TrustListing, TrustOutcome,
};
use crate::core::review::trust::{PlanError, TrustCandidate, TrustPlan};
use crate::core::review::value_diff::UNCHANGED_KEPT;
use crate::core::review::value_diff::render_text;
use crate::core::revision::review_provenance::Why;
use crate::core::store::Store;
use crate::style::paint::{STYLED, mark};
use crate::style::roles::verdict_role;
use crate::style::theme::Role;

/// Candidates whose listing text is made at once, on every thread, before
/// it is written.
const BATCH: usize = 1024;

/// Who reads the listing, and where it goes.
#[derive(Debug, Clone, Copy)]
pub struct Reader {
    /// A person answers a prompt.
    pub prompting: bool,
    /// The listing and prompt go to stderr.
    pub on_stderr: bool,
    /// The listing's stream is a terminal: a changed config is shown
    /// value by value (issue 30); a pipe or a file gets GocciaScript's
    /// lines.
    pub on_terminal: bool,
}

/// How a policy is named wherever it gates something: its path and the
/// SHA-256 of the bytes that were judged with.
pub fn policy_label(policy: &Policy) -> String {
    format!("{} (sha256 {})", policy.source, policy.sha256)
}

/// A plan that failed because paths could not be read: each is a warning,
/// before the error `outcome::trust::plan_failed` decides.
pub fn plan_failure(e: &PlanError, io: &mut Io<'_>) {
    // Each quotes paths and text from the tree under review.
    if let PlanError::Unreadable { items, .. } = e {
        for u in items {
            io.warn(format_args!("cannot read {}: {}", u.path, u.reason));
        }
    }
}

/// The configs left out as ignored, one line each on stderr (in every
/// format: a `--json` document lists them too).
pub fn left_out(listing: &TrustListing, env: &Env, io: &mut Io<'_>) -> std::io::Result<()> {
    for c in &listing.ignored {
        writeln!(
            io.err,
            "Left out (ignored; name the config file to trust it): {}",
            Values.text(&display_path(c.snapshot.key.as_str(), &env.cwd))
        )?;
    }
    Ok(())
}

/// `No config under … requests permissions`, the already-trusted lines, or
/// that everything was ignored; then the notes.
pub fn nothing_to_do(
    nothing: NothingToDo,
    listing: &TrustListing,
    io: &mut Io<'_>,
) -> std::io::Result<()> {
    let targets = Values.text(&listing.targets);
    match nothing {
        NothingToDo::AllIgnored(n) => writeln!(
            io.out,
            "Nothing to trust under {targets}: {} ignored (unignore, or name a config file to trust it)",
            count_config_files(n)
        ),
        NothingToDo::NoRequest => {
            writeln!(io.out, "No config under {targets} requests permissions")
        }
        NothingToDo::AlreadyTrusted(1) => {
            writeln!(io.out, "The config file under {targets} is already trusted")
        }
        NothingToDo::AlreadyTrusted(n) => writeln!(
            io.out,
            "All {n} config files under {targets} are already trusted"
        ),
    }?;
    notes(&listing.plan, io)
}

/// `trust`'s listing and end as text: GocciaScript's listing where the
/// reader is, then what was trusted.
pub struct Text<'a> {
    pub reader: &'a Reader,
    /// `--why`: who changed each listed changed config.
    pub why: bool,
}

impl TrustPrinter for Text<'_> {
    fn listing(
        &mut self,
        listing_: &TrustListing,
        why: &Why,
        env: &Env,
        io: &mut Io<'_>,
    ) -> Result<(), CliError> {
        Ok(listing(listing_, (why, self.why), self.reader, env, io)?)
    }

    fn end(
        &mut self,
        listing: &TrustListing,
        _: &Why,
        end: &TrustEnd<'_>,
        _: &Env,
        io: &mut Io<'_>,
    ) -> Result<(), CliError> {
        match end {
            TrustEnd::Nothing(nothing) => nothing_to_do(*nothing, listing, io)?,
            TrustEnd::DryRun => dry_run(listing.plan.candidates.len(), &listing.loc.path, io)?,
            TrustEnd::Declined => declined(io)?,
            TrustEnd::Recorded(o) => recorded(o, &listing.loc.path, io)?,
        }
        Ok(())
    }
}

/// The listing, where the reader gets it: on a terminal a changed config
/// value by value, else GocciaScript's lines.
/// `who` is who changed each config and whether it is `--why`'s full
/// block (else only each widening value's commit and author, as the
/// prompt names them on a terminal).
pub fn listing(
    listing: &TrustListing,
    who: (&Why, bool),
    reader: &Reader,
    env: &Env,
    io: &mut Io<'_>,
) -> std::io::Result<()> {
    let by_value = reader.on_terminal.then_some(&listing.store);
    let w: &mut dyn Write = if reader.on_stderr { io.err } else { io.out };
    write_listing(listing, who, env, by_value, w)
}

/// The listing of docs/src/compatibility.md#the-trust-listing-prompt-and-confirmation, ending with its always-present empty line, each
/// scope that leads elsewhere followed by its destination; config text
/// escaped. With `by_value` (the store, for a listing a person reads on a
/// terminal), a changed config shows its values against the stored block,
/// runs of unchanged ones collapsed, as `scan` and the TUI show them
/// (issue 30); without, GocciaScript's lines, byte for byte.
fn write_listing(
    listing: &TrustListing,
    (why, full): (&Why, bool),
    env: &Env,
    by_value: Option<&Store>,
    w: &mut dyn Write,
) -> std::io::Result<()> {
    let plan = &listing.plan;
    writeln!(
        w,
        "Permission requests under {}:",
        Values.text(&listing.targets)
    )?;
    // Each config's lines are made on every thread and written in order,
    // a batch at a time: a listing of 10,000 configs is most of what
    // `--trust` does alone, and its text is never held whole.
    for batch in plan.candidates.chunks(BATCH) {
        let shown: Vec<String> = batch
            .par_iter()
            .map(|c| {
                let mut text = candidate(c, env, by_value);
                // `--why`: who changed it, below its lines; on a terminal,
                // each widening value's commit and author.
                match why.get(c.snapshot.key.as_str()) {
                    Some(p) if full => text.push_str(&provenance::block(p, "    ")),
                    Some(p) => text.push_str(&provenance::origins_only(p, "    ")),
                    None => {}
                }
                text
            })
            .collect();
        for text in &shown {
            w.write_all(text.as_bytes())?;
        }
    }
    listing_end(plan, w)
}

/// One candidate of the listing: its path and tag, then its lines (or its
/// values, against the store's entry).
fn candidate(c: &TrustCandidate, env: &Env, by_value: Option<&Store>) -> String {
    let values = Values;
    let mut text = format!(
        "\n  {} {}\n",
        values.text(&display_path(c.snapshot.key.as_str(), &env.cwd)),
        tag(c.changed)
    );
    if let Some(store) = by_value {
        let items = c.values(store.get(c.snapshot.key.as_str()));
        if !items.is_empty() {
            text.push_str(&render_text(
                &items,
                UNCHANGED_KEPT,
                &|s| values.text(s).into_owned(),
                STYLED,
            ));
            return text;
        }
    }
    let lines = values.lines(&c.lines());
    let targets = values.pairs(c.snapshot.targets.as_pairs());
    for line in with_destinations(&lines, &targets) {
        text.push_str(&line.render_styled(STYLED));
        text.push('\n');
    }
    text
}

/// `(changed)` or `(new)`, styled as the state.
pub fn tag(changed: bool) -> String {
    if changed {
        mark(Role::Changed, "(changed)")
    } else {
        mark(Role::Untrusted, "(new)")
    }
}

/// The end of every `--trust` listing: the notes (links not followed,
/// shadowed and missing configs) and the skipped count, when any, then the
/// empty line that always precedes the ending (docs/src/compatibility.md#the-trust-listing-prompt-and-confirmation steps 3 and 4).
pub fn listing_end(plan: &TrustPlan, w: &mut dyn Write) -> std::io::Result<()> {
    let values = Values;
    if !plan.notes.is_empty() {
        writeln!(w)?;
        for line in &plan.notes {
            writeln!(w, "  {}", values.text(line))?;
        }
    }
    if plan.unchanged > 0 {
        writeln!(
            w,
            "\n  {} more already trusted and unchanged.",
            plan.unchanged
        )?;
    }
    writeln!(w)
}

/// The notes of a listing that ends before it lists anything: our
/// addition to GocciaScript's lines, so nothing behind them passes unseen.
fn notes(plan: &TrustPlan, io: &mut Io<'_>) -> std::io::Result<()> {
    let values = Values;
    for line in &plan.notes {
        writeln!(io.out, "{}", values.text(line))?;
    }
    Ok(())
}

/// `Dry run: N would be trusted in STORE; nothing was written`.
pub fn dry_run(count: usize, store: &str, io: &mut Io<'_>) -> std::io::Result<()> {
    writeln!(
        io.out,
        "Dry run: {} would be trusted in {}; nothing was written",
        count_config_files(count),
        Values.text(store)
    )
}

/// `Trust N config files? [y/N] `, flushed.
pub fn prompt(count: usize, w: &mut dyn Write) -> std::io::Result<()> {
    write!(w, "Trust {}? [y/N] ", count_config_files(count))?;
    w.flush()
}

/// A prompt answered no, or nothing the gate allowed.
pub fn declined(io: &mut Io<'_>) -> std::io::Result<()> {
    writeln!(io.out, "Nothing was trusted.")
}

/// One `Refused:` line on stderr for each config that changed since it was
/// listed (in every format).
pub fn refused(outcome: &TrustOutcome, io: &mut Io<'_>) {
    for r in &outcome.commit.refused {
        let path = Values.text(&r.display_path).into_owned();
        let _ = writeln!(io.err, "Refused: {path} changed since shown; not trusted");
    }
}

/// `Trusted N … in STORE` for what was recorded.
pub fn recorded(outcome: &TrustOutcome, store: &str, io: &mut Io<'_>) -> std::io::Result<()> {
    if outcome.commit.recorded > 0 {
        writeln!(
            io.out,
            "Trusted {} in {}",
            count_config_files(outcome.commit.recorded),
            Values.text(store)
        )
    } else {
        declined(io)
    }
}

/// A gated trust's listing: each config with its verdict and request lines,
/// then the listing's end.
pub fn gate_listing(
    gate: &Gate<'_>,
    (listing, why): (&TrustListing, &Why),
    verbose: bool,
    env: &Env,
    io: &mut Io<'_>,
) -> std::io::Result<()> {
    writeln!(
        io.out,
        "Permission requests under {}, judged by policy {}:",
        Values.text(&listing.targets),
        Values.text(&policy_label(&gate.policy))
    )?;
    for j in &gate.judged {
        judged(j, verbose, env, io)?;
        // `--why`: who changed it, below its requests.
        if let Some(p) = why.get(j.snapshot.key.as_str()) {
            io.out.write_all(provenance::block(p, "    ").as_bytes())?;
        }
    }
    listing_end(&listing.plan, io.out)
}

fn judged(j: &Judged<'_>, verbose: bool, env: &Env, io: &mut Io<'_>) -> std::io::Result<()> {
    let shown = display_path(j.snapshot.key.as_str(), &env.cwd);
    writeln!(
        io.out,
        "\n  {} {}: {}",
        Values.text(&shown),
        tag(j.changed),
        mark(verdict_role(j.verdict), j.verdict.as_str())
    )?;
    if let Some(reason) = &j.expect_refusal {
        writeln!(io.out, "    {}", Values.text(reason))?;
    }
    for line in request_lines(&j.decision.operations, verbose) {
        writeln!(io.out, "    {}", Values.text(&line))?;
    }
    Ok(())
}

/// A config's request lines: one per group of requests sharing kind, risk,
/// class, verdict and reason. A group of up to three names its values
/// (`allow-read ./a, ./b: R0 …`); a larger one counts them (`allow-net: 36
/// hosts: R2 - NEEDS_AUTH — …`), as GocciaScript's hand-off names a
/// directory for more than three configs. With `verbose`, every request.
pub(crate) fn request_lines(ops: &[OperationDecision], verbose: bool) -> Vec<String> {
    if verbose {
        return ops.iter().map(OperationDecision::line).collect();
    }
    let mut groups: Vec<Vec<&OperationDecision>> = Vec::new();
    for o in ops {
        let same = |g: &&mut Vec<&OperationDecision>| {
            g[0].operation.kind == o.operation.kind && g[0].verdict_shown() == o.verdict_shown()
        };
        match groups.iter_mut().find(same) {
            Some(g) => g.push(o),
            None => groups.push(vec![o]),
        }
    }
    groups.into_iter().map(|g| group_line(&g)).collect()
}

/// One group of requests (see [`request_lines`]).
fn group_line(g: &[&OperationDecision]) -> String {
    let first = g[0];
    let kind = first.operation.kind;
    if g.len() <= 3 {
        let values: Vec<String> = g.iter().map(|o| o.value_shown()).collect();
        return format!(
            "{} {}: {}",
            kind.name(),
            values.join(", "),
            first.verdict_shown()
        );
    }
    let noun = match kind {
        RequestKind::AllowNet | RequestKind::AllowNetPrivate => "hosts",
        RequestKind::AllowImportGithub => "specifiers",
        k if k.is_path() => "paths",
        _ => "requests",
    };
    format!(
        "{}: {} {noun}: {}",
        kind.name(),
        g.len(),
        first.verdict_shown()
    )
}

/// The end of a gated trust: the dry run's count, what was recorded, or
/// that nothing was; then the hand-off of what needs a person, and what
/// was denied or refused.
pub fn gate_end(
    end: &GateEnd,
    gate: &Gate<'_>,
    listing: &TrustListing,
    trust_store: Option<&str>,
    env: &Env,
    io: &mut Io<'_>,
) -> std::io::Result<()> {
    let store = &listing.loc.path;
    if listing.dry_run {
        dry_run(gate.allowed().count(), store, io)?;
    } else if let Some(o) = &end.outcome {
        recorded(o, store, io)?;
    } else {
        declined(io)?;
    }
    if !end.needs.is_empty() {
        hand_off(end, trust_store, env, io)?;
    }
    if end.denied > 0 {
        writeln!(
            io.out,
            "{} denied by the policy; not trusted",
            count_config_files(end.denied)
        )?;
    }
    if end.refused > 0 {
        writeln!(
            io.out,
            "{} with a block sha256 not among --expect; not trusted",
            count_config_files(end.refused)
        )?;
    }
    Ok(())
}

/// `N need authorization; a person reviews and trusts them with:` and the
/// command, every part shell-quoted.
fn hand_off(
    end: &GateEnd,
    trust_store: Option<&str>,
    env: &Env,
    io: &mut Io<'_>,
) -> std::io::Result<()> {
    let mut cmd = vec!["goccia-trust".to_string()];
    if let Some(typed) = trust_store {
        cmd.push(shell_quote(&format!(
            "--trust-store={}",
            Values.text(typed)
        )));
    }
    match &end.hand_off {
        Some(dir) => {
            cmd.push("--trust".into());
            cmd.push(shell_quote(&Values.text(dir)));
        }
        None => {
            for key in &end.needs {
                cmd.push("--trust".into());
                cmd.push(shell_quote(&Values.text(&display_path(key, &env.cwd))));
            }
        }
    }
    let n = end.needs.len();
    writeln!(
        io.out,
        "{} need{} authorization; a person reviews and trusts {} with:\n  {}",
        count_config_files(n),
        if n == 1 { "s" } else { "" },
        if n == 1 { "it" } else { "them" },
        cmd.join(" ")
    )
}

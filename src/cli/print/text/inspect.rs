//! `inspect`'s result as text: the key, format, files, block and hash, the
//! state, the requests, a changed config's values (on a terminal) and where
//! each scope leads. Every value comes from the config or its path, and is
//! escaped where it is written.

use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::cli::print::text::provenance;
use crate::cli::terminal::Values;
use crate::cli::walk::write_warnings;
use crate::core::review::results::InspectResult;
use crate::core::review::value_diff::render_text;
use crate::core::revision::review_provenance::Provenance;
use crate::style::paint::{STYLED, mark};
use crate::style::roles::state_role;
use crate::style::theme::Role;

pub fn print(
    result: &InspectResult,
    who: Option<&Provenance>,
    io: &mut Io<'_>,
) -> Result<(), CliError> {
    write_warnings(&result.store_warnings, io);
    let mut out = String::new();
    header(result, &mut out);
    requests(result, &mut out);
    // On a terminal, a changed config's values one by one (issue 12),
    // every unchanged value shown: inspect shows the config whole.
    if io.escaping.stdout_is_terminal() {
        changes(result, &mut out);
    }
    if let Some(p) = who {
        out.push_str("Provenance:\n");
        out.push_str(&provenance::block(p, "    "));
    }
    targets(result, &mut out);
    io.out.write_all(out.as_bytes())?;
    Ok(())
}

/// Key, format, files, block, hash, state, what shadows it, when it was
/// trusted and the store's problem.
fn header(result: &InspectResult, out: &mut String) {
    let v = Values;
    let snapshot = &result.snapshot;
    out.push_str(&format!("Key:     {}\n", v.text(result.key.as_str())));
    out.push_str(&format!("Format:  {}\n", snapshot.format()));
    for (i, f) in snapshot.files.iter().enumerate() {
        let label = if i == 0 { "Files:  " } else { "        " };
        out.push_str(&format!("{label} {}\n", v.text(f)));
    }
    out.push_str(&format!("Block:   {}\n", v.text(snapshot.block.as_str())));
    out.push_str(&format!("SHA-256: {}\n", snapshot.sha256));
    let state = result.comparison.state;
    out.push_str(&format!(
        "State:   {}\n",
        mark(state_role(state), state.label())
    ));
    if let Some(by) = &result.shadowed {
        out.push_str(&format!(
            "Shadowed: by {}: GocciaScript reads that file here, never this one\n",
            v.text(by)
        ));
    }
    if let Some(s) = &result.stored {
        out.push_str(&format!(
            "Trusted: {} by {}\n",
            v.text(&s.trusted_at),
            v.text(&s.trusted_by)
        ));
    }
    if let Some(problem) = &result.store_error {
        out.push_str(&format!("Store:   {}\n", v.text(problem)));
    }
}

/// The config's lines, against the stored entry.
fn requests(result: &InspectResult, out: &mut String) {
    out.push_str("Requests:\n");
    if result.comparison.lines.is_empty() {
        out.push_str("    (none)\n");
    }
    for line in &Values.lines(&result.comparison.lines) {
        out.push_str(&format!("{}\n", line.render_styled(STYLED)));
    }
}

/// A changed config's values one by one.
fn changes(result: &InspectResult, out: &mut String) {
    let Some(values) = &result.changes else {
        return;
    };
    let v = Values;
    out.push_str("Changes:\n");
    out.push_str(&render_text(
        values,
        usize::MAX,
        &|s| v.text(s).into_owned(),
        STYLED,
    ));
}

/// Where each scope leads now and, when it led elsewhere when trusted,
/// where that was (issue 30: a re-pointed link shows both ends).
fn targets(result: &InspectResult, out: &mut String) {
    let v = Values;
    let targets = &result.snapshot.targets;
    let recorded: &[(std::sync::Arc<str>, std::sync::Arc<str>)] =
        result.stored.as_ref().map(|s| &*s.targets).unwrap_or(&[]);
    let gone: Vec<&(std::sync::Arc<str>, std::sync::Arc<str>)> = recorded
        .iter()
        .filter(|(scope, _)| !targets.iter().any(|(s, _)| s == &**scope))
        .collect();
    if targets.is_empty() && gone.is_empty() {
        return;
    }
    out.push_str("Targets:\n");
    for (scope, target) in targets.iter() {
        let was = recorded
            .iter()
            .find(|(s, _)| **s == *scope)
            .map(|(_, t)| &**t)
            .filter(|t| *t != target);
        match was {
            Some(was) => out.push_str(&format!(
                "    {} -> {} {}\n",
                v.text(scope),
                v.text(target),
                mark(
                    Role::Changed,
                    &format!("(was {} when trusted)", v.text(was))
                )
            )),
            None => out.push_str(&format!("    {} -> {}\n", v.text(scope), v.text(target))),
        }
    }
    for (scope, was) in gone {
        out.push_str(&format!(
            "    {} not requested now (was {} when trusted)\n",
            v.text(scope),
            v.text(was)
        ));
    }
}

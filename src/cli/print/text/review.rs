//! `review list`, `review verify` and `review sign` as text. Every
//! principal, note, path and reason comes from the repository: each line is
//! escaped whole.

use crate::cli::io::Io;
use crate::cli::outcome::review::{ReviewReport, SignOutcome, Verb};
use crate::cli::terminal::Values;

pub fn report(r: &ReviewReport, io: &mut Io<'_>) -> std::io::Result<()> {
    for w in &r.warnings {
        io.warn(w);
    }
    let values = Values;
    for note in &r.files {
        for line in &note.lines {
            let text = format!("{}: {line}", note.file);
            writeln!(io.out, "{}", values.text(&text))?;
        }
    }
    for c in &r.configs {
        match r.verb {
            Verb::Verify => {
                let text = format!("{}  {}", c.shown, r.summary(c));
                writeln!(io.out, "{}", values.text(&text))?;
                for checked in c.not_counted() {
                    writeln!(io.out, "  {}", values.text(&checked.text))?;
                }
            }
            Verb::List => {
                if let Some(problem) = &c.problem {
                    let text = format!("{}  {problem}", c.shown);
                    writeln!(io.out, "{}", values.text(&text))?;
                }
                for checked in &c.checked {
                    let text = format!("{}  {}", c.shown, checked.text);
                    writeln!(io.out, "{}", values.text(&text))?;
                }
            }
        }
    }
    Ok(())
}

/// The question before signing, where the listing went.
pub fn ask(
    count: usize,
    principal: &str,
    key: &str,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let what = if count == 1 { "review" } else { "reviews" };
    let text = format!("Sign {count} {what} as {principal} with {key}? [y/N] ");
    write!(out, "{}", Values.text(&text))?;
    out.flush()
}

/// A config about to be signed: its path and requests in portable form.
pub fn to_sign(
    path: &str,
    document: &str,
    outside: &[String],
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let values = Values;
    writeln!(out, "{}", values.text(path))?;
    writeln!(out, "  {}", values.text(document))?;
    for o in outside {
        let text = format!(
            "  {o} (outside the repository: this review holds only where that path is the same)"
        );
        writeln!(out, "{}", values.text(&text))?;
    }
    Ok(())
}

pub fn signed(o: &SignOutcome, io: &mut Io<'_>) -> std::io::Result<()> {
    for w in &o.warnings {
        io.warn(w);
    }
    for s in &o.signed {
        writeln!(io.out, "{}", Values.text(&s.line()))?;
    }
    Ok(())
}

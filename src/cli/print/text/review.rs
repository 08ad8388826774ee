//! `review list`, `review verify` and `review sign` as text. Every
//! principal, note, path and reason comes from the repository: each line is
//! escaped whole.

use crate::cli::io::Io;
use crate::cli::outcome::review::{ReviewReport, SignOutcome, Verb};
use crate::cli::terminal::Values;
use crate::core::paths::display::count_config_files;

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
                if let Some(problem) = c.problem() {
                    let text = format!("{}  {problem}", c.shown);
                    writeln!(io.out, "{}", values.text(&text))?;
                }
                for checked in c.checked() {
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

/// `trust --reviewed-by`: one line a config (`trusted  a/goccia.json
/// reviewed by …`, `left  b/goccia.json  1 of 2 reviews: …`), under each
/// the records that did not count, then the summary line. With `--policy`
/// (`gate`), a first line names the policy, the requests of a config it
/// left out are under it, and the configs it denied are counted last.
pub fn review_trust(
    t: &crate::cli::outcome::review::ReviewTrust,
    gate: Option<&crate::core::review::trust::outcome::Gate<'_>>,
    verbose: bool,
    io: &mut Io<'_>,
) -> std::io::Result<()> {
    if let Some(g) = gate {
        let label = crate::cli::print::text::trust::policy_label(&g.policy);
        writeln!(io.out, "Judged by policy {}:", Values.text(&label))?;
    }
    for note in &t.files {
        for line in &note.lines {
            writeln!(io.out, "{}: {}", Values.text(&note.file), Values.text(line))?;
        }
    }
    let verb = if t.dry_run { "would trust" } else { "trusted" };
    for (i, (c, trusted)) in t.configs.iter().enumerate() {
        let word = if *trusted { verb } else { "left" };
        writeln!(
            io.out,
            "{word}  {}  {}",
            Values.text(&c.shown),
            Values.text(&t.reason(i))
        )?;
        if let (Some(g), Some(_)) = (gate, t.gate_left(i)) {
            let ops = &g.judged[i].decision.operations;
            for line in crate::cli::print::text::trust::request_lines(ops, verbose) {
                writeln!(io.out, "    {}", Values.text(&line))?;
            }
        }
        for r in c.not_counted() {
            writeln!(io.out, "    {}", Values.text(&r.text))?;
        }
    }
    summary_line(t, io)?;
    let (denied, refused) = t.denied_counts();
    if denied > 0 {
        writeln!(
            io.out,
            "{} denied by the policy; not trusted",
            count_config_files(denied)
        )?;
    }
    if refused > 0 {
        writeln!(
            io.out,
            "{} with a block sha256 not among --expect; not trusted",
            count_config_files(refused)
        )?;
    }
    Ok(())
}

/// `Trusted 1 config file by review in <store>; 2 left for a person to
/// review: goccia-trust trust b c`.
fn summary_line(
    t: &crate::cli::outcome::review::ReviewTrust,
    io: &mut Io<'_>,
) -> std::io::Result<()> {
    let n = t.trusted();
    let files = if n == 1 {
        "config file"
    } else {
        "config files"
    };
    let head = if t.dry_run { "Would trust" } else { "Trusted" };
    write!(
        io.out,
        "{head} {n} {files} by review in {}",
        Values.text(&t.store)
    )?;
    let left: Vec<String> = t
        .left()
        .map(|c| crate::core::paths::display::shell_quote(&c.shown))
        .collect();
    if !left.is_empty() {
        write!(
            io.out,
            "; {} left for a person to review: goccia-trust trust {}",
            left.len(),
            Values.text(&left.join(" "))
        )?;
    }
    writeln!(io.out)
}

/// `inspect`'s `Reviews:` section: the portable digest, then one status
/// line per record (and the reviews file's own problems).
pub fn one_config(
    r: &crate::cli::outcome::review::OneConfig,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    writeln!(out, "Reviews: {}", Values.text(&r.file))?;
    if let Some(d) = r.reviews.digest() {
        writeln!(out, "  Digest: {d}")?;
    }
    for line in r.problems() {
        writeln!(out, "  {}", Values.text(&line))?;
    }
    if r.reviews.checked().is_empty() {
        writeln!(out, "  no review of this config")?;
    }
    for c in r.reviews.checked() {
        writeln!(out, "  {}", Values.text(&c.text))?;
    }
    Ok(())
}

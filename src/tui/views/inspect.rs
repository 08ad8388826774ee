//! Inspect: the raw source of every file of the extends chain, then the
//! normalized block exactly as hashed, its SHA-256 and the targets.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::sanitize::{clean, clean_lines};
use crate::style::theme::{Role, Theme};
use crate::tui::backend::InspectData;
use crate::tui::state::InspectView;
use crate::tui::views::panel::{boxed, render_scrolled};
use crate::tui::views::text::{RLine, ours, untrusted, wrap};

pub fn content(iv: &InspectView, width: usize) -> Vec<RLine> {
    let mut out: Vec<RLine> = Vec::new();
    let data = match &iv.data {
        None => return vec![vec![ours(Role::Muted, "reading…")]],
        Some(Err(e)) => {
            return wrap(
                &[vec![
                    ours(Role::Error, "cannot inspect: "),
                    untrusted(Role::Error, e),
                ]],
                width,
            );
        }
        Some(Ok(d)) => d,
    };
    out.extend(file_lines(data));
    out.push(vec![ours(Role::Title, "── normalized block")]);
    match (&data.block, &data.sha256) {
        (Some(block), Some(hash)) => {
            out.push(vec![untrusted(Role::Normal, block)]);
            out.push(vec![
                ours(Role::Muted, "sha256 "),
                untrusted(Role::Normal, hash),
            ]);
        }
        _ => out.push(vec![ours(Role::Muted, "none (the config does not load)")]),
    }
    out.extend(target_lines(iv, data));
    if let Some(e) = &data.error {
        out.push(vec![]);
        for l in e.split('\n') {
            out.push(vec![untrusted(Role::Error, l)]);
        }
    }
    wrap(&out, width)
}

/// Each file of the extends chain, numbered, with its source line by line.
fn file_lines(data: &InspectData) -> Vec<RLine> {
    let mut out: Vec<RLine> = Vec::new();
    let n = data.files.len();
    for (i, f) in data.files.iter().enumerate() {
        let what = if i == 0 { "config" } else { "extends" };
        out.push(vec![
            ours(Role::Title, format!("── {}/{n} {what}: ", i + 1)),
            untrusted(Role::Title, &f.path),
        ]);
        match &f.source {
            Ok(src) => {
                let lines = clean_lines(src.strip_suffix('\n').unwrap_or(src));
                let digits = lines.len().to_string().len();
                for (no, l) in lines.into_iter().enumerate() {
                    out.push(vec![
                        ours(Role::Muted, format!("{:>digits$} │ ", no + 1)),
                        ours(Role::Normal, l),
                    ]);
                }
            }
            Err(e) => out.push(vec![untrusted(Role::Error, &format!("cannot read: {e}"))]),
        }
        out.push(vec![]);
    }
    out
}

/// Where each scope leads now, and where it led when trusted when that
/// was elsewhere (issue 30): a re-pointed link shows both ends.
fn target_lines(iv: &InspectView, data: &InspectData) -> Vec<RLine> {
    let mut out: Vec<RLine> = Vec::new();
    let gone: Vec<&(String, String)> = iv
        .recorded
        .iter()
        .filter(|(scope, _)| !data.targets.iter().any(|(s, _)| s == scope))
        .collect();
    if !data.targets.is_empty() || !gone.is_empty() {
        out.push(vec![]);
        out.push(vec![ours(Role::Title, "── targets (scope -> now)")]);
        for (scope, target) in &data.targets {
            let was = iv
                .recorded
                .iter()
                .find(|(s, _)| s == scope)
                .map(|(_, t)| t)
                .filter(|t| *t != target);
            match was {
                Some(was) => out.push(vec![
                    ours(Role::Changed, "~ "),
                    untrusted(Role::Changed, &format!("{scope} -> {target}")),
                    ours(Role::Changed, " (was "),
                    untrusted(Role::Changed, was),
                    ours(Role::Changed, " when trusted)"),
                ]),
                None => out.push(vec![untrusted(
                    Role::Normal,
                    &format!("{scope} -> {target}"),
                )]),
            }
        }
        for (scope, was) in gone {
            out.push(vec![
                untrusted(Role::Muted, scope),
                ours(Role::Muted, " not requested now (was "),
                untrusted(Role::Muted, was),
                ours(Role::Muted, " when trusted)"),
            ]);
        }
    }
    out
}

pub fn render(iv: &InspectView, theme: &Theme, frame: &mut Frame, body: Rect) {
    let lines = content(iv, body.width.saturating_sub(2) as usize);
    let title = Line::from(format!(" Inspect {} ", clean(&iv.display_path)));
    render_scrolled(
        &lines,
        iv.scroll,
        boxed(title, theme),
        theme,
        frame,
        body,
        true,
    );
}

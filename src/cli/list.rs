//! `list [--json]`, also spelled `--list-trusted`: every store entry with
//! `(changed)`, `(missing)` or `(unreadable: …)` (goccia-reference.md §12.4).

use serde::Serialize;

use crate::cli::args::{GlobalArgs, ListArgs};
use crate::cli::json_out::{JsonEntry, to_json};
use crate::cli::{Io, issues_text, load_store, store_issues};
use crate::core::env::Env;
use crate::core::exit;
use crate::core::review::listing::{list_entries, render_list_trusted};

#[derive(Serialize)]
struct JsonList {
    store: String,
    entries: Vec<JsonEntry>,
    #[serde(rename = "storeWarnings", skip_serializing_if = "Vec::is_empty")]
    store_warnings: Vec<String>,
}

pub fn run(g: &GlobalArgs, args: &ListArgs, env: &Env, io: &mut Io<'_>) -> u8 {
    let (loc, store) = match load_store(g, env, io) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let reports = list_entries(&store, env);
    let text = if args.json {
        to_json(&JsonList {
            store: loc.path.clone(),
            entries: reports.iter().map(JsonEntry::from).collect(),
            // Already on stderr (`load_store`); JSON readers see them here.
            store_warnings: issues_text(&store_issues(&loc, &[], env)),
        })
    } else {
        let values = io.escaping.out();
        let shown: Vec<_> = reports
            .iter()
            .map(|e| values.entry(e).into_owned())
            .collect();
        render_list_trusted(&loc.path, &shown)
    };
    let _ = io.out.write_all(text.as_bytes());
    exit::SUCCESS
}

//! `untrust`'s result as json (schemas/untrust.schema.json).

use serde::Serialize;

use crate::cli::io::Io;
use crate::cli::json_out::{Schema, to_json};
use crate::core::env::Env;
use crate::core::paths::display::display_path;
use crate::core::review::trust::outcome::{Removed, Untrusted};

/// `untrust --json`: the entries removed, and what each argument matched.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonUntrust {
    pub schema: Schema,
    pub store: String,
    /// `untrust --missing`: entries whose config file no longer exists.
    pub missing: bool,
    pub removed: Vec<JsonRemoved>,
    /// Per PATH argument (empty with `--missing`): the key prefix it
    /// removes entries at or under, and how many went.
    pub paths: Vec<JsonUntrustPath>,
}

#[derive(Serialize)]
pub struct JsonRemoved {
    pub key: String,
    pub path: String,
}

#[derive(Serialize)]
pub struct JsonUntrustPath {
    pub path: String,
    pub root: String,
    pub removed: usize,
}

pub fn print(untrusted: &Untrusted, env: &Env, io: &mut Io<'_>) -> std::io::Result<()> {
    let removed = |keys: &mut dyn Iterator<Item = &String>| -> Vec<JsonRemoved> {
        keys.map(|k| JsonRemoved {
            key: k.clone(),
            path: display_path(k, &env.cwd),
        })
        .collect()
    };
    let doc = match &untrusted.removed {
        Removed::Missing(gone) => JsonUntrust {
            schema: Schema::default(),
            store: untrusted.store.clone(),
            missing: true,
            removed: removed(&mut gone.iter()),
            paths: Vec::new(),
        },
        Removed::Paths(paths) => JsonUntrust {
            schema: Schema::default(),
            store: untrusted.store.clone(),
            missing: false,
            removed: removed(&mut paths.iter().flat_map(|p| &p.removed)),
            paths: paths
                .iter()
                .map(|p| JsonUntrustPath {
                    path: p.path.clone(),
                    root: p.root.clone(),
                    removed: p.removed.len(),
                })
                .collect(),
        },
    };
    io.out.write_all(to_json(&doc)?.as_bytes())
}

//! `extends` chains against a model: random graphs of config files in the
//! three formats, each extending another file, nothing, a missing file, a
//! directory or a non-path. The loader must give exactly the chain the
//! model walks (entries child first) or the model's error: never loop,
//! never read past GocciaScript's depth.

use std::path::Path;

use proptest::prelude::*;

use crate::fuzz::api;
use crate::fuzz::harness::{self, bounded};

#[derive(Debug, Clone)]
enum Link {
    None,
    /// Extends file `j`, spelled relatively or absolutely.
    To(usize, Spelling),
    Missing,
    Directory,
    NotAPath,
}

#[derive(Debug, Clone, Copy)]
enum Spelling {
    Relative,
    /// With `./`, `//` and a `..` detour.
    Winding,
    Absolute,
}

#[derive(Debug, Clone)]
struct File {
    ext: &'static str,
    link: Link,
}

fn graph() -> impl Strategy<Value = Vec<File>> {
    (1usize..16).prop_flat_map(|n| {
        let spelling = prop_oneof![
            Just(Spelling::Relative),
            Just(Spelling::Winding),
            Just(Spelling::Absolute)
        ];
        let link = prop_oneof![
            2 => Just(Link::None),
            // Mostly forward, so chains longer than the limit happen.
            6 => (0..n, spelling).prop_map(|(j, s)| Link::To(j, s)),
            1 => Just(Link::Missing),
            1 => Just(Link::Directory),
            1 => Just(Link::NotAPath),
        ];
        let file = (
            proptest::sample::select(&["json", "json5", "toml"][..]),
            link,
        )
            .prop_map(|(ext, link)| File { ext, link });
        prop::collection::vec(file, n)
    })
}

fn name(i: usize, files: &[File]) -> String {
    format!("d{i}/goccia.{}", files[i].ext)
}

fn write_graph(root: &Path, files: &[File]) {
    for (i, file) in files.iter().enumerate() {
        let extends = match &file.link {
            Link::None => None,
            Link::To(j, Spelling::Relative) => Some(format!("../{}", name(*j, files))),
            Link::To(j, Spelling::Winding) => Some(format!(".//../d{i}/./..//{}", name(*j, files))),
            Link::To(j, Spelling::Absolute) => {
                Some(format!("{}/{}", root.display(), name(*j, files)))
            }
            Link::Missing => Some("../nowhere/goccia.json".to_string()),
            Link::Directory => Some("../d0".to_string()),
            Link::NotAPath => None,
        };
        let marker = format!("k{i}");
        let text = match (file.ext, &file.link, extends) {
            ("toml", Link::NotAPath, _) => format!("{marker} = \"v\"\nextends = 7\n"),
            ("toml", _, Some(e)) => format!("{marker} = \"v\"\nextends = {e:?}\n"),
            ("toml", _, None) => format!("{marker} = \"v\"\n"),
            (_, Link::NotAPath, _) => format!("{{\"{marker}\": \"v\", \"extends\": [\"x\"]}}"),
            (_, _, Some(e)) => format!("{{\"{marker}\": \"v\", \"extends\": {e:?}}}"),
            (_, _, None) => format!("{{\"{marker}\": \"v\"}}"),
        };
        let path = root.join(name(i, files));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// docs/src/compatibility.md#extends-chains: the file given is depth 0, the file reached at
/// depth 11 fails; written here, not taken from the code under test.
const MAX_EXTENDS_DEPTH: usize = 10;

/// What GocciaScript does with the graph, starting at file 0: the chain of
/// files, or the error message.
fn model(root: &Path, files: &[File]) -> Result<Vec<usize>, String> {
    let path = |i: usize| format!("{}/{}", root.display(), name(i, files));
    let mut chain = Vec::new();
    let mut current = 0;
    loop {
        if chain.len() > MAX_EXTENDS_DEPTH {
            return Err(format!(
                "Circular or too-deeply-nested extends in config: {}",
                path(current)
            ));
        }
        chain.push(current);
        match &files[current].link {
            Link::None => return Ok(chain),
            Link::To(j, _) => current = *j,
            Link::Missing => {
                return Err(format!(
                    "Config extends target not found: {}/nowhere/goccia.json",
                    root.display()
                ));
            }
            Link::Directory => {
                return Err(format!(
                    "Config extends target not found: {}/d0",
                    root.display()
                ));
            }
            Link::NotAPath => {
                return Err(format!("{}: \"extends\" must be a path", path(current)));
            }
        }
    }
}

proptest! {
    #![proptest_config(harness::config(128))]

    #[test]
    fn extends_chains_follow_the_model(files in graph()) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        write_graph(&root, &files);
        let expected = model(&root, &files);
        let start = format!("{}/{}", root.display(), name(0, &files));
        let env = api::env_at(&root);
        let got = bounded("extends", move || {
            api::load_entries(&start, &env).map_err(|e| e.message)
        });
        match (got, expected) {
            (Ok(loaded), Ok(chain)) => {
                let files_expected: Vec<String> = chain
                    .iter()
                    .map(|&i| format!("{}/{}", root.display(), name(i, &files)))
                    .collect();
                prop_assert_eq!(&loaded.files, &files_expected);
                let keys: Vec<&str> = loaded.entries.iter().map(|e| e.key.as_str()).collect();
                let markers: Vec<String> = chain.iter().map(|i| format!("k{i}")).collect();
                prop_assert_eq!(keys, markers);
                for (entry, file) in loaded.entries.iter().zip(&files_expected) {
                    prop_assert_eq!(&*entry.source, file.as_str());
                }
            }
            (Err(got), Err(expected)) => prop_assert_eq!(got, expected),
            (got, expected) => prop_assert!(false, "got {:?}, model {:?}", got, expected),
        }
    }
}

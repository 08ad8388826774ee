//! Differential tests against the real Free Pascal 3.2.2 runtime
//! (tools/fpc-oracle). Ignored by default: CI has no Free Pascal.

use std::io::Write as _;
use std::process::{Command, Stdio};

use crate::core::paths::{
    declaring_dir, expand_file_name, fpc_extract_file_dir, fpc_try_str_to_int, pascal_trim,
};

fn hex(s: &str) -> String {
    s.bytes().map(|b| format!("{b:02X}")).collect()
}

fn unhex(s: &str) -> String {
    let bytes: Vec<u8> = (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Runs the oracle on `requests` (`(mode, input)`) with the given working
/// directory and `$HOME` (`None` = unset), returning one answer per request.
fn ask(requests: &[(char, String)], cwd: &str, home: Option<&str>) -> Vec<String> {
    let oracle =
        std::env::var("GOCCIA_FPC_ORACLE").expect("set GOCCIA_FPC_ORACLE to the compiled oracle");
    let mut command = Command::new(oracle);
    command
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    match home {
        Some(h) => command.env("HOME", h),
        None => command.env_remove("HOME"),
    };
    let mut child = command.spawn().unwrap();
    let input: String = requests
        .iter()
        .map(|(m, s)| format!("{m} {}\n", hex(s)))
        .collect();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A small deterministic generator: no dependency, reproducible failures.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn string(&mut self, pieces: &[&str], max: u64) -> String {
        let n = self.next() % (max + 1);
        (0..n)
            .map(|_| pieces[(self.next() % pieces.len() as u64) as usize])
            .collect()
    }
}

#[test]
#[ignore = "needs the Free Pascal oracle (tools/fpc-oracle)"]
fn expand_file_name_matches_free_pascal() {
    let pieces = [
        "/", "/", "/", "\\", ".", "..", "...", "~", "~/", "a", "b", " ", "é", "//", "/.", "./",
        "../", "/..", "\u{1}",
    ];
    let mut generator = Gen(0x9E37_79B9_7F4A_7C15);
    for (cwd, home) in [
        ("/tmp", Some("/home/u")),
        ("/", Some("/")),
        ("/tmp", None),
        ("/tmp", Some("/h/")),
        ("/tmp", Some("rel")),
    ] {
        let inputs: Vec<String> = (0..30_000).map(|_| generator.string(&pieces, 12)).collect();
        let requests: Vec<(char, String)> = inputs.iter().map(|s| ('E', s.clone())).collect();
        let answers = ask(&requests, cwd, home);
        let mut failures = Vec::new();
        for (input, answer) in inputs.iter().zip(&answers) {
            let ours = expand_file_name(input, cwd, home.unwrap_or(""));
            if ours != unhex(answer) {
                failures.push(format!(
                    "{input:?} (cwd {cwd}, home {home:?}): fpc {:?}, ours {ours:?}",
                    unhex(answer)
                ));
            }
        }
        assert!(
            failures.is_empty(),
            "{} mismatches, e.g.\n{}",
            failures.len(),
            failures[..failures.len().min(20)].join("\n")
        );
    }
}

#[test]
#[ignore = "needs the Free Pascal oracle (tools/fpc-oracle)"]
fn try_str_to_int_and_trim_match_free_pascal() {
    let pieces = [
        "0",
        "1",
        "8",
        "9",
        "5",
        "a",
        "f",
        "F",
        "g",
        "x",
        "X",
        "$",
        "%",
        "&",
        "+",
        "-",
        " ",
        "\t",
        "\0",
        "é",
        "65535",
        "4294967296",
        "9223372036854775807",
        "18446744073709551616",
        "\n",
    ];
    let mut generator = Gen(0x2545_F491_4F6C_DD1D);
    let inputs: Vec<String> = (0..40_000).map(|_| generator.string(&pieces, 6)).collect();
    let mut requests: Vec<(char, String)> = inputs.iter().map(|s| ('I', s.clone())).collect();
    requests.extend(inputs.iter().map(|s| ('T', s.clone())));
    let answers = ask(&requests, "/tmp", Some("/"));
    let (ints, trims) = answers.split_at(inputs.len());
    let mut failures = Vec::new();
    for ((input, int), trim) in inputs.iter().zip(ints).zip(trims) {
        let ours = match fpc_try_str_to_int(input) {
            Some(v) => format!("ok {v}"),
            None => "fail".to_owned(),
        };
        if &ours != int {
            failures.push(format!("TryStrToInt({input:?}): fpc {int}, ours {ours}"));
        }
        if pascal_trim(input) != unhex(trim) {
            failures.push(format!("Trim({input:?}): fpc {:?}", unhex(trim)));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches, e.g.\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
#[ignore = "needs the Free Pascal oracle (tools/fpc-oracle)"]
fn extract_file_dir_and_path_match_free_pascal() {
    let pieces = ["/", "\\", "a", ".", "é", "//"];
    let mut generator = Gen(0x1234_5678_9ABC_DEF1);
    let inputs: Vec<String> = (0..20_000).map(|_| generator.string(&pieces, 6)).collect();
    let mut requests: Vec<(char, String)> = inputs.iter().map(|s| ('D', s.clone())).collect();
    requests.extend(inputs.iter().map(|s| ('P', s.clone())));
    let answers = ask(&requests, "/tmp", Some("/"));
    let (dirs, paths) = answers.split_at(inputs.len());
    for ((input, dir), path) in inputs.iter().zip(dirs).zip(paths) {
        assert_eq!(
            fpc_extract_file_dir(input),
            unhex(dir),
            "ExtractFileDir({input:?})"
        );
        assert_eq!(
            declaring_dir(input),
            unhex(path),
            "ExtractFilePath({input:?})"
        );
    }
}

//! `scan`'s outcome: its exit code, decided as the configs stream from the
//! walk to the printer. The printer of each format is a [`ScanSink`]: it
//! is handed the result and the [`Configs`] stream, and writes; the
//! stream counts each config's error as it passes, and [`stream`] turns
//! that into the scan's [`ScanOutcome`]. A printer never decides a code.

use std::cell::Cell;

use crate::cli::error::CliError;
use crate::cli::io::Io;
use crate::cli::outcome::review::OneConfig;
use crate::core::env::Env;
use crate::core::exit;
use crate::core::review::report::ConfigReport;
use crate::core::review::results::{ScanResult, config_exit};

/// The configs of a scan, each loaded as a printer asks for it (a large
/// tree is never held whole), with the worst exit code of their errors
/// counted on the way.
pub struct Configs<'a> {
    result: &'a ScanResult,
    env: &'a Env,
    worst: Cell<u8>,
    /// `scan --json`: the judge of each config's signed reviews.
    reviews: Option<&'a ReviewsOf<'a>>,
}

impl Configs<'_> {
    /// Hands each config, loaded and with its ignore mark, to `each`, in
    /// key order; stops at `each`'s first error.
    pub fn each<E>(&self, mut each: impl FnMut(ConfigReport) -> Result<(), E>) -> Result<(), E> {
        self.result.for_each_config(self.env, |r| {
            self.worst
                .set(exit::worst(self.worst.get(), config_exit(&r)));
            each(r)
        })
    }

    /// `scan --json`'s reviews of config `r` (`None`: in no repository, or
    /// its repository has no reviews file), decided as it streams past.
    pub fn reviews_of(&self, r: &ConfigReport) -> Option<OneConfig> {
        self.reviews?(r)
    }
}

/// Judges one config's signed reviews (`cli::scan_reviews`): `None` when
/// it is in no repository or its repository has no reviews file.
pub type ReviewsOf<'a> = dyn Fn(&ConfigReport) -> Option<OneConfig> + 'a;

/// A printer of `scan`: writes the result, its configs as they stream.
pub trait ScanSink {
    fn write(
        &mut self,
        result: &ScanResult,
        configs: &Configs<'_>,
        io: &mut Io<'_>,
    ) -> Result<(), CliError>;
}

/// What the scan ends with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScanOutcome {
    /// The worst exit code of the configs' errors.
    configs: u8,
    /// Whether something could not be read (a config may hide there).
    unreadable: u8,
}

impl ScanOutcome {
    /// The scan's exit code: the worst of its configs' errors and of what
    /// could not be read (`core::exit`).
    pub fn exit_code(&self) -> u8 {
        exit::worst(self.configs, self.unreadable)
    }
}

/// Streams `result`'s configs through `sink` and decides the outcome;
/// with `reviews` (`scan --json`), each config's signed reviews are judged
/// as it passes.
pub fn stream_reviewed(
    result: &ScanResult,
    env: &Env,
    reviews: Option<&ReviewsOf<'_>>,
    sink: &mut dyn ScanSink,
    io: &mut Io<'_>,
) -> Result<ScanOutcome, CliError> {
    let configs = Configs {
        result,
        env,
        worst: Cell::new(exit::SUCCESS),
        reviews,
    };
    sink.write(result, &configs, io)?;
    Ok(ScanOutcome {
        configs: configs.worst.get(),
        unreadable: result.exit_code(exit::SUCCESS),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::args::ScanArgs;
    use crate::cli::ctx::Ctx;
    use crate::cli::globals::GlobalArgs;
    use crate::cli::terminal::{Escaping, SafeWriter};

    /// A printer that writes nothing, reading every config.
    struct Silent;

    impl ScanSink for Silent {
        fn write(
            &mut self,
            _: &ScanResult,
            configs: &Configs<'_>,
            _: &mut Io<'_>,
        ) -> Result<(), CliError> {
            configs.each(|_| Ok::<_, CliError>(()))
        }
    }

    /// The exit code comes from the configs as they stream, whatever the
    /// printer writes: a malformed block is exit 2 with a printer that
    /// prints nothing, and a well-formed tree exit 0.
    #[test]
    fn the_outcome_decides_the_code_while_the_printer_only_writes() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_str().unwrap().to_string();
        std::fs::create_dir_all(tmp.path().join("home")).unwrap();
        for (dir, text) in [
            ("bad", r#"{"permissions": true}"#),
            ("good", r#"{"permissions": {"allow-read": ["."]}}"#),
        ] {
            std::fs::create_dir_all(tmp.path().join(dir)).unwrap();
            std::fs::write(tmp.path().join(dir).join("goccia.json"), text).unwrap();
        }
        let env = Env::at(&root, &format!("{root}/home"));
        let escaping = Escaping::new(false, false);
        for (dir, code) in [("bad", exit::USAGE), ("good", exit::SUCCESS)] {
            let args = ScanArgs {
                paths: vec![dir.to_string()],
                ..ScanArgs::default()
            };
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let mut o = SafeWriter::stdout(&mut out, &escaping, None);
            let mut e = SafeWriter::stderr(&mut err, None);
            let mut io = Io {
                out: &mut o,
                err: &mut e,
                escaping: &escaping,
            };
            let globals = GlobalArgs::default();
            let ctx = Ctx::new(&env, &globals, &mut io);
            let Ok(result) = crate::cli::scan::decide(&ctx, &args) else {
                panic!("scan {dir} failed");
            };
            let outcome = stream_reviewed(&result, &env, None, &mut Silent, &mut io).unwrap();
            assert_eq!(outcome.exit_code(), code, "{dir}");
            drop(o);
            assert!(out.is_empty());
        }
    }
}

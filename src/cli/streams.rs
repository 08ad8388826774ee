//! The process's stdout, buffered when it is not a terminal, and a stderr
//! that flushes it before each write.
//!
//! Rust's stdout flushes at every line break, so `trust --yes` of 10,000
//! configs made some 70,000 `write` calls for its listing. Piped or
//! redirected, stdout is now written in large blocks; on a terminal it keeps
//! its line buffering (prompts, progress). Stderr flushes what stdout holds
//! first, so a log that takes both streams keeps their order.

use std::cell::RefCell;
use std::io::{self, BufWriter, Write};

/// How much stdout holds before it writes, when not a terminal.
const BLOCK: usize = 64 * 1024;

pub struct Stdout<W: Write>(RefCell<BufWriter<W>>);

impl<W: Write> Stdout<W> {
    pub fn new(inner: W, is_terminal: bool) -> Stdout<W> {
        let capacity = if is_terminal { 0 } else { BLOCK };
        Stdout(RefCell::new(BufWriter::with_capacity(capacity, inner)))
    }

    /// The writer commands write stdout through.
    pub fn writer(&self) -> OutWriter<'_, W> {
        OutWriter(&self.0)
    }

    /// `err`, flushing this stdout before each write.
    pub fn ordered<E: Write>(&self, err: E) -> ErrWriter<'_, W, E> {
        ErrWriter { out: &self.0, err }
    }
}

pub struct OutWriter<'a, W: Write>(&'a RefCell<BufWriter<W>>);

impl<W: Write> Write for OutWriter<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.borrow_mut().write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

pub struct ErrWriter<'a, W: Write, E: Write> {
    out: &'a RefCell<BufWriter<W>>,
    err: E,
}

impl<W: Write, E: Write> ErrWriter<'_, W, E> {
    /// Stdout's pending bytes go first. A failure to write them is stdout's
    /// to report: the bytes stay buffered, and the final flush of stdout
    /// fails with it.
    fn out_first(&self) {
        if let Ok(mut out) = self.out.try_borrow_mut() {
            let _ = out.flush();
        }
    }
}

impl<W: Write, E: Write> Write for ErrWriter<'_, W, E> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out_first();
        self.err.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.out_first();
        self.err.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out_first();
        self.err.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    /// Which stream wrote what, in order.
    type Entries = Rc<RefCell<Vec<(char, Vec<u8>)>>>;

    /// A sink that records, in one shared log, which stream wrote what.
    #[derive(Clone)]
    struct Log(Entries, char);

    impl Write for Log {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.borrow_mut().push((self.1, buf.to_vec()));
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn stdout_is_written_in_blocks_and_stderr_keeps_the_order() {
        let log = Rc::new(RefCell::new(Vec::new()));
        let stdout = Stdout::new(Log(log.clone(), 'o'), false);
        let mut out = stdout.writer();
        let mut err = stdout.ordered(Log(log.clone(), 'e'));
        for i in 0..1000 {
            writeln!(out, "line {i}").unwrap();
        }
        assert!(log.borrow().is_empty(), "1,000 lines are still one block");
        writeln!(err, "Warning: w").unwrap();
        writeln!(out, "last").unwrap();
        out.flush().unwrap();
        let log = log.borrow();
        let streams: Vec<char> = log.iter().map(|(s, _)| *s).collect();
        assert_eq!(streams, ['o', 'e', 'o']);
        assert!(log[0].1.ends_with(b"line 999\n"));
        assert_eq!(log[1].1, b"Warning: w\n");
        assert_eq!(log[2].1, b"last\n");
    }

    #[test]
    fn on_a_terminal_each_write_goes_through() {
        let log = Rc::new(RefCell::new(Vec::new()));
        let stdout = Stdout::new(Log(log.clone(), 'o'), true);
        let mut out = stdout.writer();
        out.write_all(b"prompt? ").unwrap();
        assert_eq!(log.borrow().len(), 1);
    }
}

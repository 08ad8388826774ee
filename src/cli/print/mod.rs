//! The printers: one module per output format, one file per command's
//! result inside it (`print::json::scan`, `print::text::trust`, ...).
//!
//! Each command first decides, with no output on the way: it computes one
//! typed result (what was found, decided, recorded, refused, not followed or
//! unreadable, and its exit code), the same whatever the output format. A
//! printer only renders that result: a difference between `--json` and text
//! is a rendering choice, never a different decision. Escaping and style are
//! applied where each part is written, from the data (a state, a `+`/`-`/`~`
//! prefix, a verdict), never by matching printed text; the stream writer
//! (`cli::terminal`) escapes whatever is left on every stream.
//!
//! Shared parts of one format stay with it: `cli::json_out` (the JSON
//! contract's types), `cli::ci_out` (SARIF and annotations), `cli::print::text::table`
//! (tables and listings).

pub mod ci;
pub mod json;
pub mod markdown;
pub mod text;

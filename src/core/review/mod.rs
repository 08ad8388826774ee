//! Configs reviewed against the store: discovering the effective config of
//! every directory, scanning them in parallel, each config's state and
//! `+`/`-`/`~` lines, the store listing, `check`, trusting and untrusting,
//! the per-config report and where path scopes really lead. Depends on
//! `config`, `paths` and `store`.

pub mod batched;
pub mod check;
pub mod destination;
pub mod discover;
pub mod ignore;
pub mod listing;
pub mod locate;
pub mod notice;
pub mod progress;
pub mod report;
pub mod results;
pub mod scan;
pub mod state_file;
pub mod status;
pub mod style;
pub mod trust;
pub mod value_diff;

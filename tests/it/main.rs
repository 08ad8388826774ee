//! The integration tests, one binary (each test binary links the whole
//! crate, which costs minutes on two cores): one module per area, and the
//! shared helpers in `common` (CLI runs in a temp home) and `tui_common`
//! (TUI states and buffers). `fuzz` holds the property and mutation tests;
//! its counting allocator (per thread) is the binary's global allocator.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test (helpers outside #[test] too)

mod common;
mod tui_common;

// `#[cfg(unix)]`: the modules that need Unix to run at all (file modes,
// symbolic links, owners, a pseudo-terminal, tmux, setpriv). On Windows
// the rest compiles and runs (`cargo test --no-run --target
// x86_64-pc-windows-gnu`); the platform rules themselves are unit-tested.

#[cfg(unix)]
mod action_links;
#[cfg(unix)]
mod architecture;
#[cfg(unix)]
mod ascii;
#[cfg(unix)]
mod ci_text;
mod cli_audit;
#[cfg(unix)]
mod cli_ci;
mod cli_conventions;
mod cli_double_dash;
#[cfg(unix)]
mod cli_exit;
mod cli_generate;
#[cfg(unix)]
mod cli_ignore;
mod cli_prompt;
#[cfg(unix)]
mod cli_store;
#[cfg(unix)]
mod cli_store_owner;
#[cfg(unix)]
mod cli_trust;
#[cfg(unix)]
mod cli_wysiwyt;
mod config_schema;
#[cfg(unix)]
mod conformance;
#[cfg(unix)]
mod content_origin;
#[cfg(unix)]
mod demo;
#[cfg(unix)]
mod diff;
#[cfg(unix)]
mod diff_action;
#[cfg(unix)]
mod diff_ci;
#[cfg(unix)]
mod diff_link_provenance;
#[cfg(unix)]
mod diff_provenance;
#[cfg(unix)]
mod diff_unread;
#[cfg(unix)]
mod doc_claims;
#[cfg(unix)]
mod docs;
mod fuzz;
#[cfg(unix)]
mod git_hostile;
#[cfg(unix)]
mod hook_clients;
#[cfg(unix)]
mod hook_managers;
#[cfg(unix)]
mod hostile_files;
#[cfg(unix)]
mod json_contract;
mod layering;
mod lints;
#[cfg(unix)]
mod policy;
#[cfg(unix)]
mod policy_reach;
#[cfg(unix)]
mod policy_rules;
#[cfg(unix)]
mod policy_summary;
#[cfg(unix)]
mod policy_trust;
#[cfg(unix)]
mod prompt_clients;
#[cfg(unix)]
mod provenance;
#[cfg(unix)]
mod provenance_surfaces;
#[cfg(unix)]
mod release;
#[cfg(unix)]
mod review_provenance;
#[cfg(unix)]
mod sarif_github;
#[cfg(unix)]
mod scan_scale;
#[cfg(unix)]
mod shadowed_missing;
#[cfg(unix)]
mod since;
#[cfg(unix)]
mod state_dir_safety;
#[cfg(unix)]
mod status;
#[cfg(unix)]
mod store;
#[cfg(unix)]
mod team_reviews;
#[cfg(unix)]
mod team_reviews_diff;
#[cfg(unix)]
mod team_reviews_gate;
#[cfg(unix)]
mod team_reviews_sign;
mod tui_decision;
#[cfg(unix)]
mod tui_deleted_by;
mod tui_hidden;
#[cfg(unix)]
mod tui_ignore;
mod tui_others;
#[cfg(unix)]
mod tui_progress;
#[cfg(unix)]
mod tui_provenance;
mod tui_render;
#[cfg(unix)]
mod tui_reviews;
#[cfg(unix)]
mod tui_since_provenance;
#[cfg(unix)]
mod tui_store_safety;
#[cfg(unix)]
mod tui_tmux;
mod tui_update;
#[cfg(unix)]
mod tui_walk;
#[cfg(unix)]
mod unreadable_files;
#[cfg(unix)]
mod value_diff;
#[cfg(unix)]
mod walk;

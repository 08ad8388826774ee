//! The integration tests, one binary (each test binary links the whole
//! crate, which costs minutes on two cores): one module per area, and the
//! shared helpers in `common` (CLI runs in a temp home) and `tui_common`
//! (TUI states and buffers). `fuzz` holds the property and mutation tests;
//! its counting allocator (per thread) is the binary's global allocator.

mod common;
mod tui_common;

mod ascii;
mod ci_text;
mod cli_audit;
mod cli_ci;
mod cli_conventions;
mod cli_double_dash;
mod cli_exit;
mod cli_generate;
mod cli_ignore;
mod cli_prompt;
mod cli_store;
mod cli_store_owner;
mod cli_trust;
mod cli_wysiwyt;
mod config_schema;
mod conformance;
mod demo;
mod diff;
mod diff_action;
mod diff_ci;
mod diff_link_provenance;
mod diff_provenance;
mod diff_unread;
mod docs;
mod fuzz;
mod git_hostile;
mod hostile_files;
mod json_contract;
mod layering;
mod policy;
mod policy_rules;
mod policy_summary;
mod policy_trust;
mod provenance;
mod release;
mod review_provenance;
mod sarif_github;
mod scan_scale;
mod shadowed_missing;
mod since;
mod state_dir_safety;
mod status;
mod store;
mod tui_decision;
mod tui_hidden;
mod tui_ignore;
mod tui_others;
mod tui_provenance;
mod tui_render;
mod tui_since_provenance;
mod tui_store_safety;
mod tui_tmux;
mod tui_update;
mod tui_walk;
mod value_diff;
mod walk;

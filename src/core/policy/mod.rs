//! The policy gate: decides, before anything is trusted or executed, whether
//! an operation of a risk class on a target path is ALLOWED, DENIED or
//! NEEDS_AUTH (docs/src/compatibility.md#the-policy-gate-reference-model, adapted as #adapting-the-gate-to-config-trust).
//!
//! - [`load`] reads and strictly validates a policy file (or the shipped one);
//! - [`classify`] puts a target path into one of five classes;
//! - [`evaluate`] turns risk + class + grant into a [`Decision`];
//! - [`requests`] maps a config's permission requests to operations;
//! - [`record`] writes the decision records.

pub mod anchor;
pub mod classify;
pub mod evaluate;
pub mod gate;
pub mod kind;
pub mod load;
mod net;
pub mod provenance;
mod reach;
pub mod record;
pub mod requests;
pub mod root;
pub mod rules;
pub mod spawn;
pub mod target;
pub mod verdict;

pub use crate::core::paths::reviewed::trees_under_review;
pub use anchor::workspace_for_builtin;
pub use evaluate::{Decision, evaluate};
pub use load::{LoadContext, Policy, load_policy, policy_path};
pub use provenance::{check_provenance, parse_pin};
pub use record::{
    ConfigTrust, Expectation, RecordHandle, ReviewedBy, RunConfig, RunSummary, expect_refusal,
    mark_config_trusted, read_run_summaries, state_dir, write_config_decision, write_record,
    write_run_summary,
};
pub use requests::{
    ConfigDecision, Operation, OperationDecision, RequestKind, evaluate_config, evaluate_operation,
};
pub use target::ResolvedTarget;
pub use verdict::{Class, Verdict};

#[cfg(test)]
pub(crate) mod test_support {
    use super::*;
    use crate::core::env::Env;
    use std::path::Path;

    use super::load::{PolicySource, parse_policy};

    pub fn env_at(cwd: &str, home: &str) -> Env {
        Env {
            cwd: cwd.into(),
            home: home.into(),
            xdg_config_home: String::new(),
            xdg_state_home: String::new(),
            ..Env::default()
        }
    }

    /// A policy from inline JSON, relative roots anchored to `env.cwd`, with
    /// no store directory.
    pub fn policy(json: &str, env: &Env) -> Policy {
        parse_policy(
            json.as_bytes(),
            PolicySource::Default("test"),
            env,
            std::slice::from_ref(&env.cwd),
            Path::new(""),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stricter_follows_the_documented_order() {
        use Class::*;
        let order = [
            ApprovedWorkspace,
            SystemPath,
            ExternalPath,
            PersonalDataPath,
            DeniedRoot,
        ];
        for (i, a) in order.iter().enumerate() {
            for (j, b) in order.iter().enumerate() {
                let want = order[i.max(j)];
                assert_eq!(a.stricter(*b), want, "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn worst_verdict_is_the_max() {
        use Verdict::*;
        assert_eq!([Allowed, Denied, NeedsAuth].into_iter().max(), Some(Denied));
        assert_eq!([Allowed, NeedsAuth].into_iter().max(), Some(NeedsAuth));
    }

    #[test]
    fn sha256_of_empty_input() {
        assert_eq!(
            crate::core::config::block::sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}

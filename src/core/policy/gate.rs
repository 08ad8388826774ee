//! A config's requests as policy operations (policy-reference.md §11): each
//! allow request, sandbox path and `unsafe-*` key becomes one operation;
//! denies need no trust and are not evaluated.

use std::path::Path;

use crate::core::config::ConfigSnapshot;
use crate::core::config::block::normalize_scope;
use crate::core::config::request::Capability;
use crate::core::config::sandbox::SandboxPathKind;
use crate::core::config::scope::declaring_dir;
use crate::core::env::Env;
use crate::core::policy::{ConfigDecision, Operation, Policy, RequestKind, evaluate_config};

/// Every operation a config's request amounts to, in block order.
pub fn operations(snapshot: &ConfigSnapshot) -> Vec<Operation> {
    let request = &snapshot.request;
    let config_dir = crate::core::paths::parent_dir(snapshot.key.as_str());
    let mut ops = Vec::new();
    for allow in request.allow_requests() {
        let dir = allow
            .scope
            .map(|s| declaring_dir(&s.source).to_string())
            .unwrap_or_else(|| config_dir.to_string());
        let shown = allow
            .scope
            .map(|s| normalize_scope(allow.capability, &s.resolved));
        let kind = match allow.capability {
            Capability::Read => RequestKind::AllowRead,
            Capability::Ffi => RequestKind::AllowFfi,
            Capability::Net => RequestKind::for_net_scope(shown.as_deref()),
            Capability::Import => match &shown {
                Some(s) => RequestKind::for_import_scope(s),
                None => RequestKind::AllowImportGithub,
            },
        };
        ops.push(Operation::for_request(
            kind,
            shown.as_deref(),
            Path::new(&dir),
        ));
    }
    for (kind, host) in request.sandbox_host_paths() {
        let kind = match kind {
            SandboxPathKind::Copy => RequestKind::SandboxCopy,
            SandboxPathKind::CopyRw => RequestKind::SandboxCopyRw,
            SandboxPathKind::DiffFile => RequestKind::DiffFile,
        };
        ops.push(Operation::for_request(
            kind,
            Some(host),
            Path::new(config_dir),
        ));
    }
    if request.unsafe_function_constructor {
        ops.push(Operation::for_request(
            RequestKind::UnsafeFunctionConstructor,
            None,
            Path::new(config_dir),
        ));
    }
    if request.unsafe_shadowrealm {
        ops.push(Operation::for_request(
            RequestKind::UnsafeShadowrealm,
            None,
            Path::new(config_dir),
        ));
    }
    ops
}

/// The policy's decision on a config: the worst of its operations.
pub fn decide(policy: &Policy, snapshot: &ConfigSnapshot, env: &Env) -> ConfigDecision {
    evaluate_config(policy, &operations(snapshot), env)
}

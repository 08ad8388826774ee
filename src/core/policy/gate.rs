//! A config's requests as policy operations (docs/src/compatibility.md#adapting-the-gate-to-config-trust): each
//! allow request, sandbox path and `unsafe-*` key becomes one operation;
//! denies need no trust and are not evaluated.

use std::path::Path;

use crate::core::config::ConfigSnapshot;
use crate::core::config::block::normalize_scope;
use crate::core::config::request::Capability;
use crate::core::config::sandbox::{SandboxPathKind, copy_host};
use crate::core::config::scope::{absolute_path, declaring_dir, read_scope};
use crate::core::env::Env;
use crate::core::paths::pascal_trim;
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

/// The operation `policy evaluate --kind KIND --value V` judges: `V` read
/// exactly as a config's request of that kind would be (GocciaScript's
/// `Trim`, `\` as a separator, a relative path against the working
/// directory, a net or import scope validated and lower-cased), so the
/// command never answers differently from `trust --policy` on a config
/// holding the value. `allow-net` and `allow-net-private` name the same
/// request, and the value decides which it is (as `allow-import-*` do);
/// the error is GocciaScript's message for a value it refuses.
pub fn operation_for_value(kind: RequestKind, value: &str, env: &Env) -> Result<Operation, String> {
    let cwd = Path::new(&env.cwd);
    let dir = format!("{}/", env.cwd.trim_end_matches('/'));
    let capability = match kind {
        RequestKind::AllowRead => Some(Capability::Read),
        RequestKind::AllowFfi => Some(Capability::Ffi),
        RequestKind::AllowNet | RequestKind::AllowNetPrivate => Some(Capability::Net),
        RequestKind::AllowImportNodeModules | RequestKind::AllowImportGithub => {
            Some(Capability::Import)
        }
        _ => None,
    };
    if let Some(capability) = capability {
        let key = format!("permissions.{}", capability.key(true));
        let resolved =
            read_scope(capability, &key, value, &dir, env).map_err(|e| e.message().to_string())?;
        let shown = normalize_scope(capability, &resolved);
        let kind = match capability {
            Capability::Read => RequestKind::AllowRead,
            Capability::Ffi => RequestKind::AllowFfi,
            Capability::Net => RequestKind::for_net_scope(Some(&shown)),
            Capability::Import => RequestKind::for_import_scope(&shown),
        };
        return Ok(Operation::for_request(kind, Some(&shown), cwd));
    }
    let host = match kind {
        RequestKind::SandboxCopy | RequestKind::SandboxCopyRw => {
            let key = match kind {
                RequestKind::SandboxCopy => "sandbox.copy",
                _ => "sandbox.copy-rw",
            };
            copy_host(key, value)?.0
        }
        RequestKind::DiffFile if pascal_trim(value).is_empty() => {
            return Err("\"sandbox.diff-file\" names no file".into());
        }
        RequestKind::DiffFile => value,
        _ => return Err(format!("a {} request has no value", kind.name())),
    };
    let host = absolute_path(host, &dir, env);
    Ok(Operation::for_request(kind, Some(&host), cwd))
}

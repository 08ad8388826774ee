//! The kinds of request a config's permissions become for the gate, each
//! with its default risk class: below both the policy (`load`, which maps
//! kinds to classes) and the operations (`requests`).

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RequestKind {
    AllowRead,
    SandboxCopy,
    AllowImportNodeModules,
    SandboxCopyRw,
    DiffFile,
    AllowNet,
    AllowImportGithub,
    AllowNetPrivate,
    AllowFfi,
    UnsafeFunctionConstructor,
    UnsafeShadowrealm,
}

impl RequestKind {
    pub const ALL: [RequestKind; 11] = [
        RequestKind::AllowRead,
        RequestKind::SandboxCopy,
        RequestKind::AllowImportNodeModules,
        RequestKind::SandboxCopyRw,
        RequestKind::DiffFile,
        RequestKind::AllowNet,
        RequestKind::AllowImportGithub,
        RequestKind::AllowNetPrivate,
        RequestKind::AllowFfi,
        RequestKind::UnsafeFunctionConstructor,
        RequestKind::UnsafeShadowrealm,
    ];

    /// The name used in a policy's `requests` map and in records.
    pub fn name(self) -> &'static str {
        match self {
            RequestKind::AllowRead => "allow-read",
            RequestKind::SandboxCopy => "sandbox-copy",
            RequestKind::AllowImportNodeModules => "allow-import-node-modules",
            RequestKind::SandboxCopyRw => "sandbox-copy-rw",
            RequestKind::DiffFile => "diff-file",
            RequestKind::AllowNet => "allow-net",
            RequestKind::AllowImportGithub => "allow-import-github",
            RequestKind::AllowNetPrivate => "allow-net-private",
            RequestKind::AllowFfi => "allow-ffi",
            RequestKind::UnsafeFunctionConstructor => "unsafe-function-constructor",
            RequestKind::UnsafeShadowrealm => "unsafe-shadowrealm",
        }
    }

    pub fn from_name(name: &str) -> Option<RequestKind> {
        RequestKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The risk class used when the policy's `requests` map says nothing.
    pub fn default_risk(self) -> &'static str {
        match self {
            RequestKind::AllowRead | RequestKind::SandboxCopy => "R0",
            RequestKind::AllowImportNodeModules
            | RequestKind::SandboxCopyRw
            | RequestKind::DiffFile => "R1",
            RequestKind::AllowNet | RequestKind::AllowImportGithub => "R2",
            RequestKind::AllowNetPrivate
            | RequestKind::AllowFfi
            | RequestKind::UnsafeFunctionConstructor
            | RequestKind::UnsafeShadowrealm => "R3",
        }
    }

    /// Whether the request names a host path (and so always has a target).
    pub fn is_path(self) -> bool {
        matches!(
            self,
            RequestKind::AllowRead
                | RequestKind::SandboxCopy
                | RequestKind::AllowImportNodeModules
                | RequestKind::SandboxCopyRw
                | RequestKind::DiffFile
                | RequestKind::AllowFfi
        )
    }

    /// Whether the request's value is a host (`allow-net`, unscoped or
    /// not, and `allow-net-private`).
    pub fn is_net(self) -> bool {
        matches!(self, RequestKind::AllowNet | RequestKind::AllowNetPrivate)
    }

    /// `allow-net` scopes split by whether they reach private space.
    pub fn for_net_scope(scope: Option<&str>) -> RequestKind {
        match scope {
            Some(s) if super::net::reaches_private(s) => RequestKind::AllowNetPrivate,
            _ => RequestKind::AllowNet,
        }
    }

    /// `allow-import` scopes: `node_modules[=<dir>]` or a provider.
    pub fn for_import_scope(scope: &str) -> RequestKind {
        if scope == "node_modules" || scope.starts_with("node_modules=") {
            RequestKind::AllowImportNodeModules
        } else {
            RequestKind::AllowImportGithub
        }
    }
}

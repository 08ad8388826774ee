//! A config's permission request: its `permissions`, `unsafe-*` and
//! `sandbox` entries read exactly as GocciaScript 0.14 reads them
//! (docs/src/compatibility.md#the-permission-request), with every message and exit class.

use std::sync::Arc;

use crate::core::config::entries::{Entry, EntryKind};
use crate::core::config::scope::{declaring_dir, read_scope};
use crate::core::env::Env;
use crate::core::error::ConfigError;

pub use crate::core::config::capability::Capability;
pub use crate::core::config::sandbox::{SandboxPathKind, SandboxRequest};

/// One scope of a permission key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    /// Resolved (docs/src/compatibility.md#resolution-per-capability): an absolute lexical path for read/ffi, the directory
    /// of `node_modules=` made absolute, otherwise the trimmed text.
    pub resolved: String,
    /// The scope exactly as the config wrote it.
    pub written: String,
    /// The file that declared it, whose directory it resolved against.
    pub source: Arc<str>,
}

/// What one `allow-<cap>` or `deny-<cap>` key asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyRequest {
    /// The key appears in the effective config, even as `false` or `[]`.
    pub declared: bool,
    /// `true` was given: every scope of the capability.
    pub unscoped: bool,
    /// The owning file's scopes in declaration order, duplicates kept.
    pub scopes: Vec<Scope>,
    /// The file that owns the key (the first in merged order to declare it).
    pub source: Option<Arc<str>>,
}

impl KeyRequest {
    /// Unscoped, or at least one scope.
    pub fn requests_any(&self) -> bool {
        self.unscoped || !self.scopes.is_empty()
    }
}

/// One [`KeyRequest`] per capability.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CapabilityKeys {
    pub read: KeyRequest,
    pub net: KeyRequest,
    pub ffi: KeyRequest,
    pub import: KeyRequest,
}

impl CapabilityKeys {
    pub fn get(&self, capability: Capability) -> &KeyRequest {
        match capability {
            Capability::Read => &self.read,
            Capability::Net => &self.net,
            Capability::Ffi => &self.ffi,
            Capability::Import => &self.import,
        }
    }

    pub fn get_mut(&mut self, capability: Capability) -> &mut KeyRequest {
        match capability {
            Capability::Read => &mut self.read,
            Capability::Net => &mut self.net,
            Capability::Ffi => &mut self.ffi,
            Capability::Import => &mut self.import,
        }
    }
}

/// The effective request of a config after `extends`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PermissionRequest {
    /// The trust-key location the request was read for.
    pub config_path: String,
    pub allow: CapabilityKeys,
    pub deny: CapabilityKeys,
    pub unsafe_function_constructor: bool,
    pub unsafe_shadowrealm: bool,
    /// `Some` when any file of the chain declares a `sandbox` section.
    pub sandbox: Option<SandboxRequest>,
}

/// One grant a request asks for, as the policy gate judges it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AllowRequest<'a> {
    pub capability: Capability,
    /// `None` for an unscoped allow (which covers every scope, so the key's
    /// scopes, if JSON duplicate keys also gave some, are not listed).
    pub scope: Option<&'a Scope>,
}

impl PermissionRequest {
    /// `RequestsGrants` (docs/src/compatibility.md#what-requests-a-grant): an allow key asks for something, an `unsafe-*`
    /// key is true, or a sandbox section is declared. Deny-only asks nothing.
    pub fn requests_grants(&self) -> bool {
        self.unsafe_function_constructor
            || self.unsafe_shadowrealm
            || self.sandbox.is_some()
            || Capability::ALL
                .iter()
                .any(|&c| self.allow.get(c).requests_any())
    }

    /// `allow` (true) or `deny` (false) keys.
    pub fn keys(&self, allow: bool) -> &CapabilityKeys {
        if allow { &self.allow } else { &self.deny }
    }

    /// Every allow request, capability by capability in declaration order.
    pub fn allow_requests(&self) -> Vec<AllowRequest<'_>> {
        let mut out = Vec::new();
        for capability in Capability::ALL {
            let key = self.allow.get(capability);
            if key.unscoped {
                out.push(AllowRequest {
                    capability,
                    scope: None,
                });
            } else {
                out.extend(key.scopes.iter().map(|s| AllowRequest {
                    capability,
                    scope: Some(s),
                }));
            }
        }
        out
    }

    /// The host paths the sandbox section names: every `copy` and `copy-rw`
    /// host path in order, then the `diff-file`. Empty without a section.
    pub fn sandbox_host_paths(&self) -> Vec<(SandboxPathKind, &str)> {
        self.sandbox
            .as_ref()
            .map(SandboxRequest::host_paths)
            .unwrap_or_default()
    }

    /// Reads the request from the merged entries of the config at
    /// `config_path` (child first, then bases). Errors carry GocciaScript's
    /// message and exit class; the first problem in entry order wins.
    pub fn from_entries(
        entries: &[Entry],
        config_path: &str,
        env: &Env,
    ) -> Result<PermissionRequest, ConfigError> {
        let mut request = PermissionRequest {
            config_path: config_path.to_owned(),
            ..PermissionRequest::default()
        };
        let mut unsafe_seen = [false; 2];
        let mut sandbox = crate::core::config::sandbox::SandboxReader::default();
        for entry in entries {
            let location: &str = if entry.source.is_empty() {
                config_path
            } else {
                &entry.source
            };

            if let Some(index) = ["unsafe-function-constructor", "unsafe-shadowrealm"]
                .iter()
                .position(|k| *k == entry.key)
            {
                // The nearest file's value wins; later ones are not even read.
                if std::mem::replace(&mut unsafe_seen[index], true) {
                    continue;
                }
                let on = match entry.value.as_str() {
                    "true" => true,
                    "false" => false,
                    other => {
                        return Err(ConfigError::invalid(format!(
                            "{location}: \"{}\" must be true or false, got \"{other}\"",
                            entry.key
                        )));
                    }
                };
                if index == 0 {
                    request.unsafe_function_constructor |= on;
                } else {
                    request.unsafe_shadowrealm |= on;
                }
                continue;
            }

            if entry.key == "sandbox" || entry.key.starts_with("sandbox.") {
                sandbox.read(entry, location, env)?;
                continue;
            }

            if entry.key == "permissions" && entry.kind != EntryKind::Object {
                return Err(ConfigError::usage(format!(
                    "{location}: \"permissions\" must be an object of allow-* and deny-* keys"
                )));
            }
            let Some(sub_key) = entry.key.strip_prefix("permissions.") else {
                continue;
            };
            let Some((allow, capability)) = Capability::parse_key(sub_key) else {
                return Err(ConfigError::usage(format!(
                    "{location}: unknown permission \"{sub_key}\" (valid: allow-read, allow-net, allow-ffi, \
                     allow-import, deny-read, deny-net, deny-ffi, deny-import)"
                )));
            };
            let key = if allow {
                &mut request.allow
            } else {
                &mut request.deny
            }
            .get_mut(capability);
            read_permission_value(key, capability, entry, location, env)?;
        }
        request.sandbox = sandbox.finish();
        Ok(request)
    }
}

/// One `permissions.<cap key>` entry. A key a nearer file declared is owned
/// by that file: this entry is still validated but contributes nothing.
fn read_permission_value(
    key: &mut KeyRequest,
    capability: Capability,
    entry: &Entry,
    location: &str,
    env: &Env,
) -> Result<(), ConfigError> {
    let overridden = key.declared && key.source.as_deref() != Some(&*entry.source);
    if !overridden {
        key.declared = true;
        key.source = Some(entry.source.clone());
    }
    match entry.kind {
        EntryKind::Boolean if !entry.in_array => {
            if entry.value == "true" {
                if capability == Capability::Import {
                    return Err(ConfigError::usage(format!(
                        "{location}: \"{}\" needs scopes: node_modules[=<dir>] or a provider such as github",
                        entry.key
                    )));
                }
                if !overridden {
                    key.unscoped = true;
                }
            }
        }
        EntryKind::EmptyArray => {}
        EntryKind::String if entry.in_array => {
            let resolved = read_scope(
                capability,
                &entry.key,
                &entry.value,
                declaring_dir(location),
                env,
            )
            .map_err(|e| e.with_location(location))?;
            if !overridden {
                key.scopes.push(Scope {
                    resolved,
                    written: entry.value.clone(),
                    source: entry.source.clone(),
                });
            }
        }
        _ => {
            return Err(ConfigError::usage(format!(
                "{location}: \"{}\" must be true, false, or an array of strings",
                entry.key
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests;

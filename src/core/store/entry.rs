//! One store entry checked and taken apart into a compact [`StoredEntry`]
//! (docs/src/compatibility.md#reading-and-validating-the-store), for both
//! readers of the store.

use super::model::{Sha256, StoredEntry};
use crate::core::config::json::Json;

/// The entry for `key`, or the first problem met in its fields, in order.
pub(super) fn check_entry(key: &str, entry: Json) -> Result<StoredEntry, String> {
    let Json::Object(fields) = entry else {
        return Err(format!("the entry for {key} is not an object"));
    };
    let (mut sha256, mut block, mut trusted_at, mut trusted_by) = (None, None, None, None);
    let mut targets: Vec<(String, String)> = Vec::new();
    for (field, value) in fields {
        let not_string = || format!("\"{field}\" of {key} is not a string");
        let string = |value: Json| match value {
            Json::String(s) => Ok(s),
            _ => Err(not_string()),
        };
        match field.as_str() {
            "sha256" => {
                let hash = string(value)?;
                let Some(hash) = Sha256::from_hex(&hash) else {
                    return Err(format!("\"sha256\" of {key} is not a SHA-256"));
                };
                sha256 = Some(hash);
            }
            "block" => match value {
                Json::Object(_) => block = Some(value),
                _ => return Err(format!("\"block\" of {key} is not an object")),
            },
            "trustedAt" => trusted_at = Some(string(value)?),
            "trustedBy" => trusted_by = Some(string(value)?),
            "targets" => targets = check_targets(key, value)?,
            other => return Err(format!("unknown key \"{other}\" in the entry for {key}")),
        }
    }
    let missing = |field: &str| format!("{key} has no \"{field}\"");
    Ok(StoredEntry {
        sha256: sha256.ok_or_else(|| missing("sha256"))?,
        block: block.ok_or_else(|| missing("block"))?.into(),
        trusted_at: trusted_at.ok_or_else(|| missing("trustedAt"))?.into(),
        trusted_by: trusted_by.ok_or_else(|| missing("trustedBy"))?.into(),
        targets: StoredEntry::boxed_targets(targets),
    })
}

/// `targets` is optional; a scope that occurs twice keeps its first place
/// and its last target, like a key of the store.
fn check_targets(key: &str, value: Json) -> Result<Vec<(String, String)>, String> {
    let Json::Object(pairs) = value else {
        return Err(format!("\"targets\" of {key} is not an object"));
    };
    let mut targets: Vec<(String, String)> = Vec::with_capacity(pairs.len());
    for (scope, target) in pairs {
        let Json::String(target) = target else {
            return Err(format!("the target of {scope} in {key} is not a string"));
        };
        match targets.iter_mut().find(|(s, _)| *s == scope) {
            Some(slot) => slot.1 = target,
            None => targets.push((scope, target)),
        }
    }
    Ok(targets)
}

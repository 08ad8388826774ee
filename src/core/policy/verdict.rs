//! What a policy decides: the class a target path falls in ([`Class`]) and
//! the verdict on an operation or a config ([`Verdict`]).

use serde::Serialize;

/// Where a target path falls, tested in the order of the variants' `rank`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Class {
    DeniedRoot,
    ApprovedWorkspace,
    PersonalDataPath,
    SystemPath,
    ExternalPath,
}

impl Class {
    pub fn as_str(self) -> &'static str {
        match self {
            Class::DeniedRoot => "DENIED_ROOT",
            Class::ApprovedWorkspace => "APPROVED_WORKSPACE",
            Class::PersonalDataPath => "PERSONAL_DATA_PATH",
            Class::SystemPath => "SYSTEM_PATH",
            Class::ExternalPath => "EXTERNAL_PATH",
        }
    }

    /// How much a class restricts, higher is stricter. A target is judged
    /// both as written and with symlinks resolved; when the two spellings
    /// land in different classes the stricter one wins, so a link can only
    /// ever make a target less trusted, never more:
    ///
    /// DENIED_ROOT > PERSONAL_DATA_PATH > EXTERNAL_PATH > SYSTEM_PATH >
    /// APPROVED_WORKSPACE.
    ///
    /// Denied and personal paths are refused at every level and say so
    /// explicitly (denied roots are the operator's hard switch, so they rank
    /// first); external paths are refused at every level too but only by
    /// default; system paths are still readable; only the workspace grants
    /// writes.
    pub fn strictness(self) -> u8 {
        match self {
            Class::DeniedRoot => 4,
            Class::PersonalDataPath => 3,
            Class::ExternalPath => 2,
            Class::SystemPath => 1,
            Class::ApprovedWorkspace => 0,
        }
    }

    /// The stricter of two classes (see [`Class::strictness`]).
    pub fn stricter(self, other: Class) -> Class {
        if other.strictness() > self.strictness() {
            other
        } else {
            self
        }
    }
}

/// The outcome of a decision; also the process exit code of `policy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Verdict {
    // Declared from best to worst, so `max` picks the worst of a config's
    // operations.
    Allowed,
    NeedsAuth,
    Denied,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Allowed => "ALLOWED",
            Verdict::NeedsAuth => "NEEDS_AUTH",
            Verdict::Denied => "DENIED",
        }
    }

    /// 0 ALLOWED, 3 DENIED, 4 NEEDS_AUTH (docs/src/exit-codes.md).
    pub fn exit_code(self) -> u8 {
        use crate::core::exit;
        match self {
            Verdict::Allowed => exit::SUCCESS,
            Verdict::Denied => exit::POLICY_DENIED,
            Verdict::NeedsAuth => exit::POLICY_NEEDS_AUTH,
        }
    }
}

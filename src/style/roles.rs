//! Which theme role each meaning gets, for both faces: a config's state, a
//! policy verdict, a signed review's status, and the emphasis core's text builders name
//! ([`Emphasis`]). The interactive review styles a cell with it; the
//! command line marks a word with it (`style::paint`). One table, so a
//! `changed` config is the same colour in both.

use crate::core::policy::Verdict;
use crate::core::review::report::ConfigState;
use crate::core::review::style::Emphasis;
use crate::core::team::each_config::{Mark, is_bad};
use crate::core::team::verify::Status;
use crate::style::theme::Role;

/// A config state's style.
pub fn state_role(state: ConfigState) -> Role {
    match state {
        ConfigState::Error => Role::Error,
        ConfigState::NeverTrusted => Role::Untrusted,
        ConfigState::Changed => Role::Changed,
        ConfigState::Trusted => Role::Trusted,
        ConfigState::NoRequest => Role::NoRequest,
        ConfigState::Ignored => Role::Ignored,
    }
}

/// A verdict's style: what CI would trust, leave to a person, refuse.
pub fn verdict_role(v: Verdict) -> Role {
    match v {
        Verdict::Allowed => Role::Trusted,
        Verdict::NeedsAuth => Role::Changed,
        Verdict::Denied => Role::Error,
    }
}

/// The theme's role for a meaning core's builders name.
pub fn role_of(e: Emphasis) -> Role {
    match e {
        Emphasis::Added => Role::Added,
        Emphasis::Removed => Role::Removed,
        Emphasis::Changed => Role::Changed,
        Emphasis::Untrusted => Role::Untrusted,
        Emphasis::Error => Role::Error,
        Emphasis::Missing => Role::Missing,
    }
}

/// A signed review's style by its status: one that counts as trusted, one
/// that is bad as an error, any other (outdated, unchecked) as a warning.
pub fn review_role(status: Status) -> Role {
    match status {
        Status::Reviewed => Role::Trusted,
        s if is_bad(s) => Role::Error,
        _ => Role::Changed,
    }
}

/// The style of what a list row says of a config's reviews.
pub fn review_mark_role(mark: Mark) -> Role {
    match mark {
        Mark::Reviewed(_) => Role::Trusted,
        Mark::Bad => Role::Error,
        Mark::Outdated | Mark::Unchecked => Role::Changed,
    }
}

//! The git these modules run: [`git::git`]'s hardened invocation, plus
//! the settings reading history needs.

use std::process::Command;

use crate::core::revision::git;

/// Settings for the reading commands here, on top of [`git::git`]'s: the
/// abbreviation is git's default whatever the repository says, log output
/// is UTF-8, and `log.follow` does not change which commits are listed.
const PROVENANCE_CONFIG: &[&str] = &[
    "core.abbrev=7",
    "i18n.logOutputEncoding=UTF-8",
    "log.follow=false",
    "log.mailmap=false",
    // Blame passes over the revisions this names, attributing their lines
    // to others: a hostile repository would name its own. Cleared again
    // on blame's command line (a file named by the repository that does
    // not exist still stops blame: no provenance, never a wrong one).
    "blame.ignoreRevsFile=",
];

/// [`git::git`] in `root` with those settings; pathspecs keep their magic
/// (`:(top,literal)`) whatever the environment says.
pub(super) fn hardened(root: &str) -> Command {
    let mut cmd = git::git(root);
    for setting in PROVENANCE_CONFIG {
        cmd.arg("-c").arg(setting);
    }
    cmd.env("GIT_LITERAL_PATHSPECS", "0");
    cmd
}

//! The one table of exit codes, shared by every command (README "Exit codes").

/// 0 success.
pub const SUCCESS: u8 = 0;
/// 1 invalid value or failure: unreadable store, held lock, failed write,
/// invalid scope, a confirmation answered with anything but yes.
pub const FAILURE: u8 = 1;
/// 2 usage error, malformed config, untrusted configs reported by `check`,
/// `--trust` needing confirmation without a terminal, a policy file error.
pub const USAGE: u8 = 2;
/// 3 the policy denied at least one request.
pub const POLICY_DENIED: u8 = 3;
/// 4 the policy requires authorization for at least one request.
pub const POLICY_NEEDS_AUTH: u8 = 4;
/// 141 stdout was closed before the command finished (the reader of a pipe
/// left): the command stopped at that write, quietly, as a program killed by
/// SIGPIPE (128 + 13) is reported by the shell. It does not claim success,
/// since it did not finish.
pub const CLOSED_STDOUT: u8 = 141;

/// Which code wins when several apply in one run, weakest first: a policy
/// verdict says most about what a person must do next (3: never trust this
/// as it is; 4: a person must review), then a refusal to go on (2), then a
/// failure (1). Every lower-ranked problem is still reported on stderr.
const PRECEDENCE: [u8; 5] = [SUCCESS, FAILURE, USAGE, POLICY_NEEDS_AUTH, POLICY_DENIED];

fn rank(code: u8) -> usize {
    // A code outside the table (128+N, 141) ends a run on its own; it
    // outranks the table if it is ever combined.
    PRECEDENCE
        .iter()
        .position(|&c| c == code)
        .unwrap_or(PRECEDENCE.len())
}

/// The code that wins between `a` and `b` (README "Exit codes").
pub fn worst(a: u8, b: u8) -> u8 {
    if rank(b) > rank(a) { b } else { a }
}

/// The code that wins among `codes`; [`SUCCESS`] when there is none.
pub fn worst_of(codes: impl IntoIterator<Item = u8>) -> u8 {
    codes.into_iter().fold(SUCCESS, worst)
}

/// What a walk that could not read part of a PATH adds to the exit code.
pub fn unreadable_exit(unreadable: bool) -> u8 {
    if unreadable { FAILURE } else { SUCCESS }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_precedence_denied_then_needs_auth_then_usage_then_failure() {
        assert_eq!(worst_of([FAILURE, POLICY_NEEDS_AUTH, POLICY_DENIED]), 3);
        assert_eq!(worst_of([POLICY_NEEDS_AUTH, FAILURE]), 4);
        assert_eq!(worst_of([POLICY_DENIED, POLICY_NEEDS_AUTH]), 3);
        assert_eq!(worst_of([FAILURE, USAGE, FAILURE]), 2);
        assert_eq!(worst_of([USAGE, POLICY_NEEDS_AUTH]), 4);
        assert_eq!(worst_of([SUCCESS, FAILURE]), 1);
        assert_eq!(worst_of([]), 0);
        // Order does not matter.
        assert_eq!(worst(POLICY_DENIED, FAILURE), worst(FAILURE, POLICY_DENIED));
    }
}

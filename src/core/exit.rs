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

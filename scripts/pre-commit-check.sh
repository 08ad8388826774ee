#!/bin/sh
# The goccia-trust-check pre-commit hook (.pre-commit-hooks.yaml): builds
# goccia-trust from this checkout of the hook's repository (pre-commit's
# copy at the pinned rev) with `cargo install --locked`, so the build uses
# the dependency versions of Cargo.lock, once; then runs `goccia-trust
# check` over the staged configs pre-commit passes.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
root="$repo/target/pre-commit"
bin="$root/bin/goccia-trust"
if [ ! -x "$bin" ]; then
  echo "goccia-trust-check: building goccia-trust (cargo install --locked; once per rev)" >&2
  cargo install --locked --quiet --root "$root" --path "$repo" --bin goccia-trust >&2
fi
exec "$bin" check "$@"

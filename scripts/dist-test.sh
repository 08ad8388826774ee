#!/usr/bin/env bash
# Tests the Linux release archive as a user gets it:
#
#   scripts/dist-test.sh [--no-build]
#
# builds it (scripts/dist.sh x86_64-unknown-linux-musl, a release build:
# about a minute on two cores when the crate changed; --no-build tests the
# archive already in target/dist), then checks SHA256SUMS, the archive's
# contents, that the binary is statically linked (no PT_INTERP, no dynamic
# section), that it runs from the archive (--version names the commit) and
# that it really works: scan, trust --yes and scan --json of the README's
# demo tree (examples/demo/tree) give the same output as the debug build the
# test suite tested. .ci/run runs this when GOCCIA_TRUST_DIST=1 (the GitHub
# Linux job sets it); the release workflow runs it for its Linux archive.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
target=x86_64-unknown-linux-musl
version=$(sed -n 's/^version = "\([^"]*\)"$/\1/p' Cargo.toml | head -n 1)
name=goccia-trust-$version-$target
archive=target/dist/$name.tar.gz

if [ "${1:-}" != --no-build ]; then
  scripts/dist.sh "$target"
fi
[ -f "$archive" ] || { echo "no $archive" >&2; exit 1; }
cargo build --locked --quiet --bin goccia-trust
reference=$root/target/debug/goccia-trust

tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
failures=0
check() { # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what" >&2; failures=$((failures + 1)); fi
}

check "SHA256SUMS holds the archive's checksum" \
  bash -c "cd target/dist && grep -F '  $name.tar.gz' SHA256SUMS | sha256sum --check --strict --quiet"

tar -xzf "$archive" -C "$tmp"
contents=$(cd "$tmp" && find . -type f | LC_ALL=C sort | tr '\n' ' ')
expected="./$name/CHANGELOG.md ./$name/LICENSE ./$name/README.md ./$name/complete/_goccia-trust ./$name/complete/_goccia-trust.ps1 ./$name/complete/goccia-trust.bash ./$name/complete/goccia-trust.elv ./$name/complete/goccia-trust.fish ./$name/doc/goccia-trust.1 ./$name/goccia-trust "
check "the archive holds the binary, LICENSE, README, CHANGELOG, man page and completions" \
  test "$contents" = "$expected"
bin=$tmp/$name/goccia-trust

headers=$(readelf --program-headers --dynamic "$bin")
check "the binary is statically linked (no interpreter, no dynamic libraries)" \
  bash -c '! grep -q INTERP <<< "$1" && ! grep -q "(NEEDED)" <<< "$1"' _ "$headers"
check "file(1) calls it static" bash -c 'file "$1" | grep -Eq "static(-pie)? linked|statically linked"' _ "$bin"

if command -v cargo-auditable >/dev/null 2>&1; then
  check "the binary embeds its dependency list (cargo auditable: .dep-v0)" \
    bash -c 'readelf --section-headers "$1" | grep -q "\.dep-v0"' _ "$bin"
fi

commit=$(git log -1 --abbrev=7 --format='%h %cs' 2>/dev/null || true)
want="goccia-trust $version${commit:+ ($commit)}"
check "--version from the archive says '$want'" test "$("$bin" --version)" = "$want"

check "the man page and completions are the binary's own" bash -c '
  cmp -s "$1/doc/goccia-trust.1" <("$2" man) &&
  cmp -s "$1/complete/goccia-trust.bash" <("$2" completions bash) &&
  bash -n "$1/complete/goccia-trust.bash"' _ "$tmp/$name" "$bin"

# The demo tree, scanned, trusted in part and scanned again by both
# binaries, each from scratch: the same bytes (paths and times redacted).
run() { # run BINARY HOME ARGS...: its output (paths and times redacted), its exit
  local b=$1 home=$2 code
  shift 2
  mkdir -p "$home"
  env -i PATH=/usr/bin:/bin HOME="$home" "$b" "$@" > "$tmp/out" 2>&1 && code=0 || code=$?
  sed "s|$tmp|<TMP>|g" "$tmp/out" | sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z/<TS>/g'
  echo "exit $code"
}
demo() { # demo BINARY LABEL (the same paths for both: a fresh tree and HOME)
  rm -rf "$tmp/tree" "$tmp/home"
  cp -R examples/demo/tree "$tmp/tree"
  {
    run "$1" "$tmp/home" scan "$tmp/tree"
    run "$1" "$tmp/home" trust --yes "$tmp/tree/app" "$tmp/tree/web"
    run "$1" "$tmp/home" scan --json "$tmp/tree"
    sed "s|$tmp|<TMP>|g; s/goccia-trust [0-9][^\"]*/goccia-trust V/" "$tmp/home/.config/goccia/trust.json" |
      sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z/<TS>/g'
  } > "$tmp/demo-$2.txt"
}
demo "$bin" archive
demo "$reference" debug
check "scan, trust --yes and scan --json of the demo tree match the tested build" \
  cmp "$tmp/demo-archive.txt" "$tmp/demo-debug.txt"
check "the demo scan found its configs and trusted two" bash -c '
  grep -q "never trusted  <TMP>/tree/cli/goccia.json5" "$1" &&
  grep -q "unknown permission \"allow-nett\"" "$1" &&
  test "$(grep -c "\"trustedBy\": \"goccia-trust V\"" "$1")" = 2' _ "$tmp/demo-archive.txt"

[ $failures -eq 0 ] || { echo "$failures release archive check(s) failed" >&2; exit 1; }
echo "dist-test: $archive passed"

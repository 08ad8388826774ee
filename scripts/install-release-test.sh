#!/usr/bin/env bash
# Tests scripts/install-release.sh, the Actions' install step, as the runner
# runs it: a release archive served from a loopback HTTP server (and a file
# URL) with the checksums committed in a copy of the action's revision.
#
#   install-release-test.sh [BINARY]   (default target/debug/goccia-trust)
#
# A good archive installs and only DEST/bin reaches $GITHUB_PATH; a tampered
# archive or a wrong committed checksum fails with both sums named and
# installs nothing; a revision with no checksums says it builds from source,
# unless it is pinned to its release tag, where the release's attestation
# (gh attestation verify) decides.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
binary=${1:-target/debug/goccia-trust}
[ -x "$binary" ] || { echo "no binary at $binary (cargo build first)" >&2; exit 1; }
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")

tmp=$(mktemp -d)
server=
cleanup() {
  [ -z "$server" ] || kill "$server" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
pass() { echo "ok: $*"; }

version=$(sed -n 's/^version = "\([^"]*\)"$/\1/p' Cargo.toml | head -n 1)
target=x86_64-unknown-linux-musl
name="goccia-trust-$version-$target"
export GOCCIA_TRUST_OS=Linux GOCCIA_TRUST_ARCH=x86_64

# The release: an archive laid out as scripts/dist.sh lays it out.
mkdir -p "$tmp/release/$name" "$tmp/serve"
cp "$binary" "$tmp/release/$name/goccia-trust"
# A debug build's symbols are most of its size (and of the time to pack it).
strip "$tmp/release/$name/goccia-trust" 2>/dev/null || true
cp LICENSE README.md "$tmp/release/$name/"
tar -czf "$tmp/serve/$name.tar.gz" -C "$tmp/release" "$name"
good_sum=$(sha256sum "$tmp/serve/$name.tar.gz" | cut -d' ' -f1)
# The same archive with one more file: what a replaced release asset is.
cp -r "$tmp/release" "$tmp/evil"
echo 'echo pwned' > "$tmp/evil/$name/extra"
mkdir "$tmp/serve-evil"
tar -czf "$tmp/serve-evil/$name.tar.gz" -C "$tmp/evil" "$name"
evil_sum=$(sha256sum "$tmp/serve-evil/$name.tar.gz" | cut -d' ' -f1)
[ "$good_sum" != "$evil_sum" ] || { echo "the tampered archive is not different" >&2; exit 1; }

# The action's revision: its Cargo.toml, and the committed checksums.
action() { # action DIR [SUM]
  mkdir -p "$1/dist-manifest"
  cp Cargo.toml "$1/"
  if [ $# -eq 2 ]; then
    printf '%s  %s\n' 0000000000000000000000000000000000000000000000000000000000000000 \
      "goccia-trust-$version-aarch64-unknown-linux-musl.tar.gz" \
      "$2" "$name.tar.gz" > "$1/dist-manifest/goccia-trust-$version.sha256"
  fi
}
action "$tmp/action-good" "$good_sum"
action "$tmp/action-wrong" "$(printf '%s' "$good_sum" | tr '0-9a-f' '1-9a-f0')"
action "$tmp/action-none"

# A loopback HTTP server on a free port.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$tmp" "$port" > "$tmp/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do
  curl -fs "http://127.0.0.1:$port/serve/" > /dev/null 2>&1 && break
  sleep 0.1
done

run=0
install() { # install ACTION URL -> $out, $code, $dest, $path_file
  run=$((run + 1))
  dest="$tmp/runner-$run/goccia-trust"
  path_file="$tmp/runner-$run/github_path"
  mkdir -p "$tmp/runner-$run"
  : > "$path_file"
  set +e
  out=$(RUNNER_TEMP="$tmp/runner-$run" GITHUB_PATH="$path_file" GOCCIA_TRUST_DOWNLOAD_URL="$2" \
    PATH="${install_path:-$PATH}" bash "$repo/scripts/install-release.sh" "$1" "$dest" 2>&1)
  code=$?
  set -e
}
installed_nothing() { # what a failed install must leave
  [ ! -e "$dest" ] && [ ! -s "$path_file" ] &&
    [ -z "$(find "$tmp/runner-$run" -mindepth 1 ! -name github_path)" ]
}

for url in "http://127.0.0.1:$port/serve" "file://$tmp/serve"; do
  install "$tmp/action-good" "$url"
  if [ $code -eq 0 ] && [ "$("$dest/bin/goccia-trust" --version)" = "$("$binary" --version)" ] &&
    [ "$(cat "$path_file")" = "$dest/bin" ] && grep -q "SHA-256 $good_sum" <<< "$out" &&
    [ "$(ls "$dest/bin")" = goccia-trust ]; then
    pass "a good archive from $url installs, and only $dest/bin is added to GITHUB_PATH"
  else
    fail "good archive from $url: exit $code: $out"
  fi
done

# Windows: a zip holding goccia-trust.exe (this machine's binary under that
# name, so the install's own --version check runs it).
win=goccia-trust-$version-x86_64-pc-windows-msvc
mkdir -p "$tmp/win/$win" "$tmp/serve-win"
cp "$tmp/release/$name/goccia-trust" "$tmp/win/$win/goccia-trust.exe"
(cd "$tmp/win" && zip -q -r "$tmp/serve-win/$win.zip" "$win")
action "$tmp/action-win" "$(sha256sum "$tmp/serve-win/$win.zip" | cut -d' ' -f1)"
sed -i "s/  $name.tar.gz\$/  $win.zip/" "$tmp/action-win/dist-manifest/goccia-trust-$version.sha256"
GOCCIA_TRUST_OS=MINGW64_NT-10.0 install "$tmp/action-win" "http://127.0.0.1:$port/serve-win"
if [ $code -eq 0 ] && [ "$(ls "$dest/bin")" = goccia-trust.exe ] && [ "$(cat "$path_file")" = "$dest/bin" ]; then
  pass "a Windows zip installs goccia-trust.exe"
else
  fail "Windows zip: exit $code: $out"
fi

install "$tmp/action-good" "http://127.0.0.1:$port/serve-evil"
if [ $code -ne 0 ] && grep -q "expected $good_sum, downloaded $evil_sum" <<< "$out" && installed_nothing; then
  pass "a tampered archive fails with both sums and installs nothing"
else
  fail "tampered archive: exit $code: $out"
fi

wrong=$(awk -v f="$name.tar.gz" '$2 == f { print $1 }' "$tmp/action-wrong/dist-manifest/goccia-trust-$version.sha256")
install "$tmp/action-wrong" "http://127.0.0.1:$port/serve"
if [ $code -ne 0 ] && grep -q "expected $wrong, downloaded $good_sum" <<< "$out" && installed_nothing; then
  pass "a wrong committed checksum fails with both sums and installs nothing"
else
  fail "wrong checksum: exit $code: $out"
fi

install "$tmp/action-good" "http://127.0.0.1:$port/missing"
if [ $code -ne 0 ] && grep -q "cannot download" <<< "$out" && installed_nothing; then
  pass "a missing archive fails and installs nothing"
else
  fail "missing archive: exit $code: $out"
fi

# No checksums for this version: the fallback is announced. With no cargo
# on PATH it stops there (building is what `cargo install` is for).
mkdir "$tmp/nocargo"
for tool in bash sed head awk uname mkdir mktemp rm cat; do ln -s "$(command -v "$tool")" "$tmp/nocargo/"; done
install_path="$tmp/nocargo"
install "$tmp/action-none" "http://127.0.0.1:$port/serve"
unset install_path
if [ $code -ne 0 ] && grep -q "::notice title=goccia-trust install::this revision is not a release of $version (no dist-manifest/goccia-trust-$version.sha256): building goccia-trust $version from the action's revision with cargo install --locked" <<< "$out" &&
  grep -q "cargo is not installed" <<< "$out" && installed_nothing; then
  pass "a revision that is not a release says it builds with cargo install"
else
  fail "not a release: exit $code: $out"
fi

# Pinned to the release tag, whose tree has no checksums yet: the archive's
# build provenance decides, checked by gh (a stand-in here that records its
# arguments and answers as told: the real one needs GitHub's attestation
# service). A failed verification installs nothing; a ref that is not the
# version's tag builds as before.
mkdir "$tmp/fake-gh"
printf '#!/bin/sh\nprintf "%%s\\n" "$*" >> "%s"\nexit ${FAKE_GH_EXIT:-0}\n' "$tmp/gh.log" > "$tmp/fake-gh/gh"
chmod +x "$tmp/fake-gh/gh"
install_path="$tmp/fake-gh:$PATH"
GOCCIA_TRUST_ACTION_REF="v$version" install "$tmp/action-none" "http://127.0.0.1:$port/serve"
slug=$(sed -n 's#^repository = "https://github.com/\(.*\)"$#\1#p' Cargo.toml | head -n 1)
if [ $code -eq 0 ] && [ "$("$dest/bin/goccia-trust" --version)" = "$("$binary" --version)" ] &&
  grep -q "build provenance verified" <<< "$out" &&
  grep -qx "attestation verify .*/$name.tar.gz --repo $slug --signer-workflow $slug/.github/workflows/release.yml --source-ref refs/tags/v$version --deny-self-hosted-runners" "$tmp/gh.log"; then
  pass "an action pinned to its release tag installs the archive its attestation vouches for"
else
  fail "release tag, attested: exit $code: $out; gh: $(cat "$tmp/gh.log" 2>/dev/null)"
fi
export FAKE_GH_EXIT=1
GOCCIA_TRUST_ACTION_REF="v$version" install "$tmp/action-none" "http://127.0.0.1:$port/serve"
unset FAKE_GH_EXIT
if [ $code -ne 0 ] && grep -q "has no build provenance from $slug/.github/workflows/release.yml for refs/tags/v$version" <<< "$out" && installed_nothing; then
  pass "an archive whose attestation does not verify installs nothing"
else
  fail "release tag, not attested: exit $code: $out"
fi
install_path="$tmp/fake-gh:$tmp/nocargo"
GOCCIA_TRUST_ACTION_REF=main install "$tmp/action-none" "http://127.0.0.1:$port/serve"
unset install_path
if [ $code -ne 0 ] && grep -q "this revision is not a release of $version" <<< "$out" && installed_nothing; then
  pass "a branch ref is not a release tag: it builds"
else
  fail "branch ref: exit $code: $out"
fi

mkdir -p "$tmp/runner-existing/goccia-trust"
set +e
out=$(GITHUB_PATH=/dev/null bash scripts/install-release.sh "$tmp/action-good" "$tmp/runner-existing/goccia-trust" 2>&1)
code=$?
set -e
if [ $code -ne 0 ] && grep -q "already exists" <<< "$out"; then
  pass "an existing install directory is refused"
else
  fail "existing directory: exit $code: $out"
fi

[ $failures -eq 0 ] || { echo "$failures install test(s) failed" >&2; exit 1; }
echo "install-release: all tests passed"

#!/usr/bin/env bash
# Release archives:
#
#   scripts/dist.sh [TARGET...]
#   scripts/dist.sh --sums      (SHA256SUMS only, over the archives present)
#
# writes target/dist/goccia-trust-VERSION-TARGET.tar.gz (.zip for Windows)
# for each TARGET, each holding one directory goccia-trust-VERSION-TARGET/
# with the binary, LICENSE, README.md, CHANGELOG.md, the man page
# (doc/goccia-trust.1) and the completion scripts (complete/), and then
# target/dist/SHA256SUMS over every archive of VERSION in target/dist/.
# With no TARGET, every target this machine can build:
#
#   Linux x86_64   x86_64-unknown-linux-musl (rustup target; static-pie)
#                  aarch64-unknown-linux-musl (cargo-zigbuild + ziglang)
#                  x86_64-pc-windows-gnu (mingw-w64's gcc as the linker)
#   macOS          x86_64-apple-darwin, aarch64-apple-darwin
#   Windows        x86_64-pc-windows-msvc
#
# The man page and completions are made by the binary itself: the target's
# binary when it runs here, else this machine's own build of the same commit
# (same command-line definition, same version string).
#
# Binaries are built with `cargo auditable` when it is installed (their
# dependency list embedded for `cargo audit bin`); DIST_AUDITABLE=required (the release workflow) requires it.
# SOURCE_DATE_EPOCH (default: the commit's time) fixes the archives' times.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

version=$(sed -n 's/^version = "\([^"]*\)"$/\1/p' Cargo.toml | head -n 1)
[ -n "$version" ] || { echo "dist: no version in Cargo.toml" >&2; exit 1; }
dist=$root/target/dist
mkdir -p "$dist"
# Where cargo writes its builds: CARGO_TARGET_DIR, build.target-dir or
# target/, as cargo itself resolves them (JSON's `\\` is one backslash).
target_dir=$(cargo metadata --format-version 1 --no-deps --locked |
  sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p' | sed 's/\\\\/\\/g')
[ -n "$target_dir" ] || { echo "dist: cargo metadata gave no target_directory" >&2; exit 1; }
: "${SOURCE_DATE_EPOCH:=$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
export SOURCE_DATE_EPOCH

host=$(rustc -vV | sed -n 's/^host: //p')
have() { command -v "$1" >/dev/null 2>&1; }
zig_ok() { have zig || have python-zig || python3 -c 'import ziglang' 2>/dev/null; }

sums_only=false
if [ "${1:-}" = --sums ]; then
  sums_only=true
  shift
  set -- none
fi
if [ $# -eq 0 ]; then
  case "$host" in
    x86_64-unknown-linux-*)
      set -- x86_64-unknown-linux-musl
      if have cargo-zigbuild && zig_ok; then set -- "$@" aarch64-unknown-linux-musl
      else echo "dist: skipping aarch64-unknown-linux-musl (needs cargo-zigbuild and ziglang)" >&2; fi
      if have x86_64-w64-mingw32-gcc; then set -- "$@" x86_64-pc-windows-gnu
      else echo "dist: skipping x86_64-pc-windows-gnu (needs gcc-mingw-w64-x86-64)" >&2; fi
      ;;
    *-apple-darwin) set -- x86_64-apple-darwin aarch64-apple-darwin ;;
    *-pc-windows-msvc) set -- x86_64-pc-windows-msvc ;;
    *) set -- "$host" ;;
  esac
fi

auditable=()
if $sums_only; then
  set --
elif have cargo-auditable; then
  auditable=(auditable)
elif [ "${DIST_AUDITABLE:-}" = required ]; then
  echo "dist: cargo-auditable is not installed (cargo install --locked cargo-auditable)" >&2
  exit 1
else
  echo "dist: cargo-auditable is not installed: the binaries carry no dependency list" >&2
fi

# This machine's build, for the man page and completions of binaries that
# cannot run here. Debug: only its output is used, and CI has built it.
host_bin=
host_binary() {
  if [ -z "$host_bin" ]; then
    cargo build --locked --quiet --bin goccia-trust
    host_bin=$target_dir/debug/goccia-trust$( [[ "$host" == *windows* ]] && echo .exe)
  fi
  echo "$host_bin"
}

for target in "$@"; do
  case "$target" in
    *-windows-*) exe=.exe ext=zip ;;
    *) exe= ext=tar.gz ;;
  esac
  build=(build)
  if [ "$target" = aarch64-unknown-linux-musl ] && [[ "$host" != aarch64-* ]]; then
    # zig as the cross linker (cargo-zigbuild), from the ziglang wheel when
    # no zig is on PATH.
    build=(zigbuild)
  fi
  rustup target list --installed 2>/dev/null | grep -qx "$target" || rustup target add "$target"
  echo "dist: building $target (cargo ${auditable[*]} ${build[*]})" >&2
  cargo "${auditable[@]}" "${build[@]}" --locked --release --target "$target" --bin goccia-trust

  name=goccia-trust-$version-$target
  stage=$dist/stage/$name
  rm -rf "$dist/stage" && mkdir -p "$stage/doc" "$stage/complete"
  cp "$target_dir/$target/release/goccia-trust$exe" "$stage/"
  cp LICENSE README.md CHANGELOG.md "$stage/"

  gen=$stage/goccia-trust$exe
  "$gen" --version >/dev/null 2>&1 || gen=$(host_binary)
  "$gen" man > "$stage/doc/goccia-trust.1"
  # The completion scripts call back the binary by the name it was run
  # with: run as plain `goccia-trust`, they find the installed one on PATH.
  (exec -a goccia-trust "$gen" completions bash) > "$stage/complete/goccia-trust.bash"
  (exec -a goccia-trust "$gen" completions zsh) > "$stage/complete/_goccia-trust"
  (exec -a goccia-trust "$gen" completions fish) > "$stage/complete/goccia-trust.fish"
  (exec -a goccia-trust "$gen" completions elvish) > "$stage/complete/goccia-trust.elv"
  (exec -a goccia-trust "$gen" completions powershell) > "$stage/complete/_goccia-trust.ps1"

  archive=$dist/$name.$ext
  rm -f "$archive"
  find "$dist/stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} + 2>/dev/null || true
  if [ "$ext" = zip ]; then
    if have zip; then
      (cd "$dist/stage" && find "$name" | LC_ALL=C sort | zip -X -q "$archive" -@)
    elif have 7z; then
      (cd "$dist/stage" && 7z a -tzip -bd "$archive" "$name" >/dev/null)
    else
      (cd "$dist/stage" && "$(command -v python3 || command -v python)" -m zipfile -c "$archive" "$name")
    fi
  elif tar --version 2>/dev/null | grep -q GNU; then
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
      -C "$dist/stage" -cf - "$name" | gzip -n -9 > "$archive"
  else
    tar -C "$dist/stage" -cf - "$name" | gzip -n -9 > "$archive"
  fi
  rm -rf "$dist/stage"
  echo "dist: $archive" >&2
done

# Checksums of every archive of this version here (the release workflow
# gathers the archives of every runner and runs this step alone: --sums).
(
  cd "$dist"
  shopt -s nullglob
  archives=(goccia-trust-"$version"-*.tar.gz goccia-trust-"$version"-*.zip)
  if have sha256sum; then sha256sum "${archives[@]}"; else shasum -a 256 "${archives[@]}"; fi > SHA256SUMS
)
echo "dist: $dist/SHA256SUMS" >&2
cat "$dist/SHA256SUMS"

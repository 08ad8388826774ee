#!/usr/bin/env bash
# Installs goccia-trust for the Actions (action.yml, diff/action.yml):
#
#   install-release.sh SOURCE DEST
#
# SOURCE is the action's own revision (the directory holding Cargo.toml);
# DEST a directory that must not exist yet: the binary goes to DEST/bin,
# and DEST/bin is added to $GITHUB_PATH when that is set. Nothing else is
# ever put on the PATH.
#
# The version is SOURCE's Cargo.toml version. When SOURCE holds the
# checksums of that version's release (dist-manifest/goccia-trust-VERSION.
# sha256, committed by .github/workflows/release.yml), the release archive
# for this machine is downloaded and installed only if its SHA-256 is the
# one committed there: the checksum comes from the action's revision, never
# from beside the archive, so a replaced release asset cannot be installed.
# A mismatch fails with both sums and leaves DEST uncreated. A revision that
# is not a release (no checksums for its version, or none for this machine)
# is built from SOURCE with `cargo install --locked`, and the log says so.
#
# An action pinned to its release tag (GOCCIA_TRUST_ACTION_REF, the
# action's ref, is exactly v<version>) whose tree holds no checksums (the
# release workflow commits them after tagging) installs the release archive
# only if `gh attestation verify` finds its build provenance signed by this
# repository's release workflow for that very tag (--signer-workflow,
# --source-ref refs/tags/v<version>); a failed verification fails and
# installs nothing. Without gh, that revision is built like any other.
#
# GOCCIA_TRUST_DOWNLOAD_URL replaces the release download base
# (<repository>/releases/download/v<version>), for the tests
# (scripts/install-release-test.sh) and mirrors; the checksum still decides.
set -euo pipefail

die() {
  echo "::error title=goccia-trust install::$*" >&2
  exit 1
}

[ $# -eq 2 ] || die "usage: install-release.sh SOURCE DEST"
source_dir=$1
dest=$2
[ -f "$source_dir/Cargo.toml" ] || die "$source_dir/Cargo.toml: not found"
[ ! -e "$dest" ] && [ ! -L "$dest" ] || die "$dest already exists: the install directory must be new"

# The [package] table's version and repository (the first of each).
package_field() {
  sed -n "s/^$1 = \"\\([^\"]*\\)\"\$/\\1/p" "$source_dir/Cargo.toml" | head -n 1
}
version=$(package_field version)
repository=$(package_field repository)
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$ ]] ||
  die "$source_dir/Cargo.toml: no usable version (\"$version\")"

# This machine's release target and archive.
os=${GOCCIA_TRUST_OS:-$(uname -s)}
arch=${GOCCIA_TRUST_ARCH:-$(uname -m)}
case "$os/$arch" in
  Linux/x86_64 | Linux/amd64) target=x86_64-unknown-linux-musl ;;
  Linux/aarch64 | Linux/arm64) target=aarch64-unknown-linux-musl ;;
  Darwin/x86_64) target=x86_64-apple-darwin ;;
  Darwin/arm64 | Darwin/aarch64) target=aarch64-apple-darwin ;;
  MINGW*/x86_64 | MSYS*/x86_64 | CYGWIN*/x86_64 | Windows*/x86_64) target=x86_64-pc-windows-msvc ;;
  *) target= ;;
esac
case "$target" in
  *-windows-*) ext=zip exe=.exe ;;
  *) ext=tar.gz exe= ;;
esac
name="goccia-trust-$version-$target"
archive="$name.$ext"
manifest="dist-manifest/goccia-trust-$version.sha256"

expected=
if [ -n "$target" ] && [ -f "$source_dir/$manifest" ]; then
  # "<sha256>  <file>" lines (sha256sum's format, "*" for binary mode).
  expected=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1; exit }' "$source_dir/$manifest")
fi
# No committed checksums, but the action is pinned to this version's release
# tag: the release's attestation vouches for the archive, checked with gh.
attested=
if [ -z "$expected" ] && [ -n "$target" ] && [ ! -f "$source_dir/$manifest" ] &&
  [ "${GOCCIA_TRUST_ACTION_REF:-}" = "v$version" ] && command -v gh >/dev/null 2>&1; then
  slug=${repository#https://github.com/}
  [[ "$slug" =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]] ||
    die "$source_dir/Cargo.toml: the repository ($repository) is not a GitHub repository whose attestations gh can verify"
  attested=$slug
fi

if [ -z "$expected" ] && [ -z "$attested" ]; then
  if [ -z "$target" ]; then
    why="no release archive is built for $os/$arch"
  elif [ -f "$source_dir/$manifest" ]; then
    why="$manifest has no checksum for $archive"
  else
    why="this revision is not a release of $version (no $manifest)"
  fi
  echo "::notice title=goccia-trust install::$why: building goccia-trust $version from the action's revision with cargo install --locked (a few minutes)"
  command -v cargo >/dev/null 2>&1 || die "$why, and cargo is not installed to build it"
  cargo install --locked --path "$source_dir" --root "$dest"
else
  [ -n "$attested" ] || [[ "$expected" =~ ^[0-9a-f]{64}$ ]] ||
    die "$manifest: the checksum of $archive is not a SHA-256 (\"$expected\")"
  [ -n "$repository" ] || [ -n "${GOCCIA_TRUST_DOWNLOAD_URL:-}" ] ||
    die "$source_dir/Cargo.toml names no repository to download from"
  base=${GOCCIA_TRUST_DOWNLOAD_URL:-$repository/releases/download/v$version}
  url="$base/$archive"

  work=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/goccia-trust-download.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  echo "Downloading $url"
  curl --fail --silent --show-error --location --retry 3 --output "$work/$archive" "$url" ||
    die "cannot download $url"

  if [ -n "$attested" ]; then
    workflow="$attested/.github/workflows/release.yml"
    gh attestation verify "$work/$archive" --repo "$attested" --signer-workflow "$workflow" \
      --source-ref "refs/tags/v$version" --deny-self-hosted-runners >&2 ||
      die "$archive has no build provenance from $workflow for refs/tags/v$version (gh attestation verify failed); nothing was installed"
    echo "$archive: build provenance verified (gh attestation verify: $workflow at refs/tags/v$version)"
  else
    if command -v sha256sum >/dev/null 2>&1; then
      actual=$(sha256sum "$work/$archive" | cut -d' ' -f1)
    else
      actual=$(shasum -a 256 "$work/$archive" | cut -d' ' -f1)
    fi
    if [ "$actual" != "$expected" ]; then
      die "$archive does not match the checksum committed in the action's revision ($manifest): expected $expected, downloaded $actual; nothing was installed"
    fi
    echo "$archive: SHA-256 $actual, as $manifest says"
  fi

  mkdir "$work/x"
  if [ "$ext" = zip ] && command -v unzip >/dev/null 2>&1; then
    unzip -q "$work/$archive" "$name/goccia-trust$exe" -d "$work/x"
  elif [ "$ext" = zip ]; then
    # Windows' own bsdtar reads zip (Git Bash's GNU tar does not).
    (cd "$work/x" && "${SYSTEMROOT:-C:/Windows}/System32/tar.exe" -xf "../$archive" "$name/goccia-trust$exe")
  else
    tar -xzf "$work/$archive" -C "$work/x" "$name/goccia-trust$exe"
  fi
  [ -f "$work/x/$name/goccia-trust$exe" ] && [ ! -L "$work/x/$name/goccia-trust$exe" ] ||
    die "$archive holds no $name/goccia-trust$exe"
  mkdir "$dest" "$dest/bin"
  mv "$work/x/$name/goccia-trust$exe" "$dest/bin/goccia-trust$exe"
  chmod 755 "$dest/bin/goccia-trust$exe"
fi

"$dest/bin/goccia-trust$exe" --version
if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$dest/bin" >> "$GITHUB_PATH"
fi

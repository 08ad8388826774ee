#!/bin/sh
# Regenerate screenshots/*.svg and *.png, and README's demo `scan` block,
# from the live demo (src/demo.rs, examples/demo/) built in
# /tmp/goccia-trust-demo, offline.
# Needs rsvg-convert (Debian: librsvg2-bin) and DejaVu Sans Mono
# (fonts-dejavu-core); installs them when missing and running as root.
set -eu
cd "$(dirname "$0")/.."

install() {
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && apt-get install -y -qq "$1"
    else
        echo "error: install the Debian package $1" >&2
        exit 1
    fi
}
command -v rsvg-convert >/dev/null 2>&1 || install librsvg2-bin
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ] || install fonts-dejavu-core

CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}" cargo run --quiet --example screenshots -- screenshots /tmp/goccia-trust-demo README.md
for svg in screenshots/*.svg; do
    rsvg-convert -z 1.5 -o "${svg%.svg}.png" "$svg"
    echo "${svg%.svg}.png"
done

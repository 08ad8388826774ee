#!/usr/bin/env bash
# Peak memory and time at scale (issue 45): a synthetic monorepo of
# 2×CONFIGS directories and CONFIGS configs (scripts/gen-tree.py), and the
# commands whose memory grew with it, each run alone with /usr/bin/time -v:
#
#   scan TREE (against an empty store), trust --yes TREE (all new, into an
#   empty store), list (the store just written), scan --json TREE, status
#   --tree TREE, and sha256sum over the same config files (list's floor).
#
# usage: scripts/bench-scale.sh [--configs N] [--runs R] [--binary PATH]
#   --configs N   configs in the tree (default 20000; the tree is kept in
#                 /tmp/goccia-bench-scale/tN and reused)
#   --runs R      runs of each command; the table shows the median time
#                 and the largest peak RSS (default 3)
#   --binary PATH the goccia-trust to measure (default: the release build,
#                 built first)
# It measures; it fails only when a command does (list and status may exit
# 1 when an entry is not OK; that is not a failure here).
set -euo pipefail

configs=20000
runs=3
binary=""
while [ $# -gt 0 ]; do
    case "$1" in
        --configs) configs="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --binary) binary="$2"; shift 2 ;;
        *) echo "usage: $0 [--configs N] [--runs R] [--binary PATH]" >&2; exit 2 ;;
    esac
done
repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$repo/scripts/bench-lib.sh"
bench_lock
binary="$(bench_binary "$repo" "$binary")"

root="/tmp/goccia-bench-scale"
tree="$root/t$configs"
store="$root/store-$configs.json"
mkdir -p "$root"
if [ ! -d "$tree" ]; then
    python3 "$repo/scripts/gen-tree.py" "$tree" "$((configs * 2))" "$configs" >/dev/null
fi
find "$tree" \( -name node_modules -o -name .git \) -prune -o -type f -name 'goccia.*' -print \
    | sort >"$root/files-$configs"

# One run: prints "SECONDS KIB".
measure() {
    local out
    out="$(mktemp)"
    /usr/bin/time -f '%e %M' -o "$out" "$@" >/dev/null 2>/dev/null || {
        local rc=$?
        # list/status exit 1 on a stale entry; anything else is a failure.
        [ "$rc" -eq 1 ] || { echo "failed ($rc): $*" >&2; exit 1; }
    }
    tail -1 "$out"
    rm -f "$out"
}

# NAME, then the command: runs it RUNS times, prints a table row.
row() {
    local name="$1"; shift
    local times=() peak=0 t k
    for _ in $(seq "$runs"); do
        [ "$name" = "trust --yes" ] && rm -f "$store"
        read -r t k < <(measure "$@")
        times+=("$t")
        [ "$k" -gt "$peak" ] && peak="$k"
    done
    printf '| %s | %s s | %s |\n' "$name" "$(bench_median "${times[@]}")" "$(bench_mib "$peak")"
}

cd "$root"
bench_header "$binary" "$configs configs, $((configs * 2)) directories; median of $runs runs, largest peak RSS"
echo
echo "| command | time | peak RSS |"
echo "|---|---|---|"
g=("$binary" "--trust-store=$store")
# scan against an empty store, as trust --yes starts; the rows after it
# read the store trust --yes wrote.
rm -f "$store"
row "scan" "${g[@]}" scan "$tree"
row "trust --yes" "${g[@]}" trust --yes "$tree"
row "list" "${g[@]}" list
row "scan --json" "${g[@]}" scan --json "$tree"
row "status --tree" "${g[@]}" status --tree "$tree"
row "sha256sum (list's floor)" xargs -a "$root/files-$configs" sha256sum

#!/usr/bin/env bash
# `review verify` over many signed review records (issue 43): a repository
# of RECORDS configs, each signed once with a real ssh-keygen ed25519 key
# (`review sign --yes`, one ssh-keygen run per config), then `review
# verify --reviewed-by` and `review list` timed with /usr/bin/time -v, and
# `ssh-keygen -Y verify` of one record for scale.
#
# usage: scripts/bench-reviews.sh [--records N] [--runs R] [--binary PATH]
#   --records N   configs, one record each (default 1000; the repository is
#                 kept in /tmp/goccia-bench-reviews/rN and reused)
#   --runs R      runs of each command; the table shows the median time and
#                 the largest peak RSS (default 5)
#   --binary PATH the goccia-trust to measure (default: the release build,
#                 built first)
# It measures; it fails only when the set-up or a command does.
set -euo pipefail

records=1000
runs=5
binary=""
while [ $# -gt 0 ]; do
    case "$1" in
        --records) records="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --binary) binary="$2"; shift 2 ;;
        *) echo "usage: $0 [--records N] [--runs R] [--binary PATH]" >&2; exit 2 ;;
    esac
done
repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$repo/scripts/bench-lib.sh"
bench_lock
binary="$(bench_binary "$repo" "$binary")"
command -v ssh-keygen >/dev/null || { echo "needs ssh-keygen" >&2; exit 2; }

root="/tmp/goccia-bench-reviews"
tree="$root/r$records"
home="$root/home"
mkdir -p "$home"
chmod 700 "$root" "$home"
key="$home/alice"
[ -f "$key" ] || ssh-keygen -q -t ed25519 -N "" -C alice -f "$key"
allowed="$home/allowed_signers"
printf 'alice@example.com %s\n' "$(cut -d' ' -f1-2 "$key.pub")" >"$allowed"
chmod 600 "$allowed"
export HOME="$home" GOCCIA_TRUST_STATE_DIR="$root/state"

if [ ! -f "$tree/.goccia/reviews.jsonl" ]; then
    rm -rf "$tree"
    mkdir -p "$tree/.git"
    for i in $(seq 1 "$records"); do
        mkdir -p "$tree/c$i"
        printf '{"permissions":{"allow-net":["api%d.example.com"]}}\n' "$i" >"$tree/c$i/goccia.json"
    done
    (cd "$tree" && "$binary" review sign --yes --key "$key" \
        --principal alice@example.com . >/dev/null 2>&1)
fi
lines=$(grep -c . "$tree/.goccia/reviews.jsonl")
[ "$lines" -eq "$records" ] || { echo "expected $records records, found $lines" >&2; exit 1; }

# median seconds and largest peak RSS (KiB) of `runs` runs of "$@" in $tree
measure() {
    local times=() rss=0 out
    for _ in $(seq 1 "$runs"); do
        out=$(cd "$tree" && /usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null | tail -1)
        times+=("${out% *}")
        [ "${out#* }" -gt "$rss" ] && rss="${out#* }"
    done
    printf '%s s | %s' "$(bench_median "${times[@]}")" "$(bench_mib "$rss")"
}

bench_header "$binary" "$records records in one reviews file ($(du -k "$tree/.goccia/reviews.jsonl" | cut -f1) KiB); median of $runs runs, largest peak RSS"
echo
echo "| command | time | peak RSS |"
echo "|---|---|---|"
echo "| review verify --reviewed-by | $(measure "$binary" review verify --reviewed-by "$allowed") |"
echo "| review list --reviewed-by | $(measure "$binary" review list --reviewed-by "$allowed") |"
echo "| review list (no allowed signers) | $(measure "$binary" review list) |"
first=$(head -1 "$tree/.goccia/reviews.jsonl")
python3 - "$first" "$root/one" <<'EOF'
import json, sys
r = json.loads(sys.argv[1])
payload = {k: r[k] for k in ("digest", "key", "note", "path", "principal", "signedAt")}
open(sys.argv[2] + ".sig", "w").write(r["sig"])
open(sys.argv[2] + ".payload", "wb").write(
    b"goccia-trust-review-v1\n" + json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode() + b"\n")
EOF
echo "| ssh-keygen -Y verify, one record | $(measure sh -c "ssh-keygen -Y verify -f '$allowed' -I alice@example.com -n goccia-trust-review -s '$root/one.sig' <'$root/one.payload'") |"

# Shared by the bench-*.sh scripts that time one command at a time with GNU
# time: sourced, never run. Each function measures nothing by itself.

# The goccia-trust to measure, as an absolute path: $2 when given, else the
# release build of the repository at $1, built first. Fails without GNU time.
bench_binary() {
    local repo="$1" binary="$2"
    if [ -z "$binary" ]; then
        (cd "$repo" && cargo build --release --locked --quiet --bin goccia-trust)
        binary="$repo/target/release/goccia-trust"
    fi
    [ -x /usr/bin/time ] || { echo "needs /usr/bin/time (GNU time)" >&2; return 2; }
    echo "$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
}

# The median of the numbers given as arguments (the upper one of an even count).
bench_median() {
    printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# KiB as MiB with one decimal.
bench_mib() {
    printf '%.1f MiB' "$(echo "$1 / 1024" | bc -l)"
}

# The first line of a table: when, on what, which binary, then $2 (what was
# measured), and the load at the start. $1 is the binary.
bench_header() {
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m), $(nproc) cores, $(uname -r); $(basename "$1") $("$1" --version | head -1); $2; load average at the start $(cut -d' ' -f1-3 /proc/loadavg)"
}

# Holds /tmp/goccia-bench.lock until the script exits, so that two
# benchmarks never run at once: they would share /tmp trees and stores
# (one deleting the store another is reading) and slow each other's
# timings. Waits, saying so, when another benchmark holds it.
bench_lock() {
    exec 9>/tmp/goccia-bench.lock
    if ! flock -n 9; then
        echo "waiting for another benchmark (it holds /tmp/goccia-bench.lock)" >&2
        flock 9
    fi
}
